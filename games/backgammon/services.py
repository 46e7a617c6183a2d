"""Writing a backgammon match's score sheet: each game entered, confirmed, disputed,
corrected or undone (the only writers of ``BackgammonGame``).

A player's game is provisional until the opponent confirms it (or the tournament's
confirmation timeout passes without a dispute); a director's game is final at once.
When the confirmed games bring a player to N points, the match is decided through
``tournaments.services`` and the winner moves on. Every function takes the
tournament's lock first (``lock_match``), like every other writer.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clocks import services as clock_services
from games.backgammon import match as engine
from games.backgammon.models import BackgammonGame
from games.backgammon.scoring import Game, parse_game, points
from games.game_log import GameLog, register
from games.registry import MatchDecision, RuleError
from tournaments import access
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError, readable
from tournaments.models import Match, Tournament

GAME_TYPE = "backgammon"
Status = BackgammonGame.Status


def record_game(actor: Actor, match_id: int, data: Mapping[str, Any], note: str = "") -> BackgammonGame:
    """A game has ended: its winner, kind, cube and ending (see ``scoring``).

    With a match clock, a game recorded after the running side's reserve ran out is
    refused (the match is lost on time), and recording a game halts the clock until
    the next game's first tap."""
    if clock_services.enforce_due_for_match(match_id) is not None:
        raise ConflictError(_("The match clock ran out before this game was recorded: the match is lost on time."))
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        director = access.is_director(actor, tournament)
        entry = None if director else access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        tournament_services.require_playable(match)
        if match.decided_by:
            raise ConflictError(_("This match is decided; no game can be added."))
        if not director:
            clock_services.require_clock_running_if_required(match)
        games = live_games(match)
        disputed = next((g for g in games if g.status == Status.DISPUTED), None)
        if disputed is not None:
            raise ConflictError(
                _("Game %(number)d is disputed: the director decides it before the next game is entered.")
                % {"number": disputed.number}
            )
        game = _parse(match, data)
        state = _state(match, games)
        try:
            engine.add_game(state, game)
        except RuleError as error:
            raise DomainError(readable(error), field="game") from None
        row = LOG.new_row(
            actor,
            tournament,
            match,
            len(games) + 1,
            final=director,
            entry=entry,
            note=note,
            **_fields(game),
        )
        tournament_services.note_started(match)
        LOG.audit(tournament, actor, "game_entered", match, after=game_state(row))
        clock_services.halt(match)
        _decide_if_over(actor, tournament, match)
    return row


def lose_on_time(match: Match, side: str) -> None:
    """The match clock ran out for ``side`` (called by the clock's enforcement with the
    tournament locked): the opponent wins the match and moves on (SPEC §3.2)."""
    if match.decided_by:
        return
    games = live_games(match)
    state = _state(match, [g for g in games if g.status == Status.CONFIRMED])
    winner = "b" if side == "a" else "a"
    decision = MatchDecision(
        winner=winner,
        score_a=state.score_a,
        score_b=state.score_b,
        summary=f"{state.score_a}–{state.score_b}, " + _("won on time"),
        result={
            "games": [game_state(g) for g in games],
            "match_length": state.length,
            "lost_on_time": side,
        },
    )
    tournament_services.decide_by_sheet(access.SYSTEM, match.tournament, match, decision)


def correct_last_game(actor: Actor, match_id: int, data: Mapping[str, Any], note: str = "") -> BackgammonGame:
    """The director replaces the last game (e.g. to settle a dispute); final at once."""
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        access.require_director(actor, tournament)
        tournament_services.require_running(tournament)
        games = live_games(match)
        if not games:
            raise DomainError(_("No game has been entered in this match yet."))
        last = games[-1]
        game = _parse(match, data)
        try:
            engine.add_game(_state(match, games[:-1]), game)
        except RuleError as error:
            raise DomainError(readable(error), field="game") from None
        before = game_state(last)
        LOG.supersede_last(actor, tournament, match, games)
        row = LOG.new_row(actor, tournament, match, last.number, final=True, note=note, **_fields(game))
        LOG.audit(tournament, actor, "game_corrected", match, before=before, after=game_state(row), message=note)
        _decide_if_over(actor, tournament, match)
    return row


# --- Reading the sheet (also used by the selectors) -----------------------------------
def live_games(match: Match) -> list[BackgammonGame]:
    """The games that count (confirmed or waiting), in order."""
    return LOG.live_games(match)


def match_settings(match: Match) -> tuple[int, bool]:
    settings = engine.clean_round_settings(match.round.settings)
    return settings["match_length"], settings["crawford"]


def _state(match: Match, games: list[BackgammonGame]) -> engine.MatchState:
    length, crawford = match_settings(match)
    return engine.replay(length, crawford, [g.game for g in games])


def game_state(row: BackgammonGame) -> dict[str, Any]:
    return {
        "game": row.pk,
        "number": row.number,
        "status": row.status,
        "points": row.points,
        **row.game.to_dict(),
    }


# --- Internals -----------------------------------------------------------------------
def _parse(match: Match, data: Mapping[str, Any]) -> Game:
    """Read a game; the winner may be named by slot ("a"/"b") or by entry id."""
    if not isinstance(data, Mapping):
        raise DomainError(_('A game is an object such as {"winner": "a", "kind": "single", "cube": 1}.'))
    data = dict(data)
    winner = data.get("winner")
    if winner not in ("a", "b") and winner not in (None, ""):
        side = match.side_of_id(winner)
        if side is None:
            raise DomainError(
                _("Player %(entry)s is not playing in this match; the winner must be %(a)s or %(b)s.")
                % {"entry": winner, "a": match.entry_a, "b": match.entry_b},
                field="winner",
            )
        data["winner"] = side
    try:
        return parse_game(data)
    except RuleError as error:
        raise DomainError(readable(error), field="game") from None


def _decide_if_over(actor: Actor, tournament: Tournament, match: Match) -> None:
    """When every game counts and someone has reached N, the match is decided."""
    games = live_games(match)
    if not games or any(g.status != Status.CONFIRMED for g in games) or match.decided_by:
        return
    state = _state(match, games)
    if not state.over:
        return
    summary = f"{state.score_a}–{state.score_b}"
    decision = MatchDecision(
        winner=state.winner,
        score_a=state.score_a,
        score_b=state.score_b,
        summary=summary,
        result={"games": [game_state(g) for g in games], "match_length": state.length},
    )
    tournament_services.decide_by_sheet(actor, tournament, match, decision)


def _fields(game: Game) -> dict[str, Any]:
    return {
        "winner_side": game.winner,
        "kind": game.kind.value,
        "cube": game.cube,
        "ending": game.ending.value,
        "cube_history": game.to_dict().get("cube_history"),
        "points": points(game),
    }


LOG = register(
    GameLog(
        model=BackgammonGame,
        game_type=GAME_TYPE,
        describe=game_state,
        after_change=_decide_if_over,
        not_this_game=gettext_lazy("This is not a backgammon match."),
    )
)
confirm_game = LOG.confirm
dispute_game = LOG.dispute
undo_last_game = LOG.undo_last
confirm_if_due = LOG.confirm_if_due
confirm_overdue_games = LOG.confirm_overdue
