"""A backgammon match clock on a phone between the two players: start a side, watch it
count down, tap the running half and the other side runs; the server logs one press."""

import re

import pytest
from playwright.sync_api import expect

from clocks.models import ClockEvent
from tests.conftest import first_round, make_tournament
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def face_ms(page, side: str) -> int:
    text = page.locator(f"[data-clock-face={side}]").inner_text().strip()
    found = re.fullmatch(r"(?:(\d+):)?(\d+):(\d+)(?:\.(\d))?", text)
    assert found, text
    hours, minutes, seconds, tenths = found.groups()
    return ((int(hours or 0) * 60 + int(minutes)) * 60 + int(seconds)) * 1000 + int(tenths or 0) * 100


def test_players_start_watch_and_press_the_table_clock(browser, live_server, director):
    # No delay, so the face counts down from the first moment.
    tournament = make_tournament(
        director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed", "clock_delay": 0}
    )
    match = first_round(tournament)[0]
    a, b = match.entry_a, match.entry_b

    phone = browser.new_page(locale="en-US", viewport=PHONE)
    phone.goto(f"{live_server.url}/p/{a.private_key}/m/{match.pk}/clock/")
    expect(phone.locator("[data-clock-face=a]")).to_have_text("6:00")
    expect(phone.locator("[data-clock-face=b]")).to_have_text("6:00")
    expect(phone.locator(".clock-status")).to_contain_text("Ready")
    phone.screenshot(path=str(ARTIFACTS / "table-clock-ready.png"), full_page=True)

    phone.get_by_role("button", name=f"Start {a.name}'s time").click()
    expect(phone.locator(".clock-status")).to_contain_text(f"{a.name} to move")
    expect(phone.locator("[data-clock-half=a]")).to_have_class(re.compile(r"\bis-on-move\b"))
    expect(phone.locator("[data-clock-start]")).to_be_hidden()

    first = face_ms(phone, "a")
    phone.wait_for_timeout(1500)
    second = face_ms(phone, "a")
    assert second < first <= 360_000  # it counts down on the page
    assert face_ms(phone, "b") == 360_000
    phone.screenshot(path=str(ARTIFACTS / "table-clock-running.png"), full_page=True)

    phone.locator("[data-clock-half=a]").click()
    expect(phone.locator(".clock-status")).to_contain_text(f"{b.name} to move")
    expect(phone.locator("[data-clock-half=b]")).to_have_class(re.compile(r"\bis-on-move\b"))
    expect(phone.locator("[data-clock-half=a]")).to_be_disabled()
    assert list(ClockEvent.objects.filter(clock__match=match).order_by("number").values_list("kind", "side")) == [
        ("start", "a"),
        ("press", "a"),
    ]
    frozen = face_ms(phone, "a")
    phone.wait_for_timeout(600)
    assert face_ms(phone, "a") == frozen  # a's time stands while b thinks
    assert face_ms(phone, "b") < 360_000

    # A double tap on b's half presses once.
    phone.locator("[data-clock-half=b]").dblclick()
    expect(phone.locator(".clock-status")).to_contain_text(f"{a.name} to move")
    phone.wait_for_timeout(500)
    assert ClockEvent.objects.filter(clock__match=match, kind="press").count() == 2
    phone.screenshot(path=str(ARTIFACTS / "table-clock-pressed.png"), full_page=True)

    # The public match page shows the same clock, live.
    public = browser.new_page(locale="en-US")
    public.goto(f"{live_server.url}/t/{tournament.slug}/m/{match.pk}/")
    expect(public.locator(".clock-widget .clock-status")).to_contain_text(f"{a.name} to move")
    expect(public.locator(".clock-widget [data-clock-half=a]")).to_have_class(re.compile(r"\bis-on-move\b"))


def test_the_simple_delay_runs_before_the_face_moves(browser, live_server, director):
    tournament = make_tournament(
        director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"}
    )
    match = first_round(tournament)[0]
    phone = browser.new_page(locale="en-US", viewport=PHONE)
    phone.goto(f"{live_server.url}/p/{match.entry_b.private_key}/m/{match.pk}/clock/")
    phone.get_by_role("button", name=f"Start {match.entry_a.name}'s time").click()
    delay = phone.locator("[data-clock-delay=a]")
    expect(delay).to_be_visible()
    expect(delay).to_contain_text("delay")
    before = float(delay.locator("[data-clock-delay-value]").inner_text().split()[0])
    phone.wait_for_timeout(1200)
    after = float(delay.locator("[data-clock-delay-value]").inner_text().split()[0])
    assert after < before <= 12.0
    assert face_ms(phone, "a") == 360_000  # the face stands still during the delay
    phone.screenshot(path=str(ARTIFACTS / "table-clock-delay.png"), full_page=True)
