"""Rows a batch of writes inserts at its end (``tournaments.deferred_inserts``)."""

import pytest

from tournaments import audit, deferred_inserts
from tournaments.access import SYSTEM
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db


def logged(tournament) -> list[str]:
    return list(
        AuditEntry.objects.filter(tournament=tournament, action__startswith="test.")
        .values_list("message", flat=True)
        .order_by("id")
    )


def test_outside_a_batch_a_row_is_written_at_once(tournament):
    audit.record(tournament, SYSTEM, "test.one", message="1")
    assert logged(tournament) == ["1"]


def test_in_a_batch_the_rows_are_written_at_its_end_in_order_in_one_statement(tournament, django_assert_num_queries):
    with deferred_inserts.inserts_at_end():
        for number in range(5):
            audit.record(tournament, SYSTEM, "test.many", message=str(number))
        assert logged(tournament) == []
        with django_assert_num_queries(1):
            deferred_inserts.flush()
        assert logged(tournament) == ["0", "1", "2", "3", "4"]
        audit.record(tournament, SYSTEM, "test.many", message="5")
    assert logged(tournament) == ["0", "1", "2", "3", "4", "5"]


def test_a_batch_that_fails_writes_nothing_it_kept(tournament):
    with pytest.raises(RuntimeError), deferred_inserts.inserts_at_end():
        audit.record(tournament, SYSTEM, "test.failed", message="kept")
        raise RuntimeError("the batch fails")
    assert logged(tournament) == []
    audit.record(tournament, SYSTEM, "test.after", message="after")  # the batch is over
    assert logged(tournament) == ["after"]
