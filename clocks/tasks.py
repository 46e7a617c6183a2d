"""Celery tasks of the clocks: thin and idempotent (``clocks.services.enforce``)."""

from celery import shared_task

from clocks import services


@shared_task(acks_late=True, ignore_result=True)
def enforce_clock(clock_id: int, version: int, attempt: int = 0) -> str:
    """One clock's deadline (beyond the horizon, and tasks sent before the buckets): apply
    the flag if the version is unchanged and the time is up (or re-schedule if it woke
    early, or if the match is busy)."""
    return services.enforce_scheduled(clock_id, version, attempt)


@shared_task(acks_late=True, ignore_result=True)
def enforce_due_clocks(due_ms: int, attempt: int = 0) -> int:
    """Scheduled for a bucket of deadlines (all those due by ``due_ms``, the server's
    time in ms): apply every flag that is due, in batches."""
    return services.enforce_bucket(due_ms, attempt)


@shared_task(acks_late=True, ignore_result=True)
def enforce_overdue_clocks() -> int:
    """Beat's sweep every few seconds: act on any deadline whose task was lost."""
    return services.enforce_overdue()
