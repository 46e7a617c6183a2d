"""The buttons of a score sheet whose games are confirmed one by one (backgammon,
chess): players (through their private link) and directors add, confirm, dispute,
correct and undo games. Each game gives its services and how its form becomes a game;
``GameSheetViews`` makes the views and their URLs."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect
from django.urls import URLPattern, path
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from games.game_log import GameLog
from games.registry import RuleError
from tournaments import access, selectors
from tournaments.errors import DomainError, readable
from tournaments.views import director as director_views
from tournaments.views import player as player_views
from tournaments.views.common import actor_of, run


def status_of(error: Exception) -> int:
    return getattr(error, "status_code", 400)


@dataclass(frozen=True)
class GameSheetViews:
    log: GameLog
    record_game: Callable[..., Any]
    correct_last_game: Callable[..., Any]
    game_from_form: Callable[[Mapping[str, Any]], dict[str, Any]]

    # --- The players ----------------------------------------------------------------------
    def player_add_game(self, request, key: str, match_id: int):
        entry = selectors.entry_by_key(key)
        actor = actor_of(request, entry)
        match = selectors.match_for(actor, entry.tournament, match_id)
        access.require_player_of(actor, match)
        try:
            self.record_game(actor, match.pk, self.game_from_form(request.POST))
        except (RuleError, DomainError) as error:
            return player_views.match_page(request, entry, match, error=readable(error), status=status_of(error))
        messages.success(request, _("Game entered. Your opponent confirms it (or the director)."))
        return redirect("player:match", key=key, match_id=match.pk)

    def player_confirm_game(self, request, key: str, game_id: int):
        entry = selectors.entry_by_key(key)
        game = run(request, self.log.confirm, actor_of(request, entry), game_id, success=_("Game confirmed."))
        return self.back_to_player(key, game)

    def player_dispute_game(self, request, key: str, game_id: int):
        entry = selectors.entry_by_key(key)
        game = run(
            request,
            self.log.dispute,
            actor_of(request, entry),
            game_id,
            request.POST.get("reason", ""),
            success=_("Game disputed. The director will decide."),
        )
        return self.back_to_player(key, game)

    @staticmethod
    def back_to_player(key: str, game):
        if game is not None:
            return redirect("player:match", key=key, match_id=game.match_id)
        return redirect("player:home", key=key)

    # --- The directors --------------------------------------------------------------------
    def director_add_game(self, request, slug: str, match_id: int):
        return self.director_game_action(request, slug, match_id, self.record_game, _("Game saved."))

    def director_correct_last_game(self, request, slug: str, match_id: int):
        return self.director_game_action(request, slug, match_id, self.correct_last_game, _("Last game corrected."))

    def director_game_action(self, request, slug: str, match_id: int, service, success: str):
        actor, tournament = director_views.directed(request, slug)
        match = selectors.match_for(actor, tournament, match_id)
        try:
            service(actor, match.pk, self.game_from_form(request.POST), request.POST.get("note", ""))
        except (RuleError, DomainError) as error:
            return director_views.match_detail(
                request, slug, match_id, error=readable(error), posted=request.POST, status=status_of(error)
            )
        messages.success(request, success)
        return redirect("director:match", slug=slug, match_id=match_id)

    def director_undo_last_game(self, request, slug: str, match_id: int):
        actor, tournament = director_views.directed(request, slug)
        match = selectors.match_for(actor, tournament, match_id)
        reason = request.POST.get("reason", "")
        run(request, self.log.undo_last, actor, match.pk, reason, success=_("Last game undone."))
        return redirect("director:match", slug=slug, match_id=match_id)

    def director_confirm_game(self, request, slug: str, game_id: int):
        actor, tournament = director_views.directed(request, slug)
        game = run(request, self.log.confirm, actor, game_id, success=_("Game confirmed."))
        return director_views.back_to_match(slug, game.match_id if game is not None else None)

    # --- Addresses ------------------------------------------------------------------------
    def urls(self, games: str = "games") -> list[URLPattern]:
        """The sheet's addresses, ``games`` naming the game's rows in them (each game its
        own); the URL names are the same in every game's namespace."""
        posted = require_POST
        director = lambda view: login_required(require_POST(view))  # noqa: E731
        return [
            path(f"p/<str:key>/m/<int:match_id>/{games}/", posted(self.player_add_game), name="player-add-game"),
            path(
                f"p/<str:key>/{games}/<int:game_id>/confirm/",
                posted(self.player_confirm_game),
                name="player-confirm-game",
            ),
            path(
                f"p/<str:key>/{games}/<int:game_id>/dispute/",
                posted(self.player_dispute_game),
                name="player-dispute-game",
            ),
            path(
                f"director/t/<slug:slug>/m/<int:match_id>/{games}/",
                director(self.director_add_game),
                name="director-add-game",
            ),
            path(
                f"director/t/<slug:slug>/m/<int:match_id>/{games}/correct-last/",
                director(self.director_correct_last_game),
                name="director-correct-last-game",
            ),
            path(
                f"director/t/<slug:slug>/m/<int:match_id>/{games}/undo-last/",
                director(self.director_undo_last_game),
                name="director-undo-last-game",
            ),
            path(
                f"director/t/<slug:slug>/{games}/<int:game_id>/confirm/",
                director(self.director_confirm_game),
                name="director-confirm-game",
            ),
        ]
