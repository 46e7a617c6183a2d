"""One chess game's result (SPEC §5). Pure functions, no Django.

A result is one of the PGN values ``1-0`` (White wins), ``0-1`` (Black wins) and
``1/2-1/2`` (a draw), with how the game ended (its **termination**):

- **decisive only**: checkmate, resignation, and a forfeit (the game was not played:
  the player who was present wins; a forfeit is a flag of the result, not a result
  of its own);
- **draw only**: an agreed draw, stalemate, threefold repetition, the fifty-move rule
  and insufficient material (a dead position);
- **either**: a flag fall (time forfeit) loses, unless the opponent cannot checkmate by
  any series of legal moves, then it is a draw; with no increment, if both flags are
  down and it cannot be told which fell first, the game is a draw in the last period;
- **any**: the arbiter's (director's) decision, e.g. after an illegal move, or a dead
  position the players did not claim.

A double forfeit (neither player came) is not a game result: the director records it
on the match (a walkover, SPEC §2).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from games.text import RuleError, gettext_noop

Colour = Literal["white", "black"]
COLOURS: tuple[Colour, Colour] = ("white", "black")


class Result(StrEnum):
    WHITE_WINS = "1-0"
    BLACK_WINS = "0-1"
    DRAW = "1/2-1/2"

    @property
    def decisive(self) -> bool:
        return self is not Result.DRAW

    @property
    def winner(self) -> Colour | None:
        """The colour that won, None for a draw."""
        return {Result.WHITE_WINS: "white", Result.BLACK_WINS: "black"}.get(self)


class Termination(StrEnum):
    CHECKMATE = "checkmate"
    RESIGNATION = "resignation"
    FLAG = "flag"  # time forfeit
    AGREED_DRAW = "agreed_draw"
    STALEMATE = "stalemate"
    THREEFOLD_REPETITION = "threefold_repetition"
    FIFTY_MOVE_RULE = "fifty_move_rule"
    INSUFFICIENT_MATERIAL = "insufficient_material"
    FORFEIT = "forfeit"  # not played: a no-show
    ARBITER = "arbiter"  # the arbiter's (director's) decision


# The rule each termination obeys, as the message that refuses the wrong result.
DECISIVE_ONLY = {
    Termination.CHECKMATE: gettext_noop("A checkmate decides the game: enter 1–0 or 0–1."),
    Termination.RESIGNATION: gettext_noop(
        "A resignation decides the game: enter 1–0 or 0–1 (a draw offered and accepted is an agreed draw)."
    ),
    Termination.FORFEIT: gettext_noop("A forfeit is won by the player who was present: enter 1–0 or 0–1."),
}
DRAW_ONLY = {
    Termination.AGREED_DRAW: gettext_noop("An agreed draw is a draw: enter ½–½."),
    Termination.STALEMATE: gettext_noop("A stalemate is a draw: enter ½–½."),
    Termination.THREEFOLD_REPETITION: gettext_noop("A threefold repetition is a draw: enter ½–½."),
    Termination.FIFTY_MOVE_RULE: gettext_noop("The fifty-move rule makes the game a draw: enter ½–½."),
    Termination.INSUFFICIENT_MATERIAL: gettext_noop(
        "When neither player can checkmate, the game is a draw: enter ½–½."
    ),
}
ANY_RESULT = (Termination.FLAG, Termination.ARBITER)

DEFAULT_TERMINATION = {
    Result.WHITE_WINS: Termination.RESIGNATION,
    Result.BLACK_WINS: Termination.RESIGNATION,
    Result.DRAW: Termination.AGREED_DRAW,
}


def check_result(result: Result, termination: Termination) -> None:
    """Refuse a result that the termination cannot give (a stalemate won by White...)."""
    if not isinstance(result, Result):
        raise RuleError(
            gettext_noop("The result is 1-0, 0-1 or 1/2-1/2, not %(value).40r."),
            value=result,
        )
    if not isinstance(termination, Termination):
        raise RuleError(
            gettext_noop("The termination is one of %(choices)s, not %(value).40r."),
            choices=_TERMINATION_CHOICES,
            value=termination,
        )
    if termination in DECISIVE_ONLY and not result.decisive:
        raise RuleError(DECISIVE_ONLY[termination])
    if termination in DRAW_ONLY and result.decisive:
        raise RuleError(DRAW_ONLY[termination])


@dataclass(frozen=True)
class GameResult:
    """A checked result: constructing one that breaks a rule raises RuleError."""

    result: Result
    termination: Termination

    def __post_init__(self) -> None:
        check_result(self.result, self.termination)

    @property
    def forfeit(self) -> bool:
        """The game was not played: the absent player lost."""
        return self.termination is Termination.FORFEIT

    @property
    def winner(self) -> Colour | None:
        return self.result.winner

    def points(self, colour: Colour) -> float:
        return points(self.result, colour)

    def to_dict(self) -> dict[str, Any]:
        return {"result": self.result.value, "termination": self.termination.value, "forfeit": self.forfeit}


def points(result: Result, colour: Colour) -> float:
    """What the game gives ``colour``: 1, ½ or 0."""
    if colour not in COLOURS:
        raise RuleError(gettext_noop('The colour is "white" or "black", not %(value).40r.'), value=colour)
    if not isinstance(result, Result):
        raise RuleError(gettext_noop("The result is 1-0, 0-1 or 1/2-1/2, not %(value).40r."), value=result)
    if result is Result.DRAW:
        return 0.5
    return 1.0 if result.winner == colour else 0.0


SCORE_TEXT = {Result.WHITE_WINS: "1–0", Result.BLACK_WINS: "0–1", Result.DRAW: "½–½"}


def score_text(result: Result) -> str:
    """The result as people write it: "1–0", "½–½", "0–1" (en dash)."""
    return SCORE_TEXT[parse_result(result)]


# --- Time forfeits ------------------------------------------------------------------------
def flag_fall_result(flagged: Colour, opponent_can_mate: bool | None) -> Result | None:
    """The result when ``flagged``'s flag falls: a loss, unless the opponent cannot
    checkmate by any series of legal moves, then a draw. None when that is not known
    (no position was entered): the director decides."""
    if flagged not in COLOURS:
        raise RuleError(gettext_noop('The flagged player is "white" or "black", not %(value).40r.'), value=flagged)
    if opponent_can_mate is None:
        return None
    if not isinstance(opponent_can_mate, bool):
        raise RuleError(
            gettext_noop("Whether the opponent can checkmate is true, false or unknown, not %(value).40r."),
            value=opponent_can_mate,
        )
    if not opponent_can_mate:
        return Result.DRAW
    return Result.BLACK_WINS if flagged == "white" else Result.WHITE_WINS


def both_flags_result(increment_in_last_period: bool) -> Result | None:
    """Both flags are down and it cannot be told which fell first: with no increment the
    game is a draw in the last period (SPEC §5); with an increment the flags cannot both
    be down after a move, so the director decides from which fell first (None)."""
    if not isinstance(increment_in_last_period, bool):
        raise RuleError(
            gettext_noop("Whether the last period has an increment is true or false, not %(value).40r."),
            value=increment_in_last_period,
        )
    return None if increment_in_last_period else Result.DRAW


# --- Reading API data -----------------------------------------------------------------------
FIELDS = ("result", "termination", "forfeit")
_DASHES = re.compile(r"[\u2010-\u2015\u2212:]")  # hyphens, en/em dashes, minus sign, Czech "1:0"
_SPELLINGS = {
    "1-0": Result.WHITE_WINS,
    "0-1": Result.BLACK_WINS,
    "1/2-1/2": Result.DRAW,
    "½-½": Result.DRAW,
    "=": Result.DRAW,
}
_TERMINATION_ALIASES = {"50_move_rule": Termination.FIFTY_MOVE_RULE}
_TERMINATION_CHOICES = ", ".join(member.value for member in Termination)


def parse_result(value: Any) -> Result:
    """A result as written: "1-0", "0-1", "1/2-1/2", "½-½" or "=" (any dash, or a colon
    as on Czech score sheets: "1:0"; spaces ignored)."""
    if isinstance(value, str):
        key = _DASHES.sub("-", "".join(value.split()))
        if key in _SPELLINGS:
            return _SPELLINGS[key]
        if key == "*":
            raise RuleError(gettext_noop("The game is still in progress (*): enter its result when it ends."))
    raise RuleError(
        gettext_noop("The result is 1-0, 0-1 or 1/2-1/2 (also written ½-½ or =), not %(value).40r."), value=value
    )


def parse_termination(value: Any) -> Termination:
    """A termination's value; case, spaces and hyphens are forgiven ("Agreed draw")."""
    if isinstance(value, str):
        key = re.sub(r"[\s\-]+", "_", value.strip().lower())
        if key in _TERMINATION_ALIASES:
            return _TERMINATION_ALIASES[key]
        try:
            return Termination(key)
        except ValueError:
            pass
    raise RuleError(
        gettext_noop("The termination is one of %(choices)s, not %(value).40r."),
        choices=_TERMINATION_CHOICES,
        value=value,
    )


def parse_game_result(data: Mapping[str, Any]) -> GameResult:
    """Read ``{"result": "1-0", "termination": "resignation"}`` (the API's JSON).

    ``termination`` may be left out (or null or empty): a decisive result is then a
    resignation and a draw an agreed draw. ``forfeit`` may be given as true or false;
    true means the termination ``forfeit`` and must agree with a termination given.
    """
    if not isinstance(data, Mapping):
        raise RuleError(gettext_noop('A game result is an object such as {"result": "1-0", "termination": "flag"}.'))
    unknown = set(data) - set(FIELDS)
    if unknown:
        raise RuleError(
            gettext_noop("Unknown game result field(s): %(names)s; the fields are %(fields)s."),
            names=", ".join(sorted(map(str, unknown))),
            fields=", ".join(FIELDS),
        )
    if data.get("result") in (None, ""):
        raise RuleError(gettext_noop("A game result needs its result: 1-0, 0-1 or 1/2-1/2."))
    result = parse_result(data["result"])
    forfeit = data.get("forfeit")
    if forfeit is not None and not isinstance(forfeit, bool):
        raise RuleError(gettext_noop("Forfeit is true or false, not %(value).40r."), value=forfeit)
    raw = data.get("termination")
    if raw in (None, ""):
        termination = Termination.FORFEIT if forfeit else DEFAULT_TERMINATION[result]
    else:
        termination = parse_termination(raw)
    if forfeit is True and termination is not Termination.FORFEIT:
        raise RuleError(
            gettext_noop("A forfeited game has the termination forfeit, not %(value)s."), value=termination.value
        )
    if forfeit is False and termination is Termination.FORFEIT:
        raise RuleError(gettext_noop("The termination forfeit means the game was forfeited: forfeit cannot be false."))
    return GameResult(result, termination)
