"""Clocks through their services, with the server's time under the test's control:
the Scrabble move clock and its timeout passes, the backgammon match clock and the
match lost on time, the director's pause/resume/adjust, and the enforcement's rules
(acts once, only on an unchanged version, only after the deadline)."""

from datetime import timedelta

import pytest

from clocks import services as clock_services
from clocks.models import Clock, ClockEvent
from games.backgammon import services as bg_services
from games.scrabble import services as sc_services
from games.scrabble.models import ScrabbleTurn
from tests.conftest import first_round, make_tournament
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError

pytestmark = pytest.mark.django_db


def place(position, word, announced):
    return {"kind": "place", "position": position, "word": word, "announced": announced}


PASS = {"kind": "pass"}


@pytest.fixture
def scrabble(director):
    return make_tournament(
        director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "per_move", "move_seconds": 120}
    )


def timeouts(match):
    return list(
        ScrabbleTurn.objects.filter(game__match=match, kind="timeout", status="live").values_list("player", flat=True)
    )


def rebuilt(clock: Clock) -> dict:
    """The cached columns recomputed from the events (they must agree)."""
    state = clock_services.clock_state(clock, list(clock.events.order_by("number")))
    last_at = clock_services.to_ms(clock.as_of) if clock.as_of else None
    faces = state.time_at(last_at) if last_at is not None else (clock.time_a_ms, clock.time_b_ms)
    return {
        "phase": state.phase.value,
        "running": clock_services.INDEX_SIDE[state.running] if state.running is not None else "",
        "deadline": clock_services.from_ms(state.deadline) if state.deadline is not None else None,
        "faces": faces,
    }


def cached(clock: Clock) -> dict:
    clock.refresh_from_db()
    return {
        "phase": clock.phase,
        "running": clock.running,
        "deadline": clock.deadline,
        "faces": (clock.time_a_ms, clock.time_b_ms),
    }


# --- Scrabble's move clock ------------------------------------------------------------------
def test_the_first_move_starts_the_opponents_move_time_and_each_move_presses(scrabble, server_time):
    match = first_round(scrabble)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    sc_services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    assert (clock.phase, clock.running) == ("running", "b")
    assert clock.deadline == server_time.now + timedelta(seconds=120)
    server_time.advance(100)
    sc_services.record_turn(b, match.pk, PASS)
    clock.refresh_from_db()
    assert clock.running == "a" and clock.deadline == server_time.now + timedelta(seconds=120)  # a fresh 2 minutes
    assert list(clock.events.values_list("kind", "side")) == [("start", "b"), ("press", "b")]
    assert cached(clock) == rebuilt(clock)


def test_no_move_in_time_records_exactly_one_timeout_pass_and_starts_the_opponent(scrabble, server_time):
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    version = clock.version
    server_time.advance(119.999)
    assert clock_services.enforce(clock.pk, version) == "early"  # not yet: re-scheduled
    assert timeouts(match) == []
    server_time.advance(0.001)
    assert clock_services.enforce(clock.pk, version) == "b"
    assert timeouts(match) == ["b"]
    clock.refresh_from_db()
    assert clock.running == "a" and clock.deadline == server_time.now + timedelta(seconds=120)
    flag = clock.events.get(kind="flag")
    assert flag.side == "b" and flag.at - flag.deadline == timedelta(0)
    # The same task again, or the sweep, does nothing more.
    assert clock_services.enforce(clock.pk, version) == "stale"
    assert clock_services.enforce_overdue() == 0
    assert timeouts(match) == ["b"]
    assert cached(clock) == rebuilt(clock)


def test_a_move_one_moment_before_the_deadline_wins_the_race(scrabble, server_time):
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    version = clock.version
    server_time.advance(119.999)
    sc_services.record_turn(Actor(entry=match.entry_b), match.pk, PASS)
    server_time.advance(1)
    assert clock_services.enforce(clock.pk, version) == "stale"  # the task of the old deadline
    assert timeouts(match) == []


def test_the_sweep_leaves_a_deadline_to_its_task_for_the_grace_then_applies_it_once(scrabble, server_time, settings):
    settings.CLOCK_SWEEP_GRACE_SECONDS = 1
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    server_time.advance(120.5)  # past the deadline, within the grace: its own task may still come
    assert clock_services.enforce_overdue() == 0
    assert timeouts(match) == []
    server_time.advance(0.6)  # the task is lost: the sweep applies the timeout
    assert clock_services.enforce_overdue() == 1
    assert clock_services.enforce_overdue() == 0
    assert clock_services.enforce(clock.pk, clock.version) == "stale"  # the lost task, late after all
    assert timeouts(match) == ["b"]


def test_a_move_after_the_deadline_is_refused_and_the_timeout_pass_stands(scrabble, server_time):
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    server_time.advance(120.005)  # the deadline passed; the worker has not acted yet
    with pytest.raises(ConflictError, match="Time ran out"):
        sc_services.record_turn(Actor(entry=match.entry_b), match.pk, place("G7", "K.", 2))
    assert timeouts(match) == ["b"]
    assert ScrabbleTurn.objects.filter(game__match=match, kind="place").count() == 1


def test_scoreless_timeouts_end_the_game_and_halt_the_clock(scrabble, server_time):
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    for expected in ["b", "a", "b", "a"]:  # four scoreless turns in a row end the game
        server_time.advance(120)
        assert clock_services.enforce(clock.pk) == expected
    clock.refresh_from_db()
    assert (clock.phase, clock.running, clock.deadline) == ("ready", "", None)
    assert match.scrabble_games.get().ended
    assert timeouts(match) == ["b", "a", "b", "a"]
    assert cached(clock) == rebuilt(clock)


def test_a_timeout_that_ends_the_game_halts_the_clock_at_the_flags_moment(scrabble, monkeypatch):
    """The timeout pass is the flag's consequence: the clock halts at the flag's moment,
    however long the enforcement takes (each read of the server's time is 5 ms later)."""
    ticks = [clock_services.server_now()]

    def later():
        ticks[0] += timedelta(milliseconds=5)
        return ticks[0]

    monkeypatch.setattr(clock_services, "server_now", later)
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    for expected in ["b", "a", "b", "a"]:
        ticks[0] += timedelta(seconds=120)
        assert clock_services.enforce(clock.pk) == expected
    flag, halt = clock.events.order_by("-number")[:2][::-1]
    assert (flag.kind, halt.kind) == ("flag", "halt")
    assert halt.at == flag.at
    assert cached(clock) == rebuilt(clock)


def test_one_timeout_costs_a_fixed_number_of_queries(scrabble, server_time, django_assert_max_num_queries):
    """Each query of the enforcement counts (hundreds of flags a second): the clock and its
    match's tournament in one lookup, the tournament (shared) and the match locked, the
    clock locked and its game's events, the flag (event, clock, audit), the timeout pass
    (games, turns with their protests, the accepted turn, the pass, audit) and the pages'
    version; the server's time is frozen here (on PostgreSQL one more query reads it).
    The timeout that ends the game also stores the game's totals and halts the clock."""
    match = first_round(scrabble)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    clock = match.clock
    for expected, queries in [("b", 14), ("a", 14), ("b", 14), ("a", 17)]:
        server_time.advance(120)
        clock.refresh_from_db()
        with django_assert_max_num_queries(queries + 2):  # + the test's savepoint and its release
            assert clock_services.enforce(clock.pk, clock.version) == expected


def test_a_whole_game_allowance_runs_down_across_moves(director, server_time):
    event = make_tournament(
        director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "whole_game", "game_minutes": 20}
    )
    match = first_round(event)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    server_time.advance(300)
    sc_services.record_turn(Actor(entry=match.entry_b), match.pk, PASS)
    server_time.advance(60)
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, PASS)
    clock = match.clock
    clock.refresh_from_db()
    assert clock.running == "b" and clock.deadline == server_time.now + timedelta(minutes=15)


def test_players_cannot_tap_a_clock_that_the_score_sheet_presses(scrabble, server_time):
    match = first_round(scrabble)[0]
    with pytest.raises(DomainError, match="score sheet runs this clock"):
        clock_services.start_clock(Actor(entry=match.entry_a), match.pk, "a")
    assert not Clock.objects.filter(match=match).exists() or not ClockEvent.objects.exists()


def test_a_tournament_without_a_clock_setting_gives_no_clock(director):
    event = make_tournament(director, players=4, game_type="scrabble", round_plan="1")
    match = first_round(event)[0]
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, place("8D", "SLOVA", 12))
    assert not Clock.objects.exists()
    with pytest.raises(DomainError, match="no clock"):
        clock_services.start_clock(Actor(entry=match.entry_a), match.pk, "a")


# --- The backgammon match clock ------------------------------------------------------------
@pytest.fixture
def backgammon(director):
    return make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})


def test_the_backgammon_reserve_is_2_minutes_per_point_with_a_12_second_delay(backgammon, server_time):
    match = first_round(backgammon)[0]
    clock = clock_services.start_clock(Actor(entry=match.entry_a), match.pk, "a")
    assert (clock.time_a_ms, clock.time_b_ms) == (3 * 120_000, 3 * 120_000)
    assert clock.deadline == server_time.now + timedelta(seconds=3 * 120 + 12)


def test_running_out_of_reserve_loses_the_match_and_the_winner_advances(backgammon, server_time, director):
    match = first_round(backgammon)[0]
    a = Actor(entry=match.entry_a)
    clock = clock_services.start_clock(a, match.pk, "a")
    clock = clock_services.press_clock(a, match.pk, "a", clock.version)  # a moved; b thinks
    server_time.advance(3 * 120 + 12)
    assert clock_services.enforce(clock.pk, clock.version) == "b"
    match.refresh_from_db()
    assert match.winner_id == match.entry_a_id and "won on time" in match.summary
    final = backgammon.matches.get(flight="main", round_number=2)
    assert match.entry_a_id in (final.entry_a_id, final.entry_b_id)
    clock.refresh_from_db()
    assert (clock.phase, clock.flagged) == ("flagged", "b")
    with pytest.raises(ConflictError):
        clock_services.press_clock(a, match.pk, "b", clock.version)
    with pytest.raises(ConflictError, match="decided"):
        bg_services.record_game(a, match.pk, {"winner": "a", "kind": "single", "cube": 1, "ending": "played"})


def test_a_game_halts_the_clock_and_the_reserve_carries_to_the_next_game(backgammon, server_time):
    match = first_round(backgammon)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    clock = clock_services.start_clock(a, match.pk, "a")
    server_time.advance(30)
    clock = clock_services.press_clock(b, match.pk, "a", clock.version)  # either player may press the running side
    server_time.advance(50)
    bg_services.record_game(b, match.pk, {"winner": "b", "kind": "single", "cube": 1, "ending": "played"})
    clock.refresh_from_db()
    assert clock.phase == "ready"
    # a: 30 s used - 12 s delay = 18 s off; b: 50 s - 12 s = 38 s off, no increment.
    assert (clock.time_a_ms, clock.time_b_ms) == (360_000 - 18_000, 360_000 - 38_000)
    server_time.advance(600)  # between games nothing runs
    clock = clock_services.start_clock(b, match.pk, "b")
    assert clock.deadline == server_time.now + timedelta(milliseconds=360_000 - 38_000 + 12_000)


def test_a_required_clock_must_run_before_a_player_records_a_game(director, server_time):
    event = make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "required"})
    match = first_round(event)[0]
    a = Actor(entry=match.entry_a)
    single = {"winner": "a", "kind": "single", "cube": 1, "ending": "played"}
    with pytest.raises(DomainError, match="requires the match clock"):
        bg_services.record_game(a, match.pk, single)
    assert not match.backgammon_games.exists()
    bg_services.record_game(director, match.pk, single)  # a director may always record
    clock_services.start_clock(a, match.pk, "b")
    bg_services.record_game(a, match.pk, single)
    assert match.backgammon_games.count() == 2


def test_a_match_decided_otherwise_stops_its_clock_without_a_flag(backgammon, server_time, director):
    match = first_round(backgammon)[0]
    clock = clock_services.start_clock(Actor(entry=match.entry_a), match.pk, "a")
    tournament_services.record_walkover(director, match.pk, match.entry_b_id)
    server_time.advance(1000)
    assert clock_services.enforce(clock.pk, clock.version) == "idle"
    clock.refresh_from_db()
    assert clock.phase == "ready" and not clock.events.filter(kind="flag").exists()


# --- The director's events -------------------------------------------------------------------
def test_pause_resume_and_adjust_are_the_directors_and_logged(backgammon, server_time, director):
    from tournaments.models import AuditEntry

    match = first_round(backgammon)[0]
    a = Actor(entry=match.entry_a)
    clock = clock_services.start_clock(a, match.pk, "a")
    with pytest.raises(Exception) as refused:
        clock_services.pause_clock(a, match.pk)
    assert refused.type.__name__ == "PermissionDenied"
    server_time.advance(20)
    clock = clock_services.pause_clock(director, match.pk, "a phone call")
    assert clock.deadline is None and clock.phase == "paused"
    server_time.advance(500)  # paused: nothing runs
    clock = clock_services.resume_clock(director, match.pk)
    # 20 s used so far: 12 s delay spent, 8 s off the reserve.
    assert clock.deadline == server_time.now + timedelta(seconds=360 - 8)
    with pytest.raises(DomainError, match="Say why"):
        clock_services.adjust_clock(director, match.pk, "b", 100, "")
    with pytest.raises(DomainError, match="more than 0"):
        clock_services.adjust_clock(director, match.pk, "b", 0, "typo")
    clock = clock_services.adjust_clock(director, match.pk, "b", "100", "late arrival")
    assert clock.time_b_ms == 100_000
    clock = clock_services.adjust_clock(director, match.pk, "a", 5, "penalty")
    assert clock.deadline == server_time.now + timedelta(seconds=5)  # the delay of this move is already spent
    actions = list(AuditEntry.objects.filter(match=match).values_list("action", flat=True))
    assert {"clock.start", "clock.pause", "clock.resume", "clock.adjust"} <= set(actions)
    assert ClockEvent.objects.get(kind="adjust", side="b").reason == "late arrival"
    assert cached(clock) == rebuilt(clock)


def test_a_press_carries_the_version_so_a_double_tap_presses_once(backgammon, server_time):
    match = first_round(backgammon)[0]
    a = Actor(entry=match.entry_a)
    clock = clock_services.start_clock(a, match.pk, "a")
    seen = clock.version
    clock_services.press_clock(a, match.pk, "a", seen)
    with pytest.raises(ConflictError, match="changed since you saw it"):
        clock_services.press_clock(a, match.pk, "a", seen)
    with pytest.raises(DomainError, match="version"):
        clock_services.press_clock(a, match.pk, "b", None)
    assert clock.events.filter(kind="press").count() == 1


def test_a_press_after_the_deadline_applies_the_flag_instead(backgammon, server_time):
    match = first_round(backgammon)[0]
    a = Actor(entry=match.entry_a)
    clock = clock_services.start_clock(a, match.pk, "a")
    server_time.advance(3 * 120 + 12)
    with pytest.raises(ConflictError, match="Time ran out"):
        clock_services.press_clock(a, match.pk, "a", clock.version)
    match.refresh_from_db()
    assert match.winner_id == match.entry_b_id
    assert clock.events.filter(kind="flag").count() == 1 and not clock.events.filter(kind="press").exists()


def test_strangers_cannot_touch_a_clock(backgammon):
    m1, m2 = first_round(backgammon)[:2]
    with pytest.raises(Exception) as refused:
        clock_services.start_clock(Actor(entry=m2.entry_a), m1.pk, "a")
    assert refused.type.__name__ == "PermissionDenied"
    assert not ClockEvent.objects.exists()
