"""The 15×15 board: squares, their names, the premium squares, and positions of words.

A square is ``(row, column)``, both 0–14; its name is the column letter A–O then the
row number 1–15 ("H8" is ``(7, 7)``, the centre). A position follows the GCG
convention (scrabble-czech-set.md): ``8D`` (row number first) is a word across from
D8, ``D8`` (column letter first) a word down from D8. The Czech written form with a
direction (``H8 vodorovně`` / ``H8 svisle``) is read too, but ``Position.gcg`` is the
one form stored.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from enum import StrEnum

from games.scrabble.errors import PlacementError
from games.text import gettext_noop

SIZE = 15
Square = tuple[int, int]
CENTER: Square = (7, 7)
COLUMNS = "ABCDEFGHIJKLMNO"


class Premium(StrEnum):
    DL = "DL"  # double letter
    TL = "TL"  # triple letter
    DW = "DW"  # double word
    TW = "TW"  # triple word

    @property
    def letter_multiplier(self) -> int:
        return {Premium.DL: 2, Premium.TL: 3}.get(self, 1)

    @property
    def word_multiplier(self) -> int:
        return {Premium.DW: 2, Premium.TW: 3}.get(self, 1)


def on_board(square: Square) -> bool:
    row, col = square
    return 0 <= row < SIZE and 0 <= col < SIZE


def square_name(square: Square) -> str:
    """``(7, 7)`` -> ``"H8"``."""
    if not on_board(square):
        raise PlacementError(
            gettext_noop("Row %(row)d, column %(column)d is off the board."), row=square[0] + 1, column=square[1] + 1
        )
    return f"{COLUMNS[square[1]]}{square[0] + 1}"


_SQUARE = re.compile(r"([^\W\d_])\s*(\d{1,2})")
_ACROSS = re.compile(r"(\d{1,2})\s*([^\W\d_])")


def parse_square(text: str) -> Square:
    """``"H8"`` (or ``" h8 "``) -> ``(7, 7)``."""
    cleaned = _clean(text)
    match = _SQUARE.fullmatch(cleaned)
    if match is None:
        raise PlacementError(
            gettext_noop("%(text).30s is not a square: write its column letter A–O and row number 1–15, e.g. H8."),
            text=cleaned,
        )
    return _square(match.group(1), match.group(2), cleaned)


def _square(column: str, row: str, text: str) -> Square:
    column = column.upper()
    square = (int(row) - 1, COLUMNS.index(column) if column in COLUMNS else SIZE)
    if not on_board(square):
        raise PlacementError(
            gettext_noop("%(text).30s is off the board: the columns are A–O and the rows 1–15."), text=text
        )
    return square


@dataclass(frozen=True)
class Position:
    """Where a word starts and which way it reads (across: left to right; down: top to
    bottom)."""

    row: int
    col: int
    across: bool

    def __post_init__(self) -> None:
        if not on_board((self.row, self.col)):
            raise PlacementError(
                gettext_noop("Row %(row)d, column %(column)d is off the board."), row=self.row + 1, column=self.col + 1
            )

    @property
    def square(self) -> Square:
        return (self.row, self.col)

    @property
    def step(self) -> Square:
        """The move from one letter of the word to the next."""
        return (0, 1) if self.across else (1, 0)

    def square_at(self, index: int) -> Square:
        """The square of the word's letter number ``index`` (0 = the first)."""
        return (self.row + index * self.step[0], self.col + index * self.step[1])

    @property
    def room(self) -> int:
        """How many squares there are from the start to the edge of the board."""
        return SIZE - (self.col if self.across else self.row)

    @property
    def gcg(self) -> str:
        """``8D`` for across from D8, ``D8`` for down from D8."""
        column, row = COLUMNS[self.col], self.row + 1
        return f"{row}{column}" if self.across else f"{column}{row}"

    def __str__(self) -> str:
        return self.gcg


ACROSS_WORDS = frozenset({"vodorovne", "across"})
DOWN_WORDS = frozenset({"svisle", "down"})


def parse_position(text: str) -> Position:
    """Read a position: GCG ``8D`` (across) or ``D8`` (down), any case, spaces around;
    or a square and a direction, ``H8 vodorovně`` / ``H8 svisle`` (accents optional,
    the square written either way round, ``across``/``down`` also understood)."""
    cleaned = _clean(text)
    if not cleaned:
        raise PlacementError(
            gettext_noop("Type the word's position: 8D for a word across from D8, D8 for a word down from D8.")
        )
    match = _ACROSS.fullmatch(cleaned)
    if match is not None:
        row, col = _square(match.group(2), match.group(1), cleaned)
        return Position(row, col, True)
    match = _SQUARE.fullmatch(cleaned)
    if match is not None:
        row, col = _square(match.group(1), match.group(2), cleaned)
        return Position(row, col, False)
    coordinates, _, direction = cleaned.rpartition(" ")
    if coordinates and not any(char.isdigit() for char in direction):
        across = _direction(direction)
        row, col = _parse_either_way(coordinates, cleaned)
        return Position(row, col, across)
    raise PlacementError(
        gettext_noop(
            "%(text).30s is not a position: write 8D for a word across from D8, D8 for a word down from D8 "
            "(or H8 vodorovně, H8 svisle)."
        ),
        text=cleaned,
    )


def _parse_either_way(coordinates: str, text: str) -> Square:
    match = _SQUARE.fullmatch(coordinates)
    if match is not None:
        return _square(match.group(1), match.group(2), text)
    match = _ACROSS.fullmatch(coordinates)
    if match is not None:
        return _square(match.group(2), match.group(1), text)
    raise PlacementError(
        gettext_noop("%(text).30s is not a square: write its column letter A–O and row number 1–15, e.g. H8."),
        text=coordinates,
    )


def _direction(word: str) -> bool:
    plain = "".join(c for c in unicodedata.normalize("NFD", word.casefold()) if not unicodedata.combining(c))
    plain = plain.rstrip(".")
    if plain in ACROSS_WORDS:
        return True
    if plain in DOWN_WORDS:
        return False
    raise PlacementError(
        gettext_noop("%(word).20s is not a direction: write vodorovně (across) or svisle (down)."), word=word
    )


def _clean(text: str) -> str:
    """NFC, one space between words, none around."""
    return " ".join(unicodedata.normalize("NFC", text or "").split())


def _premiums(premium: Premium, names: str) -> dict[Square, Premium]:
    return {parse_square(name): premium for name in names.split()}


# scrabble-czech-set.md, "Board premiums".
PREMIUMS: dict[Square, Premium] = {
    **_premiums(Premium.TW, "A1 H1 O1 A8 O8 A15 H15 O15"),
    **_premiums(Premium.DW, "B2 N2 C3 M3 D4 L4 E5 K5 H8 E11 K11 D12 L12 C13 M13 B14 N14"),
    **_premiums(Premium.TL, "F2 J2 B6 F6 J6 N6 B10 F10 J10 N10 F14 J14"),
    **_premiums(Premium.DL, "D1 L1 G3 I3 A4 H4 O4 C7 G7 I7 M7 D8 L8 C9 G9 I9 M9 A12 H12 O12 G13 I13 D15 L15"),
}
