"""Browser tests: Debian's Chromium driven by Playwright (never a downloaded browser)."""

from pathlib import Path

import pytest
from django.db import connections
from playwright.sync_api import sync_playwright

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
