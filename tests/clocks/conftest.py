"""What the clocks' tests share: the server's time under the test's control."""

from datetime import timedelta

import pytest

from clocks import services as clock_services


class ServerTime:
    """``clocks.services.server_now`` frozen, moved on by the test."""

    def __init__(self, monkeypatch):
        self.now = clock_services.server_now()
        monkeypatch.setattr(clock_services, "server_now", lambda: self.now)

    def advance(self, seconds: float) -> None:
        self.now += timedelta(milliseconds=round(seconds * 1000))

    def to(self, moment) -> None:
        self.now = moment


@pytest.fixture
def server_time(monkeypatch):
    return ServerTime(monkeypatch)
