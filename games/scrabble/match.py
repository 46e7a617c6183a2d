"""A Scrabble knockout match: best of K games (SPEC §4.5). Pure functions.

A win counts 1, a draw ½ to each. The match is over as soon as one player cannot be
caught in the games left; after K games, more wins decide, then the spread (the sum
of the score differences, each game's difference capped when a cap is set); if even
the spread is level, one more game is played, and so on. Never win percentages.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Literal

from games.text import RuleError, Text, gettext_noop

Side = Literal["a", "b"]
DEFAULT_BEST_OF = 3
MAX_BEST_OF = 15
MAX_SPREAD_CAP = 1000


@dataclass(frozen=True)
class GameResult:
    score_a: int
    score_b: int


@dataclass(frozen=True)
class MatchState:
    best_of: int
    results: tuple[GameResult, ...]
    wins_a: float
    wins_b: float
    spread: int  # a's spread (b's is the opposite), capped per game when a cap is set
    winner: Side | None
    decided_by_spread: bool = False

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def games_played(self) -> int:
        return len(self.results)

    @property
    def extra_games(self) -> int:
        """Games played beyond K because wins and spread were level."""
        return max(0, len(self.results) - self.best_of)


def clean_round_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """``{"best_of": K, "spread_cap": C or None}``; K odd or even from 1 to 15."""
    if not isinstance(raw, Mapping):
        raise RuleError(gettext_noop('Round settings are an object such as {"best_of": 3}.'))
    unknown = set(raw) - {"best_of", "spread_cap"}
    if unknown:
        raise RuleError(
            gettext_noop("Unknown round setting(s): %(names)s."), names=", ".join(sorted(map(str, unknown)))
        )
    best_of = _whole(raw.get("best_of", DEFAULT_BEST_OF), gettext_noop("Best of"))
    if not 1 <= best_of <= MAX_BEST_OF:
        raise RuleError(
            gettext_noop("Best of must be between 1 and %(max)d, not %(value)d."), max=MAX_BEST_OF, value=best_of
        )
    cap = raw.get("spread_cap")
    if cap not in (None, "", 0):
        cap = _whole(cap, gettext_noop("The spread cap"))
        if not 1 <= cap <= MAX_SPREAD_CAP:
            raise RuleError(
                gettext_noop("The spread cap is between 1 and %(max)d points, not %(value)d."),
                max=MAX_SPREAD_CAP,
                value=cap,
            )
    else:
        cap = None
    return {"best_of": best_of, "spread_cap": cap}


def match_state(best_of: int, results: Sequence[GameResult], spread_cap: int | None = None) -> MatchState:
    wins = {"a": 0.0, "b": 0.0}
    spread = 0
    winner: Side | None = None
    by_spread = False
    for number, result in enumerate(results, start=1):
        if winner is not None:
            raise RuleError(gettext_noop("The match was over after game %(number)d."), number=number - 1)
        difference = result.score_a - result.score_b
        if spread_cap is not None:
            difference = max(-spread_cap, min(spread_cap, difference))
        spread += difference
        if result.score_a > result.score_b:
            wins["a"] += 1
        elif result.score_b > result.score_a:
            wins["b"] += 1
        else:
            wins["a"] += 0.5
            wins["b"] += 0.5
        left = max(0, best_of - number)
        if wins["a"] > wins["b"] + left:
            winner = "a"
        elif wins["b"] > wins["a"] + left:
            winner = "b"
        elif left == 0 and wins["a"] == wins["b"] and spread != 0:
            winner, by_spread = ("a" if spread > 0 else "b"), True
    return MatchState(
        best_of=best_of,
        results=tuple(results),
        wins_a=wins["a"],
        wins_b=wins["b"],
        spread=spread,
        winner=winner,
        decided_by_spread=by_spread,
    )


def _whole(value: Any, what: str) -> int:
    if isinstance(value, bool):
        raise RuleError(
            gettext_noop("%(what)s must be a whole number, not %(value).40r."), what=Text(what), value=value
        )
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 6:
        return int(value.strip())
    if not isinstance(value, int):
        raise RuleError(
            gettext_noop("%(what)s must be a whole number, not %(value).40r."), what=Text(what), value=value
        )
    return value
