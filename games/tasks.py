"""Celery tasks of the games whose games are confirmed one by one (``games.game_log``):
thin and idempotent."""

from celery import shared_task

from games.game_log import LOGS


@shared_task(acks_late=True, ignore_result=True)
def confirm_game_when_due(game_type: str, game_id: int) -> bool:
    """Scheduled for a game's confirmation deadline: confirm it if still unchallenged."""
    log = LOGS.get(game_type)
    return log is not None and log.confirm_if_due(game_id)


@shared_task(acks_late=True, ignore_result=True)
def confirm_overdue_games() -> int:
    """Beat's sweep: confirm any overdue game whose scheduled task was lost."""
    return sum(log.confirm_overdue() for log in LOGS.values())
