"""Celery tasks of the tournaments: thin and idempotent, the services do the work."""

from celery import shared_task

from tournaments import services


@shared_task(acks_late=True, ignore_result=True)
def confirm_result_when_due(submission_id: int) -> bool:
    """Scheduled for a result's confirmation deadline: confirm it if still unchallenged."""
    return services.confirm_if_due(submission_id)


@shared_task(acks_late=True, ignore_result=True)
def confirm_overdue_results() -> int:
    """Beat's sweep: confirm any overdue result whose scheduled task was lost."""
    return services.confirm_overdue_results()
