"""A chess knockout mini-match (SPEC §5): the director's tie-break text, the kinds of
stage by FIDE's "60 moves" rule, and the match derived from its games — colours, stage
ends, the Armageddon lot and draw odds, the undecided match — plus the flag rules.

Expected values are worked out by hand. Games are written from the sides' point of
view: "a" (side a won), "b" or "=" (a draw); the helper gives the result the colours
that the schedule says.
"""

from __future__ import annotations

import dataclasses

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.controls import MINUTE, SECOND, Delay, Period, TimeControl, format_pgn, parse_pgn
from games.chess.minimatch import (
    GameLine,
    MatchGame,
    MiniMatchState,
    Plan,
    Stage,
    StageKind,
    add_game,
    both_flags_result,
    classify_control,
    describe,
    flag_fall_result,
    format_tiebreaks,
    half_text,
    make_plan,
    parse_tiebreaks,
    record_armageddon_lot,
    replay,
    sixty_move_time,
    start,
)
from games.chess.results import GameResult, Result, Termination
from games.text import RuleError

CLASSICAL = parse_pgn("5400+30")
RAPID_25 = parse_pgn("1500+10")
RAPID_10 = parse_pgn("600+10")
BLITZ_5 = parse_pgn("300+3")
ARMAGEDDON_WHITE = dataclasses.replace(parse_pgn("300+3"), increment_from_move=61)
ARMAGEDDON_BLACK = dataclasses.replace(parse_pgn("240+3"), increment_from_move=61)
SPEC_TIEBREAKS = "2x1500+10; 2x600+10; 2x300+3; armageddon 300+3 v 240+3 @61"

WHITE = GameResult(Result.WHITE_WINS, Termination.RESIGNATION)
BLACK = GameResult(Result.BLACK_WINS, Termination.RESIGNATION)
DRAW = GameResult(Result.DRAW, Termination.AGREED_DRAW)


def plan(games: int = 2, tiebreaks: str = "") -> Plan:
    return make_plan(games, CLASSICAL, parse_tiebreaks(tiebreaks))


def game_for(state: MiniMatchState, outcome: str) -> MatchGame:
    """The scheduled game, won by side ``outcome`` ("a"/"b") or drawn ("=")."""
    assert state.next_game is not None, state
    white = state.next_game.white
    if outcome == "=":
        return MatchGame(white, DRAW)
    return MatchGame(white, WHITE if outcome == white else BLACK)


def play(state: MiniMatchState, outcomes: str) -> MiniMatchState:
    for outcome in outcomes:
        state = add_game(state, game_for(state, outcome))
    return state


def refused(state: MiniMatchState, game: object) -> str:
    """add_game refuses ``game``; the state is as it was (it is immutable)."""
    before = dataclasses.replace(state)
    with pytest.raises(RuleError) as error:
        add_game(state, game)  # type: ignore[arg-type]
    assert state == before
    return str(error.value)


# --- The director's tie-break text ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "stages"),
    [
        ("", []),
        ("   ", []),
        ("2x1500+10", [("rapid", 2, "1500+10", "1500+10", 1)]),
        ("2 x 1500+10", [("rapid", 2, "1500+10", "1500+10", 1)]),
        ("2×600+10", [("rapid", 2, "600+10", "600+10", 1)]),
        ("2 × 600+10", [("rapid", 2, "600+10", "600+10", 1)]),
        ("2X300+3", [("blitz", 2, "300+3", "300+3", 1)]),
        ("4x*180", [("blitz", 4, "*180", "*180", 1)]),
        ("1x40/5400:1800+30", [("classical", 1, "40/5400:1800+30", "40/5400:1800+30", 1)]),
        ("2x300+2 @41", [("blitz", 2, "300+2", "300+2", 41)]),
        ("2x600+10;2x300+3", [("rapid", 2, "600+10", "600+10", 1), ("blitz", 2, "300+3", "300+3", 1)]),
        ("2x600+10, 2x300+3", [("rapid", 2, "600+10", "600+10", 1), ("blitz", 2, "300+3", "300+3", 1)]),
        ("2x600+10;", [("rapid", 2, "600+10", "600+10", 1)]),
        ("armageddon 300+3 v 240+3 @61", [("armageddon", 1, "300+3", "240+3", 61)]),
        ("Armageddon 300+3 vs 240+3@61", [("armageddon", 1, "300+3", "240+3", 61)]),
        ("ARMAGEDDON 300+3 v. 240+3 @ 61", [("armageddon", 1, "300+3", "240+3", 61)]),
        ("armageddon 300 v 240", [("armageddon", 1, "300", "240", 1)]),
        ("armageddon 300 v 300", [("armageddon", 1, "300", "300", 1)]),
        (
            SPEC_TIEBREAKS,
            [
                ("rapid", 2, "1500+10", "1500+10", 1),
                ("rapid", 2, "600+10", "600+10", 1),
                ("blitz", 2, "300+3", "300+3", 1),
                ("armageddon", 1, "300+3", "240+3", 61),
            ],
        ),
    ],
    ids=[
        "empty",
        "blank",
        "rapid_25_10",
        "spaces_around_x",
        "times_sign",
        "times_sign_with_spaces",
        "capital_x",
        "sandclock",
        "multi_period",
        "increment_from_a_later_move",
        "semicolon",
        "comma",
        "trailing_separator",
        "armageddon",
        "armageddon_vs_and_attached_move",
        "armageddon_upper_case_v_dot",
        "armageddon_without_increment",
        "armageddon_equal_times",
        "spec_example",
    ],
)
def test_parse_tiebreaks(text, stages):
    parsed = parse_tiebreaks(text)
    assert [
        (
            s.kind.value,
            s.games,
            format_pgn(dataclasses.replace(s.white_control, increment_from_move=1)),
            format_pgn(dataclasses.replace(s.black_control, increment_from_move=1)),
            s.white_control.increment_from_move,
        )
        for s in parsed
    ] == stages
    assert all(s.white_control.increment_from_move == s.black_control.increment_from_move for s in parsed)


def test_the_armageddon_of_the_spec():
    (*_, armageddon) = parse_tiebreaks(SPEC_TIEBREAKS)
    assert armageddon == Stage(StageKind.ARMAGEDDON, 1, ARMAGEDDON_WHITE, ARMAGEDDON_BLACK)
    assert armageddon.white_control.initial == 5 * MINUTE
    assert armageddon.black_control.initial == 4 * MINUTE
    assert armageddon.white_control.increment_after(60) == 0
    assert armageddon.white_control.increment_after(61) == 3 * SECOND


@pytest.mark.parametrize(
    ("text", "fragments"),
    [
        ("2", ["'2' is not a tie-break stage", "2x600+10", "armageddon 300+3 v 240+3 @61"]),
        ("x600", ["'x600' is not a tie-break stage"]),
        ("2x", ["'2x' is not a tie-break stage"]),
        ("2 games 600+10", ["'2 games 600+10' is not a tie-break stage"]),
        ("2x600+10 armageddon", ["'2x600+10 armageddon' is not a tie-break stage"]),
        ("2x 10+5 min", ["'2x 10+5 min' is not a tie-break stage"]),
        ("2 armageddon 300 v 240", ["'2 armageddon 300 v 240' is not a tie-break stage"]),
        ("armageddon 300+3", ["'armageddon 300+3' is not a tie-break stage"]),
        ("0x600", ["'0x600': a stage has 1 to 40 games", "2x600+10"]),
        ("41x600", ["'41x600': a stage has 1 to 40 games"]),
        ("2x10:00", ["'2x10:00':", "not a usable time control", "in seconds", "2x600+10"]),
        ("2xabc", ["'2xabc':", "not a PGN time control"]),
        ("2x0", ["'2x0':", "not a usable time control"]),
        ("2x-", ["'2x-' needs a time control in seconds", "2x600+10"]),
        ("2x?", ["'2x?' needs a time control in seconds"]),
        ("2x600 @41", ["'2x600 @41': @41 is the move the increment starts from, but there is no increment"]),
        ("armageddon 300 v 240 @61", ["@61 is the move the increment starts from", "300+3 v 240+3 @61"]),
        ("armageddon 300+3 v 240+3 @0", ["'armageddon 300+3 v 240+3 @0':", "increment starts at a move number"]),
        ("armageddon 300+3 v 240+3 @501", ["increment starts at a move number"]),
        ("armageddon 240+3 v 300+3", ["White has at least as much time as Black", "300+3 v 240+3 @61"]),
        ("armageddon 300 v 240; 2x600+10", ["'armageddon 300 v 240': Armageddon can only be the last stage"]),
        ("armageddon 300 v 240; armageddon 300 v 240", ["Armageddon can only be the last stage"]),
        (";".join(["2x600"] * 11), ["At most 10 tie-break stages, not 11."]),
        ("2x600+10; 2y10", ["'2y10' is not a tie-break stage"]),
    ],
    ids=[
        "count_only",
        "no_count",
        "no_control",
        "words",
        "armageddon_glued_on",
        "minutes_and_words",
        "armageddon_with_a_count",
        "armageddon_without_black",
        "zero_games",
        "too_many_games",
        "clock_notation_not_pgn",
        "letters",
        "zero_time",
        "no_control_dash",
        "unknown_control",
        "move_without_increment",
        "armageddon_move_without_increment",
        "increment_from_move_0",
        "increment_from_move_501",
        "armageddon_black_has_more_time",
        "armageddon_not_last",
        "two_armageddons",
        "eleven_stages",
        "the_bad_stage_is_quoted_not_the_first",
    ],
)
def test_bad_tiebreaks_are_refused_quoting_the_stage(text, fragments):
    with pytest.raises(RuleError) as error:
        parse_tiebreaks(text)
    for fragment in fragments:
        assert fragment in str(error.value)


def test_the_increment_move_error_of_the_armageddon_is_not_blamed_on_one_side():
    # White's control has no increment, Black's has: @61 is fine.
    (stage,) = parse_tiebreaks("armageddon 300 v 240+3 @61")
    assert stage.black_control.increment_after(61) == 3 * SECOND


@pytest.mark.parametrize("text", [None, 2, ["2x600"]], ids=repr)
def test_tiebreaks_are_text(text):
    with pytest.raises(RuleError, match="text such as 2x600"):
        parse_tiebreaks(text)


@pytest.mark.parametrize(
    ("text", "canonical"),
    [
        ("", ""),
        ("2 × 1500+10 , 2X600+10", "2x1500+10; 2x600+10"),
        (SPEC_TIEBREAKS, SPEC_TIEBREAKS),
        ("Armageddon 300+3 vs 240+3@61", "armageddon 300+3 v 240+3 @61"),
        ("armageddon 300+3 v 240+3 @1", "armageddon 300+3 v 240+3"),
        ("2x300+2 @41; 4x*180", "2x300+2 @41; 4x*180"),
        ("1x40/5400:1800+30", "1x40/5400:1800+30"),
        ("2x300+2.5", "2x300+2.5"),
    ],
    ids=["empty", "spelling", "spec", "armageddon_spelling", "from_move_1_is_left_out", "odd_ones", "multi", "half_s"],
)
def test_format_tiebreaks_round_trips(text, canonical):
    stages = parse_tiebreaks(text)
    assert format_tiebreaks(stages) == canonical
    assert parse_tiebreaks(canonical) == stages


def test_format_refuses_a_control_the_text_cannot_hold():
    delayed = TimeControl(periods=(Period(300 * SECOND),), delay=5 * SECOND, delay_kind=Delay.SIMPLE)
    with pytest.raises(RuleError, match="whole seconds, with no delay"):
        format_tiebreaks((Stage(StageKind.BLITZ, 2, delayed, delayed),))


CONTROL_TEXT = st.builds(
    lambda base, increment: f"{base}+{increment}" if increment else str(base),
    st.integers(1, 7200),
    st.integers(0, 60),
)


@given(
    stages=st.lists(st.tuples(st.integers(1, 40), CONTROL_TEXT), max_size=9),
    armageddon=st.none() | st.tuples(st.integers(60, 900), st.integers(1, 60), st.integers(1, 10), st.integers(1, 100)),
)
def test_any_well_formed_tiebreak_text_round_trips(stages, armageddon):
    parts = [f"{count}x{control}" for count, control in stages]
    if armageddon:
        black, extra, increment, move = armageddon
        parts.append(
            f"armageddon {black + extra}+{increment} v {black}+{increment}" + (f" @{move}" if move > 1 else "")
        )
    text = "; ".join(parts)
    parsed = parse_tiebreaks(text)
    assert format_tiebreaks(parsed) == text
    assert parse_tiebreaks(format_tiebreaks(parsed)) == parsed


# --- Kinds by FIDE's 60-moves rule ----------------------------------------------------------------
@pytest.mark.parametrize(
    ("pgn", "minutes", "kind"),
    [
        ("600+10", 20, "rapid"),
        ("1500+10", 35, "rapid"),
        ("600", 10, "blitz"),
        ("601", 10 + 1 / 60, "rapid"),
        ("300+5", 10, "blitz"),
        ("300+6", 11, "rapid"),
        ("300+3", 8, "blitz"),
        ("180+2", 5, "blitz"),
        ("3599", 60 - 1 / 60, "rapid"),
        ("3600", 60, "classical"),
        ("1800+30", 60, "classical"),
        ("1800+29", 59, "rapid"),
        ("5400+30", 120, "classical"),
        ("40/5400:1800+30", 130, "classical"),  # 90 + 30 min, and 30 s for each of moves 41 to 60
        ("20/300:300", 10, "blitz"),  # 5 min for 20 moves, then 5 min more
        ("20/300:20/300", 15, "rapid"),  # 5 min for every 20 moves: a third 5 min after move 40
        ("*180", 3, "blitz"),
    ],
    ids=[
        "10_plus_10_is_rapid",
        "25_plus_10",
        "10_minutes_flat_is_blitz",
        "a_second_over_10_is_rapid",
        "5_plus_5_is_10_blitz",
        "5_plus_6_is_rapid",
        "5_plus_3",
        "3_plus_2",
        "a_second_under_60_is_rapid",
        "60_minutes_is_classical",
        "30_plus_30_is_classical",
        "30_plus_29_is_rapid",
        "90_plus_30",
        "fide_classical",
        "two_periods_short",
        "repeating_period",
        "sandclock",
    ],
)
def test_kind_by_the_time_for_60_moves(pgn, minutes, kind):
    control = parse_pgn(pgn)
    assert sixty_move_time(control) == round(minutes * MINUTE)
    assert classify_control(control) is StageKind(kind)
    (stage,) = parse_tiebreaks(f"2x{pgn}")
    assert stage.kind is StageKind(kind)


def test_an_increment_from_a_later_move_does_not_count_before_it():
    control = dataclasses.replace(parse_pgn("540+10"), increment_from_move=41)  # 9 min + 20×10 s = 12 min 20 s
    assert sixty_move_time(control) == 9 * MINUTE + 20 * 10 * SECOND
    assert classify_control(control) is StageKind.RAPID
    assert classify_control(dataclasses.replace(control, increment_from_move=61)) is StageKind.BLITZ


# --- Stages and plans --------------------------------------------------------------------------------
def test_make_plan_puts_the_match_proper_first():
    tiebreaks = parse_tiebreaks(SPEC_TIEBREAKS)
    made = make_plan(4, CLASSICAL, tiebreaks)
    assert made.stages[0] == Stage(StageKind.CLASSICAL, 4, CLASSICAL, CLASSICAL)
    assert made.tiebreaks == tiebreaks
    assert made.games == 4
    assert made.has_armageddon
    assert not make_plan(2, CLASSICAL, ()).has_armageddon
    assert make_plan(40, RAPID_10).stages == (Stage(StageKind.CLASSICAL, 40, RAPID_10, RAPID_10),)


@pytest.mark.parametrize(
    ("games", "control", "tiebreaks", "fragment"),
    [
        (0, CLASSICAL, (), "1 to 40 games, not 0"),
        (41, CLASSICAL, (), "1 to 40 games, not 41"),
        (True, CLASSICAL, (), "not True"),
        ("2", CLASSICAL, (), "not '2'"),
        (2, "5400+30", (), "needs a time control"),
        (2, None, (), "needs a time control"),
        (2, CLASSICAL, "2x600+10", "sequence of stages"),
        (2, CLASSICAL, ("2x600+10",), "tuple of stages"),
    ],
    ids=[
        "no_games",
        "too_many_games",
        "bool_games",
        "text_games",
        "text_control",
        "no_control",
        "tiebreak_text",
        "tiebreak_text_items",
    ],
)
def test_make_plan_refusals(games, control, tiebreaks, fragment):
    with pytest.raises(RuleError, match=fragment):
        make_plan(games, control, tiebreaks)


def test_armageddon_only_last_in_a_plan():
    armageddon = Stage(StageKind.ARMAGEDDON, 1, ARMAGEDDON_WHITE, ARMAGEDDON_BLACK)
    rapid = Stage(StageKind.RAPID, 2, RAPID_10, RAPID_10)
    with pytest.raises(RuleError, match="Armageddon can only be the last stage"):
        make_plan(2, CLASSICAL, (armageddon, rapid))
    with pytest.raises(RuleError, match="not with Armageddon"):
        Plan((armageddon,))
    with pytest.raises(RuleError, match="tuple of stages"):
        Plan(())


@pytest.mark.parametrize(
    ("kind", "games", "white", "black", "fragment"),
    [
        (StageKind.ARMAGEDDON, 2, ARMAGEDDON_WHITE, ARMAGEDDON_BLACK, "exactly one game"),
        (StageKind.RAPID, 2, RAPID_10, RAPID_25, "Only Armageddon"),
        (StageKind.RAPID, 0, RAPID_10, RAPID_10, "1 to 40 games"),
        ("rapid", 2, RAPID_10, RAPID_10, "classical, rapid, blitz or armageddon"),
        (StageKind.RAPID, 2, "600+10", "600+10", "time control for White and for Black"),
    ],
    ids=["two_armageddon_games", "unequal_controls", "no_games", "kind_as_text", "control_as_text"],
)
def test_stage_refusals(kind, games, white, black, fragment):
    with pytest.raises(RuleError, match=fragment):
        Stage(kind, games, white, black)


# --- The mini-match ----------------------------------------------------------------------------------
def test_a_wins_the_two_game_match_1_5_to_0_5():
    state = play(start(plan(2, SPEC_TIEBREAKS), "a"), "a=")
    assert (state.score_a, state.score_b) == (1.5, 0.5)
    assert state.over and state.winner == "a"
    assert state.decided_in is StageKind.CLASSICAL
    assert state.summary == "1½–½"
    assert state.next_game is None
    assert state.stage_index == 0
    assert state.stage_scores == ((1.5, 0.5),)
    assert not state.undecided and not state.needs_armageddon_lot and not state.armageddon_draw_odds_used


def test_one_win_of_two_games_is_not_yet_enough():
    state = play(start(plan(2), "a"), "b")
    assert not state.over
    assert state.next_game is not None and state.next_game.number == 2


def test_level_1_1_then_the_rapid_stage_decides():
    state = play(start(plan(2, SPEC_TIEBREAKS), "b"), "ab")
    assert not state.over and state.stage_index == 1
    assert state.next_game.kind is StageKind.RAPID and state.next_game.number_in_stage == 1
    state = play(state, "=b")
    assert state.winner == "b"
    assert state.decided_in is StageKind.RAPID
    assert state.summary == "1–1, rapid ½–1½"
    assert state.stage_scores == ((1.0, 1.0), (0.5, 1.5))
    assert (state.score_a, state.score_b) == (1.5, 2.5)


def test_level_through_rapid_and_blitz_then_armageddon_won_by_white():
    state = play(start(plan(2, SPEC_TIEBREAKS), "a"), "ab==ab==")
    assert state.needs_armageddon_lot and state.next_game is None and state.stage_index == 4
    state = record_armageddon_lot(state, "b")
    assert state.next_game.white == "b"
    state = add_game(state, MatchGame("b", WHITE))
    assert state.winner == "b"
    assert state.decided_in is StageKind.ARMAGEDDON
    assert not state.armageddon_draw_odds_used
    assert state.summary == "1–1, rapid 1–1, rapid 1–1, blitz 1–1, Armageddon 0–1"


def test_armageddon_won_by_black():
    games = [MatchGame("a", DRAW), MatchGame("b", DRAW)]
    state = replay(plan(2, "armageddon 300+3 v 240+3 @61"), "a", games, armageddon_white="a")
    state = add_game(state, MatchGame("a", BLACK))
    assert state.winner == "b" and not state.armageddon_draw_odds_used
    assert state.summary == "1–1, Armageddon 0–1"


@pytest.mark.parametrize("white", ["a", "b"])
def test_an_armageddon_draw_sends_black_through(white):
    state = replay(plan(2, "armageddon 300+3 v 240+3 @61"), "a", [MatchGame("a", DRAW), MatchGame("b", DRAW)])
    state = add_game(record_armageddon_lot(state, white), MatchGame(white, DRAW))
    black = "b" if white == "a" else "a"
    assert state.winner == black
    assert state.armageddon_draw_odds_used
    assert state.decided_in is StageKind.ARMAGEDDON
    assert (state.score_a, state.score_b) == (1.5, 1.5)  # the game itself stays a draw
    assert state.games[-1].result.result is Result.DRAW
    assert state.summary == "1–1, Armageddon ½–½ (Black through)"


def test_armageddon_needs_its_lot():
    before_lot = play(start(plan(2, "armageddon 300+3 v 240+3 @61"), "b"), "ab")
    assert before_lot.needs_armageddon_lot
    assert before_lot.next_game is None and not before_lot.over and not before_lot.undecided
    assert before_lot.stage.kind is StageKind.ARMAGEDDON
    message = refused(before_lot, MatchGame("a", WHITE))
    assert message == "Game 3 is the Armageddon game: draw lots for White first."
    after_lot = record_armageddon_lot(before_lot, "a")
    assert not after_lot.needs_armageddon_lot
    assert after_lot.next_game.white == "a"
    assert after_lot.next_game.control_a == ARMAGEDDON_WHITE and after_lot.next_game.control_b == ARMAGEDDON_BLACK
    assert record_armageddon_lot(after_lot, "a") is after_lot  # the same lot again changes nothing
    with pytest.raises(RuleError, match="already drawn: a has White"):
        record_armageddon_lot(after_lot, "b")
    assert before_lot.needs_armageddon_lot  # untouched


def test_a_lot_recorded_in_advance_counts_only_at_armageddon():
    state = start(plan(2, "2x600+10; armageddon 300+3 v 240+3 @61"), "a", armageddon_white="b")
    state = play(state, "ab")
    assert state.next_game.white == "a"  # alternation, not the Armageddon lot
    state = play(state, "ab")
    assert state.next_game.white == "b" and state.next_game.kind is StageKind.ARMAGEDDON


@pytest.mark.parametrize(
    ("tiebreaks", "outcomes", "white", "fragment"),
    [
        ("2x600+10", "ab", "a", "no Armageddon game"),
        ("armageddon 300+3 v 240+3", "", "a", "drawn when the match reaches Armageddon"),
        ("armageddon 300+3 v 240+3", "a", "a", "drawn when the match reaches Armageddon"),
        ("armageddon 300+3 v 240+3", "ab", "c", 'side "a" or "b"'),
    ],
    ids=["no_armageddon", "before_the_match", "during_the_match", "not_a_side"],
)
def test_armageddon_lot_refusals(tiebreaks, outcomes, white, fragment):
    state = play(start(plan(2, tiebreaks), "a"), outcomes)
    with pytest.raises(RuleError, match=fragment):
        record_armageddon_lot(state, white)


@pytest.mark.parametrize("lot", ["a", "b"])
@pytest.mark.parametrize("first_white", ["a", "b"])
def test_colours_alternate_across_stages_and_each_side_gets_its_control(first_white, lot):
    second = "b" if first_white == "a" else "a"
    armageddon_black = "b" if lot == "a" else "a"
    # (number, stage, kind, number in stage, white, control of a, control of b)
    expected = [
        (1, 0, "classical", 1, first_white, CLASSICAL, CLASSICAL),
        (2, 0, "classical", 2, second, CLASSICAL, CLASSICAL),
        (3, 0, "classical", 3, first_white, CLASSICAL, CLASSICAL),
        (4, 0, "classical", 4, second, CLASSICAL, CLASSICAL),
        (5, 1, "rapid", 1, first_white, RAPID_25, RAPID_25),
        (6, 1, "rapid", 2, second, RAPID_25, RAPID_25),
        (7, 2, "rapid", 1, first_white, RAPID_10, RAPID_10),
        (8, 2, "rapid", 2, second, RAPID_10, RAPID_10),
        (9, 3, "blitz", 1, first_white, BLITZ_5, BLITZ_5),
        (10, 3, "blitz", 2, second, BLITZ_5, BLITZ_5),
        (
            11,
            4,
            "armageddon",
            1,
            lot,
            ARMAGEDDON_WHITE if lot == "a" else ARMAGEDDON_BLACK,
            ARMAGEDDON_WHITE if lot == "b" else ARMAGEDDON_BLACK,
        ),
    ]
    state = start(plan(4, SPEC_TIEBREAKS), first_white)
    seen = []
    for _ in expected:
        if state.needs_armageddon_lot:
            state = record_armageddon_lot(state, lot)
        n = state.next_game
        seen.append((n.number, n.stage, n.kind.value, n.number_in_stage, n.white, n.control_a, n.control_b))
        assert n.control_of(n.white) == state.plan.stages[n.stage].white_control
        assert n.control_of(n.black) == state.plan.stages[n.stage].black_control
        state = add_game(state, MatchGame(n.white, DRAW))
    assert seen == expected
    assert [line.white for line in state.games] == [row[4] for row in expected]
    assert state.winner == armageddon_black
    assert state.summary == "2–2, rapid 1–1, rapid 1–1, blitz 1–1, Armageddon ½–½ (Black through)"


def test_colours_keep_alternating_after_a_stage_of_odd_length():
    state = play(start(plan(1, "3x600+10; 2x300+3"), "a"), "==ab")
    assert [line.white for line in state.games] == ["a", "b", "a", "b"]
    assert state.next_game.white == "a" and state.next_game.kind is StageKind.BLITZ


@pytest.mark.parametrize(
    ("outcomes", "over_after", "winner", "score"),
    [
        ("aaa", 3, "a", (3.0, 0.0)),
        ("bbb", 3, "b", (0.0, 3.0)),
        ("a=a", 3, "a", (2.5, 0.5)),
        ("=bb", 3, "b", (0.5, 2.5)),
        ("aa=b", 3, "a", (2.5, 0.5)),
        ("aabb", None, None, (2.0, 2.0)),
        ("ab=b", 4, "b", (1.5, 2.5)),
        ("bbba", 3, "b", (0.0, 3.0)),
    ],
    ids=[
        "3_0",
        "0_3",
        "2.5_0.5",
        "0.5_2.5",
        "2_0_then_2.5_0.5",
        "2_0_is_not_enough_2_2_goes_on",
        "2.5_after_4",
        "the_fourth_game_is_not_played",
    ],
)
def test_a_four_game_stage_ends_as_soon_as_it_is_won(outcomes, over_after, winner, score):
    state = start(plan(4, "2x600+10"), "a")
    for index, outcome in enumerate(outcomes, start=1):
        if state.over:
            break
        state = add_game(state, game_for(state, outcome))
        assert state.over is (index == over_after)
    assert state.games_played == (over_after or 4)
    assert state.stage_index == (0 if over_after else 1)
    assert (state.winner, (state.score_a, state.score_b)) == (winner, score)


def test_a_tiebreak_stage_of_four_games_ends_early_too():
    state = play(start(plan(2, "4x600+10; 2x300+3"), "a"), "abbbb")
    assert state.over and state.winner == "b" and state.decided_in is StageKind.RAPID
    assert state.games_played == 5
    assert state.summary == "1–1, rapid 0–3"
    assert [(line.stage, line.number_in_stage) for line in state.games] == [(0, 1), (0, 2), (1, 1), (1, 2), (1, 3)]


def test_a_single_game_match_drawn_goes_to_the_tiebreak():
    state = play(start(plan(1, "2x300+3"), "b"), "=")
    assert not state.over and state.stage_index == 1
    assert state.next_game.white == "a"


@pytest.mark.parametrize(
    ("games", "tiebreaks", "outcomes", "summary"),
    [
        (2, "", "ab", "1–1"),
        (2, "2x600+10", "ab==", "1–1, rapid 1–1"),
        (1, "2x600+10; 1x300+3", "=ab=", "½–½, rapid 1–1, blitz ½–½"),
    ],
    ids=["no_tiebreaks", "level_after_rapid", "level_after_blitz"],
)
def test_level_after_the_last_stage_without_armageddon_is_undecided(games, tiebreaks, outcomes, summary):
    state = play(start(plan(games, tiebreaks), "a"), outcomes)
    assert state.undecided
    assert not state.over and state.winner is None and state.decided_in is None
    assert state.next_game is None
    assert state.stage_index == len(state.plan.stages) - 1
    assert state.summary == summary
    message = refused(state, MatchGame("a", WHITE))
    assert message == f"The match is level after every stage ({summary}): the director decides; no game can be added."


def test_no_game_after_the_match_is_over():
    state = play(start(plan(2), "a"), "aa")
    assert refused(state, MatchGame("a", WHITE)) == "The match is over (2–0, a won): no game can be added."


def test_the_scheduled_white_plays_white():
    state = play(start(plan(4), "b"), "ab")
    assert state.next_game.white == "b"
    assert refused(state, MatchGame("a", WHITE)) == "Game 3: b is scheduled to play White."
    first = start(plan(4), "a")
    assert refused(first, MatchGame("b", DRAW)) == "Game 1: a is scheduled to play White."


@pytest.mark.parametrize("game", [None, "1-0", WHITE, ("a", WHITE)], ids=repr)
def test_a_game_must_be_a_match_game(game):
    assert "a match game is White's side and the result" in refused(start(plan(2), "a"), game)


@pytest.mark.parametrize(
    ("white", "result", "fragment"),
    [("c", WHITE, 'side "a" or "b"'), ("white", WHITE, 'side "a" or "b"'), ("a", "1-0", "needs its result")],
    ids=["side_c", "colour_instead_of_side", "result_as_text"],
)
def test_match_game_refusals(white, result, fragment):
    with pytest.raises(RuleError, match=fragment):
        MatchGame(white, result)


@pytest.mark.parametrize(
    ("first_white", "armageddon_white"), [("c", None), (None, None), ("a", "white")], ids=["c", "none", "white"]
)
def test_start_refusals(first_white, armageddon_white):
    with pytest.raises(RuleError, match='side "a" or "b", drawn by lot'):
        start(plan(2), first_white, armageddon_white)
    with pytest.raises(RuleError, match="needs its plan"):
        start("2 games", "a")


def test_the_lines_record_each_game():
    forfeit = GameResult(Result.WHITE_WINS, Termination.FORFEIT)
    state = replay(
        plan(2, "2x600+10"),
        "a",
        [MatchGame("a", WHITE), MatchGame("b", WHITE), MatchGame("a", DRAW), MatchGame("b", forfeit)],
    )
    assert state.games == (
        GameLine(1, 0, 1, StageKind.CLASSICAL, "a", WHITE, (1.0, 0.0)),
        GameLine(2, 0, 2, StageKind.CLASSICAL, "b", WHITE, (1.0, 1.0)),
        GameLine(3, 1, 1, StageKind.RAPID, "a", DRAW, (1.5, 1.5)),
        GameLine(4, 1, 2, StageKind.RAPID, "b", forfeit, (1.5, 2.5)),
    )
    assert [line.points for line in state.games] == [(1.0, 0.0), (0.0, 1.0), (0.5, 0.5), (0.0, 1.0)]
    assert [line.black for line in state.games] == ["b", "a", "b", "a"]
    assert state.winner == "b"
    assert state.score_of("a") == 1.5 and state.score_of("b") == 2.5


def test_replay_is_add_game_in_turn_and_states_are_immutable():
    games = [MatchGame("a", DRAW), MatchGame("b", DRAW), MatchGame("a", WHITE)]
    state = start(plan(2, "2x600+10"), "a")
    states = [state]
    for game in games:
        states.append(add_game(states[-1], game))
    assert replay(plan(2, "2x600+10"), "a", games) == states[-1]
    assert [s.games_played for s in states] == [0, 1, 2, 3]
    with pytest.raises(dataclasses.FrozenInstanceError):
        state.winner = "a"  # type: ignore[misc]


def test_replay_refuses_a_bad_game_with_its_number():
    with pytest.raises(RuleError, match="Game 2: b is scheduled to play White."):
        replay(plan(2), "a", [MatchGame("a", DRAW), MatchGame("a", DRAW)])


def test_the_summary_is_translatable():
    state = play(start(plan(2, "2x600+10"), "a"), "ab=a")
    czech = {"rapid": "rapid (CZ)", "%(before)s, %(after)s": "%(before)s; %(after)s"}
    assert describe(state).translate(lambda message: czech.get(message, message)) == "1–1; rapid (CZ) 1½–½"
    assert start(plan(2), "a").summary == "0–0"


@pytest.mark.parametrize(
    ("points", "text"), [(0.0, "0"), (0.5, "½"), (1.0, "1"), (1.5, "1½"), (2.0, "2"), (10.5, "10½")]
)
def test_half_text(points, text):
    assert half_text(points) == text


# --- Flags ------------------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("flagged", "opponent_can_mate", "result"),
    [
        ("white", True, Result.BLACK_WINS),
        ("black", True, Result.WHITE_WINS),
        ("white", False, Result.DRAW),  # e.g. Black has a bare king, or K+N against White's pieces
        ("black", False, Result.DRAW),
        ("white", None, None),  # no position entered: the director decides
        ("black", None, None),
    ],
    ids=[
        "white_flags",
        "black_flags",
        "white_flags_opponent_cannot_mate",
        "black_flags_opponent_cannot_mate",
        "white_flags_position_unknown",
        "black_flags_position_unknown",
    ],
)
def test_flag_fall(flagged, opponent_can_mate, result):
    assert flag_fall_result(flagged, opponent_can_mate) is result
    if result is not None:
        assert GameResult(result, Termination.FLAG).termination is Termination.FLAG


@pytest.mark.parametrize(
    ("flagged", "opponent_can_mate", "fragment"),
    [("a", True, '"white" or "black"'), ("White", True, '"white" or "black"'), ("white", "yes", "true, false or")],
    ids=["side_instead_of_colour", "capitalised", "can_mate_as_text"],
)
def test_flag_fall_refusals(flagged, opponent_can_mate, fragment):
    with pytest.raises(RuleError, match=fragment):
        flag_fall_result(flagged, opponent_can_mate)


def test_both_flags_down_without_increment_is_a_draw():
    assert both_flags_result(False) is Result.DRAW
    assert GameResult(both_flags_result(False), Termination.FLAG).result is Result.DRAW


def test_both_flags_down_with_an_increment_is_for_the_director():
    assert both_flags_result(True) is None


def test_both_flags_wants_a_boolean():
    with pytest.raises(RuleError, match="true or false"):
        both_flags_result(0)  # type: ignore[arg-type]


# --- Property: any sequence of games --------------------------------------------------------------------
OUTCOMES = st.sampled_from(["a", "b", "="])


@settings(max_examples=300, deadline=None)
@given(
    games=st.integers(1, 6),
    tiebreaks=st.lists(
        st.tuples(st.integers(1, 4), st.sampled_from(["1500+10", "600+10", "300+3", "180"])), max_size=3
    ),
    armageddon=st.booleans(),
    first_white=st.sampled_from(["a", "b"]),
    lot=st.sampled_from(["a", "b"]),
    data=st.data(),
)
def test_any_match_ends_exactly_once_with_alternating_colours(games, tiebreaks, armageddon, first_white, lot, data):
    text = "; ".join(f"{count}x{control}" for count, control in tiebreaks)
    if armageddon:
        text = f"{text}; armageddon 300+3 v 240+3 @61" if text else "armageddon 300+3 v 240+3 @61"
    state = start(plan(games, text), first_white)
    ends = 0
    lots = 0
    limit = games + sum(count for count, _ in tiebreaks) + 1
    for _ in range(limit):
        if state.needs_armageddon_lot:
            lots += 1
            state = record_armageddon_lot(state, lot)
        finished = state.over or state.undecided
        assert (state.next_game is None) is finished
        if finished:
            break
        assert state.games_played < limit
        state = add_game(state, game_for(state, data.draw(OUTCOMES)))
        ends += state.over or state.undecided
    assert ends == 1
    assert state.over != state.undecided
    assert lots <= 1
    with pytest.raises(RuleError, match="no game can be added"):
        add_game(state, MatchGame("a", DRAW))

    # The score: every game gives one point; each stage before the last one played was level.
    assert state.score_a + state.score_b == state.games_played
    assert sum(a + b for a, b in state.stage_scores) == state.games_played
    assert all(a == b for a, b in state.stage_scores[:-1])
    assert state.stage_index == len(state.stage_scores) - 1 == state.games[-1].stage

    # The winner has the higher score, except when Armageddon's draw odds decided it.
    if state.armageddon_draw_odds_used:
        assert state.score_a == state.score_b
        assert state.winner != lot and state.games[-1].white == lot
        assert state.games[-1].result.result is Result.DRAW
    elif state.over:
        assert state.score_of(state.winner) > state.score_of("b" if state.winner == "a" else "a")
        assert state.decided_in is state.plan.stages[state.stage_index].kind
    else:
        assert state.score_a == state.score_b
        assert not state.plan.has_armageddon

    # Colours alternate; Armageddon's White is the lot.
    for line in state.games:
        if line.kind is StageKind.ARMAGEDDON:
            assert line.white == lot
        else:
            assert line.white == (first_white if (line.number - 1) % 2 == 0 else ("b" if first_white == "a" else "a"))
    assert [line.number for line in state.games] == list(range(1, state.games_played + 1))
