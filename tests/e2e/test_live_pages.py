"""Live public pages in a real browser: a bracket left open shows a result confirmed
elsewhere within 2 s, without a reload; a running clock counts down on the match page."""

import gzip
import json
import time
import urllib.request

import pytest
from playwright.sync_api import expect

from clocks import services as clock_services
from games.chess import services as chess_services
from tests.conftest import first_round, make_tournament
from tests.e2e.conftest import ARTIFACTS, chess_event_with_running_clocks, clock_requests
from tournaments import services
from tournaments.access import Actor

pytestmark = pytest.mark.browser


def test_the_open_bracket_shows_a_result_confirmed_elsewhere_within_two_seconds(browser, live_server, tournament):
    match = first_round(tournament)[0]
    page = browser.new_page(locale="en-US")
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    box = page.locator(f"[data-match='{match.pk}']")
    expect(box).not_to_have_class("bracket-match status-decided")
    page.evaluate("window.reloaded = false")  # a reload would forget this

    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 3], [21, 4]]})
    services.confirm_result(Actor(entry=match.entry_b), submission.pk)
    confirmed = time.monotonic()
    expect(page.locator(f"[data-match='{match.pk}'].status-decided")).to_have_count(1, timeout=2000)
    assert time.monotonic() - confirmed < 2.0
    assert page.evaluate("window.reloaded") is False
    expect(page.locator(f"[data-match='{match.pk}'] .score")).to_have_text(["2", "0"])
    page.screenshot(path=str(ARTIFACTS / "live-bracket.png"), full_page=True)


def test_a_result_a_director_enters_through_the_api_is_on_the_page_when_the_api_answers(
    browser, live_server, tournament, director_user
):
    # Through the edge, as in production: the writer renders the new page before its
    # answer goes out, so the very next reader (compressed, as a browser asks) has it.
    from rest_framework.authtoken.models import Token

    match = first_round(tournament)[0]
    page = browser.new_page(locale="en-US")
    page.goto(f"{live_server.url}/t/{tournament.slug}/")
    box = page.locator(f"[data-match='{match.pk}'].status-decided")
    expect(box).to_have_count(0)

    token = Token.objects.create(user=director_user).key
    request = urllib.request.Request(  # noqa: S310 - the test's own server
        f"{live_server.url}/api/matches/{match.pk}/results/",
        data=json.dumps({"result": {"games": [[21, 3], [21, 4]]}}).encode(),
        headers={"Authorization": f"Token {token}", "Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        assert response.status == 201
    answered = time.monotonic()
    reader = urllib.request.Request(f"{live_server.url}/t/{tournament.slug}/", headers={"Accept-Encoding": "gzip"})  # noqa: S310
    with urllib.request.urlopen(reader, timeout=10) as response:  # noqa: S310
        assert response.headers["Content-Encoding"] == "gzip"
        html = gzip.decompress(response.read()).decode()
    assert f'data-match="{match.pk}"' in html
    decided = html.split(f'data-match="{match.pk}"')[0].rsplit("<", 1)[-1]
    assert "status-decided" in decided
    expect(box).to_have_count(1, timeout=2000)  # and the open page, without a reload
    assert time.monotonic() - answered < 2.0


def test_a_running_clock_counts_down_on_the_public_match_page(browser, live_server, director):
    event = make_tournament(director, players=4, game_type="chess", round_plan="2", settings={"time_control": "600"})
    match = first_round(event)[0]
    white = chess_services.state_of(match).next_game.white
    clock_services.start_clock(Actor(entry=match.entry_on(white)), match.pk, white)
    page = browser.new_page(locale="en-US")
    page.goto(f"{live_server.url}/t/{event.slug}/m/{match.pk}/")
    face = page.locator(f"[data-clock-face={white}]")
    seen = face.inner_text()
    page.wait_for_timeout(2500)
    later = face.inner_text()
    minutes, seconds = (int(part) for part in later.split(":"))
    assert later != seen and 9 * 60 + 50 <= minutes * 60 + seconds < 10 * 60
    other = page.locator(f"[data-clock-face={'b' if white == 'a' else 'a'}]")
    expect(other).to_have_text("10:00")  # only the running side counts down


def test_the_tournament_pages_running_clocks_count_down_fetched_in_one_request(browser, live_server, director):
    event = chess_event_with_running_clocks(director, players=8)
    page = browser.new_page(locale="en-US")
    asked = clock_requests(page)
    page.goto(f"{live_server.url}/t/{event.slug}/")
    running = page.locator("#now-playing .cw-half.is-on-move .cw-time")
    expect(running).to_have_count(4)
    seen = running.all_inner_texts()
    page.wait_for_timeout(2500)
    later = running.all_inner_texts()
    assert all(now != before for now, before in zip(later, seen, strict=True)), "every running clock counts down"
    assert asked and all("/clocks.json?matches=" in url for url in asked), "one request for all, none per clock"
    assert all(url.endswith(",".join(str(m.pk) for m in first_round(event))) for url in asked)
    page.screenshot(path=str(ARTIFACTS / "tournament-now-playing.png"), full_page=True)
