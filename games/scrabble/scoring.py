"""The score of a placement (SPEC §4.2).

Every word the move forms or extends counts: the main word, and the cross word of each
new tile that has a neighbour across the main direction. A word scores the sum of its
letters (blanks 0), a letter premium counting only under a tile placed by this move;
then it is multiplied by the word premiums under its new tiles (two of them multiply:
two triple words make ×9). A tile already on a premium counts at face value. Placing
a whole rack (7 tiles) in one move adds the bingo, 50, after the multipliers.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.scrabble.board import PREMIUMS, Position, Square, square_name
from games.scrabble.errors import PlacementError
from games.scrabble.placement import Board, PlacedSquare, Placement, tiles_beyond
from games.scrabble.tiles import TileSet
from games.text import gettext_noop

BINGO_BONUS = 50


@dataclass(frozen=True)
class FormedWord:
    """A word formed or extended by a move, its tiles in reading order."""

    position: Position
    squares: tuple[PlacedSquare, ...]
    main: bool

    @property
    def word(self) -> str:
        """Upper case: "KOSA"."""
        return "".join(placed.tile.letter for placed in self.squares)

    @property
    def display(self) -> str:
        """Blanks in lower case, as on the sheet: "KOsA"."""
        return "".join(placed.tile.display for placed in self.squares)


@dataclass(frozen=True)
class WordScore:
    word: str  # blanks in lower case
    squares: tuple[Square, ...]
    score: int
    main: bool


@dataclass(frozen=True)
class MoveScore:
    words: tuple[WordScore, ...]  # the main word first, then the cross words in reading order
    bingo: bool
    total: int


def words_formed(placement: Placement, board: Board) -> tuple[FormedWord, ...]:
    """The main word, then the cross word of each new tile that has one, in the order
    of the new tiles along the main word. ``board`` is the board before the move."""
    words = [FormedWord(placement.position, placement.squares, main=True)]
    across = placement.position.across
    cross_step = (1, 0) if across else (0, 1)
    for placed in placement.new_tiles:
        if placed.square in board:
            raise PlacementError(
                gettext_noop("%(square)s already holds %(letter)s."),
                square=square_name(placed.square),
                letter=board[placed.square].display,
            )
        before = tiles_beyond(board, placed.square, cross_step, -1)
        after = tiles_beyond(board, placed.square, cross_step, +1)
        if not before and not after:
            continue
        squares = (
            *(PlacedSquare(square, board[square], new=False) for square in reversed(before)),
            placed,
            *(PlacedSquare(square, board[square], new=False) for square in after),
        )
        words.append(FormedWord(Position(*squares[0].square, not across), squares, main=False))
    return tuple(words)


def score_word(word: FormedWord, tile_set: TileSet) -> WordScore:
    """One word's score: letters (premiums under new tiles only) times the word premiums
    under its new tiles."""
    letters = 0
    multiplier = 1
    for placed in word.squares:
        value = 0 if placed.tile.blank else tile_set.points(placed.tile.letter)
        premium = PREMIUMS.get(placed.square) if placed.new else None
        if premium is not None:
            value *= premium.letter_multiplier
            multiplier *= premium.word_multiplier
        letters += value
    return WordScore(
        word=word.display,
        squares=tuple(placed.square for placed in word.squares),
        score=letters * multiplier,
        main=word.main,
    )


def score_placement(placement: Placement, board: Board, tile_set: TileSet) -> MoveScore:
    """The true score of a placement; ``board`` is the board before it."""
    words = tuple(score_word(word, tile_set) for word in words_formed(placement, board))
    bingo = len(placement.new_tiles) == tile_set.rack_size
    total = sum(word.score for word in words) + (BINGO_BONUS if bingo else 0)
    return MoveScore(words=words, bingo=bingo, total=total)
