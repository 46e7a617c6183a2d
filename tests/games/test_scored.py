"""The generic scored game: every game has two scores, a match is best of K (K odd).

Every refusal is a RuleError whose message says what is wrong; the tests pin the
part of the message a person needs to fix the input.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scored import MAX_SCORE, MatchDecision, RuleError, clean_round_settings, decide_match, result_from_form

BEST_OF_3 = {"best_of": 3}
BEST_OF_5 = {"best_of": 5}

# --- round settings ---------------------------------------------------------------------


@pytest.mark.parametrize("best_of", [1, 3, 5, 7, 49, 97, 99])
def test_an_odd_best_of_from_1_to_99_is_accepted(best_of):
    assert clean_round_settings({"best_of": best_of}) == {"best_of": best_of}


@pytest.mark.parametrize(("raw", "clean"), [("5", 5), (" 7 ", 7), ("1", 1)])
def test_a_best_of_typed_into_a_form_is_read_as_a_number(raw, clean):
    assert clean_round_settings({"best_of": raw}) == {"best_of": clean}


def test_no_best_of_means_best_of_3():
    assert clean_round_settings({}) == {"best_of": 3}


@pytest.mark.parametrize(
    ("best_of", "message"),
    [
        (2, "must be an odd number (1, 3, 5, …) so that a match cannot end level, not 2"),
        (4, "odd number"),
        (98, "odd number"),
        ("10", "odd number"),
        (0, "between 1 and 99, not 0"),
        (-3, "between 1 and 99, not -3"),
        (101, "between 1 and 99, not 101"),
        (1001, "between 1 and 99"),
        ("three", "must be a whole number, not 'three'"),
        ("", "must be a whole number, not ''"),
        (None, "must be a whole number, not None"),
        (3.0, "must be a whole number, not 3.0"),
        (2.5, "must be a whole number, not 2.5"),
        ([3], "must be a whole number"),
        (True, "must be a whole number, not True"),
        (False, "must be a whole number, not False"),
    ],
)
def test_a_bad_best_of_is_refused_with_the_reason(best_of, message):
    with pytest.raises(RuleError) as error:
        clean_round_settings({"best_of": best_of})
    assert message in str(error.value)
    assert str(error.value).startswith("Best of must be")


@pytest.mark.parametrize(
    ("raw", "message"),
    [
        ({"best_of": 3, "match_length": 7}, "Unknown round setting(s): match_length."),
        ({"bestof": 3}, "Unknown round setting(s): bestof."),
        ({"z": 1, "a": 2}, "Unknown round setting(s): a, z."),
    ],
)
def test_an_unknown_round_setting_is_refused_and_named(raw, message):
    with pytest.raises(RuleError) as error:
        clean_round_settings(raw)
    assert str(error.value) == message


# --- deciding a match -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("games", "round_settings", "winner", "score", "summary"),
    [
        ([[21, 15], [21, 18]], BEST_OF_3, "a", (2, 0), "2–0 (21–15, 21–18)"),
        ([[15, 21], [10, 21]], BEST_OF_3, "b", (0, 2), "0–2 (15–21, 10–21)"),
        ([[21, 15], [18, 21], [21, 10]], BEST_OF_3, "a", (2, 1), "2–1 (21–15, 18–21, 21–10)"),
        ([[21, 15], [18, 21], [10, 21]], BEST_OF_3, "b", (1, 2), "1–2 (21–15, 18–21, 10–21)"),
        ([[1, 0], [0, 1], [1, 0], [0, 1], [0, 1]], BEST_OF_5, "b", (2, 3), "2–3 (1–0, 0–1, 1–0, 0–1, 0–1)"),
        ([[3, 2], [3, 1], [3, 0]], BEST_OF_5, "a", (3, 0), "3–0 (3–2, 3–1, 3–0)"),
        ([[0, 5], [6, 5], [7, 2], [9, 8]], BEST_OF_5, "a", (3, 1), "3–1 (0–5, 6–5, 7–2, 9–8)"),
        ([[0, 1]], {"best_of": 1}, "b", (0, 1), "0–1 (0–1)"),
        ([[MAX_SCORE, 0]], {"best_of": 1}, "a", (1, 0), f"1–0 ({MAX_SCORE}–0)"),
        ([["21", " 15 "], [21, "18"]], BEST_OF_3, "a", (2, 0), "2–0 (21–15, 21–18)"),
        ([(21, 15), (21, 18)], BEST_OF_3, "a", (2, 0), "2–0 (21–15, 21–18)"),
        ([[21, 15], [21, 18]], {}, "a", (2, 0), "2–0 (21–15, 21–18)"),  # best of 3 by default
    ],
)
def test_decide_match(games, round_settings, winner, score, summary):
    decision = decide_match({"games": games}, round_settings)
    assert isinstance(decision, MatchDecision)
    assert decision.winner == winner
    assert (decision.score_a, decision.score_b) == score
    assert decision.summary == summary
    assert decision.result == {"games": [[int(a), int(b)] for a, b in games]}


def test_the_stored_result_is_decided_the_same_way_again():
    decision = decide_match({"games": [["21", "15"], ("3", 21), [21, 0]]}, BEST_OF_3)
    assert decide_match(decision.result, BEST_OF_3) == decision


@pytest.mark.parametrize(
    ("result", "round_settings", "message"),
    [
        # no games at all, or not in the expected shape
        ({"games": []}, BEST_OF_3, 'Enter the score of every game played, e.g. {"games": [[21, 15]'),
        ({}, BEST_OF_3, "Enter the score of every game played"),
        ({"games": None}, BEST_OF_3, "Enter the score of every game played"),
        ({"games": "21-15"}, BEST_OF_3, "Enter the score of every game played"),
        ({"games": {"1": [21, 15]}}, BEST_OF_3, "Enter the score of every game played"),
        ([[21, 15], [21, 18]], BEST_OF_3, "Enter the score of every game played"),
        (None, BEST_OF_3, "Enter the score of every game played"),
        # a game must have a winner
        ({"games": [[21, 21]]}, BEST_OF_3, "Game 1 ends level (21–21); every game must have a winner"),
        ({"games": [[21, 15], [0, 0]]}, BEST_OF_3, "Game 2 ends level (0–0)"),
        # games after the match was decided
        (
            {"games": [[21, 15], [21, 18], [21, 10]]},
            BEST_OF_3,
            "The match was over after game 2 (2–0, best of 3): remove the games after it.",
        ),
        ({"games": [[1, 0], [2, 0]]}, {"best_of": 1}, "The match was over after game 1 (1–0, best of 1)"),
        (
            {"games": [[1, 0], [1, 0], [0, 1], [1, 0], [0, 1]]},
            BEST_OF_5,
            "The match was over after game 4 (3–1, best of 5)",
        ),
        # not enough games
        (
            {"games": [[21, 15]]},
            BEST_OF_3,
            "Nobody has won 2 games yet (1–0, best of 3): enter every game up to the one that decided the match.",
        ),
        ({"games": [[1, 0], [0, 1], [1, 0], [0, 1]]}, BEST_OF_5, "Nobody has won 3 games yet (2–2, best of 5)"),
        # scores
        ({"games": [[-1, 5], [5, 0]]}, BEST_OF_3, "Game 1: a score must be between 0 and 100000, not -1"),
        (
            {"games": [[5, 0], [5, MAX_SCORE + 1]]},
            BEST_OF_3,
            "Game 2: a score must be between 0 and 100000, not 100001",
        ),
        ({"games": [[10**30, 0]]}, BEST_OF_3, "Game 1: a score must be between 0 and 100000"),
        ({"games": [["-1", 5]]}, BEST_OF_3, "Game 1: a score must be a whole number, not '-1'"),
        ({"games": [[21.5, 15]]}, BEST_OF_3, "Game 1: a score must be a whole number, not 21.5"),
        ({"games": [[21.0, 15]]}, BEST_OF_3, "Game 1: a score must be a whole number, not 21.0"),
        ({"games": [["21a", 15]]}, BEST_OF_3, "Game 1: a score must be a whole number, not '21a'"),
        ({"games": [["", 15]]}, BEST_OF_3, "Game 1: a score must be a whole number, not ''"),
        ({"games": [[None, 15]]}, BEST_OF_3, "Game 1: a score must be a whole number, not None"),
        ({"games": [[True, False]]}, BEST_OF_3, "Game 1: a score must be a whole number, not True"),
        ({"games": [["²", "1"]]}, BEST_OF_3, "Game 1: a score must be a whole number, not '²'"),
        ({"games": [["x" * 500, "1"]]}, BEST_OF_3, "Game 1: a score must be a whole number, not 'xxx"),
        ({"games": [["9" * 5000, "1"]]}, BEST_OF_3, "Game 1: a score must be between 0 and 100000"),
        ({"games": [["٢١", "15"]]}, BEST_OF_3, "Nobody has won 2 games yet (1–0"),  # Arabic-Indic 21 is a number
        # the shape of a game
        ({"games": [[21, 15, 3]]}, BEST_OF_3, "Game 1 must be a pair of scores like [21, 15], not [21, 15, 3]"),
        ({"games": [[21]]}, BEST_OF_3, "Game 1 must be a pair of scores like [21, 15], not [21]"),
        ({"games": [[21, 15], "21:15"]}, BEST_OF_3, "Game 2 must be a pair of scores like [21, 15], not '21:15'"),
        ({"games": [[21, 15], {"a": 21, "b": 15}]}, BEST_OF_3, "Game 2 must be a pair of scores"),
        ({"games": [[21, 15], None]}, BEST_OF_3, "Game 2 must be a pair of scores like [21, 15], not None"),
        # unknown fields
        ({"games": [[21, 15], [21, 18]], "winner": "a"}, BEST_OF_3, "Unknown result field(s): winner."),
        ({"games": [[1, 0]], "b": 1, "a": 1}, {"best_of": 1}, "Unknown result field(s): a, b."),
        # the round's settings are checked too
        ({"games": [[21, 15], [21, 18]]}, {"best_of": 4}, "Best of must be an odd number"),
    ],
)
def test_decide_match_refuses_a_result_that_breaks_the_rules(result, round_settings, message):
    with pytest.raises(RuleError) as error:
        decide_match(result, round_settings)
    assert message in str(error.value)


@settings(max_examples=200, deadline=None)
@given(
    best_of=st.sampled_from([1, 3, 5, 7, 9]),
    winners=st.lists(st.sampled_from("ab"), min_size=1, max_size=20),
    scores=st.lists(st.tuples(st.integers(0, MAX_SCORE), st.integers(0, MAX_SCORE)), min_size=20, max_size=20),
)
def test_a_match_is_won_by_whoever_first_wins_more_than_half_of_the_games(best_of, winners, scores):
    to_win = best_of // 2 + 1
    games, wins = [], {"a": 0, "b": 0}
    for side, (x, y) in zip(winners, scores, strict=False):
        if max(wins.values()) == to_win:
            break
        low, high = sorted((x, y))
        if low == high:
            high = low + 1 if low < MAX_SCORE else low
            low = high - 1
        games.append([high, low] if side == "a" else [low, high])
        wins[side] += 1
    result = {"games": games}
    if max(wins.values()) < to_win:
        with pytest.raises(RuleError, match=f"Nobody has won {to_win} games yet"):
            decide_match(result, {"best_of": best_of})
        return
    decision = decide_match(result, {"best_of": best_of})
    assert decision.winner == max(wins, key=wins.get)
    assert (decision.score_a, decision.score_b) == (wins["a"], wins["b"])
    assert max(decision.score_a, decision.score_b) == to_win
    assert decision.score_a + decision.score_b == len(games) <= best_of
    with pytest.raises(RuleError, match=f"over after game {len(games)}"):
        decide_match({"games": [*games, [1, 0]]}, {"best_of": best_of})


# --- the result-entry form --------------------------------------------------------------


@pytest.mark.parametrize(
    ("fields", "round_settings", "games"),
    [
        (
            {"game-1-a": "21", "game-1-b": "15", "game-2-a": "21", "game-2-b": "18"},
            BEST_OF_3,
            [["21", "15"], ["21", "18"]],
        ),
        # blank games on both sides were not played
        (
            {"game-1-a": "21", "game-1-b": "15", "game-2-a": " 9 ", "game-2-b": "21", "game-3-a": "", "game-3-b": ""},
            BEST_OF_3,
            [["21", "15"], ["9", "21"]],
        ),
        ({"game-1-a": "", "game-1-b": "", "game-2-a": "1", "game-2-b": "0"}, BEST_OF_3, [["1", "0"]]),
        ({}, BEST_OF_3, []),
        ({"game-1-a": None, "game-1-b": None}, BEST_OF_3, []),
        # fields beyond the best-of and unrelated fields are not games
        ({"game-1-a": "1", "game-1-b": "0", "game-2-a": "1", "game-2-b": "0"}, {"best_of": 1}, [["1", "0"]]),
        (
            {"game-1-a": "3", "game-1-b": "1", "note": "well played", "csrfmiddlewaretoken": "x"},
            {"best_of": 1},
            [["3", "1"]],
        ),
    ],
)
def test_result_from_form(fields, round_settings, games):
    assert result_from_form(fields, round_settings) == {"games": games}


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"game-1-a": "21", "game-1-b": ""}, "Game 1: enter both scores."),
        ({"game-1-a": "21", "game-1-b": "15", "game-2-a": " ", "game-2-b": "7"}, "Game 2: enter both scores."),
        ({"game-3-b": "21"}, "Game 3: enter both scores."),
    ],
)
def test_result_from_form_refuses_a_game_with_one_score(fields, message):
    with pytest.raises(RuleError) as error:
        result_from_form(fields, BEST_OF_3)
    assert str(error.value) == message


def test_result_from_form_refuses_bad_round_settings():
    with pytest.raises(RuleError, match="odd number"):
        result_from_form({"game-1-a": "1", "game-1-b": "0"}, {"best_of": 2})


def test_a_form_result_is_decided_by_the_rules():
    fields = {"game-1-a": "21", "game-1-b": "15", "game-2-a": "18", "game-2-b": "21", "game-3-a": "21", "game-3-b": "9"}
    decision = decide_match(result_from_form(fields, BEST_OF_3), BEST_OF_3)
    assert decision.winner == "a" and decision.summary == "2–1 (21–15, 18–21, 21–9)"
    assert decision.result == {"games": [[21, 15], [18, 21], [21, 9]]}


def test_a_form_with_a_non_number_is_refused_by_the_rules_with_the_game_named():
    result = result_from_form({"game-1-a": "twenty", "game-1-b": "15"}, BEST_OF_3)
    with pytest.raises(RuleError, match="Game 1: a score must be a whole number, not 'twenty'"):
        decide_match(result, BEST_OF_3)
