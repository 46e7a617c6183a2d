"""What the clocks' tests share: the server's time under the test's control, and a
Scrabble event with a per-move clock."""

from datetime import timedelta

import pytest

from clocks import services as clock_services
from tests.conftest import make_tournament


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


def scrabble_event(director, players=4, seconds=120):
    """A Scrabble knockout of ``players`` whose matches have a per-move clock of ``seconds``."""
    return make_tournament(
        director,
        players=players,
        game_type="scrabble",
        round_plan="1",
        settings={"clock": "per_move", "move_seconds": seconds},
    )
