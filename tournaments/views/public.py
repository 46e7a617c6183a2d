"""Public pages: anybody may read them, nobody writes through them."""

from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString

from tournaments import access, page_cache, selectors
from tournaments.models import ResultSubmission, Tournament
from tournaments.views.common import actor_of


def tournament_list(request):
    return render(request, "public/tournament_list.html", {"tournaments": selectors.public_tournaments()})


def tournament_body(tournament: Tournament) -> SafeString:
    """The bracket, the standings and the players, cached per version of the tournament."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        return render_to_string("public/_tournament_body.html", {"view": view, "tournament": tournament})

    return page_cache.cached_fragment(tournament, "tournament", render_body)


def tournament_detail(request, slug: str):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    return render(
        request,
        "public/tournament_detail.html",
        {
            "tournament": tournament,
            "body": tournament_body(tournament),
            "is_director": access.is_director(actor, tournament),
        },
    )


def results(request, slug: str):
    """Every result, round by round: the bracket's content as a list, easy on a phone."""
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        return render_to_string("public/_results_body.html", {"view": view, "tournament": tournament})

    body = page_cache.cached_fragment(tournament, "results", render_body)
    return render(request, "public/results.html", {"tournament": tournament, "body": body})


def match_detail(request, slug: str, match_id: int):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    match = selectors.match_for(actor, tournament, match_id)
    submissions = [
        s
        for s in selectors.submissions_of(match)
        if s.status in (ResultSubmission.Status.CONFIRMED, *ResultSubmission.OPEN)
    ]
    game = tournament.game
    sheet = {}
    if game.sheet is not None and match.entry_a_id and match.entry_b_id:
        sheet = {**game.sheet.context(match), "public_sheet_template": game.sheet.public_template}
    return render(
        request,
        "public/match_detail.html",
        {
            **sheet,
            "tournament": tournament,
            "match": match,
            "label": selectors.describe_match(match),
            "settings_text": tournament.game.describe_round_settings(match.round.settings),
            "submissions": submissions,
            "is_director": access.is_director(actor, tournament),
        },
    )
