"""The FIDE TRF16 export (games/chess/trf.py), checked column by column.

The FIDE specification numbers columns from 1; a Python slice of columns a–b is
``line[a - 1 : b]``, so every slice below carries its 1-based columns in a comment.
"""

from __future__ import annotations

import dataclasses
from datetime import date

import pytest

from games.chess.trf import (
    RuleError,
    TrfPlayer,
    TrfRound,
    TrfTournament,
    read_player_line,
    read_player_lines,
    write_trf,
)


def played(opponent: int, colour: str, result: str) -> TrfRound:
    return TrfRound(opponent=opponent, colour=colour, result=result)


LONG_NAME = "Hohenzollern-Sigmaringen, Karl Anton Maximilian"  # 47 characters

# An eight-player knockout over three rounds: in round 1 a win, a draw, a forfeit and a
# win; in round 2 a pairing-allocated bye (U) for player 3; in round 3 a game that
# lasted less than one move (W/L). Players 4, 6 and 8 are out after round 1, 7 after round 2.
PLAYERS = (
    TrfPlayer(
        start_rank=1,
        name="Carlsen, Magnus",
        rating=2830,
        federation="NOR",
        fide_id=1503014,
        sex="m",
        title="GM",
        birth_date=date(1990, 11, 30),
        points=2.5,
        rank=1,
        rounds=(played(8, "w", "1"), played(5, "w", "="), played(3, "b", "1")),
    ),
    TrfPlayer(
        start_rank=2,
        name="Hou, Yifan",
        rating=2630,
        federation="CHN",
        fide_id=8602980,
        sex="w",
        title="GM",
        birth_date=date(1994, 2, 27),
        points=2.5,
        rank=2,
        rounds=(played(7, "w", "="), played(7, "b", "1"), played(5, "w", "W")),
    ),
    TrfPlayer(
        start_rank=3,
        name="Novák, Jan",
        rating=2105,
        federation="CZE",
        fide_id=23456789,
        sex="m",
        points=2.0,
        rank=3,
        rounds=(played(6, "w", "+"), TrfRound(opponent=None, colour="-", result="U"), played(1, "w", "0")),
    ),
    TrfPlayer(
        start_rank=4,
        name="Dvořáková, Eva",
        federation="CZE",
        sex="w",
        points=0.0,
        rank=6,
        rounds=(played(5, "b", "0"), None, None),
    ),
    TrfPlayer(
        start_rank=5,
        name="Svoboda, Petr",
        rating=1980,
        federation="CZE",
        fide_id=23400001,
        sex="m",
        title="CM",
        birth_date=date(2001, 1, 1),
        points=1.5,
        rank=4,
        rounds=(played(4, "w", "1"), played(1, "b", "="), played(2, "b", "L")),
    ),
    TrfPlayer(
        start_rank=6,
        name=LONG_NAME,
        rating=1850,
        federation="SVK",
        fide_id=14900000,
        sex="m",
        points=0.0,
        rank=7,
        rounds=(played(3, "b", "-"), None, None),
    ),
    TrfPlayer(
        start_rank=7,
        name="Kovář, Tomáš",
        rating=1720,
        federation="CZE",
        fide_id=23411111,
        points=0.5,
        rank=5,
        rounds=(played(2, "b", "="), played(2, "w", "0"), None),
    ),
    TrfPlayer(
        start_rank=8,
        name="Černá, Alena",
        rating=1500,
        federation="CZE",
        fide_id=23422222,
        sex="w",
        title="WCM",
        birth_date=date(2012, 6, 9),
        points=0.0,
        rank=8,
        rounds=(played(1, "b", "0"), None, None),
    ),
)

TOURNAMENT = TrfTournament(
    name="Brno Knockout 2026",
    city="Brno",
    federation="CZE",
    start=date(2026, 11, 23),
    end=date(2026, 11, 25),
    arbiter="Dvořák, Petr",
    time_control="90 min/40 moves + 30 min + 30 s/move",
    round_dates=(date(2026, 11, 23), date(2026, 11, 24), date(2026, 11, 25)),
    players=tuple(reversed(PLAYERS)),  # the writer sorts them by starting rank
)


def lines_of(tournament: TrfTournament) -> list[str]:
    text = write_trf(tournament)
    assert text.endswith("\n")
    return text[:-1].split("\n")


def player_lines(tournament: TrfTournament = TOURNAMENT) -> dict[int, str]:
    return {int(line[4:8]): line for line in lines_of(tournament) if line.startswith("001")}


# --- edge cases first --------------------------------------------------------------------


def test_a_tournament_without_players_still_has_its_name_and_counts():
    assert write_trf(TrfTournament(name="Cup")) == "012 Cup\n062 0\n072 0\n092 Knockout\n"


def test_only_the_header_records_with_a_value_are_written():
    tournament = TrfTournament(name="Cup", kind="", city="Praha", round_dates=(None, None))
    assert write_trf(tournament) == "012 Cup\n022 Praha\n062 0\n072 0\n"


def test_no_line_has_trailing_spaces_or_a_carriage_return():
    text = write_trf(TOURNAMENT)
    assert "\r" not in text
    assert all(line == line.rstrip() for line in text.split("\n"))


# --- header records ----------------------------------------------------------------------


def test_the_header_records():
    assert lines_of(TOURNAMENT)[:10] == [
        "012 Brno Knockout 2026",
        "022 Brno",
        "032 CZE",
        "042 2026/11/23",
        "052 2026/11/25",
        "062 8",
        "072 7",  # Dvořáková is unrated
        "092 Knockout",
        "102 Dvořák, Petr",
        "122 90 min/40 moves + 30 min + 30 s/move",
    ]


def test_the_round_dates_stand_at_the_columns_of_their_rounds():
    line = lines_of(TOURNAMENT)[10]
    assert line[0:3] == "132"  # columns 1–3
    assert line[3:91] == " " * 88  # columns 4–91
    assert line[91:99] == "26/11/23"  # columns 92–99: round 1
    assert line[99:101] == "  "  # columns 100–101
    assert line[101:109] == "26/11/24"  # columns 102–109: round 2
    assert line[111:119] == "26/11/25"  # columns 112–119: round 3
    assert len(line) == 119


def test_a_round_without_a_date_is_left_blank():
    tournament = dataclasses.replace(TOURNAMENT, round_dates=(date(2026, 11, 23), None, date(2027, 1, 2)))
    line = lines_of(tournament)[10]
    assert line[101:109] == " " * 8  # columns 102–109
    assert line[111:119] == "27/01/02"  # columns 112–119


def test_the_player_records_follow_in_starting_rank_order():
    lines = lines_of(TOURNAMENT)
    assert len(lines) == 11 + 8
    assert [line[0:8] for line in lines[11:]] == [f"001 {rank:4d}" for rank in range(1, 9)]


# --- player records, column by column ----------------------------------------------------

COLUMNS = [
    # player 1: a GM with every field and three games
    (1, 0, 3, "001"),  # columns 1–3
    (1, 3, 4, " "),  # column 4
    (1, 4, 8, "   1"),  # columns 5–8: starting rank
    (1, 8, 9, " "),  # column 9
    (1, 9, 10, "m"),  # column 10: sex
    (1, 10, 13, " GM"),  # columns 11–13: title
    (1, 13, 14, " "),  # column 14
    (1, 14, 47, "Carlsen, Magnus" + " " * 18),  # columns 15–47: name
    (1, 47, 48, " "),  # column 48
    (1, 48, 52, "2830"),  # columns 49–52: rating
    (1, 52, 53, " "),  # column 53
    (1, 53, 56, "NOR"),  # columns 54–56: federation
    (1, 56, 57, " "),  # column 57
    (1, 57, 68, "    1503014"),  # columns 58–68: FIDE id
    (1, 68, 69, " "),  # column 69
    (1, 69, 79, "1990/11/30"),  # columns 70–79: birth date
    (1, 79, 80, " "),  # column 80
    (1, 80, 84, " 2.5"),  # columns 81–84: points
    (1, 84, 85, " "),  # column 85
    (1, 85, 89, "   1"),  # columns 86–89: rank
    (1, 89, 91, "  "),  # columns 90–91
    (1, 91, 95, "0008"),  # columns 92–95: round 1 opponent
    (1, 95, 96, " "),  # column 96
    (1, 96, 97, "w"),  # column 97: round 1 colour
    (1, 97, 98, " "),  # column 98
    (1, 98, 99, "1"),  # column 99: round 1 result
    (1, 99, 101, "  "),  # columns 100–101
    (1, 101, 109, "0005 w ="),  # columns 102–109: round 2, a draw
    (1, 109, 111, "  "),  # columns 110–111
    (1, 111, 119, "0003 b 1"),  # columns 112–119: round 3
    (1, 119, 130, ""),  # nothing after column 119
    # player 2: a woman GM; round 3 a game of less than one move, won
    (2, 9, 10, "w"),  # column 10
    (2, 10, 13, " GM"),  # columns 11–13
    (2, 57, 68, "    8602980"),  # columns 58–68
    (2, 80, 84, " 2.5"),  # columns 81–84
    (2, 91, 99, "0007 w ="),  # columns 92–99
    (2, 101, 109, "0007 b 1"),  # columns 102–109
    (2, 111, 119, "0005 w W"),  # columns 112–119
    # player 3: no title, no birth date; a forfeit win, then a pairing-allocated bye
    (3, 9, 13, "m   "),  # columns 10–13
    (3, 14, 47, "Novák, Jan" + " " * 23),  # columns 15–47
    (3, 57, 68, "   23456789"),  # columns 58–68
    (3, 69, 79, " " * 10),  # columns 70–79
    (3, 80, 84, " 2.0"),  # columns 81–84
    (3, 91, 95, "0006"),  # columns 92–95
    (3, 96, 97, "w"),  # column 97
    (3, 98, 99, "+"),  # column 99: forfeit win
    (3, 101, 105, "0000"),  # columns 102–105: no opponent
    (3, 106, 107, "-"),  # column 107: no colour
    (3, 108, 109, "U"),  # column 109: pairing-allocated bye
    (3, 111, 119, "0001 w 0"),  # columns 112–119
    # player 4: unrated, no FIDE id, knocked out in round 1
    (4, 9, 13, "w   "),  # columns 10–13
    (4, 48, 52, "    "),  # columns 49–52: no rating
    (4, 53, 56, "CZE"),  # columns 54–56
    (4, 57, 68, " " * 11),  # columns 58–68: no FIDE id
    (4, 69, 79, " " * 10),  # columns 70–79
    (4, 80, 84, " 0.0"),  # columns 81–84
    (4, 85, 89, "   6"),  # columns 86–89
    (4, 91, 99, "0005 b 0"),  # columns 92–99
    (4, 99, 200, ""),  # rounds 2 and 3 blank: the line ends at column 99
    # player 5: a CM; round 3 lost in less than one move
    (5, 10, 13, " CM"),  # columns 11–13
    (5, 69, 79, "2001/01/01"),  # columns 70–79
    (5, 80, 84, " 1.5"),  # columns 81–84
    (5, 111, 119, "0002 b L"),  # columns 112–119
    # player 6: the name cut at 33 characters; a forfeit loss
    (6, 14, 47, LONG_NAME[:33]),  # columns 15–47
    (6, 47, 52, " 1850"),  # columns 48–52
    (6, 91, 99, "0003 b -"),  # columns 92–99
    # player 7: no sex; out after round 2
    (7, 8, 14, "      "),  # columns 9–14
    (7, 80, 84, " 0.5"),  # columns 81–84
    (7, 85, 89, "   5"),  # columns 86–89
    (7, 101, 109, "0002 w 0"),  # columns 102–109
    (7, 109, 200, ""),  # round 3 blank
    # player 8: a three-letter title fills columns 11–13
    (8, 9, 13, "wWCM"),  # columns 10–13
    (8, 69, 79, "2012/06/09"),  # columns 70–79
    (8, 91, 99, "0001 b 0"),  # columns 92–99
    (8, 99, 200, ""),
]


@pytest.mark.parametrize(("rank", "start", "stop", "expected"), COLUMNS)
def test_the_player_record_columns(rank, start, stop, expected):
    assert player_lines()[rank][start:stop] == expected


def test_a_whole_player_record():
    assert player_lines()[1] == (
        "001    1 m GM Carlsen, Magnus                   2830 NOR     1503014 1990/11/30  2.5    1"
        "  0008 w 1  0005 w =  0003 b 1"
    )


@pytest.mark.parametrize(("rank", "length"), [(1, 119), (2, 119), (3, 119), (4, 99), (6, 99), (7, 109), (8, 99)])
def test_a_line_ends_with_the_last_round_the_player_played(rank, length):
    assert len(player_lines()[rank]) == length


def test_a_round_without_a_game_between_two_rounds_is_a_blank_block():
    tournament = TrfTournament(
        name="Cup",
        players=(
            TrfPlayer(1, "A", rounds=(played(2, "w", "1"), played(3, "b", "="))),
            TrfPlayer(2, "B", rounds=(played(1, "b", "0"),)),
            TrfPlayer(3, "C", rounds=(None, played(1, "w", "="), TrfRound(0, "-", "F"))),
        ),
    )
    line = player_lines(tournament)[3]
    assert line[89:101] == " " * 12  # columns 90–101: round 1 blank
    assert line[101:109] == "0001 w ="  # columns 102–109
    assert line[111:119] == "0000 - F"  # columns 112–119: a full-point bye, opponent 0 written 0000
    assert read_player_line(line).rounds == (None, played(1, "w", "="), TrfRound(None, "-", "F"))


@pytest.mark.parametrize(
    ("points", "columns"), [(0, " 0.0"), (0.5, " 0.5"), (3.5, " 3.5"), (4, " 4.0"), (10, "10.0"), (99.5, "99.5")]
)
def test_points_have_one_decimal_right_aligned(points, columns):
    tournament = TrfTournament(name="Cup", players=(TrfPlayer(1, "A", points=points),))
    line = player_lines(tournament)[1]
    assert line[80:84] == columns  # columns 81–84
    assert len(line) == 84


@pytest.mark.parametrize("code", ["H", "F", "U", "Z"])
def test_every_bye(code):
    tournament = TrfTournament(name="Cup", players=(TrfPlayer(1, "A", rounds=(TrfRound(None, "-", code),)),))
    assert player_lines(tournament)[1][91:99] == f"0000 - {code}"  # columns 92–99


@pytest.mark.parametrize(("mine", "theirs"), [("1", "0"), ("=", "="), ("W", "L"), ("D", "D"), ("+", "-"), ("-", "-")])
def test_every_game_result(mine, theirs):
    tournament = TrfTournament(
        name="Cup",
        players=(
            TrfPlayer(1, "A", rounds=(played(2, "b", mine),)),
            TrfPlayer(2, "B", rounds=(played(1, "w", theirs),)),
        ),
    )
    lines = player_lines(tournament)
    assert lines[1][91:99] == f"0002 b {mine}"  # columns 92–99
    assert lines[2][91:99] == f"0001 w {theirs}"


def test_a_forfeit_may_have_no_colour():
    tournament = TrfTournament(
        name="Cup",
        players=(
            TrfPlayer(1, "A", rounds=(played(2, "-", "+"),)),
            TrfPlayer(2, "B", rounds=(played(1, "-", "-"),)),
        ),
    )
    assert player_lines(tournament)[2][91:99] == "0001 - -"  # columns 92–99


# --- reading a player record back --------------------------------------------------------


@pytest.mark.parametrize("player", PLAYERS, ids=lambda player: str(player.start_rank))
def test_a_player_record_reads_back_as_the_player(player):
    line = player_lines()[player.start_rank]
    assert read_player_line(line, rounds=3) == dataclasses.replace(player, name=player.name[:33])


def test_without_a_round_count_the_blank_rounds_at_the_end_are_left_out():
    assert read_player_line(player_lines()[8]).rounds == (played(1, "b", "0"),)
    assert read_player_line(player_lines()[7]).rounds == (played(2, "b", "="), played(2, "w", "0"))


def test_every_player_record_of_a_file():
    assert read_player_lines(write_trf(TOURNAMENT), rounds=3) == [
        dataclasses.replace(player, name=player.name[:33]) for player in PLAYERS
    ]


def test_a_blank_colour_or_result_reads_as_none_and_a_zero_point_bye():
    line = "001    1      A" + " " * 65 + " 0.0" + " " * 7 + "0000"
    assert read_player_line(line).rounds == (TrfRound(None, "-", "Z"),)


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("", "'' is not a TRF player record (001)."),
        ("012 Brno Knockout 2026", "'012 Brno Knockout 20' is not a TRF player record (001)."),
        ("001    1      A", "is not a TRF player record (001)."),  # shorter than the points
        ("001      " + " " * 71 + " 0.0", "Columns 5–8 (starting rank) are blank."),
        ("001   x1" + " " * 72 + " 0.0", "Columns 5–8 (starting rank) must hold a number, not 'x1'."),
        ("001    1" + " " * 40 + "24o0" + " " * 28 + " 0.0", "Columns 49–52 (FIDE rating) must hold a number"),
        (
            "001    1" + " " * 61 + "1990-11-30 " + " 0.0",
            "Columns 70–79 (birth date) must be a date YYYY/MM/DD, not '1990-11-30'.",
        ),
        ("001    1" + " " * 61 + "1990/02/30 " + " 0.0", "Columns 70–79 (birth date) must be a date YYYY/MM/DD"),
        ("001    1" + " " * 72 + " 0,5", "Columns 81–84 (points) must be a number, not '0,5'."),
        ("001    1" + " " * 72 + " nan", "Columns 81–84 (points) must be a number, not 'nan'."),
        ("001    1" + " " * 72 + "    ", "Columns 81–84 (points) must be a number, not ''."),
        ("001    ²" + " " * 72 + " 0.0", "Columns 5–8 (starting rank) must hold a number, not '²'."),
        (
            "001    1" + " " * 72 + " 0.0" + " " * 7 + "0002 x 1",
            "Round 1 (from column 92): '0002 x 1' is not a TRF round.",
        ),
        ("001    1" + " " * 72 + " 0.0" + " " * 7 + "0002 w X", "'0002 w X' is not a TRF round."),
        (
            "001    1" + " " * 72 + " 0.0" + " " * 7 + "00O2 w 1",
            "Columns 92–95 (round 1 opponent) must hold a number, not '00O2'.",
        ),
    ],
)
def test_a_line_that_is_not_a_player_record_is_refused(line, message):
    with pytest.raises(RuleError) as error:
        read_player_line(line)
    assert message in str(error.value)


# --- what the writer refuses ---------------------------------------------------------------


def with_player(start_rank: int, /, **changes) -> TrfTournament:
    players = tuple(
        dataclasses.replace(player, **changes) if player.start_rank == start_rank else player for player in PLAYERS
    )
    return dataclasses.replace(TOURNAMENT, players=players)


def with_round(rank: int, number: int, game: TrfRound | None) -> TrfTournament:
    rounds = list(PLAYERS[rank - 1].rounds)
    rounds[number - 1] = game
    return with_player(rank, rounds=tuple(rounds))


REFUSALS = [
    # starting ranks
    (with_player(8, start_rank=1), "Starting rank 1 is given to both Carlsen, Magnus and Černá, Alena."),
    (with_player(8, start_rank=9), "Starting rank 9 is not from 1 to 8, the number of players (Černá, Alena)."),
    (with_player(1, start_rank=0), "Starting rank 0 is not from 1 to 8"),
    (with_player(1, start_rank="1"), "Starting rank '1' is not from 1 to 8"),
    # opponents
    (with_round(1, 1, played(12, "w", "1")), "Player 1, round 1: there is no player with starting rank 12."),
    (with_round(1, 1, played(1, "w", "1")), "Player 1, round 1: a player cannot be their own opponent."),
    (
        with_round(8, 1, played(2, "b", "0")),
        "Player 1, round 1: the opponent 8 does not have player 1 as their opponent in round 1.",
    ),
    (with_round(8, 1, None), "Player 1, round 1: the opponent 8 does not have player 1 as their opponent in round 1."),
    # result codes and colours
    (
        with_round(1, 1, played(8, "w", "X")),
        "Player 1, round 1: 'X' is not a TRF result code (1 0 = + - W D L H F U Z).",
    ),
    (with_round(1, 2, played(5, "w", "")), "Player 1, round 2: '' is not a TRF result code"),
    (with_round(1, 1, played(8, "w", "10")), "Player 1, round 1: '10' is not a TRF result code"),
    (with_round(1, 1, played(8, "w", "h")), "Player 1, round 1: 'h' is not a TRF result code"),
    (with_round(1, 1, played(8, "W", "1")), "Player 1, round 1: the colour is w, b or -, not 'W'."),
    (with_round(1, 1, played(8, "", "1")), "Player 1, round 1: the colour is w, b or -, not ''."),
    (with_round(1, 1, played(8, "-", "1")), "Player 1, round 1: a game (1) is played with w or b, not -."),
    (with_round(1, 2, played(5, "-", "=")), "Player 1, round 2: a game (=) is played with w or b, not -."),
    # byes
    (with_round(3, 2, TrfRound(5, "-", "U")), "Player 3, round 2: a bye (U) has no opponent and colour -."),
    (with_round(3, 2, TrfRound(None, "w", "U")), "Player 3, round 2: a bye (U) has no opponent and colour -."),
    (with_round(3, 2, TrfRound(None, "-", "1")), "Player 3, round 2: the result 1 needs an opponent"),
    (with_round(3, 2, TrfRound(0, "-", "+")), "Player 3, round 2: the result + needs an opponent; a round without one"),
    # points
    (with_player(1, points=2.25), "Player 1: points are whole or half points from 0 to 99.5, not 2.25."),
    (with_player(1, points=-0.5), "Player 1: points are whole or half points from 0 to 99.5, not -0.5."),
    (with_player(1, points=100), "Player 1: points are whole or half points from 0 to 99.5, not 100."),
    (with_player(1, points=float("nan")), "Player 1: points are whole or half points"),
    # fields too wide or unknown
    (with_player(1, rating=0), "Player 1: a FIDE rating is from 1 to 9999, not 0 (None if unrated)."),
    (with_player(1, rating=10000), "Player 1: a FIDE rating is from 1 to 9999, not 10000"),
    (with_player(1, fide_id=10**11), "Player 1: the FIDE id 100000000000 does not fit the record (1 to 11 digits)."),
    (with_player(1, fide_id=0), "Player 1: the FIDE id 0 does not fit the record"),
    (with_player(2, sex="f"), "Player 2: the sex is m, w or blank in a TRF, not 'f'."),
    (with_player(1, title="NM"), "Player 1: 'NM' is not a FIDE title (GM, IM, FM, CM, WGM, WIM, WFM, WCM)."),
    (with_player(1, title="gm"), "Player 1: 'gm' is not a FIDE title"),
    (with_player(1, federation="CZEC"), "Player 1: the federation is a FIDE code of three letters, not 'CZEC'."),
    (with_player(1, federation="cze"), "Player 1: the federation is a FIDE code of three letters, not 'cze'."),
    (with_player(1, rank=0), "Player 1: the final rank must be from 1 to 9999, not 0."),
    (with_player(1, rank=10000), "Player 1: the final rank must be from 1 to 9999, not 10000."),
    (with_player(1, name=" "), "Player 1 has no name."),
    (with_player(1, name="Carlsen,\nMagnus"), "The player's name must be one line: 'Carlsen,\\nMagnus'."),
    (dataclasses.replace(TOURNAMENT, name="Brno\r\nKnockout"), "The tournament name must be one line"),
    (dataclasses.replace(TOURNAMENT, arbiter="A\nB"), "The chief arbiter must be one line"),
]


@pytest.mark.parametrize(("tournament", "message"), REFUSALS)
def test_a_tournament_the_trf_cannot_carry_is_refused(tournament, message):
    with pytest.raises(RuleError) as error:
        write_trf(tournament)
    assert message in str(error.value)


def test_a_refusal_is_translatable():
    with pytest.raises(RuleError) as error:
        write_trf(with_round(1, 1, played(12, "w", "1")))
    assert (
        error.value.text.message
        == "Player %(rank)d, round %(round)d: there is no player with starting rank %(opponent)s."
    )
    assert error.value.text.values == {"rank": 1, "round": 1, "opponent": 12}
