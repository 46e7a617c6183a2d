"""The backgammon match clock (SPEC §3.2, §6): each player's reserve for the whole
match (minutes per point × the match length), a simple delay per move, the reserve
carried from game to game. The players tap it; it is halted between games (a recorded
game stops it) and started again by the first tap of the next game. Running out of
reserve loses the match."""

from __future__ import annotations

from typing import Any

from clocks import controls
from games.backgammon import match as engine
from games.registry import ClockSetup


class BackgammonClock:
    def setup(self, match: Any) -> ClockSetup | None:
        settings = engine.clean_round_settings(match.round.settings)
        if settings["clock"] == "none":
            return None
        control = controls.backgammon_match_clock(
            settings["match_length"], settings["clock_minutes_per_point"], settings["clock_delay"]
        )
        return ClockSetup(controls=(control, control), required=settings["clock"] == "required")

    def on_flag(self, match: Any, side: str) -> None:
        from games.backgammon import services

        services.lose_on_time(match, side)
