"""The score sheet's buttons (``games.sheet_views``: players and directors add, confirm,
dispute, correct and undo games) and the match record anyone downloads."""

from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.http import HttpResponse
from django.utils.text import slugify
from django.utils.translation import gettext as _

from games.backgammon import services
from games.backgammon.forms import game_from_form
from games.backgammon.matfile import MatchInfo, match_record
from games.backgammon.sheet import sheet_of
from games.sheet_views import GameSheetViews
from tournaments import selectors
from tournaments.views.common import actor_of

SHEET = GameSheetViews(
    log=services.LOG,
    record_game=services.record_game,
    correct_last_game=services.correct_last_game,
    game_from_form=game_from_form,
)


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
