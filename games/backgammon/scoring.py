"""One backgammon game: how it ended, what it is worth, and whether the cube story
holds together (SPEC §3.1). Pure functions, shared by matches and money play.

A game is recorded as
- ``winner``: "a" or "b";
- ``ending``: ``played`` out, double ``dropped``, or ``resigned``;
- ``kind``: single, gammon or backgammon (for a resignation: what was resigned;
  a dropped double is always single);
- ``cube``: for a game played out or resigned, the cube's value at the end (1 when it
  was never turned); **for a dropped double, the value offered** — the face the cube
  showed when it was refused. The player who drops loses the value before the double,
  half the offered cube: a double to 4 dropped scores 2.
- optionally ``cube_history``: the cube actions in order, each ``(player, action)``
  with action ``double``, ``take``, ``drop``, ``beaver`` or ``raccoon``.

Money play adds the Jacoby rule, automatic doubles and beavers (``MoneyRules``);
matches never use them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Literal

from games.text import RuleError, Text, gettext_noop

Side = Literal["a", "b"]
CUBE_VALUES = (1, 2, 4, 8, 16, 32, 64)
MAX_CUBE = 64


class GameError(RuleError):
    """A game that cannot have happened under the rules; the message names the rule."""


class Kind(StrEnum):
    SINGLE = "single"
    GAMMON = "gammon"
    BACKGAMMON = "backgammon"


MULTIPLIER = {Kind.SINGLE: 1, Kind.GAMMON: 2, Kind.BACKGAMMON: 3}


class Ending(StrEnum):
    PLAYED = "played"
    DROPPED = "dropped"
    RESIGNED = "resigned"


class CubeAction(StrEnum):
    DOUBLE = "double"
    TAKE = "take"
    DROP = "drop"
    BEAVER = "beaver"  # the taker redoubles at once and keeps the cube
    RACCOON = "raccoon"  # the original doubler redoubles a beaver at once


@dataclass(frozen=True)
class Game:
    winner: Side
    kind: Kind = Kind.SINGLE
    cube: int = 1
    ending: Ending = Ending.PLAYED
    cube_history: tuple[tuple[Side, CubeAction], ...] | None = None

    @property
    def stake(self) -> int:
        """The value the game was played for when it ended (before a refused double)."""
        return self.cube // 2 if self.ending == Ending.DROPPED else self.cube

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "winner": self.winner,
            "kind": self.kind.value,
            "cube": self.cube,
            "ending": self.ending.value,
        }
        if self.cube_history is not None:
            data["cube_history"] = [[player, action.value] for player, action in self.cube_history]
        return data


@dataclass(frozen=True)
class MoneyRules:
    """Money-play options (never in tournaments, SPEC §3.1)."""

    jacoby: bool = False
    beavers: bool = False
    automatic_doubles: int = 0  # how many automatic doubles this game had (cube stays in the middle)
    automatic_double_limit: int = 0


def parse_game(data: Mapping[str, Any]) -> Game:
    """Read a game from plain data (the API's JSON), checking each field's values."""
    if not isinstance(data, Mapping):
        raise GameError(gettext_noop('A game is an object such as {"winner": "a", "kind": "gammon", "cube": 2}.'))
    unknown = set(data) - {"winner", "kind", "cube", "ending", "cube_history"}
    if unknown:
        raise GameError(gettext_noop("Unknown game field(s): %(names)s."), names=", ".join(sorted(map(str, unknown))))
    winner = data.get("winner")
    if winner not in ("a", "b"):
        raise GameError(
            gettext_noop('The winner must be one of the two players ("a" or "b"), not %(value).40r.'), value=winner
        )
    kind = _choice(data.get("kind", Kind.SINGLE), Kind, gettext_noop("kind"))
    ending = _choice(data.get("ending", Ending.PLAYED), Ending, gettext_noop("ending"))
    cube = data.get("cube", 1)
    if isinstance(cube, bool) or not isinstance(cube, int) or cube not in CUBE_VALUES:
        raise GameError(gettext_noop("The cube is 1, 2, 4, 8, 16, 32 or 64, not %(value).40r."), value=cube)
    history = data.get("cube_history")
    if history is not None:
        history = _parse_history(history)
    return Game(winner=winner, kind=kind, cube=cube, ending=ending, cube_history=history)


def check_game(game: Game, *, cube_allowed: bool = True, money: MoneyRules | None = None) -> Game:
    """Check a game against the rules of one game; returns it if it could have happened.

    ``cube_allowed`` False is the Crawford game: the cube stays at 1 and nothing is
    dropped.
    """
    if game.cube not in CUBE_VALUES:
        raise GameError(gettext_noop("The cube is 1, 2, 4, 8, 16, 32 or 64, not %(value).40r."), value=game.cube)
    if not cube_allowed:
        if game.ending == Ending.DROPPED:
            raise GameError(gettext_noop("No double can be offered in the Crawford game, so none can be dropped."))
        if game.cube != 1 or game.cube_history:
            raise GameError(gettext_noop("The cube stays at 1 in the Crawford game: nobody may double."))
    if game.ending == Ending.DROPPED:
        if game.cube == 1:
            raise GameError(
                gettext_noop(
                    "A dropped double is recorded with the cube offered (2, 4, …): a double to 2 that was "
                    "dropped is cube 2 and scores 1. Cube 1 cannot have been dropped."
                )
            )
        if game.kind != Kind.SINGLE:
            raise GameError(
                gettext_noop("A dropped double scores the cube before the double; it cannot be a %(kind)s."),
                kind=game.kind.value,
            )
    if money is not None:
        _check_money(game, money)
    if game.cube_history is not None:
        _check_history(game, money)
    return game


def points(game: Game, money: MoneyRules | None = None) -> int:
    """What the winner scores: the kind's multiple of the cube, or the cube before a
    refused double. With the Jacoby rule an untouched cube makes every win single."""
    if game.ending == Ending.DROPPED:
        return game.cube // 2
    multiplier = MULTIPLIER[game.kind]
    if money is not None and money.jacoby and _cube_never_turned(game, money):
        multiplier = 1
    return multiplier * game.cube


def cube_owner(game: Game, money: MoneyRules | None = None) -> Side | None:
    """Who owns the cube at the end of a game recorded with its cube history (None: the
    middle); for a dropped double, who owned it when the refused double was offered.
    The game is checked first, as by ``check_game``."""
    if game.cube_history is None:
        raise GameError(gettext_noop("Who owns the cube can be read only from a game's cube history; record it."))
    check_game(game, money=money)
    return _check_history(game, money)


# --- Cube history --------------------------------------------------------------------
def _check_history(game: Game, money: MoneyRules | None) -> Side | None:
    """Replay the cube actions: only the owner (or anyone while the cube is in the
    middle) doubles, the other player answers, a drop ends the game. Returns who owns
    the cube at the end (None: the middle); after a drop, who owned it when the
    refused double was offered."""
    history = game.cube_history or ()
    value = 2 ** (money.automatic_doubles if money else 0)
    owner: Side | None = None  # None: the cube is in the middle
    pending: Side | None = None  # who doubled and waits for an answer
    last_double: Side | None = None
    beaver_allowed = bool(money and money.beavers)
    dropped_by: Side | None = None
    for number, (player, action) in enumerate(history, start=1):
        if dropped_by is not None:
            raise GameError(
                gettext_noop("Cube action %(number)d comes after a drop, which ends the game."), number=number
            )
        if action == CubeAction.DOUBLE:
            if pending is not None:
                raise GameError(
                    gettext_noop("Cube action %(number)d: a double must be answered (take or drop) first."),
                    number=number,
                )
            if owner is not None and owner != player:
                raise GameError(
                    gettext_noop("Cube action %(number)d: player %(player)s doubles without owning the cube."),
                    number=number,
                    player=player,
                )
            if value >= MAX_CUBE:
                raise GameError(gettext_noop("Cube action %(number)d: the cube cannot go above 64."), number=number)
            value *= 2
            pending = last_double = player
            continue
        if pending is None and action != CubeAction.RACCOON:  # a raccoon answers the beaver, checked below
            raise GameError(
                gettext_noop("Cube action %(number)d: %(action)s answers no double."),
                number=number,
                action=action.value,
            )
        if action in (CubeAction.TAKE, CubeAction.DROP, CubeAction.BEAVER) and player == pending:
            raise GameError(
                gettext_noop("Cube action %(number)d: player %(player)s answers their own double."),
                number=number,
                player=player,
            )
        if action == CubeAction.TAKE:
            owner, pending = player, None
        elif action == CubeAction.DROP:
            dropped_by = player
        elif action == CubeAction.BEAVER:
            if not beaver_allowed:
                raise GameError(gettext_noop("Beavers are not played here (only in money play that allows them)."))
            if value >= MAX_CUBE:
                raise GameError(gettext_noop("Cube action %(number)d: the cube cannot go above 64."), number=number)
            value *= 2
            owner, pending = player, None
        elif action == CubeAction.RACCOON:
            if not beaver_allowed:
                raise GameError(gettext_noop("Raccoons are not played here (only in money play that allows beavers)."))
            if player != last_double or number < 2 or history[number - 2][1] != CubeAction.BEAVER:
                raise GameError(
                    gettext_noop("Cube action %(number)d: only the doubler answers a beaver with a raccoon."),
                    number=number,
                )
            if value >= MAX_CUBE:
                raise GameError(gettext_noop("Cube action %(number)d: the cube cannot go above 64."), number=number)
            value *= 2
            owner = player
    if pending is not None and dropped_by is None and history and history[-1][1] == CubeAction.DOUBLE:
        raise GameError(gettext_noop("The last double was neither taken nor dropped."))
    if dropped_by is not None:
        if game.ending != Ending.DROPPED:
            raise GameError(gettext_noop("The cube history ends with a drop, so the game ended by a dropped double."))
        if game.winner == dropped_by:
            raise GameError(gettext_noop("The player who dropped the double loses the game."))
        if value != game.cube:
            raise GameError(
                gettext_noop(
                    "The cube history shows a double to %(offered)d dropped; record the cube offered (%(offered)d), "
                    "not %(cube)d."
                ),
                offered=value,
                cube=game.cube,
            )
        return owner
    if game.ending == Ending.DROPPED:
        raise GameError(gettext_noop("The game ended by a dropped double, but the cube history has no drop."))
    if value != game.cube:
        raise GameError(
            gettext_noop("The cube history brings the cube to %(value)d, but the game records %(cube)d."),
            value=value,
            cube=game.cube,
        )
    return owner


def _cube_never_turned(game: Game, money: MoneyRules) -> bool:
    if money.automatic_doubles:
        return False
    if game.cube_history is not None:
        return not game.cube_history
    return game.cube == 1


def _check_money(game: Game, money: MoneyRules) -> None:
    if money.automatic_doubles < 0 or (
        money.automatic_double_limit and money.automatic_doubles > money.automatic_double_limit
    ):
        raise GameError(
            gettext_noop("This game had %(count)d automatic doubles; the limit is %(limit)d."),
            count=money.automatic_doubles,
            limit=money.automatic_double_limit,
        )
    if game.cube < 2**money.automatic_doubles:
        raise GameError(
            gettext_noop("After %(count)d automatic doubles the cube is at least %(value)d."),
            count=money.automatic_doubles,
            value=2**money.automatic_doubles,
        )
    if game.ending == Ending.DROPPED and game.cube == 2**money.automatic_doubles:
        raise GameError(
            gettext_noop(
                "After %(count)d automatic doubles the cube is at %(value)d, so a dropped double offered at least "
                "%(offered)d."
            ),
            count=money.automatic_doubles,
            value=2**money.automatic_doubles,
            offered=2 ** (money.automatic_doubles + 1),
        )


def _parse_history(history: Any) -> tuple[tuple[Side, CubeAction], ...]:
    if not isinstance(history, Sequence) or isinstance(history, str):
        raise GameError(gettext_noop('The cube history is a list such as [["a", "double"], ["b", "take"]].'))
    parsed = []
    for number, item in enumerate(history, start=1):
        if not isinstance(item, Sequence) or isinstance(item, str) or len(item) != 2:
            raise GameError(
                gettext_noop('Cube action %(number)d must be a pair such as ["a", "double"].'), number=number
            )
        player, action = item
        if player not in ("a", "b"):
            raise GameError(
                gettext_noop('Cube action %(number)d: the player is "a" or "b", not %(value).40r.'),
                number=number,
                value=player,
            )
        parsed.append((player, _choice(action, CubeAction, gettext_noop("cube action"))))
    return tuple(parsed)


def _choice(value: Any, enum: type[StrEnum], what: str):
    try:
        return enum(value)
    except ValueError:
        raise GameError(
            gettext_noop("The %(what)s must be one of %(choices)s, not %(value).40r."),
            what=Text(what),
            choices=", ".join(member.value for member in enum),
            value=value,
        ) from None
