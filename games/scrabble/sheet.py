"""The Scrabble score sheet (partiář) as the pages and the API read it
(``registry.GameSheet``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext

from games.registry import LiveState
from games.scrabble import game as engine
from games.scrabble import match as match_engine
from games.scrabble import services
from games.scrabble.board import CENTER, PREMIUMS, SIZE, square_name
from games.scrabble.models import ScrabbleGame, ScrabbleProtest, ScrabbleTurn
from tournaments.models import Match, Tournament

COLUMNS = "ABCDEFGHIJKLMNO"


@dataclass
class Cell:
    name: str
    premium: str  # "", "DL", "TL", "DW", "TW"
    letter: str = ""
    points: int | None = None
    blank: bool = False
    last_move: bool = False
    centre: bool = False


@dataclass
class TurnRow:
    row: ScrabbleTurn
    line: engine.TurnLine
    description: str
    protests: list[tuple[ScrabbleProtest, engine.ProtestLine]]

    @property
    def side(self) -> str:
        return self.row.player


@dataclass
class GameView:
    game: ScrabbleGame
    state: engine.GameState
    turns: list[TurnRow]

    @property
    def on_turn(self) -> str:
        return services.INDEX_SIDE[self.state.on_turn]

    @property
    def last(self) -> TurnRow | None:
        return self.turns[-1] if self.turns else None

    @property
    def last_open(self) -> TurnRow | None:
        """The last turn, if it can still be protested or accepted."""
        last = self.last
        if last is None or last.row.accepted_at is not None or self.state.finished:
            return None
        if last.row.kind not in (engine.TurnKind.PLACE, engine.TurnKind.EXCHANGE):
            return None  # a pass has nothing to protest
        return last

    @property
    def pending_protests(self) -> list[ScrabbleProtest]:
        return [p for t in self.turns for p, line in t.protests if line.verdict == engine.Verdict.PENDING]

    def board_rows(self) -> list[list[Cell]]:
        last_squares = set()
        last = self.last
        if last and last.line.placement and not last.line.void:
            last_squares = {placed.square for placed in last.line.placement.new_tiles}
        tile_set = self.state.settings.tile_set
        rows = []
        for r in range(SIZE):
            row = []
            for c in range(SIZE):
                premium = PREMIUMS.get((r, c))
                cell = Cell(name=square_name((r, c)), premium=premium.value if premium else "", centre=(r, c) == CENTER)
                tile = self.state.board.get((r, c))
                if tile is not None:
                    cell.letter = tile.letter.lower() if tile.blank else tile.letter
                    cell.blank = tile.blank
                    cell.points = 0 if tile.blank else tile_set.points(tile.letter)
                    cell.last_move = (r, c) in last_squares
                row.append(cell)
            rows.append(row)
        return rows

    @property
    def column_names(self) -> str:
        return COLUMNS


@dataclass
class MatchView:
    match: Match
    games: list[GameView]
    state: match_engine.MatchState
    word_list: bool

    @property
    def current(self) -> GameView | None:
        return self.games[-1] if self.games else None


def game_view(settings: engine.Settings, game: ScrabbleGame) -> GameView:
    rows, facts = services.game_facts(game)
    state = services.replay_game(settings, game, facts)
    turns = []
    for row, line in zip(rows, state.lines, strict=True):
        protests = list(zip(sorted(row.protests.all(), key=lambda p: p.pk), line.protests, strict=True))
        turns.append(
            TurnRow(row=row, line=line, description=engine.describe_turn(line).translate(gettext), protests=protests)
        )
    return GameView(game=game, state=state, turns=turns)


def match_view(match: Match) -> MatchView:
    tournament = match.tournament
    settings = services.engine_settings(tournament)
    games = [game_view(settings, g) for g in match.scrabble_games.order_by("number")]
    round_settings = match_engine.clean_round_settings(match.round.settings)
    results = [match_engine.GameResult(g.game.score_a, g.game.score_b) for g in games if g.game.finished]
    state = match_engine.match_state(round_settings["best_of"], results, round_settings["spread_cap"])
    return MatchView(match=match, games=games, state=state, word_list=hasattr(tournament, "scrabble_word_list"))


def live_text(state: match_engine.MatchState, current: ScrabbleGame | None) -> str:
    wins = gettext("%(a)s–%(b)s in games") % {"a": _wins(state.wins_a), "b": _wins(state.wins_b)}
    if current is not None and not current.finished and not state.over:
        return (
            wins
            + ", "
            + gettext("game %(number)d: %(a)d–%(b)d")
            % {
                "number": current.number,
                "a": current.score_a,
                "b": current.score_b,
            }
        )
    return wins


def _wins(value: float) -> str:
    whole = int(value)
    return f"{whole or ''}½" if value - whole else str(whole)


class ScrabbleSheet:
    panel_template = "scrabble/sheet.html"
    public_template = "scrabble/public_sheet.html"

    def context(self, match: Match, *, entry: Any = None, director: bool = False) -> dict[str, Any]:
        view = match_view(match)
        side = match.side_of(entry) if entry is not None else None
        current = view.current
        playing = not match.decided_by and not view.state.over
        if current is None or current.game.finished:
            # The next game starts with its first turn.
            state, on_turn = None, services.starter_of(len(view.games) + 1)
        else:
            state = current.state
            on_turn = None if state.ended else services.INDEX_SIDE[state.on_turn]
        ended_unfinished = bool(state and state.ended and not state.finished)
        forced_due = bool(state and on_turn and state.forced_passes_due[services.SIDE_INDEX[on_turn]])
        last_open = current.last_open if current else None
        players, winner_name = [], ""
        if current is not None:
            cs = current.state
            shown = cs.final_scores or cs.scores
            for index, (side, entry_of_side) in enumerate((("a", match.entry_a), ("b", match.entry_b))):
                players.append(
                    {
                        "side": side,
                        "name": entry_of_side.name,
                        "score": shown[index],
                        "cross_marks": "✗" * cs.crosses[index],
                        "rack": cs.racks[index],
                        "on_turn": side == on_turn,
                    }
                )
            if cs.winner is not None:
                winner_name = players[cs.winner]["name"]
        return {
            "scrabble": view,
            "players": players,
            "winner_name": winner_name,
            "viewer_side": side,
            "on_turn": on_turn,
            "can_enter": playing
            and not ended_unfinished
            and not (current and current.pending_protests)
            and (director or side == on_turn or (side is not None and forced_due)),
            "can_protest": playing
            and last_open is not None
            and (director or (side is not None and side != last_open.side)),
            "needs_end_racks": playing and ended_unfinished,
            "forced_pass_due": forced_due and side == on_turn,
        }

    def live_states(self, tournament: Tournament, matches: list[Match]) -> dict[int, LiveState]:
        playing = [m for m in matches if m.entry_a_id and m.entry_b_id and m.decided_by in ("", "result")]
        games: dict[int, list[ScrabbleGame]] = {m.pk: [] for m in playing}
        for game in ScrabbleGame.objects.filter(match__in=[m.pk for m in playing]).order_by("match_id", "number"):
            games[game.match_id].append(game)
        states = {}
        for match in playing:
            settings = match_engine.clean_round_settings(match.round.settings)
            results = [match_engine.GameResult(g.score_a, g.score_b) for g in games[match.pk] if g.finished]
            state = match_engine.match_state(settings["best_of"], results, settings["spread_cap"])
            current = games[match.pk][-1] if games[match.pk] else None
            states[match.pk] = LiveState(
                score_a=state.wins_a,
                score_b=state.wins_b,
                text=live_text(state, current),
                data={
                    "best_of": state.best_of,
                    "wins_a": state.wins_a,
                    "wins_b": state.wins_b,
                    "spread": state.spread,
                    "games_played": len(games[match.pk]),
                    "games": [
                        {"number": g.number, "score_a": g.score_a, "score_b": g.score_b, "finished": g.finished}
                        for g in games[match.pk]
                    ],
                    "over": state.over,
                    "winner": state.winner,
                    "pending_games": [g.number for g in games[match.pk] if not g.finished],
                    "text": live_text(state, current),
                },
            )
        return states

    def pending(self, tournament: Tournament) -> list[Any]:
        protests = (
            ScrabbleProtest.objects.filter(
                turn__game__match__tournament=tournament, verdict=engine.Verdict.PENDING, turn__status="live"
            )
            .select_related("turn__game__match__entry_a", "turn__game__match__entry_b")
            .order_by("raised_at")
        )
        return [PendingProtest(p) for p in protests]


@dataclass(frozen=True)
class PendingProtest:
    """A word protest waiting for the director's verdict (the overview lists it)."""

    protest: ScrabbleProtest
    status: str = "disputed"

    @property
    def match(self) -> Match:
        return self.protest.turn.game.match

    @property
    def summary(self) -> str:
        return gettext("word protest: %(word)s") % {"word": self.protest.word}

    @property
    def status_label(self) -> str:
        return gettext("Waiting for a verdict")

    @property
    def reason(self) -> str:
        return ""
