"""Live public pages: the polling contract (204 while nothing changed, the fresh
fragment and version after a change), the match page's fragment and the projector."""

import re

import pytest
from django.test import Client

from tests.conftest import first_round, make_tournament, play
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


def test_the_projector_cycles_through_the_running_matches_the_latest_results_and_the_bracket(tournament):
    play(first_round(tournament)[0])
    html = Client().get(f"/t/{tournament.slug}/projector/").content.decode()
    running = sum(1 for m in first_round(tournament) if not m.decided_by)
    assert html.count('<article class="projector-match"') == running == 3
    assert html.count('<article class="projector-match is-decided"') == 1
    # The running matches (split over as many screens as they need by projector.js),
    # the latest results (one screen), the bracket (scaled to the screen).
    assert re.findall(r'<section class="slide[^"]*" data-fit="(\w+)"', html) == ["pages", "first", "scale"]
    assert 'data-live-url="/t/' in html and "projector.js" in html


def test_the_projectors_cards_name_the_table_of_each_running_match(tournament):
    play(first_round(tournament)[1])
    html = Client().get(f"/t/{tournament.slug}/projector/").content.decode()
    now_playing = html.split('data-fit="pages"')[1].split("</section>")[0]
    assert re.findall(r'class="projector-table">Table (\d+)<', now_playing) == ["1", "3", "4"]


def test_the_latest_results_come_latest_first_without_byes(director):
    event = make_tournament(director, players=6)  # an 8-bracket: seeds 1 and 2 have byes
    playable = [m for m in first_round(event) if not m.is_bye]
    for match in playable:
        play(match)
    html = Client().get(f"/t/{event.slug}/projector/").content.decode()
    latest = html.split('data-fit="first"')[1].split("</section>")[0]
    assert latest.count("<article") == len(playable) == 2
    labels = re.findall(r'class="projector-round">([^<]+)<', latest)
    assert labels == [f"Quarter-finals, match {m.position + 1}" for m in reversed(playable)]


def test_the_projectors_bracket_of_a_big_event_starts_at_its_last_16(director):
    event = make_tournament(director, players=40)
    html = Client().get(f"/t/{event.slug}/projector/").content.decode()
    bracket = html.split('data-fit="scale"')[1]
    assert "the last 16" in bracket
    assert re.findall(r'<section class="bracket-round"><h3>([^<]+) <small>', bracket) == [
        "Round of 16",
        "Quarter-finals",
        "Semi-finals",
        "Final",
    ]


def test_the_projector_shows_the_final_standings_instead_of_the_latest_results_when_it_is_over(director):
    event = make_tournament(director, players=2)
    play(first_round(event)[0])
    html = Client().get(f"/t/{event.slug}/projector/").content.decode()
    assert "Final standings" in html and 'data-fit="first"' not in html and 'data-fit="pages"' not in html


def test_the_tournament_page_lists_the_running_matches_with_their_tables(director):
    event = make_tournament(director, players=6)  # seeds 1 and 2 have byes: 2 matches to play
    playable = [m for m in first_round(event) if not m.is_bye]
    services.submit_result(Actor(entry=playable[1].entry_a), playable[1].pk, {"games": [[21, 5], [21, 6]]})
    disputed = services.submit_result(Actor(entry=playable[0].entry_a), playable[0].pk, {"games": [[21, 9], [21, 8]]})
    services.dispute_result(Actor(entry=playable[0].entry_b), disputed.pk, "21-19 in the second game")
    html = Client().get(f"/t/{event.slug}/").content.decode()
    assert 'href="#now-playing"' in html
    section = html.split('id="now-playing"')[1].split("</section>")[0]
    rows = re.findall(r'<tr><td class="num table-number">(\d+)</td><td><a href="([^"]+)">([^<]+)</a>', section)
    assert rows == [
        (str(table), f"/t/{event.slug}/m/{match.pk}/", f"Quarter-finals, match {match.position + 1}")
        for table, match in enumerate(playable, start=1)
    ]
    assert '<span class="tag provisional">provisional</span> 2–0 (21–5, 21–6)' in section
    assert '<span class="tag disputed">disputed</span> 2–0 (21–9, 21–8)' in section
    projector = Client().get(f"/t/{event.slug}/projector/").content.decode()
    assert '<span class="tag disputed">disputed</span> 2–0 (21–9, 21–8)' in projector
    assert "clock-widget" not in section and ">Clock<" not in section  # a scored game has no clocks


def test_nothing_running_no_list(director):
    event = make_tournament(director, players=2)
    play(first_round(event)[0])
    assert 'id="now-playing"' not in Client().get(f"/t/{event.slug}/").content.decode()
