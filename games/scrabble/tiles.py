"""Tile sets: each letter's points and count, the blanks, the rack size (SPEC §4.1).

A rack is written as letters with ``?`` for a blank ("AEK?"); on the board a blank is
the lower-case letter it stands for, which is the business of ``placement``.
"""

from __future__ import annotations

import unicodedata
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType

from games.scrabble.errors import PlacementError
from games.text import gettext_noop

BLANK = "?"


@dataclass(frozen=True)
class TileSet:
    """A set of tiles. ``letters`` maps each letter (one upper-case character) to
    ``(points, count)``; ``blanks`` are worth 0 and stand for any letter."""

    name: str
    letters: Mapping[str, tuple[int, int]] = field(hash=False)
    blanks: int
    rack_size: int = 7

    def __post_init__(self) -> None:
        for letter, (points, count) in self.letters.items():
            if len(letter) != 1 or not letter.isupper() or points < 0 or count < 1:
                raise ValueError(f"Bad tile {letter!r}: {(points, count)!r}")
        object.__setattr__(self, "letters", MappingProxyType(dict(self.letters)))

    @property
    def total_tiles(self) -> int:
        return sum(count for _, count in self.letters.values()) + self.blanks

    @property
    def total_points(self) -> int:
        return sum(points * count for points, count in self.letters.values())

    @property
    def letter_set(self) -> frozenset[str]:
        """The letters of the set (the blank, ``?``, is not a letter)."""
        return frozenset(self.letters)

    def points(self, letter: str) -> int:
        """A letter's points; ``?`` (a blank on a rack) is worth 0."""
        if letter == BLANK:
            return 0
        return self._entry(letter)[0]

    def count(self, letter: str) -> int:
        """How many tiles of a letter the set has; ``?`` counts the blanks."""
        if letter == BLANK:
            return self.blanks
        return self._entry(letter)[1]

    def _entry(self, letter: str) -> tuple[int, int]:
        try:
            return self.letters[letter]
        except KeyError:
            raise PlacementError(gettext_noop("There is no %(letter)s tile in the set."), letter=letter) from None


# scrabble-czech-set.md: 98 letters + 2 blanks = 100 tiles, 205 points.
CZECH = TileSet(
    name="czech",
    letters={
        "A": (1, 5),
        "Á": (2, 2),
        "B": (3, 2),
        "C": (2, 3),
        "Č": (4, 1),
        "D": (1, 3),
        "Ď": (8, 1),
        "E": (1, 5),
        "É": (3, 2),
        "Ě": (3, 2),
        "F": (5, 1),
        "G": (5, 1),
        "H": (2, 3),
        "I": (1, 4),
        "Í": (2, 3),
        "J": (2, 2),
        "K": (1, 3),
        "L": (1, 3),
        "M": (2, 3),
        "N": (1, 5),
        "Ň": (6, 1),
        "O": (1, 6),
        "Ó": (7, 1),
        "P": (1, 3),
        "R": (1, 3),
        "Ř": (4, 2),
        "S": (1, 4),
        "Š": (4, 2),
        "T": (1, 4),
        "Ť": (7, 1),
        "U": (2, 3),
        "Ú": (5, 1),
        "Ů": (4, 1),
        "V": (1, 4),
        "X": (10, 1),
        "Y": (2, 2),
        "Ý": (4, 2),
        "Z": (2, 2),
        "Ž": (4, 1),
    },
    blanks=2,
)

TILE_SETS: Mapping[str, TileSet] = MappingProxyType({CZECH.name: CZECH})


def normalize(text: str) -> str:
    """Composed Unicode (NFC): "R" + combining háček, as some keyboards send it, is "Ř"."""
    return unicodedata.normalize("NFC", text)


def parse_rack(text: str, tile_set: TileSet) -> str:
    """A rack as a person types it -> upper-case letters with ``?`` for each blank.

    Spaces are dropped and lower-case letters upper-cased (on a rack a blank is always
    ``?``). An unknown letter, or more of a letter than the set holds, is refused.
    The rack's size is not checked here: the sheet knows how many tiles a rack holds.
    """
    rack = []
    for char in normalize(text or ""):
        if char.isspace():
            continue
        if char == BLANK:
            rack.append(BLANK)
            continue
        letter = char.upper()
        if letter not in tile_set.letters:
            raise PlacementError(
                gettext_noop("%(letter)s is not a tile of the set: type the rack's letters, and ? for each blank."),
                letter=letter,
            )
        rack.append(letter)
    for letter, held in Counter(rack).items():
        if held > tile_set.count(letter):
            if letter == BLANK:
                raise PlacementError(
                    gettext_noop("The rack has %(held)d blanks (?), but the set has only %(count)d."),
                    held=held,
                    count=tile_set.count(letter),
                )
            raise PlacementError(
                gettext_noop("The rack has %(held)d × %(letter)s, but the set has only %(count)d."),
                held=held,
                letter=letter,
                count=tile_set.count(letter),
            )
    return "".join(rack)


def rack_value(rack: str, tile_set: TileSet) -> int:
    """The points of the tiles on a rack (blanks 0): what a player subtracts at the end."""
    return sum(tile_set.points(letter) for letter in parse_rack(rack, tile_set))
