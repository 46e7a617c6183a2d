"""The cached fragments of the public pages (``tournaments.page_cache``): the bracket
with the standings and players, the results list, the projector's slides, a match.

Rendered by the writer of a change made through the web, before it is answered
(``edge_cache``), else by the first reader of a new version (the others wait for it:
``page_cache.get_or_render``).
"""

from __future__ import annotations

import logging

from django.template.loader import render_to_string
from django.utils.safestring import SafeString
from django.utils.translation import gettext as _

from clocks.models import Clock
from clocks.templatetags.clock_tags import BLANK_VIEW
from tournaments import page_cache, selectors
from tournaments.models import Match, ResultSubmission, Tournament

logger = logging.getLogger(__name__)


def tournament_body(tournament: Tournament) -> SafeString:
    """The bracket, the standings and the players."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        running = selectors.running_matches(view)
        with_clocks = tournament.game.clock is not None
        context = {"view": view, "tournament": tournament, "running": running, "with_clocks": with_clocks}
        return render_to_string("public/_tournament_body.html", context)

    return page_cache.cached_fragment(tournament, "tournament", render_body)


def results_body(tournament: Tournament) -> SafeString:
    """Every result, round by round."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        return render_to_string("public/_results_body.html", {"view": view, "tournament": tournament})

    return page_cache.cached_fragment(tournament, "results", render_body)


def projector_body(tournament: Tournament) -> SafeString:
    """The venue screen's slides: the running matches with their tables, the latest
    results, the final standings, and the bracket's last rounds."""

    def render_body() -> str:
        view = selectors.tournament_view(tournament)
        running = selectors.running_matches(view)
        bracket = selectors.last_rounds(view.main, PROJECTOR_BRACKET_MATCHES) if view.main else None
        shortened = bracket is not None and len(bracket.rounds) < len(view.main.rounds)
        context = {
            "view": view,
            "tournament": tournament,
            "running": running,
            "clocked": clocked_matches(tournament, running),
            "blank_clock": BLANK_VIEW,
            "latest": selectors.latest_results(view, PROJECTOR_LATEST_RESULTS),
            "bracket": bracket,
            "bracket_part": _("the last %(players)d") % {"players": 2 * len(bracket.rounds[0].matches)}
            if shortened
            else "",
        }
        return render_to_string("public/_projector_body.html", context)

    return page_cache.cached_fragment(tournament, "projector", render_body)


def clocked_matches(tournament: Tournament, running: list[selectors.TableRow]) -> set[int]:
    """Which running matches have a clock (one query); the page shows them blank and
    clock.js fetches their time (a page is kept until the tournament changes, a clock's
    time is not)."""
    if tournament.game.clock is None or not running:
        return set()
    return set(Clock.objects.filter(match__in=[row.match.match.pk for row in running]).values_list("match", flat=True))


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


# The screen shows as many cards as fit (static/js/projector.js); the latest results are
# one screen of the most recent ones; the bracket slide starts at the round of 16.
PROJECTOR_LATEST_RESULTS = 24
PROJECTOR_BRACKET_MATCHES = 8
