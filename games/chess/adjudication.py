"""A chess game's result checked against what the players saw on the board. Pure.

Players enter a result and how the game ended; optionally the moves (SAN, from the
initial position) or the final position (FEN). When the final position is known the
system holds the result to it (SPEC §5):

- a checkmate must be checkmate on the board, won by the side that gave it;
- a stalemate must be stalemate; "insufficient material" must be a position in which
  neither side can checkmate;
- a flag fall loses, unless the opponent of the flagged player cannot checkmate by any
  series of legal moves (judged from the material, ``Position.can_checkmate``): then it
  is a draw. Both flags down in the last period without increment: a draw.

Without a position, the players' result stands as entered (the opponent confirms it)
— except a flag that the server's clock recorded, which waits for the position or the
director (``flag_result``).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.chess.position import Color, Position
from games.chess.results import Colour, GameResult, Result, Termination, both_flags_result, flag_fall_result
from games.text import RuleError, Text, gettext_noop

COLOUR_OF = {Color.WHITE: "white", Color.BLACK: "black"}
COLOUR_NAMES = {"white": Text(gettext_noop("White")), "black": Text(gettext_noop("Black"))}
MAX_MOVES = 1000


def other(colour: Colour) -> Colour:
    return "black" if colour == "white" else "white"


@dataclass(frozen=True)
class Evidence:
    """What the players entered besides the result."""

    fen: str = ""  # the final position
    moves: tuple[str, ...] = ()  # SAN, from the initial position
    flagged: Colour | None = None  # a flag fall: whose flag fell
    both_flags: bool = False  # both flags are down and nobody can tell which fell first


@dataclass(frozen=True)
class Judgement:
    result: Result
    final_fen: str  # the final position if known, normalised ("" if not)
    moves: tuple[str, ...]  # the moves in standard SAN ("0-0" read as "O-O", "e8Q" as "e8=Q", ...)
    flagged: Colour | None
    needs_director: bool  # the rules leave it to the director (e.g. both flags with increment)


def replay_moves(moves: Sequence[str]) -> tuple[Position | None, tuple[str, ...]]:
    """The position after ``moves`` from the initial position (each checked), and the
    moves in standard SAN; (None, ()) without moves."""
    if len(moves) > MAX_MOVES:
        raise RuleError(gettext_noop("A game of more than %(max)d moves cannot be entered."), max=MAX_MOVES)
    if not moves:
        return None, ()
    position = Position.initial()
    standard = []
    for san in moves:
        move = position.parse_san(san)
        standard.append(position.san(move))
        position = position.push(move)
    return position, tuple(standard)


def final_position(evidence: Evidence) -> tuple[Position | None, tuple[str, ...]]:
    """The final position from the moves (each checked) and/or the FEN (which must then
    be where the moves lead), and the moves in standard SAN."""
    position, moves = replay_moves(evidence.moves)
    if evidence.fen:
        given = Position.from_fen(evidence.fen)
        if position is not None and _placement(given) != _placement(position):
            raise RuleError(
                gettext_noop("The moves lead to %(reached)s, not to the final position entered (%(given)s)."),
                reached=position.fen(),
                given=given.fen(),
            )
        position = position or given
    return position, moves


def judge(game: GameResult, evidence: Evidence, increment_in_last_period: bool) -> Judgement:
    """The result to record, or a ``RuleError`` saying why the one entered cannot be."""
    position, moves = final_position(evidence)
    result, termination = game.result, game.termination
    if position is not None:
        _check_position(result, termination, position)
    flagged = evidence.flagged
    needs_director = False
    if termination is Termination.FLAG:
        if evidence.both_flags:
            expected = both_flags_result(increment_in_last_period)
            if expected is None:
                needs_director = True
            elif result is not expected:
                raise RuleError(
                    gettext_noop("Both flags fell in the last period, without an increment: the game is a draw (½–½).")
                )
            flagged = None
        else:
            flagged = _flagged(result, flagged)
            if position is not None:
                expected = flag_result(flagged, position)
                if result is not expected:
                    raise _wrong_flag_result(flagged, expected)
    elif flagged is not None or evidence.both_flags:
        raise RuleError(
            gettext_noop("Whose flag fell matters only for a game lost or drawn on time (termination flag).")
        )
    return Judgement(
        result=result,
        final_fen=position.fen() if position is not None else "",
        moves=moves,
        flagged=flagged,
        needs_director=needs_director,
    )


def flag_result(flagged: Colour, position: Position | None) -> Result | None:
    """A flag fall: the flagged player loses unless the opponent cannot checkmate in
    ``position``; None without a position (the director decides)."""
    if position is None:
        return flag_fall_result(flagged, None)
    opponent = Color.WHITE if flagged == "black" else Color.BLACK
    return flag_fall_result(flagged, position.can_checkmate(opponent))


def _flagged(result: Result, flagged: Colour | None) -> Colour:
    if result.decisive:
        loser = other(result.winner)
        if flagged is not None and flagged != loser:
            raise RuleError(
                gettext_noop("%(colour)s's flag fell, so %(colour)s cannot have won on time."),
                colour=COLOUR_NAMES[flagged],
            )
        return loser
    if flagged is None:
        raise RuleError(
            gettext_noop(
                "A draw on time: say whose flag fell (the opponent could not checkmate), or that both flags fell."
            )
        )
    return flagged


def _wrong_flag_result(flagged: Colour, expected: Result) -> RuleError:
    values = {"flagged": COLOUR_NAMES[flagged], "opponent": COLOUR_NAMES[other(flagged)]}
    if expected is Result.DRAW:
        return RuleError(
            gettext_noop(
                "%(opponent)s cannot checkmate in the final position, so %(flagged)s's flag fall is a draw (½–½)."
            ),
            **values,
        )
    return RuleError(
        gettext_noop(
            "%(opponent)s could still checkmate in the final position, so %(flagged)s loses on time (%(score)s)."
        ),
        score="1–0" if expected is Result.WHITE_WINS else "0–1",
        **values,
    )


def _check_position(result: Result, termination: Termination, position: Position) -> None:
    to_move = COLOUR_OF[position.turn]
    if termination is Termination.CHECKMATE:
        if not position.is_checkmate():
            raise RuleError(gettext_noop("The final position is not checkmate."))
        winner = other(to_move)
        if result.winner != winner:
            raise RuleError(
                gettext_noop("In the final position %(loser)s is checkmated: enter %(score)s."),
                loser=COLOUR_NAMES[to_move],
                score="1–0" if winner == "white" else "0–1",
            )
    elif termination is Termination.STALEMATE and not position.is_stalemate():
        raise RuleError(gettext_noop("The final position is not stalemate."))
    elif termination is Termination.INSUFFICIENT_MATERIAL and not position.is_insufficient_material():
        raise RuleError(gettext_noop("In the final position a player can still checkmate: it is not a dead draw."))
    elif position.is_checkmate() and termination is not Termination.ARBITER:
        raise RuleError(gettext_noop("The final position is checkmate: enter the game as won by checkmate."))


def _placement(position: Position) -> tuple[str, ...]:
    """What makes two positions the same on the board: the pieces and the side to move."""
    return tuple(position.fen().split()[:2])


def moves_from_text(text: str | Sequence[str]) -> tuple[str, ...]:
    """SAN moves from a PGN-like movetext ("1. e4 e5 2. Nf3") or a list of moves."""
    tokens = text.split() if isinstance(text, str) else [str(t) for t in text]
    moves = []
    for token in tokens:
        token = token.strip()
        if not token or token in ("1-0", "0-1", "1/2-1/2", "*"):
            continue
        number, dot, rest = token.partition(".")
        if dot and number.isdecimal():
            token = rest.lstrip(".")
            if not token:
                continue
        moves.append(token)
    return tuple(moves)
