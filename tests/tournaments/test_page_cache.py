"""The public pages' cache: every committed change bumps the tournament's version, a
refused one does not, and the cached bracket never shows a result older than the last
confirmed change — in either language."""

from datetime import timedelta
from unittest import mock

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clocks import services as clock_services
from clocks.models import Clock
from games.backgammon import services as backgammon_services
from tests.conftest import first_round, make_tournament, play
from tournaments import services
from tournaments.access import Actor
from tournaments.errors import DomainError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def version(tournament) -> int:
    return Tournament.objects.select_related("page_version").get(pk=tournament.pk).version


def page(tournament, language="en") -> tuple[str, int]:
    """The public tournament page's body (bracket, standings, players) and the number of
    SQL queries the page took."""
    with CaptureQueriesContext(connection) as queries:
        response = Client(headers={"accept-language": language}).get(f"/t/{tournament.slug}/")
    assert response.status_code == 200
    html = response.content.decode()
    return html[html.index('<div id="tournament-body"') :], len(queries)


def test_every_committed_change_bumps_the_version_and_a_refused_one_does_not(tournament):
    match = first_round(tournament)[0]
    before = version(tournament)
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    assert version(tournament) > before
    before = version(tournament)
    with pytest.raises(DomainError):  # who entered a result cannot confirm it
        services.confirm_result(Actor(entry=match.entry_a), submission.pk)
    assert version(tournament) == before
    services.confirm_result(Actor(entry=match.entry_b), submission.pk)
    assert version(tournament) > before


def test_the_cached_page_shows_each_confirmed_result_at_once(tournament):
    first, second = first_round(tournament)[:2]
    html, cold = page(tournament)
    again, warm = page(tournament)
    assert again == html and warm < cold  # the second reader is served from the cache
    play(first)
    html, _ = page(tournament)
    assert f'data-match="{first.pk}"' in html and "status-decided" in html.split(f'data-match="{first.pk}"')[0][-80:]
    assert html.count("status-decided") == 1
    play(second)
    html, _ = page(tournament)
    assert html.count("status-decided") == 2


def test_the_results_page_and_both_languages_follow_the_change(tournament):
    match = first_round(tournament)[0]
    assert "provisional" not in Client().get(f"/t/{tournament.slug}/results/").content.decode()
    page(tournament, "cs")
    services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    assert "provisional" in Client().get(f"/t/{tournament.slug}/results/").content.decode()
    html, _ = page(tournament, "cs")
    assert "předběžný" in html.lower() or "předběžn" in html.lower()


def test_a_score_sheet_change_shows_at_once(director):
    event = make_tournament(director, players=4, game_type="backgammon", round_plan="3")
    match = first_round(event)[0]
    page(event)
    backgammon_services.record_game(
        Actor(user=director.user), match.pk, {"winner": "a", "kind": "gammon", "cube": 1, "ending": "played"}
    )
    html, _ = page(event)
    assert "2–0 of 3" in html


def test_a_clock_press_leaves_the_pages_as_they_are_but_a_flag_does_not(director):
    event = make_tournament(director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "per_move"})
    match = first_round(event)[0]
    clock = clock_services.start_clock(director, match.pk, "a")
    before = version(event)
    clock_services.pause_clock(director, match.pk)
    clock_services.resume_clock(director, match.pk)
    assert version(event) == before
    Clock.objects.filter(pk=clock.pk).update(deadline=None)
    past = clock_services.server_now() + timedelta(minutes=5)
    with mock.patch.object(clock_services, "server_now", return_value=past):
        assert clock_services.enforce(clock.pk) == "a"  # the timeout pass is on the sheet: a new version
    assert version(event) > before
