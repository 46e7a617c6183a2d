"""The backgammon score sheet as the pages and the API read it (``registry.GameSheet``).

Every reader here costs a fixed number of queries, whatever the number of matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games import game_log
from games.backgammon import match as engine
from games.backgammon.models import BackgammonGame
from games.registry import LiveState
from tournaments.models import Match, Tournament


@dataclass
class SheetView:
    """One match's sheet: the derived state and the games behind it."""

    match: Match
    state: engine.MatchState
    games: list[BackgammonGame]
    text: str

    @property
    def open_games(self) -> list[BackgammonGame]:
        return [g for g in self.games if g.is_open]

    @property
    def rows(self) -> list[tuple[BackgammonGame, engine.GameLine]]:
        return list(zip(self.games, self.state.lines, strict=True))

    @property
    def cube_values(self) -> tuple[int, ...]:
        return (1,) if not self.state.cube_allowed else (1, 2, 4, 8, 16, 32, 64)


def sheet_of(match: Match, games: list[BackgammonGame] | None = None) -> SheetView:
    if games is None:
        games = list(match.backgammon_games.filter(status__in=BackgammonGame.LIVE).order_by("number"))
    settings = engine.clean_round_settings(match.round.settings)
    state = engine.replay(settings["match_length"], settings["crawford"], [g.game for g in games])
    return SheetView(match=match, state=state, games=games, text=engine.describe(state).translate(gettext))


def state_data(view: SheetView) -> dict[str, Any]:
    """The derived match state as the API gives it."""
    state = view.state
    return {
        "match_length": state.length,
        "crawford_rule": state.crawford_rule,
        "score_a": state.score_a,
        "score_b": state.score_b,
        "away_a": state.away_a,
        "away_b": state.away_b,
        "games_played": state.games_played,
        "next_game_is_crawford": state.next_is_crawford,
        "post_crawford": state.post_crawford,
        "over": state.over,
        "winner": state.winner,
        "pending_games": [g.number for g in view.open_games],
        "text": view.text,
    }


@dataclass(frozen=True)
class PendingGame(game_log.PendingGame):
    game: BackgammonGame

    @property
    def summary(self) -> str:
        return gettext("game %(number)d: +%(points)d") % {"number": self.game.number, "points": self.game.points}


class BackgammonSheet:
    panel_template = "backgammon/sheet.html"
    public_template = "backgammon/public_sheet.html"

    def context(self, match: Match, *, entry: Any = None, director: bool = False) -> dict[str, Any]:
        view = sheet_of(match)
        waiting_for_me = game_log.waiting_for(entry, view.open_games)
        return {
            "sheet": view,
            "waiting_for_me": waiting_for_me,
            "can_enter": not match.decided_by
            and not view.state.over
            and not any(g.status == "disputed" for g in view.games),
        }

    def live_states(self, tournament: Tournament, matches: list[Match]) -> dict[int, LiveState]:
        playing = [m for m in matches if m.entry_a_id and m.entry_b_id and m.decided_by in ("", "result")]
        games: dict[int, list[BackgammonGame]] = {m.pk: [] for m in playing}
        for game in BackgammonGame.objects.filter(
            match__in=[m.pk for m in playing], status__in=BackgammonGame.LIVE
        ).order_by("match_id", "number"):
            games[game.match_id].append(game)
        states = {}
        for match in playing:
            view = sheet_of(match, games[match.pk])
            states[match.pk] = LiveState(
                score_a=view.state.score_a, score_b=view.state.score_b, text=view.text, data=state_data(view)
            )
        return states

    def pending(self, tournament: Tournament) -> list[PendingGame]:
        rows = game_log.open_rows(BackgammonGame, tournament)
        return [PendingGame(match=row.match, game=row) for row in rows]
