"""Automatic confirmation by real Celery processes: the task scheduled for a result's
deadline confirms it, and beat's sweep confirms a result whose task was lost."""

import time

import pytest

from tests.conftest import first_round, make_tournament
from tournaments import services
from tournaments.access import Actor
from tournaments.models import AuditEntry, Match, ResultSubmission

pytestmark = pytest.mark.worker


def wait_until(predicate, timeout: float, workers) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.2)
    raise AssertionError(f"timed out after {timeout} s\n{workers.logs()}")


def test_the_worker_confirms_an_unchallenged_result_after_the_timeout(celery_workers, director):
    celery_workers.start_worker()
    tournament = make_tournament(director, players=4, confirmation_timeout_seconds=2)
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})

    time.sleep(1)
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.PROVISIONAL  # not before its deadline

    wait_until(lambda: Match.objects.get(pk=match.pk).status == Match.Status.DECIDED, 20, celery_workers)
    submission.refresh_from_db()
    assert submission.auto_confirmed
    assert submission.confirmed_at >= submission.confirm_deadline
    target = Match.objects.get(pk=match.winner_to_id)
    assert target.entry_a_id == match.entry_a_id
    assert AuditEntry.objects.filter(match=match, action="result.auto_confirmed").count() == 1


def test_a_disputed_result_waits_for_the_director_whatever_the_worker_does(celery_workers, director):
    celery_workers.start_worker()
    tournament = make_tournament(director, players=4, confirmation_timeout_seconds=1)
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    services.dispute_result(Actor(entry=match.entry_b), submission.pk, "wrong")
    time.sleep(3)
    submission.refresh_from_db()
    assert submission.status == ResultSubmission.Status.DISPUTED
    assert Match.objects.get(pk=match.pk).status == Match.Status.DISPUTED


def test_beat_sweeps_up_a_result_whose_task_was_lost(celery_workers, director, monkeypatch):
    # The result is stored but its scheduled task never reaches the broker (as if the
    # broker had been down, or a worker had died holding it).
    monkeypatch.setattr(services, "_schedule_confirmation", lambda submission: None)
    tournament = make_tournament(director, players=4, confirmation_timeout_seconds=1)
    match = first_round(tournament)[0]
    services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    celery_workers.start_worker()
    celery_workers.start_beat()  # sweeps every second in this test
    wait_until(lambda: Match.objects.get(pk=match.pk).status == Match.Status.DECIDED, 30, celery_workers)
    assert AuditEntry.objects.filter(match=match, action="result.auto_confirmed").count() == 1
