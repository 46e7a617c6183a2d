"""Timeouts enforced by real Celery processes (SPEC §6): on time, exactly once, with
several workers, and still when the worker holding the scheduled tasks is killed.

In CI these run against PostgreSQL and Redis (REQUIRE_SERVICES=1); on a bare machine
against the SQLite file and the filesystem broker.
"""

import signal
import time
from datetime import timedelta
from functools import partial

import pytest
from django.db import connection

from clocks import services as clock_services
from clocks.models import ClockEvent
from clocks.tasks import enforce_clock, enforce_due_clocks
from games.chess import services as chess_services
from games.chess.models import ChessGame
from games.scrabble import services as sc_services
from games.scrabble.models import ScrabbleTurn
from tests.clocks import conftest as clock_tests
from tests.conftest import first_round, make_tournament
from tournaments.access import Actor
from tournaments.models import Match

pytestmark = pytest.mark.worker


def wait_until(predicate, timeout: float, workers) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout} s\n{workers.logs()}")


scrabble_event = partial(clock_tests.scrabble_event, seconds=2)  # short moves: the worker waits for real


def timeouts(match) -> list[str]:
    return list(
        ScrabbleTurn.objects.filter(game__match=match, kind="timeout", status="live")
        .order_by("number")
        .values_list("player", flat=True)
    )


def flags(clock_id) -> list[ClockEvent]:
    return list(ClockEvent.objects.filter(clock_id=clock_id, kind="flag").order_by("number"))


def test_a_two_second_move_clock_left_alone_records_one_timeout_pass_and_starts_the_opponent(celery_workers, director):
    celery_workers.start_worker()
    match = first_round(scrabble_event(director))[0]
    clock = clock_services.start_clock(director, match.pk, "a")
    deadline = clock.deadline

    time.sleep(1.5)
    assert timeouts(match) == []  # not before its deadline

    wait_until(lambda: timeouts(match), 5, celery_workers)
    assert timeouts(match) == ["a"]  # exactly one, for the player whose time ran
    clock.refresh_from_db()
    assert clock.running == "b" and clock.deadline > deadline  # the opponent's two seconds run
    (flag,) = flags(clock.pk)
    assert flag.deadline == deadline and timedelta(0) <= flag.at - deadline < timedelta(seconds=1)


def test_a_move_one_moment_before_the_deadline_wins_the_race(celery_workers, director):
    celery_workers.start_worker()
    match = first_round(scrabble_event(director))[0]
    clock = clock_services.start_clock(director, match.pk, "a")
    # Move 100 ms before the deadline, by the server's clock.
    wait_for = (clock.deadline - clock_services.server_now()).total_seconds() - 0.1
    time.sleep(max(0, wait_for))
    sc_services.record_turn(Actor(entry=match.entry_a), match.pk, {"kind": "pass"})
    time.sleep(1.2)  # the old deadline's task has run by now; the opponent's has not
    assert timeouts(match) == []
    assert flags(clock.pk) == []
    clock.refresh_from_db()
    assert clock.running == "b"


def test_a_backgammon_match_clock_running_out_ends_the_match_and_the_winner_advances(celery_workers, director):
    celery_workers.start_worker()
    event = make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})
    match = first_round(event)[0]
    a = Actor(entry=match.entry_a)
    clock = clock_services.start_clock(a, match.pk, "a")
    clock = clock_services.press_clock(a, match.pk, "a", clock.version)
    clock_services.adjust_clock(director, match.pk, "b", 1, "a short reserve for the test")  # + the 12 s delay
    clock.refresh_from_db()
    assert clock.deadline - clock_services.server_now() <= timedelta(seconds=13)

    wait_until(lambda: Match.objects.get(pk=match.pk).winner_id is not None, 20, celery_workers)
    match.refresh_from_db()
    assert match.winner_id == match.entry_a_id and match.decided_by == Match.DecidedBy.RESULT
    final = event.matches.get(flight="main", round_number=2)
    assert match.entry_a_id in (final.entry_a_id, final.entry_b_id)
    assert len(flags(clock.pk)) == 1


def test_a_chess_flag_is_recorded_by_the_worker_and_held_for_the_final_position(celery_workers, director):
    celery_workers.start_worker()
    event = make_tournament(director, players=4, game_type="chess", round_plan="2", settings={"time_control": "2"})
    match = first_round(event)[0]
    white = chess_services.state_of(match).next_game.white
    clock = clock_services.start_clock(Actor(entry=match.entry_on(white)), match.pk, white)

    wait_until(lambda: ChessGame.objects.filter(match=match, status="held").exists(), 6, celery_workers)
    held = ChessGame.objects.get(match=match, status="held")
    assert held.flagged == "white" and held.result == "0-1" and held.termination == "flag"
    (flag,) = flags(clock.pk)
    assert flag.deadline == clock.deadline and flag.at - flag.deadline < timedelta(seconds=1)
    clock.refresh_from_db()
    assert clock.phase == "flagged"  # the next game's clock starts once the flag is settled
    settled = chess_services.enter_final_position(director, held.pk, "8/8/8/4k3/8/8/8/R3K3 w - - 0 30")
    assert settled.result == "1/2-1/2"  # Black's lone king cannot mate: a draw
    clock.refresh_from_db()
    assert (clock.phase, clock.game_number) == ("ready", 2)


def test_two_workers_racing_on_every_deadline_apply_each_timeout_once(celery_workers, director):
    celery_workers.start_worker("w1", concurrency=2)
    celery_workers.start_worker("w2", concurrency=2)
    matches = first_round(scrabble_event(director, players=16))
    clocks = [clock_services.start_clock(director, m.pk, "a") for m in matches]
    for clock in clocks:  # every deadline's tasks sent twice more: both workers race on them
        due_ms = clock_services.bucket_of(clock_services.to_ms(clock.deadline))
        for _ in range(2):
            enforce_clock.apply_async((clock.pk, clock.version), eta=clock.deadline)
            enforce_due_clocks.apply_async((due_ms,), eta=clock.deadline)

    wait_until(lambda: all(timeouts(m) for m in matches), 10, celery_workers)
    time.sleep(0.5)
    for match, clock in zip(matches, clocks, strict=True):
        assert timeouts(match)[:1] == ["a"]
        assert ScrabbleTurn.objects.filter(game__match=match, kind="timeout", player="a").count() == 1
        assert [f.deadline for f in flags(clock.pk)][:1] == [clock.deadline]
        assert len({f.deadline for f in flags(clock.pk)}) == len(flags(clock.pk))  # no deadline twice


def test_a_worker_killed_holding_the_scheduled_tasks_does_not_lose_a_timeout(celery_workers, director):
    doomed = celery_workers.start_worker("doomed", concurrency=1)
    matches = first_round(scrabble_event(director, players=8, seconds=4))
    clocks = [clock_services.start_clock(director, m.pk, "a") for m in matches]
    log = celery_workers.log_dir / "doomed.log"
    # One task per bucket of deadlines:
    buckets = {clock_services.bucket_of(clock_services.to_ms(clock.deadline)) for clock in clocks}
    wait_until(lambda: log.read_text().count("enforce_due_clocks") >= len(buckets), 10, celery_workers)
    doomed.send_signal(signal.SIGKILL)  # no warm shutdown: the tasks it held are gone with it
    doomed.wait(timeout=10)

    celery_workers.start_worker("rescuer", concurrency=2)
    celery_workers.start_beat()  # sweeps every second in the tests
    latest = max(c.deadline for c in clocks)
    wait_until(lambda: all(timeouts(m) for m in matches), 20, celery_workers)
    for match, clock in zip(matches, clocks, strict=True):
        (first, *_rest) = flags(clock.pk)
        assert timeouts(match)[0] == "a" and first.deadline == clock.deadline
        assert first.at - first.deadline < timedelta(seconds=5)  # the sweep, not a redelivery hours later
    assert clock_services.server_now() - latest < timedelta(seconds=20)


def test_a_deadline_beyond_the_horizon_is_reached_by_tasks_that_schedule_themselves_again(
    celery_workers, director, settings
):
    # Long countdowns are never handed to the broker whole (Redis's visibility timeout):
    # with a one-second horizon, a four-second move time takes several hops.
    settings.CLOCK_SCHEDULE_HORIZON = 1
    celery_workers.env["CLOCK_SCHEDULE_HORIZON"] = "1"
    celery_workers.start_worker()
    match = first_round(scrabble_event(director, seconds=4))[0]
    clock = clock_services.start_clock(director, match.pk, "a")
    wait_until(lambda: timeouts(match), 8, celery_workers)
    (flag,) = flags(clock.pk)
    assert flag.deadline == clock.deadline and flag.at - flag.deadline < timedelta(seconds=1)
    hops = celery_workers.logs().count("enforce_due_clocks") // 2  # each task: received, succeeded
    assert hops >= 4  # at 1, 2, 3 s and at the deadline


@pytest.mark.postgres
def test_a_worker_keeps_its_database_connections_from_task_to_task(celery_workers, postgres):
    # Celery's Django fix-up would close them around every task: a new PostgreSQL
    # connection per timeout, which cost more than the timeout itself.
    def sessions() -> int:
        with connection.cursor() as cursor:
            cursor.execute("SELECT sessions FROM pg_stat_database WHERE datname = current_database()")
            return cursor.fetchone()[0]

    celery_workers.start_worker(concurrency=2)
    before = sessions()
    tasks = 20
    for _ in range(tasks):
        enforce_clock.delay(10**9, 1)  # no such clock: one query each
    log = celery_workers.log_dir / "w1.log"
    wait_until(lambda: log.read_text().count("succeeded") >= tasks, 10, celery_workers)
    time.sleep(1.5)  # PostgreSQL counts a session when the backend reports its statistics
    assert sessions() - before <= 3  # one per worker process (and a spare), not one per task
