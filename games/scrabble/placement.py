"""A placement: the word a player typed at a position, checked against the board
(SPEC §4.2: one row or column, one continuous word with the tiles already there, at
least one new tile, the first word over H8, later words connected edge-to-edge).

The word is typed as a player writes it on the sheet: an upper-case letter is a tile
(new, or the same letter as the tile already on that square), a lower-case letter is a
new blank standing for that letter, and ``.`` is the tile already on that square. So
"SLOVA" over an L already on the board and "S.OVA" are the same placement. Whether
the words are in the dictionary is not checked here: that is a word protest.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass

from games.scrabble.board import CENTER, Position, Square, on_board, parse_position, square_name
from games.scrabble.errors import PlacementError
from games.scrabble.tiles import BLANK, TileSet, normalize
from games.text import Text, gettext_noop

__all__ = [
    "Board",
    "PlacedSquare",
    "Placement",
    "PlacementError",
    "Tile",
    "apply",
    "connected",
    "covers_centre",
    "neighbours",
    "parse_placement",
    "play_rule_breaks",
    "tiles_beyond",
]

EXISTING = "."


@dataclass(frozen=True)
class Tile:
    """A tile on the board: its letter (upper case), and whether it is a blank
    designated as that letter."""

    letter: str
    blank: bool = False

    def __post_init__(self) -> None:
        if len(self.letter) != 1 or not self.letter.isupper():
            raise PlacementError(
                gettext_noop("A tile is one upper-case letter, not %(letter).10r."), letter=self.letter
            )

    @property
    def display(self) -> str:
        """The letter as written on a sheet: a blank in lower case."""
        return self.letter.lower() if self.blank else self.letter


Board = Mapping[Square, Tile]  # the occupied squares only


@dataclass(frozen=True)
class PlacedSquare:
    square: Square
    tile: Tile
    new: bool


@dataclass(frozen=True)
class Placement:
    """The main word of a move, in reading order, with the tiles already on the board."""

    position: Position
    squares: tuple[PlacedSquare, ...]

    @property
    def new_tiles(self) -> tuple[PlacedSquare, ...]:
        return tuple(placed for placed in self.squares if placed.new)

    @property
    def word(self) -> str:
        """The main word in upper case ("KRAMIT")."""
        return "".join(placed.tile.letter for placed in self.squares)

    @property
    def display(self) -> str:
        """The main word with its blanks in lower case ("KRAmIT")."""
        return "".join(placed.tile.display for placed in self.squares)

    @property
    def notation(self) -> str:
        """GCG: new tiles as letters (blanks lower case), tiles already there as "." ("KR.mIT")."""
        return "".join(placed.tile.display if placed.new else EXISTING for placed in self.squares)

    @property
    def gcg(self) -> str:
        """Position and word as a GCG move line has them: "8D SLOVA"."""
        return f"{self.position.gcg} {self.notation}"


def neighbours(square: Square) -> tuple[Square, ...]:
    """The squares sharing an edge with ``square``, on the board."""
    row, col = square
    around = ((row - 1, col), (row + 1, col), (row, col - 1), (row, col + 1))
    return tuple(near for near in around if on_board(near))


def parse_placement(
    position: str | Position, word: str, board: Board, tile_set: TileSet, *, check_play_rules: bool = True
) -> Placement:
    """Read and check a placement typed by a player; ``board`` is the board before it.

    Raises PlacementError, whose message says what is wrong and how to type it instead.
    ``check_play_rules=False`` reads a move as played at the table even if the first
    word misses the centre or a later word is not connected (``play_rule_breaks`` names
    what it breaks); every other check still applies.
    """
    start = position if isinstance(position, Position) else parse_position(position)
    text = normalize(word or "").strip()
    if not text:
        raise PlacementError(
            gettext_noop(
                "Type the word, e.g. SLOVA: a blank as the lower-case letter it stands for, "
                'a tile already on the board as "." or its letter.'
            )
        )
    if len(text) > start.room:
        raise PlacementError(
            gettext_noop(
                "The word %(word).20s from %(square)s runs off the board: it has %(length)d letters, "
                "and only %(room)d squares are left to the edge."
            ),
            word=text,
            square=square_name(start.square),
            length=len(text),
            room=start.room,
        )
    squares = tuple(_placed_square(start.square_at(index), char, board, tile_set) for index, char in enumerate(text))
    placement = Placement(position=start, squares=squares)
    _check_word(placement, board)
    _check_tiles(placement, board, tile_set)
    if check_play_rules:
        _check_play_rules(placement, board)
    return placement


def apply(board: Board, placement: Placement) -> dict[Square, Tile]:
    """The board after the placement (a new dict; ``board`` is left as it was)."""
    after = dict(board)
    for placed in placement.new_tiles:
        if placed.square in after:
            raise PlacementError(
                gettext_noop("%(square)s already holds %(letter)s."),
                square=square_name(placed.square),
                letter=after[placed.square].display,
            )
        after[placed.square] = placed.tile
    return after


def _placed_square(square: Square, char: str, board: Board, tile_set: TileSet) -> PlacedSquare:
    existing = board.get(square)
    name = square_name(square)
    if char == EXISTING:
        if existing is None:
            raise PlacementError(
                gettext_noop('There is no tile on %(square)s for "." to stand for: type the letter you placed there.'),
                square=name,
            )
        return PlacedSquare(square, existing, new=False)
    if char == BLANK:
        raise PlacementError(
            gettext_noop('Type a blank as the lower-case letter it stands for (at %(square)s), not as "?".'),
            square=name,
        )
    if not char.isalpha():
        raise PlacementError(
            gettext_noop(
                '"%(char)s" (at %(square)s) is not a letter: type letters, and "." for a tile already on the board.'
            ),
            char=char,
            square=name,
        )
    letter = char.upper()
    if letter not in tile_set.letters:
        raise PlacementError(
            gettext_noop("There is no %(letter)s tile in the set (at %(square)s)."),
            letter=letter,
            square=name,
        )
    blank = char != letter
    if existing is None:
        return PlacedSquare(square, Tile(letter, blank), new=True)
    if blank:
        raise PlacementError(
            gettext_noop(
                "%(square)s already holds %(existing)s, so no blank can go there: "
                'type "." or the upper-case letter for a tile already on the board.'
            ),
            square=name,
            existing=existing.display,
        )
    if existing.letter != letter:
        raise PlacementError(
            gettext_noop("%(square)s already holds %(existing)s, but the word has %(typed)s there."),
            square=name,
            existing=existing.display,
            typed=letter,
        )
    return PlacedSquare(square, existing, new=False)


def _check_word(placement: Placement, board: Board) -> None:
    start = placement.position
    new = placement.new_tiles
    if not new:
        raise PlacementError(gettext_noop("The word places no new tile: at least one of its letters must be new."))
    first, last = placement.squares[0].square, placement.squares[-1].square
    before, after = tiles_beyond(board, first, start.step, -1), tiles_beyond(board, last, start.step, +1)
    if before or after:
        fuller = Position(*(before[-1] if before else first), start.across)
        raise PlacementError(
            gettext_noop(
                "The word continues over the tiles at %(squares)s: include them, e.g. as %(suggestion)s "
                '("." for a tile already on the board).'
            ),
            squares=", ".join(square_name(square) for square in [*reversed(before), *after]),
            suggestion=f"{fuller.gcg} {EXISTING * len(before)}{placement.notation}{EXISTING * len(after)}",
        )
    if len(placement.squares) < 2:
        _refuse_single_letter(placement, board)


def _check_play_rules(placement: Placement, board: Board) -> None:
    start = placement.position
    if not board:
        if not covers_centre(placement):
            raise PlacementError(
                gettext_noop("The first word must cover the centre square H8; %(word)s from %(square)s does not."),
                word=placement.display,
                square=square_name(start.square),
            )
    elif not connected(placement, board):
        raise PlacementError(
            gettext_noop(
                "The word %(word)s at %(position)s touches no tile on the board: a word must run through "
                "or next to a tile already there (sharing an edge)."
            ),
            word=placement.display,
            position=start.gcg,
        )


def covers_centre(placement: Placement) -> bool:
    return any(placed.square == CENTER for placed in placement.squares)


def connected(placement: Placement, board: Board) -> bool:
    """Some new tile shares an edge with a tile already on the board (a word running
    through a tile has a new tile next to it)."""
    return any(near in board for placed in placement.new_tiles for near in neighbours(placed.square))


def play_rule_breaks(placement: Placement, board: Board) -> tuple[str, ...]:
    """The play rules a placement breaks (for a move recorded as played at the table and
    open to a placement protest): the first word off the centre, a later word not
    connected. Messages marked for translation, without values."""
    if not board:
        return () if covers_centre(placement) else (gettext_noop("first word not covering the centre square H8"),)
    return () if connected(placement, board) else (gettext_noop("word not connected to the tiles on the board"),)


def _refuse_single_letter(placement: Placement, board: Board) -> None:
    placed = placement.squares[0]
    across = placement.position.across
    cross_step = (1, 0) if across else (0, 1)
    before, after = (
        tiles_beyond(board, placed.square, cross_step, -1),
        tiles_beyond(board, placed.square, cross_step, +1),
    )
    if before or after:
        fuller = Position(*(before[-1] if before else placed.square), not across)
        raise PlacementError(
            gettext_noop(
                "A word has at least 2 letters. Your tile makes a word %(direction)s: type that one, as %(suggestion)s."
            ),
            direction=Text(gettext_noop("down") if across else gettext_noop("across")),
            suggestion=f"{fuller.gcg} {EXISTING * len(before)}{placed.tile.display}{EXISTING * len(after)}",
        )
    raise PlacementError(gettext_noop("A word has at least 2 letters."))


def _check_tiles(placement: Placement, board: Board, tile_set: TileSet) -> None:
    new = placement.new_tiles
    if len(new) > tile_set.rack_size:
        raise PlacementError(
            gettext_noop("A move places at most %(rack)d tiles (a full rack); this word places %(count)d."),
            rack=tile_set.rack_size,
            count=len(new),
        )
    new_letters = Counter(BLANK if p.tile.blank else p.tile.letter for p in new)
    on_board_letters = Counter(BLANK if tile.blank else tile.letter for tile in board.values())
    for letter in sorted(new_letters):
        total = new_letters[letter] + on_board_letters[letter]
        if total <= tile_set.count(letter):
            continue
        if letter == BLANK:
            raise PlacementError(
                gettext_noop(
                    "The set has only %(count)d blanks, and with this word the board would hold %(total)d: "
                    "type a letter tile in upper case."
                ),
                count=tile_set.count(letter),
                total=total,
            )
        raise PlacementError(
            gettext_noop(
                "The set has only %(count)d × %(letter)s, and with this word the board would hold %(total)d: "
                "if one of them is a blank, type it in lower case."
            ),
            count=tile_set.count(letter),
            letter=letter,
            total=total,
        )


def tiles_beyond(board: Board, square: Square, step: Square, sign: int) -> list[Square]:
    """The occupied squares in a row right after ``square`` going along ``step``
    (``sign`` +1) or back against it (-1), nearest first."""
    found = []
    row, col = square[0] + sign * step[0], square[1] + sign * step[1]
    while on_board((row, col)) and (row, col) in board:
        found.append((row, col))
        row, col = row + sign * step[0], col + sign * step[1]
    return found
