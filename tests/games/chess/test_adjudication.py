"""A result held to the board (SPEC §5): flag falls decided by the mating material
left, both flags, checkmate and stalemate checked against the final position, moves
replayed and normalised, and the refusals that name the rule."""

import pytest

from games.chess.adjudication import Evidence, flag_result, judge, moves_from_text
from games.chess.position import Position
from games.chess.results import GameResult, Result, Termination
from games.text import RuleError

W, D, B = Result.WHITE_WINS, Result.DRAW, Result.BLACK_WINS


def game(result: Result, termination: Termination = Termination.FLAG) -> GameResult:
    return GameResult(result, termination)


# --- Flag falls ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("fen", "flagged", "expected"),
    [
        # Edge cases first: the flagged player's opponent has a lone king or a lone minor piece.
        pytest.param("8/8/8/4k3/8/8/8/4K3 w - - 0 60", "white", D, id="K-v-K"),
        pytest.param("8/8/8/4k3/8/8/3n4/4K3 w - - 0 60", "white", D, id="K-v-K+N: the knight cannot mate a bare king"),
        pytest.param("8/8/8/4k3/8/8/3b4/4K3 w - - 0 60", "white", D, id="K-v-K+B"),
        pytest.param("8/8/8/4k3/8/8/3n1P2/4K3 w - - 0 60", "white", B, id="K+P-v-K+N: the pawn can block, mate exists"),
        pytest.param("8/8/8/4k3/8/8/8/R3K3 b - - 0 60", "black", W, id="K+R-v-K: loss"),
        pytest.param("8/8/8/4k3/8/8/8/R3K3 w - - 0 60", "white", D, id="White flags with the rook, Black has K"),
        pytest.param("8/8/8/4k3/8/8/5nn1/4K3 w - - 0 60", "white", B, id="K-v-K+N+N: a helpmate exists"),
        pytest.param("8/8/8/4k3/8/8/8/3QK3 b - - 0 60", "black", W, id="K+Q-v-K"),
        pytest.param("8/8/8/4k3/8/8/4p3/4K3 w - - 0 60", "white", B, id="a pawn can promote"),
    ],
)
def test_a_flag_fall_loses_unless_the_opponent_cannot_checkmate(fen, flagged, expected):
    assert flag_result(flagged, Position.from_fen(fen)) is expected
    evidence = Evidence(fen=fen, flagged=flagged if expected is D else None)
    assert judge(game(expected), evidence, increment_in_last_period=False).result is expected


def test_without_a_position_the_director_decides_a_flag_from_the_clock():
    assert flag_result("white", None) is None


@pytest.mark.parametrize(
    ("entered", "fen", "message"),
    [
        (W, "8/8/8/4k3/8/8/3n4/4K3 b - - 0 60", "White cannot checkmate in the final position, so Black's flag fall"),
        (D, "r3k3/8/8/8/8/8/8/4K3 w - - 0 60", "Black could still checkmate in the final position, so White loses"),
    ],
)
def test_a_flag_result_that_the_board_contradicts_is_refused(entered, fen, message):
    flagged = "black" if entered is W else "white"
    with pytest.raises(RuleError, match=message):
        judge(game(entered), Evidence(fen=fen, flagged=flagged), False)


@pytest.mark.parametrize(
    ("entered", "increment", "expected"),
    [
        (D, False, D),  # both flags in the last period without increment: a draw
        (D, True, D),  # with an increment: the director decides (held), whatever was entered
        (W, True, W),
    ],
)
def test_both_flags(entered, increment, expected):
    judgement = judge(game(entered), Evidence(both_flags=True), increment)
    assert judgement.result is expected and judgement.needs_director is increment and judgement.flagged is None


def test_both_flags_without_increment_cannot_be_a_win():
    with pytest.raises(RuleError, match="without an increment: the game is a draw"):
        judge(game(W), Evidence(both_flags=True), False)


@pytest.mark.parametrize(
    ("entered", "flagged", "message"),
    [
        (W, "white", "White's flag fell, so White cannot have won on time"),
        (D, None, "say whose flag fell"),
    ],
)
def test_whose_flag_fell_must_agree_with_the_result(entered, flagged, message):
    with pytest.raises(RuleError, match=message):
        judge(game(entered), Evidence(flagged=flagged), False)


def test_whose_flag_fell_is_only_for_games_on_time():
    with pytest.raises(RuleError, match="matters only for a game lost or drawn on time"):
        judge(game(W, Termination.RESIGNATION), Evidence(flagged="black"), False)


# --- Checkmate, stalemate, dead positions --------------------------------------------------------
FOOLS_MATE = ("f3", "e5", "g4", "Qh4#")


@pytest.mark.parametrize(
    ("entered", "termination", "evidence", "message"),
    [
        (W, Termination.CHECKMATE, Evidence(moves=FOOLS_MATE), "White is checkmated: enter 0–1"),
        (B, Termination.CHECKMATE, Evidence(moves=("e4", "e5")), "not checkmate"),
        (D, Termination.STALEMATE, Evidence(fen="8/8/8/4k3/8/8/8/R3K3 b - - 0 60"), "not stalemate"),
        (D, Termination.INSUFFICIENT_MATERIAL, Evidence(fen="8/8/8/4k3/8/8/8/R3K3 b - - 0 60"), "not a dead draw"),
        (B, Termination.RESIGNATION, Evidence(moves=FOOLS_MATE), "enter the game as won by checkmate"),
        (W, Termination.RESIGNATION, Evidence(moves=("e4", "Ke7", "Ke3")), "not a legal move"),
        (
            W,
            Termination.RESIGNATION,
            Evidence(moves=("e4",), fen="rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"),
            "The moves lead to",
        ),
    ],
)
def test_the_result_must_agree_with_the_board(entered, termination, evidence, message):
    with pytest.raises(RuleError, match=message):
        judge(game(entered, termination), evidence, False)


@pytest.mark.parametrize(
    ("entered", "termination", "evidence"),
    [
        (B, Termination.CHECKMATE, Evidence(moves=FOOLS_MATE)),
        (D, Termination.STALEMATE, Evidence(fen="7k/5Q2/6K1/8/8/8/8/8 b - - 0 60")),
        (D, Termination.INSUFFICIENT_MATERIAL, Evidence(fen="8/8/8/4k3/8/8/3b4/4K3 w - - 0 60")),
        (W, Termination.ARBITER, Evidence(moves=FOOLS_MATE)),  # the arbiter may decide anything
    ],
)
def test_results_that_agree_with_the_board_are_accepted(entered, termination, evidence):
    assert judge(game(entered, termination), evidence, False).result is entered


def test_moves_are_stored_in_standard_san_and_give_the_final_position():
    judgement = judge(game(B, Termination.CHECKMATE), Evidence(moves=("f3", "e7e5", "g4", "Qh4")), False)
    assert judgement.moves == FOOLS_MATE
    assert judgement.final_fen.startswith("rnb1kbnr/pppp1ppp/8/4p3/6Pq/5P2/PPPPP2P/RNBQKBNR w")


@pytest.mark.parametrize(
    ("text", "moves"),
    [
        ("", ()),
        ("1. e4 e5 2. Nf3", ("e4", "e5", "Nf3")),
        ("1.e4 e5 2.Nf3 1-0", ("e4", "e5", "Nf3")),
        ("12... Nf6 13. O-O", ("Nf6", "O-O")),
        (["e4", "e5"], ("e4", "e5")),
    ],
)
def test_moves_from_a_movetext_or_a_list(text, moves):
    assert moves_from_text(text) == moves
