"""The bracket of a tournament as its match rows store it: loaded as plain values (not
model instances: a 256-player bracket's 255 matches load in a few milliseconds) and
written back only where the pure bracket (``tournaments.bracket``) changed something.

Callers hold the tournament's exclusive lock (``services._save_bracket`` checks it).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import datetime
from typing import Any

from django.utils import timezone

from tournaments import selectors
from tournaments.bracket import Bracket, DecidedBy
from tournaments.draws import MatchKey
from tournaments.models import Entry, Match, Tournament
from tournaments.rows import fetch


@dataclass(slots=True)
class BracketRow:
    """What the bracket needs of a match row (the names of ``Match``'s columns, so that
    ``selectors.bracket_from_rows`` takes either)."""

    pk: int
    flight: str
    round_number: int
    position: int
    entry_a_id: int | None
    entry_b_id: int | None
    bye_a: bool
    bye_b: bool
    winner_to_id: int | None
    winner_to_slot: str
    loser_to_id: int | None
    loser_to_slot: str
    loser_only_from: str
    winner_side: str
    decided_by: str
    status: str
    started_at: datetime | None
    decided_at: datetime | None

    @property
    def key(self) -> MatchKey:
        return MatchKey(self.flight, self.round_number, self.position)


COLUMNS = tuple("id" if f.name == "pk" else f.name for f in fields(BracketRow))
WITHDRAWN = "{tournament_id} = %s AND {withdrawn_at} IS NOT NULL"


def load(tournament: Tournament) -> tuple[Bracket, dict[MatchKey, BracketRow]]:
    """The tournament's bracket and its rows by match key (two queries, on plain cursors)."""
    of_tournament = [tournament.pk]
    matches = fetch(Match, COLUMNS, "{tournament_id} = %s", of_tournament, selectors.MATCH_ORDER)
    rows = [BracketRow(*values) for values in matches]
    withdrawn = [entry for (entry,) in fetch(Entry, ["id"], WITHDRAWN, of_tournament)]
    bracket = selectors.bracket_from_rows(rows, withdrawn, tournament.bracket_size)
    return bracket, {row.key: row for row in rows}


def save(
    bracket: Bracket,
    rows: Mapping[MatchKey, BracketRow],
    changed: Iterable[MatchKey],
    extra: Mapping[MatchKey, Mapping[str, Any]] | None = None,
) -> None:
    """Write what the bracket derived into the changed rows (one UPDATE each), with
    ``extra`` columns of some of them (a result's score)."""
    now = timezone.now()
    extra = extra or {}
    for key in sorted(changed, key=lambda k: rows[k].pk):
        state, row = bracket[key], rows[key]
        values: dict[str, Any] = {
            "entry_a_id": state.a.entry,
            "bye_a": state.a.bye,
            "entry_b_id": state.b.entry,
            "bye_b": state.b.bye,
            "winner_side": state.winner or "",
            "winner_id": state.winner_entry,
            "decided_by": state.decided_by.value if state.decided_by else "",
        }
        if state.decided and not row.decided_by:
            values["decided_at"] = now
        elif not state.decided:
            values["decided_at"] = None
        if row.status not in (Match.Status.PROVISIONAL, Match.Status.DISPUTED) or state.decided:
            values["status"] = derived_status(state)
        values.update(extra.get(key, {}))
        if state.decided_by in (DecidedBy.BYE, DecidedBy.VOID, DecidedBy.WITHDRAWAL):
            values["summary"] = ""
        Match.objects.filter(pk=row.pk).update(**values)
        for name, value in values.items():  # the row stays what the database holds
            if hasattr(row, name):
                setattr(row, name, value)


def derived_status(state) -> str:
    """A match's status as the bracket alone tells it (a result waiting for
    confirmation or disputed is set by the result services)."""
    if state.decided:
        return Match.Status.DECIDED
    if state.a.entry is not None and state.b.entry is not None:
        return Match.Status.READY
    return Match.Status.WAITING
