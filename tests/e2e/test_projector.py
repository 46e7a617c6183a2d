"""The projector view in a real browser, as the venue's screen shows it: the running
matches split over as many screens as they need (every card whole on the screen), the
slides cycling by themselves, a result confirmed elsewhere moving its match from "now
playing" to the latest results without a reload, and the bracket drawn to fit."""

import re
import time

import pytest
from playwright.sync_api import expect

from tests.conftest import first_round, make_tournament, play
from tests.e2e.conftest import ARTIFACTS

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


def test_the_slides_cycle_and_the_bracket_is_drawn_to_fit_the_screen(browser, live_server, director):
    event = make_tournament(director, players=16)
    page = browser.new_page(locale="en-US", viewport=SCREEN)
    page.goto(f"{live_server.url}/t/{event.slug}/projector/?seconds=3")
    shown = page.locator(".slide.is-shown h2")
    expect(shown).to_contain_text("Now playing")
    slides = page.evaluate("document.querySelectorAll('.slide').length")  # no results yet: now playing, the bracket
    expect(shown).to_contain_text("Bracket", timeout=3000 * slides + 1000)
    bracket = page.locator(".slide.is-shown .bracket").bounding_box()
    scale = page.evaluate("document.querySelector('.slide.is-shown .bracket').style.transform")
    assert re.fullmatch(r"scale\([\d.]+\)|", scale)
    right, bottom = bracket["x"] + bracket["width"], bracket["y"] + bracket["height"]
    assert right <= SCREEN["width"] and bottom <= SCREEN["height"], "the bracket is cut off"
    page.screenshot(path=str(ARTIFACTS / "projector-bracket.png"))
    expect(shown).to_contain_text("Now playing", timeout=4000)  # and round again
