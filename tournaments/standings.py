"""Standings of a knockout, as pure functions (SPEC §2).

Places come from the round in which a player went out: the champion 1, the finalist
2, the third-place match's winner 3 and loser 4 (or both semi-finalists 3–4 when
there is no such match), the quarter-finalists 5–8, and so on, each group sharing
its places. A group's places are counted from the players actually in it, from the
bottom up: a 12-player event places its first-round losers 9–12, not 9–16.

A group is placed once its round is over (nobody else can join it); until then its
players are listed as out in that round, without a place, and the players still
playing have none either.
"""

from __future__ import annotations

from dataclasses import dataclass

from tournaments.bracket import Bracket, BracketMatch
from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, MatchKey


@dataclass(frozen=True)
class Placing:
    entries: tuple[int, ...]
    finished_in: MatchKey  # the round (match key) in which these players finished
    first: int | None = None  # None: the round is not over, the places are not known yet
    last: int | None = None
    won_last_match: bool = False  # the champion and the third-place winner

    @property
    def label(self) -> str:
        if self.first is None:
            return ""
        return str(self.first) if self.first == self.last else f"{self.first}–{self.last}"


@dataclass(frozen=True)
class Standings:
    placings: tuple[Placing, ...]  # best first
    still_playing: tuple[int, ...]
    consolation_winner: int | None = None
    consolation_runner_up: int | None = None

    def place_of(self, entry_id: int) -> Placing | None:
        for placing in self.placings:
            if entry_id in placing.entries:
                return placing
        return None

    @property
    def final(self) -> bool:
        return not self.still_playing and all(p.first is not None for p in self.placings)


def knockout_standings(bracket: Bracket, drawn_entries: list[int]) -> Standings:
    """The standings so far of the players in the draw."""
    main_rounds = bracket.flight_rounds(MAIN)
    if main_rounds == 0:
        return Standings(placings=(), still_playing=tuple(drawn_entries))
    third = bracket.matches.get(MatchKey(THIRD_PLACE, 1, 0))
    semi_round = main_rounds - 1

    # Groups from the bottom of the table up: (placing without numbers, round complete).
    groups: list[tuple[Placing, bool]] = []
    for r in range(1, main_rounds):
        matches = _round(bracket, MAIN, r)
        complete = all(m.decided for m in matches)
        out = tuple(sorted(e for m in matches for e in _went_out(m)))
        if r == semi_round and third is not None:
            # Semi-final losers play on for third; only the players of a void semi-final
            # (both withdrew) go out here, below the match for third.
            out = tuple(e for e in out if e not in (third.a.entry, third.b.entry))
            if out:
                groups.append((Placing(out, MatchKey(MAIN, r, 0)), complete))
            if third.decided:
                groups.extend(_last_match_groups(third))
            else:
                # Semi-final losers still to play for third are still playing: the
                # places above them cannot be counted yet.
                groups.append((Placing((), third.key), False))
            continue
        if out:
            groups.append((Placing(out, MatchKey(MAIN, r, 0)), complete))

    final = bracket[MatchKey(MAIN, main_rounds, 0)]
    if final.decided:
        groups.extend(_last_match_groups(final))

    placings: list[Placing] = []
    below = 0  # players placed under the current group
    numbering = True
    total = len(drawn_entries)
    for placing, complete in groups:
        size = len(placing.entries)
        numbering = numbering and complete
        if not size:
            continue
        if numbering:
            last = total - below
            placing = Placing(
                placing.entries,
                placing.finished_in,
                first=last - size + 1,
                last=last,
                won_last_match=placing.won_last_match,
            )
        placings.append(placing)
        below += size

    placed = {e for p in placings for e in p.entries}
    still = tuple(e for e in drawn_entries if e not in placed)

    consolation_winner = consolation_runner_up = None
    consolation_rounds = bracket.flight_rounds(CONSOLATION)
    if consolation_rounds:
        consolation_final = bracket[MatchKey(CONSOLATION, consolation_rounds, 0)]
        if consolation_final.decided:
            consolation_winner = consolation_final.winner_entry
            consolation_runner_up = consolation_final.loser_entry

    return Standings(
        placings=tuple(reversed(placings)),
        still_playing=still,
        consolation_winner=consolation_winner,
        consolation_runner_up=consolation_runner_up,
    )


def _last_match_groups(match: BracketMatch) -> list[tuple[Placing, bool]]:
    """A decided final (or match for third): the loser below the winner, or both players
    sharing the two places when neither turned up (void)."""
    if match.winner is None:
        out = tuple(sorted(_went_out(match)))
        return [(Placing(out, match.key), True)] if out else []
    return [
        (Placing((entry,), match.key, won_last_match=won), True)
        for entry, won in ((match.loser_entry, False), (match.winner_entry, True))
        if entry is not None
    ]


def _went_out(match: BracketMatch) -> list[int]:
    """The players this decided match put out of the event (none while undecided)."""
    if not match.decided:
        return []
    return [
        slot.entry for side, slot in (("a", match.a), ("b", match.b)) if slot.entry is not None and side != match.winner
    ]


def _round(bracket: Bracket, flight: str, round_number: int) -> list[BracketMatch]:
    return [m for k, m in bracket.matches.items() if k.flight == flight and k.round == round_number]
