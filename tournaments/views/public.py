"""Public pages: anybody may read them, nobody writes through them."""

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments import access, page_cache, selectors
from tournaments.public_fragments import match_body, projector_body, results_body, tournament_body
from tournaments.views.common import actor_of


def tournament_list(request):
    return render(request, "public/tournament_list.html", {"tournaments": selectors.public_tournaments()})


# --- Pages ---------------------------------------------------------------------------
def tournament_detail(request, slug: str):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    return page_cache.cached_page(
        request,
        tournament,
        lambda: render(
            request,
            "public/tournament_detail.html",
            {
                "tournament": tournament,
                "body": tournament_body(tournament),
                "is_director": access.is_director(actor, tournament),
            },
        ),
    )


def results(request, slug: str):
    """Every result, round by round: the bracket's content as a list, easy on a phone."""
    tournament = selectors.tournament_for(actor_of(request), slug)
    context = {"tournament": tournament}
    return page_cache.cached_page(
        request,
        tournament,
        lambda: render(request, "public/results.html", {**context, "body": results_body(tournament)}),
    )


def projector(request, slug: str):
    """The venue's screen: large type, cycling through the running matches and the bracket."""
    tournament = selectors.tournament_for(actor_of(request), slug)
    context = {"tournament": tournament}
    return page_cache.cached_page(
        request,
        tournament,
        lambda: render(request, "public/projector.html", {**context, "body": projector_body(tournament)}),
    )


def match_detail(request, slug: str, match_id: int):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    match = selectors.match_for(actor, tournament, match_id)
    return page_cache.cached_page(
        request,
        tournament,
        lambda: render(
            request,
            "public/match_detail.html",
            {
                "tournament": tournament,
                "match": match,
                "label": selectors.describe_match(match),
                "table": selectors.table_of(match),
                "settings_text": tournament.game.describe_round_settings(match.round.settings),
                "body": match_body(tournament, match),
                "is_director": access.is_director(actor, tournament),
            },
        ),
    )


def live(request, slug: str, fragment: str, match_id: int | None = None):
    """What a live page asks every second or two: 204 if the tournament has not changed
    since the version it shows (``?since=``), else the fragment's HTML and version."""
    tournament = selectors.tournament_for(actor_of(request), slug)
    since = request.GET.get("since", "")
    if since.isdecimal() and int(since) == tournament.version:
        return HttpResponse(status=204)
    if fragment == "match":
        html = match_body(tournament, selectors.match_for(actor_of(request), tournament, match_id))
    elif fragment in LIVE_FRAGMENTS:
        html = LIVE_FRAGMENTS[fragment](tournament)
    else:
        raise Http404(_("No such part of the page."))
    response = JsonResponse({"version": tournament.version, "html": str(html)})
    response["Cache-Control"] = "no-store"
    return response


LIVE_FRAGMENTS = {"tournament": tournament_body, "results": results_body, "projector": projector_body}
