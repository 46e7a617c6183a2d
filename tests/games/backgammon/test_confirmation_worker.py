"""A real Celery worker confirms an unchallenged backgammon game at its deadline, and
the game can end the match."""

import pytest

from games.backgammon import services
from tests.conftest import first_round, make_tournament
from tests.tournaments.test_confirmation_worker import wait_until
from tournaments.access import Actor
from tournaments.models import Match

pytestmark = pytest.mark.worker


def test_the_worker_confirms_the_deciding_game_and_the_winner_advances(celery_workers, director):
    celery_workers.start_worker()
    tournament = make_tournament(
        director, players=4, game_type="backgammon", round_plan="3", confirmation_timeout_seconds=2
    )
    match = first_round(tournament)[0]
    row = services.record_game(Actor(entry=match.entry_b), match.pk, {"winner": "b", "kind": "backgammon"})
    wait_until(lambda: Match.objects.get(pk=match.pk).decided_by == "result", 20, celery_workers)
    row.refresh_from_db()
    assert row.auto_confirmed and row.confirmed_at >= row.confirm_deadline
    final = Match.objects.get(pk=match.winner_to_id)
    assert final.entry_a_id == match.entry_b_id
