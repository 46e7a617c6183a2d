"""Celery tasks of the clocks: thin and idempotent (``clocks.services.enforce``)."""

from celery import shared_task

from clocks import services


@shared_task(acks_late=True, ignore_result=True)
def enforce_clock(clock_id: int, version: int, attempt: int = 0) -> str:
    """Scheduled for a clock's deadline: apply the flag if the version is unchanged and
    the time is up (or re-schedule if it woke early, or if the match is busy)."""
    return services.enforce_scheduled(clock_id, version, attempt)


@shared_task(acks_late=True, ignore_result=True)
def enforce_overdue_clocks() -> int:
    """Beat's sweep every few seconds: act on any deadline whose task was lost."""
    return services.enforce_overdue()
