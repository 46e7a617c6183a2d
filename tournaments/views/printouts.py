"""The director's printouts for the venue: the draw, the pairings with the tables and a
result slip per table, session by session — a main round with what is played beside it
(``tournaments.tables``) — and the players' private-link slips (``director.slips``).
Plain pages styled for paper (``@media print``)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib.auth.decorators import login_required
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments import selectors
from tournaments.draws import CONSOLATION, THIRD_PLACE
from tournaments.views.director import directed

MAX_SLIP_ROWS = 15
DRAW_PAGE_MATCHES = 16  # first-round matches on a page of the draw: 32 players


@login_required
def index(request, slug: str):
    """What there is to print; the pairings and result slips session by session (the
    rounds played at the same time share their tables)."""
    actor, tournament = directed(request, slug)
    view = selectors.tournament_view(tournament)
    context = {"tournament": tournament, "view": view, "sessions": [s for s in selectors.sessions(view) if s]}
    return render(request, "director/print_index.html", context)


@dataclass
class DrawPart:
    """A page of the draw: a flight, or a part of a big one."""

    heading: str
    flight: selectors.FlightView
    own_page: bool  # a part of a flight too big for one page


@login_required
def draw_sheet(request, slug: str):
    """The draw as drawn: every flight's bracket, the seeds and the byes, and the random
    seed that repeats it. A big flight is printed in parts of 32 players a page, then
    its last 16 (``selectors.bracket_sections``)."""
    actor, tournament = directed(request, slug)
    view = selectors.tournament_view(tournament)
    context = {"tournament": tournament, "view": view, "parts": draw_parts(view)}
    return render(request, "director/print_draw.html", context)


def draw_parts(view: selectors.TournamentView) -> list[DrawPart]:
    titles = {THIRD_PLACE: _("Match for third place"), CONSOLATION: _("Consolation")}
    parts = []
    for flight in view.flights:
        sections = selectors.bracket_sections(flight, DRAW_PAGE_MATCHES)
        for number, section in enumerate(sections, start=1):
            label = ""
            if len(sections) > 1 and number < len(sections):
                label = _("part %(number)d of %(count)d") % {"number": number, "count": len(sections) - 1}
            elif len(sections) > 1:
                label = _("the last %(players)d") % {"players": 2 * len(section.rounds[0].matches)}
            heading = " · ".join(text for text in (titles.get(flight.flight, ""), label) if text)
            parts.append(DrawPart(heading, section, own_page=len(sections) > 1))
    return parts


@dataclass
class SessionRound:
    """A round of the session being printed, with its matches at their tables."""

    round: selectors.RoundView
    rows: list[selectors.TableRow]
    game_lines: range  # a result slip's lines: one per game the match can take

    @property
    def byes(self) -> list[str]:
        """Who goes through this round without playing (a bye takes no table)."""
        return [
            side.entry.name
            for mv in self.round.matches
            if mv.match.is_bye
            for side in (mv.a, mv.b)
            if side.entry is not None
        ]


def session_context(tournament, round_id: int) -> dict[str, Any]:
    """What the pairings and the result slips print: the session of the round asked
    for — every round played at the same time, in one numbering of the tables."""
    view = selectors.tournament_view(tournament)
    tables = selectors.tables_of(view)
    rounds = [
        SessionRound(rv, selectors.round_tables(rv, tables), range(1, slip_rows(rv.round.settings) + 1))
        for rv in selectors.session_with(view, selectors.round_view_of(view, round_id))
    ]
    return {
        "tournament": tournament,
        "title": " + ".join(session_round.round.name for session_round in rounds),
        "rounds": rounds,
        "has_tables": any(session_round.rows for session_round in rounds),
    }


@login_required
def pairings(request, slug: str, round_id: int):
    """The tables of a session (a main round, and what is played beside it): who sits
    where, and the results so far."""
    actor, tournament = directed(request, slug)
    return render(request, "director/print_pairings.html", session_context(tournament, round_id))


@login_required
def result_slips(request, slug: str, round_id: int):
    """One slip per table of the session: the table, the players (blank lines for those
    still to be decided), a line per game and the two signatures."""
    actor, tournament = directed(request, slug)
    return render(request, "director/print_result_slips.html", session_context(tournament, round_id))


def slip_rows(settings: dict[str, Any]) -> int:
    """How many games a match of this round can take: best of K; to N points (every game
    a single: 2N − 1); K chess games and room for tie-breaks."""
    if "best_of" in settings:
        rows = settings["best_of"]
    elif "match_length" in settings:
        rows = 2 * settings["match_length"] - 1
    elif "games" in settings:
        rows = settings["games"] + 4
    else:
        rows = 5
    return max(1, min(rows, MAX_SLIP_ROWS))
