"""Celery tasks of backgammon score sheets: thin and idempotent."""

from celery import shared_task

from games.backgammon import services


@shared_task(acks_late=True, ignore_result=True)
def confirm_game_when_due(game_id: int) -> bool:
    """Scheduled for a game's confirmation deadline: confirm it if still unchallenged."""
    return services.confirm_if_due(game_id)


@shared_task(acks_late=True, ignore_result=True)
def confirm_overdue_games() -> int:
    """Beat's sweep: confirm any overdue game whose scheduled task was lost."""
    return services.confirm_overdue_games()
