"""Two chess players keep their mini-match on their phones: White enters game 1, Black
confirms it; the sheet shows game 2 with the colours swapped, and the public bracket
shows the score."""

import pytest
from playwright.sync_api import expect

from games.chess import services as chess_services
from tests.conftest import first_round, make_tournament
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_players_enter_and_confirm_a_chess_game_and_the_bracket_shows_it(browser, live_server, director):
    tournament = make_tournament(director, players=8, game_type="chess", round_plan="2")
    match = first_round(tournament)[0]
    white = chess_services.state_of(match).next_game.white
    white_entry, black_entry = match.entry_on(white), match.entry_on("b" if white == "a" else "a")

    phone_white = browser.new_page(locale="en-US", viewport=PHONE)
    phone_white.goto(f"{live_server.url}/p/{white_entry.private_key}/")
    expect(phone_white.locator(".chess-next")).to_contain_text(f"♔ {white_entry.name}")
    phone_white.click("label[for=next-result-white]")
    phone_white.select_option("#next-termination", "resignation")
    phone_white.click("button[name=save-game]")
    expect(phone_white.locator(".messages")).to_contain_text("Game entered")
    expect(phone_white.locator(".bg-pending")).to_contain_text("Waiting for your opponent")

    phone_black = browser.new_page(locale="en-US", viewport=PHONE)
    phone_black.goto(f"{live_server.url}/p/{black_entry.private_key}/")
    expect(phone_black.locator(".bg-pending")).to_contain_text("1–0")
    phone_black.click("button[name=confirm-game]")
    expect(phone_black.locator(".messages")).to_contain_text("Game confirmed")
    # Game 2: the colours alternate.
    expect(phone_black.locator(".chess-next")).to_contain_text(f"♔ {black_entry.name}")
    expect(phone_black.locator(".chess-games tbody tr")).to_have_count(1)
    phone_black.screenshot(path=str(ARTIFACTS / "chess-sheet-phone.png"), full_page=True)

    public = browser.new_page(locale="en-US")
    public.goto(f"{live_server.url}/t/{tournament.slug}/")
    box = public.locator(f"[data-match='{match.pk}']")
    scores = ["1", "0"] if white == "a" else ["0", "1"]
    expect(box.locator(".score")).to_have_text(scores)
    public.screenshot(path=str(ARTIFACTS / "chess-bracket.png"), full_page=True)
