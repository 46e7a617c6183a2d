"""Rows read on a plain cursor (``tournaments.rows``) are what the ORM reads: the same
values, converted the same way (datetimes, booleans, JSON, NULLs), in the same order."""

from __future__ import annotations

import pytest
from django.utils import timezone

from tests.conftest import first_round, play
from tournaments import rows
from tournaments.models import Entry, Match, Round

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(tournament):
    """A tournament with a decided match, a withdrawn player, round settings (JSON) and an
    entry without a seed (NULL)."""
    play(first_round(tournament)[0])
    Round.objects.filter(tournament=tournament, number=2).update(settings={"best_of": 3, "note": ["č", None]})
    last = tournament.entries.order_by("-pk").first()
    Entry.objects.filter(pk=last.pk).update(withdrawn_at=timezone.now(), seed=None)
    return tournament


@pytest.mark.parametrize(
    ("model", "where", "order_by"),
    [
        (Match, "{tournament_id} = %s", ("flight", "round_number", "position")),
        (Match, "{tournament_id} = %s AND {decided_at} IS NOT NULL", ()),
        (Round, "{tournament_id} = %s", ("flight", "-number")),
        (Entry, "{tournament_id} = %s", ("bracket_seed", "seed", "name")),
        (Entry, "{tournament_id} = %s AND {withdrawn_at} IS NOT NULL", ("id",)),
    ],
)
def test_rows_are_what_the_orm_reads(played, model, where, order_by):
    names = rows.attnames(model)
    fetched = rows.fetch(model, names, where, [played.pk], order_by)
    queryset = model.objects.filter(tournament_id=played.pk)
    if "decided_at" in where:
        queryset = queryset.filter(decided_at__isnull=False)
    if "withdrawn_at" in where:
        queryset = queryset.filter(withdrawn_at__isnull=False)
    expected = list(queryset.order_by(*order_by).values_list(*names)) if order_by else None
    if expected is None:  # no order asked: compare as sets
        assert sorted(fetched, key=repr) == sorted(queryset.values_list(*names), key=repr)
    else:
        assert fetched == expected
    assert fetched  # each case reads something


def test_instances_hold_the_values_and_load_the_rest_on_use(played):
    names = ("id", "tournament_id", "name")
    (entry,) = rows.instances(Entry, names, rows.fetch(Entry, names, "{id} = %s", [played.entries.first().pk]))
    stored = Entry.objects.get(pk=entry.pk)
    assert (entry.pk, entry.tournament_id, entry.name) == (stored.pk, stored.tournament_id, stored.name)
    assert entry.rating == stored.rating  # not read: loaded on first use
    assert not entry._state.adding


def test_no_row_is_an_empty_list(tournament):
    assert rows.fetch(Entry, ["id"], "{tournament_id} = %s", [tournament.pk + 1000]) == []
