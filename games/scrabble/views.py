"""The Scrabble sheet's buttons: players (through their private link) and directors
enter turns, check a move before sending it, protest, accept, decide protests, undo,
enter the racks left, upload the word list; anyone downloads a game as GCG."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.registry import RuleError
from games.scrabble import services
from games.scrabble.gcg import game_record
from games.scrabble.models import ScrabbleGame
from games.scrabble.sheet import game_view
from tournaments import access, selectors
from tournaments.errors import DomainError, readable
from tournaments.views import director as director_views
from tournaments.views import player as player_views
from tournaments.views.common import actor_of, run

TURN_FIELDS = ("position", "word", "announced", "exchanged")


def turn_from_form(post, action: str) -> dict:
    data = {name: post.get(name, "") for name in TURN_FIELDS}
    data["kind"] = action
    data["as_played"] = post.get("as_played") == "on"
    if post.get("player"):
        data["player"] = post["player"]
    if action != "place":
        data.update(position="", word="", announced=0)
    if action != "exchange":
        data["exchanged"] = 0
    return data


@require_POST
def player_turn(request, key: str, match_id: int):
    entry = selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = selectors.match_for(actor, entry.tournament, match_id)
    access.require_player_of(actor, match)
    action = request.POST.get("action", "place")
    data = turn_from_form(request.POST, "place" if action == "check" else action)
    try:
        if action == "check":
            line = services.preview_turn(actor, match.pk, data)
            return player_views.match_page(request, entry, match, posted=request.POST, extra={"preview": line})
        services.record_turn(actor, match.pk, data)
    except (RuleError, DomainError) as error:
        return player_views.match_page(
            request, entry, match, error=readable(error), posted=request.POST, status=getattr(error, "status_code", 400)
        )
    messages.success(request, _("Turn entered."))
    return redirect("player:match", key=key, match_id=match.pk)


@require_POST
def player_accept(request, key: str, turn_id: int):
    entry = selectors.entry_by_key(key)
    turn = run(request, services.accept_turn, actor_of(request, entry), turn_id, success=_("Turn accepted."))
    return _back_to_player(key, turn)


@require_POST
def player_protest(request, key: str, turn_id: int):
    entry = selectors.entry_by_key(key)
    protest = run(
        request,
        services.raise_protest,
        actor_of(request, entry),
        turn_id,
        request.POST.get("kind", ""),
        request.POST.get("word", ""),
        success=_("Protest raised."),
    )
    return _back_to_player(key, protest.turn if protest else None)


@require_POST
def player_end_racks(request, key: str, game_id: int):
    entry = selectors.entry_by_key(key)
    game = run(
        request,
        services.enter_end_racks,
        actor_of(request, entry),
        game_id,
        [request.POST.get("rack_a", ""), request.POST.get("rack_b", "")],
        success=_("Racks entered: the game is finished."),
    )
    if game is not None:
        return redirect("player:match", key=key, match_id=game.match_id)
    found = ScrabbleGame.objects.filter(pk=game_id).first()
    return redirect("player:match", key=key, match_id=found.match_id) if found else redirect("player:home", key=key)


def _back_to_player(key: str, turn):
    if turn is not None:
        return redirect("player:match", key=key, match_id=turn.game.match_id)
    return redirect("player:home", key=key)


@login_required
@require_POST
def director_turn(request, slug: str, match_id: int):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    action = request.POST.get("action", "place")
    data = turn_from_form(request.POST, "place" if action == "check" else action)
    try:
        if action == "check":
            line = services.preview_turn(actor, match.pk, data)
            return director_views.match_detail(request, slug, match_id, posted=request.POST, extra={"preview": line})
        services.record_turn(actor, match.pk, data)
    except (RuleError, DomainError) as error:
        return director_views.match_detail(
            request,
            slug,
            match_id,
            error=readable(error),
            posted=request.POST,
            status=getattr(error, "status_code", 400),
        )
    messages.success(request, _("Turn entered."))
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def director_protest(request, slug: str, turn_id: int):
    actor, tournament = director_views.directed(request, slug)
    protest = run(
        request,
        services.raise_protest,
        actor,
        turn_id,
        request.POST.get("kind", ""),
        request.POST.get("word", ""),
        request.POST.get("protester") or None,
        success=_("Protest raised."),
    )
    return director_views.back_to_match(slug, protest.turn.game.match_id if protest else None)


@login_required
@require_POST
def director_accept(request, slug: str, turn_id: int):
    actor, tournament = director_views.directed(request, slug)
    turn = run(request, services.accept_turn, actor, turn_id, success=_("Turn accepted."))
    return director_views.back_to_match(slug, turn.game.match_id if turn else None)


@login_required
@require_POST
def director_verdict(request, slug: str, protest_id: int):
    actor, tournament = director_views.directed(request, slug)
    protest = run(
        request,
        services.decide_protest,
        actor,
        protest_id,
        request.POST.get("verdict", ""),
        success=_("Verdict recorded."),
    )
    return director_views.back_to_match(slug, protest.turn.game.match_id if protest else None)


@login_required
@require_POST
def director_undo_last_turn(request, slug: str, match_id: int):
    actor, tournament = director_views.directed(request, slug)
    match = selectors.match_for(actor, tournament, match_id)
    run(
        request,
        services.undo_last_turn,
        actor,
        match.pk,
        request.POST.get("reason", ""),
        success=_("Last turn undone."),
    )
    return redirect("director:match", slug=slug, match_id=match_id)


@login_required
@require_POST
def director_end_racks(request, slug: str, game_id: int):
    actor, tournament = director_views.directed(request, slug)
    game = run(
        request,
        services.enter_end_racks,
        actor,
        game_id,
        [request.POST.get("rack_a", ""), request.POST.get("rack_b", "")],
        success=_("Racks entered: the game is finished."),
    )
    found = game or ScrabbleGame.objects.filter(pk=game_id).first()
    return director_views.back_to_match(slug, found.match_id if found else None)


@login_required
def word_list(request, slug: str):
    """The tournament's word list: a plain text file of valid words, one per line."""
    actor, tournament = director_views.directed(request, slug)
    error = ""
    if request.method == "POST":
        upload = request.FILES.get("file")
        try:
            if upload is None:
                raise DomainError(_("Choose a text file with one word per line."), field="file")
            try:
                text = upload.read().decode("utf-8-sig")
            except UnicodeDecodeError:
                raise DomainError(_("The file is not UTF-8 text."), field="file") from None
            services.upload_word_list(actor, tournament.pk, upload.name, text)
        except DomainError as failure:
            error = failure.message
        else:
            messages.success(request, _("Word list saved: word protests are judged by it."))
            return redirect("scrabble:word-list", slug=slug)
    current = getattr(tournament, "scrabble_word_list", None)
    return render(
        request,
        "scrabble/word_list.html",
        {"tournament": tournament, "word_list": current, "error": error},
        status=400 if error else 200,
    )


def gcg_file(request, slug: str, match_id: int, number: int):
    """One game as a GCG file (``#character-encoding UTF-8`` first)."""
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    match = selectors.match_for(actor, tournament, match_id)
    game = match.scrabble_games.filter(number=number).first() if tournament.game_type == services.GAME_TYPE else None
    if game is None:
        raise Http404(_("No such game."))
    view = game_view(services.engine_settings(tournament), game)
    text = game_record(
        view.state,
        (match.entry_a.name, match.entry_b.name),
        title=f"{tournament.name}, {selectors.describe_match(match)}",
    )
    response = HttpResponse(text, content_type="text/plain; charset=utf-8")
    name = slugify(f"{tournament.slug}-{match.entry_a.name}-{match.entry_b.name}-{number}") or "game"
    response["Content-Disposition"] = f'attachment; filename="{name}.gcg"'
    return response
