"""Which table each match is played at, as pure functions.

The rounds that are played at the same time share one numbering, so that no two of
their matches are sent to the same table. A **session** is a round of the main flight
with what is played beside it:

- main round *r*;
- the match for third place, beside the final (its players are the semi-finals' losers);
- consolation round *r − 1* (its first round takes the first-match losers of main
  round 1 while main round 2 is played, and so on: the consolation's final is played
  beside the main final).

Within a session the tables are numbered 1, 2, … in that order — the main round's
matches first, in bracket order, then the third place, then the consolation. A bye
takes no table. A table the director gave a match is used as it is.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby

from tournaments.draws import CONSOLATION, FLIGHT_ORDER, MAIN, THIRD_PLACE


@dataclass(frozen=True)
class MatchPlace:
    """What the numbering needs of a match."""

    match_id: int
    flight: str
    round_number: int
    position: int
    playable: bool = True  # False for a bye: nobody sits down
    own_table: str = ""  # the director's choice, if any


def session_of(flight: str, round_number: int, main_rounds: int) -> int:
    """The main round that a round of ``flight`` is played beside."""
    if flight == THIRD_PLACE:
        return main_rounds
    if flight == CONSOLATION:
        return round_number + 1
    return round_number


def session_rounds(session: int, main_rounds: int) -> list[tuple[str, int]]:
    """The (flight, round number) pairs played in a session (those that exist)."""
    rounds = [(MAIN, session)]
    if session == main_rounds:
        rounds.append((THIRD_PLACE, 1))
    if session >= 2:
        rounds.append((CONSOLATION, session - 1))
    return rounds


def number_tables(matches: Iterable[MatchPlace], main_rounds: int) -> dict[int, str]:
    """Every playable match's table, by match id, in the order of the sessions and the
    tables."""

    def session(m: MatchPlace) -> int:
        return session_of(m.flight, m.round_number, main_rounds)

    playable = sorted(
        (m for m in matches if m.playable),
        key=lambda m: (session(m), FLIGHT_ORDER.get(m.flight, len(FLIGHT_ORDER)), m.round_number, m.position),
    )
    tables: dict[int, str] = {}
    for _session, together in groupby(playable, key=session):
        for number, m in enumerate(together, start=1):
            tables[m.match_id] = m.own_table or str(number)
    return tables
