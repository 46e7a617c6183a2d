"""The rules of chess (FIDE Laws of Chess): positions, legal moves, SAN, and whether a
side can still checkmate.

A pure module: it imports nothing from Django and nothing beyond the standard library
(python-chess is deliberately not used: its GPL-3.0 licence would bind the project).
Errors in input — a bad FEN, an illegal or ambiguous move — are ``RuleError``s whose
English message says what is wrong and how to fix it (``games.text``).

**Squares** are the ints 0..63: a1 = 0, b1 = 1, …, h1 = 7, a2 = 8, …, h8 = 63, so a
square's file is ``square % 8`` and its rank ``square // 8``; ``square_name(28)`` is
"e4" and ``parse_square("e4")`` is 28.

**A position** is read from FEN (``Position.from_fen``, which validates it) or is the
initial position (``Position.initial()``); ``fen()`` writes it back. Positions are
**immutable**: ``push(move)`` returns a new Position and leaves the old one as it was,
so a game's positions can be kept side by side. A position's legal moves are worked out
once, when first asked for, and kept.

**Moves** name their from and to squares and, for a promotion, the piece promoted to.
Castling is the king's move of two squares (e1g1, e1c1, e8g8, e8c8); en passant is the
pawn's diagonal move to the square passed over. ``san(move)`` writes a move in standard
algebraic notation and ``parse_san(text)`` reads one.

Decided here, where the Laws leave notation open:

- After every double pawn move the FEN's en passant field names the square passed over,
  whether or not a pawn can capture there (the FEN standard of the PGN specification).
- ``parse_san`` ignores the capture sign and the check and mate signs: "Ne5" finds a
  knight's capture on e5, "Nxe5" a knight's move to an empty e5, and "Qh5+" is read
  whether or not it gives check. A castling must be written O-O / O-O-O (or with
  zeros), not as a king's move.
- Two positions are ``==`` when all six FEN fields are equal, clocks included: that is not
  the "same position" of the repetition rule (FIDE Law 9.2), which a caller must compare
  on placement, side to move, castling rights and the en passant captures possible.
- ``can_checkmate`` judges from material only (FIDE Law 6.9 on a flag fall): see its
  docstring for the rules and what it does not detect.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from functools import cached_property

from games.text import RuleError, Text, gettext_noop

FILES = "abcdefgh"
RANKS = "12345678"
INITIAL_FEN = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
MAX_PIECES_PER_SIDE = 16
MAX_PAWNS_PER_SIDE = 8


class Color(StrEnum):
    """A side, written as in FEN: "w" or "b"."""

    WHITE = "w"
    BLACK = "b"

    @property
    def other(self) -> Color:
        return Color.BLACK if self is Color.WHITE else Color.WHITE


class PieceKind(StrEnum):
    """A kind of piece, written as its lowercase FEN letter."""

    PAWN = "p"
    KNIGHT = "n"
    BISHOP = "b"
    ROOK = "r"
    QUEEN = "q"
    KING = "k"


@dataclass(frozen=True, slots=True)
class Piece:
    """A piece of one colour."""

    color: Color
    kind: PieceKind

    @property
    def symbol(self) -> str:
        """The FEN letter: uppercase for white, lowercase for black."""
        return self.kind.value.upper() if self.color is Color.WHITE else self.kind.value

    @classmethod
    def from_symbol(cls, symbol: str) -> Piece:
        """The piece of a FEN letter ("N" is a white knight, "q" a black queen)."""
        if len(symbol) != 1 or symbol.lower() not in "pnbrqk":
            raise RuleError(
                gettext_noop("%(symbol).40r is not a piece; use one of pnbrqk (black) or PNBRQK (white)."),
                symbol=symbol,
            )
        return cls(Color.WHITE if symbol.isupper() else Color.BLACK, PieceKind(symbol.lower()))


@dataclass(frozen=True, slots=True)
class Move:
    """A move from one square to another; ``promotion`` is the piece a pawn becomes."""

    from_square: int
    to_square: int
    promotion: PieceKind | None = None

    def uci(self) -> str:
        """The move in long algebraic form, as UCI engines write it: "e2e4", "e7e8q"."""
        promotion = self.promotion.value if self.promotion else ""
        return square_name(self.from_square) + square_name(self.to_square) + promotion

    def __str__(self) -> str:
        return self.uci()


def square_name(square: int) -> str:
    """The name of a square: ``square_name(0)`` is "a1", ``square_name(28)`` is "e4"."""
    if not 0 <= square < 64:
        raise ValueError(f"A square is 0..63, not {square!r}.")
    return FILES[square % 8] + RANKS[square // 8]


def parse_square(name: str) -> int:
    """The square of a name: ``parse_square("e4")`` is 28."""
    if len(name) != 2 or name[0] not in FILES or name[1] not in RANKS:
        raise RuleError(
            gettext_noop("%(name).40r is not a square; write a file a-h and a rank 1-8, such as e4."), name=name
        )
    return RANKS.index(name[1]) * 8 + FILES.index(name[0])


# --- Tables -------------------------------------------------------------------------------


def _targets(steps: tuple[tuple[int, int], ...]) -> tuple[tuple[int, ...], ...]:
    """For every square, the squares one step (file, rank) away that are on the board."""
    table = []
    for square in range(64):
        file, rank = square % 8, square // 8
        table.append(
            tuple((rank + dr) * 8 + file + df for df, dr in steps if 0 <= file + df < 8 and 0 <= rank + dr < 8)
        )
    return tuple(table)


def _rays(directions: tuple[tuple[int, int], ...]) -> tuple[tuple[tuple[int, ...], ...], ...]:
    """For every square, the lines of squares leading away from it, nearest first."""
    table = []
    for square in range(64):
        rays = []
        for df, dr in directions:
            file, rank = square % 8 + df, square // 8 + dr
            ray = []
            while 0 <= file < 8 and 0 <= rank < 8:
                ray.append(rank * 8 + file)
                file, rank = file + df, rank + dr
            if ray:
                rays.append(tuple(ray))
        table.append(tuple(rays))
    return tuple(table)


_KNIGHT = _targets(((1, 2), (2, 1), (2, -1), (1, -2), (-1, -2), (-2, -1), (-2, 1), (-1, 2)))
_KING = _targets(((1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0), (-1, -1), (0, -1), (1, -1)))
_ROOK_RAYS = _rays(((1, 0), (-1, 0), (0, 1), (0, -1)))
_BISHOP_RAYS = _rays(((1, 1), (1, -1), (-1, 1), (-1, -1)))
# The squares a pawn on a square attacks, by colour (True: white).
_PAWN_ATTACKS = {True: _targets(((-1, 1), (1, 1))), False: _targets(((-1, -1), (1, -1)))}
_PROMOTIONS = (PieceKind.QUEEN, PieceKind.ROOK, PieceKind.BISHOP, PieceKind.KNIGHT)
# Castling rights lost when a piece moves from, or is captured on, a square.
_RIGHTS_LOST = {4: "KQ", 0: "Q", 7: "K", 60: "kq", 56: "q", 63: "k"}
# Castling right -> (king's square, rook's square).
_CASTLING_HOMES = {"K": (4, 7), "Q": (4, 0), "k": (60, 63), "q": (60, 56)}

_COLOR_NAMES = {Color.WHITE: Text(gettext_noop("white")), Color.BLACK: Text(gettext_noop("black"))}
_CASTLING_FIELD = re.compile(r"K?Q?k?q?")
_COUNTER = re.compile(r"[0-9]+")
_SAN = re.compile(r"([NBRQK])?([a-h])?([1-8])?x?([a-h][1-8])(?:=?([NBRQnbrq]))?")
_ANNOTATIONS = "+#!?"


def _attacked(board: tuple[str, ...] | list[str], square: int, by_white: bool) -> bool:
    """Whether a piece of the given colour attacks ``square``."""
    if by_white:
        pawn, knight, bishop, rook, queen, king = "PNBRQK"
    else:
        pawn, knight, bishop, rook, queen, king = "pnbrqk"
    for target in _KNIGHT[square]:
        if board[target] == knight:
            return True
    # A white pawn attacks the square from where a black pawn on it would attack, and back.
    for target in _PAWN_ATTACKS[not by_white][square]:
        if board[target] == pawn:
            return True
    for target in _KING[square]:
        if board[target] == king:
            return True
    for ray in _ROOK_RAYS[square]:
        for target in ray:
            piece = board[target]
            if piece:
                if piece in (rook, queen):
                    return True
                break
    for ray in _BISHOP_RAYS[square]:
        for target in ray:
            piece = board[target]
            if piece:
                if piece in (bishop, queen):
                    return True
                break
    return False


def _board_after(board: tuple[str, ...], move: Move, en_passant: int | None) -> list[str]:
    """The board after a move (pieces only: not the side to move, rights or clocks)."""
    after = list(board)
    origin, target = move.from_square, move.to_square
    piece = after[origin]
    after[origin] = ""
    if piece == "P" or piece == "p":
        if target == en_passant and (target - origin) % 8:
            after[target - 8 if piece == "P" else target + 8] = ""
        if move.promotion:
            piece = move.promotion.value.upper() if piece == "P" else move.promotion.value
    elif (piece == "K" or piece == "k") and abs(target - origin) == 2:
        rook_from, rook_to = (origin + 3, origin + 1) if target > origin else (origin - 4, origin - 1)
        after[rook_to] = after[rook_from]
        after[rook_from] = ""
    after[target] = piece
    return after


def _square_color(square: int) -> int:
    """0 for a dark square (a1), 1 for a light one (h1)."""
    return (square % 8 + square // 8) % 2


# --- Positions ----------------------------------------------------------------------------


@dataclass(frozen=True, repr=False)
class Position:
    """A chess position: where the pieces stand, who is to move, the castling rights, the
    en passant square, the halfmove clock and the fullmove number.

    ``board`` holds 64 FEN letters ("" for an empty square), a1 first. Build positions
    with ``from_fen`` (which validates) or ``initial``; the constructor trusts its input.
    """

    board: tuple[str, ...]
    turn: Color
    castling: str = ""
    en_passant: int | None = None
    halfmove_clock: int = 0
    fullmove_number: int = 1

    # -- Reading and writing FEN --

    @classmethod
    def initial(cls) -> Position:
        """The position at the start of a game."""
        return cls.from_fen(INITIAL_FEN)

    @classmethod
    def from_fen(cls, fen: str) -> Position:
        """Reads and validates a FEN. The halfmove clock and fullmove number may be left
        out ("0 1"). Raises RuleError saying what is wrong."""
        fields = fen.split()
        if len(fields) == 4:
            fields += ["0", "1"]
        if len(fields) != 6:
            raise RuleError(
                gettext_noop(
                    "The FEN has %(count)d fields; it needs 6 separated by spaces: the placement, the side "
                    "to move, castling, en passant, the halfmove clock and the fullmove number (the last two "
                    "may be left out)."
                ),
                count=len(fields),
            )
        placement, turn_text, castling_text, en_passant_text, halfmove_text, fullmove_text = fields
        board = _read_placement(placement)

        if turn_text not in ("w", "b"):
            raise RuleError(
                gettext_noop("The side to move is %(text).40r; write w (white) or b (black)."), text=turn_text
            )
        turn = Color(turn_text)

        if castling_text != "-" and not _CASTLING_FIELD.fullmatch(castling_text):
            raise RuleError(
                gettext_noop(
                    "The castling field is %(text).40r; write - or some of KQkq in that order (such as KQkq, Kq or k)."
                ),
                text=castling_text,
            )
        castling = "" if castling_text == "-" else castling_text

        en_passant = None
        if en_passant_text != "-":
            if len(en_passant_text) != 2 or en_passant_text[0] not in FILES or en_passant_text[1] not in RANKS:
                raise RuleError(
                    gettext_noop("The en passant field is %(text).40r; write - or a square such as e3 or d6."),
                    text=en_passant_text,
                )
            en_passant = parse_square(en_passant_text)

        if not _COUNTER.fullmatch(halfmove_text):
            raise RuleError(
                gettext_noop("The halfmove clock is %(text).40r; write a whole number, 0 or more."),
                text=halfmove_text,
            )
        if not _COUNTER.fullmatch(fullmove_text) or int(fullmove_text) < 1:
            raise RuleError(
                gettext_noop("The fullmove number is %(text).40r; write a whole number, 1 or more."),
                text=fullmove_text,
            )

        position = cls(board, turn, castling, en_passant, int(halfmove_text), int(fullmove_text))
        position._validate()
        return position

    def _validate(self) -> None:
        """The checks that need the whole position."""
        board = self.board
        for color, king in ((Color.WHITE, "K"), (Color.BLACK, "k")):
            count = board.count(king)
            if count == 0:
                raise RuleError(
                    gettext_noop("There is no %(color)s king (%(letter)s); each side needs exactly one king."),
                    color=_COLOR_NAMES[color],
                    letter=king,
                )
            if count > 1:
                raise RuleError(
                    gettext_noop("There are %(count)d %(color)s kings; each side needs exactly one king."),
                    count=count,
                    color=_COLOR_NAMES[color],
                )
        for square in (*range(8), *range(56, 64)):
            if board[square] in ("P", "p"):
                raise RuleError(
                    gettext_noop(
                        "There is a pawn on %(square)s; pawns never stand on the 1st or 8th rank (a pawn "
                        "reaching the last rank is promoted)."
                    ),
                    square=square_name(square),
                )
        for color, pieces, pawn in ((Color.WHITE, "PNBRQK", "P"), (Color.BLACK, "pnbrqk", "p")):
            count = sum(board.count(piece) for piece in pieces)
            if count > MAX_PIECES_PER_SIDE:
                raise RuleError(
                    gettext_noop(
                        "There are %(count)d %(color)s pieces; a side has at most %(most)d (its king included)."
                    ),
                    count=count,
                    color=_COLOR_NAMES[color],
                    most=MAX_PIECES_PER_SIDE,
                )
            count = board.count(pawn)
            if count > MAX_PAWNS_PER_SIDE:
                raise RuleError(
                    gettext_noop("There are %(count)d %(color)s pawns; a side has at most %(most)d."),
                    count=count,
                    color=_COLOR_NAMES[color],
                    most=MAX_PAWNS_PER_SIDE,
                )

        for right in self.castling:
            king_square, rook_square = _CASTLING_HOMES[right]
            white = right.isupper()
            if board[king_square] != ("K" if white else "k") or board[rook_square] != ("R" if white else "r"):
                raise RuleError(
                    gettext_noop(
                        "The castling right %(right)s needs the %(color)s king on %(king)s and a %(color)s rook "
                        "on %(rook)s; fix the placement or remove %(right)s from the castling field."
                    ),
                    right=right,
                    color=_COLOR_NAMES[Color.WHITE if white else Color.BLACK],
                    king=square_name(king_square),
                    rook=square_name(rook_square),
                )

        if self.en_passant is not None:
            self._validate_en_passant(self.en_passant)

        not_to_move = self.turn.other
        if self._in_check(not_to_move):
            raise RuleError(
                gettext_noop(
                    "The side not to move (%(color)s) is in check, which cannot happen in a game; fix the side "
                    "to move or the placement."
                ),
                color=_COLOR_NAMES[not_to_move],
            )

    def _validate_en_passant(self, square: int) -> None:
        white_to_move = self.turn is Color.WHITE
        rank = square // 8
        if white_to_move and rank != 5:
            raise RuleError(
                gettext_noop(
                    "The en passant square is %(square)s; with white to move it must be on rank 6 (behind the "
                    "black pawn that has just moved two squares), or write -."
                ),
                square=square_name(square),
            )
        if not white_to_move and rank != 2:
            raise RuleError(
                gettext_noop(
                    "The en passant square is %(square)s; with black to move it must be on rank 3 (behind the "
                    "white pawn that has just moved two squares), or write -."
                ),
                square=square_name(square),
            )
        step = -8 if white_to_move else 8  # towards the pawn that has just moved
        pawn = "p" if white_to_move else "P"
        board = self.board
        if board[square + step] != pawn or board[square] or board[square - step]:
            raise RuleError(
                gettext_noop(
                    "The en passant square is %(square)s, so a %(color)s pawn must have just moved from "
                    "%(origin)s to %(pawn)s: there must be a %(color)s pawn on %(pawn)s and nothing on "
                    "%(square)s or %(origin)s. Fix the placement, or write - for en passant."
                ),
                square=square_name(square),
                color=_COLOR_NAMES[self.turn.other],
                pawn=square_name(square + step),
                origin=square_name(square - step),
            )

    def fen(self) -> str:
        """The position in FEN (normalised: runs of empty squares as one digit)."""
        ranks = []
        for rank in range(7, -1, -1):
            text, empty = "", 0
            for piece in self.board[rank * 8 : rank * 8 + 8]:
                if piece:
                    if empty:
                        text += str(empty)
                        empty = 0
                    text += piece
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        en_passant = "-" if self.en_passant is None else square_name(self.en_passant)
        return (
            f"{'/'.join(ranks)} {self.turn.value} {self.castling or '-'} {en_passant} "
            f"{self.halfmove_clock} {self.fullmove_number}"
        )

    def __repr__(self) -> str:
        return f"Position.from_fen({self.fen()!r})"

    def piece_at(self, square: int) -> Piece | None:
        """The piece on a square, or None."""
        symbol = self.board[square]
        return Piece.from_symbol(symbol) if symbol else None

    # -- Check and legal moves --

    def _in_check(self, color: Color) -> bool:
        white = color is Color.WHITE
        return _attacked(self.board, self.board.index("K" if white else "k"), not white)

    def is_check(self) -> bool:
        """Whether the side to move is in check."""
        return self._in_check(self.turn)

    def is_checkmate(self) -> bool:
        """Whether the side to move is checkmated."""
        return not self._legal and self.is_check()

    def is_stalemate(self) -> bool:
        """Whether the side to move is stalemated (not in check, no legal move)."""
        return not self._legal and not self.is_check()

    def legal_moves(self) -> list[Move]:
        """Every legal move of the side to move."""
        return list(self._legal)

    def is_legal(self, move: Move) -> bool:
        """Whether a move is legal here."""
        return move in self._legal_set

    @cached_property
    def _legal_set(self) -> frozenset[Move]:
        return frozenset(self._legal)

    @cached_property
    def _legal(self) -> tuple[Move, ...]:
        board = self.board
        white = self.turn is Color.WHITE
        king = board.index("K" if white else "k")
        legal = []
        for move in self._pseudo_legal_moves(king):
            after = _board_after(board, move, self.en_passant)
            if not _attacked(after, move.to_square if move.from_square == king else king, not white):
                legal.append(move)
        return tuple(legal)

    def _pseudo_legal_moves(self, king: int) -> list[Move]:
        """The moves of the side to move, some of which may leave its king in check
        (castling is already checked for moving out of or through check)."""
        board = self.board
        white = self.turn is Color.WHITE
        moves: list[Move] = []
        add = moves.append
        forward, start_rank, last_rank = (8, 1, 7) if white else (-8, 6, 0)
        for origin, piece in enumerate(board):
            if not piece or piece.isupper() != white:
                continue
            kind = piece.lower()
            if kind == "p":
                one = origin + forward
                if not board[one]:
                    if one // 8 == last_rank:
                        for promotion in _PROMOTIONS:
                            add(Move(origin, one, promotion))
                    else:
                        add(Move(origin, one))
                        if origin // 8 == start_rank and not board[one + forward]:
                            add(Move(origin, one + forward))
                for target in _PAWN_ATTACKS[white][origin]:
                    victim = board[target]
                    if victim and victim.isupper() != white:
                        if target // 8 == last_rank:
                            for promotion in _PROMOTIONS:
                                add(Move(origin, target, promotion))
                        else:
                            add(Move(origin, target))
                    elif target == self.en_passant:
                        add(Move(origin, target))
            elif kind == "n" or kind == "k":
                for target in (_KNIGHT if kind == "n" else _KING)[origin]:
                    victim = board[target]
                    if not victim or victim.isupper() != white:
                        add(Move(origin, target))
            else:
                rays = (
                    _ROOK_RAYS[origin]
                    if kind == "r"
                    else _BISHOP_RAYS[origin]
                    if kind == "b"
                    else _ROOK_RAYS[origin] + _BISHOP_RAYS[origin]
                )
                for ray in rays:
                    for target in ray:
                        victim = board[target]
                        if not victim:
                            add(Move(origin, target))
                        else:
                            if victim.isupper() != white:
                                add(Move(origin, target))
                            break
        if self.castling:
            self._add_castlings(king, add)
        return moves

    def _add_castlings(self, king: int, add: Callable[[Move], None]) -> None:
        board = self.board
        white = self.turn is Color.WHITE
        short, long, base = ("K", "Q", 0) if white else ("k", "q", 56)
        enemy = not white
        if short not in self.castling and long not in self.castling:
            return
        if king != base + 4 or _attacked(board, king, enemy):
            return
        rook = "R" if white else "r"
        if (
            short in self.castling
            and board[base + 7] == rook
            and not board[base + 5]
            and not board[base + 6]
            and not _attacked(board, base + 5, enemy)
        ):
            add(Move(king, base + 6))  # the king's safety on g1/g8 is checked with the other moves
        if (
            long in self.castling
            and board[base] == rook
            and not board[base + 1]
            and not board[base + 2]
            and not board[base + 3]
            and not _attacked(board, base + 3, enemy)
        ):
            add(Move(king, base + 2))

    # -- Playing moves --

    def push(self, move: Move) -> Position:
        """The position after a legal move (a new Position; this one is unchanged).
        Raises RuleError if the move is not legal here."""
        if move not in self._legal_set:
            raise RuleError(
                gettext_noop("%(number)s %(move)s is not a legal move here."),
                number=self._move_number(),
                move=move.uci(),
            )
        return self._play(move)

    def _play(self, move: Move) -> Position:
        """The position after a move known to be legal."""
        board = self.board
        origin, target = move.from_square, move.to_square
        piece = board[origin]
        pawn = piece == "P" or piece == "p"
        capture = bool(board[target]) or (pawn and target == self.en_passant)
        castling = self.castling
        if castling and (origin in _RIGHTS_LOST or target in _RIGHTS_LOST):
            lost = _RIGHTS_LOST.get(origin, "") + _RIGHTS_LOST.get(target, "")
            castling = "".join(right for right in castling if right not in lost)
        return Position(
            tuple(_board_after(board, move, self.en_passant)),
            self.turn.other,
            castling,
            (origin + target) // 2 if pawn and abs(target - origin) == 16 else None,
            0 if pawn or capture else self.halfmove_clock + 1,
            self.fullmove_number + (self.turn is Color.BLACK),
        )

    def perft(self, depth: int) -> int:
        """The number of move sequences of ``depth`` moves (a test of move generation)."""
        if depth <= 0:
            return 1
        if depth == 1:
            return len(self._legal)
        return sum(self._play(move).perft(depth - 1) for move in self._legal)

    # -- Standard algebraic notation --

    def _move_number(self) -> str:
        """The move number as written before a move: "12." (white to move), "12..." (black)."""
        return f"{self.fullmove_number}{'.' if self.turn is Color.WHITE else '...'}"

    def san(self, move: Move) -> str:
        """A legal move in standard algebraic notation: "e4", "Nbd7", "exd6", "e8=Q+",
        "O-O", "Qh4#". Raises RuleError if the move is not legal here."""
        if move not in self._legal_set:
            raise RuleError(
                gettext_noop("%(number)s %(move)s is not a legal move here."),
                number=self._move_number(),
                move=move.uci(),
            )
        board = self.board
        origin, target = move.from_square, move.to_square
        piece = board[origin]
        kind = piece.lower()
        if kind == "k" and abs(target - origin) == 2:
            text = "O-O" if target > origin else "O-O-O"
        elif kind == "p":
            capture = bool(board[target]) or target == self.en_passant
            text = (FILES[origin % 8] + "x" if capture else "") + square_name(target)
            if move.promotion:
                text += "=" + move.promotion.value.upper()
        else:
            others = [
                other.from_square
                for other in self._legal
                if other.to_square == target and other.from_square != origin and board[other.from_square] == piece
            ]
            qualifier = ""
            if others:
                if all(other % 8 != origin % 8 for other in others):
                    qualifier = FILES[origin % 8]
                elif all(other // 8 != origin // 8 for other in others):
                    qualifier = RANKS[origin // 8]
                else:
                    qualifier = square_name(origin)
            text = kind.upper() + qualifier + ("x" if board[target] else "") + square_name(target)
        after = self._play(move)
        if after.is_checkmate():
            text += "#"
        elif after.is_check():
            text += "+"
        return text

    def parse_san(self, text: str) -> Move:
        """The legal move a SAN names. Tolerates check, mate and annotation signs (+ # ! ?),
        "e.p.", castling with zeros (0-0, 0-0-0) and a promotion without "=" (e8Q).
        Raises RuleError if the text is not SAN, or names no legal move or several."""
        written = text.strip()[:40]
        core = written
        if core.endswith("e.p."):
            core = core[:-4].rstrip()
        core = core.rstrip(_ANNOTATIONS)
        if not self._legal:
            reason = gettext_noop("checkmate") if self.is_check() else gettext_noop("stalemate")
            raise RuleError(
                gettext_noop("%(number)s %(move)s cannot be played: the game is over (%(reason)s)."),
                number=self._move_number(),
                move=written,
                reason=Text(reason),
            )
        if core in ("O-O", "0-0", "O-O-O", "0-0-0"):
            base = 0 if self.turn is Color.WHITE else 56
            wanted = Move(base + 4, base + 6 if len(core) == 3 else base + 2)
            if self.board[base + 4] in ("K", "k") and wanted in self._legal_set:
                return wanted
            raise RuleError(
                gettext_noop("%(number)s %(move)s is not a legal move here."),
                number=self._move_number(),
                move=written,
            )
        match = _SAN.fullmatch(core)
        if not match:
            raise RuleError(
                gettext_noop(
                    "%(number)s %(move).40r is not a move in standard algebraic notation (SAN), such as e4, "
                    "Nf3, exd5, O-O or e8=Q."
                ),
                number=self._move_number(),
                move=written,
            )
        piece_letter, file_text, rank_text, target_text, promotion_text = match.groups()
        kind = piece_letter.lower() if piece_letter else "p"
        target = parse_square(target_text)
        from_file = FILES.index(file_text) if file_text else None
        from_rank = RANKS.index(rank_text) if rank_text else None
        promotion = PieceKind(promotion_text.lower()) if promotion_text else None
        if kind == "p" and from_file is None:
            from_file = target % 8  # a pawn's move without a file stays on its file
        board = self.board
        candidates = [
            move
            for move in self._legal
            if move.to_square == target
            and board[move.from_square].lower() == kind
            and (from_file is None or move.from_square % 8 == from_file)
            and (from_rank is None or move.from_square // 8 == from_rank)
            and not (kind == "k" and abs(move.to_square - move.from_square) == 2)
        ]
        if kind == "p" and promotion is None and any(move.promotion for move in candidates):
            raise RuleError(
                gettext_noop(
                    "%(number)s %(move)s reaches the last rank: name the piece the pawn becomes, such as %(example)s."
                ),
                number=self._move_number(),
                move=written,
                example=core + "=Q",
            )
        candidates = [move for move in candidates if move.promotion == promotion]
        if not candidates:
            raise RuleError(
                gettext_noop("%(number)s %(move)s is not a legal move here."),
                number=self._move_number(),
                move=written,
            )
        if len(candidates) > 1:
            raise RuleError(
                gettext_noop(
                    "%(number)s %(move)s is ambiguous here: it could be %(choices)s. Add the file or rank the "
                    "piece comes from."
                ),
                number=self._move_number(),
                move=written,
                choices=", ".join(self.san(move) for move in candidates),
            )
        return candidates[0]

    # -- Material --

    def can_checkmate(self, color: Color) -> bool:
        """Whether ``color`` could checkmate the opponent by some series of legal moves,
        judged from the material on the board (FIDE Law 6.9: a player whose flag falls
        loses, unless the opponent cannot checkmate by any series of legal moves, in which
        case the game is drawn). The opponent's moves may help: a helpmate counts.

        - A pawn, rook or queen can mate: True.
        - A bare king cannot: False.
        - King and one knight (and nothing else) can mate only against a king whose own
          piece blocks its flight: True if the opponent has a pawn, knight, bishop or rook;
          False against a bare king or king and queens (a queen next to its king can
          always capture the knight or escape).
        - King and bishops only, all on squares of one colour: False unless the opponent has
          a pawn, a knight or a bishop on the other square colour (something that can block
          a flight square the bishops do not reach); bishops on both colours: True.
        - Any other two or more minor pieces (bishop and knight, two knights, ...): True,
          even two knights against a bare king (a mate exists if the opponent helps).

        Not detected: positions that are dead for reasons other than material, such as
        blocked pawn chains or other fortresses where no mate is possible. Those are left
        to the arbiter.
        """
        white = color is Color.WHITE
        board = self.board
        own = [piece.lower() for piece in board if piece and piece.isupper() == white]
        if "p" in own or "r" in own or "q" in own:
            return True
        knights = own.count("n")
        bishop = "B" if white else "b"
        bishop_colors = {_square_color(square) for square, piece in enumerate(board) if piece == bishop}
        if knights == 0 and not bishop_colors:
            return False
        opponent = [(square, piece.lower()) for square, piece in enumerate(board) if piece and piece.isupper() != white]
        if knights == 1 and not bishop_colors:
            return any(kind in ("p", "n", "b", "r") for _, kind in opponent)
        if knights == 0 and len(bishop_colors) == 1:
            (bishops_color,) = bishop_colors
            return any(
                kind in ("p", "n") or (kind == "b" and _square_color(square) != bishops_color)
                for square, kind in opponent
            )
        return True

    def is_insufficient_material(self) -> bool:
        """Whether neither side can checkmate, judged from material (see ``can_checkmate``)."""
        return not self.can_checkmate(Color.WHITE) and not self.can_checkmate(Color.BLACK)


def _read_placement(placement: str) -> tuple[str, ...]:
    """The 64 squares (a1 first) of a FEN's placement field; checks only its shape."""
    ranks = placement.split("/")
    if len(ranks) != 8:
        raise RuleError(
            gettext_noop("The FEN's placement has %(count)d ranks; it needs 8 separated by /."), count=len(ranks)
        )
    board: list[str] = [""] * 64
    for index, rank_text in enumerate(ranks):
        rank = 7 - index
        squares: list[str] = []
        for char in rank_text:
            if char in "12345678":
                squares += [""] * int(char)
            elif char in "pnbrqkPNBRQK":
                squares.append(char)
            else:
                raise RuleError(
                    gettext_noop(
                        "Rank %(rank)d of the FEN (%(text).40r) has the character %(char).40r; use only the "
                        "pieces pnbrqk (black) and PNBRQK (white) and the digits 1 to 8 for empty squares."
                    ),
                    rank=rank + 1,
                    text=rank_text,
                    char=char,
                )
        if len(squares) != 8:
            raise RuleError(
                gettext_noop(
                    "Rank %(rank)d of the FEN (%(text).40r) covers %(count)d squares; it needs 8 (a letter per "
                    "piece, a digit per run of empty squares)."
                ),
                rank=rank + 1,
                text=rank_text,
                count=len(squares),
            )
        board[rank * 8 : rank * 8 + 8] = squares
    return tuple(board)
