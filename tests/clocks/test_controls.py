"""Time controls as values (SPEC §6, §3.2, §5): constructors, validation, the period /
increment / delay arithmetic, the PGN ``TimeControl`` tag and the stored form.

Every expected value is worked out by hand from the rules, in milliseconds: 1 s is
1000 ms, 1 min is 60 000 ms; "40/5400:1800+30" is 40 moves in 90 min, then 30 min for
the rest of the game with 30 s added after each move of that second period.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from clocks.controls import (
    ClockError,
    Delay,
    Period,
    TimeControl,
    backgammon_match_clock,
    format_pgn,
    from_data,
    parse_pgn,
    per_move,
    seconds,
    sudden_death,
    to_data,
    with_delay,
)
from games.text import RuleError

S = 1000  # ms in a second
MIN = 60 * S
DAY = 24 * 3600 * S

FIDE = TimeControl(periods=(Period(90 * MIN, moves=40), Period(30 * MIN)))  # 40/5400:1800
REPEATING = TimeControl(periods=(Period(120 * MIN, moves=40),))  # 40/7200, repeats
TWO_REPEATING = TimeControl(periods=(Period(90 * MIN, moves=40), Period(30 * MIN, moves=20)))  # 40/5400:20/1800
PER_PERIOD_INCREMENTS = TimeControl(
    periods=(Period(90 * MIN, moves=40, increment=30 * S), Period(30 * MIN, increment=10 * S))
)  # 40/5400+30:1800+10
SECOND_PERIOD_INCREMENT = TimeControl(periods=(Period(90 * MIN, moves=40), Period(30 * MIN, increment=30 * S)))
ARMAGEDDON_WHITE = TimeControl(periods=(Period(5 * MIN, increment=3 * S),), increment_from_move=61)
ARMAGEDDON_BLACK = TimeControl(periods=(Period(4 * MIN, increment=3 * S),), increment_from_move=61)
BLITZ = TimeControl(periods=(Period(3 * MIN, increment=2 * S),))  # 180+2
SCRABBLE = TimeControl(per_move=2 * MIN)
SIMPLE_5 = TimeControl(periods=(Period(1 * MIN),), delay=5 * S, delay_kind=Delay.SIMPLE)
BRONSTEIN_5 = TimeControl(periods=(Period(1 * MIN),), delay=5 * S, delay_kind=Delay.BRONSTEIN)
SANDCLOCK = TimeControl(periods=(Period(3 * MIN),), sandclock=True)


# --- Constructors ------------------------------------------------------------------------


def test_clock_errors_are_rule_errors_so_the_tournament_code_catches_them():
    assert issubclass(ClockError, RuleError)


@pytest.mark.parametrize(
    ("value", "expected"),
    [
        pytest.param(0, 0, id="zero"),
        pytest.param(0.001, 1, id="one-millisecond"),
        pytest.param(2.5, 2500, id="half-seconds"),
        pytest.param(120, 120_000, id="whole-seconds"),
        pytest.param(0.1 + 0.2, 300, id="float-noise-rounded-away"),
    ],
)
def test_seconds_become_whole_milliseconds(value, expected):
    assert seconds(value) == expected
    assert isinstance(seconds(value), int)


def test_a_per_move_countdown_starts_each_move_on_its_limit():
    control = per_move(120)
    assert control.per_move == 120_000
    assert control.periods == ()
    assert control.initial == 120_000


@pytest.mark.parametrize(
    ("args", "period"),
    [
        pytest.param((300,), Period(300_000), id="no-increment"),
        pytest.param((180, 2), Period(180_000, increment=2000), id="fischer"),
        pytest.param((1500, 2.5), Period(1_500_000, increment=2500), id="fractional-increment"),
    ],
)
def test_sudden_death_is_one_period_for_the_rest_of_the_game(args, period):
    control = sudden_death(*args)
    assert control.periods == (period,)
    assert control.periods[0].moves is None
    assert control.initial == period.time


def test_with_delay_keeps_everything_else_of_the_control():
    delayed = with_delay(ARMAGEDDON_WHITE, 5, Delay.BRONSTEIN)
    assert delayed.periods == ARMAGEDDON_WHITE.periods
    assert delayed.increment_from_move == 61
    assert (delayed.delay, delayed.delay_kind) == (5000, Delay.BRONSTEIN)


@pytest.mark.parametrize(
    ("match_length", "reserve"),
    [
        pytest.param(1, 2 * MIN, id="1-point"),
        pytest.param(3, 6 * MIN, id="3-points"),
        pytest.param(7, 14 * MIN, id="7-points-is-14-minutes"),
        pytest.param(11, 22 * MIN, id="11-points"),
        pytest.param(25, 50 * MIN, id="25-points"),
        pytest.param(720, DAY, id="longest-reserve-a-day"),
    ],
)
def test_the_backgammon_reserve_is_2_minutes_per_point_with_a_12_second_simple_delay(match_length, reserve):
    control = backgammon_match_clock(match_length)
    assert control.periods == (Period(reserve),)
    assert control.initial == reserve
    assert (control.delay, control.delay_kind) == (12 * S, Delay.SIMPLE)
    assert control.per_move == 0 and not control.sandclock


@pytest.mark.parametrize(
    ("kwargs", "reserve", "delay", "kind"),
    [
        pytest.param({"minutes_per_point": 3}, 21 * MIN, 12 * S, Delay.SIMPLE, id="3-min-per-point"),
        pytest.param({"minutes_per_point": 1.5}, 630 * S, 12 * S, Delay.SIMPLE, id="fractional-minutes"),
        pytest.param({"delay_seconds": 8}, 14 * MIN, 8 * S, Delay.SIMPLE, id="8-second-delay"),
        pytest.param({"delay_seconds": 0}, 14 * MIN, 0, Delay.NONE, id="no-delay"),
    ],
)
def test_the_backgammon_clock_takes_other_minutes_per_point_and_delays(kwargs, reserve, delay, kind):
    control = backgammon_match_clock(7, **kwargs)
    assert control.periods == (Period(reserve),)
    assert (control.delay, control.delay_kind) == (delay, kind)


@pytest.mark.parametrize(
    ("args", "kwargs"),
    [
        pytest.param((0,), {}, id="zero-points"),
        pytest.param((-7,), {}, id="negative"),
        pytest.param((True,), {}, id="bool"),
        pytest.param((7.0,), {}, id="float"),
        pytest.param(("7",), {}, id="text"),
        pytest.param((None,), {}, id="none"),
        pytest.param((721,), {}, id="reserve-longer-than-a-day"),
        pytest.param((7,), {"minutes_per_point": 0}, id="no-reserve"),
        pytest.param((7,), {"minutes_per_point": -2}, id="negative-reserve"),
        pytest.param((7,), {"delay_seconds": -12}, id="negative-delay"),
    ],
)
def test_a_backgammon_clock_refuses_a_bad_match_length_or_reserve(args, kwargs):
    with pytest.raises(ClockError):
        backgammon_match_clock(*args, **kwargs)


# --- Validation ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({}, id="nothing-at-all"),
        pytest.param({"per_move": -1}, id="negative-per-move"),
        pytest.param({"per_move": True}, id="bool-per-move"),
        pytest.param({"per_move": 1.5}, id="fractional-ms-per-move"),
        pytest.param({"per_move": DAY + 1}, id="per-move-longer-than-a-day"),
        pytest.param({"periods": (Period(0),)}, id="zero-time"),
        pytest.param({"periods": (Period(-1000),)}, id="negative-time"),
        pytest.param({"periods": (Period(True),)}, id="bool-time"),
        pytest.param({"periods": (Period(1000.0),)}, id="float-time"),
        pytest.param({"periods": (Period(DAY + 1),)}, id="time-longer-than-a-day"),
        pytest.param({"periods": (Period(1000, increment=-1),)}, id="negative-increment"),
        pytest.param({"periods": (Period(1000, increment=DAY + 1),)}, id="increment-longer-than-a-day"),
        pytest.param({"periods": (Period(1000, moves=0),)}, id="zero-moves"),
        pytest.param({"periods": (Period(1000, moves=-40),)}, id="negative-moves"),
        pytest.param({"periods": (Period(1000, moves=501),)}, id="more-than-500-moves"),
        pytest.param({"periods": (Period(1000, moves=True),)}, id="bool-moves"),
        pytest.param({"periods": (Period(1000, moves=40.0),)}, id="float-moves"),
        pytest.param({"periods": (Period(1000), Period(1000))}, id="rest-of-game-period-not-last"),
        pytest.param({"periods": tuple(Period(1000, moves=1) for _ in range(11))}, id="eleven-periods"),
        pytest.param({"periods": (Period(1000),), "delay": 5000}, id="delay-without-kind"),
        pytest.param({"periods": (Period(1000),), "delay_kind": Delay.SIMPLE}, id="simple-without-length"),
        pytest.param({"periods": (Period(1000),), "delay_kind": Delay.BRONSTEIN}, id="bronstein-without-length"),
        pytest.param({"periods": (Period(1000),), "delay": 5000, "delay_kind": "simple"}, id="kind-not-a-delay"),
        pytest.param({"periods": (Period(1000),), "delay": -5000, "delay_kind": Delay.SIMPLE}, id="negative-delay"),
        pytest.param({"periods": (Period(1000),), "delay": DAY + 1, "delay_kind": Delay.SIMPLE}, id="delay-over-a-day"),
        pytest.param({"periods": (Period(1000),), "increment_from_move": 0}, id="increment-from-move-0"),
        pytest.param({"periods": (Period(1000),), "increment_from_move": 501}, id="increment-from-move-501"),
        pytest.param({"periods": (Period(1000),), "increment_from_move": True}, id="increment-from-move-bool"),
        pytest.param({"per_move": 1000, "periods": (Period(1000),)}, id="per-move-with-periods"),
        pytest.param({"per_move": 1000, "sandclock": True}, id="per-move-sandclock"),
        pytest.param({"periods": (Period(1000, moves=1), Period(1000)), "sandclock": True}, id="sandclock-two-periods"),
        pytest.param({"periods": (Period(1000, increment=1000),), "sandclock": True}, id="sandclock-increment"),
        pytest.param({"periods": (Period(1000, moves=40),), "sandclock": True}, id="sandclock-moves"),
        pytest.param(
            {"periods": (Period(1000),), "sandclock": True, "delay": 1000, "delay_kind": Delay.SIMPLE},
            id="sandclock-delay",
        ),
    ],
)
def test_an_impossible_time_control_is_refused(kwargs):
    with pytest.raises(ClockError):
        TimeControl(**kwargs)


@pytest.mark.parametrize(
    "kwargs",
    [
        pytest.param({"per_move": 1}, id="one-ms-per-move"),
        pytest.param({"per_move": DAY}, id="a-day-per-move"),
        pytest.param({"per_move": 1000, "delay": 500, "delay_kind": Delay.SIMPLE}, id="per-move-with-delay"),
        pytest.param({"periods": (Period(1),)}, id="one-ms-period"),
        pytest.param({"periods": (Period(DAY, increment=DAY),)}, id="a-day-and-a-day-increment"),
        pytest.param({"periods": (Period(1000, moves=500),)}, id="500-moves"),
        pytest.param({"periods": tuple(Period(1000, moves=1) for _ in range(10))}, id="ten-periods"),
        pytest.param({"periods": (Period(1000, moves=1),) * 9 + (Period(1000),)}, id="ten-periods-last-rest"),
        pytest.param({"periods": (Period(1000),), "increment_from_move": 500}, id="increment-from-move-500"),
        pytest.param({"periods": (Period(1000),), "delay": DAY, "delay_kind": Delay.BRONSTEIN}, id="day-delay"),
        pytest.param({"periods": (Period(1000),), "sandclock": True}, id="sandclock"),
    ],
)
def test_a_time_control_at_the_limits_is_accepted(kwargs):
    TimeControl(**kwargs)


@pytest.mark.parametrize(
    ("control", "initial"),
    [
        pytest.param(SCRABBLE, 2 * MIN, id="per-move"),
        pytest.param(FIDE, 90 * MIN, id="first-period"),
        pytest.param(ARMAGEDDON_BLACK, 4 * MIN, id="sudden-death"),
        pytest.param(SANDCLOCK, 3 * MIN, id="sandclock"),
    ],
)
def test_the_initial_time_is_the_per_move_limit_or_the_first_periods_time(control, initial):
    assert control.initial == initial


# --- Periods, increments, delays -----------------------------------------------------------


@pytest.mark.parametrize(
    ("control", "moves_made", "period"),
    [
        pytest.param(BLITZ, 0, 0, id="sudden-death-first-move"),
        pytest.param(BLITZ, 1000, 0, id="sudden-death-move-1001"),
        pytest.param(FIDE, 0, 0, id="fide-move-1"),
        pytest.param(FIDE, 39, 0, id="fide-move-40-is-first-period"),
        pytest.param(FIDE, 40, 1, id="fide-move-41-is-second-period"),
        pytest.param(FIDE, 200, 1, id="fide-rest-of-game"),
        pytest.param(REPEATING, 79, 0, id="repeating-keeps-its-index"),
        pytest.param(TWO_REPEATING, 59, 1, id="two-periods-move-60"),
        pytest.param(TWO_REPEATING, 60, 1, id="two-periods-move-61-repeats-last"),
    ],
)
def test_the_period_of_a_move_is_found_by_counting_the_quotas(control, moves_made, period):
    assert control.period_at(moves_made) == period


@pytest.mark.parametrize(
    ("control", "move_number", "added"),
    [
        pytest.param(FIDE, 1, 0, id="fide-move-1"),
        pytest.param(FIDE, 39, 0, id="fide-move-39"),
        pytest.param(FIDE, 40, 30 * MIN, id="fide-move-40-adds-30-min"),
        pytest.param(FIDE, 41, 0, id="fide-move-41"),
        pytest.param(FIDE, 80, 0, id="fide-rest-of-game-never-adds"),
        pytest.param(REPEATING, 39, 0, id="repeating-move-39"),
        pytest.param(REPEATING, 40, 120 * MIN, id="repeating-move-40"),
        pytest.param(REPEATING, 41, 0, id="repeating-move-41"),
        pytest.param(REPEATING, 79, 0, id="repeating-move-79"),
        pytest.param(REPEATING, 80, 120 * MIN, id="repeating-move-80-adds-again"),
        pytest.param(REPEATING, 81, 0, id="repeating-move-81"),
        pytest.param(REPEATING, 120, 120 * MIN, id="repeating-move-120"),
        pytest.param(TWO_REPEATING, 40, 30 * MIN, id="two-move-40-adds-next-period"),
        pytest.param(TWO_REPEATING, 50, 0, id="two-move-50"),
        pytest.param(TWO_REPEATING, 60, 30 * MIN, id="two-move-60-repeats-last"),
        pytest.param(TWO_REPEATING, 70, 0, id="two-move-70"),
        pytest.param(TWO_REPEATING, 80, 30 * MIN, id="two-move-80"),
        pytest.param(TWO_REPEATING, 100, 30 * MIN, id="two-move-100"),
        pytest.param(BLITZ, 40, 0, id="sudden-death-never-adds"),
        pytest.param(SCRABBLE, 40, 0, id="per-move-never-adds"),
    ],
)
def test_a_period_adds_its_time_exactly_when_the_quota_is_completed(control, move_number, added):
    assert control.time_added_after(move_number) == added


@pytest.mark.parametrize(
    ("control", "move_number", "increment"),
    [
        pytest.param(BLITZ, 1, 2 * S, id="from-move-1"),
        pytest.param(BLITZ, 500, 2 * S, id="every-move"),
        pytest.param(PER_PERIOD_INCREMENTS, 1, 30 * S, id="first-period-move-1"),
        pytest.param(PER_PERIOD_INCREMENTS, 40, 30 * S, id="first-period-move-40"),
        pytest.param(PER_PERIOD_INCREMENTS, 41, 10 * S, id="second-period-move-41"),
        pytest.param(SECOND_PERIOD_INCREMENT, 40, 0, id="no-increment-in-first-period"),
        pytest.param(SECOND_PERIOD_INCREMENT, 41, 30 * S, id="increment-from-second-period"),
        pytest.param(ARMAGEDDON_WHITE, 1, 0, id="armageddon-move-1"),
        pytest.param(ARMAGEDDON_WHITE, 60, 0, id="armageddon-move-60"),
        pytest.param(ARMAGEDDON_WHITE, 61, 3 * S, id="armageddon-move-61"),
        pytest.param(ARMAGEDDON_BLACK, 62, 3 * S, id="armageddon-move-62"),
        pytest.param(FIDE, 10, 0, id="no-increment-at-all"),
        pytest.param(SCRABBLE, 10, 0, id="per-move"),
    ],
)
def test_the_increment_is_the_one_of_the_period_the_move_was_played_in(control, move_number, increment):
    assert control.increment_after(move_number) == increment


@pytest.mark.parametrize(
    ("control", "used", "charged", "given_back"),
    [
        pytest.param(BLITZ, 0, 0, 0, id="no-delay-nothing-used"),
        pytest.param(BLITZ, 7000, 7000, 0, id="no-delay-all-charged"),
        pytest.param(SIMPLE_5, 0, 0, 0, id="simple-nothing-used"),
        pytest.param(SIMPLE_5, 4999, 0, 0, id="simple-inside-the-delay"),
        pytest.param(SIMPLE_5, 5000, 0, 0, id="simple-exactly-the-delay"),
        pytest.param(SIMPLE_5, 5001, 1, 0, id="simple-1-ms-past-the-delay"),
        pytest.param(SIMPLE_5, 12_000, 7000, 0, id="simple-long-move"),
        pytest.param(BRONSTEIN_5, 0, 0, 0, id="bronstein-nothing-used"),
        pytest.param(BRONSTEIN_5, 3000, 3000, 3000, id="bronstein-gives-back-all-of-a-short-move"),
        pytest.param(BRONSTEIN_5, 5000, 5000, 5000, id="bronstein-exactly-the-delay"),
        pytest.param(BRONSTEIN_5, 12_000, 12_000, 5000, id="bronstein-gives-back-the-delay"),
    ],
)
def test_a_simple_delay_is_not_charged_and_bronstein_gives_back_min_of_used_and_delay(
    control, used, charged, given_back
):
    assert control.charged(used) == charged
    assert control.given_back(used) == given_back


@pytest.mark.parametrize(
    ("control", "remaining", "allowance"),
    [
        pytest.param(BLITZ, 0, 0, id="no-delay-nothing-left"),
        pytest.param(BLITZ, 9000, 9000, id="no-delay"),
        pytest.param(SIMPLE_5, 0, 5000, id="simple-nothing-left-still-has-the-delay"),
        pytest.param(SIMPLE_5, 9000, 14_000, id="simple-remaining-plus-delay"),
        pytest.param(BRONSTEIN_5, 3000, 3000, id="bronstein-can-flag-inside-the-delay"),
    ],
)
def test_a_move_may_take_the_remaining_time_plus_a_simple_delay(control, remaining, allowance):
    assert control.allowance(remaining) == allowance


# --- PGN TimeControl tag ---------------------------------------------------------------------

PGN_CASES = [
    pytest.param("1", TimeControl(periods=(Period(S),)), id="one-second"),
    pytest.param("300", TimeControl(periods=(Period(300 * S),)), id="sudden-death"),
    pytest.param("5400+30", TimeControl(periods=(Period(90 * MIN, increment=30 * S),)), id="fischer"),
    pytest.param("180+2.5", TimeControl(periods=(Period(180 * S, increment=2500),)), id="fractional-increment"),
    pytest.param("180+0.125", TimeControl(periods=(Period(180 * S, increment=125),)), id="millisecond-increment"),
    pytest.param("40/5400:1800+30", SECOND_PERIOD_INCREMENT, id="fide-classic"),
    pytest.param(
        "40/5400+30:1800+30",
        TimeControl(periods=(Period(90 * MIN, moves=40, increment=30 * S), Period(30 * MIN, increment=30 * S))),
        id="fide-increment-from-move-1",
    ),
    pytest.param("40/5400:1800", FIDE, id="two-periods"),
    pytest.param("40/7200", REPEATING, id="repeating-period"),
    pytest.param("40/5400:20/1800", TWO_REPEATING, id="repeating-last-of-two"),
    pytest.param("*180", SANDCLOCK, id="sandclock"),
    pytest.param("86400", TimeControl(periods=(Period(DAY),)), id="a-day"),
    pytest.param("500/60", TimeControl(periods=(Period(MIN, moves=500),)), id="500-moves"),
    pytest.param(
        "1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1/1:1",
        TimeControl(periods=(Period(S, moves=1),) * 9 + (Period(S),)),
        id="ten-periods",
    ),
]


@pytest.mark.parametrize(("text", "control"), PGN_CASES)
def test_a_pgn_time_control_is_read(text, control):
    assert parse_pgn(text) == control


@pytest.mark.parametrize(("text", "control"), PGN_CASES)
def test_a_canonical_pgn_time_control_reads_and_writes_back_unchanged(text, control):
    assert format_pgn(parse_pgn(text)) == text
    assert format_pgn(control) == text


@pytest.mark.parametrize(
    ("text", "control"),
    [
        pytest.param(" 300 ", TimeControl(periods=(Period(300 * S),)), id="surrounding-spaces"),
        pytest.param("0300", TimeControl(periods=(Period(300 * S),)), id="leading-zero"),
        pytest.param("300+0", TimeControl(periods=(Period(300 * S),)), id="zero-increment"),
        pytest.param("180+2.50", TimeControl(periods=(Period(180 * S, increment=2500),)), id="trailing-zero"),
        pytest.param(300, TimeControl(periods=(Period(300 * S),)), id="a-number"),
    ],
)
def test_a_pgn_time_control_in_a_non_canonical_form_is_read(text, control):
    assert parse_pgn(text) == control


@pytest.mark.parametrize("text", ["-", "?", " - ", "?\n"])
def test_no_time_control_and_an_unknown_one_read_as_none(text):
    assert parse_pgn(text) is None


@pytest.mark.parametrize(
    "text",
    [
        pytest.param("", id="empty"),
        pytest.param("abc", id="letters"),
        pytest.param("３００", id="non-ascii-digits"),
        pytest.param("*１８０", id="non-ascii-sandclock"),
        pytest.param("40/", id="moves-without-time"),
        pytest.param("/300", id="slash-without-moves"),
        pytest.param("5400+", id="plus-without-increment"),
        pytest.param("+30", id="increment-without-time"),
        pytest.param("0", id="zero-seconds"),
        pytest.param("-300", id="negative"),
        pytest.param(":300", id="empty-first-period"),
        pytest.param("300:", id="empty-last-period"),
        pytest.param("40/5400::1800", id="empty-middle-period"),
        pytest.param("300:40/5400", id="rest-of-game-period-not-last"),
        pytest.param("300.5", id="fractional-time"),
        pytest.param("180+2.5555", id="increment-finer-than-a-millisecond"),
        pytest.param("180+2.", id="increment-dot-without-digits"),
        pytest.param("5400+30+5", id="two-increments"),
        pytest.param("5400 + 30", id="spaces-inside"),
        pytest.param("0/300", id="zero-moves"),
        pytest.param("40/0", id="zero-time-with-moves"),
        pytest.param("501/300", id="more-than-500-moves"),
        pytest.param("1000/300", id="four-digit-moves"),
        pytest.param("86401", id="longer-than-a-day"),
        pytest.param("1234567", id="seven-digit-time"),
        pytest.param("1/1:" * 10 + "1", id="eleven-periods"),
        pytest.param("*", id="sandclock-without-time"),
        pytest.param("*0", id="sandclock-zero"),
        pytest.param("*abc", id="sandclock-letters"),
        pytest.param("*180+5", id="sandclock-with-increment"),
        pytest.param("*1234567", id="sandclock-seven-digits"),
        pytest.param("40/*180", id="sandclock-with-moves"),
        pytest.param("--", id="two-dashes"),
        pytest.param(None, id="none"),
    ],
)
def test_a_bad_pgn_time_control_is_refused(text):
    with pytest.raises(ClockError):
        parse_pgn(text)


def test_a_refused_pgn_time_control_is_quoted_in_the_message():
    with pytest.raises(ClockError, match="abc"):
        parse_pgn("abc")


@pytest.mark.parametrize(
    "control",
    [
        pytest.param(SCRABBLE, id="per-move-countdown"),
        pytest.param(ARMAGEDDON_WHITE, id="increment-from-move-61"),
        pytest.param(TimeControl(periods=(Period(MIN, increment=S),), increment_from_move=2), id="from-move-2"),
    ],
)
def test_the_pgn_tag_cannot_express_a_per_move_countdown_or_a_late_increment(control):
    assert format_pgn(control) is None


@pytest.mark.parametrize(
    "control",
    [
        pytest.param(TimeControl(periods=(Period(5400_001),)), id="time-with-a-millisecond"),
        pytest.param(TimeControl(periods=(Period(90 * MIN, moves=40), Period(1500))), id="second-period-1.5-s"),
        pytest.param(TimeControl(periods=(Period(180_500),), sandclock=True), id="sandclock-180.5-s"),
    ],
)
def test_the_pgn_tag_cannot_express_a_period_time_with_a_fraction_of_a_second(control):
    assert format_pgn(control) is None


@pytest.mark.parametrize(
    ("control", "text"),
    [
        pytest.param(with_delay(sudden_death(300), 5, Delay.SIMPLE), "300", id="simple-delay-left-out"),
        pytest.param(with_delay(sudden_death(300, 2), 5, Delay.BRONSTEIN), "300+2", id="bronstein-left-out"),
        pytest.param(backgammon_match_clock(7), "840", id="backgammon-7-points"),
        pytest.param(sudden_death(180, 12345.678), "180+12345.678", id="long-fractional-increment"),
        pytest.param(sudden_death(180, 0.001), "180+0.001", id="one-millisecond-increment"),
    ],
)
def test_the_pgn_tag_is_written_in_seconds_without_the_delay(control, text):
    assert format_pgn(control) == text


PGN_MOVES = st.integers(1, 500)
PGN_TIMES = st.integers(1, 86_400).map(lambda s: s * S)  # the tag's times are whole seconds
PGN_INCREMENTS = st.integers(0, DAY)


@st.composite
def pgn_expressible_controls(draw) -> TimeControl:
    if draw(st.booleans()) and draw(st.booleans()):
        return TimeControl(periods=(Period(draw(PGN_TIMES)),), sandclock=True)
    count = draw(st.integers(1, 10))
    periods = [Period(draw(PGN_TIMES), draw(PGN_MOVES), draw(PGN_INCREMENTS)) for _ in range(count - 1)]
    periods.append(Period(draw(PGN_TIMES), draw(st.none() | PGN_MOVES), draw(PGN_INCREMENTS)))
    delay_kind = draw(st.sampled_from(Delay))
    delay = 0 if delay_kind is Delay.NONE else draw(st.integers(1, 30 * S))
    return TimeControl(periods=tuple(periods), delay=delay, delay_kind=delay_kind)


@given(pgn_expressible_controls())
def test_any_control_the_tag_can_express_reads_back_the_same_apart_from_the_delay(control):
    text = format_pgn(control)
    assert text is not None
    assert format_pgn(parse_pgn(text)) == text
    without_delay = TimeControl(periods=control.periods, sandclock=control.sandclock)
    assert parse_pgn(text) == without_delay


# --- Stored form ------------------------------------------------------------------------------

STORED = [
    pytest.param(SCRABBLE, id="per-move"),
    pytest.param(with_delay(SCRABBLE, 3, Delay.SIMPLE), id="per-move-with-delay"),
    pytest.param(BLITZ, id="fischer"),
    pytest.param(FIDE, id="two-periods"),
    pytest.param(TWO_REPEATING, id="repeating"),
    pytest.param(PER_PERIOD_INCREMENTS, id="per-period-increments"),
    pytest.param(ARMAGEDDON_WHITE, id="armageddon"),
    pytest.param(SIMPLE_5, id="simple-delay"),
    pytest.param(BRONSTEIN_5, id="bronstein"),
    pytest.param(SANDCLOCK, id="sandclock"),
    pytest.param(backgammon_match_clock(7), id="backgammon"),
]


@pytest.mark.parametrize("control", STORED)
def test_a_stored_control_reads_back_the_same(control):
    assert from_data(to_data(control)) == control


@pytest.mark.parametrize("control", STORED)
def test_the_stored_form_is_plain_json(control):
    assert from_data(json.loads(json.dumps(to_data(control)))) == control


def test_the_stored_form_names_every_field_in_milliseconds():
    assert to_data(with_delay(ARMAGEDDON_BLACK, 2, Delay.BRONSTEIN)) == {
        "periods": [{"time": 240_000, "moves": None, "increment": 3000}],
        "per_move": 0,
        "delay": 2000,
        "delay_kind": "bronstein",
        "increment_from_move": 61,
        "sandclock": False,
    }


@pytest.mark.parametrize(
    ("data", "control"),
    [
        pytest.param({"per_move": 120_000}, SCRABBLE, id="per-move-only"),
        pytest.param({"periods": [{"time": 180_000, "increment": 2000}]}, BLITZ, id="period-without-moves"),
        pytest.param({"periods": [{"time": 180_000}], "sandclock": True}, SANDCLOCK, id="sandclock"),
    ],
)
def test_stored_data_may_leave_out_the_defaults(data, control):
    assert from_data(data) == control


@pytest.mark.parametrize(
    "data",
    [
        pytest.param(None, id="none"),
        pytest.param([], id="list"),
        pytest.param("300", id="text"),
        pytest.param(42, id="number"),
        pytest.param({}, id="empty"),
        pytest.param({"periods": [{}]}, id="period-without-time"),
        pytest.param({"periods": [300_000]}, id="period-not-a-mapping"),
        pytest.param({"periods": 5}, id="periods-not-a-list"),
        pytest.param({"periods": [{"time": "300"}]}, id="time-as-text"),
        pytest.param({"periods": [{"time": 1000.5}]}, id="fractional-milliseconds"),
        pytest.param({"periods": [{"time": 1000, "moves": 0}]}, id="zero-moves"),
        pytest.param({"periods": [{"time": 1000}], "delay_kind": "fast"}, id="unknown-delay-kind"),
        pytest.param({"periods": [{"time": 1000}], "delay": 5000}, id="delay-without-kind"),
        pytest.param({"per_move": -5}, id="negative-per-move"),
        pytest.param({"per_move": 1000, "periods": [{"time": 1000}]}, id="per-move-and-periods"),
    ],
)
def test_stored_garbage_is_refused(data):
    with pytest.raises(ClockError):
        from_data(data)
