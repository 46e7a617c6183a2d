"""Boards for the Scrabble tests, laid out directly (no rule checks), and the Czech
set's values and premium squares as written in scrabble-czech-set.md, re-typed here so
the tests compare the code with the document rather than with itself."""

from __future__ import annotations

from games.scrabble.board import parse_position
from games.scrabble.placement import Tile

# scrabble-czech-set.md, the tile table: each letter's points, then each letter's count.
VALUES = {
    "A": 1, "Á": 2, "B": 3, "C": 2, "Č": 4, "D": 1, "Ď": 8, "E": 1, "É": 3, "Ě": 3, "F": 5, "G": 5, "H": 2,
    "I": 1, "Í": 2, "J": 2, "K": 1, "L": 1, "M": 2, "N": 1, "Ň": 6, "O": 1, "Ó": 7, "P": 1, "R": 1, "Ř": 4, "S": 1,
    "Š": 4, "T": 1, "Ť": 7, "U": 2, "Ú": 5, "Ů": 4, "V": 1, "X": 10, "Y": 2, "Ý": 4, "Z": 2, "Ž": 4,
}  # fmt: skip
COUNTS = {
    "A": 5, "Á": 2, "B": 2, "C": 3, "Č": 1, "D": 3, "Ď": 1, "E": 5, "É": 2, "Ě": 2, "F": 1, "G": 1, "H": 3,
    "I": 4, "Í": 3, "J": 2, "K": 3, "L": 3, "M": 3, "N": 5, "Ň": 1, "O": 6, "Ó": 1, "P": 3, "R": 3, "Ř": 2, "S": 4,
    "Š": 2, "T": 4, "Ť": 1, "U": 3, "Ú": 1, "Ů": 1, "V": 4, "X": 1, "Y": 2, "Ý": 2, "Z": 2, "Ž": 1,
}  # fmt: skip

# scrabble-czech-set.md, the board drawing.
DIAGRAM = """
    A  B  C  D  E  F  G  H  I  J  K  L  M  N  O
 1 TW .  .  DL .  .  .  TW .  .  .  DL .  .  TW
 2 .  DW .  .  .  TL .  .  .  TL .  .  .  DW .
 3 .  .  DW .  .  .  DL .  DL .  .  .  DW .  .
 4 DL .  .  DW .  .  .  DL .  .  .  DW .  .  DL
 5 .  .  .  .  DW .  .  .  .  .  DW .  .  .  .
 6 .  TL .  .  .  TL .  .  .  TL .  .  .  TL .
 7 .  .  DL .  .  .  DL .  DL .  .  .  DL .  .
 8 TW .  .  DL .  .  .  DW .  .  .  DL .  .  TW
 9 .  .  DL .  .  .  DL .  DL .  .  .  DL .  .
10 .  TL .  .  .  TL .  .  .  TL .  .  .  TL .
11 .  .  .  .  DW .  .  .  .  .  DW .  .  .  .
12 DL .  .  DW .  .  .  DL .  .  .  DW .  .  DL
13 .  .  DW .  .  .  DL .  DL .  .  .  DW .  .
14 .  DW .  .  .  TL .  .  .  TL .  .  .  DW .
15 TW .  .  DL .  .  .  TW .  .  .  DL .  .  TW
"""


def diagram_premiums() -> dict[tuple[int, int], str]:
    """(row, column) -> "DL"/"TL"/"DW"/"TW", read off the drawing."""
    grid = {}
    for line in DIAGRAM.strip().splitlines()[1:]:
        number, *cells = line.split()
        for col, cell in enumerate(cells):
            if cell != ".":
                grid[(int(number) - 1, col)] = cell
    return grid


def lay(*plays: str) -> dict[tuple[int, int], Tile]:
    """A board with words laid at GCG positions ("8H VLAK", "K8 KOS"): upper case is a
    tile, lower case a blank, "." a square left as it is. Words may share a square if
    they agree on its letter. Nothing else is checked: these are the boards of the
    tests, not moves."""
    board: dict[tuple[int, int], Tile] = {}
    for play in plays:
        position, word = play.split()
        start = parse_position(position)
        for index, char in enumerate(word):
            if char == ".":
                continue
            square = start.square_at(index)
            tile = Tile(char.upper(), blank=char.islower())
            assert board.get(square, tile) == tile, f"{play} disagrees with the board at {square}"
            board[square] = tile
    return board
