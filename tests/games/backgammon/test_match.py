"""A backgammon match to N points (SPEC §3.2): the score, who needs how many points,
the Crawford game and the post-Crawford games, the end of the match and its winner.

The expected scores are worked out by hand from the rules (points of a game = kind ×
cube, or the cube before the double on a drop; no bonus for overshooting N), and the
property tests check the engine against a plain re-computation written here.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.backgammon.match import (
    MatchState,
    add_game,
    clean_round_settings,
    describe,
    replay,
    start,
)
from games.backgammon.scoring import CubeAction, Ending, Game, GameError, Kind

CUBES = (1, 2, 4, 8, 16, 32, 64)
TIMES = {Kind.SINGLE: 1, Kind.GAMMON: 2, Kind.BACKGAMMON: 3}


def g(winner: str, kind: str = "single", cube: int = 1, ending: str = "played", history=None) -> Game:
    if history is not None:
        history = tuple((player, CubeAction(action)) for player, action in history)
    return Game(winner=winner, kind=Kind(kind), cube=cube, ending=Ending(ending), cube_history=history)


def wins(winner: str, count: int) -> list[Game]:
    """``count`` single games for cube 1, all won by ``winner``."""
    return [g(winner)] * count


def crawford_flags(state: MatchState) -> list[bool]:
    return [line.crawford for line in state.lines]


# --- The Crawford game -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("length", "games", "flags", "score", "next_is_crawford"),
    [
        pytest.param(7, wins("a", 6), [False] * 6, (6, 0), True, id="a_reaches_6_of_7_by_singles"),
        pytest.param(
            7, [*wins("a", 4), g("a", "gammon")], [False] * 5, (6, 0), True, id="a_jumps_from_4_to_6_with_a_gammon"
        ),
        pytest.param(7, [g("b", "gammon", 2), g("b", "gammon")], [False, False], (0, 6), True, id="b_reaches_6_first"),
        pytest.param(
            7,
            [g("b", cube=2), g("a", "gammon", 2), g("a", "single", 2)],
            [False] * 3,
            (6, 2),
            True,
            id="trailing_then_6_2",
        ),
        pytest.param(
            7, [*wins("a", 6), g("b")], [False] * 6 + [True], (6, 1), False, id="the_game_at_6_0_was_the_crawford_game"
        ),
        pytest.param(
            7,
            [*wins("a", 6), g("b", "gammon"), g("b", cube=4)],
            [False] * 6 + [True, False],
            (6, 6),
            False,
            id="6_6_after_the_crawford_game_is_not_a_second_one",
        ),
        pytest.param(
            7,
            [*wins("a", 6), g("b"), g("b", "gammon", 2), g("b")],
            [False] * 6 + [True, False, False],
            (6, 6),
            False,
            id="the_trailer_reaching_6_later_gets_no_crawford_game",
        ),
        pytest.param(
            7,
            [*wins("b", 6), g("a", "backgammon")],
            [False] * 6 + [True],
            (3, 6),
            False,
            id="a_backgammon_in_the_crawford_game_scores_3",
        ),
        pytest.param(7, [*wins("a", 5)], [False] * 5, (5, 0), False, id="two_away_is_not_crawford"),
        pytest.param(2, [g("a")], [False], (1, 0), True, id="match_to_2_at_1_0"),
        pytest.param(2, [g("a"), g("b")], [False, True], (1, 1), False, id="match_to_2_at_1_1_after_crawford"),
        pytest.param(3, [g("b", cube=2)], [False], (0, 2), True, id="match_to_3_at_0_2"),
        pytest.param(1, [], [], (0, 0), False, id="match_to_1_has_no_crawford_game"),
        pytest.param(11, [*wins("a", 10)], [False] * 10, (10, 0), True, id="match_to_11_at_10_0"),
    ],
)
def test_crawford_game_is_only_the_first_game_at_n_minus_1(length, games, flags, score, next_is_crawford):
    state = replay(length, True, games)
    assert crawford_flags(state) == flags
    assert (state.score_a, state.score_b) == score
    assert state.next_is_crawford is next_is_crawford
    assert state.cube_allowed is not next_is_crawford
    assert not state.over


def test_the_crawford_game_appears_exactly_once_in_a_long_match():
    games = [*wins("a", 6), g("b"), g("b", cube=2), g("b", "gammon"), g("b")]  # 6-0, C: 6-1, 6-3, 6-5, 6-6
    state = start(7)
    flags = []
    for game in games:
        flags.append(state.next_is_crawford)
        state = add_game(state, game)
    assert flags == [False] * 6 + [True] + [False] * 3
    assert crawford_flags(state) == flags
    assert (state.score_a, state.score_b) == (6, 6)
    assert state.crawford_played
    assert not state.next_is_crawford


def test_the_game_after_the_crawford_game_is_post_crawford_and_allows_the_cube():
    state = replay(7, True, [*wins("a", 6), g("b")])
    assert state.post_crawford
    assert state.cube_allowed
    assert not state.next_is_crawford
    state = add_game(state, g("b", cube=2, history=[("b", "double"), ("a", "take")]))
    assert (state.score_a, state.score_b) == (6, 3)
    assert state.lines[-1].crawford is False
    assert state.post_crawford


@pytest.mark.parametrize(
    ("game", "score"),
    [
        (g("b", cube=2), (6, 8)),
        (g("a", cube=2, ending="dropped"), (7, 6)),
        (g("b", cube=4, history=[("a", "double"), ("b", "take"), ("b", "double"), ("a", "take")]), (6, 10)),
        (g("a", "gammon", 2), (10, 6)),
    ],
)
def test_at_double_match_point_after_the_crawford_game_doubling_is_allowed(game, score):
    state = replay(7, True, [*wins("a", 6), g("b", "gammon"), g("b", cube=4)])  # 6-0, C: 6-2, 6-6
    assert (state.score_a, state.score_b) == (6, 6)
    assert state.cube_allowed and state.post_crawford
    state = add_game(state, game)
    assert (state.score_a, state.score_b) == score
    assert state.over


def test_a_match_to_1_point_has_no_crawford_game_and_allows_the_cube():
    state = start(1)
    assert not state.next_is_crawford
    assert state.cube_allowed
    state = add_game(state, g("b", cube=2, ending="dropped"))
    assert state.over and state.winner == "b"
    assert crawford_flags(state) == [False]
    assert (state.score_a, state.score_b) == (0, 1)


@pytest.mark.parametrize(
    ("length", "games"),
    [
        (7, wins("a", 6)),
        (7, [*wins("a", 6), g("b", cube=2)]),
        (7, [*wins("a", 6), *wins("b", 6)]),
        (2, [g("a")]),
        (3, [g("a", cube=2), g("b", cube=2, ending="dropped")]),
    ],
)
def test_without_the_crawford_rule_there_is_never_a_crawford_game(length, games):
    state = start(length, crawford_rule=False)
    for game in games:
        assert not state.next_is_crawford
        assert state.cube_allowed
        state = add_game(state, game)
    assert not state.next_is_crawford
    assert not state.crawford_played
    assert not state.post_crawford
    assert state.cube_allowed
    assert not any(crawford_flags(state))


def test_without_the_crawford_rule_a_player_at_n_minus_1_may_be_doubled():
    state = add_game(replay(7, False, wins("a", 6)), g("b", cube=2, history=[("b", "double"), ("a", "take")]))
    assert (state.score_a, state.score_b) == (6, 2)


@pytest.mark.parametrize(
    ("game", "score"),
    [
        (g("a"), (7, 0)),
        (g("a", "gammon"), (8, 0)),
        (g("a", "backgammon", ending="resigned"), (9, 0)),
    ],
)
def test_if_the_leader_wins_the_crawford_game_the_match_is_over(game, score):
    state = replay(7, True, wins("a", 6))
    assert state.next_is_crawford
    state = add_game(state, game)
    assert state.over
    assert state.winner == "a"
    assert (state.score_a, state.score_b) == score
    assert state.lines[-1].crawford
    assert not state.post_crawford  # nothing comes after a finished match
    assert not state.next_is_crawford


# --- The end of the match ------------------------------------------------------------------


def test_overshooting_n_ends_the_match_without_bonus():
    # 6-0 in a 7-point match without the Crawford rule (with it, 6-0 is the Crawford game
    # and no cube 2 could be played): a gammon with the cube on 2 is worth 4, so 10-0.
    state = replay(7, False, wins("a", 6))
    assert (state.score_a, state.score_b) == (6, 0)
    state = add_game(state, g("a", "gammon", 2))
    assert (state.score_a, state.score_b) == (10, 0)
    assert state.lines[-1].points == 4
    assert state.lines[-1].score_after == (10, 0)
    assert state.over
    assert state.winner == "a"
    assert (state.away_a, state.away_b) == (0, 7)


def test_overshooting_n_with_the_crawford_rule_from_5_0():
    state = replay(7, True, [*wins("a", 5), g("a", "gammon", 2)])
    assert (state.score_a, state.score_b) == (9, 0)
    assert state.over and state.winner == "a"
    assert not any(crawford_flags(state))


@pytest.mark.parametrize(
    ("length", "games", "score", "winner"),
    [
        (7, wins("a", 7), (7, 0), "a"),  # Crawford at 6-0 won by the leader
        (7, [*wins("a", 6), g("b", "gammon"), g("b", cube=4), g("b", cube=2, ending="dropped")], (6, 7), "b"),
        (5, [g("b", cube=4, ending="dropped"), g("b", cube=64, ending="dropped")], (0, 34), "b"),
        (1, [g("a")], (1, 0), "a"),
        (99, [g("a", "backgammon", 64)], (192, 0), "a"),
    ],
)
def test_the_match_ends_when_a_player_reaches_n_and_names_the_winner(length, games, score, winner):
    state = replay(length, True, games)
    assert (state.score_a, state.score_b) == score
    assert state.over
    assert state.winner == winner
    assert state.score_of(state.winner) >= length


def test_no_game_may_be_added_to_a_finished_match():
    state = replay(7, True, wins("a", 7))
    with pytest.raises(GameError) as error:
        add_game(state, g("b"))
    assert str(error.value) == "The match is over (7–0 of 7): no game can be added."
    assert state == replay(7, True, wins("a", 7))


def test_replay_refuses_games_after_the_end_of_the_match():
    with pytest.raises(GameError) as error:
        replay(3, True, [g("b", "gammon", 2), g("a")])
    assert "The match is over (0–4 of 3): no game can be added." in str(error.value)


# --- Invalid games are refused, and the match is unchanged ---------------------------------------

SIX_LOVE = wins("a", 6)  # before the Crawford game of a 7-point match


@pytest.mark.parametrize(
    ("before", "game", "message"),
    [
        ([], g("a", ending="dropped"), "Game 1: A dropped double is recorded with the cube offered (2, 4, …)"),
        ([], g("a", "gammon", 2, "dropped"), "Game 1: A dropped double scores the cube before the double; it cannot"),
        ([], Game(winner="a", cube=3), "Game 1: The cube is 1, 2, 4, 8, 16, 32 or 64, not 3."),
        ([], g("a", cube=2, history=[("a", "double")]), "Game 1: The last double was neither taken nor dropped."),
        (
            [g("b")],
            g("a", cube=4, history=[("a", "double"), ("b", "beaver")]),
            "Game 2: Beavers are not played here (only in money play that allows them).",
        ),
        (
            [g("b"), g("a")],
            g("b", cube=2, ending="dropped", history=[("a", "double"), ("b", "drop")]),
            "Game 3: The player who dropped the double loses the game.",
        ),
        (
            [g("b"), g("a")],
            g("b", cube=2, history=[("a", "double"), ("b", "take"), ("b", "double"), ("a", "take")]),
            "Game 3: The cube history brings the cube to 4, but the game records 2.",
        ),
        (SIX_LOVE, g("b", cube=2), "Game 7: The cube stays at 1 in the Crawford game: nobody may double."),
        (SIX_LOVE, g("a", "gammon", 64), "Game 7: The cube stays at 1 in the Crawford game"),
        (SIX_LOVE, g("b", cube=2, ending="resigned"), "Game 7: The cube stays at 1 in the Crawford game"),
        (
            SIX_LOVE,
            g("b", cube=2, ending="dropped"),
            "Game 7: No double can be offered in the Crawford game, so none can be dropped.",
        ),
        (SIX_LOVE, g("a", history=[("b", "double")]), "Game 7: The cube stays at 1 in the Crawford game"),
        (
            [*wins("b", 4), g("b", "gammon")],  # 0-6
            g("a", cube=2, history=[("a", "double"), ("b", "take")]),
            "Game 6: The cube stays at 1 in the Crawford game",
        ),
    ],
)
def test_an_invalid_game_is_refused_naming_the_game_and_the_rule(before, game, message):
    state = replay(7, True, before)
    with pytest.raises(GameError) as error:
        add_game(state, game)
    assert str(error.value).startswith(message)
    assert state == replay(7, True, before)  # the match is unchanged
    assert state.games_played == len(before)


def test_a_refused_game_translates_with_its_number_and_rule():
    state = replay(7, True, SIX_LOVE)
    with pytest.raises(GameError) as error:
        add_game(state, g("b", cube=2))
    catalogue = {
        "Game %(number)d: %(problem)s": "Hra %(number)d: %(problem)s",
        "The cube stays at 1 in the Crawford game: nobody may double.": "Kostka zůstává na 1.",
    }
    assert error.value.translate(lambda message: catalogue.get(message, message)) == "Hra 7: Kostka zůstává na 1."


def test_the_crawford_game_refused_once_can_be_entered_correctly_next():
    state = replay(7, True, SIX_LOVE)
    with pytest.raises(GameError):
        add_game(state, g("b", cube=2))
    state = add_game(state, g("b", "gammon"))
    assert (state.score_a, state.score_b) == (6, 2)
    assert crawford_flags(state)[-1]


# --- Score lines, away counts and the description ------------------------------------------------


def test_each_line_keeps_the_game_its_points_and_the_score_around_it():
    games = [
        g("a", "gammon", 2),  # 4
        g("b", cube=4, ending="dropped"),  # 2
        g("b", "backgammon"),  # 3
        g("a", "single", 1, "resigned"),  # 1
        g("b", cube=2),  # 2
    ]
    state = replay(9, True, games)
    assert [(line.number, line.points, line.score_before, line.score_after) for line in state.lines] == [
        (1, 4, (0, 0), (4, 0)),
        (2, 2, (4, 0), (4, 2)),
        (3, 3, (4, 2), (4, 5)),
        (4, 1, (4, 5), (5, 5)),
        (5, 2, (5, 5), (5, 7)),
    ]
    assert [line.game for line in state.lines] == games
    assert (state.score_a, state.score_b) == (5, 7)
    assert not state.over


@pytest.mark.parametrize(
    ("length", "crawford", "games", "away"),
    [
        (7, True, [], (7, 7)),
        (7, True, [*wins("a", 4), *wins("b", 2)], (3, 5)),  # "3-away, 5-away"
        (7, True, [*wins("a", 6), g("b", "gammon"), g("b", cube=4)], (1, 1)),
        (7, False, [*wins("a", 6), g("a", "gammon", 2)], (0, 7)),
        (1, True, [], (1, 1)),
        (1, True, [g("b", "backgammon", 4)], (1, 0)),
        (5, True, [g("b", cube=2)], (5, 3)),
    ],
)
def test_away_counts_say_how_many_points_each_player_needs(length, crawford, games, away):
    state = replay(length, crawford, games)
    assert (state.away_a, state.away_b) == away


@pytest.mark.parametrize(
    ("length", "crawford", "games", "text"),
    [
        (7, True, [], "0–0 of 7"),
        (7, True, [*wins("a", 4), *wins("b", 2)], "4–2 of 7"),
        (7, True, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon")], "6–3 of 7, Crawford game"),
        (7, True, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon"), g("b")], "6–4 of 7, post-Crawford"),
        (
            7,
            True,
            [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon"), g("b"), g("a", cube=2)],
            "8–4 of 7, match over",
        ),
        (7, True, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon"), g("a")], "7–3 of 7, match over"),
        (7, False, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon")], "6–3 of 7"),
        (7, False, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon"), g("b")], "6–4 of 7"),
        (1, True, [], "0–0 of 1"),
        (1, True, [g("b")], "0–1 of 1, match over"),
        (
            11,
            True,
            [g("b", "gammon", 4), g("a", cube=2, ending="dropped"), g("b", "single", 2)],
            "1–10 of 11, Crawford game",
        ),
    ],
)
def test_describe_shows_the_score_and_the_crawford_status(length, crawford, games, text):
    assert str(describe(replay(length, crawford, games))) == text


def test_describe_is_translated_before_the_score_is_filled_in():
    state = replay(7, True, [*wins("b", 3), g("a", "gammon", 2), g("a", "gammon")])
    czech = {"%(a)d–%(b)d of %(length)d, Crawford game": "%(a)d:%(b)d do %(length)d, Crawfordova hra"}
    assert describe(state).translate(lambda message: czech.get(message, message)) == "6:3 do 7, Crawfordova hra"


# --- start and the round settings -------------------------------------------------------------------


NO_CLOCK = {"clock": "none", "clock_minutes_per_point": 2, "clock_delay": 12}


@pytest.mark.parametrize("length", [0, -1, 100, 1000, True, False, "7", 7.0, None])
def test_start_refuses_a_match_length_outside_1_to_99(length):
    with pytest.raises(GameError) as error:
        start(length)
    assert f"A match is played to 1 to 99 points, not {length!r}." in str(error.value)


@pytest.mark.parametrize("length", [1, 2, 3, 7, 11, 25, 99])
def test_a_match_length_from_1_to_99_is_accepted(length):
    assert clean_round_settings({"match_length": length}) == {"match_length": length, "crawford": True, **NO_CLOCK}
    state = start(length)
    assert (state.score_a, state.score_b, state.length) == (0, 0, length)
    assert not state.over and state.winner is None


def test_no_round_settings_mean_a_7_point_match_with_the_crawford_rule():
    assert clean_round_settings({}) == {"match_length": 7, "crawford": True, **NO_CLOCK}


@pytest.mark.parametrize(("raw", "clean"), [("7", 7), (" 11 ", 11), ("1", 1), ("99", 99), ("007", 7)])
def test_a_match_length_typed_into_a_form_is_read_as_a_number(raw, clean):
    assert clean_round_settings({"match_length": raw}) == {"match_length": clean, "crawford": True, **NO_CLOCK}


@pytest.mark.parametrize("crawford", [True, False])
def test_the_crawford_rule_is_a_round_setting(crawford):
    assert clean_round_settings({"match_length": 5, "crawford": crawford}) == {
        "match_length": 5,
        "crawford": crawford,
        **NO_CLOCK,
    }


@pytest.mark.parametrize(
    ("raw", "problem"),
    [
        ({"clock": "sometimes"}, "The match clock is none, allowed or required"),
        ({"clock": "required", "clock_minutes_per_point": 0}, "minutes per point are from 1 to 10"),
        ({"clock": "required", "clock_minutes_per_point": True}, "minutes per point are from 1 to 10"),
        ({"clock": "required", "clock_delay": 61}, "delay is from 0 to 60 seconds"),
        ({"clock": "required", "clock_delay": -1}, "delay is from 0 to 60 seconds"),
    ],
)
def test_match_clock_round_settings_are_checked(raw, problem):
    with pytest.raises(GameError, match=problem):
        clean_round_settings({"match_length": 7, **raw})


def test_match_clock_round_settings_are_kept_and_typed_numbers_read():
    assert clean_round_settings(
        {"match_length": 7, "clock": "required", "clock_minutes_per_point": "3", "clock_delay": "0"}
    ) == {"match_length": 7, "crawford": True, "clock": "required", "clock_minutes_per_point": 3, "clock_delay": 0}


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"match_length": 0}, "A match is played to 1 to 99 points, not 0."),
        ({"match_length": "0"}, "A match is played to 1 to 99 points, not 0."),
        ({"match_length": 100}, "A match is played to 1 to 99 points, not 100."),
        ({"match_length": "100"}, "A match is played to 1 to 99 points, not 100."),
        ({"match_length": "1000"}, "A match is played to 1 to 99 points, not '1000'."),
        ({"match_length": -7}, "A match is played to 1 to 99 points, not -7."),
        ({"match_length": "-7"}, "A match is played to 1 to 99 points, not '-7'."),
        ({"match_length": "x"}, "A match is played to 1 to 99 points, not 'x'."),
        ({"match_length": ""}, "A match is played to 1 to 99 points, not ''."),
        ({"match_length": "7.5"}, "A match is played to 1 to 99 points, not '7.5'."),
        ({"match_length": 7.0}, "A match is played to 1 to 99 points, not 7.0."),
        ({"match_length": True}, "A match is played to 1 to 99 points, not True."),
        ({"match_length": None}, "A match is played to 1 to 99 points, not None."),
        ({"match_length": [7]}, "A match is played to 1 to 99 points, not [7]."),
        ({"crawford": "yes"}, "The Crawford rule is on (true) or off (false), not 'yes'."),
        ({"crawford": "true"}, "The Crawford rule is on (true) or off (false), not 'true'."),
        ({"crawford": 1}, "The Crawford rule is on (true) or off (false), not 1."),
        ({"crawford": 0}, "The Crawford rule is on (true) or off (false), not 0."),
        ({"crawford": None}, "The Crawford rule is on (true) or off (false), not None."),
        ({"match_length": 7, "best_of": 3}, "Unknown round setting(s): best_of."),
        ({"length": 7, "crawford_rule": True}, "Unknown round setting(s): crawford_rule, length."),
    ],
)
def test_bad_round_settings_are_refused_with_the_reason(raw, message):
    with pytest.raises(GameError) as error:
        clean_round_settings(raw)
    assert str(error.value) == message


@pytest.mark.parametrize("raw", [[7], "7", 7, None])
def test_round_settings_that_are_not_an_object_are_refused(raw):
    with pytest.raises(GameError) as error:
        clean_round_settings(raw)
    assert str(error.value) == 'Round settings are an object such as {"match_length": 7}.'


# --- Properties: random matches of valid games ----------------------------------------------------


def other(side: str) -> str:
    return "b" if side == "a" else "a"


def cube_story(winner: str, cube: int, ending: Ending, first: str) -> tuple:
    """A cube history that brings the cube to ``cube``: doubles alternate, each taken,
    and on a drop the winner makes the last double and the loser drops it."""
    doubles = cube.bit_length() - 1
    if ending == Ending.DROPPED:
        first = winner if (doubles - 1) % 2 == 0 else other(winner)
    history = []
    doubler = first
    for number in range(doubles):
        answer = CubeAction.DROP if ending == Ending.DROPPED and number == doubles - 1 else CubeAction.TAKE
        history += [(doubler, CubeAction.DOUBLE), (other(doubler), answer)]
        doubler = other(doubler)
    return tuple(history)


def a_valid_game(data: st.DataObject, cube_allowed: bool) -> Game:
    winner = data.draw(st.sampled_from("ab"))
    if not cube_allowed:
        return Game(
            winner=winner,
            kind=data.draw(st.sampled_from(list(Kind))),
            cube=1,
            ending=data.draw(st.sampled_from([Ending.PLAYED, Ending.RESIGNED])),
            cube_history=data.draw(st.sampled_from([None, ()])),
        )
    ending = data.draw(st.sampled_from(list(Ending)))
    if ending == Ending.DROPPED:
        kind, cube = Kind.SINGLE, data.draw(st.sampled_from(CUBES[1:]))
    else:
        kind, cube = data.draw(st.sampled_from(list(Kind))), data.draw(st.sampled_from(CUBES[:4]) | st.just(64))
    history = None
    if data.draw(st.booleans()):
        history = cube_story(winner, cube, ending, data.draw(st.sampled_from("ab")))
    return Game(winner=winner, kind=kind, cube=cube, ending=ending, cube_history=history)


def worth(game: Game) -> int:
    """Points of one game, straight from SPEC §3.1."""
    if game.ending == Ending.DROPPED:
        return game.cube // 2
    return TIMES[game.kind] * game.cube


@settings(max_examples=300, deadline=None)
@given(length=st.integers(1, 15), crawford_rule=st.booleans(), data=st.data())
def test_a_random_match_agrees_with_a_plain_recomputation(length, crawford_rule, data):
    state = start(length, crawford_rule)
    games: list[Game] = []
    # the model: the score, and whether the Crawford game has been played
    score = {"a": 0, "b": 0}
    crawford_done = False
    model_flags: list[bool] = []
    limit = data.draw(st.integers(0, 40))
    while not state.over and len(games) < limit:
        at_n_minus_1 = [score["a"] == length - 1, score["b"] == length - 1]
        crawford_now = crawford_rule and not crawford_done and at_n_minus_1[0] != at_n_minus_1[1]
        assert state.next_is_crawford == crawford_now
        assert state.cube_allowed == (not crawford_now)
        assert state.post_crawford == crawford_done
        assert describe(state).message.endswith(
            ", Crawford game" if crawford_now else ", post-Crawford" if crawford_done else "of %(length)d"
        )
        if crawford_now:  # a doubled game is refused, and nothing changes
            with pytest.raises(GameError) as error:
                add_game(state, Game(winner="a", cube=2))
            assert str(error.value).startswith(f"Game {len(games) + 1}: The cube stays at 1 in the Crawford game")
        game = a_valid_game(data, state.cube_allowed)
        state = add_game(state, game)
        games.append(game)
        model_flags.append(crawford_now)
        crawford_done = crawford_done or crawford_now
        score[game.winner] += worth(game)
        # never over before a score reaches N; over as soon as one does
        assert state.over == (max(score.values()) >= length)
        assert (state.score_a, state.score_b) == (score["a"], score["b"])
        assert (state.away_a, state.away_b) == (max(length - score["a"], 0), max(length - score["b"], 0))

    # the score is the sum of each player's game points
    for side in "ab":
        assert state.score_of(side) == sum(worth(game) for game in games if game.winner == side)
    assert [line.points for line in state.lines] == [worth(game) for game in games]
    # the match ended exactly at the first game that brought a score to N
    reached = [max(line.score_after) >= length for line in state.lines]
    assert not any(reached[:-1])
    assert state.over == (bool(reached) and reached[-1])
    if state.over:
        assert state.winner == games[-1].winner
        assert state.score_of(state.winner) >= length > state.score_of(other(state.winner))
        with pytest.raises(GameError):
            add_game(state, Game(winner="a"))
    else:
        assert state.winner is None
    # at most one Crawford game, where the model puts it, and exactly when the rule says
    flags = crawford_flags(state)
    assert flags == model_flags
    assert flags.count(True) <= 1
    one_at_n_minus_1 = [
        (line.score_before[0] == length - 1) != (line.score_before[1] == length - 1) for line in state.lines
    ]
    assert any(flags) == (crawford_rule and any(one_at_n_minus_1))
    if any(flags):
        assert flags.index(True) == one_at_n_minus_1.index(True)
    # the state is derived from the games alone
    assert replay(length, crawford_rule, games) == state


@given(length=st.integers(2, 25), leader=st.sampled_from("ab"), data=st.data())
def test_the_crawford_game_comes_whenever_a_player_first_reaches_n_minus_1(length, leader, data):
    # the leader climbs to N-1 in random steps that never pass it; the trailer wins now and
    # then but stays below N-1
    trailer = other(leader)
    state = start(length)
    while state.score_of(leader) < length - 1:
        assert not state.next_is_crawford
        assert state.cube_allowed
        winner = data.draw(st.sampled_from([leader, trailer]))
        room = length - 1 - state.score_of(winner) - (1 if winner == trailer else 0)
        if room < 1:
            continue
        step = data.draw(st.sampled_from([p for p in (1, 2, 3) if p <= room]))
        kind = {1: Kind.SINGLE, 2: Kind.GAMMON, 3: Kind.BACKGAMMON}[step]
        state = add_game(state, Game(winner=winner, kind=kind))
    assert state.score_of(leader) == length - 1
    assert state.score_of(trailer) < length - 1
    assert state.next_is_crawford
    assert not state.cube_allowed
    assert str(describe(state)).endswith(", Crawford game")
