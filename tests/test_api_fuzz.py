"""The REST API fuzzed from its own OpenAPI schema (schemathesis): every operation gets
generated requests — valid and broken bodies, odd query strings — as a director of a
tournament of each game, the path's ids pointing at real objects so the bodies reach the
services. No response is a 5xx, and a rejected request (4xx) writes nothing: every
project table is as it was, but for the audit log's record of the refused attempt. The
same requests without credentials: the public's writes are all refused.

Bounded for ``make test``: ``FUZZ_EXAMPLES`` examples per operation (default 5),
derandomised so CI is repeatable; set ``FUZZ_EXAMPLES=100`` for a deeper run.
"""

from __future__ import annotations

import os

import pytest
import schemathesis
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from hypothesis import HealthCheck, settings
from rest_framework.authtoken.models import Token
from schemathesis.config import SchemathesisConfig

from games.backgammon import chouette_services
from tests.conftest import make_tournament
from tournaments.access import Actor
from tournaments.models import AuditEntry

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "5"))
# Generated requests only (the fuzzing phase): the boundary-value "coverage" phase sends
# hundreds of requests per operation, too many for every run of the suite.
CONFIG = SchemathesisConfig.from_dict(
    {"phases": {"examples": {"enabled": False}, "coverage": {"enabled": False}, "stateful": {"enabled": False}}}
)
SCHEMA = schemathesis.openapi.from_wsgi("/api/schema/", get_wsgi_application(), config=CONFIG)
OURS = ("tournaments", "backgammon", "scrabble", "chess", "clocks", "authtoken")
IGNORED_COLUMNS = {"version"}  # a tournament's cache version may move with a refusal's audit entry
SAFE_METHODS = ("GET", "HEAD", "OPTIONS", "TRACE")
OPEN_TO_THE_PUBLIC = ("/api/auth/token/",)  # a director signs in here


def snapshot() -> dict[str, list[dict]]:
    """Every row of every project table (the fixture is small), refusals left out."""
    rows = {}
    for model in apps.get_models():
        if model._meta.app_label not in OURS:
            continue
        queryset = model.objects.all()
        if model is AuditEntry:
            queryset = queryset.exclude(action__endswith="refused")
        rows[model._meta.label] = [
            {k: v for k, v in row.items() if k not in IGNORED_COLUMNS} for row in queryset.order_by("pk").values()
        ]
    return rows


@pytest.fixture
def _keep_the_test_connection():
    """A request through the WSGI handler closes the database connection when it ends;
    the test's transaction lives on it (Django's test client does the same)."""
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture(scope="module")
def world(django_db_setup, django_db_blocker):
    """A tournament of each game with its draw, a chouette, and a director's token:
    made once for the module (each operation's test transaction rolls its own changes
    back) and removed at the end."""
    with django_db_blocker.unblock():
        user = get_user_model().objects.create_user("fuzzing-director", password="unused")
        director = Actor(user=user)
        events = {
            game: make_tournament(director, players=4, game_type=game, round_plan="2" if game == "chess" else "3")
            for game in ("scored", "backgammon", "scrabble", "chess")
        }
        session = chouette_services.create_session(director, "Fuzz chouette", ["Ann", "Ben", "Cyd"])
        token = Token.objects.create(user=user)
    yield events, session, token
    with django_db_blocker.unblock():
        for event in events.values():
            event.delete()
        session.delete()
        user.delete()


def real_ids(case, events, session) -> None:
    """Point the path's ids at real objects of one tournament (chosen by the operation,
    so every game's endpoints meet their own game's match)."""
    path = case.operation.path
    game = next((g for g in ("scrabble", "chess", "backgammon") if g in path), "scored")
    if "/games/" in path and "chess" not in path and "backgammon" not in path and "chouette" not in path:
        game = "backgammon"  # /api/matches/{id}/games/: backgammon's sheet
    if "/turns/" in path:
        game = "scrabble"
    event = events[game]
    real = {"slug": event.slug, "session_id": session.pk}
    match = event.matches.filter(round_number=1).order_by("position").first()
    if match is not None:  # an earlier example of the operation may have cancelled the draw
        real.update(match_id=match.pk, entry_id=match.entry_a_id, round_id=match.round_id)
    player = session.players.first()
    if player is not None:
        real["player_id"] = player.pk
    for name in list(case.path_parameters or {}):
        if name in real:
            case.path_parameters[name] = real[name]


@SCHEMA.parametrize()
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=list(HealthCheck),
)
def test_the_api_never_fails_and_a_rejected_request_writes_nothing(case, world, db, _keep_the_test_connection):
    events, session, token = world
    real_ids(case, events, session)
    before = snapshot()
    response = case.call(headers={"Authorization": f"Token {token.key}"})
    assert response.status_code < 500, (case.method, case.formatted_path, case.body, response.text[:500])
    if response.status_code >= 400:
        assert snapshot() == before, (case.method, case.formatted_path, case.body, response.status_code)
    # The same request from the public, with no credentials: a write is always refused.
    if case.method.upper() not in SAFE_METHODS and case.operation.path not in OPEN_TO_THE_PUBLIC:
        before = snapshot()
        response = case.call()
        assert 400 <= response.status_code < 500, (case.method, case.formatted_path, response.status_code)
        assert snapshot() == before, (case.method, case.formatted_path, case.body, response.status_code)
