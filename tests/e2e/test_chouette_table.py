"""The demo's club chouette on a phone: the table records one more game with the quick
form, and the page shows the new line and the new totals."""

import pytest
from django.core.management import call_command
from playwright.sync_api import expect

from director import demo
from games.backgammon import chouette as engine
from games.backgammon import chouette_services as services
from tests.e2e.conftest import ARTIFACTS

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def test_the_table_records_a_game_and_sees_the_new_line_and_totals(browser, live_server):
    call_command("load_demo")
    session = demo.demo_chouette()
    state = services.replay(session)
    names = state.players
    # What the engine says the team's single comes to: the line and totals to expect.
    score = engine.score_game(
        state.line, services.settings_of(session), engine.ChouetteGame(board=engine.Board(winner="team"))
    )
    new_line = [names[p] for p in score.next_line]
    totals = {names[p]: total + score.points.get(p, 0) for p, total in state.totals.items()}
    assert new_line[0] == names[state.line[1]]  # the captain beat the box and becomes box

    phone = browser.new_page(locale="en-US", viewport=PHONE)
    phone.goto(f"{live_server.url}/chouette/table/{session.table_key}/")
    expect(phone.locator(".ch-line li").first).to_contain_text(names[state.line[0]])
    # Two taps: the team won (a single is the default), record.
    phone.click("label[for=winner-team]")
    phone.click("button.ch-record")

    expect(phone.locator(".messages")).to_contain_text(f"Game {len(state.games) + 1} recorded.")
    expect(phone.locator(".ch-line .ch-name")).to_have_text(new_line)
    expect(phone.locator(".ch-line li").nth(0)).to_contain_text("Box")
    expect(phone.locator(".ch-line li").nth(1)).to_contain_text("Captain")
    for name, total in totals.items():
        expect(phone.locator(f".ch-ledger tfoot td[data-player='{name}']")).to_have_attribute("data-total", str(total))
    expect(phone.locator(".ch-games li").first).to_contain_text(f"{new_line[0]} won a single")
    phone.screenshot(path=str(ARTIFACTS / "chouette-table-phone.png"), full_page=True)
    assert sum(totals.values()) == 0
