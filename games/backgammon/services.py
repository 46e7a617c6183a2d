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
from datetime import datetime, timedelta
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import services as clock_services
from games.backgammon import match as engine
from games.backgammon.models import BackgammonGame
from games.backgammon.scoring import Game, parse_game, points
from games.registry import MatchDecision, RuleError
from tournaments import access, audit, scheduling
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
        match, tournament = _lock(match_id)
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
        now = timezone.now()
        timeout = tournament.confirmation_timeout_seconds
        row = BackgammonGame.objects.create(
            match=match,
            number=len(games) + 1,
            winner_side=game.winner,
            kind=game.kind.value,
            cube=game.cube,
            ending=game.ending.value,
            cube_history=game.to_dict().get("cube_history"),
            points=points(game),
            status=Status.CONFIRMED if director else Status.PROVISIONAL,
            entered_by_entry=entry,
            entered_by_user=actor.user,
            confirm_deadline=None if director or not timeout else now + timedelta(seconds=timeout),
            confirmed_by_user=actor.user if director else None,
            confirmed_at=now if director else None,
            note=str(note or "")[:1000],
        )
        tournament_services.note_started(match)
        audit.record(tournament, actor, "backgammon.game_entered", match=match, after=game_state(row))
        if row.confirm_deadline:
            _schedule_confirmation(row)
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


def confirm_game(actor: Actor, game_id: int) -> BackgammonGame:
    """The opponent confirms a game (and every earlier game the same player entered
    that still waits); a director may confirm any open game, a disputed one too."""
    with transaction.atomic():
        row, match, tournament = _lock_game(game_id)
        director = access.is_director(actor, tournament)
        entry = None
        if not director:
            entry = access.require_player_of(actor, match)
            if row.entered_by_entry_id == entry.pk:
                raise DomainError(_("You entered this game; your opponent must confirm it."))
            if row.status == Status.DISPUTED:
                raise ConflictError(_("This game is disputed; the director decides it."))
        if row.status not in BackgammonGame.OPEN:
            raise ConflictError(
                _("This game is no longer waiting for confirmation (it is %(status)s).")
                % {"status": row.get_status_display().lower()}
            )
        tournament_services.require_running(tournament)
        earlier = BackgammonGame.objects.filter(match=match, status=Status.PROVISIONAL, number__lt=row.number)
        if entry is not None:
            earlier = earlier.exclude(entered_by_entry=entry)
        for game in [*earlier, row]:
            _mark_confirmed(game, actor, entry)
            audit.record(tournament, actor, "backgammon.game_confirmed", match=match, after=game_state(game))
        _decide_if_over(actor, tournament, match)
    return row


def dispute_game(actor: Actor, game_id: int, reason: str = "") -> BackgammonGame:
    with transaction.atomic():
        row, match, tournament = _lock_game(game_id)
        entry = access.require_player_of(actor, match)
        if row.entered_by_entry_id == entry.pk:
            raise DomainError(_("You entered this game; correct it instead of disputing it (ask the director)."))
        if row.status != Status.PROVISIONAL:
            raise ConflictError(
                _("This game is no longer waiting for confirmation (it is %(status)s).")
                % {"status": row.get_status_display().lower()}
            )
        reason = str(reason or "").strip()
        if len(reason) > 1000:
            raise DomainError(_("Keep the reason under 1000 characters."), field="reason")
        row.status = Status.DISPUTED
        row.disputed_by_entry = entry
        row.disputed_at = timezone.now()
        row.dispute_reason = reason
        row.save(update_fields=["status", "disputed_by_entry", "disputed_at", "dispute_reason"])
        audit.record(tournament, actor, "backgammon.game_disputed", match=match, after=game_state(row), message=reason)
    return row


def correct_last_game(actor: Actor, match_id: int, data: Mapping[str, Any], note: str = "") -> BackgammonGame:
    """The director replaces the last game (e.g. to settle a dispute); final at once."""
    with transaction.atomic():
        match, tournament = _lock(match_id)
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
        if match.decided_by:
            tournament_services.retract_decision(tournament, match)
        before = game_state(last)
        last.status = Status.SUPERSEDED
        last.save(update_fields=["status"])
        now = timezone.now()
        row = BackgammonGame.objects.create(
            match=match,
            number=last.number,
            winner_side=game.winner,
            kind=game.kind.value,
            cube=game.cube,
            ending=game.ending.value,
            cube_history=game.to_dict().get("cube_history"),
            points=points(game),
            status=Status.CONFIRMED,
            entered_by_user=actor.user,
            confirmed_by_user=actor.user,
            confirmed_at=now,
            note=str(note or "")[:1000],
        )
        audit.record(
            tournament,
            actor,
            "backgammon.game_corrected",
            match=match,
            before=before,
            after=game_state(row),
            message=note,
        )
        _decide_if_over(actor, tournament, match)
    return row


def undo_last_game(actor: Actor, match_id: int, reason: str = "") -> BackgammonGame:
    """The director takes the last game back; if it had decided the match, the match
    is reopened (refused while the next match has started)."""
    with transaction.atomic():
        match, tournament = _lock(match_id)
        access.require_director(actor, tournament)
        games = live_games(match)
        if not games:
            raise DomainError(_("No game has been entered in this match yet."))
        if match.decided_by and match.decided_by != Match.DecidedBy.RESULT:
            raise DomainError(_("This match was not decided by its games; undo its result instead."))
        if match.decided_by:
            tournament_services.retract_decision(tournament, match)
        last = games[-1]
        before = game_state(last)
        last.status = Status.UNDONE
        last.save(update_fields=["status"])
        audit.record(
            tournament,
            actor,
            "backgammon.game_undone",
            match=match,
            before=before,
            after=game_state(last),
            message=reason,
        )
    return last


def confirm_if_due(game_id: int, now: datetime | None = None) -> bool:
    """Confirm a provisional game whose confirmation timeout has passed (Celery);
    acts only if the game is still provisional and overdue, so it is safe to repeat."""
    now = now or timezone.now()
    match_id = BackgammonGame.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        return False
    with transaction.atomic():
        match, tournament = _lock(match_id)
        row = BackgammonGame.objects.filter(pk=game_id).first()
        if (
            row is None
            or row.status != Status.PROVISIONAL
            or row.confirm_deadline is None
            or row.confirm_deadline > now
            or tournament.status != Tournament.Status.RUNNING
        ):
            return False
        _mark_confirmed(row, access.SYSTEM, None, automatic=True)
        audit.record(tournament, access.SYSTEM, "backgammon.game_auto_confirmed", match=match, after=game_state(row))
        _decide_if_over(access.SYSTEM, tournament, match)
    return True


def confirm_overdue_games(now: datetime | None = None) -> int:
    now = now or timezone.now()
    due = BackgammonGame.objects.filter(status=Status.PROVISIONAL, confirm_deadline__lte=now).values_list(
        "pk", flat=True
    )
    return sum(confirm_if_due(pk, now) for pk in list(due))


# --- Reading the sheet (also used by the selectors) -----------------------------------
def live_games(match: Match) -> list[BackgammonGame]:
    """The games that count (confirmed or waiting), in order."""
    return list(match.backgammon_games.filter(status__in=BackgammonGame.LIVE).order_by("number"))


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
def _lock(match_id: int) -> tuple[Match, Tournament]:
    match, tournament = tournament_services.lock_match(match_id)
    if tournament.game_type != GAME_TYPE:
        raise DomainError(_("This is not a backgammon match."))
    return match, tournament


def _lock_game(game_id: int) -> tuple[BackgammonGame, Match, Tournament]:
    match_id = BackgammonGame.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise DomainError(_("There is no such game."))
    match, tournament = _lock(match_id)
    return BackgammonGame.objects.get(pk=game_id), match, tournament


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


def _mark_confirmed(row: BackgammonGame, actor: Actor, entry, automatic: bool = False) -> None:
    row.status = Status.CONFIRMED
    row.confirmed_at = timezone.now()
    row.confirmed_by_entry = entry
    row.confirmed_by_user = actor.user
    row.auto_confirmed = automatic
    row.save(update_fields=["status", "confirmed_at", "confirmed_by_entry", "confirmed_by_user", "auto_confirmed"])


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


def _schedule_confirmation(row: BackgammonGame) -> None:
    from games.backgammon.tasks import confirm_game_when_due

    scheduling.run_at(confirm_game_when_due, (row.pk,), row.confirm_deadline, f"backgammon game {row.pk}")
