"""PGN export and import (games/chess/pgn.py): the writer's exact export format, the
tolerant reader, every refusal with the line it points at, and the round trip."""

from __future__ import annotations

from datetime import date

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.chess.pgn import (
    SAN,
    SEVEN_TAG_ROSTER,
    TAG_NAME,
    PgnGame,
    RuleError,
    is_san,
    pgn_date,
    read_game,
    read_games,
    write_game,
    write_games,
)

STR_UNKNOWN = '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "?"]\n[White "?"]\n[Black "?"]\n'

# --- dates and SAN shapes --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("day", "text"),
    [
        (None, "????.??.??"),
        (date(1, 1, 1), "0001.01.01"),
        (date(1858, 11, 2), "1858.11.02"),
        (date(2026, 11, 23), "2026.11.23"),
    ],
)
def test_pgn_date(day, text):
    assert pgn_date(day) == text


@pytest.mark.parametrize(
    "move",
    ["e4", "a1=Q", "h8=N", "exd5", "axb8=R+", "Nf3", "Nbd7", "N1c3", "Qh4xe1#", "Kxe2", "Rxd7+", "O-O", "O-O-O#"],
)
def test_a_san_shaped_move_is_a_move(move):
    assert is_san(move)


@pytest.mark.parametrize(
    "move",
    ["", "e9", "i4", "E4", "Pe4", "e4=Q", "e8=K", "Nf", "Nf3x", "O-O-O-O", "0-0", "exd", "e4+#", "Ke10", "--", "e4!"],
)
def test_a_token_without_the_san_shape_is_not_a_move(move):
    assert not is_san(move)


# --- the game ------------------------------------------------------------------------------


def test_a_game_keeps_its_headers_in_export_form():
    game = PgnGame(headers={"Annotator": "me", "White": "Novák, Jan"}, moves=["e4"], result="*")
    assert list(game.headers) == [*SEVEN_TAG_ROSTER, "Annotator"]
    assert game.headers["White"] == "Novák, Jan"
    assert game.headers["Date"] == "????.??.??"
    assert game.headers["Event"] == game.headers["Black"] == "?"
    assert game.headers["Result"] == "*"
    assert game.moves == ("e4",)


def test_a_fen_brings_its_setup_tag_just_before_it():
    game = PgnGame(headers={"FEN": "8/8/8/8/8/8/8/K6k w - - 0 1", "SetUp": "0", "Annotator": "x"}, result="*")
    assert list(game.headers)[7:] == ["SetUp", "FEN", "Annotator"]
    assert game.headers["SetUp"] == "1"


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"result": "1-1"}, "'1-1' is not a PGN result: use 1-0, 0-1, 1/2-1/2 or *."),
        ({"result": ""}, "'' is not a PGN result"),
        ({"moves": ("e4", "e5", "Nf9")}, "Move 3, 'Nf9', is not a move in SAN"),
        ({"moves": ("e4!",)}, "Move 1, 'e4!', is not a move in SAN"),
        ({"headers": {"Result": "1-0"}, "result": "0-1"}, "The Result tag says 1-0 but the game's result is 0-1."),
        ({"headers": {"White Player": "x"}}, "'White Player' cannot be a PGN tag name"),
        ({"headers": {"": "x"}}, "'' cannot be a PGN tag name"),
        ({"headers": {"Event": "a\nb"}}, "The value of the tag Event must be one line without control characters"),
        ({"headers": {"Event": "a\tb"}}, "The value of the tag Event must be one line"),
        ({"headers": {"WhiteElo": 2400}}, "The value of the tag WhiteElo must be text, not 2400."),
    ],
)
def test_a_game_that_pgn_cannot_carry_is_refused(kwargs, message):
    with pytest.raises(RuleError) as error:
        PgnGame(**{"result": "*", **kwargs})
    assert message in str(error.value)


# --- writing -------------------------------------------------------------------------------

OPERA_GAME = PgnGame(
    headers={
        "Event": 'Paris "Opera" game',
        "Site": "Paris FRA",
        "Date": "1858.??.??",
        "Round": "?",
        "White": "Morphy, Paul",
        "Black": "Duke Karl / Count Isouard",
        "Result": "1-0",
        "Annotator": "C:\\games\\",
        "Termination": "normal",
    },
    moves=(
        *("e4", "e5", "Nf3", "d6", "d4", "Bg4", "dxe5", "Bxf3", "Qxf3", "dxe5", "Bc4", "Nf6", "Qb3", "Qe7"),
        *("Nc3", "c6", "Bg5", "b5", "Nxb5", "cxb5", "Bxb5+", "Nbd7", "O-O-O", "Rd8", "Rxd7", "Rxd7"),
        *("Rd1", "Qe6", "Bxd7+", "Nxd7", "Qb8+", "Nxb8", "Rd8#"),
    ),
    result="1-0",
)

OPERA_PGN = """\
[Event "Paris \\"Opera\\" game"]
[Site "Paris FRA"]
[Date "1858.??.??"]
[Round "?"]
[White "Morphy, Paul"]
[Black "Duke Karl / Count Isouard"]
[Result "1-0"]
[Annotator "C:\\\\games\\\\"]
[Termination "normal"]

1. e4 e5 2. Nf3 d6 3. d4 Bg4 4. dxe5 Bxf3 5. Qxf3 dxe5 6. Bc4 Nf6 7. Qb3 Qe7 8.
Nc3 c6 9. Bg5 b5 10. Nxb5 cxb5 11. Bxb5+ Nbd7 12. O-O-O Rd8 13. Rxd7 Rxd7 14.
Rd1 Qe6 15. Bxd7+ Nxd7 16. Qb8+ Nxb8 17. Rd8# 1-0

"""


def test_a_game_in_export_format():
    assert write_game(OPERA_GAME) == OPERA_PGN


def test_the_movetext_is_wrapped_at_79_characters():
    lines = write_game(OPERA_GAME).splitlines()
    movetext = lines[lines.index("") + 1 : -1]
    assert [len(line) for line in movetext] == [79, 77, 49]


def test_the_seven_tag_roster_comes_first_whatever_the_order_given():
    game = PgnGame(
        headers={"TimeControl": "5400+30", "Black": "B", "WhiteElo": "2400", "White": "A", "Round": "1.2"},
        result="0-1",
    )
    assert write_game(game) == (
        '[Event "?"]\n[Site "?"]\n[Date "????.??.??"]\n[Round "1.2"]\n[White "A"]\n[Black "B"]\n[Result "0-1"]\n'
        '[TimeControl "5400+30"]\n[WhiteElo "2400"]\n\n0-1\n\n'
    )


@pytest.mark.parametrize("result", ["1-0", "0-1", "1/2-1/2", "*"])
def test_a_game_without_moves_is_its_result_alone(result):
    assert write_game(PgnGame(result=result)) == f'{STR_UNKNOWN}[Result "{result}"]\n\n{result}\n\n'


def test_a_game_from_a_fen_with_black_to_move_starts_with_an_ellipsis():
    fen = "r1bqkb1r/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 12"
    game = PgnGame(headers={"FEN": fen}, moves=("Nf6", "O-O", "Be7", "Re1"), result="*")
    assert write_game(game) == (
        f'{STR_UNKNOWN}[Result "*"]\n[SetUp "1"]\n[FEN "{fen}"]\n\n12... Nf6 13. O-O Be7 14. Re1 *\n\n'
    )


@pytest.mark.parametrize(
    ("fen", "movetext"),
    [
        ("8/8/8/8/8/8/8/K6k w - - 0 40", "40. Kb2 Kg2 41. Kc3 *"),
        ("8/8/8/8/8/8/8/K6k b - - 0 40", "40... Kb2 41. Kg2 Kc3 *"),
        ("8/8/8/8/8/8/8/K6k b - -", "1... Kb2 2. Kg2 Kc3 *"),  # no move number: 1
        ("8/8/8/8/8/8/8/K6k b - - 0 0", "1... Kb2 2. Kg2 Kc3 *"),
        ("not a fen", "1. Kb2 Kg2 2. Kc3 *"),  # the position module judges FENs
    ],
)
def test_the_first_move_number_comes_from_the_fen(fen, movetext):
    game = PgnGame(headers={"FEN": fen}, moves=("Kb2", "Kg2", "Kc3"), result="*")
    assert write_game(game).split("\n\n")[1] == movetext


def test_several_games_are_separated_by_one_blank_line():
    first, second = PgnGame(result="1-0"), PgnGame(headers={"Round": "2"}, moves=("d4",), result="*")
    text = write_games([first, second])
    assert text == write_game(first) + write_game(second)
    assert '1-0\n\n[Event "?"]' in text
    assert "\n\n\n" not in text
    assert text.endswith("1. d4 *\n\n")
    assert write_games([]) == ""


# --- reading -------------------------------------------------------------------------------


def test_reading_the_export_format():
    assert read_game(OPERA_PGN) == OPERA_GAME


IMPORT_PGN = (
    "\ufeff% written by some program, this line is an escape\n"
    '[Event "Club \\"Spring\\" cup"]   [Site "Brno"]\n'
    '[White "Back\\\\slash"] [Black "Semi;colon {brace} (paren) % "]\n'
    '[Result "1/2-1/2"]\n'
    '; a comment to the end of the line [Round "9"]\n'
    "{A comment\nover two lines (with a parenthesis}\n"
    "1.e4 $1 e5!? 2. Nf3 {best} (2. f4 exf4 (2... d5) 3. Nf3) Nc6?! 3.Bb5 a6\r\n"
    "4. Ba4 Nf6 5. 0-0 Be7 6... b5!! $18 7. exd5 e8=Q+ ! ?\n"
    "1/2-1/2\n"
)


def test_the_reader_skips_comments_annotations_variations_and_move_numbers():
    game = read_game(IMPORT_PGN)
    assert game.moves == ("e4", "e5", "Nf3", "Nc6", "Bb5", "a6", "Ba4", "Nf6", "O-O", "Be7", "b5", "exd5", "e8=Q+")
    assert game.result == "1/2-1/2"
    assert game.headers == {
        "Event": 'Club "Spring" cup',
        "Site": "Brno",
        "Date": "????.??.??",
        "Round": "?",
        "White": "Back\\slash",
        "Black": "Semi;colon {brace} (paren) % ",
        "Result": "1/2-1/2",
    }


def test_a_game_without_tags_or_moves():
    assert read_games("*") == [PgnGame(result="*")]
    assert read_game("  {just a comment}\n1-0\n") == PgnGame(result="1-0")


def test_a_text_with_only_comments_holds_no_game():
    assert read_games("") == []
    assert read_games("\ufeff\n  ; nothing\n{at all}\n% escape\n") == []


def test_several_games_in_one_file():
    text = (
        '[Event "A"]\n[Result "1-0"]\n\n1. e4 1-0\n\n'
        '[Event "B"]\n\n1. d4 d5 0-1\n'
        "*\n"  # a game that is just a result
        '[Event "D"] 1/2-1/2'
    )
    games = read_games(text)
    assert [(game.headers["Event"], game.moves, game.result) for game in games] == [
        ("A", ("e4",), "1-0"),
        ("B", ("d4", "d5"), "0-1"),
        ("?", (), "*"),
        ("D", (), "1/2-1/2"),
    ]


BAD_INPUTS = [
    ("1. e4 {no end\n\n*", "Line 1: the comment that starts here is never closed (a } is missing)."),
    ('[Event "A"]\n\n1. e4 e5 2. Nf3 {never\nclosed', "Line 3: the comment that starts here is never closed"),
    ('[Event "A]\n[Site "B"]\n*', "Line 1: the text in double quotes that starts here does not end on this line."),
    ('[Event "A"]\n[Site "B"\n1. e4 *', "Line 2: the tag pair that starts here is never closed (a ] is missing)."),
    ('[Event "A"]\n[Site B]\n*', 'Line 2: the tag Site needs a value in double quotes, such as [Site "?"].'),
    ('[Event "A"]\n[Site]\n*', "Line 2: the tag Site needs a value in double quotes"),
    ('\n[ "A"]\n*', "Line 2: a tag pair needs a name after its [."),
    ('[Event "A"]\n[Event "B"]\n*', "Line 2: the tag Event is given a second time in this game"),
    ('[Round "1"]\n\n[Round "2"]\n*', "Line 3: the tag Round is given a second time"),  # a game lacks its result
    ('[Event "a\tb"]\n*', "Line 1: the value of the tag Event holds a tab or another control character."),
    ("1. e4 (1. d4 d5\n2. c4 *", "Line 1: the variation that starts here is never closed (a ) is missing)."),
    ('1. e4 (1. d4 (1... d5)\n\n[Event "B"]\n*', "Line 1: the variation that starts here is never closed"),
    ("1. e4 e5\n2. Nf3) Nc6 *", "Line 2: this ) closes a variation that was never opened."),
    ('[Result "1-0"]\n\n1. e4\n0-1', "Line 4: the game ends with 0-1 but its Result tag (line 1) says 1-0."),
    ('[Result "?"]\n*', "Line 2: the game ends with * but its Result tag (line 1) says ?."),
    ("1. e4 e5\n2. Nf3 Nc6\n3. Bb5 Zz9 *", "Line 3: 'Zz9' is not a move in SAN (such as e4, Nf3, exd5, e8=Q, O-O)"),
    ("1. e4 e9 *", "Line 1: 'e9' is not a move in SAN"),
    ("1. e4 e5 2. P-K4 *", "Line 1: 'P-K4' is not a move in SAN"),
    ('1. e4 "e5" *', "Line 1: the text in double quotes 'e5' stands outside a tag pair."),
    ("1. e4 ] *", "Line 1: ']' is not a move in SAN"),
    ("1. e4\n\n@ *", "Line 3: '@' is not a PGN token."),
    ("1. e4 <reserved> *", "Line 1: '<' is not a PGN token."),
    ("1. e4 e5\n 10% *", "Line 2: '%' is not a PGN token."),  # an escape only in the first column
    ('[Event "A"]\n\n1. e4 e5\n', "Line 1: the game that starts here does not end with a result"),
    ('1-0\n[Event "B"]\n\n1. d4\n\n[Event "C"]\n*', "Line 2: the game that starts here does not end with a result"),
    ('[Event "A"]\n', "Line 1: the game that starts here does not end with a result (1-0, 0-1, 1/2-1/2 or *)."),
]


@pytest.mark.parametrize(("text", "message"), BAD_INPUTS)
def test_bad_input_is_refused_with_its_line(text, message):
    with pytest.raises(RuleError) as error:
        read_games(text)
    assert message in str(error.value)


@pytest.mark.parametrize(("text", "count"), [("", 0), ("1-0 0-1", 2), ("* * *", 3)])
def test_read_game_wants_exactly_one_game(text, count):
    with pytest.raises(RuleError) as error:
        read_game(text)
    assert str(error.value) == f"The PGN text holds {count} games; one was expected."


def test_a_refusal_is_translatable():
    with pytest.raises(RuleError) as error:
        read_games("1. e4 {")
    assert error.value.text.message == "Line %(line)d: the comment that starts here is never closed (a } is missing)."
    assert error.value.text.values == {"line": 1}


# --- the round trip ------------------------------------------------------------------------

tag_names = st.from_regex(TAG_NAME, fullmatch=True).filter(lambda name: len(name) <= 20 and name != "Result")
tag_values = st.text(st.characters(blacklist_categories=("Cc", "Cs")), max_size=30)
fens = st.sampled_from(
    [
        "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1",
        "r1bqkb1r/pppp1ppp/2n5/4p3/2B1P3/5N2/PPPP1PPP/RNBQK2R b KQkq - 3 12",
        "8/8/8/8/8/8/8/K6k b - - 0 140",
    ]
)


@st.composite
def games(draw):
    headers = draw(st.dictionaries(tag_names, tag_values, max_size=12))
    if draw(st.booleans()):
        headers["FEN"] = draw(fens)
    result = draw(st.sampled_from(["1-0", "0-1", "1/2-1/2", "*"]))
    if draw(st.booleans()):
        headers["Result"] = result
    moves = draw(st.lists(st.from_regex(SAN, fullmatch=True), max_size=120))
    return PgnGame(headers=headers, moves=tuple(moves), result=result)


@settings(max_examples=200, deadline=None)
@given(games())
def test_a_written_game_reads_back_the_same(game):
    text = write_game(game)
    assert read_game(text) == game
    assert list(read_game(text).headers) == list(game.headers)
    movetext = text.split("\n\n")[1]
    assert all(len(line) <= 79 for line in movetext.splitlines())


@settings(max_examples=50, deadline=None)
@given(st.lists(games(), max_size=4))
def test_written_games_read_back_the_same(some_games):
    assert read_games(write_games(some_games)) == some_games
