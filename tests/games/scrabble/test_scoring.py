"""The score of a placement (SPEC §4.2) on the real Czech values and board.

Every expected score is worked out by hand in the case's comment from the tables of
scrabble-czech-set.md: letter values (A1 Á2 B3 C2 Č4 D1 Ď8 E1 É3 Ě3 F5 G5 H2 I1 Í2 J2
K1 L1 M2 N1 Ň6 O1 Ó7 P1 R1 Ř4 S1 Š4 T1 Ť7 U2 Ú5 Ů4 V1 X10 Y2 Ý4 Z2 Ž4, blank 0) and
the premium squares. Squares without a premium are not mentioned. The property tests
at the end compare the scorer with a plain re-computation written in the test.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scrabble.board import Position, parse_square
from games.scrabble.placement import PlacedSquare, Placement, PlacementError, Tile, apply, parse_placement
from games.scrabble.scoring import BINGO_BONUS, MoveScore, score_placement, words_formed
from games.scrabble.tiles import CZECH
from tests.games.scrabble.boards import COUNTS, VALUES, diagram_premiums, lay

# (name, board, position, word, expected total)
CASES = [
    # --- first moves: the centre H8 is a double word --------------------------------
    # S on D8 DL 1×2=2, L1 O1 V1, A on H8 DW 1: (2+1+1+1+1)=6 ×2 = 12
    ("first_move_with_dl_and_dw", (), "8D", "SLOVA", 12),
    # Ř4 + E on H8 1 + K1 + A1 = 7 ×2 = 14
    ("first_move_with_r_hacek", (), "8G", "ŘEKA", 14),
    # down: Ž on H4 DL 4×2=8, E1 L1 V1, A on H8 1: 12 ×2 = 24
    ("first_move_down_with_dl", (), "H4", "ŽELVA", 24),
    # Ó7 D1, A on H8 1: 9 ×2 = 18
    ("first_move_down_with_o_acute", (), "H6", "ÓDA", 18),
    # T1 E1, Ď on H8 DW 8: 10 ×2 = 20 (the DW doubles the word, not the letter)
    ("first_move_d_hacek_on_dw", (), "8F", "TEĎ", 20),
    # D on H8 1, Ů4 M2: 7 ×2 = 14
    ("first_move_with_u_ring", (), "8H", "DŮM", 14),
    # D on H8 1, Ě3 T1 I1: 6 ×2 = 12
    ("first_move_with_e_hacek", (), "8H", "DĚTI", 12),
    # --- blanks: worth 0, but a word premium under a blank still counts -------------
    # blank k on H8 DW 0, O1 Z2 A1: 4 ×2 = 8
    ("blank_on_dw_still_doubles_the_word", (), "8H", "kOZA", 8),
    # blank s on D8 DL 0×2=0, L1 O1 V1, A on H8 1: 4 ×2 = 8
    ("blank_on_dl_is_worth_nothing", (), "8D", "sLOVA", 8),
    # blanks k (G8) and č (I8) 0, O on H8 1, K1 A1: 3 ×2 = 6
    ("two_blanks_in_one_word", (), "8G", "kOčKA", 6),
    # --- bingo: +50 after the multipliers --------------------------------------------
    # Z2 A1, H on D8 DL 2×2=4, R1 A1 D1, A on H8 1: 11 ×2 = 22, +50 = 72 (not (11+50)×2)
    ("bingo_first_move_bonus_after_the_dw", (), "8B", "ZAHRADA", 72),
    # blank z 0, A1, H on D8 4, R1 A1 D1 A1: 9 ×2 = 18, +50 = 68
    ("bingo_with_a_blank", (), "8B", "zAHRADA", 68),
    # --- letter premiums only under new tiles ----------------------------------------
    # existing S on D8 DL counts 1 (face value); new L1 E1: 3
    ("existing_tile_on_dl_counts_face_value", ("8D SLOVA",), "D6", "LE.", 3),
    # B on F6 TL 3×3=9, A1, existing L1, E1, T on J6 TL 1×3=3: 15
    ("two_triple_letters", ("H4 ŽELVA",), "6F", "BA.ET", 15),
    # blank b on F6 TL 0, A1 L1 E1, T on J6 TL 3: 6
    ("blank_on_tl_is_worth_nothing", ("H4 ŽELVA",), "6F", "bA.ET", 6),
    # E1, X on F6 TL 10×3=30, I1, existing L1: 33
    ("x_on_triple_letter", ("H4 ŽELVA",), "6E", "EXI.", 33),
    # --- word premiums: two multiply -------------------------------------------------
    # K on E5 DW 1, O1 L1, existing E1, Č4 K1, O on K5 DW 1: 10 ×2×2 = 40
    ("two_double_words_make_x4", ("H4 ŽELVA",), "5E", "KOL.ČKO", 40),
    # same move typed in upper case over the existing E: 40
    ("two_double_words_typed_over_the_existing_letter", ("H4 ŽELVA",), "5E", "KOLEČKO", 40),
    # Z on A1 TW 2, A1 H2, existing R on D1 DL 1 (face value), A1 D1, existing N1,
    # Í on H1 TW 2: 11 ×3×3 = 99 (6 new tiles: no bingo)
    ("two_triple_words_make_x9", ("D1 RAK", "G1 NOS"), "1A", "ZAH.AD.Í", 99),
    # the same with N new as well: 7 tiles, 99 + 50 = 149
    ("two_triple_words_and_a_bingo", ("D1 RAK",), "1A", "ZAH.ADNÍ", 149),
    # blank z on A1 TW 0: 9 ×9 = 81, +50 = 131
    ("blank_on_tw_still_triples_the_word", ("D1 RAK",), "1A", "zAH.ADNÍ", 131),
    # 15 letters A8–O8 over ZAPOMENUT (C8–K8): N on A8 TW 1, E1, existing Z2 A1 P1 O1 M2
    # E1 N1 U2 T1 (A on D8 DL at face value), E on L8 DL 1×2=2, L1 N1, Ý on O8 TW 4:
    # 1+1+(2+1+1+1+2+1+1+2+1)+2+1+1+4 = 22 ×3×3 = 198
    ("fifteen_letters_from_tw_to_tw", ("8C ZAPOMENUT",), "8A", "NE.........ELNÝ", 198),
    # --- existing premiums are spent ------------------------------------------------
    # new Š4 on F8, existing K1 O1 (H8 DW used) L1 A1: 8, no doubling
    ("extend_at_the_front_existing_dw_not_counted", ("8G KOLA",), "8F", "Š....", 8),
    # existing V1 L1 A1 K1, new Y on L8 DL 2×2=4: 8
    ("extend_at_the_back_with_dl", ("8H VLAK",), "8H", "....Y", 8),
    # new P1 on G8, existing O1 L1 E1, new M2 on K8: 6
    ("extend_at_both_ends", ("8H OLE",), "8G", "P...M", 6),
    # existing Z on A1 TW counts 2, no tripling; E1 Ď8: 11
    ("existing_tile_on_tw_counts_face_value", ("1A ZAHRADNÍ",), "A1", ".EĎ", 11),
    # existing blank k on H8 counts 0; R1 Á2 L1: 4
    ("existing_blank_stays_worth_nothing", ("8H kOLO",), "H8", ".RÁL", 4),
    # --- cross words ----------------------------------------------------------------
    # main MY: M2, Y on L8 DL 4 = 6; cross VLAKY: V1 L1 A1 K1 + Y 4 = 8: 14
    ("hook_with_dl_in_both_words", ("8H VLAK",), "L7", "MY", 14),
    # one new tile (Y on K8) typed across: LESY 1+1+1+2 = 5, cross SNY 1+1+2 = 4: 9
    ("single_tile_in_two_words_typed_across", ("8H LES", "K6 SN"), "8H", "...Y", 9),
    # the same tile typed down: SNY 4 + LESY 5 = 9
    ("single_tile_in_two_words_typed_down", ("8H LES", "K6 SN"), "K6", "..Y", 9),
    # main HRADY: H on L4 DW 2, R1 A1 D1, Y on L8 DL 4 = 9 ×2 = 18; cross VLAKY 8
    # (the DW is not under VLAKY's new tile, the DL is): 26
    ("cross_word_shares_the_dl_not_the_dw", ("8H VLAK",), "L4", "HRADY", 26),
    # main BAR: B3, A on K11 DW 1, R1 = 5 ×2 = 10; cross KOSA: K1 O1 S1 A1 = 4 ×2 = 8: 18
    ("dw_under_the_shared_tile_doubles_both_words", ("8H VLAK", "K8 KOS"), "11J", "BAR", 18),
    # main PES: P on J6 TL 3, E1 S1 = 5; cross LÍP: L1 Í2 P3 = 6: 11
    ("tl_under_the_shared_tile_counts_in_both_words", ("H4 ŽELVA", "6H LÍ"), "J6", "PES", 11),
    # main MOST: M on O8 TW 2, O1 S1 T1 = 5 ×3 = 15; cross KOČKAM: K1 O1 Č4 K1 A1 M2 = 10 ×3 = 30: 45
    ("tw_under_the_shared_tile_triples_both_words", ("8J KOČKA",), "O8", "MOST", 45),
    # parallel under PE: main ON: O1, N on I9 DL 2 = 3; cross PO: 1+1 = 2; cross EN: E1 + N 2 = 3: 8
    ("parallel_play_three_words", ("8H PES",), "9H", "ON", 8),
    # main DAR: D1, A on G9 DL 2, R1 = 4; cross AR (A over the existing R of ROK): 2+1 = 3;
    # cross PRO (R between the existing P and O): 1+1+1 = 3: 10
    ("three_words_one_cross_word_through_a_gap", ("8H PES", "10G ROK"), "9F", "DAR", 10),
]


@pytest.mark.parametrize(
    ("board", "position", "word", "expected"),
    [pytest.param(*case[1:], id=case[0]) for case in CASES],
)
def test_score_of_a_placement(board, position, word, expected):
    before = lay(*board)
    placement = parse_placement(position, word, before, CZECH)
    assert score_placement(placement, before, CZECH).total == expected


def test_the_table_has_enough_cases():
    assert len(CASES) >= 30
    assert len({case[0] for case in CASES}) == len(CASES)


def score(board: tuple[str, ...], position: str, word: str) -> MoveScore:
    before = lay(*board)
    return score_placement(parse_placement(position, word, before, CZECH), before, CZECH)


def words(move: MoveScore) -> list[tuple[str, int, bool]]:
    return [(word.word, word.score, word.main) for word in move.words]


# --- Which words a move forms, in which order ---------------------------------------------


def test_words_are_the_main_word_then_the_cross_words_in_reading_order():
    move = score(("8H PES", "10G ROK"), "9F", "DAR")
    assert words(move) == [("DAR", 4, True), ("AR", 3, False), ("PRO", 3, False)]
    assert move.words[2].squares == (parse_square("H8"), parse_square("H9"), parse_square("H10"))


def test_the_main_word_is_the_direction_typed():
    across = score(("8H LES", "K6 SN"), "8H", "...Y")
    down = score(("8H LES", "K6 SN"), "K6", "..Y")
    assert words(across) == [("LESY", 5, True), ("SNY", 4, False)]
    assert words(down) == [("SNY", 4, True), ("LESY", 5, False)]


def test_blanks_are_lower_case_in_every_word_formed():
    move = score(("8H VLAK", "K8 KOS"), "11J", "BaR")
    assert words(move) == [("BaR", 8, True), ("KOSa", 6, False)]  # BaR: (3+0+1)×2; KOSa: 3×2


def test_an_existing_blank_shows_lower_case_too():
    move = score(("8H kOLO",), "H8", ".RÁL")
    assert words(move) == [("kRÁL", 4, True)]


def test_a_tile_without_neighbours_across_forms_no_cross_word():
    move = score(("H4 ŽELVA",), "5E", "KOL.ČKO")
    assert words(move) == [("KOLEČKO", 40, True)]
    assert not move.bingo


def test_words_formed_lists_the_tiles_of_each_word():
    before = lay("8H VLAK", "K8 KOS")
    placement = parse_placement("11J", "BAR", before, CZECH)
    main, cross = words_formed(placement, before)
    assert (main.main, main.word, main.position.gcg) == (True, "BAR", "11J")
    assert (cross.main, cross.word, cross.position.gcg) == (False, "KOSA", "K8")
    assert [placed.new for placed in cross.squares] == [False, False, False, True]


def test_bingo_is_flagged_and_added_once():
    move = score((), "8B", "ZAHRADA")
    assert move.bingo
    assert move.total == sum(word.score for word in move.words) + BINGO_BONUS == 72


def test_six_tiles_are_no_bingo():
    move = score(("D1 RAK", "G1 NOS"), "1A", "ZAH.AD.Í")
    assert not move.bingo and move.total == 99


def test_a_placement_onto_an_occupied_square_is_refused_by_the_scorer():
    before = lay("8H VLAK")
    placement = Placement(
        position=Position(7, 7, True),
        squares=(PlacedSquare((7, 7), Tile("S"), new=True), PlacedSquare((7, 8), Tile("L"), new=False)),
    )
    with pytest.raises(PlacementError, match="H8 already holds V"):
        score_placement(placement, before, CZECH)


# --- Properties: the scorer against a plain re-computation ------------------------------------

PREMIUM_GRID = diagram_premiums()
LETTER_TIMES = {"DL": 2, "TL": 3}
WORD_TIMES = {"DW": 2, "TW": 3}
BAG = [letter for letter, count in COUNTS.items() for _ in range(count)] + ["?", "?"]


@st.composite
def first_moves(draw) -> tuple[str, str, list[tuple[tuple[int, int], str]]]:
    """A first move through H8: its position, its word as typed, and (square, typed letter)."""
    length = draw(st.integers(min_value=2, max_value=7))
    tiles = draw(st.permutations(BAG))[:length]
    typed = [
        draw(st.sampled_from(sorted(VALUES))).lower() if tile == "?" else tile for tile in tiles
    ]  # a blank is typed as the lower-case letter it stands for
    across = draw(st.booleans())
    before_centre = draw(st.integers(min_value=0, max_value=length - 1))
    start = 7 - before_centre
    squares = [(7, start + i) if across else (start + i, 7) for i in range(length)]
    column, row = "ABCDEFGHIJKLMNO"[squares[0][1]], squares[0][0] + 1
    position = f"{row}{column}" if across else f"{column}{row}"
    return position, "".join(typed), list(zip(squares, typed, strict=True))


def plain_score(tiles: list[tuple[tuple[int, int], str]]) -> int:
    """A first move forms one word, every tile is new: letters × letter premiums, times the
    word premiums, +50 for seven tiles."""
    letters, times = 0, 1
    for square, typed in tiles:
        value = 0 if typed.islower() else VALUES[typed]
        premium = PREMIUM_GRID.get(square, "")
        letters += value * LETTER_TIMES.get(premium, 1)
        times *= WORD_TIMES.get(premium, 1)
    return letters * times + (50 if len(tiles) == 7 else 0)


@settings(max_examples=300)
@given(first_moves())
def test_a_first_move_scores_as_recomputed_by_hand(move):
    position, word, tiles = move
    placement = parse_placement(position, word, {}, CZECH)
    result = score_placement(placement, {}, CZECH)
    assert result.total == plain_score(tiles)
    assert len(result.words) == 1 and result.words[0].word == word
    assert result.bingo == (len(word) == 7)


@settings(max_examples=100)
@given(first_moves())
def test_the_board_is_symmetric_in_its_diagonal_so_a_mirrored_move_scores_the_same(move):
    position, word, _ = move
    across = parse_placement(position, word, {}, CZECH)
    mirrored = Position(across.position.col, across.position.row, not across.position.across)
    down = parse_placement(mirrored, word, {}, CZECH)
    assert score_placement(down, {}, CZECH).total == score_placement(across, {}, CZECH).total


@settings(max_examples=100)
@given(first_moves(), st.data())
def test_a_second_move_hooking_the_first_scores_both_words(move, data):
    """A second move: one new tile right after the first word forms only the extended
    word, scored with the new tile's premiums only."""
    position, word, tiles = move
    first = parse_placement(position, word, {}, CZECH)
    board = apply({}, first)
    row, col = tiles[-1][0]
    after = (row, col + 1) if first.position.across else (row + 1, col)
    letter = data.draw(st.sampled_from([letter for letter in sorted(VALUES) if letter not in word.upper()]))
    extended = parse_placement(first.position, "." * len(word) + letter, board, CZECH)
    premium = PREMIUM_GRID.get(after, "")
    expected = (
        sum(0 if typed.islower() else VALUES[typed] for _, typed in tiles)
        + VALUES[letter] * LETTER_TIMES.get(premium, 1)
    ) * WORD_TIMES.get(premium, 1)
    assert score_placement(extended, board, CZECH).total == expected
