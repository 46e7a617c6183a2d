"""The projector view in a real browser, as the venue's screen shows it: the running
matches split over as many screens as they need (every card whole on the screen), the
slides cycling by themselves, a result confirmed elsewhere moving its match from "now
playing" to the latest results without a reload, and the bracket drawn to fit."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import first_round, make_tournament, play
from tests.e2e.conftest import ARTIFACTS, chess_event_with_running_clocks, clock_requests

pytestmark = pytest.mark.browser

SCREEN = {"width": 1280, "height": 720}

CARDS_ON_EACH_SCREEN = """() => Array.from(document.querySelectorAll('.projector-matches')).map(slide => {
  document.querySelectorAll('.slide').forEach(s => s.classList.toggle('is-shown', s === slide));
  const cards = Array.from(slide.querySelectorAll('.projector-match'));
  return {
    count: slide.querySelector('.slide-count').textContent,
    matches: cards.map(card => card.querySelector('.projector-table').textContent),
    lowest: Math.max(...cards.map(card => card.getBoundingClientRect().bottom)),
  };
})"""


def screens_of(page) -> list[dict]:
    return page.evaluate(CARDS_ON_EACH_SCREEN)


def test_the_running_matches_of_a_big_event_fill_as_many_screens_as_they_need(browser, live_server, director):
    event = make_tournament(director, players=64)
    page = browser.new_page(locale="en-US", viewport=SCREEN)
    page.goto(f"{live_server.url}/t/{event.slug}/projector/")
    expect(page.locator(".slide.is-shown")).to_have_count(1)

    screens = screens_of(page)
    assert len(screens) > 1, "32 matches do not fit on one 1280x720 screen"
    assert [s["count"] for s in screens] == [f"{n}/{len(screens)}" for n in range(1, len(screens) + 1)]
    for screen in screens:
        assert screen["lowest"] <= SCREEN["height"], "a card runs off the bottom of the screen"
    tables = [table for screen in screens for table in screen["matches"]]
    assert tables == [f"Table {n}" for n in range(1, 33)], "each running match once, in the order of the tables"
    page.screenshot(path=str(ARTIFACTS / "projector-now-playing.png"))

    # A result confirmed elsewhere: its match leaves "now playing" for the latest results.
    play(first_round(event)[0])
    confirmed = time.monotonic()
    expect(page.locator(".projector-results .projector-match")).to_have_count(1, timeout=2000)
    assert time.monotonic() - confirmed < 2.0
    screens = screens_of(page)
    tables = [table for screen in screens for table in screen["matches"]]
    assert tables == [f"Table {n}" for n in range(2, 33)]
    assert all(screen["lowest"] <= SCREEN["height"] for screen in screens)


@pytest.mark.parametrize("screen", [SCREEN, {"width": 800, "height": 600}], ids=["1280x720", "800x600"])
def test_the_slides_cycle_and_the_bracket_is_drawn_to_fit_the_screen(browser, live_server, director, screen):
    event = make_tournament(director, players=16)
    page = browser.new_page(locale="en-US", viewport=screen)
    page.goto(f"{live_server.url}/t/{event.slug}/projector/?seconds=3")
    shown = page.locator(".slide.is-shown h2")
    expect(shown).to_contain_text("Now playing")
    slides = page.evaluate("document.querySelectorAll('.slide').length")  # no results yet: now playing, the bracket
    expect(shown).to_contain_text("Bracket", timeout=3000 * slides + 1000)
    bracket = page.locator(".slide.is-shown .bracket").bounding_box()
    scale = page.evaluate("document.querySelector('.slide.is-shown .bracket').style.transform")
    assert re.fullmatch(r"scale\([\d.]+\)|", scale)
    right, bottom = bracket["x"] + bracket["width"], bracket["y"] + bracket["height"]
    assert right <= screen["width"] and bottom <= screen["height"], "the bracket is cut off"
    assert bracket["width"] > 0.6 * screen["width"] or bottom > 0.8 * screen["height"], "drawn to fill the screen"
    page.screenshot(path=str(ARTIFACTS / f"projector-bracket-{screen['width']}.png"))
    expect(shown).to_contain_text("Now playing", timeout=4000)  # and round again


def test_only_the_clocks_on_the_screen_ask_the_server_in_one_request_and_they_count_down(
    browser, live_server, director
):
    event = chess_event_with_running_clocks(director, players=16)
    page = browser.new_page(locale="en-US", viewport=SCREEN)
    asked = clock_requests(page)
    page.goto(f"{live_server.url}/t/{event.slug}/projector/?seconds=60")
    expect(page.locator(".slide.is-shown .slide-count")).to_have_text(re.compile(r"1/[2-9]"))  # 8 clocks: 2+ screens
    faces = page.locator(".slide.is-shown [data-clock-match]")
    on_screen = {face.get_attribute("data-clock-match") for face in faces.all()}
    page.screenshot(path=str(ARTIFACTS / "projector-clocks.png"))
    assert 0 < len(on_screen) < 8
    running = page.locator(".slide.is-shown .cw-half.is-on-move .cw-time").first
    seen = running.inner_text()
    page.wait_for_timeout(4500)  # two refreshes of the clocks on the screen
    assert running.inner_text() != seen, "the running clock counts down"
    assert len(asked) >= 2
    for url in asked:
        path, _, query = url.split(live_server.url, 1)[1].partition("?matches=")
        assert path == f"/t/{event.slug}/clocks.json", "one request for the screen's clocks, none per clock"
        assert set(query.split(",")) == on_screen, "the clocks of the hidden screens asked nothing"
