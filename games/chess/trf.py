"""A chess tournament as a FIDE Tournament Report File, version TRF16.

FIDE rates a tournament from its TRF: a text file of one record per line, each line
starting with a three-digit record code, its fields in fixed columns (numbered from 1,
as the FIDE specification numbers them; a Python slice of columns a–b is
``line[a - 1:b]``).

Header records carry their value from column 5 on::

    012 Club knockout 2026          tournament name
    022 Brno                        city
    032 CZE                         federation
    042 2026/11/23                  date of start
    052 2026/11/29                  date of end
    062 8                           number of players
    072 7                           number of rated players
    092 Knockout                    type of tournament
    102 Novák, Jan                  chief arbiter
    122 90 min + 30 s/move          allotted time per moves/game
    132                             dates of the rounds, YY/MM/DD, each at the column of its
                                    round in the 001 records (92, 102, 112, …)

A player record ``001``::

    columns  field
    1–3      001
    5–8      starting rank, right-aligned
    10       sex: m, w or blank
    11–13    title, right-aligned: GM, IM, FM, CM, WGM, WIM, WFM, WCM
    15–47    name, "Lastname, Firstname" (at most 33 characters)
    49–52    FIDE rating, right-aligned, blank if none
    54–56    federation
    58–68    FIDE id, right-aligned
    70–79    birth date YYYY/MM/DD
    81–84    points, right-aligned with one decimal: " 3.5", "10.0"
    86–89    rank, right-aligned

and then one 10-column block per round r, from column 92 + 10·(r − 1): the opponent's
starting rank in its first four columns (``0000`` for a bye), the colour in its sixth
(``w``, ``b`` or ``-`` for none) and the result code in its eighth:

    1 0 =   win, loss, draw
    + -     forfeit win, forfeit loss
    W D L   win, draw, loss of a game that lasted less than one move (not rated)
    H F     half-point bye, full-point bye
    U       pairing-allocated bye (a bye from the draw, counted as a win)
    Z       zero-point bye

A player without a game in a round (knocked out of a knockout, say) has a blank block;
lines carry no trailing spaces.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date

from games.text import RuleError, Text, gettext_noop

GAME_RESULTS = frozenset("10=WDL")  # a game was played (or begun): an opponent and a colour
BYE_RESULTS = frozenset("HFUZ")  # no opponent, colour "-"; the forfeits + and - have an opponent, any colour
RESULT_CODES = "10=+-WDLHFUZ"
COLOURS = ("w", "b", "-")
TITLES = frozenset({"GM", "IM", "FM", "CM", "WGM", "WIM", "WFM", "WCM"})
SEXES = ("", "m", "w")
FEDERATION = re.compile(r"[A-Z]{3}")

NAME_WIDTH = 33
FIRST_ROUND_COLUMN = 92
ROUND_WIDTH = 10
MAX_RANK = 9999
MAX_RATING = 9999
MAX_FIDE_ID = 10**11 - 1
MAX_POINTS = 99.5  # the points field has four columns: "99.5"


@dataclass(frozen=True)
class TrfRound:
    """A player's round: the opponent's starting rank (None for a bye), colour, result code."""

    opponent: int | None
    colour: str  # "w", "b" or "-"
    result: str  # one of RESULT_CODES


@dataclass(frozen=True)
class TrfPlayer:
    """A player record (001): who the player is, their points and rank, and their rounds.

    ``rounds[r - 1]`` is round r; None where the player has no game that round.
    """

    start_rank: int
    name: str
    rating: int | None = None
    federation: str = ""
    fide_id: int | None = None
    sex: str = ""
    title: str = ""
    birth_date: date | None = None
    points: float = 0.0
    rank: int | None = None
    rounds: tuple[TrfRound | None, ...] = ()


@dataclass(frozen=True)
class TrfTournament:
    """The tournament: header records and players."""

    name: str
    city: str = ""
    federation: str = ""
    start: date | None = None
    end: date | None = None
    arbiter: str = ""
    time_control: str = ""
    kind: str = "Knockout"
    round_dates: tuple[date | None, ...] = ()
    players: tuple[TrfPlayer, ...] = ()


# --- columns -------------------------------------------------------------------------------


class Record:
    """A line of fixed columns, filled by the FIDE column numbers (from 1)."""

    def __init__(self, code: str) -> None:
        self.columns: list[str] = []
        self.put(1, code)

    def put(self, column: int, text: str) -> None:
        end = column - 1 + len(text)
        if len(self.columns) < end:
            self.columns.extend(" " * (end - len(self.columns)))
        self.columns[column - 1 : end] = text

    def right(self, first: int, last: int, text: str) -> None:
        """``text`` right-aligned in columns ``first`` to ``last``."""
        self.put(first, text.rjust(last - first + 1))

    def __str__(self) -> str:
        return "".join(self.columns).rstrip()


def round_column(round_number: int) -> int:
    """The first column of round ``round_number``'s block (from 1) in a 001 record."""
    return FIRST_ROUND_COLUMN + ROUND_WIDTH * (round_number - 1)


def trf_date(day: date) -> str:
    return f"{day.year:04d}/{day.month:02d}/{day.day:02d}"


def format_points(points: float) -> str:
    return f"{points:4.1f}"


# --- validation ----------------------------------------------------------------------------


def check_one_line(what: Text, value: str) -> None:
    if "\n" in value or "\r" in value:
        raise RuleError(gettext_noop("The %(what)s must be one line: %(value)r."), what=what, value=value)


def check_player(player: TrfPlayer) -> None:
    rank = player.start_rank
    check_one_line(Text(gettext_noop("player's name")), player.name)
    if not player.name.strip():
        raise RuleError(gettext_noop("Player %(rank)d has no name."), rank=rank)
    if player.rating is not None and not 1 <= player.rating <= MAX_RATING:
        raise RuleError(
            gettext_noop("Player %(rank)d: a FIDE rating is from 1 to %(max)d, not %(rating)d (None if unrated)."),
            rank=rank,
            max=MAX_RATING,
            rating=player.rating,
        )
    if player.federation and FEDERATION.fullmatch(player.federation) is None:
        raise RuleError(
            gettext_noop("Player %(rank)d: the federation is a FIDE code of three letters, not %(federation)r."),
            rank=rank,
            federation=player.federation,
        )
    if player.fide_id is not None and not 1 <= player.fide_id <= MAX_FIDE_ID:
        raise RuleError(
            gettext_noop("Player %(rank)d: the FIDE id %(fide_id)d does not fit the record (1 to 11 digits)."),
            rank=rank,
            fide_id=player.fide_id,
        )
    if player.sex not in SEXES:
        raise RuleError(
            gettext_noop("Player %(rank)d: the sex is m, w or blank in a TRF, not %(sex)r."), rank=rank, sex=player.sex
        )
    if player.title and player.title not in TITLES:
        raise RuleError(
            gettext_noop("Player %(rank)d: %(title)r is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)."),
            rank=rank,
            title=player.title,
        )
    doubled = player.points * 2
    if not 0 <= player.points <= MAX_POINTS or doubled != int(doubled):
        raise RuleError(
            gettext_noop("Player %(rank)d: points are whole or half points from 0 to %(max)s, not %(points)s."),
            rank=rank,
            max=MAX_POINTS,
            points=player.points,
        )
    if player.rank is not None and not 1 <= player.rank <= MAX_RANK:
        raise RuleError(
            gettext_noop("Player %(rank)d: the final rank must be from 1 to %(max)d, not %(final)d."),
            rank=rank,
            max=MAX_RANK,
            final=player.rank,
        )


def check_round(player: TrfPlayer, number: int, game: TrfRound, ranks: set[int]) -> None:
    rank = player.start_rank
    opponent = game.opponent or None
    if game.result not in RESULT_CODES or len(game.result) != 1:
        raise RuleError(
            gettext_noop(
                "Player %(rank)d, round %(round)d: %(code)r is not a TRF result code (1 0 = + - W D L H F U Z)."
            ),
            rank=rank,
            round=number,
            code=game.result,
        )
    if game.colour not in COLOURS:
        raise RuleError(
            gettext_noop("Player %(rank)d, round %(round)d: the colour is w, b or -, not %(colour)r."),
            rank=rank,
            round=number,
            colour=game.colour,
        )
    if game.result in BYE_RESULTS:
        if opponent is not None or game.colour != "-":
            raise RuleError(
                gettext_noop("Player %(rank)d, round %(round)d: a bye (%(code)s) has no opponent and colour -."),
                rank=rank,
                round=number,
                code=game.result,
            )
        return
    if opponent is None:
        raise RuleError(
            gettext_noop(
                "Player %(rank)d, round %(round)d: the result %(code)s needs an opponent; "
                "a round without one is a bye (H, F, U or Z)."
            ),
            rank=rank,
            round=number,
            code=game.result,
        )
    if opponent not in ranks:
        raise RuleError(
            gettext_noop("Player %(rank)d, round %(round)d: there is no player with starting rank %(opponent)s."),
            rank=rank,
            round=number,
            opponent=opponent,
        )
    if opponent == rank:
        raise RuleError(
            gettext_noop("Player %(rank)d, round %(round)d: a player cannot be their own opponent."),
            rank=rank,
            round=number,
        )
    if game.result in GAME_RESULTS and game.colour == "-":
        raise RuleError(
            gettext_noop("Player %(rank)d, round %(round)d: a game (%(code)s) is played with w or b, not -."),
            rank=rank,
            round=number,
            code=game.result,
        )


def check_tournament(tournament: TrfTournament) -> None:
    for what, value in (
        (Text(gettext_noop("tournament name")), tournament.name),
        (Text(gettext_noop("city")), tournament.city),
        (Text(gettext_noop("federation")), tournament.federation),
        (Text(gettext_noop("chief arbiter")), tournament.arbiter),
        (Text(gettext_noop("time control")), tournament.time_control),
        (Text(gettext_noop("type of tournament")), tournament.kind),
    ):
        check_one_line(what, value)
    players = tournament.players
    count = len(players)
    if count > MAX_RANK:
        raise RuleError(gettext_noop("A TRF holds at most %(max)d players, not %(count)d."), max=MAX_RANK, count=count)
    by_rank: dict[int, TrfPlayer] = {}
    for player in players:
        rank = player.start_rank
        if isinstance(rank, bool) or not isinstance(rank, int) or not 1 <= rank <= count:
            raise RuleError(
                gettext_noop("Starting rank %(rank)r is not from 1 to %(count)d, the number of players (%(name)s)."),
                rank=rank,
                count=count,
                name=player.name,
            )
        if rank in by_rank:
            raise RuleError(
                gettext_noop("Starting rank %(rank)d is given to both %(first)s and %(second)s."),
                rank=rank,
                first=by_rank[rank].name,
                second=player.name,
            )
        by_rank[rank] = player
    ordered = [by_rank[rank] for rank in sorted(by_rank)]
    for player in ordered:
        check_player(player)
    for player in ordered:
        for number, game in enumerate(player.rounds, start=1):
            if game is not None:
                check_round(player, number, game, set(by_rank))
    for player in ordered:
        for number, game in enumerate(player.rounds, start=1):
            if game is None or not game.opponent:
                continue
            rounds = by_rank[game.opponent].rounds
            back = rounds[number - 1] if number <= len(rounds) else None
            if back is None or back.opponent != player.start_rank:
                raise RuleError(
                    gettext_noop(
                        "Player %(rank)d, round %(round)d: the opponent %(opponent)d does not have "
                        "player %(rank)d as their opponent in round %(round)d."
                    ),
                    rank=player.start_rank,
                    round=number,
                    opponent=game.opponent,
                )


# --- writing -------------------------------------------------------------------------------


def player_line(player: TrfPlayer) -> str:
    """The 001 record of a player (not validated: ``write_trf`` validates)."""
    record = Record("001")
    record.right(5, 8, str(player.start_rank))
    record.put(10, player.sex or " ")
    record.right(11, 13, player.title)
    record.put(15, player.name[:NAME_WIDTH].ljust(NAME_WIDTH))
    record.right(49, 52, str(player.rating) if player.rating is not None else "")
    record.put(54, player.federation.ljust(3))
    record.right(58, 68, str(player.fide_id) if player.fide_id is not None else "")
    record.put(70, trf_date(player.birth_date) if player.birth_date is not None else " " * 10)
    record.right(81, 84, format_points(player.points))
    record.right(86, 89, str(player.rank) if player.rank is not None else "")
    for number, game in enumerate(player.rounds, start=1):
        if game is None:
            continue
        column = round_column(number)
        record.put(column, f"{game.opponent or 0:04d}")
        record.put(column + 5, game.colour)
        record.put(column + 7, game.result)
    return str(record)


def round_dates_line(round_dates: tuple[date | None, ...]) -> str:
    record = Record("132")
    for number, day in enumerate(round_dates, start=1):
        if day is not None:
            record.put(round_column(number), f"{day.year % 100:02d}/{day.month:02d}/{day.day:02d}")
    return str(record)


def write_trf(tournament: TrfTournament) -> str:
    """The tournament as a TRF16 file: header records, then the 001 records by starting rank.

    Raises RuleError if the tournament cannot be written as it is: starting ranks not
    1 to n each once, an opponent who is not a player (or whose round does not name the
    player back), an unknown result code or colour, a bye with an opponent or a colour,
    points that are not whole or half, a field too wide for its columns.
    """
    check_tournament(tournament)
    players = sorted(tournament.players, key=lambda player: player.start_rank)
    headers: list[tuple[str, str]] = [
        ("012", tournament.name),
        ("022", tournament.city),
        ("032", tournament.federation),
        ("042", trf_date(tournament.start) if tournament.start else ""),
        ("052", trf_date(tournament.end) if tournament.end else ""),
        ("062", str(len(players))),
        ("072", str(sum(1 for player in players if player.rating is not None))),
        ("092", tournament.kind),
        ("102", tournament.arbiter),
        ("122", tournament.time_control),
    ]
    lines = [f"{code} {value}".rstrip() for code, value in headers if value or code in ("012", "062", "072")]
    if any(day is not None for day in tournament.round_dates):
        lines.append(round_dates_line(tournament.round_dates))
    lines.extend(player_line(player) for player in players)
    return "\n".join(lines) + "\n"


# --- reading -------------------------------------------------------------------------------

DATE = re.compile(r"([0-9]{4})/([0-9]{2})/([0-9]{2})")
POINTS = re.compile(r"[0-9]+(?:\.[0-9])?")


def columns(line: str, first: int, last: int) -> str:
    """Columns ``first`` to ``last`` (from 1) of a line, without surrounding blanks."""
    return line[first - 1 : last].strip()


def number_field(line: str, first: int, last: int, what: Text) -> int | None:
    text = columns(line, first, last)
    if not text:
        return None
    if not (text.isascii() and text.isdigit()):
        raise RuleError(
            gettext_noop("Columns %(first)d–%(last)d (%(what)s) must hold a number, not %(text)r."),
            first=first,
            last=last,
            what=what,
            text=text,
        )
    return int(text)


def read_birth_date(text: str) -> date | None:
    if not text:
        return None
    match = DATE.fullmatch(text)
    try:
        if match is not None:
            return date(*map(int, match.groups()))
    except ValueError:
        pass  # no such day
    raise RuleError(gettext_noop("Columns 70–79 (birth date) must be a date YYYY/MM/DD, not %(text)r."), text=text)


def read_round(line: str, number: int) -> TrfRound | None:
    """Round ``number``'s block of a 001 record; None if it is blank."""
    column = round_column(number)
    block = line[column - 1 : column - 1 + ROUND_WIDTH].ljust(ROUND_WIDTH)
    if not block.strip():
        return None
    opponent = number_field(line, column, column + 3, Text(gettext_noop("round %(round)d opponent"), round=number))
    colour = block[5] if block[5] != " " else "-"
    result = block[7] if block[7] != " " else "Z"  # a blank result means a zero-point bye
    if colour not in COLOURS or result not in RESULT_CODES:
        raise RuleError(
            gettext_noop("Round %(round)d (from column %(column)d): %(block)r is not a TRF round."),
            round=number,
            column=column,
            block=block.rstrip(),
        )
    return TrfRound(opponent=opponent or None, colour=colour, result=result)


def read_player_line(line: str, rounds: int | None = None) -> TrfPlayer:
    """The player of a 001 record, the inverse of the writer's record.

    Trailing rounds without a game are not in the line; ``rounds`` pads the player's
    rounds with None up to that many.
    """
    line = line.rstrip("\r\n")
    if not line.startswith("001") or len(line) < 84:
        raise RuleError(gettext_noop("%(line)r is not a TRF player record (001)."), line=line[:20])
    start_rank = number_field(line, 5, 8, Text(gettext_noop("starting rank")))
    if start_rank is None:
        raise RuleError(gettext_noop("Columns 5–8 (starting rank) are blank."))
    birth_date = read_birth_date(columns(line, 70, 79))
    points_text = columns(line, 81, 84)
    if POINTS.fullmatch(points_text) is None:
        raise RuleError(gettext_noop("Columns 81–84 (points) must be a number, not %(text)r."), text=points_text)
    points = float(points_text)
    count = max(0, -(-(len(line) - FIRST_ROUND_COLUMN + 1) // ROUND_WIDTH))  # blocks begun on the line
    games = [read_round(line, number) for number in range(1, count + 1)]
    if rounds is not None:
        games.extend([None] * (rounds - len(games)))
    return TrfPlayer(
        start_rank=start_rank,
        name=columns(line, 15, 47),
        rating=number_field(line, 49, 52, Text(gettext_noop("FIDE rating"))),
        federation=columns(line, 54, 56),
        fide_id=number_field(line, 58, 68, Text(gettext_noop("FIDE id"))),
        sex=columns(line, 10, 10),
        title=columns(line, 11, 13),
        birth_date=birth_date,
        points=points,
        rank=number_field(line, 86, 89, Text(gettext_noop("rank"))),
        rounds=tuple(games),
    )


def read_player_lines(text: str, rounds: int | None = None) -> list[TrfPlayer]:
    """The players of every 001 record of a TRF text."""
    return [read_player_line(line, rounds) for line in text.splitlines() if line.startswith("001")]
