"""A clock as a log of events (SPEC §6): what each event does to the two sides' times,
which events are refused, and properties over random event logs.

Times are integer milliseconds on one server clock. Expected values are worked out by
hand: a side that starts its turn with T ms and thinks u ms has T - u left (with a
simple delay d: T - max(0, u - d); with Bronstein: T - u + min(u, d) after the move),
plus the increment and any period time its move earns.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from clocks.controls import MAX_DURATION, ClockError, Delay, Period, TimeControl, backgammon_match_clock
from clocks.state import ClockState, Event, EventKind, Phase, apply, new_clock, replay

S = 1000
MIN = 60 * S


def control(time: int, *, increment: int = 0, delay: int = 0, kind: Delay = Delay.NONE, **kwargs) -> TimeControl:
    return TimeControl(periods=(Period(time, increment=increment),), delay=delay, delay_kind=kind, **kwargs)


SUDDEN_DEATH = control(5 * MIN)
FISCHER = control(3 * MIN, increment=2 * S)  # 180+2
SCRABBLE = TimeControl(per_move=2 * MIN)
SIMPLE = control(1 * MIN, delay=5 * S, kind=Delay.SIMPLE)
BRONSTEIN = control(1 * MIN, delay=5 * S, kind=Delay.BRONSTEIN)
SANDCLOCK = control(1 * MIN, sandclock=True)
ARMAGEDDON_WHITE = control(5 * MIN, increment=3 * S, increment_from_move=61)
ARMAGEDDON_BLACK = control(4 * MIN, increment=3 * S, increment_from_move=61)


# --- Events ---------------------------------------------------------------------------------


def start(at: int, side: int = 0, reset: bool = False) -> Event:
    return Event(EventKind.START, at, side, reset=reset)


def press(at: int, side: int) -> Event:
    return Event(EventKind.PRESS, at, side)


def pause(at: int) -> Event:
    return Event(EventKind.PAUSE, at)


def resume(at: int) -> Event:
    return Event(EventKind.RESUME, at)


def adjust(at: int, side: int, value) -> Event:
    return Event(EventKind.ADJUST, at, side, value=value)


def flag(at: int, side: int) -> Event:
    return Event(EventKind.FLAG, at, side)


def halt(at: int) -> Event:
    return Event(EventKind.HALT, at)


def clock(first: TimeControl, second: TimeControl | None = None, *events: Event, passes: bool = False) -> ClockState:
    """A clock with these controls (the same for both sides unless two are given)
    after ``events``; ``passes``: a flag passes the turn (Scrabble)."""
    return replay(new_clock((first, second or first), flag_passes_turn=passes), events)


def moves(count: int, think: int, at: int = 0) -> list[Event]:
    """Side 0 starts at ``at``; the sides alternate, each thinking ``think`` ms, until
    side 0 has made ``count`` moves (side 1 one fewer: it is now side 1's turn)."""
    events = [start(at, 0)]
    for number in range(count):
        at += think
        events.append(press(at, 0))
        if number < count - 1:
            at += think
            events.append(press(at, 1))
    return events


def refused(state: ClockState, event: Event, message: str | None = None) -> None:
    with pytest.raises(ClockError, match=message):
        apply(state, event)


# --- A new clock ------------------------------------------------------------------------------


def test_a_new_clock_shows_each_sides_initial_time_and_nothing_runs():
    state = new_clock((ARMAGEDDON_WHITE, ARMAGEDDON_BLACK))
    assert state.phase is Phase.READY
    assert state.running is None
    assert state.time_at(10**9) == (5 * MIN, 4 * MIN)
    assert state.deadline is None
    assert not state.is_due(10**9)
    assert state.delay_left_at(0) == 0


@pytest.mark.parametrize("side", [0, 1])
def test_starting_runs_the_named_sides_time_from_the_start(side):
    state = clock(SUDDEN_DEATH, None, start(1000, side))
    assert (state.phase, state.running) == (Phase.RUNNING, side)
    assert state.deadline == 1000 + 5 * MIN
    shown = state.time_at(1000 + 7 * S)
    assert shown[side] == 5 * MIN - 7 * S
    assert shown[1 - side] == 5 * MIN


def test_time_shown_never_goes_below_zero():
    state = clock(SUDDEN_DEATH, None, start(0))
    assert state.time_at(5 * MIN) == (0, 5 * MIN)
    assert state.time_at(50 * MIN) == (0, 5 * MIN)


def test_the_log_counts_events_and_remembers_the_last_time():
    state = clock(SUDDEN_DEATH, None, start(100), press(200, 0), pause(300))
    assert (state.events, state.last_at) == (3, 300)


def test_replay_is_applying_the_events_one_by_one():
    events = moves(5, 1234) + [pause(20_000), resume(25_000), adjust(26_000, 0, 45_000)]
    state = new_clock((FISCHER, FISCHER))
    for event in events:
        state = apply(state, event)
    assert replay(new_clock((FISCHER, FISCHER)), events) == state


# --- Per-move countdown ---------------------------------------------------------------------


@pytest.mark.parametrize(
    "think",
    [
        pytest.param(0, id="instant-move"),
        pytest.param(1 * S, id="quick-move"),
        pytest.param(2 * MIN - 1, id="last-millisecond"),
    ],
)
def test_a_per_move_countdown_gives_fresh_time_every_move_and_nothing_carries(think):
    state = clock(SCRABBLE, None, start(0), press(think, 0))
    assert state.time_at(think) == (2 * MIN, 2 * MIN)
    assert state.sides[0].moves == 1
    assert state.deadline == think + 2 * MIN  # side 1: a full countdown
    state = apply(state, press(think + 10 * S, 1))
    assert state.deadline == think + 10 * S + 2 * MIN  # side 0: no banked time from a quick move
    assert state.time_at(think + 10 * S) == (2 * MIN, 2 * MIN)


@pytest.mark.parametrize("lag", [pytest.param(0, id="at-the-deadline"), pytest.param(700, id="worker-700-ms-late")])
def test_a_timeout_that_passes_the_turn_starts_the_opponent_from_the_flag_and_resets(lag):
    state = clock(SCRABBLE, None, start(0), press(30 * S, 0), passes=True)
    flagged_at = 30 * S + 2 * MIN + lag
    state = apply(state, flag(flagged_at, 1))
    assert (state.phase, state.running, state.flagged) == (Phase.RUNNING, 0, None)
    assert state.sides[1].moves == 1  # the timeout pass counts as side 1's move
    assert state.time_at(flagged_at) == (2 * MIN, 2 * MIN)
    assert state.deadline == flagged_at + 2 * MIN


def test_a_per_move_timeout_without_passing_the_turn_is_final():
    state = clock(SCRABBLE, None, start(0), flag(2 * MIN, 0))
    assert (state.phase, state.flagged) == (Phase.FLAGGED, 0)
    assert state.time_at(3 * MIN) == (0, 2 * MIN)


# --- Sudden death and Fischer increment -----------------------------------------------------


@pytest.mark.parametrize(
    ("think", "left"),
    [
        pytest.param(0, 5 * MIN, id="instant"),
        pytest.param(1, 5 * MIN - 1, id="one-ms"),
        pytest.param(10 * S, 4 * MIN + 50 * S, id="ten-seconds"),
        pytest.param(5 * MIN - 1, 1, id="last-millisecond"),
    ],
)
def test_sudden_death_charges_the_thinking_time_and_it_carries_over(think, left):
    state = clock(SUDDEN_DEATH, None, start(0), press(think, 0), press(think + 1000, 1))
    assert state.time_at(think + 1000) == (left, 5 * MIN - 1000)
    assert state.deadline == think + 1000 + left


def test_sudden_death_adds_nothing_however_many_moves_are_made():
    state = clock(SUDDEN_DEATH, None, *moves(20, 10 * S))
    assert state.sides[0].time == 5 * MIN - 20 * 10 * S
    assert state.deadline == state.last_at + 5 * MIN - 19 * 10 * S  # side 1 made 19 moves


@pytest.mark.parametrize(
    ("count", "left"),
    [
        pytest.param(1, 3 * MIN - 5 * S + 2 * S, id="from-move-1"),
        pytest.param(2, 3 * MIN - 2 * 3 * S, id="after-every-move"),
        pytest.param(10, 3 * MIN - 10 * 3 * S, id="ten-moves"),
    ],
)
def test_the_increment_is_added_after_every_move_from_move_1(count, left):
    state = clock(FISCHER, None, *moves(count, 5 * S))
    assert state.sides[0].time == left


def test_the_increment_has_no_cap():
    state = clock(FISCHER, None, *moves(50, 0))
    assert state.sides[0].time == 3 * MIN + 50 * 2 * S  # far above the initial 3 min


@pytest.mark.parametrize(
    ("lateness", "beats_the_flag"),
    [
        pytest.param(-1, True, id="1-ms-before-the-deadline"),
        pytest.param(0, False, id="at-the-deadline"),
        pytest.param(1, False, id="1-ms-after"),
        pytest.param(5 * S, False, id="5-s-after"),
    ],
)
def test_the_increment_is_added_only_when_the_move_beat_the_flag(lateness, beats_the_flag):
    state = clock(FISCHER, None, start(0))
    at = 3 * MIN + lateness
    assert state.is_due(at) is not beats_the_flag
    if beats_the_flag:
        after = apply(state, press(at, 0))
        assert after.time_at(at) == (-lateness + 2 * S, 3 * MIN)
        refused(state, flag(at, 0), "only when")
    else:
        refused(state, press(at, 0), "flag has fallen")
        after = apply(state, flag(at, 0))  # the flag applies instead
        assert (after.phase, after.flagged) == (Phase.FLAGGED, 0)
        assert after.time_at(at) == (0, 3 * MIN)
        assert after.sides[0].moves == 0


# --- Armageddon: per-side controls and an increment from move 61 ------------------------------


@pytest.mark.parametrize(
    ("count", "white", "black"),
    [
        pytest.param(1, 5 * MIN - 1 * S, 4 * MIN - 1 * S, id="move-1-no-increment"),
        pytest.param(60, 5 * MIN - 60 * S, 4 * MIN - 60 * S, id="move-60-no-increment"),
        pytest.param(61, 5 * MIN - 61 * S + 3 * S, 4 * MIN - 61 * S + 3 * S, id="move-61-earns-3-s"),
        pytest.param(62, 5 * MIN - 62 * S + 6 * S, 4 * MIN - 62 * S + 6 * S, id="move-62-earns-3-s-more"),
    ],
)
def test_armageddon_gives_white_5_black_4_minutes_and_3_s_from_move_61(count, white, black):
    state = clock(ARMAGEDDON_WHITE, ARMAGEDDON_BLACK, *moves(count, 1 * S))
    assert state.sides[0].time == white
    state = apply(state, press(state.last_at + 1 * S, 1))  # black completes move `count`
    assert state.sides[1].time == black


def test_armageddon_white_starts_on_5_minutes_and_black_on_4():
    state = clock(ARMAGEDDON_WHITE, ARMAGEDDON_BLACK, start(0, 0))
    assert state.deadline == 5 * MIN
    state = apply(state, press(0, 0))
    assert state.deadline == 4 * MIN


# --- Simple (US) delay ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("think", "left"),
    [
        pytest.param(0, 1 * MIN, id="instant"),
        pytest.param(3 * S, 1 * MIN, id="shorter-than-the-delay-leaves-the-time"),
        pytest.param(5 * S, 1 * MIN, id="exactly-the-delay"),
        pytest.param(5 * S + 1, 1 * MIN - 1, id="1-ms-past-the-delay"),
        pytest.param(8 * S, 1 * MIN - 3 * S, id="charged-beyond-the-delay"),
        pytest.param(65 * S - 1, 1, id="last-millisecond"),
    ],
)
def test_a_simple_delay_never_increases_the_time(think, left):
    state = clock(SIMPLE, None, start(0), press(think, 0))
    assert state.sides[0].time == left
    assert left <= 1 * MIN


@pytest.mark.parametrize(
    ("elapsed", "shown", "delay_left"),
    [
        pytest.param(0, 1 * MIN, 5 * S, id="start"),
        pytest.param(3 * S, 1 * MIN, 2 * S, id="inside-the-delay-time-stands-still"),
        pytest.param(5 * S, 1 * MIN, 0, id="delay-spent"),
        pytest.param(7 * S, 1 * MIN - 2 * S, 0, id="then-it-counts"),
        pytest.param(65 * S, 0, 0, id="at-the-deadline"),
    ],
)
def test_a_simple_delay_waits_before_the_clock_counts(elapsed, shown, delay_left):
    state = clock(SIMPLE, None, start(1000))
    assert state.time_at(1000 + elapsed)[0] == shown
    assert state.delay_left_at(1000 + elapsed) == delay_left


def test_with_a_simple_delay_the_deadline_is_the_remaining_time_plus_the_delay():
    state = clock(SIMPLE, None, start(0))
    assert state.deadline == 1 * MIN + 5 * S
    assert apply(state, press(65 * S - 1, 0)).sides[0].time == 1
    refused(state, press(65 * S, 0))
    assert not state.is_due(65 * S - 1)
    assert apply(state, flag(65 * S, 0)).phase is Phase.FLAGGED


def test_the_backgammon_clock_of_a_7_point_match_is_14_minutes_with_a_12_second_delay():
    match_clock = backgammon_match_clock(7)
    state = clock(match_clock, None, start(0))
    assert state.time_at(0) == (14 * MIN, 14 * MIN)
    assert state.deadline == 14 * MIN + 12 * S
    state = replay(state, [press(10 * S, 0), press(30 * S, 1)])  # 10 s, then 20 s
    assert state.time_at(30 * S) == (14 * MIN, 14 * MIN - 8 * S)


def test_the_backgammon_reserve_carries_over_from_game_to_game():
    state = clock(backgammon_match_clock(7), None, start(0), press(20 * S, 0), halt(50 * S))
    assert state.time_at(50 * S) == (14 * MIN - 8 * S, 14 * MIN - 18 * S)
    state = apply(state, start(60 * S, 1))  # the next game, without a reset
    assert state.deadline == 60 * S + 14 * MIN - 18 * S + 12 * S


# --- Bronstein delay --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("think", "left"),
    [
        pytest.param(0, 1 * MIN, id="instant"),
        pytest.param(3 * S, 1 * MIN, id="short-move-all-given-back"),
        pytest.param(5 * S, 1 * MIN, id="exactly-the-delay"),
        pytest.param(8 * S, 1 * MIN - 8 * S + 5 * S, id="long-move-delay-given-back"),
        pytest.param(1 * MIN - 1, 5 * S + 1, id="last-millisecond"),
    ],
)
def test_bronstein_gives_back_the_time_used_up_to_the_delay(think, left):
    state = clock(BRONSTEIN, None, start(0), press(think, 0))
    assert state.sides[0].time == left


def test_bronstein_counts_down_at_once_and_gives_back_after_the_move():
    state = clock(BRONSTEIN, None, start(0))
    assert state.time_at(3 * S)[0] == 1 * MIN - 3 * S
    assert state.delay_left_at(3 * S) == 0
    assert apply(state, press(3 * S, 0)).time_at(3 * S)[0] == 1 * MIN


def test_with_bronstein_the_deadline_is_the_remaining_time_so_a_flag_can_fall_inside_the_delay():
    short = TimeControl(periods=(Period(3 * S),), delay=5 * S, delay_kind=Delay.BRONSTEIN)
    state = clock(short, None, start(0))
    assert state.deadline == 3 * S
    assert apply(state, press(3 * S - 1, 0)).sides[0].time == 3 * S  # 1 ms left + 2999 ms back
    refused(state, press(3 * S, 0))
    assert apply(state, flag(3 * S, 0)).flagged == 0


# --- Multi-period ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "left"),
    [
        pytest.param(39, 90 * MIN - 39 * 10 * S, id="move-39-nothing-added"),
        pytest.param(40, 90 * MIN - 40 * 10 * S + 30 * MIN, id="move-40-adds-30-min"),
        pytest.param(41, 90 * MIN - 41 * 10 * S + 30 * MIN, id="move-41-nothing-more"),
        pytest.param(80, 90 * MIN - 80 * 10 * S + 30 * MIN, id="move-80-rest-of-game-adds-nothing"),
    ],
)
def test_the_next_period_is_added_exactly_after_the_last_move_of_the_quota(count, left):
    fide = TimeControl(periods=(Period(90 * MIN, moves=40), Period(30 * MIN)))  # 40/5400:1800
    state = clock(fide, None, *moves(count, 10 * S))
    assert state.sides[0].time == left


@pytest.mark.parametrize(
    ("count", "added"),
    [
        pytest.param(39, 0, id="move-39"),
        pytest.param(40, 1, id="move-40"),
        pytest.param(41, 1, id="move-41"),
        pytest.param(79, 1, id="move-79"),
        pytest.param(80, 2, id="move-80-adds-again"),
        pytest.param(81, 2, id="move-81"),
    ],
)
def test_a_repeating_last_period_adds_its_time_after_every_quota(count, added):
    repeating = TimeControl(periods=(Period(120 * MIN, moves=40),))  # 40/7200
    state = clock(repeating, None, *moves(count, 10 * S))
    assert state.sides[0].time == 120 * MIN - count * 10 * S + added * 120 * MIN


@pytest.mark.parametrize(
    ("count", "left"),
    [
        pytest.param(1, 90 * MIN - 10 * S + 30 * S, id="move-1-first-period-increment"),
        pytest.param(40, 90 * MIN - 40 * 10 * S + 40 * 30 * S + 30 * MIN, id="move-40"),
        pytest.param(41, 90 * MIN - 41 * 10 * S + 40 * 30 * S + 30 * MIN + 10 * S, id="move-41-second-increment"),
        pytest.param(45, 90 * MIN - 45 * 10 * S + 40 * 30 * S + 30 * MIN + 5 * 10 * S, id="move-45"),
    ],
)
def test_each_period_adds_its_own_increment(count, left):
    control_ = TimeControl(periods=(Period(90 * MIN, moves=40, increment=30 * S), Period(30 * MIN, increment=10 * S)))
    state = clock(control_, None, *moves(count, 10 * S))
    assert state.sides[0].time == left


def test_a_period_is_added_even_when_the_move_leaves_little_time():
    tight = TimeControl(periods=(Period(10 * S, moves=2), Period(1 * MIN)))
    state = clock(tight, None, start(0), press(4 * S, 0), press(4 * S, 1), press(4 * S + 6 * S - 1, 0))
    assert state.sides[0].time == 1 + 1 * MIN


# --- Sandclock --------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("elapsed", "shown"),
    [
        pytest.param(0, (1 * MIN, 1 * MIN), id="start"),
        pytest.param(10 * S, (50 * S, 70 * S), id="ten-seconds-flowed"),
        pytest.param(1 * MIN, (0, 2 * MIN), id="all-flowed"),
        pytest.param(2 * MIN, (0, 2 * MIN), id="nothing-more-to-flow"),
    ],
)
def test_a_sandclocks_time_flows_to_the_opponent(elapsed, shown):
    state = clock(SANDCLOCK, None, start(0))
    assert state.time_at(elapsed) == shown
    assert sum(state.time_at(elapsed)) == 2 * MIN


def test_a_sandclock_keeps_the_flow_after_the_press_and_the_total_constant():
    state = clock(SANDCLOCK, None, start(0), press(10 * S, 0))
    assert state.time_at(10 * S) == (50 * S, 70 * S)
    assert state.deadline == 10 * S + 70 * S
    state = apply(state, press(40 * S, 1))
    assert state.time_at(40 * S) == (80 * S, 40 * S)
    assert state.time_at(55 * S) == (65 * S, 55 * S)


def test_a_sandclock_halt_keeps_the_flow():
    state = clock(SANDCLOCK, None, start(0), halt(15 * S))
    assert state.time_at(10**6) == (45 * S, 75 * S)


def test_a_sandclock_flag_leaves_all_the_sand_with_the_opponent():
    state = clock(SANDCLOCK, None, start(0), press(10 * S, 0))
    state = apply(state, flag(10 * S + 70 * S, 1))
    assert state.time_at(10 * MIN) == (2 * MIN, 0)


def test_a_sandclock_timeout_that_passes_the_turn_keeps_the_total():
    state = clock(SANDCLOCK, None, start(0), flag(1 * MIN + 500, 0), passes=True)
    assert state.time_at(1 * MIN + 500) == (0, 2 * MIN)
    assert state.running == 1


# --- Pause and resume -------------------------------------------------------------------------


def test_a_pause_freezes_the_clock():
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), pause(25 * S))
    assert state.phase is Phase.PAUSED
    assert state.running == 1
    assert state.time_at(25 * S) == state.time_at(25 * S + 10 * MIN) == (5 * MIN - 10 * S, 5 * MIN - 15 * S)
    assert state.deadline is None
    assert not state.is_due(10**9)
    refused(state, flag(25 * S + 10 * MIN, 1))


def test_resume_continues_the_same_turn():
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), pause(25 * S), resume(2 * MIN))
    assert (state.phase, state.running) == (Phase.RUNNING, 1)
    assert state.sides[1].moves == 0
    assert state.deadline == 2 * MIN + 5 * MIN - 15 * S
    state = apply(state, press(2 * MIN + 5 * S, 1))
    assert state.sides[1].time == 5 * MIN - 20 * S  # 15 s before the pause, 5 s after


def test_several_pauses_in_one_turn_charge_only_the_running_stretches():
    events = [start(0), pause(1 * S), resume(10 * S), pause(12 * S), resume(1 * MIN), press(1 * MIN + 3 * S, 0)]
    assert clock(SUDDEN_DEATH, None, *events).sides[0].time == 5 * MIN - 6 * S


def test_a_simple_delay_already_spent_is_not_given_again_after_a_pause():
    state = clock(SIMPLE, None, start(0), pause(3 * S), resume(1 * MIN))
    assert state.delay_left_at(1 * MIN) == 2 * S
    assert state.deadline == 1 * MIN + 1 * MIN + 2 * S
    state = apply(state, press(1 * MIN + 4 * S, 0))  # 7 s thought in all: 2 s charged
    assert state.sides[0].time == 1 * MIN - 2 * S


def test_a_paused_simple_delay_stays_where_it_was():
    state = clock(SIMPLE, None, start(0), pause(3 * S))
    assert state.delay_left_at(10 * MIN) == 2 * S
    assert state.time_at(10 * MIN)[0] == 1 * MIN


def test_bronstein_gives_back_at_most_the_delay_over_the_whole_paused_turn():
    state = clock(BRONSTEIN, None, start(0), pause(4 * S), resume(1 * MIN), press(1 * MIN + 4 * S, 0))
    assert state.sides[0].time == 1 * MIN - 8 * S + 5 * S


@pytest.mark.parametrize(
    ("events", "event"),
    [
        pytest.param([], pause(0), id="pause-before-start"),
        pytest.param([], resume(0), id="resume-before-start"),
        pytest.param([start(0)], resume(1), id="resume-while-running"),
        pytest.param([start(0), pause(1)], pause(2), id="pause-while-paused"),
        pytest.param([start(0), halt(1)], pause(2), id="pause-after-halt"),
        pytest.param([start(0), halt(1)], resume(2), id="resume-after-halt"),
    ],
)
def test_only_a_running_clock_pauses_and_only_a_paused_one_resumes(events, event):
    refused(clock(SUDDEN_DEATH, None, *events), event)


# --- Adjust -----------------------------------------------------------------------------------


def test_adjusting_the_running_side_sets_its_face_and_it_keeps_counting():
    state = clock(SUDDEN_DEATH, None, start(0), adjust(10 * S, 0, 2 * MIN))
    assert (state.phase, state.running) == (Phase.RUNNING, 0)
    assert state.time_at(10 * S) == (2 * MIN, 5 * MIN)
    assert state.time_at(20 * S) == (2 * MIN - 10 * S, 5 * MIN)
    assert state.deadline == 10 * S + 2 * MIN
    state = apply(state, press(40 * S, 0))
    assert state.sides[0].time == 2 * MIN - 30 * S
    assert state.sides[0].moves == 1  # the adjust was not a move


@pytest.mark.parametrize(
    ("used", "delay_left"),
    [
        pytest.param(3 * S, 2 * S, id="inside-the-delay"),
        pytest.param(8 * S, 0, id="delay-spent"),
    ],
)
def test_adjusting_does_not_give_a_simple_delay_again(used, delay_left):
    state = clock(SIMPLE, None, start(0), adjust(used, 0, 30 * S))
    assert state.time_at(used)[0] == 30 * S
    assert state.delay_left_at(used) == delay_left
    assert state.deadline == used + 30 * S + delay_left


def test_adjusting_a_paused_side_sets_its_face_and_resume_counts_from_there():
    state = clock(SUDDEN_DEATH, None, start(0), pause(10 * S), adjust(20 * S, 0, 1 * MIN))
    assert state.phase is Phase.PAUSED
    assert state.time_at(10 * MIN) == (1 * MIN, 5 * MIN)
    state = apply(state, resume(30 * S))
    assert state.deadline == 30 * S + 1 * MIN


def test_adjusting_the_waiting_side_sets_the_time_its_next_turn_starts_with():
    state = clock(SUDDEN_DEATH, None, start(0), adjust(10 * S, 1, 1 * MIN))
    assert state.time_at(10 * S) == (5 * MIN - 10 * S, 1 * MIN)
    state = apply(state, press(20 * S, 0))
    assert state.deadline == 20 * S + 1 * MIN


def test_adjusting_a_clock_that_is_not_running_sets_the_starting_time():
    state = clock(SUDDEN_DEATH, None, adjust(0, 1, 1 * MIN))
    assert state.phase is Phase.READY
    assert state.time_at(0) == (5 * MIN, 1 * MIN)
    assert apply(state, start(5 * S, 1)).deadline == 5 * S + 1 * MIN


@pytest.mark.parametrize(
    ("events", "side"),
    [
        pytest.param([start(0), press(10 * S, 0)], 0, id="waiting-side"),
        pytest.param([start(0), press(10 * S, 0)], 1, id="running-side"),
        pytest.param([start(0), press(10 * S, 0), pause(15 * S)], 0, id="waiting-side-paused"),
        pytest.param([start(0), press(10 * S, 0), pause(15 * S)], 1, id="running-side-paused"),
    ],
)
@pytest.mark.parametrize(
    "control_",
    [
        pytest.param(SUDDEN_DEATH, id="sudden-death"),
        pytest.param(FISCHER, id="fischer"),
        pytest.param(SIMPLE, id="simple"),
        pytest.param(BRONSTEIN, id="bronstein"),
        pytest.param(SANDCLOCK, id="sandclock"),
        pytest.param(SCRABBLE, id="per-move"),
    ],
)
def test_an_adjusted_side_shows_the_value_from_then_on(control_, events, side):
    state = clock(control_, None, *events, adjust(20 * S, side, 33 * S))
    assert state.time_at(20 * S)[side] == 33 * S
    other = 1 - side
    assert state.time_at(20 * S)[other] == clock(control_, None, *events).time_at(20 * S)[other]


@pytest.mark.parametrize(
    "value",
    [
        pytest.param(0, id="zero"),
        pytest.param(-1, id="negative"),
        pytest.param(MAX_DURATION + 1, id="more-than-a-day"),
        pytest.param(True, id="bool"),
        pytest.param(False, id="false"),
        pytest.param(1.5, id="fraction"),
        pytest.param(None, id="none"),
        pytest.param("30000", id="text"),
    ],
)
def test_an_adjust_to_an_impossible_time_is_refused(value):
    state = clock(SUDDEN_DEATH, None, start(0))
    refused(state, adjust(1, 0, value), "at most a day")


@pytest.mark.parametrize("value", [pytest.param(1, id="one-ms"), pytest.param(MAX_DURATION, id="a-day")])
def test_an_adjust_to_the_limits_is_accepted(value):
    state = clock(SUDDEN_DEATH, None, start(0), adjust(1, 1, value))
    assert state.time_at(1)[1] == value


# --- Halt -------------------------------------------------------------------------------------


def test_a_halt_charges_the_time_used_without_increment_or_move():
    state = clock(FISCHER, None, start(0), press(5 * S, 0), halt(15 * S))
    assert state.phase is Phase.READY
    assert state.running is None
    assert state.deadline is None
    assert state.time_at(15 * S) == state.time_at(10**9) == (3 * MIN - 3 * S, 3 * MIN - 10 * S)
    assert (state.sides[0].moves, state.sides[1].moves) == (1, 0)


@pytest.mark.parametrize(
    ("control_", "left"),
    [
        pytest.param(SIMPLE, 1 * MIN - 3 * S, id="simple-delay-not-charged"),
        pytest.param(BRONSTEIN, 1 * MIN - 8 * S, id="bronstein-gives-nothing-back"),
    ],
)
def test_a_halt_charges_like_a_move_without_what_a_move_earns(control_, left):
    assert clock(control_, None, start(0), halt(8 * S)).sides[0].time == left


def test_a_halt_while_paused_charges_only_up_to_the_pause():
    state = clock(SUDDEN_DEATH, None, start(0), pause(10 * S), halt(1 * MIN))
    assert state.time_at(1 * MIN) == (5 * MIN - 10 * S, 5 * MIN)


def test_a_halt_when_nothing_runs_changes_nothing_but_the_log():
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), halt(20 * S))
    again = apply(state, halt(30 * S))
    assert (again.sides, again.phase, again.running) == (state.sides, state.phase, state.running)
    assert (again.events, again.last_at) == (state.events + 1, 30 * S)


def test_starting_again_without_reset_carries_the_times_and_moves():
    state = clock(FISCHER, None, start(0), press(5 * S, 0), halt(15 * S), start(1 * MIN, 1))
    assert (state.phase, state.running) == (Phase.RUNNING, 1)
    assert state.deadline == 1 * MIN + 3 * MIN - 10 * S
    assert state.sides[0].moves == 1
    assert state.time_at(1 * MIN + 1 * S) == (3 * MIN - 3 * S, 3 * MIN - 11 * S)


def test_starting_again_with_reset_begins_both_sides_from_the_initial_time():
    state = clock(ARMAGEDDON_WHITE, ARMAGEDDON_BLACK, start(0), press(5 * S, 0), halt(15 * S))
    state = apply(state, start(1 * MIN, 0, reset=True))
    assert state.time_at(1 * MIN) == (5 * MIN, 4 * MIN)
    assert (state.sides[0].moves, state.sides[1].moves) == (0, 0)
    assert state.deadline == 1 * MIN + 5 * MIN


def test_a_reset_start_counts_moves_from_one_again():
    fide = TimeControl(periods=(Period(10 * MIN, moves=2), Period(5 * MIN)))
    state = clock(fide, None, *moves(1, 1 * S), halt(5 * S), start(6 * S, 0, reset=True), press(7 * S, 0))
    assert state.sides[0].time == 10 * MIN - 1 * S  # move 1 again: no period added


# --- Flag -------------------------------------------------------------------------------------


def test_a_final_flag_stops_the_clock_for_good():
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), flag(10 * S + 5 * MIN + 300, 1))
    assert (state.phase, state.flagged) == (Phase.FLAGGED, 1)
    assert state.time_at(10**9) == (5 * MIN - 10 * S, 0)
    assert state.deadline is None
    assert not state.is_due(10**9)


@pytest.mark.parametrize(
    "event",
    [
        pytest.param(start(10 * MIN, 0), id="start"),
        pytest.param(start(10 * MIN, 0, reset=True), id="start-with-reset"),
        pytest.param(press(10 * MIN, 1), id="press-by-the-flagged-side"),
        pytest.param(press(10 * MIN, 0), id="press-by-the-other-side"),
        pytest.param(pause(10 * MIN), id="pause"),
        pytest.param(resume(10 * MIN), id="resume"),
        pytest.param(adjust(10 * MIN, 1, 1 * MIN), id="adjust"),
        pytest.param(flag(10 * MIN, 1), id="flag-again"),
        pytest.param(halt(10 * MIN), id="halt"),
    ],
)
def test_every_event_after_a_final_flag_is_refused(event):
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), flag(10 * S + 5 * MIN, 1))
    refused(state, event, "flag has fallen")


def test_a_flag_that_passes_the_turn_runs_the_opponent_from_the_flag_time():
    state = clock(SUDDEN_DEATH, None, start(0), press(10 * S, 0), passes=True)
    flagged_at = 10 * S + 5 * MIN + 400
    state = apply(state, flag(flagged_at, 1))
    assert (state.phase, state.running, state.flagged) == (Phase.RUNNING, 0, None)
    assert state.time_at(flagged_at) == (5 * MIN - 10 * S, 0)
    assert state.deadline == flagged_at + 5 * MIN - 10 * S
    assert state.sides[1].moves == 1


@pytest.mark.parametrize(
    ("events", "event"),
    [
        pytest.param([start(0)], flag(5 * MIN - 1, 0), id="1-ms-before-the-deadline"),
        pytest.param([start(0)], flag(5 * MIN, 1), id="by-the-waiting-side"),
        pytest.param([], flag(5 * MIN, 0), id="before-start"),
        pytest.param([start(0), pause(1)], flag(5 * MIN, 0), id="while-paused"),
        pytest.param([start(0), halt(1)], flag(5 * MIN, 0), id="after-halt"),
    ],
)
def test_a_flag_falls_only_when_the_running_sides_time_is_up(events, event):
    refused(clock(SUDDEN_DEATH, None, *events), event)


@pytest.mark.parametrize(
    ("now", "due"),
    [
        pytest.param(5 * MIN - 1, False, id="before"),
        pytest.param(5 * MIN, True, id="at"),
        pytest.param(6 * MIN, True, id="after"),
    ],
)
def test_a_clock_is_due_from_its_deadline_on(now, due):
    assert clock(SUDDEN_DEATH, None, start(0)).is_due(now) is due


# --- Bad events -------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("events", "event", "message"),
    [
        pytest.param([], press(0, 0), "not running", id="press-before-start"),
        pytest.param([start(0), halt(5)], press(6, 0), "not running", id="press-after-halt"),
        pytest.param([start(0, 0)], press(1, 1), "not this side", id="press-by-the-waiting-side"),
        pytest.param([start(0, 0), press(1, 0)], press(2, 0), "not this side", id="press-twice"),
        pytest.param([start(0)], start(1, 1), "already running", id="start-while-running"),
        pytest.param([start(0)], start(1, 0, reset=True), "already running", id="start-with-reset-while-running"),
        pytest.param([start(0), pause(1)], start(2, 0), "already running", id="start-while-paused"),
        pytest.param([start(100)], press(99, 0), "earlier", id="press-earlier-than-start"),
        pytest.param([start(0), pause(100)], resume(99), "earlier", id="resume-earlier-than-pause"),
        pytest.param([adjust(100, 0, 1000)], start(99, 0), "earlier", id="start-earlier-than-adjust"),
        pytest.param([start(0), halt(100)], halt(99), "earlier", id="halt-earlier-than-halt"),
        pytest.param([], start(0, 2), "side 0 or 1", id="start-side-2"),
        pytest.param([], start(0, -1), "side 0 or 1", id="start-side-minus-1"),
        pytest.param([], start(0, None), "side 0 or 1", id="start-no-side"),
        pytest.param([start(0)], press(1, 2), "side 0 or 1", id="press-side-2"),
        pytest.param([start(0)], press(1, None), "side 0 or 1", id="press-no-side"),
        pytest.param([start(0)], adjust(1, 2, 1000), "side 0 or 1", id="adjust-side-2"),
        pytest.param([start(0)], adjust(1, None, 1000), "side 0 or 1", id="adjust-no-side"),
        pytest.param([start(0)], flag(5 * MIN, 2), "side 0 or 1", id="flag-side-2"),
        pytest.param([start(0)], Event("explode", 1, 0), "Unknown", id="unknown-kind"),  # type: ignore[arg-type]
    ],
)
def test_an_impossible_event_is_refused(events, event, message):
    refused(clock(SUDDEN_DEATH, None, *events), event, message)


def test_a_refused_event_leaves_the_clock_as_it_was():
    state = clock(SUDDEN_DEATH, None, start(0))
    before = state
    refused(state, press(1, 1))
    assert state == before
    assert apply(state, press(1, 0)).sides[0].time == 5 * MIN - 1


def test_events_at_the_same_millisecond_are_in_order():
    state = clock(SUDDEN_DEATH, None, start(0), press(0, 0), press(0, 1), pause(0), resume(0), halt(0))
    assert state.time_at(0) == (5 * MIN, 5 * MIN)
    assert (state.sides[0].moves, state.sides[1].moves) == (1, 1)


# --- Properties over random event logs ---------------------------------------------------------

SHORT = st.integers(1, 20 * S)


@st.composite
def time_controls(draw) -> TimeControl:
    """Small controls, so that random logs cross period boundaries and flags."""
    kind = draw(st.sampled_from(["per_move", "periods", "periods", "periods", "sandclock"]))
    if kind == "sandclock":
        return TimeControl(periods=(Period(draw(SHORT)),), sandclock=True)
    delay_kind = draw(st.sampled_from(Delay))
    delay = 0 if delay_kind is Delay.NONE else draw(st.integers(1, 6 * S))
    if kind == "per_move":
        return TimeControl(per_move=draw(SHORT), delay=delay, delay_kind=delay_kind)
    count = draw(st.integers(1, 3))
    periods = [Period(draw(SHORT), draw(st.integers(1, 4)), draw(st.integers(0, 3 * S))) for _ in range(count - 1)]
    periods.append(Period(draw(SHORT), draw(st.none() | st.integers(1, 4)), draw(st.integers(0, 3 * S))))
    return TimeControl(
        periods=tuple(periods),
        delay=delay,
        delay_kind=delay_kind,
        increment_from_move=draw(st.integers(1, 6)),
    )


def earned(control_: TimeControl, move_number: int) -> tuple[int, int]:
    """(increment, period time added) for completing move ``move_number``, worked out by
    walking the schedule move by move: a period with a move count hands over to the
    next one (or starts again, if it is the last) after its last move, with that
    period's time; every move earns its own period's increment from
    ``increment_from_move`` on."""
    periods = control_.periods
    index, left_in_period = 0, periods[0].moves
    for number in range(1, move_number + 1):
        period = periods[index]
        increment = period.increment if number >= control_.increment_from_move else 0
        added = 0
        if left_in_period is not None:
            left_in_period -= 1
            if left_in_period == 0:
                index = min(index + 1, len(periods) - 1)
                left_in_period = periods[index].moves
                added = periods[index].time
    return increment, added


class Step:
    """One event of a random log: the clock before and after it, and what the test's
    own bookkeeping knows (the thinking time of the turn the event ends)."""

    def __init__(self, before: ClockState, event: Event, after: ClockState, used: int, move_number: int):
        self.before, self.event, self.after = before, event, after
        self.used, self.move_number = used, move_number


def random_log(data) -> list[Step]:
    """A random valid log: presses, pauses, halts and adjusts before the deadline, flags
    at or after it."""
    controls = (data.draw(time_controls(), "side 0"), data.draw(time_controls(), "side 1"))
    state = new_clock(controls, flag_passes_turn=data.draw(st.booleans(), "passes"))
    now, used, moves_made = 0, 0, [0, 0]
    steps = []
    for _ in range(data.draw(st.integers(1, 40), "length")):
        phase = state.phase
        if phase is Phase.FLAGGED:
            break
        if phase is Phase.READY:
            kind = data.draw(st.sampled_from(["start", "start", "adjust", "halt"]))
            at = now + data.draw(st.integers(0, 5 * S))
        elif phase is Phase.PAUSED:
            kind = data.draw(st.sampled_from(["resume", "resume", "adjust", "halt"]))
            at = now + data.draw(st.integers(0, 5 * S))
        else:
            room = state.deadline - now  # ms before the flag falls
            kinds = ["flag", "adjust", "halt"] + (["press"] * 8 + ["pause"] if room > 0 else [])
            kind = data.draw(st.sampled_from(kinds))
            if kind == "flag":
                at = state.deadline + data.draw(st.integers(0, 2 * S))
            else:
                at = now + data.draw(st.integers(0, max(0, room - 1)))
        side = state.running
        if kind == "start":
            event = start(at, data.draw(st.integers(0, 1)), reset=data.draw(st.booleans()))
        elif kind == "adjust":
            event = adjust(at, data.draw(st.integers(0, 1)), data.draw(st.integers(1, 30 * S)))
        else:
            event = Event(EventKind(kind), at, side)
        if phase is Phase.RUNNING:
            used += at - now
        move_number = 0
        if kind == "press" or (kind == "flag" and state.flag_passes_turn):
            moves_made[side] += 1
            move_number = moves_made[side]
        after = apply(state, event)
        steps.append(Step(state, event, after, used, move_number))
        if kind == "start" and event.reset:
            moves_made = [0, 0]
        if kind in ("start", "press", "flag", "halt"):
            used = 0
        state, now = after, at
    return steps


def allowed_increase(step: Step) -> list[int | None]:
    """How much each side's shown time may grow at this event (None: set by the event)."""
    event, before = step.event, step.before
    allowed: list[int | None] = [0, 0]
    if event.kind is EventKind.ADJUST or (event.kind is EventKind.START and event.reset):
        allowed = [None, None] if event.kind is EventKind.START else [None if s == event.side else 0 for s in (0, 1)]
    elif event.kind is EventKind.HALT and before.running is not None and before.controls[before.running].per_move:
        allowed[before.running] = None  # a per-move countdown is not charged: the next move starts afresh
    elif event.kind is EventKind.PRESS or (event.kind is EventKind.FLAG and before.flag_passes_turn):
        side = event.side
        control_ = before.controls[side]
        if control_.per_move:
            allowed[side] = None  # a fresh countdown
        elif event.kind is EventKind.PRESS:
            increment, added = earned(control_, step.move_number)
            back = min(step.used, control_.delay) if control_.delay_kind is Delay.BRONSTEIN else 0
            allowed[side] = increment + added + back
    return allowed


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_a_sides_time_grows_only_by_increment_give_back_period_flow_or_adjust(data):
    for step in random_log(data):
        at = step.event.at
        shown_before, shown_after = step.before.time_at(at), step.after.time_at(at)
        for side, allowed in enumerate(allowed_increase(step)):
            if allowed is None:
                continue
            assert shown_after[side] - shown_before[side] <= allowed, (step.event, side)
        if step.event.kind is EventKind.PRESS and not step.before.controls[step.event.side].per_move:
            side = step.event.side
            assert shown_after[side] - shown_before[side] == allowed_increase(step)[side]
        if step.event.kind is EventKind.ADJUST:
            assert shown_after[step.event.side] == step.event.value
        if step.event.kind is EventKind.START and step.event.reset:
            assert shown_after == tuple(c.initial for c in step.before.controls)
        per_move = [c.per_move for c in step.before.controls]
        if step.move_number and per_move[step.event.side]:
            assert shown_after[step.event.side] == per_move[step.event.side]


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_between_events_the_running_side_only_loses_time_and_only_a_sandclock_gives_it_away(data):
    steps = random_log(data)
    for step, following in zip(steps, steps[1:] + [None], strict=True):
        state, since = step.after, step.event.at
        until = following.event.at if following else since + 30 * S
        nows = sorted(data.draw(st.lists(st.integers(since, until + 5 * S), min_size=2, max_size=5), "nows"))
        for earlier, later in zip(nows, nows[1:], strict=False):
            first, second = state.time_at(earlier), state.time_at(later)
            if state.phase is not Phase.RUNNING:
                assert first == second
                continue
            running = state.running
            waiting = 1 - running
            lost = first[running] - second[running]
            assert lost >= 0
            if state.controls[running].sandclock:
                assert second[waiting] - first[waiting] == lost
            else:
                assert second[waiting] == first[waiting]


@given(st.data())
@settings(max_examples=300, deadline=None)
def test_the_deadline_is_the_first_moment_the_shown_time_and_delay_are_gone(data):
    for step in random_log(data):
        state = step.after
        if state.phase is not Phase.RUNNING:
            assert state.deadline is None
            continue
        deadline, running = state.deadline, state.running
        assert deadline >= step.event.at
        assert state.time_at(deadline)[running] + state.delay_left_at(deadline) == 0
        assert state.is_due(deadline)
        with pytest.raises(ClockError):
            apply(state, press(deadline, running))
        assert apply(state, flag(deadline, running)).events == state.events + 1
        if deadline > step.event.at:
            assert state.time_at(deadline - 1)[running] + state.delay_left_at(deadline - 1) > 0
            assert not state.is_due(deadline - 1)
            apply(state, press(deadline - 1, running))
            with pytest.raises(ClockError):
                apply(state, flag(deadline - 1, running))


# --- A new game of a match ----------------------------------------------------------------------
RAPID = control(25 * MIN, increment=10 * S)


def new_game(at: int, first: TimeControl, second: TimeControl | None = None) -> Event:
    return Event(EventKind.NEW_GAME, at, controls=(first, second or first))


@pytest.mark.parametrize(
    "before",
    [
        pytest.param([], id="never-started"),
        pytest.param([start(0), press(10 * S, 0)], id="running"),
        pytest.param([start(0), pause(5 * S)], id="paused"),
        pytest.param([start(0), halt(5 * S)], id="halted"),
        pytest.param([start(0), flag(3 * MIN, 0)], id="flagged"),
    ],
)
def test_a_new_game_starts_both_sides_afresh_on_its_own_controls_whatever_came_before(before):
    state = replay(clock(FISCHER), [*before, new_game(4 * MIN, ARMAGEDDON_WHITE, ARMAGEDDON_BLACK)])
    assert state.phase is Phase.READY and state.running is None and state.flagged is None
    assert state.controls == (ARMAGEDDON_WHITE, ARMAGEDDON_BLACK)
    assert state.time_at(5 * MIN) == (5 * MIN, 4 * MIN)
    assert state.deadline is None and state.events == len(before) + 1


def test_after_a_new_game_the_new_controls_count_the_moves_from_move_1():
    state = replay(clock(FISCHER), [start(0), flag(3 * MIN, 0), new_game(4 * MIN, RAPID), start(5 * MIN, 1)])
    state = apply(state, press(5 * MIN + 30 * S, 1))
    assert state.sides[1].moves == 1
    assert state.time_at(5 * MIN + 30 * S) == (25 * MIN, 25 * MIN - 30 * S + 10 * S)


def test_a_flag_stops_the_clock_until_the_next_game():
    flagged = clock(FISCHER, None, start(0), flag(3 * MIN, 0))
    for event in (start(4 * MIN, 1), press(4 * MIN, 0), resume(4 * MIN), adjust(4 * MIN, 0, MIN)):
        refused(flagged, event, "until the next game")


def test_a_new_game_must_carry_its_controls():
    refused(clock(FISCHER), Event(EventKind.NEW_GAME, 0), "names the time controls")
