"""A Scrabble knockout match, best of K games (SPEC §4.5): a win 1, a draw ½; over as
soon as one player cannot be caught; after K games more wins, then the spread (capped
per game if the round sets a cap), then one more game. Never win percentages."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scrabble.match import GameResult, clean_round_settings, match_state
from games.text import RuleError

A_WINS = GameResult(400, 300)  # a by 100
B_WINS = GameResult(300, 400)  # b by 100
DRAW = GameResult(350, 350)


def r(a: int, b: int) -> GameResult:
    return GameResult(a, b)


@pytest.mark.parametrize(
    ("best_of", "results", "wins", "spread", "winner"),
    [
        # best of 1
        pytest.param(1, [], (0, 0), 0, None, id="1_not_started"),
        pytest.param(1, [A_WINS], (1, 0), 100, "a", id="1_a_wins"),
        pytest.param(1, [B_WINS], (0, 1), -100, "b", id="1_b_wins"),
        pytest.param(1, [r(401, 400)], (1, 0), 1, "a", id="1_won_by_one_point"),
        pytest.param(1, [DRAW], (0.5, 0.5), 0, None, id="1_draw_one_more_game"),
        pytest.param(1, [DRAW, r(300, 310)], (0.5, 1.5), -10, "b", id="1_draw_then_b_wins_the_extra_game"),
        pytest.param(1, [DRAW, DRAW, A_WINS], (2, 1), 100, "a", id="1_two_draws_then_a"),
        # best of 3
        pytest.param(3, [A_WINS], (1, 0), 100, None, id="3_one_win_is_not_enough"),
        pytest.param(3, [A_WINS, A_WINS], (2, 0), 200, "a", id="3_two_straight_wins_end_early"),
        pytest.param(3, [B_WINS, B_WINS], (0, 2), -200, "b", id="3_b_two_straight"),
        pytest.param(3, [A_WINS, B_WINS], (1, 1), 0, None, id="3_one_all"),
        pytest.param(3, [A_WINS, B_WINS, r(400, 399)], (2, 1), 1, "a", id="3_a_by_wins_after_three"),
        pytest.param(3, [B_WINS, r(500, 100), r(300, 301)], (1, 2), 299, "b", id="3_wins_before_spread"),
        pytest.param(3, [A_WINS, DRAW], (1.5, 0.5), 100, None, id="3_a_draw_leaves_b_a_chance"),
        pytest.param(3, [A_WINS, DRAW, DRAW], (2, 1), 100, "a", id="3_win_and_two_draws"),
        pytest.param(3, [A_WINS, DRAW, r(300, 450)], (1.5, 1.5), -50, "b", id="3_level_wins_b_by_spread"),
        pytest.param(3, [A_WINS, DRAW, B_WINS], (1.5, 1.5), 0, None, id="3_level_wins_level_spread"),
        pytest.param(3, [A_WINS, DRAW, B_WINS, r(360, 350)], (2.5, 1.5), 10, "a", id="3_fourth_game_decides"),
        pytest.param(3, [DRAW, DRAW, DRAW], (1.5, 1.5), 0, None, id="3_three_draws"),
        pytest.param(3, [DRAW, DRAW], (1, 1), 0, None, id="3_two_draws"),
        # best of 5
        pytest.param(5, [A_WINS, A_WINS], (2, 0), 200, None, id="5_two_wins_not_enough"),
        pytest.param(5, [A_WINS, A_WINS, A_WINS], (3, 0), 300, "a", id="5_three_straight"),
        pytest.param(5, [A_WINS, A_WINS, DRAW], (2.5, 0.5), 200, None, id="5_lead_equal_to_games_left_not_yet"),
        pytest.param(5, [A_WINS, A_WINS, DRAW, DRAW], (3, 1), 200, "a", id="5_three_and_a_half_points"),
        pytest.param(5, [B_WINS, A_WINS, B_WINS, A_WINS], (2, 2), 0, None, id="5_two_all"),
        pytest.param(5, [B_WINS, A_WINS, B_WINS, A_WINS, B_WINS], (2, 3), -100, "b", id="5_b_in_the_fifth"),
        pytest.param(5, [DRAW] * 4 + [r(351, 350)], (3, 2), 1, "a", id="5_four_draws_then_a"),
        pytest.param(5, [DRAW] * 5, (2.5, 2.5), 0, None, id="5_five_draws_one_more_game"),
        pytest.param(5, [A_WINS, A_WINS, B_WINS, B_WINS, DRAW], (2.5, 2.5), 0, None, id="5_level_after_five"),
        pytest.param(5, [r(500, 300), A_WINS, B_WINS, B_WINS, DRAW], (2.5, 2.5), 100, "a", id="5_spread_after_five"),
    ],
)
def test_match_state(best_of, results, wins, spread, winner):
    state = match_state(best_of, results)
    assert (state.wins_a, state.wins_b) == wins
    assert state.spread == spread
    assert state.winner == winner and state.over is (winner is not None)
    assert state.games_played == len(results) and state.results == tuple(results)


@pytest.mark.parametrize(
    ("best_of", "results", "by_spread", "extra"),
    [
        pytest.param(3, [A_WINS, A_WINS], False, 0, id="early_end_by_wins"),
        pytest.param(3, [A_WINS, DRAW, r(300, 450)], True, 0, id="spread_after_k"),
        pytest.param(1, [DRAW, A_WINS], False, 1, id="extra_game_won"),
        pytest.param(3, [A_WINS, DRAW, B_WINS, DRAW, B_WINS], False, 2, id="two_extra_games"),
        pytest.param(3, [A_WINS, DRAW, B_WINS, r(300, 200)], False, 1, id="extra_game_wins_not_spread"),
    ],
)
def test_how_the_match_was_decided(best_of, results, by_spread, extra):
    state = match_state(best_of, results)
    assert state.over and state.decided_by_spread is by_spread and state.extra_games == extra


def test_the_spread_decides_only_after_k_games():
    # b leads by 499 points after 2 of 3 games, but the wins are level: the third is played
    state = match_state(3, [r(100, 600), r(401, 400)])
    assert (state.wins_a, state.wins_b) == (1, 1) and state.spread == -499 and not state.over
    assert match_state(3, [r(100, 600), r(401, 400), r(301, 300)]).winner == "a"


@pytest.mark.parametrize(
    ("cap", "spread", "winner"),
    [
        # +600, -250, -250, +100: 2 wins each
        pytest.param(None, 200, "a", id="no_cap_a"),
        pytest.param(1000, 200, "a", id="cap_above_every_difference"),
        pytest.param(300, 0 + 300 - 250 - 250 + 100, "b", id="cap_300_b"),
        pytest.param(200, 200 - 200 - 200 + 100, "b", id="cap_200_b"),
        pytest.param(250, 250 - 250 - 250 + 100, "b", id="cap_250_b"),
        pytest.param(350, 350 - 250 - 250 + 100, "b", id="cap_350_b"),
        pytest.param(400, 400 - 250 - 250 + 100, None, id="cap_400_level_one_more_game"),
        pytest.param(100, 100 - 100 - 100 + 100, None, id="cap_100_level"),
    ],
)
def test_the_spread_cap_applies_per_game(cap, spread, winner):
    results = [r(700, 100), r(100, 350), r(100, 350), r(400, 300)]
    state = match_state(4, results, spread_cap=cap)
    assert (state.wins_a, state.wins_b) == (2, 2)
    assert state.spread == spread and state.winner == winner
    assert state.decided_by_spread is (winner is not None)


def test_the_spread_cap_does_not_change_who_wins_a_game():
    state = match_state(3, [r(900, 100), r(390, 400), r(389, 400)], spread_cap=300)
    assert (state.wins_a, state.wins_b) == (1, 2) and state.winner == "b" and state.spread == 300 - 10 - 11


@pytest.mark.parametrize(
    ("best_of", "results", "over_after"),
    [
        pytest.param(1, [A_WINS, A_WINS], 1, id="1_after_the_only_game"),
        pytest.param(3, [A_WINS, A_WINS, B_WINS], 2, id="3_after_two_straight"),
        pytest.param(3, [A_WINS, DRAW, r(300, 450), DRAW], 3, id="3_after_the_spread_decided"),
        pytest.param(1, [DRAW, A_WINS, DRAW], 2, id="1_after_the_extra_game"),
        pytest.param(5, [A_WINS] * 3 + [B_WINS], 3, id="5_after_three_straight"),
    ],
)
def test_no_game_is_played_after_the_match_is_over(best_of, results, over_after):
    with pytest.raises(RuleError, match=f"The match was over after game {over_after}."):
        match_state(best_of, results)
    assert match_state(best_of, results[:over_after]).over


# --- Round settings -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("raw", "clean"),
    [
        pytest.param({}, {"best_of": 3, "spread_cap": None}, id="defaults"),
        pytest.param({"best_of": 1}, {"best_of": 1, "spread_cap": None}, id="best_of_1"),
        pytest.param({"best_of": 2}, {"best_of": 2, "spread_cap": None}, id="even_k"),
        pytest.param({"best_of": 15}, {"best_of": 15, "spread_cap": None}, id="best_of_15"),
        pytest.param({"best_of": "5"}, {"best_of": 5, "spread_cap": None}, id="typed_as_text"),
        pytest.param({"best_of": " 7 "}, {"best_of": 7, "spread_cap": None}, id="with_spaces"),
        pytest.param({"best_of": 3, "spread_cap": 300}, {"best_of": 3, "spread_cap": 300}, id="cap_300"),
        pytest.param({"spread_cap": "250"}, {"best_of": 3, "spread_cap": 250}, id="cap_as_text"),
        pytest.param({"spread_cap": 1}, {"best_of": 3, "spread_cap": 1}, id="cap_1"),
        pytest.param({"spread_cap": 1000}, {"best_of": 3, "spread_cap": 1000}, id="cap_1000"),
        pytest.param({"spread_cap": None}, {"best_of": 3, "spread_cap": None}, id="cap_none"),
        pytest.param({"spread_cap": ""}, {"best_of": 3, "spread_cap": None}, id="cap_empty_text"),
        pytest.param({"spread_cap": 0}, {"best_of": 3, "spread_cap": None}, id="cap_0_means_none"),
    ],
)
def test_clean_round_settings(raw, clean):
    assert clean_round_settings(raw) == clean


@pytest.mark.parametrize(
    ("raw", "fragment"),
    [
        pytest.param([3], "Round settings are an object", id="a_list"),
        pytest.param("best_of=3", "Round settings are an object", id="a_string"),
        pytest.param({"best_of": 3, "cap": 300}, "Unknown round setting(s): cap.", id="unknown_key"),
        pytest.param({"rounds": 1, "games": 2}, "Unknown round setting(s): games, rounds.", id="two_unknown"),
        pytest.param({"best_of": 0}, "Best of must be between 1 and 15, not 0.", id="best_of_0"),
        pytest.param({"best_of": 16}, "Best of must be between 1 and 15, not 16.", id="best_of_16"),
        pytest.param({"best_of": -3}, "Best of must be between 1 and 15, not -3.", id="negative"),
        pytest.param({"best_of": "-3"}, "Best of must be a whole number, not '-3'.", id="negative_text"),
        pytest.param({"best_of": 2.5}, "Best of must be a whole number, not 2.5.", id="fraction"),
        pytest.param({"best_of": 3.0}, "Best of must be a whole number, not 3.0.", id="float"),
        pytest.param({"best_of": True}, "Best of must be a whole number, not True.", id="bool"),
        pytest.param({"best_of": "three"}, "Best of must be a whole number", id="word"),
        pytest.param({"best_of": None}, "Best of must be a whole number, not None.", id="none"),
        pytest.param({"best_of": "123456"}, "Best of must be a whole number", id="long_text"),
        pytest.param({"spread_cap": 1001}, "The spread cap is between 1 and 1000 points, not 1001.", id="cap_1001"),
        pytest.param({"spread_cap": -300}, "The spread cap is between 1 and 1000 points, not -300.", id="cap_neg"),
        pytest.param({"spread_cap": "x"}, "The spread cap must be a whole number, not 'x'.", id="cap_text"),
        pytest.param({"spread_cap": 2.5}, "The spread cap must be a whole number", id="cap_fraction"),
    ],
)
def test_clean_round_settings_refuses(raw, fragment):
    with pytest.raises(RuleError) as error:
        clean_round_settings(raw)
    assert fragment in str(error.value)


# --- Invariants ---------------------------------------------------------------------------

results = st.lists(st.builds(GameResult, st.integers(0, 700), st.integers(0, 700)), max_size=12)


def played(best_of: int, games: list[GameResult], cap: int | None) -> list[GameResult]:
    """The games as far as the match goes: none after it is over."""
    for count in range(len(games) + 1):
        if match_state(best_of, games[:count], cap).over:
            return games[:count]
    return games


@settings(max_examples=300)
@given(st.integers(1, 7), results, st.none() | st.integers(1, 400))
def test_a_match_is_symmetric_in_its_two_players(best_of, games, cap):
    games = played(best_of, games, cap)
    state = match_state(best_of, games, cap)
    mirror = match_state(best_of, [GameResult(g.score_b, g.score_a) for g in games], cap)
    assert (mirror.wins_a, mirror.wins_b, mirror.spread) == (state.wins_b, state.wins_a, -state.spread)
    assert mirror.winner == {"a": "b", "b": "a", None: None}[state.winner]
    assert mirror.decided_by_spread == state.decided_by_spread


@settings(max_examples=300)
@given(st.integers(1, 7), results, st.none() | st.integers(1, 400))
def test_wins_spread_and_the_end_follow_the_rules(best_of, games, cap):
    games = played(best_of, games, cap)
    state = match_state(best_of, games, cap)
    assert state.wins_a + state.wins_b == len(games)  # a draw is half to each
    limit = cap if cap is not None else 700
    assert abs(state.spread) <= limit * len(games)
    if cap is None:
        assert state.spread == sum(g.score_a - g.score_b for g in games)
    left = max(0, best_of - len(games))
    lead = abs(state.wins_a - state.wins_b)
    if state.over:
        leader = "a" if state.wins_a > state.wins_b else "b"
        if state.decided_by_spread:
            assert state.wins_a == state.wins_b and left == 0 and state.spread != 0
            assert state.winner == ("a" if state.spread > 0 else "b")
        else:
            assert lead > left and state.winner == leader  # the other cannot catch up
        # and the match was not over one game earlier
        assert not match_state(best_of, games[:-1], cap).over
    else:
        assert lead <= left or (lead == 0 and state.spread == 0)
