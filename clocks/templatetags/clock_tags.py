"""The live clock on any page: ``{% load clock_tags %}{% clock_widget match %}``."""

from __future__ import annotations

from django import template
from django.urls import reverse
from django.utils.html import escape

from clocks import selectors

register = template.Library()


@register.filter
def clock_time(ms) -> str:
    """A clock face: ``m:ss`` (``h:mm:ss`` from an hour), tenths under 10 s (``0:09.4``)."""
    try:
        ms = max(0, int(ms))
    except (TypeError, ValueError):
        return ""
    if ms < 10_000:
        tenths = ms // 100
        return f"0:0{tenths // 10}.{tenths % 10}"
    total = ms // 1000
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    return f"{hours}:{minutes:02d}:{seconds:02d}" if hours else f"{minutes}:{seconds:02d}"


@register.filter
def clock_when(view) -> str:
    """``view|clock_when`` -> "ready", "running-a", "paused", "flagged-b": the status line shown."""
    return selectors.phase_key(view)


@register.inclusion_tag("clocks/_widget.html", takes_context=True)
def clock_widget(context, match, link: bool = False, view: dict | None = None) -> dict:
    """The match's clock, read-only and live (nothing if the match has no clock). With
    ``link``, a link to the table clock of whoever looks (a player or a director). A page
    of many clocks passes each one's ``view`` (``selectors.clock_views``): no query."""
    if view is None and match is not None and match.pk:
        view = selectors.clock_view_of(match)
    if view is None:
        return {"view": None}
    tournament = match.tournament
    table_url = ""
    if link and context.get("sheet_actor") == "director":
        table_url = reverse("clocks:director", args=[tournament.slug, match.pk])
    elif link and context.get("entry") is not None and context.get("sheet_actor") == "player":
        table_url = reverse("clocks:player", args=[context["entry"].private_key, match.pk])
    return {
        "view": view,
        "match": match,
        "sides": selectors.sides_of(match, view),
        "json_url": reverse("clocks:json", args=[tournament.slug, match.pk]),
        "table_url": table_url,
    }


def compact_clock(match, view: dict | None) -> str:
    """A clock in a table row (the tournament page's running matches), built in Python
    for pages of many: the two times, the running one marked; clock.js keeps it going
    (it is fetched with the page's other clocks: ``data-clock-batch-url``). Without a
    view (no clock started yet when the page was made) it stays empty until it has one."""
    json_url = reverse("clocks:json", args=[match.tournament.slug, match.pk])
    halves = []
    for side in ("a", "b"):
        classes = "cw-half"
        if view is not None and view["running"] == side and view["phase"] in ("running", "paused"):
            classes += " is-on-move"
        if view is not None and view["flagged"] == side:
            classes += " is-flagged"
        time = clock_time(view["time_ms"][side]) if view is not None else ""
        halves.append(
            f'<span class="{classes}" data-clock-half="{side}"><span class="cw-time" data-clock-face="{side}">'
            f"{time}</span></span>"
        )
    phase = escape(view["phase"]) if view is not None else ""
    return (
        f'<span class="clock-widget is-compact" data-clock-url="{escape(json_url)}" data-clock-match="{match.pk}" '
        f'data-phase="{phase}">{"".join(halves)}</span>'
    )
