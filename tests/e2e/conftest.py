"""Browser tests: Debian's Chromium driven by Playwright (never a downloaded browser)."""

from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

from clocks import services as clock_services
from games.chess import services as chess_services
from tests.conftest import first_round, make_tournament
from tournaments.access import Actor

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"  # screenshots to look at


@pytest.fixture(autouse=True)
def _allow_django_next_to_playwright(monkeypatch):
    # Playwright's sync API runs an event loop in this thread; the test's own
    # synchronous database access next to it is fine.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")


@pytest.fixture
def live_server(live_server):
    """Django's live server with the edge in front, as gunicorn runs the application
    (``director/wsgi.py``): cookie-less readers, live polls and writers go through it."""
    from tournaments.edge_cache import EdgeCache

    httpd = live_server.thread.httpd
    if not isinstance(httpd.get_app(), EdgeCache):
        httpd.set_app(EdgeCache(httpd.get_app()))
    return live_server


@pytest.fixture
def browser(chromium):
    ARTIFACTS.mkdir(exist_ok=True)
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=chromium,
            args=["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking"],
        )
        yield browser
        browser.close()
        # Database queries made while Playwright runs use a connection of their own
        # (its event loop is another context); close it, or the test database
        # cannot be dropped at the end of the run.
        connections.close_all()


def chess_event_with_running_clocks(director, players: int):
    """A chess knockout (10-minute games) whose first-round clocks all run, White to move."""
    ten_minutes = {"time_control": "600"}
    event = make_tournament(director, players=players, game_type="chess", round_plan="2", settings=ten_minutes)
    for match in first_round(event):
        white = chess_services.state_of(match).next_game.white
        clock_services.start_clock(Actor(entry=match.entry_on(white)), match.pk, white)
    return event


def clock_requests(page) -> list[str]:
    """The addresses of the clock JSON the page asks for from now on (scripts left out)."""
    asked: list[str] = []

    def note(request):
        if "clock" in request.url and "/static/" not in request.url:
            asked.append(request.url)

    page.on("request", note)
    return asked
