"""The enforcement in batches (``clocks.services.enforce_due``) and the tasks that
deadlines share by bucket (``enforce_bucket``, ``_schedule``), with the server's time
under the test's control. Races between processes are in ``test_match_locks``."""

import logging
from datetime import timedelta
from uuid import uuid4

import pytest

from clocks import services as clock_services
from clocks.models import ClockEvent
from clocks.tasks import enforce_due_clocks
from director.celery import app
from games.scrabble import services as sc_services
from games.scrabble.models import ScrabbleTurn
from tests.clocks.conftest import scrabble_event
from tests.conftest import first_round, make_tournament
from tournaments.models import AuditEntry, Tournament

pytestmark = pytest.mark.django_db


def page_version(tournament) -> int:
    return Tournament.objects.select_related("page_version").get(pk=tournament.pk).version


def timeouts(match) -> list[str]:
    return list(ScrabbleTurn.objects.filter(game__match=match, kind="timeout").values_list("player", flat=True))


def start_all(director, matches):
    return [clock_services.start_clock(director, match.pk, "a") for match in matches]


@pytest.fixture
def sent(monkeypatch):
    """The tasks of the deadlines' buckets that would go to the broker: (args, countdown)."""
    calls = []
    monkeypatch.setattr(
        enforce_due_clocks, "apply_async", lambda args, countdown: calls.append((args, round(countdown, 3)))
    )
    return calls


# --- enforce_due -------------------------------------------------------------------------------
def test_nothing_due_is_no_flag_and_no_new_page_version(director, server_time):
    event = scrabble_event(director)
    start_all(director, first_round(event))
    before = page_version(event)
    server_time.advance(119.999)
    assert clock_services.enforce_due() == 0
    assert page_version(event) == before


def test_every_due_deadline_of_every_tournament_flags_once_with_one_page_version_per_tournament(director, server_time):
    events = [scrabble_event(director, players=8) for _ in range(2)]
    matches = [m for event in events for m in first_round(event)]
    clocks = start_all(director, matches)
    before = [page_version(event) for event in events]
    server_time.advance(120)
    assert clock_services.enforce_due() == len(matches)
    assert all(timeouts(match) == ["a"] for match in matches)
    assert [page_version(event) for event in events] == [v + 1 for v in before]  # one batch each
    for clock in clocks:
        (flag,) = ClockEvent.objects.filter(clock=clock, kind="flag")
        assert (flag.side, flag.at, flag.deadline) == ("a", server_time.now, clock.deadline)
        clock.refresh_from_db()
        assert clock.running == "b" and clock.deadline == server_time.now + timedelta(seconds=120)
    assert clock_services.enforce_due() == 0  # the opponents' time runs now
    assert clock_services.enforce_due(grace_seconds=0) == 0


def test_a_deadline_still_to_come_is_left_alone(director, server_time):
    first, second = first_round(scrabble_event(director))
    clock_services.start_clock(director, first.pk, "a")
    server_time.advance(60)
    clock_services.start_clock(director, second.pk, "a")
    server_time.advance(60)
    assert clock_services.enforce_due() == 1
    assert (timeouts(first), timeouts(second)) == (["a"], [])


def test_the_grace_leaves_a_deadline_that_has_only_just_passed(director, server_time):
    (match, _other) = first_round(scrabble_event(director))
    clock_services.start_clock(director, match.pk, "a")
    server_time.advance(120.5)
    assert clock_services.enforce_due(grace_seconds=1) == 0
    server_time.advance(0.5)
    assert clock_services.enforce_due(grace_seconds=1) == 1


def test_a_tournament_with_more_due_clocks_than_a_batch_takes_several_batches(director, server_time, monkeypatch):
    monkeypatch.setattr(clock_services, "BATCH_CLOCKS", 3)
    event = scrabble_event(director, players=16)
    matches = first_round(event)
    start_all(director, matches)
    before = page_version(event)
    server_time.advance(120)
    assert clock_services.enforce_due() == 8
    assert all(timeouts(match) == ["a"] for match in matches)
    assert page_version(event) == before + 3  # 3 + 3 + 2


def test_a_call_stops_after_its_batches_and_leaves_the_rest_to_the_next(director, server_time, monkeypatch):
    monkeypatch.setattr(clock_services, "BATCH_CLOCKS", 2)
    matches = first_round(scrabble_event(director, players=8))
    start_all(director, matches)
    server_time.advance(120)
    assert clock_services.enforce_due(max_batches=1) == 2
    assert sum(bool(timeouts(match)) for match in matches) == 2
    assert clock_services.enforce_due() == 2


def test_a_broken_clock_is_passed_over_and_the_others_of_its_batch_still_flag(
    director, server_time, monkeypatch, caplog
):
    matches = first_round(scrabble_event(director, players=8))
    broken = matches[1]
    start_all(director, matches)
    record_timeout = sc_services.record_timeout

    def failing(match, side):
        if match.pk == broken.pk:
            raise RuntimeError("a broken sheet")
        return record_timeout(match, side)

    monkeypatch.setattr(sc_services, "record_timeout", failing)
    server_time.advance(120)
    with caplog.at_level(logging.ERROR, logger="clocks.services"):
        assert clock_services.enforce_due() == 3
    assert [timeouts(match) for match in matches] == [["a"], [], ["a"], ["a"]]
    assert not ClockEvent.objects.filter(clock__match=broken, kind="flag").exists()  # rolled back with it
    assert "Could not enforce clock" in caplog.text
    monkeypatch.setattr(sc_services, "record_timeout", record_timeout)
    assert clock_services.enforce_due() == 1  # mended: the next task or sweep applies it
    assert timeouts(broken) == ["a"]


def test_flags_that_decide_their_matches_are_applied_one_by_one_and_the_winners_advance(director, server_time):
    event = make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})
    matches = first_round(event)
    for match in matches:
        clock_services.start_clock(director, match.pk, "a")
    server_time.advance(3 * 120 + 12)
    assert clock_services.enforce_due() == 2
    final = event.matches.get(flight="main", round_number=2)
    for match in matches:
        match.refresh_from_db()
        assert match.winner_id == match.entry_b_id and "won on time" in match.summary
    assert {final.entry_a_id, final.entry_b_id} == {m.entry_b_id for m in matches}


# --- The deadlines' buckets -----------------------------------------------------------------------
@pytest.fixture
def worker_mode(settings, monkeypatch):
    """Tasks go to a broker (captured by ``sent``) as in production, not run eagerly; a
    cache of the test's own (and the process's memory) notes which buckets' tasks were sent."""
    monkeypatch.setattr(clock_services, "_SENT_HERE", {})
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid4().hex}}
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False
    yield
    app.conf.task_always_eager = eager


def test_deadlines_in_one_bucket_share_one_task_due_at_the_buckets_end(
    director, server_time, worker_mode, sent, django_capture_on_commit_callbacks
):
    matches = first_round(scrabble_event(director, players=8))
    with django_capture_on_commit_callbacks(execute=True):
        clocks = start_all(director, matches[:3])  # the same moment: the same deadline
    server_time.advance(0.001 + clock_services.BUCKET_MS / 1000)
    with django_capture_on_commit_callbacks(execute=True):
        later = clock_services.start_clock(director, matches[3].pk, "a")
    due = [clock_services.bucket_of(clock_services.to_ms(c.deadline)) for c in (clocks[0], later)]
    assert due[1] > due[0] >= clock_services.to_ms(clocks[0].deadline) > due[0] - clock_services.BUCKET_MS
    assert [args for args, _countdown in sent] == [(due[0],), (due[1],)]  # one task per bucket
    assert sent[0][1] == 120 + (due[0] - clock_services.to_ms(clocks[0].deadline)) / 1000
    assert 120 <= sent[1][1] < 120 + clock_services.BUCKET_MS / 1000


def test_a_deadline_beyond_the_horizon_gets_a_task_at_the_horizon(
    director, server_time, worker_mode, sent, settings, django_capture_on_commit_callbacks
):
    settings.CLOCK_SCHEDULE_HORIZON = 30
    match = first_round(scrabble_event(director))[0]
    with django_capture_on_commit_callbacks(execute=True):
        clock = clock_services.start_clock(director, match.pk, "a")
    assert sent == [((clock_services.bucket_of(clock_services.to_ms(clock.deadline)),), 30)]


@pytest.mark.parametrize(
    ("bucket_at", "expected"),
    [
        ("deadline", []),  # on time: the flag falls, nothing left
        ("early", "at the deadline"),  # the worker's clock ran ahead of the server's
        ("far", "at the horizon"),  # a hop towards a deadline beyond the horizon
    ],
)
def test_a_buckets_task_sends_itself_again_only_for_its_own_deadlines_left(
    director, server_time, worker_mode, sent, settings, bucket_at, expected
):
    settings.CLOCK_SCHEDULE_HORIZON = 30
    first, second = first_round(scrabble_event(director))
    clock = clock_services.start_clock(director, first.pk, "a")
    server_time.advance(10)
    clock_services.start_clock(director, second.pk, "a")  # another bucket, 10 s later
    due_ms = clock_services.bucket_of(clock_services.to_ms(clock.deadline))
    before = {"deadline": 0, "early": 1, "far": 100}[bucket_at]
    server_time.to(clock_services.from_ms(due_ms) - timedelta(seconds=before))
    flags = clock_services.enforce_bucket(due_ms)
    wait = (clock.deadline - server_time.now).total_seconds()
    if expected == []:
        assert (flags, sent, timeouts(first)) == (1, [], ["a"])
    elif expected == "at the deadline":
        assert (flags, sent) == (0, [((due_ms, 0), wait)])
    else:
        assert (flags, sent) == (0, [((due_ms, 0), 30)])
    assert timeouts(second) == []


def test_a_buckets_task_whose_deadline_is_held_looks_again_soon_then_leaves_it_to_the_sweep(
    director, server_time, worker_mode, sent, monkeypatch
):
    match = first_round(scrabble_event(director))[0]
    clock = clock_services.start_clock(director, match.pk, "a")
    due_ms = clock_services.bucket_of(clock_services.to_ms(clock.deadline))
    server_time.advance(121)
    monkeypatch.setattr(clock_services, "enforce_due", lambda: 0)  # as if another transaction held the match
    for attempt in (0, clock_services.BUSY_RETRIES):
        assert clock_services.enforce_bucket(due_ms, attempt) == 0
    assert sent == [((due_ms, 1), clock_services.BUSY_RETRY_SECONDS)]


def test_a_batchs_flags_are_in_the_clocks_logs_and_the_audit_log_like_single_ones(director, server_time):
    event = scrabble_event(director, players=8)
    matches = first_round(event)
    clocks = start_all(director, matches)
    server_time.advance(120)
    assert clock_services.enforce_due() == len(matches)
    for clock in clocks:
        assert list(clock.events.order_by("number").values_list("number", "kind", "side")) == [
            (1, "start", "a"),
            (2, "flag", "a"),
        ]
        clock.refresh_from_db()
        assert clock_services.clock_view(clock)["running"] == "b"  # replayed from the stored events
    actions = AuditEntry.objects.filter(tournament=event, match__in=matches).values_list("action", flat=True)
    assert sorted(actions) == sorted(["clock.start", "clock.flag", "scrabble.turn_entered"] * len(matches))
