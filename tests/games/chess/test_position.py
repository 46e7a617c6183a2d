"""The chess rules core: FEN, legal moves (checked by perft against the published counts),
check and its ends, SAN both ways, and whether a side can still checkmate (FIDE Law 6.9).

Perft counts are those published for these positions on the Chess Programming Wiki
("Perft Results"). Refusals are RuleErrors; the tests pin the part of the message a
person needs.
"""

from __future__ import annotations

import pytest

from games.chess.position import (
    INITIAL_FEN,
    Color,
    Move,
    Piece,
    PieceKind,
    Position,
    parse_square,
    square_name,
)
from games.text import RuleError, Text

KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
POSITION_3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - - 0 1"
POSITION_4 = "r3k2r/Pppp1ppp/1b3nbN/nP6/BBP1P3/q4N2/Pp1P2PP/R2Q1RK1 w kq - 0 1"
POSITION_4_MIRRORED = "r2q1rk1/pP1p2pp/Q4n2/bbp1p3/Np6/1B3NBn/pPPP1PPP/R3K2R b KQ - 0 1"
POSITION_5 = "rnbq1k1r/pp1Pbppp/2p5/8/2B5/8/PPP1NnPP/RNBQK2R w KQ - 1 8"


def position(fen: str) -> Position:
    return Position.from_fen(fen)


def uci(move: Move) -> str:
    return move.uci()


def move_of(text: str) -> Move:
    """A move from its UCI form ("e2e4", "e7e8q")."""
    promotion = PieceKind(text[4]) if len(text) == 5 else None
    return Move(parse_square(text[:2]), parse_square(text[2:4]), promotion)


def play(fen: str, *sans: str) -> Position:
    board = position(fen)
    for san in sans:
        board = board.push(board.parse_san(san))
    return board


def mirrored(fen: str) -> str:
    """The same position with the colours swapped (ranks flipped, cases swapped)."""
    placement, turn, *rest = fen.split()
    return " ".join(["/".join(reversed(placement.swapcase().split("/"))), "b" if turn == "w" else "w", *rest])


# --- Squares, pieces, moves ---------------------------------------------------------------


@pytest.mark.parametrize(("square", "name"), [(0, "a1"), (7, "h1"), (8, "a2"), (28, "e4"), (56, "a8"), (63, "h8")])
def test_squares_are_numbered_from_a1_file_by_file_then_rank_by_rank(square, name):
    assert square_name(square) == name
    assert parse_square(name) == square


@pytest.mark.parametrize("name", ["", "e", "e9", "i4", "E4", "e44", "4e"])
def test_a_bad_square_name_is_refused(name):
    with pytest.raises(RuleError, match="is not a square"):
        parse_square(name)


@pytest.mark.parametrize("square", [-1, 64])
def test_a_square_number_off_the_board_is_a_programming_error(square):
    with pytest.raises(ValueError, match="0..63"):
        square_name(square)


def test_pieces_and_moves_read_and_write_their_letters():
    assert Piece.from_symbol("N") == Piece(Color.WHITE, PieceKind.KNIGHT)
    assert Piece.from_symbol("q").symbol == "q"
    assert Color.WHITE.other is Color.BLACK
    assert Move(12, 28).uci() == "e2e4"
    assert str(Move(52, 60, PieceKind.QUEEN)) == "e7e8q"
    with pytest.raises(RuleError, match="is not a piece"):
        Piece.from_symbol("x")
    assert position(INITIAL_FEN).piece_at(4) == Piece(Color.WHITE, PieceKind.KING)
    assert position(INITIAL_FEN).piece_at(28) is None


# --- Perft --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("fen", "depth", "nodes"),
    [
        (INITIAL_FEN, 1, 20),
        (INITIAL_FEN, 2, 400),
        (INITIAL_FEN, 3, 8902),
        (INITIAL_FEN, 4, 197281),
        (KIWIPETE, 1, 48),
        (KIWIPETE, 2, 2039),
        (KIWIPETE, 3, 97862),
        (POSITION_3, 1, 14),
        (POSITION_3, 2, 191),
        (POSITION_3, 3, 2812),
        (POSITION_3, 4, 43238),
        (POSITION_4, 1, 6),
        (POSITION_4, 2, 264),
        (POSITION_4, 3, 9467),
        (POSITION_4_MIRRORED, 3, 9467),
        (POSITION_5, 1, 44),
        (POSITION_5, 2, 1486),
        (POSITION_5, 3, 62379),
    ],
    ids=lambda value: value if isinstance(value, int) else value.split()[0][:12],
)
def test_perft_matches_the_published_counts(fen, depth, nodes):
    assert position(fen).perft(depth) == nodes


def test_perft_of_depth_zero_is_the_position_itself():
    assert position(INITIAL_FEN).perft(0) == 1


# --- FEN ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "fen",
    [
        INITIAL_FEN,
        KIWIPETE,
        POSITION_3,
        POSITION_4,
        POSITION_5,
        "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1",
        "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2",
        "r3k2r/8/8/8/8/8/8/R3K2R b Kq - 17 40",
        "4k3/8/8/8/8/8/8/4K3 w - - 99 250",
        "4k3/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQ - 0 1",  # 16 pieces, 8 pawns: the most
    ],
)
def test_a_good_fen_round_trips(fen):
    assert position(fen).fen() == fen


@pytest.mark.parametrize(
    ("fen", "normalised"),
    [
        ("4k3/8/8/8/8/8/8/4K3 w - -", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
        ("  4k3/8/8/8/8/8/8/4K3   b  -  -  3  07 ", "4k3/8/8/8/8/8/8/4K3 b - - 3 7"),
        ("4k3/44/8/8/8/8/8/1111K3 w - - 0 1", "4k3/8/8/8/8/8/8/4K3 w - - 0 1"),
    ],
)
def test_a_fen_is_normalised(fen, normalised):
    assert position(fen).fen() == normalised


def test_the_initial_position():
    start = Position.initial()
    assert start.fen() == INITIAL_FEN
    assert start.turn is Color.WHITE
    assert start == position(INITIAL_FEN)
    assert repr(start) == f"Position.from_fen({INITIAL_FEN!r})"


@pytest.mark.parametrize(
    ("fen", "fragment"),
    [
        # Fields
        ("", "The FEN has 0 fields"),
        ("4k3/8/8/8/8/8/8/4K3 w", "The FEN has 2 fields; it needs 6"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0", "The FEN has 5 fields"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1 extra", "The FEN has 7 fields"),
        # Placement
        ("4k3/8/8/8/8/8/4K3 w - - 0 1", "placement has 7 ranks; it needs 8 separated by /"),
        ("4k3/8/8/8/8/8/8/8/4K3 w - - 0 1", "placement has 9 ranks"),
        ("4k3/8/8/8/8/8/8/4K2X w - - 0 1", "Rank 1 of the FEN ('4K2X') has the character 'X'"),
        ("4k3/9/8/8/8/8/8/4K3 w - - 0 1", "Rank 7 of the FEN ('9') has the character '9'"),
        ("4k3/08/8/8/8/8/8/4K3 w - - 0 1", "has the character '0'"),
        ("4k3/8/8/8/8/8/8/4K3x w - - 0 1", "the pieces pnbrqk (black) and PNBRQK (white)"),
        ("4k4/8/8/8/8/8/8/4K3 w - - 0 1", "Rank 8 of the FEN ('4k4') covers 9 squares; it needs 8"),
        ("4k2/8/8/8/8/8/8/4K3 w - - 0 1", "Rank 8 of the FEN ('4k2') covers 7 squares"),
        ("4k3//8/8/8/8/8/4K3 w - - 0 1", "Rank 7 of the FEN ('') covers 0 squares"),
        # Side to move
        ("4k3/8/8/8/8/8/8/4K3 x - - 0 1", "The side to move is 'x'; write w (white) or b (black)"),
        ("4k3/8/8/8/8/8/8/4K3 W - - 0 1", "The side to move is 'W'"),
        # Castling field
        ("r3k2r/8/8/8/8/8/8/R3K2R w QK - 0 1", "The castling field is 'QK'; write - or some of KQkq in that order"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkqK - 0 1", "The castling field is 'KQkqK'"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w X - 0 1", "The castling field is 'X'"),
        ("r3k2r/8/8/8/8/8/8/R3K2R w -K - 0 1", "The castling field is '-K'"),
        # En passant field
        ("4k3/8/8/8/8/8/8/4K3 w - e9 0 1", "The en passant field is 'e9'; write - or a square"),
        ("4k3/8/8/8/8/8/8/4K3 w - x6 0 1", "The en passant field is 'x6'"),
        ("4k3/8/8/8/8/8/8/4K3 w - e 0 1", "The en passant field is 'e'"),
        # Clocks
        ("4k3/8/8/8/8/8/8/4K3 w - - -1 1", "The halfmove clock is '-1'; write a whole number, 0 or more"),
        ("4k3/8/8/8/8/8/8/4K3 w - - x 1", "The halfmove clock is 'x'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 0", "The fullmove number is '0'; write a whole number, 1 or more"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 -3", "The fullmove number is '-3'"),
        ("4k3/8/8/8/8/8/8/4K3 w - - 0 1.5", "The fullmove number is '1.5'"),
        # Kings
        ("4k3/8/8/8/8/8/8/8 w - - 0 1", "There is no white king (K); each side needs exactly one king"),
        ("8/8/8/8/8/8/8/4K3 w - - 0 1", "There is no black king (k)"),
        ("k3k3/8/8/8/8/8/8/4K3 w - - 0 1", "There are 2 black kings"),
        ("4k3/8/8/8/8/8/8/K3K3 w - - 0 1", "There are 2 white kings"),
        # Pawns on the first or last rank
        ("4k3/8/8/8/8/8/8/P3K3 w - - 0 1", "There is a pawn on a1; pawns never stand on the 1st or 8th rank"),
        ("P3k3/8/8/8/8/8/8/4K3 w - - 0 1", "There is a pawn on a8"),
        ("4k3/8/8/8/8/8/8/4K2p w - - 0 1", "There is a pawn on h1"),
        ("4k2p/8/8/8/8/8/8/4K3 w - - 0 1", "There is a pawn on h8"),
        # Too many pieces or pawns
        ("4k3/8/8/NNNNNNNN/8/8/PPPPPPPP/4K3 w - - 0 1", "There are 17 white pieces; a side has at most 16"),
        ("4k3/pppppppp/8/8/nnnnnnnn/8/8/4K3 w - - 0 1", "There are 17 black pieces"),
        ("4k3/8/8/8/8/P7/PPPPPPPP/4K3 w - - 0 1", "There are 9 white pawns; a side has at most 8"),
        ("4k3/pppppppp/p7/8/8/8/8/4K3 b - - 0 1", "There are 9 black pawns"),
        # Castling rights against the placement
        ("4k3/8/8/8/8/8/8/4K3 w K - 0 1", "The castling right K needs the white king on e1 and a white rook on h1"),
        ("4k3/8/8/8/8/8/8/1R2K3 w Q - 0 1", "remove Q from the castling field"),  # the rook is not on a1
        ("4k3/8/8/8/8/8/8/R2K4 w Q - 0 1", "The castling right Q needs the white king on e1"),  # king moved
        ("4k2r/8/8/8/8/8/8/4K3 w q - 0 1", "The castling right q needs the black king on e8 and a black rook on a8"),
        ("r4k1r/8/8/8/8/8/8/4K3 w k - 0 1", "The castling right k needs the black king on e8"),
        ("4k2R/8/8/8/8/8/8/4K3 b k - 0 1", "The castling right k"),  # a white rook on h8
        # En passant square against the placement
        ("4k3/8/8/3pP3/8/8/8/4K3 w - e3 0 1", "with white to move it must be on rank 6"),
        ("4k3/8/8/8/3Pp3/8/8/4K3 b - d6 0 1", "with black to move it must be on rank 3"),
        ("4k3/8/8/8/8/8/8/4K3 b - e3 0 1", "a white pawn must have just moved from e2 to e4"),
        ("4k3/8/8/8/4P3/8/4P3/4K3 b - e3 0 1", "nothing on e3 or e2"),  # e2 is not empty
        ("4k3/8/8/8/4P3/4N3/8/4K3 b - e3 0 1", "nothing on e3 or e2"),  # e3 is not empty
        ("4k3/8/8/3p4/8/8/8/4K3 w - e6 0 1", "a black pawn must have just moved from e7 to e5"),
        ("4k3/8/8/4P3/8/8/8/4K3 w - e6 0 1", "a black pawn must have just moved"),  # white pawn on e5
        # The side not to move in check
        ("4k3/8/8/8/8/8/8/4RK2 w - - 0 1", "The side not to move (black) is in check"),
        ("4k3/8/8/8/8/8/8/4r1K1 b - - 0 1", "The side not to move (white) is in check"),
        ("8/8/8/8/8/8/3kK3/8 w - - 0 1", "is in check, which cannot happen in a game"),  # kings side by side
    ],
)
def test_a_bad_fen_is_refused_saying_what_is_wrong(fen, fragment):
    with pytest.raises(RuleError) as error:
        position(fen)
    assert fragment in str(error.value)


def test_fen_messages_translate_the_colour_names_too():
    with pytest.raises(RuleError) as error:
        position("4k3/8/8/8/8/8/8/8 w - - 0 1")
    assert isinstance(error.value.text.values["color"], Text)
    message = "There is no %(color)s king (%(letter)s); each side needs exactly one king."
    catalog = {"white": "bílý", message: "Chybí %(color)s král (%(letter)s)."}
    assert error.value.translate(lambda message: catalog.get(message, message)) == "Chybí bílý král (K)."


# --- Moves --------------------------------------------------------------------------------


def legal(fen: str) -> set[str]:
    return {uci(move) for move in position(fen).legal_moves()}


@pytest.mark.parametrize(
    ("fen", "present", "absent"),
    [
        # Castling: not out of check, not through an attacked square, not into check.
        ("4r1k1/8/8/8/8/8/8/R3K2R w KQ - 0 1", set(), {"e1g1", "e1c1"}),
        ("5rk1/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1c1"}, {"e1g1"}),
        ("4k1r1/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1c1"}, {"e1g1"}),
        ("3rk3/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1"}, {"e1c1"}),
        ("2r1k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1"}, {"e1c1"}),
        # b1 attacked or the rook attacked does not stop castling long; a piece between does.
        ("1r2k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1", "e1c1"}, set()),
        ("r3k3/8/8/8/8/8/8/R3K2R w KQ - 0 1", {"e1g1", "e1c1"}, set()),
        ("4k3/8/8/8/8/8/8/RN2K2R w KQ - 0 1", {"e1g1"}, {"e1c1"}),
        ("4k3/8/8/8/8/8/8/R3K1NR w KQ - 0 1", {"e1c1"}, {"e1g1"}),
        # No right, no castling; black castles on the 8th rank.
        ("r3k2r/8/8/8/8/8/8/R3K2R w - - 0 1", set(), {"e1g1", "e1c1"}),
        ("r3k2r/8/8/8/8/8/8/R3K2R b kq - 0 1", {"e8g8", "e8c8"}, set()),
        ("r3k2r/8/8/8/8/8/8/R3K2R b Kk - 0 1", {"e8g8"}, {"e8c8"}),
        # En passant, and not when it uncovers a check along the rank.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1", {"e5d6", "e5e6"}, set()),
        ("4k3/8/8/3pP3/8/8/8/4K3 w - - 0 1", {"e5e6"}, {"e5d6"}),
        ("8/8/8/KPp4r/8/8/8/6k1 w - c6 0 2", {"b5b6"}, {"b5c6"}),
        ("8/8/8/8/kPp4R/8/8/6K1 b - b3 0 2", {"c4c3"}, {"c4b3"}),
        # A pinned piece keeps to its line; a king does not step into check.
        ("4r2k/8/8/8/8/8/4N3/1N2K3 w - - 0 1", {"b1c3"}, {"e2c3", "e2g3"}),
        ("4k3/8/8/8/8/8/3r4/4K3 w - - 0 1", {"e1d2"}, {"e1e2", "e1f2", "e1d1"}),
        # Promotion to queen, rook, bishop and knight, also with a capture.
        ("2r1k3/1P6/8/8/8/8/8/4K3 w - - 0 1", {"b7b8q", "b7b8r", "b7b8b", "b7b8n", "b7c8q", "b7c8n"}, {"b7b8"}),
    ],
)
def test_legal_moves(fen, present, absent):
    moves = legal(fen)
    assert present <= moves
    assert not absent & moves


def test_only_the_moves_that_answer_a_check_are_legal():
    # Double check (rook and knight): only the king moves; taking the knight is not enough.
    assert legal("4k3/8/8/8/8/5n2/8/r3K2B w - - 0 1") == {"e1e2", "e1f2"}
    # A check by a knight: take it or move the king; a knight's check cannot be blocked.
    assert legal("4k3/8/8/8/8/3n4/8/1B2K2R w - - 0 1") == {"e1d1", "e1d2", "e1e2", "e1f1", "b1d3"}


def test_push_returns_a_new_position_and_keeps_the_old_one():
    start = Position.initial()
    after = start.push(move_of("e2e4"))
    assert start.fen() == INITIAL_FEN
    assert after.fen() == "rnbqkbnr/pppppppp/8/8/4P3/8/PPPP1PPP/RNBQKBNR b KQkq e3 0 1"
    after = after.push(move_of("c7c5"))
    assert after.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/8/PPPP1PPP/RNBQKBNR w KQkq c6 0 2"
    after = after.push(move_of("g1f3"))
    assert after.fen() == "rnbqkbnr/pp1ppppp/8/2p5/4P3/5N2/PPPP1PPP/RNBQKB1R b KQkq - 1 2"


@pytest.mark.parametrize(
    ("fen", "move", "after"),
    [
        # The clocks: a capture or a pawn move resets the halfmove clock; black's move ends a move.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", "e1e2", "r3k2r/8/8/8/8/8/4K3/R6R b kq - 6 9"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 9", "h8h2", "r3k3/8/8/8/8/8/7r/R3K2R w KQq - 6 10"),
        # Capturing a rook on its home square takes that right away.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", "a1a8", "R3k2r/8/8/8/8/8/8/4K2R b Kk - 0 9"),
        # Castling moves the rook and ends both rights.
        ("r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 5 9", "e1g1", "r3k2r/8/8/8/8/8/8/R4RK1 b kq - 6 9"),
        ("r3k2r/8/8/8/8/8/8/R3K2R b KQkq - 5 9", "e8c8", "2kr3r/8/8/8/8/8/8/R3K2R w KQ - 6 10"),
        # En passant removes the pawn passed by; a promotion puts the new piece on the board.
        ("4k3/8/8/3pP3/8/8/8/4K3 w - d6 3 30", "e5d6", "4k3/8/3P4/8/8/8/8/4K3 b - - 0 30"),
        ("4k3/8/8/8/8/8/1p6/4K3 b - - 3 30", "b2b1n", "4k3/8/8/8/8/8/8/1n2K3 w - - 0 31"),
    ],
)
def test_push_updates_the_board_rights_and_clocks(fen, move, after):
    assert position(fen).push(move_of(move)).fen() == after


def test_push_refuses_an_illegal_move():
    with pytest.raises(RuleError, match=r"1\. e2e5 is not a legal move here"):
        Position.initial().push(move_of("e2e5"))
    assert not Position.initial().is_legal(move_of("e1e2"))
    assert Position.initial().is_legal(move_of("e2e4"))


# --- Check, checkmate, stalemate ------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "board", "check", "checkmate", "stalemate"),
    [
        ("initial", Position.initial(), False, False, False),
        ("fool's mate", play(INITIAL_FEN, "f3", "e5", "g4", "Qh4#"), True, True, False),
        ("back-rank mate", play("6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1", "Ra8#"), True, True, False),
        ("back rank with an escape", play("6k1/5p1p/8/8/8/8/8/R5K1 w - - 0 1", "Ra8+"), True, False, False),
        ("check", position("4k3/8/8/8/8/8/8/4R1K1 b - - 0 1"), True, False, False),
        ("K+Q v K stalemate", position("k7/8/1Q6/8/8/8/8/7K b - - 0 1"), False, False, True),
        ("K+Q v K stalemate, h8", position("7k/8/6Q1/8/8/8/8/6K1 b - - 0 1"), False, False, True),
        ("pawn stalemate", position("k7/P7/K7/8/8/8/8/8 b - - 0 1"), False, False, True),
    ],
    ids=lambda value: value if isinstance(value, str) else None,
)
def test_check_checkmate_and_stalemate(name, board, check, checkmate, stalemate):
    assert board.is_check() is check
    assert board.is_checkmate() is checkmate
    assert board.is_stalemate() is stalemate
    assert (board.legal_moves() == []) is (checkmate or stalemate)


# --- SAN ----------------------------------------------------------------------------------

TWO_KNIGHTS = "k7/8/8/8/8/8/8/1N3N1K w - - 0 1"
ROOKS_ON_A_FILE = "7k/8/8/R7/8/8/8/R5K1 w - - 0 1"
ROOKS_ON_A_RANK = "7k/8/8/8/8/8/8/R4RK1 w - - 0 1"
THREE_QUEENS = "1k6/8/8/8/4Q2Q/8/8/K6Q w - - 0 1"
CASTLING = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
EN_PASSANT = "4k3/8/8/3pP3/8/8/8/4K3 w - d6 0 1"
PROMOTION = "3r4/4P3/8/8/k7/8/8/4K3 w - - 0 1"
PINNED_KNIGHT = "4r2k/8/8/8/8/8/4N3/1N2K3 w - - 0 1"
BACK_RANK = "6k1/5ppp/8/8/8/8/8/R5K1 w - - 0 1"
KNIGHT_TAKES = "4k3/8/8/4p3/8/5N2/8/4K3 w - - 0 1"

SAN_CASES = [
    (INITIAL_FEN, "e2e4", "e4"),
    (INITIAL_FEN, "g1f3", "Nf3"),
    (TWO_KNIGHTS, "b1d2", "Nbd2"),
    (TWO_KNIGHTS, "f1d2", "Nfd2"),
    (TWO_KNIGHTS, "b1c3", "Nc3"),
    (PINNED_KNIGHT, "b1c3", "Nc3"),  # the other knight is pinned: no need to name the file
    (ROOKS_ON_A_FILE, "a1a3", "R1a3"),
    (ROOKS_ON_A_FILE, "a5a3", "R5a3"),
    (ROOKS_ON_A_RANK, "a1d1", "Rad1"),
    (ROOKS_ON_A_RANK, "f1d1", "Rfd1"),
    (THREE_QUEENS, "h4e1", "Qh4e1"),  # file and rank both shared: the whole square
    (THREE_QUEENS, "e4e1", "Qee1"),
    (THREE_QUEENS, "h1e1", "Q1e1"),
    (CASTLING, "e1g1", "O-O"),
    (CASTLING, "e1c1", "O-O-O"),
    (mirrored(CASTLING), "e8g8", "O-O"),
    (mirrored(CASTLING), "e8c8", "O-O-O"),
    (CASTLING, "a1a8", "Rxa8+"),
    (EN_PASSANT, "e5d6", "exd6"),
    (PROMOTION, "e7e8q", "e8=Q+"),
    (PROMOTION, "e7e8n", "e8=N"),
    (PROMOTION, "e7d8q", "exd8=Q"),
    (PROMOTION, "e7d8r", "exd8=R"),
    (KNIGHT_TAKES, "f3e5", "Nxe5"),
    (BACK_RANK, "a1a8", "Ra8#"),
    (BACK_RANK, "g1f2", "Kf2"),
]


@pytest.mark.parametrize(("fen", "move", "san"), SAN_CASES)
def test_san_writes_a_move(fen, move, san):
    assert position(fen).san(move_of(move)) == san


@pytest.mark.parametrize(("fen", "move", "san"), SAN_CASES)
def test_parse_san_reads_what_san_writes(fen, move, san):
    assert uci(position(fen).parse_san(san)) == move


def test_san_refuses_an_illegal_move():
    with pytest.raises(RuleError, match=r"1\. b1d2 is not a legal move here"):
        Position.initial().san(move_of("b1d2"))


@pytest.mark.parametrize(
    ("fen", "text", "move"),
    [
        (INITIAL_FEN, "Nf3+", "g1f3"),  # a check sign that is wrong is ignored
        (INITIAL_FEN, "e4!", "e2e4"),
        (INITIAL_FEN, "e4?!", "e2e4"),
        (INITIAL_FEN, "Nf3!?", "g1f3"),
        (INITIAL_FEN, "e4??", "e2e4"),
        (INITIAL_FEN, " e4 ", "e2e4"),
        (INITIAL_FEN, "Ng1f3", "g1f3"),
        (BACK_RANK, "Ra8#!", "a1a8"),
        (BACK_RANK, "Ra8+", "a1a8"),
        (CASTLING, "0-0", "e1g1"),
        (CASTLING, "0-0-0", "e1c1"),
        (CASTLING, "O-O+", "e1g1"),
        (mirrored(CASTLING), "0-0-0", "e8c8"),
        (PROMOTION, "e8Q", "e7e8q"),
        (PROMOTION, "e8Q+", "e7e8q"),
        (PROMOTION, "e8=q", "e7e8q"),
        (PROMOTION, "exd8N", "e7d8n"),
        (PROMOTION, "ed8=N", "e7d8n"),
        (EN_PASSANT, "exd6 e.p.", "e5d6"),
        (EN_PASSANT, "exd6e.p.", "e5d6"),
        (EN_PASSANT, "ed6", "e5d6"),
        (KNIGHT_TAKES, "Ne5", "f3e5"),  # a capture without its x
        (KNIGHT_TAKES, "Nf3xe5", "f3e5"),
        (TWO_KNIGHTS, "Nbd2", "b1d2"),
        (TWO_KNIGHTS, "N1c3", "b1c3"),  # more than needed is fine
        (THREE_QUEENS, "Qee1", "e4e1"),
    ],
)
def test_parse_san_tolerates(fen, text, move):
    assert uci(position(fen).parse_san(text)) == move


@pytest.mark.parametrize(
    ("fen", "text", "fragment"),
    [
        (INITIAL_FEN, "Nd7", "1. Nd7 is not a legal move here"),
        (
            "rnbqkbnr/pppppppp/8/8/8/5N2/PPPPPPPP/RNBQKB1R b KQkq - 1 12",
            "Nd7",
            "12... Nd7 is not a legal move here.",
        ),
        (INITIAL_FEN, "e5", "1. e5 is not a legal move here"),
        (INITIAL_FEN, "e4=Q", "1. e4=Q is not a legal move here"),
        (INITIAL_FEN, "O-O", "1. O-O is not a legal move here"),
        (INITIAL_FEN, "Zz9", "1. 'Zz9' is not a move in standard algebraic notation (SAN)"),
        (INITIAL_FEN, "nf3", "is not a move in standard algebraic notation"),
        (INITIAL_FEN, "", "is not a move in standard algebraic notation"),
        (CASTLING, "Kg1", "1. Kg1 is not a legal move here"),  # castling is written O-O
        (TWO_KNIGHTS, "Nd2", "1. Nd2 is ambiguous here: it could be Nbd2, Nfd2"),
        (THREE_QUEENS, "Qe1", "1. Qe1 is ambiguous here: it could be Q1e1, Qee1, Qh4e1"),
        (THREE_QUEENS, "Qhe1", "it could be Q1e1, Qh4e1"),
        (ROOKS_ON_A_FILE, "Ra3", "is ambiguous here: it could be R1a3, R5a3"),
        (PROMOTION, "e8", "1. e8 reaches the last rank: name the piece the pawn becomes, such as e8=Q"),
        (PROMOTION, "e8=K", "is not a move in standard algebraic notation"),
        (PINNED_KNIGHT, "Nec3", "1. Nec3 is not a legal move here"),
        (
            play(INITIAL_FEN, "f3", "e5", "g4", "Qh4#").fen(),
            "e4",
            "3. e4 cannot be played: the game is over (checkmate)",
        ),
        ("k7/8/1Q6/8/8/8/8/7K b - - 0 60", "Ka7", "60... Ka7 cannot be played: the game is over (stalemate)"),
    ],
)
def test_parse_san_refuses(fen, text, fragment):
    with pytest.raises(RuleError) as error:
        position(fen).parse_san(text)
    assert fragment in str(error.value)


def test_a_whole_game_in_san():
    moves = [
        "e4",
        "e5",
        "Nf3",
        "Nc6",
        "Bb5",
        "a6",
        "Ba4",
        "Nf6",
        "O-O",
        "Be7",
        "Re1",
        "b5",
        "Bb3",
        "d6",
        "c3",
        "O-O",
        "h3",
        "Nb8",
        "d4",
        "Nbd7",
    ]
    board = Position.initial()
    for text in moves:
        move = board.parse_san(text)
        assert board.san(move) == text
        board = board.push(move)
    assert board.fen() == "r1bq1rk1/2pnbppp/p2p1n2/1p2p3/3PP3/1BP2N1P/PP3PP1/RNBQR1K1 w - - 1 11"


# --- Material (FIDE Law 6.9) --------------------------------------------------------------

# White's material against black's, from white's side: (FEN, white can mate, black can mate).
MATERIAL = [
    ("4k3/8/8/8/8/8/8/4K3 w - - 0 1", False, False),  # K v K
    ("4k3/8/8/8/8/8/4P3/4K3 w - - 0 1", True, False),  # K+P v K
    ("4k3/8/8/8/8/8/8/R3K3 w - - 0 1", True, False),  # K+R v K
    ("4k3/8/8/8/8/8/8/3QK3 w - - 0 1", True, False),  # K+Q v K
    ("4k3/8/8/8/8/8/8/4KN2 w - - 0 1", False, False),  # K+N v K
    ("3qk3/8/8/8/8/8/8/4KN2 w - - 0 1", False, True),  # K+N v K+Q
    ("2q1k1q1/8/8/8/8/8/8/4KN2 w - - 0 1", False, True),  # K+N v K+Q+Q
    ("4k3/4p3/8/8/8/8/8/4KN2 w - - 0 1", True, True),  # K+N v K+P
    ("r3k3/8/8/8/8/8/8/4KN2 w - - 0 1", True, True),  # K+N v K+R
    ("2b1k3/8/8/8/8/8/8/4KN2 w - - 0 1", True, True),  # K+N v K+B
    ("4kn2/8/8/8/8/8/8/4KN2 w - - 0 1", True, True),  # K+N v K+N
    ("4k3/8/8/8/8/8/8/4KB2 w - - 0 1", False, False),  # K+B v K
    ("2b1k3/8/8/8/8/8/8/4KB2 w - - 0 1", False, False),  # K+B v K+B, both on light squares
    ("4kb2/8/8/8/8/8/8/4KB2 w - - 0 1", True, True),  # K+B v K+B on opposite colours
    ("4kn2/8/8/8/8/8/8/4KB2 w - - 0 1", True, True),  # K+B v K+N
    ("4k3/4p3/8/8/8/8/8/4KB2 w - - 0 1", True, True),  # K+B v K+P
    ("r3k3/8/8/8/8/8/8/4KB2 w - - 0 1", False, True),  # K+B v K+R: the rook can always block or capture
    ("3qk3/8/8/8/8/8/8/4KB2 w - - 0 1", False, True),  # K+B v K+Q
    ("4k3/8/8/8/8/3B4/8/4KB2 w - - 0 1", False, False),  # K+B+B, both light, v K
    ("2b1k3/8/8/8/8/3B4/8/4KB2 w - - 0 1", False, False),  # K+B+B v K+B, all light
    ("4kb2/8/8/8/8/3B4/8/4KB2 w - - 0 1", True, True),  # K+B+B (light) v K+B (dark)
    ("4k3/8/8/8/8/8/8/2B1KB2 w - - 0 1", True, False),  # K+B+B on both colours v K
    ("4k3/8/8/8/8/8/8/4KBN1 w - - 0 1", True, False),  # K+B+N v K
    ("4k3/8/8/8/8/8/8/1N2K1N1 w - - 0 1", True, False),  # K+N+N v K: a helpmate exists
    ("4k3/8/8/8/8/8/8/1NN1K1N1 w - - 0 1", True, False),  # K+N+N+N v K
]


@pytest.mark.parametrize(("fen", "white", "black"), MATERIAL)
def test_can_checkmate_judges_from_material(fen, white, black):
    board = position(fen)
    assert board.can_checkmate(Color.WHITE) is white
    assert board.can_checkmate(Color.BLACK) is black
    assert board.is_insufficient_material() is (not white and not black)


@pytest.mark.parametrize(("fen", "white", "black"), MATERIAL)
def test_can_checkmate_is_the_same_for_black(fen, white, black):
    board = position(mirrored(fen))
    assert board.can_checkmate(Color.BLACK) is white
    assert board.can_checkmate(Color.WHITE) is black
    assert board.is_insufficient_material() is (not white and not black)


def test_the_initial_position_has_sufficient_material():
    assert Position.initial().can_checkmate(Color.WHITE)
    assert Position.initial().can_checkmate(Color.BLACK)
    assert not Position.initial().is_insufficient_material()


def test_a_blocked_pawn_fortress_is_not_detected():
    # Dead in fact (no side can ever get through), but material alone says a mate is possible.
    board = position("4k3/8/8/p1p1p1p1/P1P1P1P1/8/8/4K3 w - - 0 1")
    assert board.can_checkmate(Color.WHITE)
    assert not board.is_insufficient_material()
