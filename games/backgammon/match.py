"""A backgammon match to N points, derived from its games (SPEC §3.2). Pure functions.

Games are played until one player has at least N points; there is no bonus for
overshooting. With the Crawford rule, the first game in which one player is exactly
one point from winning (N−1) and the other is not is the Crawford game: the cube
stays at 1. Later games are post-Crawford and the cube is back.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from games.backgammon.scoring import Game, GameError, check_game, points
from games.text import Text, gettext_noop

Side = Literal["a", "b"]
MAX_MATCH_LENGTH = 99


@dataclass(frozen=True)
class GameLine:
    """One game in the match's history, with the score before and after it."""

    number: int
    game: Game
    points: int
    score_before: tuple[int, int]
    score_after: tuple[int, int]
    crawford: bool  # this game was the Crawford game


@dataclass(frozen=True)
class MatchState:
    length: int
    crawford_rule: bool
    score_a: int = 0
    score_b: int = 0
    lines: tuple[GameLine, ...] = field(default_factory=tuple)
    crawford_played: bool = False  # the Crawford game is behind us
    next_is_crawford: bool = False  # the next game is the Crawford game
    winner: Side | None = None

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def away_a(self) -> int:
        return max(self.length - self.score_a, 0)

    @property
    def away_b(self) -> int:
        return max(self.length - self.score_b, 0)

    @property
    def post_crawford(self) -> bool:
        return self.crawford_played and not self.over

    @property
    def cube_allowed(self) -> bool:
        """May the cube be used in the next game?"""
        return not self.next_is_crawford

    @property
    def games_played(self) -> int:
        return len(self.lines)

    def score_of(self, side: Side) -> int:
        return self.score_a if side == "a" else self.score_b


def start(length: int, crawford_rule: bool = True) -> MatchState:
    if isinstance(length, bool) or not isinstance(length, int) or not 1 <= length <= MAX_MATCH_LENGTH:
        raise GameError(
            gettext_noop("A match is played to 1 to %(max)d points, not %(value).40r."),
            max=MAX_MATCH_LENGTH,
            value=length,
        )
    return _with_crawford_flag(MatchState(length=length, crawford_rule=bool(crawford_rule)))


def add_game(state: MatchState, game: Game) -> MatchState:
    """The match after one more game; refuses a game that breaks a rule."""
    number = state.games_played + 1
    if state.over:
        raise GameError(
            gettext_noop("The match is over (%(a)d–%(b)d of %(length)d): no game can be added."),
            a=state.score_a,
            b=state.score_b,
            length=state.length,
        )
    try:
        check_game(game, cube_allowed=state.cube_allowed)
    except GameError as error:
        raise GameError(gettext_noop("Game %(number)d: %(problem)s"), number=number, problem=error) from None
    won = points(game)
    before = (state.score_a, state.score_b)
    after = (before[0] + won, before[1]) if game.winner == "a" else (before[0], before[1] + won)
    line = GameLine(
        number=number,
        game=game,
        points=won,
        score_before=before,
        score_after=after,
        crawford=state.next_is_crawford,
    )
    winner: Side | None = None
    if after[0] >= state.length:
        winner = "a"
    elif after[1] >= state.length:
        winner = "b"
    return _with_crawford_flag(
        MatchState(
            length=state.length,
            crawford_rule=state.crawford_rule,
            score_a=after[0],
            score_b=after[1],
            lines=(*state.lines, line),
            crawford_played=state.crawford_played or state.next_is_crawford,
            winner=winner,
        )
    )


def replay(length: int, crawford_rule: bool, games: Sequence[Game]) -> MatchState:
    """The match state after these games, each checked in turn."""
    state = start(length, crawford_rule)
    for game in games:
        state = add_game(state, game)
    return state


def describe(state: MatchState) -> Text:
    """ "5–3 of 7, Crawford game" (translatable)."""
    if state.over:
        return Text(
            gettext_noop("%(a)d–%(b)d of %(length)d, match over"), a=state.score_a, b=state.score_b, length=state.length
        )
    if state.next_is_crawford:
        return Text(
            gettext_noop("%(a)d–%(b)d of %(length)d, Crawford game"),
            a=state.score_a,
            b=state.score_b,
            length=state.length,
        )
    if state.post_crawford:
        return Text(
            gettext_noop("%(a)d–%(b)d of %(length)d, post-Crawford"),
            a=state.score_a,
            b=state.score_b,
            length=state.length,
        )
    return Text(gettext_noop("%(a)d–%(b)d of %(length)d"), a=state.score_a, b=state.score_b, length=state.length)


def _with_crawford_flag(state: MatchState) -> MatchState:
    at_one_away = (state.score_a == state.length - 1, state.score_b == state.length - 1)
    next_is_crawford = (
        state.crawford_rule and not state.over and not state.crawford_played and at_one_away[0] != at_one_away[1]
    )
    if next_is_crawford == state.next_is_crawford:
        return state
    return MatchState(
        length=state.length,
        crawford_rule=state.crawford_rule,
        score_a=state.score_a,
        score_b=state.score_b,
        lines=state.lines,
        crawford_played=state.crawford_played,
        next_is_crawford=next_is_crawford,
        winner=state.winner,
    )


DEFAULT_MATCH_LENGTH = 7


def clean_round_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A round's settings: ``{"match_length": N, "crawford": bool}`` (N from 1 to 99)."""
    if not isinstance(raw, Mapping):
        raise GameError(gettext_noop('Round settings are an object such as {"match_length": 7}.'))
    unknown = set(raw) - {"match_length", "crawford", *CLOCK_DEFAULTS}
    if unknown:
        raise GameError(
            gettext_noop("Unknown round setting(s): %(names)s."), names=", ".join(sorted(map(str, unknown)))
        )
    length = raw.get("match_length", DEFAULT_MATCH_LENGTH)
    if isinstance(length, str) and length.strip().isdecimal() and len(length.strip()) < 4:
        length = int(length.strip())
    start(length)  # checks the length
    crawford = raw.get("crawford", True)
    if not isinstance(crawford, bool):
        raise GameError(
            gettext_noop("The Crawford rule is on (true) or off (false), not %(value).40r."), value=crawford
        )
    return {"match_length": length, "crawford": crawford, **_clean_clock(raw)}


# The match clock of a round (SPEC §3.2): none, allowed (the players may start it) or
# required (games are recorded only once it runs); its reserve per match point and its
# simple delay per move.
CLOCK_CHOICES = ("none", "allowed", "required")
CLOCK_DEFAULTS = {"clock": "none", "clock_minutes_per_point": 2, "clock_delay": 12}


def _clean_clock(raw: Mapping[str, Any]) -> dict[str, Any]:
    clock = raw.get("clock", CLOCK_DEFAULTS["clock"])
    if clock not in CLOCK_CHOICES:
        raise GameError(gettext_noop("The match clock is none, allowed or required, not %(value).40r."), value=clock)
    cleaned: dict[str, Any] = {"clock": clock}
    for key, low, high, message in (
        (
            "clock_minutes_per_point",
            1,
            10,
            gettext_noop("The clock's minutes per point are from 1 to 10, not %(value).40r."),
        ),
        ("clock_delay", 0, 60, gettext_noop("The clock's delay is from 0 to 60 seconds, not %(value).40r.")),
    ):
        value = raw.get(key, CLOCK_DEFAULTS[key])
        if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 4:
            value = int(value.strip())
        if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
            raise GameError(message, value=value)
        cleaned[key] = value
    return cleaned
