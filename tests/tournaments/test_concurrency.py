"""Concurrent writers on PostgreSQL: exactly one wins, the other gets a 409 that says
why, nothing is lost and the audit log shows both attempts."""

import threading
import time

import pytest
from django.db import connection

from tests.conftest import api_client_for, first_round, make_tournament
from tournaments import services
from tournaments.access import Actor
from tournaments.models import AuditEntry, Match, ResultSubmission

pytestmark = pytest.mark.postgres


def race(*requests):
    """Run the requests at the same moment, each in its own thread and connection."""
    barrier = threading.Barrier(len(requests))
    responses = [None] * len(requests)
    errors = []

    def run(i, request):
        try:
            barrier.wait()
            responses[i] = request()
        except Exception as error:  # pragma: no cover - shown in the assertion below
            errors.append(error)
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i, r)) for i, r in enumerate(requests)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert not errors, errors
    return responses


@pytest.fixture
def slow_writes(monkeypatch):
    """Hold every result write open a moment inside its transaction, so that the two
    requests surely overlap: without the row lock both would see no result yet."""
    original = services._open_submission

    def slow(match):
        found = original(match)
        time.sleep(0.3)
        return found

    monkeypatch.setattr(services, "_open_submission", slow)


def test_two_conflicting_submissions_at_once(transactional_db, postgres, director, slow_writes):
    tournament = make_tournament(director, players=4)
    match = first_round(tournament)[0]
    a, b = match.entry_a, match.entry_b
    url = f"/api/matches/{match.pk}/results/"
    responses = race(
        lambda: api_client_for(entry=a).post(url, {"result": {"games": [[21, 5], [21, 6]]}}, format="json"),
        lambda: api_client_for(entry=b).post(url, {"result": {"games": [[3, 21], [4, 21]]}}, format="json"),
    )
    codes = sorted(r.status_code for r in responses)
    assert codes == [201, 409], [r.content for r in responses]
    loser = next(r for r in responses if r.status_code == 409)
    assert "already entered a result" in loser.json()["detail"]

    stored = ResultSubmission.objects.get(match=match)
    assert stored.status == ResultSubmission.Status.PROVISIONAL
    actions = sorted(AuditEntry.objects.filter(match=match).values_list("action", flat=True))
    assert actions == ["result.refused", "result.submitted"]
    refused = AuditEntry.objects.get(match=match, action="result.refused")
    submitted_games = stored.result["games"]
    other_games = [[21, 5], [21, 6]] if submitted_games != [[21, 5], [21, 6]] else [[3, 21], [4, 21]]
    assert refused.after["result"]["games"] == other_games  # what the refused player sent is kept


def test_confirm_and_dispute_at_once(transactional_db, postgres, director, slow_writes):
    tournament = make_tournament(director, players=4)
    match = first_round(tournament)[0]
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 5], [21, 6]]})
    opponent = api_client_for(entry=match.entry_b)
    confirmer = api_client_for(user=director.user)
    responses = race(
        lambda: opponent.post(f"/api/results/{submission.pk}/dispute/", {"reason": "no"}, format="json"),
        lambda: confirmer.post(f"/api/results/{submission.pk}/confirm/"),
    )
    codes = sorted(r.status_code for r in responses)
    match.refresh_from_db()
    submission.refresh_from_db()
    if codes == [200, 200]:
        # The dispute came first and the director then confirmed the disputed result:
        # both are legitimate, in that order.
        assert submission.status == ResultSubmission.Status.CONFIRMED
        assert AuditEntry.objects.filter(match=match, action="result.disputed").exists()
    else:
        assert codes == [200, 409], [r.content for r in responses]
        assert submission.status in (ResultSubmission.Status.CONFIRMED, ResultSubmission.Status.DISPUTED)
    assert Match.objects.get(pk=match.pk).status in (Match.Status.DECIDED, Match.Status.DISPUTED)


def test_many_results_at_once_in_one_tournament_lose_nothing(transactional_db, postgres, director):
    tournament = make_tournament(director, players=16)
    matches = first_round(tournament)

    def confirm_match(match):
        def request():
            client_a = api_client_for(entry=match.entry_a)
            created = client_a.post(
                f"/api/matches/{match.pk}/results/", {"result": {"games": [[21, 1], [21, 2]]}}, format="json"
            )
            assert created.status_code == 201, created.content
            return api_client_for(entry=match.entry_b).post(f"/api/results/{created.json()['id']}/confirm/")

        return request

    responses = race(*(confirm_match(m) for m in matches))
    assert [r.status_code for r in responses] == [200] * len(matches)
    # Every winner arrived in the right slot of round 2: no update was lost.
    for match in matches:
        match.refresh_from_db()
        target = Match.objects.get(pk=match.winner_to_id)
        assert getattr(target, f"entry_{match.winner_to_slot}_id") == match.entry_a_id
    assert Match.objects.filter(tournament=tournament, round_number=2, status="ready").count() == 4
