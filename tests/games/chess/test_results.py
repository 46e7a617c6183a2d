"""One chess game's result (SPEC §5): which result each termination allows, the points
and the score as written, and reading a result from API data.

The table of allowed combinations is written out here from the FIDE Laws, not taken
from the module: checkmate, resignation and a forfeit decide a game; an agreed draw,
stalemate, threefold repetition, the fifty-move rule and insufficient material draw
it; a flag fall may do either (a draw when the opponent cannot mate); the arbiter may
decide anything.
"""

from __future__ import annotations

import pytest

from games.chess.results import (
    GameResult,
    Result,
    Termination,
    check_result,
    parse_game_result,
    parse_result,
    parse_termination,
    points,
    score_text,
)
from games.text import RuleError

W, B, D = Result.WHITE_WINS, Result.BLACK_WINS, Result.DRAW
DECISIVE = {"checkmate", "resignation", "forfeit"}
DRAWN = {"agreed_draw", "stalemate", "threefold_repetition", "fifty_move_rule", "insufficient_material"}
EITHER = {"flag", "arbiter"}


def allowed(result: Result, termination: str) -> bool:
    if termination in EITHER:
        return True
    return termination in (DRAWN if result is D else DECISIVE)


def test_the_tables_of_this_test_cover_every_termination():
    assert {t.value for t in Termination} == DECISIVE | DRAWN | EITHER
    assert len(DECISIVE) + len(DRAWN) + len(EITHER) == len(Termination)


def test_the_enums_have_the_pgn_and_snake_case_values():
    assert [r.value for r in Result] == ["1-0", "0-1", "1/2-1/2"]
    assert [t.value for t in Termination] == [
        "checkmate",
        "resignation",
        "flag",
        "agreed_draw",
        "stalemate",
        "threefold_repetition",
        "fifty_move_rule",
        "insufficient_material",
        "forfeit",
        "arbiter",
    ]


# --- Every result × termination --------------------------------------------------------------
COMBINATIONS = [
    pytest.param(result, termination, allowed(result, termination.value), id=f"{result.value}_{termination.value}")
    for result in Result
    for termination in Termination
]


@pytest.mark.parametrize(("result", "termination", "ok"), COMBINATIONS)
def test_every_result_and_termination_is_accepted_or_refused_by_the_rules(result, termination, ok):
    if ok:
        check_result(result, termination)
        game = GameResult(result, termination)
        assert (game.result, game.termination) == (result, termination)
        assert game.forfeit is (termination is Termination.FORFEIT)
    else:
        with pytest.raises(RuleError):
            check_result(result, termination)
        with pytest.raises(RuleError):
            GameResult(result, termination)


@pytest.mark.parametrize(
    ("result", "termination", "message"),
    [
        (W, Termination.STALEMATE, "A stalemate is a draw: enter ½–½."),
        (B, Termination.STALEMATE, "A stalemate is a draw: enter ½–½."),
        (W, Termination.AGREED_DRAW, "An agreed draw is a draw: enter ½–½."),
        (B, Termination.THREEFOLD_REPETITION, "A threefold repetition is a draw: enter ½–½."),
        (W, Termination.FIFTY_MOVE_RULE, "The fifty-move rule makes the game a draw: enter ½–½."),
        (B, Termination.INSUFFICIENT_MATERIAL, "When neither player can checkmate, the game is a draw: enter ½–½."),
        (D, Termination.CHECKMATE, "A checkmate decides the game: enter 1–0 or 0–1."),
        (D, Termination.FORFEIT, "A forfeit is won by the player who was present: enter 1–0 or 0–1."),
    ],
    ids=lambda value: value.value if isinstance(value, Result | Termination) else None,
)
def test_a_refusal_names_the_rule(result, termination, message):
    with pytest.raises(RuleError) as error:
        check_result(result, termination)
    assert str(error.value) == message


def test_a_resignation_cannot_be_a_draw_and_points_to_the_agreed_draw():
    with pytest.raises(RuleError, match="resignation decides the game.*agreed draw"):
        GameResult(D, Termination.RESIGNATION)


@pytest.mark.parametrize(
    ("result", "termination"),
    [("1-0", Termination.CHECKMATE), (W, "checkmate"), (None, Termination.FLAG), (W, None)],
    ids=["result_as_plain_string", "termination_as_plain_string", "no_result", "no_termination"],
)
def test_only_enum_members_make_a_game_result(result, termination):
    with pytest.raises(RuleError):
        GameResult(result, termination)


def test_a_flag_fall_can_be_won_by_either_side_or_drawn():
    assert {GameResult(r, Termination.FLAG).result for r in Result} == set(Result)


def test_forfeit_is_derived_from_the_termination():
    assert GameResult(W, Termination.FORFEIT).forfeit
    assert GameResult(B, Termination.FORFEIT).forfeit
    assert not GameResult(W, Termination.FLAG).forfeit
    assert not GameResult(D, Termination.ARBITER).forfeit


def test_game_results_are_frozen():
    game = GameResult(W, Termination.CHECKMATE)
    with pytest.raises(AttributeError):
        game.result = B  # type: ignore[misc]


# --- Points and score text ------------------------------------------------------------------
@pytest.mark.parametrize(
    ("result", "white", "black", "text"),
    [(W, 1.0, 0.0, "1–0"), (D, 0.5, 0.5, "½–½"), (B, 0.0, 1.0, "0–1")],
    ids=["white_wins", "draw", "black_wins"],
)
def test_points_and_score_text(result, white, black, text):
    assert points(result, "white") == white
    assert points(result, "black") == black
    assert GameResult(result, Termination.ARBITER).points("white") == white
    assert score_text(result) == text


def test_a_forfeit_scores_like_any_decisive_result():
    assert GameResult(B, Termination.FORFEIT).points("black") == 1.0


@pytest.mark.parametrize("colour", ["White", "w", "a", None], ids=["capitalised", "letter", "side", "none"])
def test_points_of_an_unknown_colour_are_refused(colour):
    with pytest.raises(RuleError, match='"white" or "black"'):
        points(W, colour)


def test_result_winner():
    assert (W.winner, B.winner, D.winner) == ("white", "black", None)
    assert GameResult(B, Termination.FLAG).winner == "black"


# --- Reading API data -----------------------------------------------------------------------
@pytest.mark.parametrize(
    ("spelling", "result"),
    [
        ("1-0", W),
        ("0-1", B),
        ("1/2-1/2", D),
        ("½-½", D),
        ("=", D),
        ("1–0", W),  # en dash
        ("0–1", B),
        ("½–½", D),
        ("1/2–1/2", D),
        ("1—0", W),  # em dash
        ("0−1", B),  # minus sign
        (" 1 - 0 ", W),
        ("1:0", W),  # Czech score sheets
        ("½:½", D),
        (Result.DRAW, D),
    ],
    ids=[
        "pgn_white",
        "pgn_black",
        "pgn_draw",
        "halves",
        "equals_sign",
        "en_dash_white",
        "en_dash_black",
        "en_dash_halves",
        "en_dash_pgn_draw",
        "em_dash",
        "minus_sign",
        "spaces",
        "colon",
        "colon_halves",
        "enum_member",
    ],
)
def test_every_spelling_of_a_result(spelling, result):
    assert parse_result(spelling) is result
    assert parse_game_result({"result": spelling}).result is result


@pytest.mark.parametrize(
    "spelling",
    ["1-1", "2-0", "1/2", "0.5-0.5", "draw", "10", "1-0-1", 1, 0.5, True, ["1-0"]],
    ids=lambda value: repr(value),
)
def test_bad_spellings_are_refused_with_what_is_allowed(spelling):
    with pytest.raises(RuleError) as error:
        parse_game_result({"result": spelling})
    assert "1-0, 0-1 or 1/2-1/2" in str(error.value)


def test_a_game_in_progress_has_no_result_yet():
    with pytest.raises(RuleError, match=r"still in progress \(\*\)"):
        parse_game_result({"result": "*"})


@pytest.mark.parametrize(
    ("data", "termination"),
    [
        ({"result": "1-0"}, Termination.RESIGNATION),
        ({"result": "0-1"}, Termination.RESIGNATION),
        ({"result": "1/2-1/2"}, Termination.AGREED_DRAW),
        ({"result": "=", "termination": None}, Termination.AGREED_DRAW),
        ({"result": "1-0", "termination": ""}, Termination.RESIGNATION),
        ({"result": "1-0", "forfeit": True}, Termination.FORFEIT),
        ({"result": "0-1", "forfeit": False}, Termination.RESIGNATION),
    ],
    ids=[
        "decisive_defaults_to_resignation",
        "black_win_defaults_to_resignation",
        "draw_defaults_to_agreed_draw",
        "null_termination_is_the_default",
        "empty_termination_is_the_default",
        "forfeit_flag_gives_forfeit",
        "forfeit_false_keeps_the_default",
    ],
)
def test_default_termination(data, termination):
    assert parse_game_result(data).termination is termination


@pytest.mark.parametrize(
    ("spelling", "termination"),
    [
        ("checkmate", Termination.CHECKMATE),
        ("Agreed draw", Termination.AGREED_DRAW),
        ("fifty-move rule", Termination.FIFTY_MOVE_RULE),
        ("50-move rule", Termination.FIFTY_MOVE_RULE),
        ("THREEFOLD_REPETITION", Termination.THREEFOLD_REPETITION),
        (" insufficient material ", Termination.INSUFFICIENT_MATERIAL),
        (Termination.FLAG, Termination.FLAG),
    ],
    ids=["value", "words", "hyphen", "digits", "upper_case", "padded", "enum_member"],
)
def test_termination_spellings(spelling, termination):
    assert parse_termination(spelling) is termination


@pytest.mark.parametrize("spelling", ["mate", "time", "draw", 3, ["flag"]], ids=repr)
def test_an_unknown_termination_is_refused_with_the_choices(spelling):
    with pytest.raises(RuleError) as error:
        parse_game_result({"result": "1-0", "termination": spelling})
    assert "checkmate, resignation, flag, agreed_draw" in str(error.value)


def test_parsing_checks_the_combination():
    with pytest.raises(RuleError, match="A stalemate is a draw: enter ½–½."):
        parse_game_result({"result": "1-0", "termination": "stalemate"})
    assert parse_game_result({"result": "½-½", "termination": "flag"}) == GameResult(D, Termination.FLAG)


@pytest.mark.parametrize(
    ("data", "names"),
    [
        ({"result": "1-0", "winner": "white"}, "winner"),
        ({"result": "1-0", "moves": 40, "fen": "8/8"}, "fen, moves"),
        ({"result": "1-0", 7: "x"}, "7"),
    ],
    ids=["one_unknown_field", "unknown_fields_sorted", "non_string_key"],
)
def test_unknown_fields_are_refused(data, names):
    with pytest.raises(RuleError) as error:
        parse_game_result(data)
    assert f"Unknown game result field(s): {names}; the fields are result, termination, forfeit." == str(error.value)


@pytest.mark.parametrize("data", [None, "1-0", ["1-0"], 1], ids=repr)
def test_a_game_result_is_an_object(data):
    with pytest.raises(RuleError, match="is an object such as"):
        parse_game_result(data)


@pytest.mark.parametrize("data", [{}, {"result": None}, {"result": ""}, {"termination": "flag"}], ids=repr)
def test_the_result_is_required(data):
    with pytest.raises(RuleError, match="needs its result"):
        parse_game_result(data)


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        ({"result": "1-0", "forfeit": True, "termination": "resignation"}, "termination forfeit, not resignation"),
        ({"result": "1-0", "forfeit": False, "termination": "forfeit"}, "forfeit cannot be false"),
        ({"result": "1-0", "forfeit": "yes"}, "true or false"),
        ({"result": "1/2-1/2", "forfeit": True}, "forfeit is won by the player who was present"),
    ],
    ids=["forfeit_with_another_termination", "not_forfeit_with_forfeit", "forfeit_not_a_bool", "forfeit_drawn"],
)
def test_the_forfeit_field_must_agree(data, fragment):
    with pytest.raises(RuleError, match=fragment):
        parse_game_result(data)


@pytest.mark.parametrize(
    "game",
    [GameResult(r, t) for r in Result for t in Termination if allowed(r, t.value)],
    ids=lambda game: f"{game.result.value}_{game.termination.value}",
)
def test_to_dict_reads_back(game):
    data = game.to_dict()
    assert data == {"result": game.result.value, "termination": game.termination.value, "forfeit": game.forfeit}
    assert parse_game_result(data) == game


def test_messages_are_translated_before_their_values_are_filled_in():
    with pytest.raises(RuleError) as error:
        parse_game_result({"result": "1-0", "color": "white"})
    translated = error.value.translate(lambda message: message.replace("Unknown", "Neznámé"))
    assert translated.startswith("Neznámé game result field(s): color;")
