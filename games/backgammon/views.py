"""The score sheet's buttons: players (through their private link) and directors add,
confirm, dispute, correct and undo games; anyone downloads the match record."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.backgammon import services
from games.backgammon.forms import game_from_form
from games.backgammon.matfile import MatchInfo, match_record
from games.backgammon.sheet import sheet_of
from games.registry import RuleError
from tournaments import access, selectors
from tournaments.errors import DomainError, readable
from tournaments.views import director as director_views
from tournaments.views import player as player_views
from tournaments.views.common import actor_of, run


@require_POST
def player_add_game(request, key: str, match_id: int):
    entry = selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = selectors.match_for(actor, entry.tournament, match_id)
    access.require_player_of(actor, match)
    try:
        services.record_game(actor, match.pk, game_from_form(request.POST))
    except (RuleError, DomainError) as error:
        return player_views.match_page(request, entry, match, error=readable(error), status=_status(error))
    messages.success(request, _("Game entered. Your opponent confirms it (or the director)."))
    return redirect("player:match", key=key, match_id=match.pk)


@require_POST
def player_confirm_game(request, key: str, game_id: int):
    entry = selectors.entry_by_key(key)
    game = run(request, services.confirm_game, actor_of(request, entry), game_id, success=_("Game confirmed."))
    return _back_to_player(key, game)


@require_POST
def player_dispute_game(request, key: str, game_id: int):
    entry = selectors.entry_by_key(key)
    game = run(
        request,
        services.dispute_game,
        actor_of(request, entry),
        game_id,
        request.POST.get("reason", ""),
        success=_("Game disputed. The director will decide."),
    )
    return _back_to_player(key, game)


def _back_to_player(key: str, game):
    if game is not None:
        return redirect("player:match", key=key, match_id=game.match_id)
    return redirect("player:home", key=key)


@login_required
@require_POST
def director_add_game(request, slug: str, match_id: int):
    return _director_game_action(request, slug, match_id, services.record_game, _("Game saved."))


@login_required
@require_POST
def director_correct_last_game(request, slug: str, match_id: int):
    return _director_game_action(request, slug, match_id, services.correct_last_game, _("Last game corrected."))


def _director_game_action(request, slug: str, match_id: int, service, success: str):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    try:
        service(actor, match.pk, game_from_form(request.POST), request.POST.get("note", ""))
    except (RuleError, DomainError) as error:
        return director_views.match_detail(
            request, slug, match_id, error=readable(error), posted=request.POST, status=_status(error)
        )
    messages.success(request, success)
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def director_undo_last_game(request, slug: str, match_id: int):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    run(
        request,
        services.undo_last_game,
        actor,
        match.pk,
        request.POST.get("reason", ""),
        success=_("Last game undone."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def director_confirm_game(request, slug: str, game_id: int):
    actor, tournament = director_views.directed(request, slug)
    game = run(request, services.confirm_game, actor, game_id, success=_("Game confirmed."))
    if game is not None:
        return redirect("director:match", slug=slug, match_id=game.match_id)
    return redirect("director:dashboard", slug=slug)


def match_record_file(request, slug: str, match_id: int):
    """The match as a plain-text match record (``.mat``), games' results only."""
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    match = selectors.match_for(actor, tournament, match_id)
    if tournament.game_type != services.GAME_TYPE or match.entry_a is None or match.entry_b is None:
        raise PermissionDenied(_("Only a backgammon match between two players has a match record."))
    view = sheet_of(match)
    info = MatchInfo(
        event=tournament.name,
        round=selectors.describe_match(match),
        site=tournament.venue,
        date=(tournament.starts_on or match.started_at or tournament.created_at).strftime("%Y.%m.%d"),
        player_a=match.entry_a.name,
        player_b=match.entry_b.name,
    )
    response = HttpResponse(match_record(info, view.state), content_type="text/plain; charset=utf-8")
    name = slugify(f"{tournament.slug}-{match.entry_a.name}-{match.entry_b.name}") or "match"
    response["Content-Disposition"] = f'attachment; filename="{name}.mat"'
    return response


def _status(error: Exception) -> int:
    return getattr(error, "status_code", 400)
