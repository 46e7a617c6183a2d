"""Two players keep a backgammon score sheet on their phones; the public bracket shows
the new score and the Crawford state."""

import pytest
from playwright.sync_api import expect

from tests.conftest import first_round, make_tournament
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_players_enter_and_confirm_a_game_and_the_bracket_shows_it(browser, live_server, director):
    tournament = make_tournament(director, players=8, game_type="backgammon", round_plan="3, 3, 5")
    match = first_round(tournament)[0]
    a, b = match.entry_a, match.entry_b

    phone_a = browser.new_page(locale="en-US", viewport=PHONE)
    phone_a.goto(f"{live_server.url}/p/{a.private_key}/")
    expect(phone_a.locator(".bg-length")).to_have_text("of 3")
    # Two taps: the winner, then how the game ended (the cube stays at 1).
    phone_a.click("label[for=next-winner-a]")
    phone_a.click("button[name=outcome][value=gammon]")
    expect(phone_a.locator(".messages")).to_contain_text("Game entered")
    expect(phone_a.locator(".bg-score")).to_have_attribute("data-score", "2-0")
    expect(phone_a.locator(".bg-pending")).to_contain_text("Waiting for your opponent")
    expect(phone_a.locator(".bg-crawford")).to_contain_text("Crawford game")

    phone_b = browser.new_page(locale="en-US", viewport=PHONE)
    phone_b.goto(f"{live_server.url}/p/{b.private_key}/")
    expect(phone_b.locator(".bg-pending")).to_contain_text("Game 1: +2")
    phone_b.click("button[name=confirm-game]")
    expect(phone_b.locator(".messages")).to_contain_text("Game confirmed")
    expect(phone_b.locator(".bg-pending")).to_have_count(0)
    # In the Crawford game only cube 1 is offered, and no drop.
    expect(phone_b.locator("input[name=cube]")).to_have_count(1)
    expect(phone_b.locator("button[value=dropped]")).to_have_count(0)
    phone_b.screenshot(path=str(ARTIFACTS / "backgammon-sheet-phone.png"), full_page=True)

    public = browser.new_page(locale="en-US")
    public.goto(f"{live_server.url}/t/{tournament.slug}/")
    box = public.locator(f"[data-match='{match.pk}']")
    expect(box.locator(".score")).to_have_text(["2", "0"])
    expect(box).to_contain_text("2–0 of 3, Crawford game")
    public.screenshot(path=str(ARTIFACTS / "backgammon-bracket.png"), full_page=True)

    # The match page shows the sheet read-only, with the game list.
    public.goto(f"{live_server.url}/t/{tournament.slug}/m/{match.pk}/")
    expect(public.locator(".bg-games tbody tr")).to_have_count(1)
    expect(public.locator("button[name=outcome]")).to_have_count(0)
