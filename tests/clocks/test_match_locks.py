"""The clocks of different matches are enforced at the same time (PostgreSQL, real
threads and connections): the enforcement holds its match's lock and the tournament's
shared; a writer that needs the whole tournament waits for it, and a flag whose
consequence decides the match runs again with the tournament locked, once."""

import threading
import time
from datetime import timedelta

import pytest
from django.db import connection

from clocks import services as clock_services
from clocks.models import ClockEvent
from games.scrabble.models import ScrabbleTurn
from tests.conftest import first_round, make_tournament
from tournaments import services as tournament_services
from tournaments.models import Match, ResultSubmission, Tournament

pytestmark = pytest.mark.postgres


def page_version(tournament) -> int:
    return Tournament.objects.select_related("page_version").get(pk=tournament.pk).version


class Holder:
    """A thread that holds ``with_match_lock`` on a match until told to let go."""

    def __init__(self, match_id: int):
        self.match_id = match_id
        self.holding, self.release = threading.Event(), threading.Event()
        self.errors: list[Exception] = []
        self.thread = threading.Thread(target=self.run)

    def run(self) -> None:
        def work(match, tournament):
            self.holding.set()
            assert self.release.wait(30)
            return match.pk

        try:
            tournament_services.with_match_lock(self.match_id, work)
        except Exception as error:  # pragma: no cover - shown by the test
            self.errors.append(error)
        finally:
            connection.close()

    def __enter__(self):
        self.thread.start()
        assert self.holding.wait(10)
        return self

    def __exit__(self, *exc):
        self.release.set()
        self.thread.join(30)
        assert not self.errors, self.errors


def in_thread(call):
    """Run ``call`` in a thread of its own (its own connection); its outcome and when it ended."""
    outcome: dict = {}

    def run():
        try:
            outcome["value"] = call()
        except Exception as error:  # pragma: no cover - shown by the test
            outcome["error"] = error
        finally:
            outcome["ended"] = time.monotonic()
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


@pytest.fixture
def overdue(monkeypatch):
    """Call it and the server's clock is an hour ahead: every running clock is past its deadline."""
    real, ahead = clock_services.server_now, []
    monkeypatch.setattr(clock_services, "server_now", lambda: real() + timedelta(hours=len(ahead)))
    return lambda: ahead.append(1)


@pytest.fixture
def scrabble(transactional_db, postgres, director):
    tournament = make_tournament(
        director, players=8, game_type="scrabble", round_plan="1", settings={"clock": "per_move", "move_seconds": 20}
    )
    matches = first_round(tournament)
    for match in matches:
        clock_services.start_clock(director, match.pk, "a")
    return tournament, matches


def test_a_timeout_is_enforced_while_another_match_of_the_tournament_holds_its_lock(scrabble, overdue):
    tournament, (first, second, *_) = scrabble
    overdue()
    before = page_version(tournament)
    with Holder(first.pk):
        clock = clock_services.clock_of(second)
        thread, outcome = in_thread(lambda: clock_services.enforce(clock.pk))
        thread.join(10)
        assert not thread.is_alive(), "the enforcement waited for another match's lock"
        assert outcome == {"value": "a", "ended": outcome["ended"]}
    assert list(ScrabbleTurn.objects.filter(game__match=second, kind="timeout").values_list("player", flat=True)) == [
        "a"
    ]
    assert page_version(tournament) == before + 1  # the public sheet shows the timeout pass


def test_two_enforcements_of_one_match_at_once_apply_the_timeout_once(scrabble, overdue):
    tournament, (first, *_) = scrabble
    overdue()
    clock = clock_services.clock_of(first)
    barrier = threading.Barrier(2)

    def enforce():
        barrier.wait()
        return clock_services.enforce(clock.pk, clock.version)

    threads = [in_thread(enforce) for _ in range(2)]
    for thread, _outcome in threads:
        thread.join(20)
    outcomes = sorted(outcome["value"] for _thread, outcome in threads)
    assert outcomes == ["a", "stale"]
    assert ScrabbleTurn.objects.filter(game__match=first, kind="timeout").count() == 1
    assert ClockEvent.objects.filter(clock=clock, kind="flag").count() == 1


def timeout_players(match) -> list[str]:
    return list(ScrabbleTurn.objects.filter(game__match=match, kind="timeout").values_list("player", flat=True))


def test_the_sweep_passes_over_a_match_another_transaction_holds_and_acts_on_the_rest(scrabble, overdue):
    tournament, (first, *rest) = scrabble
    overdue()
    with Holder(first.pk):
        thread, outcome = in_thread(clock_services.enforce_overdue)
        thread.join(10)
        assert not thread.is_alive(), "the sweep waited for a match that another transaction holds"
        assert outcome["value"] == len(rest)
        assert timeout_players(first) == []
        assert all(timeout_players(match) == ["a"] for match in rest)
    assert clock_services.enforce_overdue() == 1  # its turn comes at the next sweep
    assert timeout_players(first) == ["a"]


def test_a_deadline_task_that_finds_its_match_busy_looks_again_soon_instead_of_waiting(scrabble, overdue, monkeypatch):
    from clocks.tasks import enforce_clock

    tournament, (first, *_) = scrabble
    overdue()
    clock = clock_services.clock_of(first)
    sent = []
    monkeypatch.setattr(enforce_clock, "apply_async", lambda args, **options: sent.append((args, options)))
    with Holder(first.pk):
        for attempt in (0, clock_services.BUSY_RETRIES):
            thread, outcome = in_thread(
                lambda attempt=attempt: clock_services.enforce_scheduled(clock.pk, clock.version, attempt)
            )
            thread.join(10)
            assert not thread.is_alive() and outcome["value"] == "busy"
    # Once more, a moment later; after the last retry the sweep's turn.
    assert sent == [((clock.pk, clock.version, 1), {"countdown": clock_services.BUSY_RETRY_SECONDS})]
    assert timeout_players(first) == [] and not ClockEvent.objects.filter(clock=clock, kind="flag").exists()
    assert clock_services.enforce_scheduled(clock.pk, clock.version, 1) == "a"
    assert timeout_players(first) == ["a"]


def test_a_writer_of_the_whole_tournament_waits_for_the_enforcement_and_neither_fails(scrabble, director):
    tournament, (first, second, *_) = scrabble
    with Holder(first.pk) as holder:
        thread, outcome = in_thread(lambda: tournament_services.undo_result(director, second.pk, "test"))
        time.sleep(0.5)
        assert thread.is_alive(), "a writer of the tournament did not wait for the shared lock"
        released = time.monotonic()
        holder.release.set()
        thread.join(20)
    assert outcome["ended"] >= released
    assert "error" in outcome  # nothing to undo: refused with a message, after the wait, not a deadlock
    assert "deadlock" not in str(outcome["error"]).lower()


@pytest.fixture
def backgammon(transactional_db, postgres, director):
    return make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})


def test_a_flag_that_decides_the_match_runs_again_with_the_tournament_locked_once(backgammon, director, overdue):
    first, second = first_round(backgammon)
    for match in (first, second):
        clock_services.start_clock(director, match.pk, "a")
    overdue()
    with Holder(second.pk):  # the other match's enforcement holds the shared lock meanwhile
        clock = clock_services.clock_of(first)
        thread, outcome = in_thread(lambda: clock_services.enforce(clock.pk, clock.version))
        time.sleep(0.5)
        assert thread.is_alive(), "deciding the match must wait for the tournament's exclusive lock"
    thread.join(20)
    assert outcome["value"] == "a"
    first.refresh_from_db()
    assert first.winner_side == "b" and first.decided_by
    assert ClockEvent.objects.filter(clock=clock, kind="flag").count() == 1
    assert ResultSubmission.objects.filter(match=first).count() == 1
    final = Match.objects.get(tournament=backgammon, round_number=2)
    assert first.entry_b_id in (final.entry_a_id, final.entry_b_id)


def test_two_processes_enforcing_due_clocks_at_once_share_them_out_and_flag_each_once(
    transactional_db, postgres, director, overdue, monkeypatch
):
    monkeypatch.setattr(clock_services, "BATCH_CLOCKS", 2)  # many small batches, interleaved
    event = make_tournament(
        director, players=32, game_type="scrabble", round_plan="1", settings={"clock": "per_move", "move_seconds": 60}
    )
    matches = first_round(event)
    for match in matches:
        clock_services.start_clock(director, match.pk, "a")
    overdue()
    barrier = threading.Barrier(2)

    def enforce_due():
        barrier.wait()
        return clock_services.enforce_due()

    threads = [in_thread(enforce_due) for _ in range(2)]
    for thread, _outcome in threads:
        thread.join(30)
    assert all("error" not in outcome for _thread, outcome in threads), threads
    assert sum(outcome["value"] for _thread, outcome in threads) == len(matches)
    assert all(timeout_players(match) == ["a"] for match in matches)
    assert ClockEvent.objects.filter(clock__match__in=matches, kind="flag").count() == len(matches)


def test_a_buckets_task_that_finds_its_deadline_held_looks_again_soon(scrabble, overdue, monkeypatch):
    from clocks.tasks import enforce_due_clocks

    tournament, (first, *rest) = scrabble
    overdue()
    clock = clock_services.clock_of(first)
    due_ms = clock_services.bucket_of(clock_services.to_ms(clock.deadline))
    sent = []
    monkeypatch.setattr(enforce_due_clocks, "apply_async", lambda args, **options: sent.append((args, options)))
    with Holder(first.pk):
        thread, outcome = in_thread(lambda: clock_services.enforce_bucket(due_ms))
        thread.join(10)
        assert not thread.is_alive(), "the bucket's task waited for a match another transaction holds"
    assert outcome["value"] == len(rest)  # the other due clocks flagged meanwhile
    assert sent == [((due_ms, 1), {"countdown": clock_services.BUSY_RETRY_SECONDS})]
    assert timeout_players(first) == []
    assert clock_services.enforce_bucket(due_ms, 1) == 1 and sent[1:] == []
    assert timeout_players(first) == ["a"]
