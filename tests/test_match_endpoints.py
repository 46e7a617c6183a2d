"""Every API address that takes a match, asked about a match of each game: a game's
own endpoints (a Scrabble sheet, backgammon games, a clock) answer a match of another
game with a 404 that says so, never a 500; the stored state is unchanged.

The addresses come from the URL resolver, so a game added later is covered too."""

import pytest
from django.urls import URLPattern, URLResolver, get_resolver

from games import registry
from tests.conftest import api_client_for, make_tournament
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db


def api_match_paths() -> list[str]:
    """``api/matches/<int:match_id>/...`` routes, as path templates."""

    def walk(patterns, prefix=""):
        for pattern in patterns:
            if isinstance(pattern, URLResolver):
                yield from walk(pattern.url_patterns, prefix + str(pattern.pattern))
            elif isinstance(pattern, URLPattern):
                yield prefix + str(pattern.pattern)

    return sorted({p for p in walk(get_resolver().url_patterns) if p.startswith("api/matches/<int:match_id>/")})


PATHS = api_match_paths()
GAMES = [key for key, _label in registry.choices()]


def test_the_resolver_finds_the_game_endpoints():
    assert "api/matches/<int:match_id>/scrabble/" in PATHS
    assert "api/matches/<int:match_id>/games/" in PATHS
    assert "api/matches/<int:match_id>/clock/" in PATHS


@pytest.mark.parametrize("game_type", GAMES)
def test_no_match_endpoint_answers_a_match_of_any_game_with_a_500(director, director_user, game_type):
    event = make_tournament(director, players=4, game_type=game_type, round_plan="1")
    match = event.matches.filter(round_number=1).first()
    client = api_client_for(director_user)
    audit_before = set(AuditEntry.objects.values_list("pk", flat=True))
    match_before = Match.objects.filter(pk=match.pk).values().get()
    statuses = {}
    for template in PATHS:
        url = "/" + template.replace("<int:match_id>", str(match.pk))
        for method in ("get", "post"):
            # An empty body: whatever the endpoint, it is a read or bad input.
            response = getattr(client, method)(url, {}, format="json")
            statuses[(method, template)] = response.status_code
            assert response.status_code < 500, (method, url, response.content[:300])
            if response.status_code >= 400:
                assert response.json().get("detail"), (method, url, response.content[:300])
    # Some endpoints are this game's own and some are not: both kinds were tried.
    assert 404 in statuses.values() and 200 in statuses.values()
    # Nothing was written: the match is as it was, and the audit log holds refusals only.
    assert Match.objects.filter(pk=match.pk).values().get() == match_before
    new_entries = AuditEntry.objects.exclude(pk__in=audit_before).values_list("action", flat=True)
    assert all(action.endswith("refused") for action in new_entries), list(new_entries)
