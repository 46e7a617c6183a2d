"""Scheduling a Celery task for a deadline, once the transaction that set it commits."""

from __future__ import annotations

import logging
from datetime import datetime

from django.db import transaction

logger = logging.getLogger(__name__)


def run_at(task, args: tuple, eta: datetime, what: str) -> None:
    """Send ``task(*args)`` to run at ``eta`` after the current transaction commits.

    If the broker cannot be reached the error is logged, not raised: the change is
    already stored, and beat's sweep acts on every overdue deadline anyway.
    """

    def send() -> None:
        try:
            task.apply_async(args, eta=eta)
        except Exception:
            logger.exception("Could not schedule %s for %s", what, eta)

    transaction.on_commit(send)
