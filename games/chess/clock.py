"""The chess clock of a mini-match (SPEC §5, §6): each game on its stage's time
control — the match games, then faster tie-breaks, Armageddon with White's longer time
— started afresh for every game. A flag fall is recorded as a game lost on time, held
for its final position (the opponent may be unable to checkmate) or the director."""

from __future__ import annotations

from typing import Any

from games.chess import plan
from games.registry import ClockSetup


class ChessClock:
    def setup(self, match: Any) -> ClockSetup | None:
        from games.chess import services

        settings = plan.clean_round_settings(match.round.settings)
        if settings["clock"] == "none":
            return None
        state = services.state_of(match)
        upcoming = state.next_game
        if upcoming is None:  # over: the clock of the first game, never to run
            first = state.plan.stages[0]
            return ClockSetup(controls=(first.white_control, first.white_control))
        return ClockSetup(
            controls=(upcoming.control_a, upcoming.control_b),
            required=settings["clock"] == "required",
            game_number=upcoming.number,
        )

    def on_flag(self, match: Any, side: str) -> None:
        from games.chess import services

        services.flag_fall(match, side)
