"""Chouette (SPEC §3.3): one box against a team on one board, scored cube by cube.

Pure functions over plain values; nothing here imports Django. The one-game rules
(kind × cube, a dropped double pays the cube before the double, the Jacoby rule,
automatic doubles, a cube history that must hold together) are those of
``games.backgammon.scoring``: every team member's cube against the box is scored there
as a two-player game in which side "a" is the box and side "b" is the member.

**The line** is a tuple of player ids: ``(box, captain, team…)``. ``line_from_rolls``
reads the opening rolls (ties re-roll among the tied only), ``roll_line`` rolls them
with a random source the caller supplies, ``line_from_order`` takes a director's order.

**One game** is recorded as a ``ChouetteGame``: every team member's ``MemberCube`` (its
value and owner at the end, or who dropped which double), the ``Board`` result (who won
the board and how) when anyone is still in at the end, and optionally who took over
the board, the number of automatic doubles and who was box and captain (a check for a
replay). ``score_game`` gives every player's points (they sum to zero) and the next
line. A cube follows the convention of ``scoring``: **a dropped double is recorded with
the value offered** (a double to 4 dropped is ``value=4`` and pays 2), and its ``owner``
is who owned the cube when that double was offered (None: it was in the centre).

Where SPEC §3.3 is silent, this module decides:

- **Who may take over the board.** When the captain drops the box's double, any team
  member still in takes over (with many cubes a member the box never doubled is still
  in); the record may name them (``takeover``); by default it is the first in line
  order who is still in, and if nobody is still in, the first whose double the box then
  dropped. A takeover is recorded only when the captain dropped.
- **The box drops the captain's double** (many cubes): the captain has beaten the box,
  so the rotation is "box loses" with the captain as the acting captain. Teammates
  still in play on for their own cubes and the board result settles only those cubes.
  With one cube the box's drop applies to the whole team still in (SPEC), same rotation.
- **Rotation.** The captain who dropped goes to the end at once; then the acting
  captain is compared with the box: box wins → the acting captain goes to the end;
  box loses → the acting captain becomes box and the box goes to the end. Everyone
  else keeps their order. In particular **a member who dropped (other than the
  captain) keeps their place**, as T3 does in SPEC's example. When everyone dropped,
  no board was played: the box stays (it won every cube) and the captain goes to the
  end.
- **The box partner** (a session setting, six players or more) is the seat right after
  the captain, ``line[2]``, re-read every game. The partner plays no cube that game (a
  ``MemberCube`` for them is refused) and shares the box's result: half each, and an
  odd point goes to the box, won or lost (the box wins 3 and the partner 2 of 5; the
  box pays 3 and the partner 2 of 5). The rotation treats the partner's seat like any
  other: partnering moves nobody, so if the box wins, the partner captains next.
- **Automatic doubles** are off when ``automatic_doubles_limit`` is 0 (unlike
  ``MoneyRules``, where a limit of 0 means "no limit"): a session opts in with a limit
  from 1 to 6 (the cube stops at 64).
- A member not named in ``ChouetteGame.cubes`` had an untouched cube: in the centre at
  1, or at 2ⁿ after n automatic doubles.
- **Settling up** (``settle``) pays the fewest payments exactly for up to
  ``EXACT_SETTLEMENT_LIMIT`` players with a non-zero balance (the most zero-sum groups,
  each settled in one payment fewer than its size); beyond that it pays largest debtor
  to largest creditor, which never needs more than one payment fewer than the number
  of players, and is the minimum in the common cases but not always.
- ``leave`` works between games only (the caller keeps games and line changes apart);
  the line closes up, so if the box leaves the captain becomes box.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, Literal, NamedTuple, Protocol

from games.backgammon import scoring
from games.backgammon.scoring import CUBE_VALUES, CubeAction, Ending, GameError, Kind, MoneyRules
from games.text import RuleError, Text, gettext_noop

Line = tuple[str, ...]
Owner = Literal["box", "member"]
Winner = Literal["box", "team"]
CubesSetting = Literal["one", "many"]
AdviceSetting = Literal["always", "never", "after_double"]

MIN_PLAYERS = 3
BOX_PARTNER_MIN_PLAYERS = 6
MAX_AUTOMATIC_DOUBLES = 6  # 2**6 = 64, the top of the cube
EXACT_SETTLEMENT_LIMIT = 12
_SIDE: dict[str, scoring.Side] = {"box": "a", "member": "b"}
_OWNER: dict[scoring.Side | None, Owner | None] = {"a": "box", "b": "member", None: None}


class ChouetteError(RuleError):
    """A chouette line, setting or game that cannot be; the message says what to fix."""


class RandomSource(Protocol):
    """What ``roll_line`` needs of a random source (``random.Random``, ``secrets.SystemRandom``)."""

    def randint(self, a: int, b: int) -> int: ...


# --- Settings ----------------------------------------------------------------------------


@dataclass(frozen=True)
class Settings:
    """A session's rules, chosen when it starts."""

    cubes: CubesSetting = "many"
    jacoby: bool = False
    beavers: bool = False
    automatic_doubles_limit: int = 0
    advice: AdviceSetting = "always"
    box_partner: bool = False

    def __post_init__(self) -> None:
        if self.cubes not in ("one", "many"):
            raise ChouetteError(
                gettext_noop(
                    'The cubes setting is "one" (one cube for the whole team) or "many" (a cube for every '
                    "team member), not %(value).40r."
                ),
                value=self.cubes,
            )
        if self.advice not in ("always", "never", "after_double"):
            raise ChouetteError(
                gettext_noop('The advice setting is "always", "never" or "after_double", not %(value).40r.'),
                value=self.advice,
            )
        for name in ("jacoby", "beavers", "box_partner"):
            if not isinstance(getattr(self, name), bool):
                raise ChouetteError(
                    gettext_noop("The %(setting)s setting is on or off (true or false), not %(value).40r."),
                    setting=name,
                    value=getattr(self, name),
                )
        limit = self.automatic_doubles_limit
        if isinstance(limit, bool) or not isinstance(limit, int) or not 0 <= limit <= MAX_AUTOMATIC_DOUBLES:
            raise ChouetteError(
                gettext_noop(
                    "The limit of automatic doubles is a whole number from 0 (none) to %(max)d (the cube stops "
                    "at 64), not %(value).40r."
                ),
                max=MAX_AUTOMATIC_DOUBLES,
                value=limit,
            )

    def money(self, automatic_doubles: int = 0) -> MoneyRules:
        """The money-play rules of one game of this session."""
        return MoneyRules(
            jacoby=self.jacoby,
            beavers=self.beavers,
            automatic_doubles=automatic_doubles,
            automatic_double_limit=self.automatic_doubles_limit,
        )


def check_settings(settings: Settings, line: Sequence[str]) -> Settings:
    """The settings fit a line of this size (a box partner needs six players)."""
    if settings.box_partner and len(line) < BOX_PARTNER_MIN_PLAYERS:
        raise ChouetteError(
            gettext_noop(
                "A box partner needs at least %(min)d players; this line has %(count)d. Turn the box partner "
                "off or wait for more players."
            ),
            min=BOX_PARTNER_MIN_PLAYERS,
            count=len(line),
        )
    return settings


# --- The line ----------------------------------------------------------------------------


@dataclass(frozen=True)
class RolledLine:
    """A line rolled by the system, with the rolls that made it (to keep as the record)."""

    line: Line
    rolls: tuple[dict[str, int], ...]


def check_line(line: Sequence[str]) -> Line:
    """A line is at least three distinct players, box first; returns it as a tuple."""
    if isinstance(line, str) or not isinstance(line, Sequence):
        raise ChouetteError(gettext_noop('The line is a list of players such as ["ann", "bob", "cy"].'))
    seen: set[str] = set()
    for player in line:
        _check_player_id(player)
        if player in seen:
            raise ChouetteError(
                gettext_noop("%(player)s stands in the line twice; list every player once."), player=player
            )
        seen.add(player)
    if len(line) < MIN_PLAYERS:
        raise ChouetteError(
            gettext_noop("A chouette needs at least %(min)d players; the line has %(count)d. Add players."),
            min=MIN_PLAYERS,
            count=len(line),
        )
    return tuple(line)


def line_from_order(players: Sequence[str]) -> Line:
    """The line in the order a director gives it: box, captain, then the team."""
    return check_line(players)


def line_from_rolls(rolls: Sequence[Mapping[str, int]], players: Sequence[str] | None = None) -> Line:
    """The line from the opening rolls, highest first.

    ``rolls`` is a list of rounds, each ``{player: die}``. The first round has every
    player (exactly ``players``, when given); each later round has exactly the players
    who were tied in the round before, each tied group ordered among itself.
    """
    if isinstance(rolls, str | Mapping) or not isinstance(rolls, Sequence) or not rolls:
        raise ChouetteError(
            gettext_noop('The rolls are a list of rounds such as [{"ann": 6, "bob": 3, "cy": 3}, {"bob": 2, "cy": 5}].')
        )
    blocks: list[list[str]] = []  # the line so far: ordered groups, a group of 2+ is a tie
    for number, dice in enumerate(rolls, start=1):
        if not isinstance(dice, Mapping):
            raise ChouetteError(
                gettext_noop('Round %(number)d of the rolls is not a set of dice such as {"ann": 4, "bob": 2}.'),
                number=number,
            )
        for player, die in dice.items():
            _check_player_id(player)
            if isinstance(die, bool) or not isinstance(die, int) or die not in range(1, 7):
                raise ChouetteError(
                    gettext_noop("%(player)s rolled %(value).40r in round %(number)d; a die shows 1 to 6."),
                    player=player,
                    value=die,
                    number=number,
                )
        if number == 1:
            expected = list(players) if players is not None else list(dice)
            if players is not None:
                strangers = [player for player in dice if player not in expected]
                if strangers:
                    raise ChouetteError(
                        gettext_noop("%(players)s rolled but is not one of this session's players; check the names."),
                        players=", ".join(strangers),
                    )
                missing = [player for player in expected if player not in dice]
                if missing:
                    raise ChouetteError(
                        gettext_noop("%(players)s did not roll in the first round; every player rolls once to start."),
                        players=", ".join(missing),
                    )
            blocks = [expected]
        tied = [player for block in blocks if len(block) > 1 for player in block]
        if not tied:
            raise ChouetteError(
                gettext_noop("Round %(number)d is not needed: nobody was tied in round %(previous)d. Remove it."),
                number=number,
                previous=number - 1,
            )
        for player in dice:
            if player not in tied:
                raise ChouetteError(
                    gettext_noop(
                        "%(player)s rolled in round %(number)d but was not tied in round %(previous)d; only "
                        "tied players roll again. Remove that roll."
                    ),
                    player=player,
                    number=number,
                    previous=number - 1,
                )
        missing = [player for player in tied if player not in dice]
        if missing:
            raise ChouetteError(
                gettext_noop(
                    "%(players)s tied in round %(previous)d and must roll again in round %(number)d; add their dice."
                ),
                players=", ".join(missing),
                number=number,
                previous=number - 1,
            )
        resolved: list[list[str]] = []
        for block in blocks:
            if len(block) == 1:
                resolved.append(block)
                continue
            for face in sorted({dice[player] for player in block}, reverse=True):
                resolved.append([player for player in block if dice[player] == face])
        blocks = resolved
    still_tied = [block for block in blocks if len(block) > 1]
    if still_tied:
        raise ChouetteError(
            gettext_noop(
                "%(players)s are still tied after round %(number)d; add a round in which only the tied players roll."
            ),
            players="; ".join(", ".join(block) for block in still_tied),
            number=len(rolls),
        )
    return check_line([block[0] for block in blocks])


def roll_line(players: Sequence[str], rng: RandomSource) -> RolledLine:
    """Roll for the line fairly: everyone rolls one die, the tied re-roll among
    themselves until the order is complete. Pass ``secrets.SystemRandom()`` in
    earnest and a seeded ``random.Random`` in tests."""
    players = check_line(players)
    rounds: list[dict[str, int]] = []
    groups: list[list[str]] = [list(players)]
    while groups:
        dice = {player: rng.randint(1, 6) for group in groups for player in group}
        rounds.append(dice)
        groups = [
            tied
            for group in groups
            for face in sorted({dice[player] for player in group}, reverse=True)
            if len(tied := [player for player in group if dice[player] == face]) > 1
        ]
    return RolledLine(line=line_from_rolls(rounds, players), rolls=tuple(rounds))


def join(line: Sequence[str], player: str) -> Line:
    """A newcomer joins at the end of the line."""
    line = check_line(line)
    _check_player_id(player)
    if player in line:
        raise ChouetteError(gettext_noop("%(player)s is already in the line."), player=player)
    return (*line, player)


def leave(line: Sequence[str], player: str, settings: Settings | None = None) -> Line:
    """A player leaves between games and the line closes up (if the box leaves, the
    captain becomes box). At least three must stay, six with a box partner."""
    line = check_line(line)
    if player not in line:
        raise ChouetteError(gettext_noop("%(player)s is not in the line, so cannot leave it."), player=player)
    if len(line) <= MIN_PLAYERS:
        raise ChouetteError(
            gettext_noop(
                "%(player)s cannot leave: a chouette needs at least %(min)d players. End the session instead, "
                "or let someone join first."
            ),
            player=player,
            min=MIN_PLAYERS,
        )
    rest = tuple(other for other in line if other != player)
    if settings is not None and settings.box_partner and len(rest) < BOX_PARTNER_MIN_PLAYERS:
        raise ChouetteError(
            gettext_noop(
                "%(player)s cannot leave while the session plays with a box partner: that needs %(min)d players. "
                "Turn the box partner off first."
            ),
            player=player,
            min=BOX_PARTNER_MIN_PLAYERS,
        )
    return rest


# --- One game ----------------------------------------------------------------------------


@dataclass(frozen=True)
class MemberCube:
    """One team member's cube against the box at the end of a game.

    - still in: ``value`` and ``owner`` at the end (1 and None: never turned);
    - ``dropped_by="member"``: the member dropped the box's double to ``value`` and
      pays ``value // 2``; ``owner`` is who owned the cube when the box doubled;
    - ``dropped_by="box"``: the member doubled to ``value`` and the box dropped; the box
      pays ``value // 2``; ``owner`` is who owned the cube when the member doubled.

    ``history`` optionally lists the cube actions, each ``("box" | "member", CubeAction)``;
    it must agree with the rest.
    """

    value: int = 1
    owner: Owner | None = None
    dropped_by: Owner | None = None
    history: tuple[tuple[Owner, CubeAction], ...] | None = None

    @classmethod
    def member_drops(cls, offered: int, owner: Owner | None = None) -> MemberCube:
        """The box doubled to ``offered`` and the member dropped."""
        return cls(value=offered, owner=owner, dropped_by="member")

    @classmethod
    def box_drops(cls, offered: int, owner: Owner | None = None) -> MemberCube:
        """The member doubled to ``offered`` and the box dropped."""
        return cls(value=offered, owner=owner, dropped_by="box")

    @property
    def still_in(self) -> bool:
        return self.dropped_by is None


@dataclass(frozen=True)
class Board:
    """How the board game ended for the team members still in at the end."""

    winner: Winner
    kind: Kind = Kind.SINGLE
    resigned: bool = False


@dataclass(frozen=True)
class ChouetteGame:
    """The facts of one game. ``box`` and ``captain``, when recorded, must match the line."""

    cubes: Mapping[str, MemberCube] = field(default_factory=dict)
    board: Board | None = None
    takeover: str | None = None
    automatic_doubles: int = 0
    box: str | None = None
    captain: str | None = None


@dataclass(frozen=True)
class GameScore:
    """What a game comes to: every player's points (summing to zero) and the next line."""

    points: dict[str, int]
    next_line: Line
    acting_captain: str | None  # who played the board for the team at the end; None if everyone dropped
    box_won: bool  # the rotation's verdict: did the box beat the acting captain?
    partner: str | None = None


def team_of(line: Sequence[str], settings: Settings) -> Line:
    """The team members of a game played from this line (the captain first)."""
    line = check_line(line)
    check_settings(settings, line)
    return (line[1], *line[3:]) if settings.box_partner else line[1:]


def score_game(line: Sequence[str], settings: Settings, game: ChouetteGame) -> GameScore:
    """Every player's points for one game and the line for the next (SPEC §3.3)."""
    line = check_line(line)
    check_settings(settings, line)
    box, captain = line[0], line[1]
    partner = line[2] if settings.box_partner else None
    team = team_of(line, settings)
    _check_seats(game, line, box, captain)
    money = settings.money(_check_automatic_doubles(game.automatic_doubles, settings))
    base = 2**money.automatic_doubles

    if not isinstance(game.cubes, Mapping):
        raise ChouetteError(gettext_noop('The cubes are a mapping from team member to cube, such as {"bob": ...}.'))
    for player in game.cubes:
        if player not in team:
            raise ChouetteError(_not_on_team(player, box, partner), player=player)
    cubes = {member: game.cubes.get(member, MemberCube(value=base)) for member in team}
    games = {member: _member_game(member, cubes[member], money) for member in team}
    if settings.cubes == "one":
        _check_one_cube(team, cubes)

    still_in = [member for member in team if cubes[member].still_in]
    board = _check_board(game.board, still_in, team)
    acting = _acting_captain(game.takeover, team, cubes, captain, box, partner, line)
    if acting is None:
        box_won = True
    elif cubes[acting].dropped_by == "box":
        box_won = False
    else:
        assert board is not None
        box_won = board.winner == "box"

    points = {player: 0 for player in line}
    for member in team:
        one_game = games[member]
        if cubes[member].still_in:
            assert board is not None
            one_game = replace(
                one_game,
                winner="a" if board.winner == "box" else "b",
                kind=board.kind,
                ending=Ending.RESIGNED if board.resigned else Ending.PLAYED,
            )
        worth = scoring.points(one_game, money)
        points[member] = worth if one_game.winner == "b" else -worth
    box_result = -sum(points[member] for member in team)
    if partner is None:
        points[box] = box_result
    else:
        partner_share = abs(box_result) // 2 * (1 if box_result >= 0 else -1)
        points[partner] = partner_share
        points[box] = box_result - partner_share

    return GameScore(
        points=points,
        next_line=_rotate(line, captain, acting, box_won, captain_dropped=cubes[captain].dropped_by == "member"),
        acting_captain=acting,
        box_won=box_won,
        partner=partner,
    )


def _check_seats(game: ChouetteGame, line: Line, box: str, captain: str) -> None:
    for seat, expected, role in (
        (game.box, box, gettext_noop("box")),
        (game.captain, captain, gettext_noop("captain")),
    ):
        if seat is None or seat == expected:
            continue
        if seat not in line:
            raise ChouetteError(
                gettext_noop(
                    "The game names %(player)s as %(role)s, but %(player)s is not in the line; the line's %(role)s "
                    "is %(expected)s."
                ),
                player=seat,
                role=Text(role),
                expected=expected,
            )
        raise ChouetteError(
            gettext_noop("The game names %(player)s as %(role)s, but the line's %(role)s is %(expected)s."),
            player=seat,
            role=Text(role),
            expected=expected,
        )


def _check_automatic_doubles(count: Any, settings: Settings) -> int:
    if isinstance(count, bool) or not isinstance(count, int) or count < 0:
        raise ChouetteError(
            gettext_noop("The number of automatic doubles is a whole number (0 or more), not %(value).40r."),
            value=count,
        )
    if count and not settings.automatic_doubles_limit:
        raise ChouetteError(
            gettext_noop("This session plays no automatic doubles; record 0 of them, not %(count)d."), count=count
        )
    if count > settings.automatic_doubles_limit:
        raise ChouetteError(
            gettext_noop("This game had %(count)d automatic doubles; the session's limit is %(limit)d."),
            count=count,
            limit=settings.automatic_doubles_limit,
        )
    return count


def _not_on_team(player: Any, box: str, partner: str | None) -> str:
    if player == box:
        return gettext_noop("%(player)s is the box, who plays against every cube and has none; remove that cube.")
    if player == partner:
        return gettext_noop("%(player)s is the box's partner this game and plays no cube; remove that cube.")
    return gettext_noop("%(player)s is not in this game's line, so has no cube; check the name.")


def _member_game(member: str, cube: MemberCube, money: MoneyRules) -> scoring.Game:
    """The member's cube as a two-player game (a = the box, b = the member), checked."""
    if not isinstance(cube, MemberCube):
        raise ChouetteError(gettext_noop("%(player)s's cube is not recorded as a cube."), player=member)
    value = cube.value
    if isinstance(value, bool) or not isinstance(value, int) or value not in CUBE_VALUES:
        raise ChouetteError(
            gettext_noop(
                "%(player)s's cube shows %(value).40r; a cube is 1 (in the centre), 2, 4, 8, 16, 32 or 64. "
                "Record one of those."
            ),
            player=member,
            value=value,
        )
    if cube.owner not in (None, "box", "member"):
        raise ChouetteError(
            gettext_noop('%(player)s\'s cube owner is "box", "member" or none (the centre), not %(value).40r.'),
            player=member,
            value=cube.owner,
        )
    if cube.dropped_by not in (None, "box", "member"):
        raise ChouetteError(
            gettext_noop('%(player)s\'s cube was dropped by "box", "member" or nobody, not %(value).40r.'),
            player=member,
            value=cube.dropped_by,
        )
    history = None if cube.history is None else _member_history(member, cube.history)
    one_game = scoring.Game(
        winner="b" if cube.dropped_by == "box" else "a",
        cube=value,
        ending=Ending.PLAYED if cube.still_in else Ending.DROPPED,
        cube_history=history,
    )
    try:
        scoring.check_game(one_game, money=money)
        if history is not None:
            replayed = _OWNER[scoring.cube_owner(one_game, money)]
            if replayed != cube.owner:
                raise ChouetteError(
                    gettext_noop(
                        "%(player)s's cube history leaves the cube with %(replayed)s, but the record says "
                        "%(owner)s; make them agree."
                    ),
                    player=member,
                    replayed=_owner_text(replayed),
                    owner=_owner_text(cube.owner),
                )
    except GameError as error:
        raise ChouetteError(
            gettext_noop("%(player)s's cube against the box (a = the box, b = %(player)s): %(problem)s"),
            player=member,
            problem=error,
        ) from error
    _check_ownership(member, cube, 2**money.automatic_doubles)
    return one_game


def _member_history(member: str, history: Any) -> tuple[tuple[scoring.Side, CubeAction], ...]:
    """The member's cube history in the sides of ``scoring`` (a = the box, b = the member)."""
    steps = []
    for number, step in enumerate(history, start=1):
        who, action = step if isinstance(step, tuple | list) and len(step) == 2 else (None, None)
        if who not in _SIDE:
            raise ChouetteError(
                gettext_noop(
                    '%(player)s\'s cube action %(number)d is a pair such as ("box", "double"); who acts is "box" or '
                    '"member", not %(value).40r.'
                ),
                player=member,
                number=number,
                value=who,
            )
        try:
            steps.append((_SIDE[who], CubeAction(action)))
        except ValueError:
            raise ChouetteError(
                gettext_noop("%(player)s's cube action %(number)d is one of %(choices)s, not %(value).40r."),
                player=member,
                number=number,
                choices=", ".join(action.value for action in CubeAction),
                value=action,
            ) from None
    return tuple(steps)


def _check_ownership(member: str, cube: MemberCube, base: int) -> None:
    """The owner fits the value: a cube in the centre shows its starting value, a cube
    that has changed hands more; only the owner (or anyone, from the centre) doubles."""
    if cube.still_in:
        if cube.owner is None and cube.value != base:
            raise ChouetteError(
                gettext_noop(
                    "%(player)s's cube shows %(value)d but is recorded in the centre, where it shows %(base)d. "
                    'Record who took the last double (owner "box" or "member").'
                ),
                player=member,
                value=cube.value,
                base=base,
            )
        if cube.owner is not None and cube.value == base:
            raise ChouetteError(
                gettext_noop(
                    "%(player)s's cube is recorded as owned by %(owner)s but shows %(base)d, its value in the "
                    "centre; a cube changes hands only with a double. Record the value after the double, or no owner."
                ),
                player=member,
                owner=_owner_text(cube.owner),
                base=base,
            )
        return
    if cube.dropped_by == "member" and cube.owner == "member":
        raise ChouetteError(
            gettext_noop(
                "The box cannot double %(player)s's cube: %(player)s owns it. Record who owned the cube when the "
                "box doubled (the box, or nobody while it was in the centre)."
            ),
            player=member,
        )
    if cube.dropped_by == "box" and cube.owner == "box":
        raise ChouetteError(
            gettext_noop(
                "%(player)s cannot double the box: the box owns %(player)s's cube. Record who owned the cube when "
                "%(player)s doubled (%(player)s, or nobody while it was in the centre)."
            ),
            player=member,
        )
    if cube.owner is None and cube.value != 2 * base:
        raise ChouetteError(
            gettext_noop(
                "%(player)s's cube was in the centre at %(base)d, so the dropped double offered %(offered)d, not "
                "%(value)d. Record the value offered, or who owned the cube when it was doubled."
            ),
            player=member,
            base=base,
            offered=2 * base,
            value=cube.value,
        )
    if cube.owner is not None and cube.value == 2 * base:
        raise ChouetteError(
            gettext_noop(
                "%(player)s's cube was owned by %(owner)s, so it had been doubled already and a redouble offers "
                "at least %(least)d, not %(value)d. Record the value offered, or no owner if it was in the centre."
            ),
            player=member,
            owner=_owner_text(cube.owner),
            least=4 * base,
            value=cube.value,
        )


def _check_one_cube(team: Line, cubes: Mapping[str, MemberCube]) -> None:
    """One cube for the whole team: everyone still in shares it, and the box's drop
    applies to all of them; a member who dropped left at a double on the way up."""
    remaining = [member for member in team if cubes[member].dropped_by != "member"]
    if not remaining:
        return
    first = remaining[0]
    shared = cubes[first]
    for member in remaining[1:]:
        cube = cubes[member]
        if (cube.value, cube.owner, cube.dropped_by) != (shared.value, shared.owner, shared.dropped_by):
            raise ChouetteError(
                gettext_noop(
                    "In a one-cube session everyone still in shares the team's cube, and the box's drop applies "
                    "to all of them: %(player)s's cube differs from %(other)s's. Record the same cube for both, "
                    "or record that %(player)s dropped."
                ),
                player=member,
                other=first,
            )
    for member in team:
        cube = cubes[member]
        if cube.dropped_by != "member":
            continue
        fits = cube.value < shared.value or (
            cube.value == shared.value and shared.still_in and shared.owner == "member"
        )
        if not fits:
            raise ChouetteError(
                gettext_noop(
                    "%(player)s dropped the box's double to %(offered)d, but the team's one cube, which the others "
                    "took, ended at %(team)d; a cube only goes up. Check %(player)s's drop and the team's cube."
                ),
                player=member,
                offered=cube.value,
                team=shared.value,
            )


def _check_board(board: Board | None, still_in: Sequence[str], team: Line) -> Board | None:
    if not still_in:
        if board is not None:
            raise ChouetteError(
                gettext_noop(
                    "%(players)s dropped or had their double dropped, so nobody on the team is left to win or "
                    "lose the board. Remove the board result, or record who took."
                ),
                players=", ".join(team),
            )
        return None
    if board is None:
        raise ChouetteError(
            gettext_noop(
                "%(players)s played on to the end: record the board result (who won, single, gammon or backgammon)."
            ),
            players=", ".join(still_in),
        )
    if not isinstance(board, Board):
        raise ChouetteError(gettext_noop("The board result is not recorded as a board result."))
    if board.winner not in ("box", "team"):
        raise ChouetteError(gettext_noop('The board was won by "box" or "team", not %(value).40r.'), value=board.winner)
    try:
        kind = Kind(board.kind)
    except ValueError:
        raise ChouetteError(
            gettext_noop('The board was won by a "single", "gammon" or "backgammon", not %(value).40r.'),
            value=board.kind,
        ) from None
    if not isinstance(board.resigned, bool):
        raise ChouetteError(
            gettext_noop("Whether the board ended by a resignation is true or false, not %(value).40r."),
            value=board.resigned,
        )
    return replace(board, kind=kind)


def _acting_captain(
    takeover: Any,
    team: Line,
    cubes: Mapping[str, MemberCube],
    captain: str,
    box: str,
    partner: str | None,
    line: Line,
) -> str | None:
    captain_dropped = cubes[captain].dropped_by == "member"
    if takeover is not None:
        if takeover not in team:
            if takeover in line:
                role = gettext_noop("the box") if takeover == box else gettext_noop("the box's partner")
                raise ChouetteError(
                    gettext_noop("%(player)s cannot take over the board for the team: %(player)s is %(role)s."),
                    player=takeover,
                    role=Text(role),
                )
            raise ChouetteError(
                gettext_noop("%(player)s cannot take over the board: %(player)s is not in this game's line."),
                player=takeover,
            )
        if not captain_dropped:
            raise ChouetteError(
                gettext_noop(
                    "%(player)s cannot take over the board: the captain %(captain)s did not drop. Remove the "
                    "takeover, or record the captain's drop."
                ),
                player=takeover,
                captain=captain,
            )
        if cubes[takeover].dropped_by == "member":
            raise ChouetteError(
                gettext_noop(
                    "%(player)s cannot take over the board: %(player)s dropped the box's double too. Name a "
                    "teammate who took."
                ),
                player=takeover,
            )
        return takeover
    if not captain_dropped:
        return captain
    still_in = [member for member in team if cubes[member].still_in]
    won_by_drop = [member for member in team if cubes[member].dropped_by == "box"]
    return (still_in or won_by_drop or [None])[0]


def _rotate(line: Line, captain: str, acting: str | None, box_won: bool, *, captain_dropped: bool) -> Line:
    order = list(line)
    box = order[0]
    if captain_dropped:
        order.remove(captain)
        order.append(captain)
    if acting is None:
        return tuple(order)
    order.remove(acting)
    if box_won:
        order.append(acting)
    else:
        order.remove(box)
        order.insert(0, acting)
        order.append(box)
    return tuple(order)


def _owner_text(owner: Owner | None) -> Text:
    if owner == "box":
        return Text(gettext_noop("the box"))
    if owner == "member":
        return Text(gettext_noop("the member"))
    return Text(gettext_noop("the centre"))


def _check_player_id(player: Any) -> None:
    if not isinstance(player, str) or not player.strip():
        raise ChouetteError(
            gettext_noop('A player is named by a non-empty id such as "ann", not %(value).40r.'), value=player
        )


# --- The session's ledger and the settlement ----------------------------------------------


class Payment(NamedTuple):
    payer: str
    payee: str
    amount: int  # in cents


def ledger(games: Iterable[GameScore | Mapping[str, int]]) -> list[dict[str, int]]:
    """Every player's running total after each game (a player keeps their total after
    leaving). Each game's points must sum to zero, so every row does too."""
    totals: dict[str, int] = {}
    rows: list[dict[str, int]] = []
    for number, game in enumerate(games, start=1):
        game_points = game.points if isinstance(game, GameScore) else game
        for player, value in game_points.items():
            if isinstance(value, bool) or not isinstance(value, int):
                raise ChouetteError(
                    gettext_noop("Game %(number)d gives %(player)s %(value).40r points; points are whole numbers."),
                    number=number,
                    player=player,
                    value=value,
                )
        balance = sum(game_points.values())
        if balance:
            raise ChouetteError(
                gettext_noop("Game %(number)d's points sum to %(sum)d, not 0: what the box wins the team loses."),
                number=number,
                sum=balance,
            )
        for player, value in game_points.items():
            totals[player] = totals.get(player, 0) + value
        rows.append(dict(totals))
    return rows


def settle(totals: Mapping[str, int], stake_cents: int = 1) -> list[Payment]:
    """The payments that clear every balance, as few as can be (see the module's
    docstring), each ``points × stake_cents``."""
    if isinstance(stake_cents, bool) or not isinstance(stake_cents, int) or stake_cents < 1:
        raise ChouetteError(
            gettext_noop("The stake per point is a whole number of cents, at least 1, not %(value).40r."),
            value=stake_cents,
        )
    for player, value in totals.items():
        if isinstance(value, bool) or not isinstance(value, int):
            raise ChouetteError(
                gettext_noop("%(player)s's total is %(value).40r; totals are whole numbers of points."),
                player=player,
                value=value,
            )
    balance = sum(totals.values())
    if balance:
        raise ChouetteError(
            gettext_noop("The totals sum to %(sum)d, not 0, so they cannot be settled; check the ledger."),
            sum=balance,
        )
    players = sorted(player for player, value in totals.items() if value)
    values = [totals[player] for player in players]
    if len(players) <= EXACT_SETTLEMENT_LIMIT:
        groups = _zero_sum_groups(values)
    else:
        groups = [list(range(len(players)))]
    payments: list[Payment] = []
    for group in groups:
        for payer, payee, amount in _greedy({players[i]: values[i] for i in group}):
            payments.append(Payment(payer, payee, amount * stake_cents))
    return payments


def _zero_sum_groups(values: Sequence[int]) -> list[list[int]]:
    """Split the balances (summing to zero) into as many zero-sum groups as possible;
    a group of k settles in k - 1 payments, so this gives the fewest payments."""
    n = len(values)
    if not n:
        return []
    size = 1 << n
    sums = [0] * size
    best = [0] * size
    last = [0] * size
    for mask in range(1, size):
        low = mask & -mask
        sums[mask] = sums[mask ^ low] + values[low.bit_length() - 1]
        top, chosen, rest = -1, 0, mask
        while rest:
            bit = rest & -rest
            rest ^= bit
            if best[mask ^ bit] > top:
                top, chosen = best[mask ^ bit], bit.bit_length() - 1
        best[mask] = top + int(sums[mask] == 0)
        last[mask] = chosen
    order: list[int] = []
    mask = size - 1
    while mask:
        order.append(last[mask])
        mask ^= 1 << last[mask]
    groups: list[list[int]] = []
    current: list[int] = []
    running = 0
    for index in reversed(order):
        current.append(index)
        running += values[index]
        if running == 0:
            groups.append(current)
            current = []
    return groups


def _greedy(balances: Mapping[str, int]) -> list[tuple[str, str, int]]:
    """Largest debtor pays largest creditor until everyone is square."""
    left = dict(balances)
    payments = []
    while any(left.values()):
        payer = min(sorted(left), key=left.__getitem__)  # ties: the first by name
        payee = max(sorted(left), key=left.__getitem__)
        amount = min(-left[payer], left[payee])
        payments.append((payer, payee, amount))
        left[payer] += amount
        left[payee] -= amount
    return payments
