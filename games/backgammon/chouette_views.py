"""Chouette pages (SPEC §3.3): the public list and a session's page, the table page the
players keep on a phone (through the table's link), and the director's view of it.

Every page reads the session through ``chouette_services.replay``; every button calls
one service. A refused form is shown again with the message and what was posted (400,
or 409 when the session is closed); a recorded one redirects back with a message.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from decimal import Decimal

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db.models import Q
from django.http import Http404, HttpRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.formats import number_format
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _

from games.backgammon import chouette as engine
from games.backgammon import chouette_forms as forms
from games.backgammon import chouette_services as services
from games.backgammon.models import ChouetteSession
from tournaments.access import Actor, actor_for
from tournaments.errors import DomainError
from tournaments.forms import call_service


# --- Pages --------------------------------------------------------------------------------
def session_list(request: HttpRequest):
    shown = Q(public=True)
    if request.user.is_authenticated:
        shown |= Q(created_by=request.user)
    sessions = ChouetteSession.objects.filter(shown).prefetch_related("players")[:200]
    actor = actor_for(request.user)
    rows = [
        {"session": s, "players": [p.name for p in s.players.all()], "manage": services.is_session_director(actor, s)}
        for s in sessions
    ]
    return render(request, "chouette/list.html", {"rows": rows})


@login_required
def new_session(request: HttpRequest):
    form = forms.SessionForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        session = call_service(form, services.create_session, actor_for(request.user), **form.service_fields())
        if session is not None:
            messages.success(request, _("Session opened. Set the line next: the opening rolls."))
            return redirect("chouette:manage", session_id=session.pk)
    return render(request, "chouette/new.html", {"form": form}, status=400 if form.errors else 200)


def session_page(request: HttpRequest, session_id: int):
    """The public (club) view: the line, the ledger, the games and, once closed, who pays whom."""
    session = get_object_or_404(ChouetteSession, pk=session_id)
    is_director = services.is_session_director(actor_for(request.user), session)
    if not session.public and not is_director:
        raise Http404(_("No such chouette session."))
    return render(
        request,
        "chouette/session.html",
        {**session_context(session, services.replay(session)), "is_director": is_director},
    )


def table(request: HttpRequest, key: str):
    """The table page: the session and the forms of the players at the table."""
    session = get_object_or_404(ChouetteSession, table_key=key)
    return _table_page(request, session, key, TABLE_ACTIONS)


@login_required
def manage(request: HttpRequest, session_id: int):
    """The director's view: the table page, plus the line by order, undo, close, the table link."""
    session = get_object_or_404(ChouetteSession, pk=session_id)
    if not services.is_session_director(actor_for(request.user), session):
        raise PermissionDenied(_("Only the session's director can do this."))
    return _table_page(request, session, None, DIRECTOR_ACTIONS)


# --- The table's buttons: each calls one service and says what it did -------------------
def _rolls(request, actor, session, key, state):
    rolls = forms.rolls_from_form(request.POST, _present(state))
    services.set_line(actor, session.pk, key, rolls=rolls)
    return _("The line is set.")


def _roll(request, actor, session, key, state):
    services.set_line(actor, session.pk, key, roll=True)
    return _("Rolled for you: the line is set.")


def _order(request, actor, session, key, state):
    services.set_line(actor, session.pk, key, order=forms.order_from_form(request.POST, len(_present(state))))
    return _("The line is set.")


def _game(request, actor, session, key, state):
    team = engine.team_of(state.line, services.settings_of(session))
    one_cube = services.settings_of(session).cubes == "one"
    services.record_game(actor, session.pk, forms.game_from_form(request.POST, team, one_cube), key=key)
    return _("Game %(number)d recorded.") % {"number": len(state.games) + 1}


def _join(request, actor, session, key, state):
    player = services.add_player(actor, session.pk, request.POST.get("name", ""), key=key)
    return _("%(name)s joined the end of the line.") % {"name": player.name}


def _leave(request, actor, session, key, state):
    player = request.POST.get("player", "")
    services.remove_player(actor, session.pk, player, key=key)
    return _("%(name)s left the table.") % {"name": state.players.get(player, player)}


def _undo(request, actor, session, key, state):
    services.undo_last_game(actor, session.pk)
    return _("The last game is undone.")


def _close(request, actor, session, key, state):
    services.close_session(actor, session.pk)
    return _("The session is closed; the settlement is below.")


Action = Callable[[HttpRequest, Actor, ChouetteSession, str | None, services.SessionState], str]
TABLE_ACTIONS: dict[str, Action] = {"rolls": _rolls, "roll": _roll, "game": _game, "join": _join, "leave": _leave}
DIRECTOR_ACTIONS: dict[str, Action] = {**TABLE_ACTIONS, "order": _order, "undo": _undo, "close": _close}


def _table_page(request: HttpRequest, session: ChouetteSession, key: str | None, actions: Mapping[str, Action]):
    state = services.replay(session)
    if request.method == "POST":
        action = actions.get(request.POST.get("action", ""))
        if action is None:
            return _render_table(request, session, state, key, _("Unknown button; reload the page."), 400)
        actor = actor_for(request.user)
        try:
            done = action(request, actor, session, key, state)
        except DomainError as error:
            return _render_table(request, session, state, key, error.message, error.status_code)
        session.refresh_from_db()
        messages.success(request, f"{done} {_line_text(session, services.replay(session))}")
        return redirect(request.path)
    return _render_table(request, session, state, key)


# Where a refused button's message is shown: next to its form, if the page shows that form.
ERROR_SECTIONS = {
    "rolls": "line",
    "roll": "line",
    "order": "line",
    "game": "game",
    "join": "players",
    "leave": "players",
}


def _render_table(request, session, state, key, error: str = "", status: int = 200):
    director = key is None
    posted = request.POST if error else None
    failed = posted.get("action", "") if posted else ""
    names = {player: state.players[player] for player in _present(state)}
    is_open = session.status == ChouetteSession.Status.OPEN
    shown = {"line": is_open and not state.games, "game": is_open and bool(state.line), "players": is_open}
    section = ERROR_SECTIONS.get(failed, "")
    context = {
        **session_context(session, state),
        "is_director": director,
        "error": error,
        "error_in": section if shown.get(section) else "top",
        "failed": failed,
        "posted": posted or {},
        "present": list(names.items()),
        "form_action": request.path,
        "order_seats": _order_seats(state, posted if failed == "order" else None),
    }
    context["roll_rows"], context["roll_rounds"] = forms.roll_rows(
        posted if failed == "rolls" else None, names, failed == "rolls"
    )
    if state.line:
        team = engine.team_of(state.line, services.settings_of(session))
        context["game_form"] = forms.game_form(posted if failed == "game" else None, state.line, team, state.players)
    if director:
        url = request.build_absolute_uri(reverse("chouette:table", args=[session.table_key]))
        qr = segno.make(url, error="m").svg_inline(scale=4, dark="#000", light=None)
        context.update(table_url=url, table_qr=mark_safe(qr))  # noqa: S308 - segno's own SVG
    return render(request, "chouette/table.html", context, status=status)


# --- What the pages show ------------------------------------------------------------------
def session_context(session: ChouetteSession, state: services.SessionState) -> dict:
    """The line with roles, the ledger, the games and the settlement, ready to display."""
    settings = services.settings_of(session)
    names = state.players
    columns = list(state.line) + [player for player in names if player not in state.line]
    games = []
    for number, ((event, score, line), totals) in enumerate(zip(state.games, state.ledger, strict=True), start=1):
        games.append(
            {
                "number": number,
                "box": names[line[0]],
                "captain": names[line[1]],
                "result": result_text(event.data, score, line, names),
                "points": [(names[p], _signed(score.points[p])) for p in line if score.points[p]],
                "cells": [(_signed(score.points[p]) if p in score.points else "", totals.get(p, 0)) for p in columns],
            }
        )
    totals = state.totals
    context = {
        "session": session,
        "settings": settings,
        "line": _seats(state.line, names, settings),
        "columns": [names[p] for p in columns],
        "games": games,
        "totals": [(names[p], totals[p], money(totals[p] * session.stake_cents, session.currency)) for p in columns],
        "stake": money(session.stake_cents, session.currency),
        "settlement": [],
    }
    if session.status == ChouetteSession.Status.CLOSED:
        context["settlement"] = [
            {"payer": names[p.payer], "payee": names[p.payee], "amount": money(p.amount, session.currency)}
            for p in services.settlement(session, state)
        ]
    return context


def _seats(line, names, settings) -> list[dict[str, str]]:
    roles = {0: _("Box"), 1: _("Captain")}
    if settings.box_partner:
        roles[2] = _("Box partner")
    return [{"name": names[player], "role": roles.get(seat, "")} for seat, player in enumerate(line)]


def result_text(data: Mapping, score: engine.GameScore, line: engine.Line, names: Mapping[str, str]) -> str:
    """One game in words: the board, the drops and turned cubes (grouped), a takeover."""
    parts = []
    board = data.get("board")
    if board:
        winner = names[line[0]] if board["winner"] == "box" else names[score.acting_captain or line[1]]
        parts.append(_won(board["kind"], winner) + (_(" (resigned)") if board["resigned"] else ""))
    else:
        parts.append(_("no board game: nobody was left in"))
    groups: dict[tuple[str, int], list[str]] = {}
    for player, cube in data.get("cubes", {}).items():
        if cube["dropped_by"] or cube["value"] > 1:
            groups.setdefault((cube["dropped_by"] or "", cube["value"]), []).append(names[player])
    for (dropped_by, value), who in groups.items():
        values = {"names": ", ".join(who), "value": value}
        if dropped_by == "member":
            parts.append(_("%(names)s dropped the double to %(value)s") % values)
        elif dropped_by == "box":
            parts.append(_("the box dropped the double to %(value)s of %(names)s") % values)
        else:
            parts.append(_("cube at %(value)s: %(names)s") % values)
    if score.acting_captain not in (None, line[1]):
        parts.append(_("%(name)s took over the board") % {"name": names[score.acting_captain]})
    if data.get("automatic_doubles"):
        parts.append(_("automatic doubles: %(count)s") % {"count": data["automatic_doubles"]})
    return "; ".join(parts)


def _won(kind: str, name: str) -> str:
    if kind == "gammon":
        return _("%(name)s won a gammon") % {"name": name}
    if kind == "backgammon":
        return _("%(name)s won a backgammon") % {"name": name}
    return _("%(name)s won a single") % {"name": name}


def _signed(points: int) -> str:
    return f"{points:+d}" if points else "0"


def money(cents: int, currency: str) -> str:
    amount = Decimal(cents) / 100
    return f"{number_format(amount, decimal_pos=0 if cents % 100 == 0 else 2)} {currency}"


def _line_text(session: ChouetteSession, state: services.SessionState) -> str:
    if not state.line:
        return ""
    seats = _seats(state.line, state.players, services.settings_of(session))
    return _("Next: %(line)s.") % {
        "line": ", ".join(f"{s['name']} ({s['role']})" if s["role"] else s["name"] for s in seats)
    }


def _present(state: services.SessionState) -> list[str]:
    """The players at the table: the line, or before it is set everyone."""
    return list(state.line) if state.line else list(state.players)


def _order_seats(state: services.SessionState, posted: Mapping[str, str] | None) -> list[dict]:
    present = _present(state)
    chosen = forms.order_from_form(posted, len(present)) if posted else present
    players = [(player, state.players[player]) for player in present]
    return [{"field": f"seat-{n}", "chosen": chosen[n - 1], "players": players} for n in range(1, len(present) + 1)]
