"""Two players keep a Scrabble score sheet on their phones: two moves (one checked
before it is sent) and a protest; the public match page shows the board and totals."""

import pytest
from playwright.sync_api import expect

from tests.conftest import first_round, make_tournament
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_two_moves_and_a_protest_on_the_phone_sheet(browser, live_server, director):
    tournament = make_tournament(director, players=4, game_type="scrabble", round_plan="3")
    match = first_round(tournament)[0]
    a, b = match.entry_a, match.entry_b

    phone_a = browser.new_page(locale="en-US", viewport=PHONE)
    phone_a.goto(f"{live_server.url}/p/{a.private_key}/")
    phone_a.fill("#sc-position", "8D")
    phone_a.fill("#sc-word", "SLOVA")
    phone_a.click("button[value=check]")
    expect(phone_a.locator(".sc-preview")).to_contain_text("SLOVA 12")
    expect(phone_a.locator(".sc-preview .sc-true")).to_have_text("12")
    phone_a.fill("#sc-announced", "15")  # three too many
    phone_a.click("button[value=place]")
    expect(phone_a.locator(".messages")).to_contain_text("Turn entered")
    expect(phone_a.locator(".sc-player[data-side=a] .sc-points")).to_have_text("15")

    phone_b = browser.new_page(locale="en-US", viewport=PHONE)
    phone_b.goto(f"{live_server.url}/p/{b.private_key}/")
    expect(phone_b.locator(".sc-protest")).to_contain_text("announced 15, true score 12")
    phone_b.click("button[name=protest-overscore]")
    expect(phone_b.locator(".messages")).to_contain_text("Protest raised")
    expect(phone_b.locator(".sc-player[data-side=a] .sc-points")).to_have_text("12")
    expect(phone_b.locator(".sc-player[data-side=a] .sc-crosses")).to_contain_text("✗")
    # b's own move: KA down from H7, over the A of SLOVA.
    phone_b.fill("#sc-position", "H7")
    phone_b.fill("#sc-word", "K.")
    phone_b.fill("#sc-announced", "2")
    phone_b.click("button[value=place]")
    expect(phone_b.locator(".messages")).to_contain_text("Turn entered")
    expect(phone_b.locator(".sc-turns tbody tr")).to_have_count(2)
    expect(phone_b.locator(".sc-bag")).to_contain_text("80 in the bag")
    phone_b.screenshot(path=str(ARTIFACTS / "scrabble-sheet-phone.png"), full_page=True)

    public = browser.new_page(locale="en-US")
    public.goto(f"{live_server.url}/t/{tournament.slug}/m/{match.pk}/")
    expect(public.locator(".sc-board td.sc-tile")).to_have_count(6)
    expect(public.locator(".sc-board td.sc-last")).to_have_count(1)
    expect(public.locator(".sc-turns")).to_contain_text("protest: overscore — upheld")
    expect(public.locator("button[value=place]")).to_have_count(0)
    public.goto(f"{live_server.url}/t/{tournament.slug}/")
    expect(public.locator(f"[data-match='{match.pk}']")).to_contain_text("game 1: 12–2")
    public.screenshot(path=str(ARTIFACTS / "scrabble-bracket.png"), full_page=True)
