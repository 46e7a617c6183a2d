"""The clock's pages: the table clock the players tap (through their private link) and
the director's (with pause, resume and adjust), the live JSON every clock on a page
reads, and the buttons behind them.

A button posts a form (the page comes back) or, from ``static/js/clock.js``, JSON (the
answer is the clock's view, or ``{"detail": ...}`` with 400, 403 or 409).
"""

from __future__ import annotations

import json
import re
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from clocks import selectors, services
from tournaments import access
from tournaments import selectors as tournament_selectors
from tournaments.errors import DomainError
from tournaments.views import director as director_views
from tournaments.views.common import actor_of

PLAYER_ACTIONS = ("start", "press")
DIRECTOR_ACTIONS = ("start", "press", "pause", "resume", "adjust")
FIELDS = ("side", "version", "seconds", "reason")
MATCH_ID = re.compile(r"[1-9][0-9]{0,8}")  # a match id (below 2**31)
MAX_CLOCKS_ASKED = 512


# --- Reading -----------------------------------------------------------------------------
@never_cache
@require_GET
def clock_json(request: HttpRequest, slug: str, match_id: int) -> JsonResponse:
    """The clock of a match as JSON (public, like the match page), never cached."""
    actor = actor_of(request)
    tournament = tournament_selectors.tournament_for(actor, slug)
    match = tournament_selectors.match_for(actor, tournament, match_id)
    view = selectors.clock_view_of(match)
    if view is None:
        return JsonResponse({"detail": _("This match has no clock.")}, status=404)
    return JsonResponse(view)


@never_cache
@require_GET
def clocks_json(request: HttpRequest, slug: str) -> JsonResponse:
    """Many clocks of a tournament at one moment, for a page that shows many (the
    tournament page, the projector): ``?matches=12,13`` gives ``{"server_time": ...,
    "clocks": {"12": view, ...}}``. Matches of another tournament and matches without a
    clock are left out. Public, like the match pages; never cached."""
    tournament = tournament_selectors.tournament_for(actor_of(request), slug)
    parts = [part.strip() for part in request.GET.get("matches", "").split(",") if part.strip()]
    if not all(MATCH_ID.fullmatch(part) for part in parts):
        detail = _("Give the matches as their numbers separated by commas, e.g. ?matches=12,13.")
        return JsonResponse({"detail": detail, "errors": {"matches": [detail]}}, status=400)
    if len(parts) > MAX_CLOCKS_ASKED:
        detail = _("Ask for at most %(count)d matches at a time.") % {"count": MAX_CLOCKS_ASKED}
        return JsonResponse({"detail": detail, "errors": {"matches": [detail]}}, status=400)
    now = services.server_now()
    views = selectors.clock_views(tournament.pk, sorted({int(part) for part in parts}), now)
    return JsonResponse({"server_time": now.isoformat(), "clocks": {str(k): v for k, v in views.items()}})


@never_cache
def player_clock(request: HttpRequest, key: str, match_id: int) -> HttpResponse:
    entry = tournament_selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = tournament_selectors.match_for(actor, entry.tournament, match_id)
    if access.playing_entry(actor, match) is None:
        raise PermissionDenied(_("This is not your match."))
    return _table_page(request, match, entry=entry)


@never_cache
@login_required
def director_clock(request: HttpRequest, slug: str, match_id: int) -> HttpResponse:
    actor, tournament = director_views.directed(request, slug)
    match = tournament_selectors.match_for(actor, tournament, match_id)
    return _table_page(request, match, director=True)


def _table_page(request: HttpRequest, match, entry=None, director: bool = False) -> HttpResponse:
    view = selectors.clock_view_of(match)
    if view is None:
        raise Http404(_("This match has no clock."))
    tournament = match.tournament
    if director:
        urls = {a: reverse("clocks:director-action", args=[tournament.slug, match.pk, a]) for a in DIRECTOR_ACTIONS}
        back_url = reverse("director:match", args=[tournament.slug, match.pk])
    else:
        urls = {a: reverse("clocks:player-action", args=[entry.private_key, match.pk, a]) for a in PLAYER_ACTIONS}
        back_url = reverse("player:match", args=[entry.private_key, match.pk])
    clock = services.clock_of(match)
    return render(
        request,
        "clocks/table.html",
        {
            "tournament": tournament,
            "match": match,
            "entry": entry,
            "director": director,
            "view": view,
            "sides": selectors.sides_of(match, view),
            "tappable": not view["presses_from_sheet"],
            "json_url": reverse("clocks:json", args=[tournament.slug, match.pk]),
            "urls": urls,
            "back_url": back_url,
            "log": _log(match, selectors.events_of(clock)) if director else [],
        },
    )


EVENT_LABELS = {
    "start": gettext_noop("start"),
    "press": gettext_noop("press"),
    "pause": gettext_noop("pause"),
    "resume": gettext_noop("resume"),
    "adjust": gettext_noop("adjust"),
    "flag": gettext_noop("flag fell"),
    "halt": gettext_noop("halt"),
}


def _log(match, events) -> list[dict[str, Any]]:
    """The clock's events for the director: what, whose side, when, who, why."""
    names = {"a": match.entry_a.name if match.entry_a else "", "b": match.entry_b.name if match.entry_b else ""}
    rows = []
    for event in events:
        if event.by_system:
            who = _("system")
        elif event.by_user is not None:
            who = event.by_user.get_username()
        elif event.by_entry is not None:
            who = event.by_entry.name
        else:
            who = "—"
        rows.append(
            {
                "number": event.number,
                "kind": _(EVENT_LABELS.get(event.kind, event.kind)),
                "side": names.get(event.side, ""),
                "at": event.at,
                "who": who,
                "value_ms": event.value_ms,
                "reason": event.reason,
            }
        )
    return rows


# --- Buttons -------------------------------------------------------------------------------
@require_POST
def player_action(request: HttpRequest, key: str, match_id: int, action: str) -> HttpResponse:
    if action not in PLAYER_ACTIONS:
        raise Http404(_("No such clock button."))
    entry = tournament_selectors.entry_by_key(key)
    actor = actor_of(request, entry)
    match = tournament_selectors.match_for(actor, entry.tournament, match_id)
    return _act(request, actor, match, action, redirect("clocks:player", key=key, match_id=match.pk))


@require_POST
def director_action(request: HttpRequest, slug: str, match_id: int, action: str) -> HttpResponse:
    if action not in DIRECTOR_ACTIONS:
        raise Http404(_("No such clock button."))
    page = reverse("clocks:director", args=[slug, match_id])
    wants_json = request.content_type == "application/json"
    try:
        if not request.user.is_authenticated:
            if not wants_json:
                return redirect(f"{reverse('login')}?next={page}")
            raise PermissionDenied(_("Sign in as a director to do this."))
        actor, tournament = director_views.directed(request, slug)
    except PermissionDenied as error:
        if wants_json:
            return JsonResponse({"detail": str(error)}, status=403)
        raise
    match = tournament_selectors.match_for(actor, tournament, match_id)
    return _act(request, actor, match, action, redirect(page))


SUCCESS = {
    "pause": gettext_noop("The clock is paused."),
    "resume": gettext_noop("The clock runs again."),
    "adjust": gettext_noop("The time is adjusted (kept in the log)."),
}


def _act(request: HttpRequest, actor, match, action: str, back: HttpResponse) -> HttpResponse:
    wants_json = request.content_type == "application/json"
    try:
        data = _input(request) if wants_json else {name: request.POST.get(name) for name in FIELDS}
        clock = _perform(actor, match.pk, action, data)
    except DomainError as error:
        if wants_json:
            body: dict[str, Any] = {"detail": error.message}
            if error.field:
                body["errors"] = {error.field: [error.message]}
            return JsonResponse(body, status=error.status_code)
        messages.error(request, error.message)
        return back
    except PermissionDenied as error:
        if wants_json:
            return JsonResponse({"detail": str(error) or _("You may not do this.")}, status=403)
        raise
    if wants_json:
        return JsonResponse(services.clock_view(clock))
    if action in SUCCESS:
        messages.success(request, _(SUCCESS[action]))
    return back


def _input(request: HttpRequest) -> dict[str, Any]:
    """The JSON body's known fields; anything but a string or a number is refused."""
    try:
        body = json.loads(request.body or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise DomainError(_("The request is not JSON.")) from None
    if not isinstance(body, dict):
        raise DomainError(_('Send a JSON object such as {"side": "a", "version": 3}.'))
    unknown = sorted(set(body) - set(FIELDS))
    if unknown:
        raise DomainError(
            _("Unknown field; the fields are: %(fields)s.") % {"fields": ", ".join(FIELDS)}, field=unknown[0]
        )
    data = {}
    for name, value in body.items():
        if value is not None and (isinstance(value, bool) or not isinstance(value, str | int | float)):
            raise DomainError(_("%(field)s is a string or a number.") % {"field": name}, field=name)
        data[name] = value
    return data


def _perform(actor, match_id: int, action: str, data: dict[str, Any]):
    if action == "start":
        return services.start_clock(actor, match_id, data.get("side"), data.get("version"))
    if action == "press":
        return services.press_clock(actor, match_id, data.get("side"), data.get("version"))
    if action == "pause":
        return services.pause_clock(actor, match_id, data.get("reason") or "")
    if action == "resume":
        return services.resume_clock(actor, match_id, data.get("reason") or "")
    return services.adjust_clock(actor, match_id, data.get("side"), data.get("seconds"), data.get("reason") or "")
