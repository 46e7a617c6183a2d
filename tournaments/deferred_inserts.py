"""Rows that a batch of writes inserts at its end, one statement per model.

Inside ``inserts_at_end()`` (one transaction enforcing many clocks, say), ``insert(row)``
keeps the row and writes it, with the others of its model, as the block's last step;
outside it, ``insert`` saves the row at once. Only for rows nobody reads back, nor
refers to, before the block ends: the audit log, a clock's events (``flush`` before a
read that needs them)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

from django.db.models import Model

_PENDING: ContextVar[list[Model] | None] = ContextVar("deferred_inserts", default=None)


@contextmanager
def inserts_at_end() -> Iterator[None]:
    """Keep the rows ``insert`` is given until the block ends without an error."""
    token = _PENDING.set([])
    try:
        yield
        flush()
    finally:
        _PENDING.reset(token)


def insert(row: Model) -> Model:
    pending = _PENDING.get()
    if pending is None:
        row.save(force_insert=True)
    else:
        pending.append(row)
    return row


def flush() -> None:
    """Write every row kept so far (in order, one INSERT per model)."""
    pending = _PENDING.get()
    if not pending:
        return
    by_model: dict[type[Model], list[Model]] = {}
    for row in pending:
        by_model.setdefault(type(row), []).append(row)
    pending.clear()
    for model, rows in by_model.items():
        model._default_manager.bulk_create(rows)
