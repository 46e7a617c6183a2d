"""Public pages: anybody may read them, nobody writes through them."""

from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clocks.models import Clock
from tournaments import access, page_cache, selectors
from tournaments.models import Match, ResultSubmission, Tournament
from tournaments.views.common import actor_of


def tournament_list(request):
    return render(request, "public/tournament_list.html", {"tournaments": selectors.public_tournaments()})


# --- The cached fragments of the public pages (tournaments.page_cache) ----------------
def tournament_body(tournament: Tournament) -> SafeString:
    """The bracket, the standings and the players."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        return render_to_string("public/_tournament_body.html", {"view": view, "tournament": tournament})

    return page_cache.cached_fragment(tournament, "tournament", render_body)


def results_body(tournament: Tournament) -> SafeString:
    """Every result, round by round."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        return render_to_string("public/_results_body.html", {"view": view, "tournament": tournament})

    return page_cache.cached_fragment(tournament, "results", render_body)


def projector_body(tournament: Tournament) -> SafeString:
    """The venue screen's slides: the running matches, then the bracket."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        running = selectors.running_matches(view)
        size = PROJECTOR_MATCHES_PER_SLIDE
        pages = [running[i : i + size] for i in range(0, len(running), size)]
        clocked = set(Clock.objects.filter(match__in=[mv.match.pk for mv in running]).values_list("match", flat=True))
        context = {"view": view, "tournament": tournament, "pages": pages, "clocked": clocked}
        return render_to_string("public/_projector_body.html", context)

    return page_cache.cached_fragment(tournament, "projector", render_body)


def match_body(tournament: Tournament, match: Match) -> SafeString:
    """A match: its clock, its score sheet or players, its results."""

    def render_body() -> str:
        submissions = [
            s
            for s in selectors.submissions_of(match)
            if s.status in (ResultSubmission.Status.CONFIRMED, *ResultSubmission.OPEN)
        ]
        game = tournament.game
        sheet = {}
        if game.sheet is not None and match.entry_a_id and match.entry_b_id:
            sheet = {**game.sheet.context(match), "public_sheet_template": game.sheet.public_template}
        context = {**sheet, "tournament": tournament, "match": match, "submissions": submissions}
        return render_to_string("public/_match_body.html", context)

    return page_cache.cached_fragment(tournament, f"match-{match.pk}", render_body)


PROJECTOR_MATCHES_PER_SLIDE = 8


# --- Pages ---------------------------------------------------------------------------
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
    tournament = selectors.tournament_for(actor_of(request), slug)
    return render(request, "public/results.html", {"tournament": tournament, "body": results_body(tournament)})


def projector(request, slug: str):
    """The venue's screen: large type, cycling through the running matches and the bracket."""
    tournament = selectors.tournament_for(actor_of(request), slug)
    return render(request, "public/projector.html", {"tournament": tournament, "body": projector_body(tournament)})


def match_detail(request, slug: str, match_id: int):
    actor = actor_of(request)
    tournament = selectors.tournament_for(actor, slug)
    match = selectors.match_for(actor, tournament, match_id)
    return render(
        request,
        "public/match_detail.html",
        {
            "tournament": tournament,
            "match": match,
            "label": selectors.describe_match(match),
            "settings_text": tournament.game.describe_round_settings(match.round.settings),
            "body": match_body(tournament, match),
            "is_director": access.is_director(actor, tournament),
        },
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
