"""The Czech set, the board, positions and placements (SPEC §4.1, §4.2 and
scrabble-czech-set.md): what is read, what is refused and with which message.

Each refusal is a PlacementError (a RuleError); the tests pin the part of the message
a player needs to fix the input.
"""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from games.scrabble.board import (
    CENTER,
    PREMIUMS,
    SIZE,
    Position,
    Premium,
    parse_position,
    parse_square,
    square_name,
)
from games.scrabble.placement import (
    PlacementError,
    Tile,
    apply,
    parse_placement,
    play_rule_breaks,
)
from games.scrabble.tiles import CZECH, TileSet, parse_rack, rack_value
from games.text import RuleError
from tests.games.scrabble.boards import COUNTS, VALUES, diagram_premiums, lay

# --- The Czech tile set -------------------------------------------------------------------


def test_the_czech_set_has_100_tiles_98_letters_and_2_blanks():
    assert CZECH.total_tiles == 100
    assert sum(CZECH.count(letter) for letter in CZECH.letter_set) == 98
    assert CZECH.blanks == 2
    assert CZECH.rack_size == 7


def test_the_czech_set_is_worth_205_points():
    assert CZECH.total_points == 205
    assert sum(CZECH.points(letter) * CZECH.count(letter) for letter in CZECH.letter_set) == 205


def test_the_czech_set_matches_the_table_letter_by_letter():
    assert CZECH.letter_set == set(VALUES) == set(COUNTS)
    assert {letter: CZECH.points(letter) for letter in CZECH.letter_set} == VALUES
    assert {letter: CZECH.count(letter) for letter in CZECH.letter_set} == COUNTS


def test_the_czech_set_has_no_q_no_w_and_no_ch_tile():
    assert not {"Q", "W", "CH"} & CZECH.letter_set
    assert all(len(letter) == 1 and letter.isupper() for letter in CZECH.letter_set)


@pytest.mark.parametrize(
    ("letter", "points", "count"),
    [("A", 1, 5), ("O", 1, 6), ("Ď", 8, 1), ("Ř", 4, 2), ("Ů", 4, 1), ("X", 10, 1), ("Ó", 7, 1), ("?", 0, 2)],
)
def test_points_and_count_of_a_letter(letter, points, count):
    assert (CZECH.points(letter), CZECH.count(letter)) == (points, count)


@pytest.mark.parametrize("letter", ["Q", "W", "CH", "a", "ř", "", "1"])
def test_an_unknown_letter_is_a_placement_error_not_a_key_error(letter):
    with pytest.raises(PlacementError, match="There is no .* tile in the set"):
        CZECH.points(letter)
    with pytest.raises(PlacementError):
        CZECH.count(letter)


def test_a_tile_set_cannot_be_changed_after_it_is_made():
    with pytest.raises(TypeError):
        CZECH.letters["A"] = (100, 100)  # type: ignore[index]
    assert CZECH in {CZECH}  # hashable, though its letters are a mapping
    assert TileSet("test", {"A": (1, 2)}, blanks=0) == TileSet("test", {"A": (1, 2)}, blanks=0)


# --- Racks --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("typed", "rack"),
    [
        ("AEK?", "AEK?"),
        ("aek?", "AEK?"),  # lower case is upper-cased: on a rack a blank is "?"
        (" A E K ? ", "AEK?"),
        ("řšůě", "ŘŠŮĚ"),
        ("R\u030cS\u030c", "ŘŠ"),  # decomposed háčeks, as some keyboards send them
        ("??", "??"),
        ("", ""),  # an empty rack: the player went out
        ("XOOOOOO", "XOOOOOO"),
    ],
)
def test_parse_rack(typed, rack):
    assert parse_rack(typed, CZECH) == rack


@pytest.mark.parametrize(
    ("typed", "fragment"),
    [
        ("AQE", "Q is not a tile of the set"),
        ("wow", "W is not a tile"),
        ("A*", "* is not a tile"),
        ("A1", "1 is not a tile"),
        ("XX", "2 × X, but the set has only 1"),
        ("???", "3 blanks (?), but the set has only 2"),
    ],
)
def test_parse_rack_refuses(typed, fragment):
    with pytest.raises(PlacementError) as error:
        parse_rack(typed, CZECH)
    assert fragment in str(error.value)


@pytest.mark.parametrize(
    ("rack", "value"),
    [
        ("", 0),
        ("AEK?", 3),  # 1+1+1, blank 0
        ("??", 0),
        ("ŽŘ", 8),  # 4+4
        ("ČĎŤ", 19),  # 4+8+7
        ("xó", 17),  # 10+7, typed in lower case
        ("ABCDEFG", 18),  # 1+3+2+1+1+5+5
    ],
)
def test_rack_value(rack, value):
    assert rack_value(rack, CZECH) == value


def test_rack_value_refuses_an_unknown_letter():
    with pytest.raises(PlacementError, match="Q is not a tile"):
        rack_value("AQ", CZECH)


# --- Squares and premiums ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("square", "name"),
    [((0, 0), "A1"), ((7, 7), "H8"), ((14, 14), "O15"), ((0, 14), "O1"), ((14, 0), "A15"), ((7, 3), "D8")],
)
def test_square_names(square, name):
    assert square_name(square) == name
    assert parse_square(name) == square
    assert parse_square(f" {name.lower()} ") == square


def test_every_square_name_reads_back():
    squares = [(row, col) for row in range(SIZE) for col in range(SIZE)]
    assert [parse_square(square_name(square)) for square in squares] == squares
    assert len({square_name(square) for square in squares}) == SIZE * SIZE


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("P8", "P8 is off the board"),
        ("A16", "A16 is off the board"),
        ("A0", "A0 is off the board"),
        ("8H", "8H is not a square"),
        ("", "is not a square"),
        ("HH", "HH is not a square"),
    ],
)
def test_parse_square_refuses(text, fragment):
    with pytest.raises(PlacementError) as error:
        parse_square(text)
    assert fragment in str(error.value)


@pytest.mark.parametrize("square", [(-1, 0), (0, 15), (15, 15)])
def test_square_name_refuses_a_square_off_the_board(square):
    with pytest.raises(PlacementError, match="off the board"):
        square_name(square)


def test_premium_counts():
    kinds = list(PREMIUMS.values())
    assert (kinds.count(Premium.TW), kinds.count(Premium.DW), kinds.count(Premium.TL), kinds.count(Premium.DL)) == (
        8,
        17,
        12,
        24,
    )


@pytest.mark.parametrize(
    ("name", "premium"),
    [
        ("H8", Premium.DW),  # the centre
        ("A1", Premium.TW),
        ("O15", Premium.TW),
        ("H1", Premium.TW),
        ("B2", Premium.DW),
        ("F2", Premium.TL),
        ("N10", Premium.TL),
        ("D1", Premium.DL),
        ("G7", Premium.DL),
        ("L15", Premium.DL),
    ],
)
def test_named_premium_squares(name, premium):
    assert PREMIUMS[parse_square(name)] == premium


@pytest.mark.parametrize("name", ["B1", "H2", "E8", "H7", "G8", "K8"])
def test_plain_squares_have_no_premium(name):
    assert parse_square(name) not in PREMIUMS


def test_the_premiums_match_the_drawing_of_the_board():
    assert {square: premium.value for square, premium in PREMIUMS.items()} == diagram_premiums()


def test_the_centre_is_h8():
    assert square_name(CENTER) == "H8"


# --- Positions ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "row", "col", "across", "gcg"),
    [
        ("8D", 7, 3, True, "8D"),  # row number first: across
        ("D8", 7, 3, False, "D8"),  # column letter first: down
        ("h8", 7, 7, False, "H8"),
        ("8h", 7, 7, True, "8H"),
        ("  15O  ", 14, 14, True, "15O"),
        ("A1", 0, 0, False, "A1"),
        ("1A", 0, 0, True, "1A"),
        ("H8 vodorovně", 7, 7, True, "8H"),
        ("H8 vodorovne", 7, 7, True, "8H"),  # without the accent
        ("H8 svisle", 7, 7, False, "H8"),
        ("h8 SVISLE", 7, 7, False, "H8"),
        ("8H svisle", 7, 7, False, "H8"),  # with a direction, the square may be written either way
        ("D8 Vodorovně", 7, 3, True, "8D"),
        ("H8 across", 7, 7, True, "8H"),
        ("H8 down", 7, 7, False, "H8"),
        ("H8   svisle ", 7, 7, False, "H8"),
        ("H8 vodorovn\u0065\u030c", 7, 7, True, "8H"),  # a decomposed ě
    ],
)
def test_parse_position(text, row, col, across, gcg):
    position = parse_position(text)
    assert position == Position(row, col, across)
    assert position.gcg == gcg


def test_every_position_reads_back_from_its_gcg():
    positions = [Position(row, col, across) for row in range(SIZE) for col in range(SIZE) for across in (True, False)]
    assert [parse_position(position.gcg) for position in positions] == positions


@pytest.mark.parametrize(
    ("text", "fragment"),
    [
        ("", "Type the word's position"),
        ("   ", "Type the word's position"),
        ("16A", "16A is off the board"),
        ("P8", "P8 is off the board"),
        ("8P", "8P is off the board"),
        ("0H", "0H is off the board"),
        ("H0 svisle", "H0 svisle is off the board"),
        ("88", "88 is not a position"),
        ("HH", "HH is not a position"),
        ("8H8", "8H8 is not a position"),
        ("H8 šikmo", "šikmo is not a direction"),
        ("H8 8D", "H8 8D is not a position"),
        ("HH svisle", "HH is not a square"),
    ],
)
def test_parse_position_refuses(text, fragment):
    with pytest.raises(PlacementError) as error:
        parse_position(text)
    assert fragment in str(error.value)


def test_a_position_off_the_board_cannot_be_made():
    with pytest.raises(PlacementError, match="off the board"):
        Position(15, 0, True)


# --- Valid placements ---------------------------------------------------------------------

# (name, board, position, word, main word with blanks lower case, notation, new squares)
VALID = [
    ("first_move_across", (), "8D", "SLOVA", "SLOVA", "SLOVA", "D8 E8 F8 G8 H8"),
    ("first_move_down", (), "H4", "ŽELVA", "ŽELVA", "ŽELVA", "H4 H5 H6 H7 H8"),
    ("first_move_starting_on_the_centre", (), "8H", "ŘEKA", "ŘEKA", "ŘEKA", "H8 I8 J8 K8"),
    ("first_move_ending_on_the_centre", (), "H7", "ŠŤ", "ŠŤ", "ŠŤ", "H7 H8"),
    ("first_move_czech_position", (), "H8 svisle", "DŮM", "DŮM", "DŮM", "H8 H9 H10"),
    ("blanks_in_lower_case", (), "8H", "dĚTi", "dĚTi", "dĚTi", "H8 I8 J8 K8"),
    ("blank_for_a_czech_letter", (), "8G", "kŮň", "kŮň", "kŮň", "G8 H8 I8"),
    ("dot_for_a_tile_on_the_board", ("H4 ŽELVA",), "5E", "KOL.ČKO", "KOLEČKO", "KOL.ČKO", "E5 F5 G5 I5 J5 K5"),
    (
        "upper_case_over_a_tile_on_the_board",
        ("H4 ŽELVA",),
        "5E",
        "KOLEČKO",
        "KOLEČKO",
        "KOL.ČKO",
        "E5 F5 G5 I5 J5 K5",
    ),
    ("upper_case_over_a_blank_on_the_board", ("8H kOLO",), "H8", "KRÁL", "kRÁL", ".RÁL", "H9 H10 H11"),
    ("dot_over_a_blank_on_the_board", ("8H kOLO",), "H8", ".RÁL", "kRÁL", ".RÁL", "H9 H10 H11"),
    ("extend_at_the_front", ("8G KOLA",), "8F", "ŠKOLA", "ŠKOLA", "Š....", "F8"),
    ("extend_at_the_back", ("8H VLAK",), "8H", "....Y", "VLAKY", "....Y", "L8"),
    ("extend_at_both_ends", ("8H OLE",), "8G", "P...M", "POLEM", "P...M", "G8 K8"),
    ("single_tile_typed_in_its_words_direction", ("8H VLAK",), "L7", "MY", "MY", "MY", "L7 L8"),
    ("single_tile_next_to_a_tile", ("H4 ŽELVA",), "6H", ".Í", "LÍ", ".Í", "I6"),
    ("parallel_play", ("8H PES",), "9H", "ON", "ON", "ON", "H9 I9"),
    ("a_later_move_need_not_cover_the_centre", ("8H PES",), "J8", ".ÍŤ", "SÍŤ", ".ÍŤ", "J9 J10"),
    ("seven_new_tiles", ("D1 RAK",), "1A", "ZAH.ADNÍ", "ZAHRADNÍ", "ZAH.ADNÍ", "A1 B1 C1 E1 F1 G1 H1"),
    ("surrounding_spaces_are_ignored", (), " 8d ", "  SLOVA ", "SLOVA", "SLOVA", "D8 E8 F8 G8 H8"),
    ("decomposed_hacek", (), "8G", "R\u030cEKA", "ŘEKA", "ŘEKA", "G8 H8 I8 J8"),
    ("word_up_to_the_edge", ("8H PES",), "8H", "...TRÉHO", "PESTRÉHO", "...TRÉHO", "K8 L8 M8 N8 O8"),
]


@pytest.mark.parametrize(
    ("board", "position", "word", "display", "notation", "new"),
    [pytest.param(*case[1:], id=case[0]) for case in VALID],
)
def test_valid_placement(board, position, word, display, notation, new):
    placement = parse_placement(position, word, lay(*board), CZECH)
    assert placement.display == display
    assert placement.word == display.upper()
    assert placement.notation == notation
    assert " ".join(square_name(placed.square) for placed in placement.new_tiles) == new
    assert all(placed.tile.blank == placed.tile.display.islower() for placed in placement.squares)


def test_a_placement_keeps_the_tiles_already_on_the_board():
    before = lay("8H kOLO")
    placement = parse_placement("H8", "KRÁL", before, CZECH)
    assert placement.squares[0].tile == Tile("K", blank=True)
    assert not placement.squares[0].new
    assert placement.gcg == "H8 .RÁL"


def test_typing_a_word_in_upper_case_over_the_board_equals_typing_dots():
    before = lay("H4 ŽELVA")
    assert parse_placement("5E", "KOLEČKO", before, CZECH) == parse_placement("5E", "KOL.ČKO", before, CZECH)


def test_apply_puts_the_new_tiles_on_a_new_board():
    before = lay("8H VLAK")
    after = apply(before, parse_placement("L7", "My", before, CZECH))
    assert after == {**before, parse_square("L7"): Tile("M"), parse_square("L8"): Tile("Y", blank=True)}
    assert len(before) == 4  # the board before is left as it was


def test_apply_refuses_a_tile_onto_an_occupied_square():
    empty_board_move = parse_placement("8H", "VLAK", {}, CZECH)
    with pytest.raises(PlacementError, match="H8 already holds V"):
        apply(lay("8H VLAK"), empty_board_move)


# --- Refused placements -------------------------------------------------------------------

# (name, board, position, word, fragment of the message)
REFUSED = [
    ("position_off_the_board", (), "16A", "SLOVA", "16A is off the board"),
    ("position_not_a_position", (), "HH", "SLOVA", "HH is not a position"),
    ("word_runs_off_the_board_across", ("8H PES",), "8M", "SLOVA", "runs off the board"),
    ("word_runs_off_the_board_down", ("8H PES",), "M12", "SLOVA", "only 4 squares are left"),
    ("empty_word", (), "8H", "  ", "Type the word"),
    ("letter_differs_from_the_tile_there", ("H4 ŽELVA",), "5E", "KOLAČKO", "H5 already holds E, but the word has A"),
    ("letter_differs_from_a_blank_there", ("8H kOLO",), "H8", "TRÁL", "H8 already holds k, but the word has T"),
    ("dot_over_an_empty_square", (), "8D", "S.OVA", 'no tile on E8 for "."'),
    ("dot_past_the_tiles_on_the_board", ("8H VLAK",), "H8", "..", 'no tile on H9 for "."'),
    ("blank_over_a_tile_on_the_board", ("H4 ŽELVA",), "5E", "KOLeČKO", "H5 already holds E, so no blank can go there"),
    ("question_mark_for_a_blank", (), "8H", "PE?", "Type a blank as the lower-case letter"),
    ("digit_in_the_word", (), "8H", "SL0VA", '"0" (at J8) is not a letter'),
    ("space_in_the_word", (), "8H", "SL OVA", '" " (at J8) is not a letter'),
    ("no_new_tile", ("8H VLAK",), "8H", "VLAK", "places no new tile"),
    ("no_new_tile_with_dots", ("8H VLAK",), "8H", "....", "places no new tile"),
    ("one_letter_first_move", (), "8H", "A", "at least 2 letters"),
    ("one_letter_across_making_a_word_down", ("8H VLAK",), "9K", "O", "makes a word down: type that one, as K8 .O"),
    (
        "one_letter_down_making_a_word_across",
        ("8H VLAK",),
        "L8",
        "Y",
        "makes a word across: type that one, as 8H ....Y",
    ),
    ("word_continues_before_it", ("8H VLAK",), "8L", "Y", "continues over the tiles at H8, I8, J8, K8"),
    ("word_continues_before_it_suggestion", ("8H VLAK",), "8L", "YŽ", "e.g. as 8H ....YŽ"),
    ("word_continues_after_it", ("8H VLAK",), "8E", "ŠŤÁ", "e.g. as 8E ŠŤÁ...."),
    ("word_continues_down", ("H4 ŽELVA",), "H2", "OB", "continues over the tiles at H4, H5, H6, H7, H8"),
    ("first_move_off_the_centre", (), "8A", "SLOVA", "must cover the centre square H8"),
    ("first_move_next_to_the_centre", (), "I8", "SLOVA", "must cover the centre square H8"),
    ("later_move_not_touching", ("8H VLAK",), "1A", "SLOVA", "touches no tile on the board"),
    ("later_move_diagonal_only", ("8H VLAK",), "9L", "OS", "touches no tile on the board"),
    ("letter_not_in_the_set", (), "8H", "QUIZ", "There is no Q tile in the set (at H8)"),
    ("w_not_in_the_set", (), "8H", "WOW", "no W tile"),
    ("blank_for_a_letter_not_in_the_set", (), "8H", "qUIZ", "no Q tile"),
    ("more_of_a_letter_than_the_set_has", (), "8G", "XEX", "only 1 × X, and with this word the board would hold 2"),
    ("more_of_a_letter_with_the_board", ("8H TEĎ",), "9I", "ĎA", "only 1 × Ď"),
    ("more_blanks_than_the_set_has", (), "8H", "abc", "only 2 blanks"),
    ("more_blanks_with_the_board", ("8H kOZa",), "9I", "Ab", "only 2 blanks"),
    ("more_than_a_rack_of_tiles", (), "8A", "NEZAPOMENUTELNÝ", "at most 7 tiles"),
]


@pytest.mark.parametrize(
    ("board", "position", "word", "fragment"),
    [pytest.param(*case[1:], id=case[0]) for case in REFUSED],
)
def test_refused_placement(board, position, word, fragment):
    with pytest.raises(PlacementError) as error:
        parse_placement(position, word, lay(*board), CZECH)
    assert fragment in str(error.value)
    assert isinstance(error.value, RuleError)


def test_more_of_a_letter_is_fine_with_a_blank_for_it():
    placement = parse_placement("8G", "XEx", {}, CZECH)
    assert placement.display == "XEx"


def test_the_letters_of_the_set_may_all_be_on_the_board():
    before = lay("8H OOOOO")  # five O's
    assert parse_placement("9H", "OS", before, CZECH).word == "OS"  # the sixth and last O
    with pytest.raises(PlacementError, match="only 6 × O, and with this word the board would hold 7"):
        parse_placement("9H", "OOS", before, CZECH)


# --- Play rules a move recorded as played may break -------------------------------------


@pytest.mark.parametrize(
    ("board", "position", "word", "breaks"),
    [
        ((), "8A", "SLOVA", ("first word not covering the centre square H8",)),
        (("8H VLAK",), "1A", "SLOVA", ("word not connected to the tiles on the board",)),
        (("8H VLAK",), "L7", "MY", ()),
        ((), "8D", "SLOVA", ()),
    ],
)
def test_play_rules_can_be_read_without_being_enforced(board, position, word, breaks):
    before = lay(*board)
    placement = parse_placement(position, word, before, CZECH, check_play_rules=False)
    assert play_rule_breaks(placement, before) == breaks


def test_without_play_rules_every_other_rule_still_holds():
    with pytest.raises(PlacementError, match="only 1 × X"):
        parse_placement("8A", "XEX", {}, CZECH, check_play_rules=False)
    with pytest.raises(PlacementError, match="at least 2 letters"):
        parse_placement("1A", "A", lay("8H VLAK"), CZECH, check_play_rules=False)


# --- Properties ---------------------------------------------------------------------------

LETTERS = sorted(VALUES)


@st.composite
def first_moves(draw) -> tuple[Position, str]:
    """A first move through H8 of 2–7 letters (each letter at most as often as the set
    has it), some of them blanks."""
    length = draw(st.integers(min_value=2, max_value=7))
    across = draw(st.booleans())
    start = 7 - draw(st.integers(min_value=0, max_value=length - 1))
    position = Position(7, start, True) if across else Position(start, 7, False)
    letters = draw(st.lists(st.sampled_from(LETTERS), min_size=length, max_size=length))
    blanks = draw(st.sets(st.integers(min_value=0, max_value=length - 1), max_size=2))
    word = "".join(letter.lower() if index in blanks else letter for index, letter in enumerate(letters))
    return position, word


def over_the_count(word: str) -> bool:
    return any(word.count(letter) > COUNTS[letter] for letter in set(word) if letter.isupper())


@settings(max_examples=200)
@given(first_moves())
def test_a_placement_reads_back_from_its_gcg_notation(move):
    position, word = move
    if over_the_count(word):
        with pytest.raises(PlacementError, match="the board would hold"):
            parse_placement(position, word, {}, CZECH)
        return
    placement = parse_placement(position.gcg, word, {}, CZECH)
    assert placement.notation == word and placement.display == word
    assert parse_placement(placement.position.gcg, placement.notation, {}, CZECH) == placement
    assert len(apply({}, placement)) == len(word)


@settings(max_examples=200)
@given(first_moves(), st.data())
def test_a_word_through_the_first_one_reads_the_same_with_dots_or_letters(move, data):
    position, word = move
    assume(not over_the_count(word) and word.count("A") < COUNTS["A"] and word.count("O") < COUNTS["O"])
    board = apply({}, parse_placement(position, word, {}, CZECH))
    crossing = data.draw(st.integers(min_value=0, max_value=len(word) - 1))
    row, col = position.square_at(crossing)
    # a 3-letter word across the first one, its middle letter the crossed tile
    start = Position(row - 1, col, False) if position.across else Position(row, col - 1, True)
    through = board[(row, col)]
    typed_over = "A" + through.letter + "O"
    dotted = "A.O"
    with_letter = parse_placement(start, typed_over, board, CZECH)
    assert with_letter == parse_placement(start, dotted, board, CZECH)
    assert with_letter.display == "A" + through.display + "O"
    assert with_letter.notation == dotted
