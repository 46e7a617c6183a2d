"""Live public pages: the polling contract (204 while nothing changed, the fresh
fragment and version after a change), the match page's fragment and the projector."""

import pytest
from django.test import Client

from tests.conftest import first_round, play
from tournaments import services
from tournaments.access import Actor
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


def live(url: str, since) -> tuple[int, dict | None]:
    response = Client().get(url, {"since": since})
    return response.status_code, response.json() if response.status_code == 200 else None


@pytest.mark.parametrize(
    ("fragment", "shows"),
    [("tournament", "status-decided"), ("results", "2–0 (21–10, 21–12)"), ("projector", 'class="slide')],
)
def test_a_fragment_answers_204_until_the_tournament_changes(tournament, fragment, shows):
    url = f"/t/{tournament.slug}/live/{fragment}/"
    version = Tournament.objects.get(pk=tournament.pk).version
    assert live(url, version) == (204, None)
    play(first_round(tournament)[0])
    status, data = live(url, version)
    assert status == 200 and data["version"] > version and shows in data["html"]
    assert live(url, data["version"]) == (204, None)
    assert live(url, "garbage")[0] == 200  # no usable version: the whole fragment


def test_the_match_fragment_shows_a_result_as_it_is_entered(tournament):
    match = first_round(tournament)[0]
    url = f"/t/{tournament.slug}/m/{match.pk}/live/"
    version = Tournament.objects.get(pk=tournament.pk).version
    services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    status, data = live(url, version)
    assert status == 200 and "2–0 (21–3, 21–4)" in data["html"] and "Waiting for confirmation" in data["html"]


def test_unknown_fragments_and_private_tournaments_are_404(tournament, director):
    assert Client().get(f"/t/{tournament.slug}/live/secrets/").status_code == 404
    draft = services.create_tournament(director, name="Not public yet")
    assert Client().get(f"/t/{draft.slug}/live/tournament/").status_code == 404
    assert Client().get(f"/t/{draft.slug}/projector/").status_code == 404


def test_the_projector_cycles_through_the_running_matches_and_the_bracket(tournament):
    play(first_round(tournament)[0])
    html = Client().get(f"/t/{tournament.slug}/projector/").content.decode()
    running = sum(1 for m in first_round(tournament) if not m.decided_by)
    assert html.count('class="projector-match') == running == 3
    assert html.count('class="slide') == 2  # one page of running matches, the bracket
    assert 'data-live-url="/t/' in html and "projector.js" in html
