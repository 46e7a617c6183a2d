"""The chess sheet's buttons: the shared ones of games confirmed one by one
(``games.sheet_views``), the final position of a game lost on time, the director's
colour lots and decision of a level match; and the records anyone downloads (PGN of a
match or of the tournament, the FIDE report TRF)."""

from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.shortcuts import redirect
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.chess import exports, services
from games.chess.forms import game_from_form
from games.sheet_views import GameSheetViews
from tournaments import selectors
from tournaments.views import director as director_views
from tournaments.views.common import actor_of, run

SHEET = GameSheetViews(
    log=services.LOG,
    record_game=services.record_game,
    correct_last_game=services.correct_last_game,
    game_from_form=game_from_form,
)


@require_POST
def player_final_position(request, key: str, game_id: int):
    entry = selectors.entry_by_key(key)
    game = run(
        request,
        services.enter_final_position,
        actor_of(request, entry),
        game_id,
        request.POST.get("fen", ""),
        success=_("Final position entered. Your opponent confirms the result."),
    )
    return SHEET.back_to_player(key, game)


@login_required
@require_POST
def director_final_position(request, slug: str, game_id: int):
    actor, tournament = director_views.directed(request, slug)
    game = run(
        request,
        services.enter_final_position,
        actor,
        game_id,
        request.POST.get("fen", ""),
        success=_("Final position entered; the result follows from it."),
    )
    return director_views.back_to_match(slug, game.match_id if game is not None else None)


@login_required
@require_POST
def director_draw_colours(request, slug: str, match_id: int):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    run(
        request,
        services.draw_colours,
        actor,
        match.pk,
        request.POST.get("purpose", ""),
        request.POST.get("white", ""),
        success=_("Colours recorded."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def director_decide_level_match(request, slug: str, match_id: int):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    run(
        request,
        services.decide_level_match,
        actor,
        match.pk,
        request.POST.get("winner", ""),
        request.POST.get("reason", ""),
        success=_("Match decided."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


def _chess_tournament(request, slug: str):
    tournament = selectors.tournament_for(actor_of(request), slug)
    if tournament.game_type != services.GAME_TYPE:
        raise PermissionDenied(_("Only a chess tournament has PGN and TRF records."))
    return tournament


def _download(text: str, name: str, content_type: str) -> HttpResponse:
    response = HttpResponse(text, content_type=f"{content_type}; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def match_pgn_file(request, slug: str, match_id: int):
    tournament = _chess_tournament(request, slug)
    match = selectors.match_for(actor_of(request), tournament, match_id)
    if match.entry_a is None or match.entry_b is None:
        raise PermissionDenied(_("Only a match between two players has games."))
    name = slugify(f"{tournament.slug}-{match.entry_a.name}-{match.entry_b.name}") or "match"
    return _download(exports.match_pgn(match), f"{name}.pgn", "application/x-chess-pgn")


def tournament_pgn_file(request, slug: str):
    tournament = _chess_tournament(request, slug)
    return _download(exports.tournament_pgn(tournament), f"{tournament.slug}.pgn", "application/x-chess-pgn")


def tournament_trf_file(request, slug: str):
    tournament = _chess_tournament(request, slug)
    return _download(exports.tournament_trf(tournament), f"{tournament.slug}.trf", "text/plain")
