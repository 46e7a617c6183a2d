"""The Scrabble move clock (SPEC §4.2, §6): 2 minutes per move by default, or a
whole-game allowance like a chess clock. The score sheet presses it: recording a move
ends that player's time and starts the opponent's. A move not made in time is recorded
as a timeout pass (which counts towards the scoreless turns that end a game); with a
whole-game allowance, a player whose time is used up can only pass from then on."""

from __future__ import annotations

from typing import Any

from clocks import controls
from games.registry import ClockSetup

NO_CLOCK = "none"
PER_MOVE = "per_move"
WHOLE_GAME = "whole_game"
DEFAULT_MOVE_SECONDS = 120
DEFAULT_GAME_MINUTES = 20


class ScrabbleClock:
    def setup(self, match: Any) -> ClockSetup | None:
        settings = match.tournament.game.clean_settings(match.tournament.settings)
        if settings["clock"] == PER_MOVE:
            control = controls.per_move(settings["move_seconds"])
        elif settings["clock"] == WHOLE_GAME:
            control = controls.sudden_death(settings["game_minutes"] * 60)
        else:
            return None
        return ClockSetup(controls=(control, control), flag_passes_turn=True, presses_from_sheet=True)

    def on_flag(self, match: Any, side: str) -> None:
        from games.scrabble import services

        services.record_timeout(match, side)
