"""Public pages: anybody may read them, nobody writes through them."""

from django.shortcuts import render

from tournaments import access, selectors
from tournaments.models import ResultSubmission
from tournaments.views.common import actor_of


def tournament_list(request):
    return render(request, "public/tournament_list.html", {"tournaments": selectors.public_tournaments()})


def tournament_detail(request, slug: str):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    view = selectors.tournament_view(tournament)
    return render(
        request,
        "public/tournament_detail.html",
        {"view": view, "tournament": tournament, "is_director": access.is_director(actor, tournament)},
    )


def results(request, slug: str):
    """Every result, round by round: the bracket's content as a list, easy on a phone."""
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    view = selectors.tournament_view(tournament)
    return render(request, "public/results.html", {"view": view, "tournament": tournament})


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
