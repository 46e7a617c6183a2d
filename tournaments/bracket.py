"""Playing results through a drawn bracket, as pure functions (SPEC §2).

A ``Bracket`` holds every match of a tournament with its two slots. A slot is an
entry, a bye, or still to be decided. When a match is decided its winner moves into
the next match's slot and its loser (if the draw routes losers, for third place or
the consolation) into another; byes and withdrawn players are settled automatically:
a player facing a bye advances, a player facing a withdrawn opponent wins by
walkover, a match whose two slots are both empty passes a bye on.

Undo (``retract``) takes a decision back along with everything it pushed
downstream, and refuses while a match it fed has started or was played.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from games.text import Text, TextError, gettext_noop
from tournaments.draws import MatchKey, MatchSpec, Route, Side


class BracketError(TextError):
    """The bracket cannot do this; the message says why, for a person."""


class DecidedBy(StrEnum):
    RESULT = "result"  # a played match with a confirmed result
    WALKOVER = "walkover"  # the director awarded the match (no-show, withdrawal)
    BYE = "bye"  # the opponent's place is empty
    WITHDRAWAL = "withdrawal"  # the opponent had withdrawn before the match
    VOID = "void"  # both places empty: nobody plays, a bye goes on


# Decisions the bracket made by itself; an undo upstream takes them back too.
AUTOMATIC = frozenset({DecidedBy.BYE, DecidedBy.WITHDRAWAL, DecidedBy.VOID})


@dataclass
class Slot:
    entry: int | None = None
    bye: bool = False

    @property
    def resolved(self) -> bool:
        return self.entry is not None or self.bye


@dataclass
class BracketMatch:
    key: MatchKey
    a: Slot = field(default_factory=Slot)
    b: Slot = field(default_factory=Slot)
    winner_to: Route | None = None
    loser_to: Route | None = None
    loser_only_from: Side | None = None
    winner: Side | None = None
    decided_by: DecidedBy | None = None
    started: bool = False  # a result was entered, a game recorded, a clock started, ...
    label: str = ""  # how to name this match in a message ("Round 2, match 3")

    def slot(self, side: Side) -> Slot:
        return self.a if side == "a" else self.b

    @property
    def decided(self) -> bool:
        return self.decided_by is not None

    @property
    def ready(self) -> bool:
        """Both players known and nothing decided: the match can be played."""
        return self.a.entry is not None and self.b.entry is not None and not self.decided

    def entry(self, side: Side | None) -> int | None:
        return None if side is None else self.slot(side).entry

    @property
    def winner_entry(self) -> int | None:
        return self.entry(self.winner)

    @property
    def loser_entry(self) -> int | None:
        return self.entry(_other(self.winner)) if self.winner else None

    def side_of(self, entry_id: int) -> Side | None:
        if self.a.entry == entry_id:
            return "a"
        if self.b.entry == entry_id:
            return "b"
        return None


class Bracket:
    """Every match of one tournament, and the entries that withdrew."""

    def __init__(self, matches: Iterable[BracketMatch], withdrawn: Iterable[int] = ()) -> None:
        self.matches: dict[MatchKey, BracketMatch] = {m.key: m for m in matches}
        self.withdrawn: set[int] = set(withdrawn)

    @classmethod
    def from_draw(cls, specs: Iterable[MatchSpec]) -> Bracket:
        return cls(
            BracketMatch(
                key=s.key,
                a=Slot(s.entry_a, s.bye_a),
                b=Slot(s.entry_b, s.bye_b),
                winner_to=s.winner_to,
                loser_to=s.loser_to,
                loser_only_from=s.loser_only_from,
            )
            for s in specs
        )

    def __getitem__(self, key: MatchKey) -> BracketMatch:
        return self.matches[key]

    # --- deciding ---------------------------------------------------------------------
    def decide(self, key: MatchKey, winner: Side, how: DecidedBy = DecidedBy.RESULT) -> set[MatchKey]:
        """Record the winner of a match that is ready to play; returns the changed matches."""
        match = self[key]
        if winner not in ("a", "b"):
            raise BracketError(
                gettext_noop("The winner is the player in slot 'a' or 'b', not %(value)r."), value=winner
            )
        if match.decided:
            raise BracketError(gettext_noop("%(match)s is already decided."), match=_name(match))
        if match.a.bye or match.b.bye:
            raise BracketError(gettext_noop("%(match)s is a bye: there is nothing to play."), match=_name(match))
        if not match.ready:
            raise BracketError(
                gettext_noop("%(match)s is not ready: both players are not known yet."), match=_name(match)
            )
        changed = {key}
        self._set_decision(match, winner, how, changed)
        changed |= self.settle()
        return changed

    def withdraw(self, entry_id: int) -> set[MatchKey]:
        """An entry withdraws: wherever it waits, its opponent wins by walkover."""
        self.withdrawn.add(entry_id)
        return self.settle()

    def settle(self) -> set[MatchKey]:
        """Decide every match the bracket can decide by itself (byes, withdrawals)."""
        changed: set[MatchKey] = set()
        progress = True
        while progress:
            progress = False
            for match in self.matches.values():
                if match.decided or match.started or not (match.a.resolved and match.b.resolved):
                    continue
                outcome = self._automatic_outcome(match)
                if outcome is None:
                    continue
                winner, how = outcome
                self._set_decision(match, winner, how, changed)
                changed.add(match.key)
                progress = True
        return changed

    def _automatic_outcome(self, match: BracketMatch) -> tuple[Side | None, DecidedBy] | None:
        a, b = match.a, match.b
        # A withdrawn player's place is as empty as a bye: facing a bye, nobody goes on.
        a_out, b_out = a.bye or a.entry in self.withdrawn, b.bye or b.entry in self.withdrawn
        if a_out and b_out:
            return None, DecidedBy.VOID
        if b.bye:
            return "a", DecidedBy.BYE
        if a.bye:
            return "b", DecidedBy.BYE
        if b_out:
            return "a", DecidedBy.WITHDRAWAL
        if a_out:
            return "b", DecidedBy.WITHDRAWAL
        return None

    def _set_decision(self, match: BracketMatch, winner: Side | None, how: DecidedBy, changed: set[MatchKey]) -> None:
        match.winner, match.decided_by = winner, how
        winner_entry = match.entry(winner)
        if match.winner_to:
            self._fill(match.winner_to, winner_entry, changed)
        if match.loser_to:
            loser_side = _other(winner) if winner else None
            loser_entry = match.entry(loser_side)
            if match.loser_only_from and loser_side != match.loser_only_from:
                loser_entry = None  # this loser has played before: the slot becomes a bye
            self._fill(match.loser_to, loser_entry, changed)

    def _fill(self, route: Route, entry_id: int | None, changed: set[MatchKey]) -> None:
        target = self[route.to]
        slot = target.slot(route.slot)
        slot.entry, slot.bye = entry_id, entry_id is None
        changed.add(target.key)

    # --- undoing ----------------------------------------------------------------------
    def retract(self, key: MatchKey) -> set[MatchKey]:
        """Undo a decision and everything it pushed on; returns the changed matches.

        Refused while a match it fed has started or been decided by a result or a
        walkover: that match must be undone first. Automatic decisions downstream
        (byes, withdrawals) are taken back with it.
        """
        match = self[key]
        if not match.decided:
            raise BracketError(gettext_noop("%(match)s has no result to undo."), match=_name(match))
        changed: set[MatchKey] = set()
        self._check_retractable(match)
        self._retract(match, changed)
        return changed

    def _check_retractable(self, match: BracketMatch) -> None:
        for route in (match.winner_to, match.loser_to):
            if route is None:
                continue
            target = self[route.to]
            if target.started or (target.decided and target.decided_by not in AUTOMATIC):
                raise BracketError(
                    gettext_noop("%(match)s has already started; undo that match first."),
                    match=_name(target, gettext_noop("The next match")),
                )
            if target.decided:
                self._check_retractable(target)

    def _retract(self, match: BracketMatch, changed: set[MatchKey]) -> None:
        for route in (match.winner_to, match.loser_to):
            if route is None:
                continue
            target = self[route.to]
            if target.decided:
                self._retract(target, changed)
            slot = target.slot(route.slot)
            slot.entry, slot.bye = None, False
            changed.add(target.key)
        match.winner, match.decided_by = None, None
        changed.add(match.key)

    # --- reading ----------------------------------------------------------------------
    def flight_rounds(self, flight: str) -> int:
        return max((k.round for k in self.matches if k.flight == flight), default=0)

    def is_complete(self) -> bool:
        return all(m.decided for m in self.matches.values())

    def matches_of(self, entry_id: int) -> list[BracketMatch]:
        return [m for m in self.matches.values() if m.side_of(entry_id) is not None]


def _name(match: BracketMatch, fallback: str = gettext_noop("This match")) -> str | Text:
    """How a message names a match: its label when the caller gave one."""
    return match.label or Text(fallback)


def _other(side: Side | None) -> Side | None:
    if side is None:
        return None
    return "b" if side == "a" else "a"
