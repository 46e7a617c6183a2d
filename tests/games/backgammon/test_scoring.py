"""One backgammon game (SPEC §3.1): what it is worth, which records are refused, and
whether the cube history holds together.

Expected values are worked out from the rules, not read off the code: a game scores
kind × cube (single 1×, gammon 2×, backgammon 3×); a dropped double scores the cube
before the double, and a dropped double is recorded with the cube *offered* (a double
to 4 dropped is cube 4 and scores 2). Every refusal is a GameError whose message names
the rule; the tests pin the part of the message a person needs to fix the input.
"""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from games.backgammon.scoring import (
    CubeAction,
    Ending,
    Game,
    GameError,
    Kind,
    MoneyRules,
    check_game,
    cube_owner,
    parse_game,
    points,
)
from games.text import RuleError

CUBES = (1, 2, 4, 8, 16, 32, 64)
TIMES = {"single": 1, "gammon": 2, "backgammon": 3}


def game(winner="a", kind="single", cube=1, ending="played", history=None) -> Game:
    """A game read the way the API reads it (so the history's actions are CubeActions)."""
    data = {"winner": winner, "kind": kind, "cube": cube, "ending": ending}
    if history is not None:
        data["cube_history"] = [list(step) for step in history]
    return parse_game(data)


def refused(message: str, *args, **kwargs) -> str:
    """check_game refuses the game; returns the message after checking the fragment."""
    with pytest.raises(GameError) as error:
        check_game(*args, **kwargs)
    assert message in str(error.value)
    return str(error.value)


# --- Points: kind × cube ------------------------------------------------------------------


@pytest.mark.parametrize(
    ("kind", "cube", "expected"),
    [
        ("single", 1, 1),
        ("single", 2, 2),
        ("single", 4, 4),
        ("single", 64, 64),
        ("gammon", 1, 2),
        ("gammon", 2, 4),
        ("gammon", 4, 8),
        ("gammon", 16, 32),
        ("gammon", 64, 128),
        ("backgammon", 1, 3),
        ("backgammon", 2, 6),
        ("backgammon", 8, 24),
        ("backgammon", 64, 192),
    ],
)
def test_a_game_played_out_scores_kind_times_cube(kind, cube, expected):
    played = check_game(game(kind=kind, cube=cube))
    assert points(played) == expected


def test_a_gammon_with_the_cube_on_4_scores_8():
    assert points(check_game(game(winner="b", kind="gammon", cube=4))) == 8


@pytest.mark.parametrize(
    ("offered", "expected"),
    [(2, 1), (4, 2), (8, 4), (16, 8), (32, 16), (64, 32)],
)
def test_a_dropped_double_scores_the_cube_before_the_double(offered, expected):
    dropped = check_game(game(cube=offered, ending="dropped"))
    assert points(dropped) == expected
    assert dropped.stake == expected


@pytest.mark.parametrize(
    ("kind", "cube", "expected"),
    [
        ("single", 1, 1),
        ("single", 4, 4),
        ("gammon", 1, 2),
        ("gammon", 2, 4),
        ("gammon", 8, 16),
        ("backgammon", 1, 3),
        ("backgammon", 2, 6),
        ("backgammon", 32, 96),
    ],
)
def test_an_accepted_resignation_scores_what_was_resigned_times_cube(kind, cube, expected):
    resigned = check_game(game(kind=kind, cube=cube, ending="resigned"))
    assert points(resigned) == expected
    assert resigned.stake == cube


@given(
    kind=st.sampled_from(sorted(TIMES)),
    cube=st.sampled_from(CUBES),
    ending=st.sampled_from(["played", "resigned"]),
    winner=st.sampled_from("ab"),
)
def test_points_are_kind_times_cube_whoever_wins(kind, cube, ending, winner):
    assert points(check_game(game(winner=winner, kind=kind, cube=cube, ending=ending))) == TIMES[kind] * cube


# --- parse_game: reading the API's data --------------------------------------------------


def test_a_game_with_only_a_winner_is_a_single_played_out_for_cube_1():
    assert parse_game({"winner": "b"}) == Game(winner="b", kind=Kind.SINGLE, cube=1, ending=Ending.PLAYED)


def test_parse_game_reads_every_field():
    parsed = parse_game(
        {
            "winner": "a",
            "kind": "gammon",
            "cube": 4,
            "ending": "played",
            "cube_history": [["b", "double"], ["a", "take"], ["a", "double"], ["b", "take"]],
        }
    )
    assert parsed == Game(
        winner="a",
        kind=Kind.GAMMON,
        cube=4,
        ending=Ending.PLAYED,
        cube_history=(
            ("b", CubeAction.DOUBLE),
            ("a", CubeAction.TAKE),
            ("a", CubeAction.DOUBLE),
            ("b", CubeAction.TAKE),
        ),
    )


def test_an_empty_cube_history_is_kept_apart_from_no_history():
    assert parse_game({"winner": "a", "cube_history": []}).cube_history == ()
    assert parse_game({"winner": "a"}).cube_history is None


@pytest.mark.parametrize(
    ("data", "message"),
    [
        # the winner
        ({"winner": "c"}, 'The winner must be one of the two players ("a" or "b"), not \'c\'.'),
        ({"winner": "A"}, "not 'A'"),
        ({"kind": "single"}, 'The winner must be one of the two players ("a" or "b"), not None.'),
        ({"winner": None}, "not None"),
        ({"winner": 1}, "not 1"),
        ({"winner": ["a"]}, "The winner must be one of the two players"),
        # the kind
        ({"winner": "a", "kind": "double gammon"}, "The kind must be one of single, gammon, backgammon, not 'double"),
        ({"winner": "a", "kind": "Gammon"}, "The kind must be one of single, gammon, backgammon, not 'Gammon'."),
        ({"winner": "a", "kind": 2}, "The kind must be one of single, gammon, backgammon, not 2."),
        ({"winner": "a", "kind": []}, "The kind must be one of single, gammon, backgammon, not []."),
        # the ending
        ({"winner": "a", "ending": "timeout"}, "The ending must be one of played, dropped, resigned, not 'timeout'."),
        ({"winner": "a", "ending": "drop"}, "The ending must be one of played, dropped, resigned, not 'drop'."),
        ({"winner": "a", "ending": None}, "The ending must be one of played, dropped, resigned, not None."),
        # the cube
        ({"winner": "a", "cube": 3}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not 3."),
        ({"winner": "a", "cube": 0}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not 0."),
        ({"winner": "a", "cube": -2}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not -2."),
        ({"winner": "a", "cube": 128}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not 128."),
        ({"winner": "a", "cube": 6}, "not 6."),
        ({"winner": "a", "cube": "2"}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not '2'."),
        ({"winner": "a", "cube": 2.0}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not 2.0."),
        ({"winner": "a", "cube": None}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not None."),
        ({"winner": "a", "cube": True}, "The cube is 1, 2, 4, 8, 16, 32 or 64, not True."),
        ({"winner": "a", "cube": False}, "not False."),
        # unknown fields
        ({"winner": "a", "points": 2}, "Unknown game field(s): points."),
        ({"winner": "a", "points": 2, "crawford": True}, "Unknown game field(s): crawford, points."),
        # the cube history's shape
        ({"winner": "a", "cube_history": "a doubles"}, 'The cube history is a list such as [["a", "double"],'),
        ({"winner": "a", "cube_history": {"a": "double"}}, "The cube history is a list such as"),
        ({"winner": "a", "cube_history": 2}, "The cube history is a list such as"),
        ({"winner": "a", "cube_history": ["ad"]}, 'Cube action 1 must be a pair such as ["a", "double"].'),
        ({"winner": "a", "cube_history": [["a"]]}, "Cube action 1 must be a pair"),
        ({"winner": "a", "cube_history": [["a", "double", "b"]]}, "Cube action 1 must be a pair"),
        ({"winner": "a", "cube_history": [{"a": "double"}]}, "Cube action 1 must be a pair"),
        ({"winner": "a", "cube_history": [["a", "double"], ["b"]]}, "Cube action 2 must be a pair"),
        ({"winner": "a", "cube_history": [["a", "double"], "bt"]}, "Cube action 2 must be a pair"),
        ({"winner": "a", "cube_history": [["c", "double"]]}, 'Cube action 1: the player is "a" or "b", not \'c\'.'),
        ({"winner": "a", "cube_history": [["a", "double"], [None, "take"]]}, "Cube action 2: the player is"),
        (
            {"winner": "a", "cube_history": [["a", "redouble"]]},
            "The cube action must be one of double, take, drop, beaver, raccoon, not 'redouble'.",
        ),
    ],
)
def test_parse_game_refuses_a_bad_field_and_names_the_rule(data, message):
    with pytest.raises(GameError) as error:
        parse_game(data)
    assert message in str(error.value)


@pytest.mark.parametrize("data", [["a", "gammon"], "a wins", None, 3])
def test_a_game_that_is_not_an_object_is_refused_with_an_example(data):
    with pytest.raises(GameError) as error:
        parse_game(data)
    assert 'A game is an object such as {"winner": "a"' in str(error.value)


def test_a_game_error_is_a_rule_error_that_translates_its_message_and_values():
    with pytest.raises(RuleError) as error:
        parse_game({"winner": "a", "kind": "double"})
    assert isinstance(error.value, GameError)
    czech = {
        "The %(what)s must be one of %(choices)s, not %(value).40r.": "%(what)s: %(choices)s, ne %(value).40r.",
        "kind": "druh",
    }
    translated = error.value.translate(lambda message: czech.get(message, message))
    assert translated == "druh: single, gammon, backgammon, ne 'double'."


@given(
    winner=st.sampled_from("ab"),
    kind=st.sampled_from(sorted(TIMES)),
    cube=st.sampled_from(CUBES),
    ending=st.sampled_from(["played", "dropped", "resigned"]),
    history=st.none() | st.lists(st.tuples(st.sampled_from("ab"), st.sampled_from(list(CubeAction))), max_size=6),
)
def test_a_game_read_back_from_its_dict_is_the_same_game(winner, kind, cube, ending, history):
    data = {"winner": winner, "kind": kind, "cube": cube, "ending": ending}
    if history is not None:
        data["cube_history"] = [[player, action.value] for player, action in history]
    parsed = parse_game(data)
    assert parsed.to_dict() == data
    assert parse_game(parsed.to_dict()) == parsed


# --- check_game: the rules of one game -----------------------------------------------------


def test_a_drop_of_cube_1_is_refused_and_the_message_explains_the_offered_cube_convention():
    message = refused("A dropped double is recorded with the cube offered (2, 4, …)", game(cube=1, ending="dropped"))
    assert "a double to 2 that was dropped is cube 2 and scores 1" in message
    assert "Cube 1 cannot have been dropped." in message


@pytest.mark.parametrize("kind", ["gammon", "backgammon"])
@pytest.mark.parametrize("cube", [2, 8])
def test_a_dropped_double_is_always_a_single(kind, cube):
    refused(
        f"A dropped double scores the cube before the double; it cannot be a {kind}.",
        game(kind=kind, cube=cube, ending="dropped"),
    )


@pytest.mark.parametrize("cube", [3, 0, 128, -1])
def test_check_game_refuses_a_cube_value_that_does_not_exist(cube):
    refused(f"The cube is 1, 2, 4, 8, 16, 32 or 64, not {cube}.", Game(winner="a", cube=cube))


# The Crawford game (cube_allowed=False): the cube stays at 1, nothing is doubled or dropped.


@pytest.mark.parametrize(
    ("kind", "ending"),
    [("single", "played"), ("gammon", "played"), ("backgammon", "played"), ("gammon", "resigned")],
)
def test_the_crawford_game_accepts_any_win_for_cube_1(kind, ending):
    crawford = game(winner="b", kind=kind, ending=ending)
    assert check_game(crawford, cube_allowed=False) == crawford
    assert points(crawford) == TIMES[kind]


def test_the_crawford_game_accepts_an_empty_cube_history():
    assert check_game(game(history=[]), cube_allowed=False).cube_history == ()


@pytest.mark.parametrize("cube", [2, 4, 64])
@pytest.mark.parametrize("ending", ["played", "resigned"])
def test_the_crawford_game_refuses_any_cube_but_1(cube, ending):
    refused(
        "The cube stays at 1 in the Crawford game: nobody may double.",
        game(cube=cube, ending=ending),
        cube_allowed=False,
    )


@pytest.mark.parametrize("cube", [1, 2, 4])
def test_the_crawford_game_refuses_a_drop(cube):
    refused(
        "No double can be offered in the Crawford game, so none can be dropped.",
        game(cube=cube, ending="dropped"),
        cube_allowed=False,
    )


@pytest.mark.parametrize(
    ("cube", "ending", "history"),
    [
        (1, "played", [("a", "double")]),
        (2, "played", [("a", "double"), ("b", "take")]),
        (2, "dropped", [("b", "double"), ("a", "drop")]),
        (1, "played", [("b", "take")]),
    ],
)
def test_the_crawford_game_refuses_any_cube_history(cube, ending, history):
    with pytest.raises(GameError) as error:
        check_game(game(winner="b", cube=cube, ending=ending, history=history), cube_allowed=False)
    assert "Crawford game" in str(error.value)


# --- The cube history ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("winner", "cube", "ending", "history"),
    [
        ("a", 1, "played", []),
        ("b", 2, "played", [("a", "double"), ("b", "take")]),
        ("a", 2, "played", [("b", "double"), ("a", "take")]),
        ("a", 4, "played", [("a", "double"), ("b", "take"), ("b", "double"), ("a", "take")]),
        ("b", 2, "dropped", [("b", "double"), ("a", "drop")]),
        ("a", 4, "dropped", [("b", "double"), ("a", "take"), ("a", "double"), ("b", "drop")]),
        (
            "a",
            8,
            "dropped",
            [("a", "double"), ("b", "take"), ("b", "double"), ("a", "take"), ("a", "double"), ("b", "drop")],
        ),
        ("b", 2, "resigned", [("a", "double"), ("b", "take")]),
    ],
)
def test_a_consistent_take_redouble_drop_history_is_accepted(winner, cube, ending, history):
    recorded = game(winner=winner, cube=cube, ending=ending, history=history)
    assert check_game(recorded) == recorded


def test_a_double_taken_redoubled_and_dropped_scores_the_cube_before_the_last_double():
    # a doubles to 2, b takes; b redoubles to 4, a takes; a redoubles to 8, b drops: b loses 4.
    history = [("a", "double"), ("b", "take"), ("b", "double"), ("a", "take"), ("a", "double"), ("b", "drop")]
    assert points(check_game(game(winner="a", cube=8, ending="dropped", history=history))) == 4


def test_a_history_that_opens_with_a_full_64_cube_is_accepted():
    history = []
    for doubler, taker in [("a", "b"), ("b", "a")] * 3:
        history += [(doubler, "double"), (taker, "take")]
    assert check_game(game(winner="b", kind="backgammon", cube=64, history=history)).cube == 64


@pytest.mark.parametrize(
    ("winner", "cube", "ending", "history", "message"),
    [
        # only the owner redoubles
        (
            "a",
            4,
            "played",
            [("a", "double"), ("b", "take"), ("a", "double"), ("b", "take")],
            "Cube action 3: player a doubles without owning the cube.",
        ),
        (
            "a",
            4,
            "dropped",
            [("b", "double"), ("a", "take"), ("b", "double"), ("a", "drop")],
            "Cube action 3: player b doubles without owning the cube.",
        ),
        # the other player answers
        ("a", 2, "played", [("a", "double"), ("a", "take")], "Cube action 2: player a answers their own double."),
        ("b", 2, "dropped", [("a", "double"), ("a", "drop")], "Cube action 2: player a answers their own double."),
        # an answer needs a double
        ("a", 1, "played", [("b", "take")], "Cube action 1: take answers no double."),
        ("a", 2, "dropped", [("b", "drop")], "Cube action 1: drop answers no double."),
        ("a", 2, "played", [("a", "double"), ("b", "take"), ("a", "take")], "Cube action 3: take answers no double."),
        (
            "a",
            2,
            "dropped",
            [("a", "double"), ("b", "take"), ("b", "drop")],
            "Cube action 3: drop answers no double.",
        ),
        # a double is answered before the next one
        (
            "a",
            4,
            "played",
            [("a", "double"), ("b", "double")],
            "Cube action 2: a double must be answered (take or drop) first.",
        ),
        # an unanswered final double
        ("a", 2, "played", [("a", "double")], "The last double was neither taken nor dropped."),
        ("a", 4, "resigned", [("a", "double"), ("b", "take"), ("b", "double")], "neither taken nor dropped"),
        # a drop ends the game
        (
            "a",
            2,
            "dropped",
            [("a", "double"), ("b", "drop"), ("a", "double")],
            "Cube action 3 comes after a drop, which ends the game.",
        ),
        ("a", 2, "dropped", [("a", "double"), ("b", "drop"), ("b", "take")], "Cube action 3 comes after a drop"),
        (
            "a",
            2,
            "played",
            [("a", "double"), ("b", "drop")],
            "The cube history ends with a drop, so the game ended by a dropped double.",
        ),
        ("a", 2, "resigned", [("a", "double"), ("b", "drop")], "so the game ended by a dropped double."),
        ("b", 2, "dropped", [("a", "double"), ("b", "drop")], "The player who dropped the double loses the game."),
        (
            "a",
            2,
            "dropped",
            [("a", "double"), ("b", "take")],
            "The game ended by a dropped double, but the cube history has no drop.",
        ),
        ("a", 2, "dropped", [], "but the cube history has no drop"),
        # the recorded cube must match the history
        (
            "b",
            2,
            "dropped",
            [("a", "double"), ("b", "take"), ("b", "double"), ("a", "drop")],
            "The cube history shows a double to 4 dropped; record the cube offered (4), not 2.",
        ),
        (
            "b",
            8,
            "dropped",
            [("a", "double"), ("b", "take"), ("b", "double"), ("a", "drop")],
            "record the cube offered (4), not 8.",
        ),
        (
            "a",
            4,
            "played",
            [("a", "double"), ("b", "take")],
            "The cube history brings the cube to 2, but the game records 4.",
        ),
        ("a", 2, "played", [], "The cube history brings the cube to 1, but the game records 2."),
        ("a", 1, "resigned", [("b", "double"), ("a", "take")], "brings the cube to 2, but the game records 1."),
    ],
)
def test_an_inconsistent_cube_history_is_refused_with_the_rule(winner, cube, ending, history, message):
    refused(message, game(winner=winner, cube=cube, ending=ending, history=history))


def test_the_cube_cannot_be_doubled_beyond_64():
    history = []
    for doubler, taker in [("a", "b"), ("b", "a")] * 3:
        history += [(doubler, "double"), (taker, "take")]
    history += [("a", "double"), ("b", "take")]  # action 13 would turn 64 into 128
    refused("Cube action 13: the cube cannot go above 64.", game(winner="a", cube=64, history=history))


# Beavers and raccoons (money play only).


def test_a_beaver_is_refused_without_money_rules_that_allow_it():
    beaver = game(winner="b", cube=4, history=[("a", "double"), ("b", "beaver")])
    refused("Beavers are not played here (only in money play that allows them).", beaver)
    refused("Beavers are not played here", beaver, money=MoneyRules())
    refused("Beavers are not played here", beaver, money=MoneyRules(jacoby=True))


def test_a_raccoon_is_refused_without_money_rules_that_allow_beavers():
    raccoon = game(winner="a", cube=4, history=[("a", "double"), ("b", "take"), ("a", "raccoon")])
    refused("Raccoons are not played here (only in money play that allows beavers).", raccoon)
    refused("Raccoons are not played here", raccoon, money=MoneyRules(jacoby=True))
    beaver_then_raccoon = game(winner="a", cube=8, history=[("a", "double"), ("b", "beaver"), ("a", "raccoon")])
    refused("Beavers are not played here", beaver_then_raccoon)


BEAVERS = MoneyRules(beavers=True)


@pytest.mark.parametrize(
    ("winner", "kind", "cube", "ending", "history", "expected"),
    [
        # a doubles to 2, b beavers to 4 and keeps the cube
        ("b", "single", 4, "played", [("a", "double"), ("b", "beaver")], 4),
        ("a", "gammon", 4, "played", [("a", "double"), ("b", "beaver")], 8),
        # b owns the beavered cube, so b may redouble to 8
        ("b", "single", 8, "played", [("a", "double"), ("b", "beaver"), ("b", "double"), ("a", "take")], 8),
        ("b", "single", 8, "dropped", [("a", "double"), ("b", "beaver"), ("b", "double"), ("a", "drop")], 4),
        # a answers the beaver with a raccoon: 8, and a owns the cube
        ("a", "single", 8, "played", [("a", "double"), ("b", "beaver"), ("a", "raccoon")], 8),
        (
            "a",
            "single",
            16,
            "played",
            [("a", "double"), ("b", "beaver"), ("a", "raccoon"), ("a", "double"), ("b", "take")],
            16,
        ),
        (
            "a",
            "single",
            16,
            "dropped",
            [("a", "double"), ("b", "beaver"), ("a", "raccoon"), ("a", "double"), ("b", "drop")],
            8,
        ),
        # a beaver of a redouble
        ("a", "single", 8, "played", [("a", "double"), ("b", "take"), ("b", "double"), ("a", "beaver")], 8),
    ],
)
def test_a_beaver_doubles_the_cube_again_and_the_taker_owns_it(winner, kind, cube, ending, history, expected):
    recorded = game(winner=winner, kind=kind, cube=cube, ending=ending, history=history)
    assert check_game(recorded, money=BEAVERS) == recorded
    assert points(recorded, BEAVERS) == expected


@pytest.mark.parametrize(
    ("cube", "history", "message"),
    [
        # after a beaver the beaverer (b) owns the cube
        (8, [("a", "double"), ("b", "beaver"), ("a", "double"), ("b", "take")], "player a doubles without owning"),
        # after a raccoon the raccooner (a) owns the cube
        (
            16,
            [("a", "double"), ("b", "beaver"), ("a", "raccoon"), ("b", "double"), ("a", "take")],
            "player b doubles without owning",
        ),
        # the doubler cannot beaver their own double
        (4, [("a", "double"), ("a", "beaver")], "Cube action 2: player a answers their own double."),
        # a beaver answers a double
        (2, [("b", "beaver")], "Cube action 1: beaver answers no double."),
        # a raccoon answers a beaver, and only the doubler raccoons
        (8, [("a", "double"), ("b", "beaver"), ("b", "raccoon")], "only the doubler answers a beaver with a raccoon"),
        (4, [("a", "double"), ("b", "take"), ("a", "raccoon")], "only the doubler answers a beaver with a raccoon"),
        (2, [("a", "raccoon")], "raccoon"),
        (
            16,
            [("a", "double"), ("b", "beaver"), ("a", "raccoon"), ("a", "raccoon")],
            "only the doubler answers a beaver with a raccoon",
        ),
        # a recorded cube that ignores the beaver
        (2, [("a", "double"), ("b", "beaver")], "The cube history brings the cube to 4, but the game records 2."),
    ],
)
def test_a_beaver_or_raccoon_out_of_turn_is_refused(cube, history, message):
    refused(message, game(winner="a", cube=cube, history=history), money=BEAVERS)


def test_a_beaver_cannot_take_the_cube_beyond_64():
    history = []
    for doubler, taker in [("a", "b"), ("b", "a")] * 2 + [("a", "b")]:
        history += [(doubler, "double"), (taker, "take")]
    history += [("b", "double"), ("a", "beaver")]  # b doubles 32 -> 64; a beaver would make 128
    refused("Cube action 12: the cube cannot go above 64.", game(winner="a", cube=64, history=history), money=BEAVERS)


def test_a_raccoon_cannot_take_the_cube_beyond_64():
    history = []
    for doubler, taker in [("a", "b"), ("b", "a")] * 2:
        history += [(doubler, "double"), (taker, "take")]
    history += [("a", "double"), ("b", "beaver"), ("a", "raccoon")]  # 16 -> 32 -> 64 -> 128
    refused("Cube action 11: the cube cannot go above 64.", game(winner="a", cube=64, history=history), money=BEAVERS)


# --- Money play: the Jacoby rule and automatic doubles ------------------------------------


JACOBY = MoneyRules(jacoby=True)


@pytest.mark.parametrize(
    ("kind", "cube", "ending", "history", "money", "expected"),
    [
        # the cube never turned: gammons and backgammons count as single
        ("gammon", 1, "played", None, JACOBY, 1),
        ("backgammon", 1, "played", None, JACOBY, 1),
        ("single", 1, "played", None, JACOBY, 1),
        ("gammon", 1, "resigned", None, JACOBY, 1),
        ("backgammon", 1, "played", [], JACOBY, 1),
        # the cube was turned: full value
        ("gammon", 2, "played", None, JACOBY, 4),
        ("backgammon", 2, "played", None, JACOBY, 6),
        ("gammon", 2, "played", [("a", "double"), ("b", "take")], JACOBY, 4),
        ("gammon", 4, "resigned", None, JACOBY, 8),
        # automatic doubles turn the cube too: the Jacoby rule does not apply after them
        ("gammon", 2, "played", None, MoneyRules(jacoby=True, automatic_doubles=1), 4),
        ("backgammon", 4, "played", None, MoneyRules(jacoby=True, automatic_doubles=2), 12),
        ("gammon", 2, "played", [], MoneyRules(jacoby=True, automatic_doubles=1), 4),
        # without the Jacoby rule, or without money rules, gammons count
        ("gammon", 1, "played", None, MoneyRules(), 2),
        ("backgammon", 1, "played", None, MoneyRules(beavers=True), 3),
        ("gammon", 1, "played", None, None, 2),
    ],
)
def test_the_jacoby_rule_makes_a_gammon_single_only_while_the_cube_is_untouched(
    kind, cube, ending, history, money, expected
):
    recorded = game(kind=kind, cube=cube, ending=ending, history=history)
    assert check_game(recorded, money=money) == recorded
    assert points(recorded, money) == expected


def test_the_jacoby_rule_does_not_change_a_dropped_double():
    assert points(check_game(game(cube=2, ending="dropped"), money=JACOBY), JACOBY) == 1


@pytest.mark.parametrize(
    ("cube", "history", "expected"),
    [
        (2, [], 2),  # one automatic double: the cube is on 2 in the middle
        (4, [("b", "double"), ("a", "take")], 4),  # either player may double from the middle
        (4, [("a", "double"), ("b", "drop")], 2),  # a double to 4 dropped scores the 2 it stood on
    ],
)
def test_after_an_automatic_double_the_cube_starts_on_2_in_the_middle(cube, history, expected):
    money = MoneyRules(automatic_doubles=1, automatic_double_limit=1)
    ending = "dropped" if history and history[-1][1] == "drop" else "played"
    recorded = game(winner="a", cube=cube, ending=ending, history=history)
    assert check_game(recorded, money=money) == recorded
    assert points(recorded, money) == expected


@pytest.mark.parametrize(("count", "limit"), [(2, 1), (3, 2), (4, 3)])
def test_more_automatic_doubles_than_the_limit_are_refused(count, limit):
    money = MoneyRules(automatic_doubles=count, automatic_double_limit=limit)
    refused(f"This game had {count} automatic doubles; the limit is {limit}.", game(cube=2**count), money=money)


@pytest.mark.parametrize(("count", "limit"), [(1, 1), (2, 3), (3, 3)])
def test_automatic_doubles_within_the_limit_are_accepted(count, limit):
    money = MoneyRules(automatic_doubles=count, automatic_double_limit=limit)
    assert check_game(game(cube=2**count), money=money).cube == 2**count


@pytest.mark.parametrize(("count", "cube"), [(1, 1), (2, 2), (2, 1), (3, 4), (6, 32)])
def test_a_cube_below_what_the_automatic_doubles_made_it_is_refused(count, cube):
    refused(
        f"After {count} automatic doubles the cube is at least {2**count}.",
        game(cube=cube),
        money=MoneyRules(automatic_doubles=count),
    )


@pytest.mark.parametrize(("count", "offered"), [(1, 2), (2, 4), (3, 8)])
def test_a_dropped_double_after_automatic_doubles_offers_more_than_the_cube_in_the_middle(count, offered):
    # two automatic doubles leave the cube on 4: a double offers 8, and a drop scores 4.
    refused(
        f"After {count} automatic doubles the cube is at {offered}, so a dropped double offered at least "
        f"{2 * offered}.",
        game(cube=offered, ending="dropped"),
        money=MoneyRules(automatic_doubles=count),
    )
    accepted = check_game(game(cube=2 ** (count + 1), ending="dropped"), money=MoneyRules(automatic_doubles=count))
    assert points(accepted) == 2**count


def test_automatic_doubles_beyond_64_are_refused():
    refused("After 7 automatic doubles the cube is at least 128.", game(cube=64), money=MoneyRules(automatic_doubles=7))


@given(
    kind=st.sampled_from(sorted(TIMES)),
    cube=st.sampled_from(CUBES),
    ending=st.sampled_from(["played", "resigned"]),
    jacoby=st.booleans(),
)
def test_the_jacoby_rule_never_raises_what_a_game_is_worth(kind, cube, ending, jacoby):
    recorded = game(kind=kind, cube=cube, ending=ending)
    money = MoneyRules(jacoby=jacoby)
    assert 1 * cube <= points(recorded, money) <= points(recorded)
    if not jacoby or cube > 1:
        assert points(recorded, money) == points(recorded)


# --- cube_owner: who holds the cube after a recorded history ------------------------------


@pytest.mark.parametrize(
    ("winner", "cube", "ending", "history", "money", "owner"),
    [
        ("a", 1, "played", [], None, None),
        ("a", 2, "played", [("a", "double"), ("b", "take")], None, "b"),
        ("b", 4, "played", [("a", "double"), ("b", "take"), ("b", "double"), ("a", "take")], None, "a"),
        ("a", 4, "played", [("a", "double"), ("b", "beaver")], BEAVERS, "b"),
        # a drop: who owned the cube when the refused double was offered
        ("a", 2, "dropped", [("a", "double"), ("b", "drop")], None, None),
        ("b", 4, "dropped", [("a", "double"), ("b", "take"), ("b", "double"), ("a", "drop")], None, "b"),
    ],
)
def test_cube_owner_replays_the_history(winner, cube, ending, history, money, owner):
    assert cube_owner(game(winner=winner, cube=cube, ending=ending, history=history), money) == owner


def test_cube_owner_needs_a_history_and_a_game_that_holds_together():
    with pytest.raises(GameError, match="can be read only from a game's cube history"):
        cube_owner(game(cube=2))
    with pytest.raises(GameError, match="doubles without owning the cube"):
        cube_owner(game(cube=4, history=[("a", "double"), ("b", "take"), ("a", "double"), ("b", "take")]))
