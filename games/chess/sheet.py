"""The chess mini-match as the pages and the API read it (``registry.GameSheet``).

Every reader here costs a fixed number of queries, whatever the number of matches.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from clocks.controls import TimeControl, format_pgn
from games import game_log
from games.chess import minimatch
from games.chess import services as chess_services
from games.chess.models import ChessGame, ColourLot
from games.chess.results import score_text
from games.game_log import GameRow
from games.registry import LiveState
from tournaments.models import Match, Tournament

STAGE_NAMES = {
    minimatch.StageKind.CLASSICAL: lambda: gettext("match games"),
    minimatch.StageKind.RAPID: lambda: gettext("rapid tie-break"),
    minimatch.StageKind.BLITZ: lambda: gettext("blitz tie-break"),
    minimatch.StageKind.ARMAGEDDON: lambda: gettext("Armageddon"),
}
TERMINATION_NAMES = {
    "checkmate": lambda: gettext("checkmate"),
    "resignation": lambda: gettext("resignation"),
    "flag": lambda: gettext("on time"),
    "agreed_draw": lambda: gettext("agreed draw"),
    "stalemate": lambda: gettext("stalemate"),
    "threefold_repetition": lambda: gettext("threefold repetition"),
    "fifty_move_rule": lambda: gettext("fifty-move rule"),
    "insufficient_material": lambda: gettext("neither can checkmate"),
    "forfeit": lambda: gettext("forfeit"),
    "arbiter": lambda: gettext("arbiter's decision"),
}


def describe_control(control: TimeControl) -> str:
    """A time control as a director says it: "90 min + 30 s" (PGN form in brackets
    when it has periods)."""
    periods = control.periods
    if len(periods) == 1 and not periods[0].moves:
        minutes = periods[0].time / 60000
        text = f"{minutes:g} min"
        if periods[0].increment:
            text += f" + {periods[0].increment / 1000:g} s"
            if control.increment_from_move > 1:
                text += " " + gettext("from move %(move)d") % {"move": control.increment_from_move}
        return text
    return format_pgn(control) or "?"


def short_control(control: TimeControl) -> str:
    """A time control as chess players write it: minutes + seconds a move ("90+30"),
    the PGN form when it has several periods."""
    periods = control.periods
    if len(periods) == 1 and not periods[0].moves:
        return f"{periods[0].time / 60000:g}+{periods[0].increment / 1000:g}"
    return format_pgn(control) or "?"


def stage_short(stage: minimatch.Stage) -> str:
    """A stage in a few characters: "2×10+5", "Armageddon 5+3 v 4+3"."""
    if stage.kind is minimatch.StageKind.ARMAGEDDON:
        armageddon = gettext("Armageddon")
        return f"{armageddon} {short_control(stage.white_control)} v {short_control(stage.black_control)}"
    return f"{stage.games}×{short_control(stage.white_control)}"


def stage_label(stage: minimatch.Stage) -> str:
    name = STAGE_NAMES[stage.kind]()
    if stage.kind is minimatch.StageKind.ARMAGEDDON:
        return gettext("%(name)s (White %(white)s, Black %(black)s; a draw sends Black through)") % {
            "name": name,
            "white": describe_control(stage.white_control),
            "black": describe_control(stage.black_control),
        }
    return f"{name}: {stage.games} × {describe_control(stage.white_control)}"


@dataclass
class GameRowView:
    row: ChessGame
    line: minimatch.GameLine

    @property
    def stage_name(self) -> str:
        return STAGE_NAMES[self.line.kind]()

    @property
    def score(self) -> str:
        return score_text(self.line.result.result)

    @property
    def how(self) -> str:
        return TERMINATION_NAMES[self.row.termination]()


@dataclass
class SheetView:
    """One match's mini-match: the derived state and the games behind it."""

    match: Match
    state: minimatch.MiniMatchState
    games: list[ChessGame]
    text: str

    @property
    def rows(self) -> list[GameRowView]:
        return [GameRowView(row, line) for row, line in zip(self.games, self.state.games, strict=True)]

    @property
    def open_games(self) -> list[ChessGame]:
        return [g for g in self.games if g.is_open]

    @property
    def blocked(self) -> bool:
        """A disputed game or one held for the director: no next game until it is settled."""
        return any(g.status in (GameRow.Status.DISPUTED, GameRow.Status.HELD) for g in self.games)

    @property
    def held(self) -> ChessGame | None:
        return next((g for g in self.games if g.status == GameRow.Status.HELD), None)

    @property
    def next_game(self) -> minimatch.NextGame | None:
        return self.state.next_game

    @property
    def next_stage(self) -> str:
        upcoming = self.state.next_game
        return stage_label(self.state.plan.stages[upcoming.stage]) if upcoming else ""

    @property
    def white_name(self) -> str:
        upcoming = self.state.next_game
        return str(self.match.entry_on(upcoming.white)) if upcoming else ""

    @property
    def black_name(self) -> str:
        upcoming = self.state.next_game
        return str(self.match.entry_on(upcoming.black)) if upcoming else ""

    @property
    def stages(self) -> list[str]:
        return [stage_label(stage) for stage in self.state.plan.stages]


def sheet_of(match: Match, games: list[ChessGame] | None = None, lots: list[ColourLot] | None = None) -> SheetView:
    if games is None:
        games = chess_services.live_games(match)
    state = chess_services.state_of(match, games, lots)
    return SheetView(match=match, state=state, games=games, text=describe(state))


def describe(state: minimatch.MiniMatchState) -> str:
    """ "0–0", "1½–½", "1–1, rapid tie-break 1–0" in the reader's language."""
    return minimatch.describe(state).translate(gettext)


def state_data(view: SheetView) -> dict[str, Any]:
    """The derived mini-match as the API gives it."""
    state = view.state
    upcoming = state.next_game
    return {
        "score_a": state.score_a,
        "score_b": state.score_b,
        "stage_scores": [list(scores) for scores in state.stage_scores],
        "games_played": state.games_played,
        "stage": state.stage.kind.value,
        "next_game": None
        if upcoming is None
        else {
            "number": upcoming.number,
            "stage": upcoming.kind.value,
            "number_in_stage": upcoming.number_in_stage,
            "white": upcoming.white,
            "black": upcoming.black,
            "time_control_a": format_pgn(upcoming.control_a),
            "time_control_b": format_pgn(upcoming.control_b),
        },
        "over": state.over,
        "winner": state.winner,
        "decided_in": state.decided_in.value if state.decided_in else None,
        "armageddon_draw_odds_used": state.armageddon_draw_odds_used,
        "undecided": state.undecided,
        "pending_games": [g.number for g in view.open_games],
        "held_game": view.held.pk if view.held else None,
        "summary": chess_services.score_summary(state),
        "text": view.text,
    }


@dataclass(frozen=True)
class PendingGame(game_log.PendingGame):
    game: ChessGame

    @property
    def summary(self) -> str:
        return gettext("game %(number)d: %(score)s") % {
            "number": self.game.number,
            "score": score_text(self.game.game_result.result),
        }


class ChessSheet:
    panel_template = "chess/sheet.html"
    public_template = "chess/public_sheet.html"

    def context(self, match: Match, *, entry: Any = None, director: bool = False) -> dict[str, Any]:
        view = sheet_of(match)
        waiting_for_me = game_log.waiting_for(entry, view.open_games)
        return {
            "sheet": view,
            "waiting_for_me": waiting_for_me,
            "can_enter": not match.decided_by and view.state.next_game is not None and not view.blocked,
        }

    def live_states(self, tournament: Tournament, matches: list[Match]) -> dict[int, LiveState]:
        playing = [m for m in matches if m.entry_a_id and m.entry_b_id and m.decided_by in ("", "result")]
        ids = [m.pk for m in playing]
        games: dict[int, list[ChessGame]] = {pk: [] for pk in ids}
        for game in ChessGame.objects.filter(match__in=ids, status__in=GameRow.LIVE).order_by("match_id", "number"):
            games[game.match_id].append(game)
        lots: dict[int, list[ColourLot]] = {pk: [] for pk in ids}
        for lot in ColourLot.objects.filter(match__in=ids):
            lots[lot.match_id].append(lot)
        states = {}
        for match in playing:
            view = sheet_of(match, games[match.pk], lots[match.pk])
            text = view.text
            upcoming = view.state.next_game
            if upcoming and upcoming.kind is not minimatch.StageKind.CLASSICAL and upcoming.number_in_stage == 1:
                text += " · " + STAGE_NAMES[upcoming.kind]()  # a tie-break stage about to begin
            states[match.pk] = LiveState(
                score_a=view.state.score_a, score_b=view.state.score_b, text=text, data=state_data(view)
            )
        return states

    def pending(self, tournament: Tournament) -> list[PendingGame]:
        rows = game_log.open_rows(ChessGame, tournament)
        return [PendingGame(match=row.match, game=row) for row in rows]
