"""The live clock on any page: ``{% load clock_tags %}{% clock_widget match %}``."""

from __future__ import annotations

from django import template
from django.urls import reverse

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
    of many clocks passes ``view=BLANK_VIEW`` (no query): clock.js fetches them together."""
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


# What a clock on a cached page shows until clock.js has fetched it: the page was made
# when the tournament last changed, and a clock's time is not the page's to keep.
BLANK_VIEW = {"phase": "", "running": None, "flagged": None, "time_ms": {"a": None, "b": None}}


def compact_clock(match) -> str:
    """A clock in a table row (the tournament page's running matches), built in Python
    for pages of many. It is empty on the page as cached; clock.js fills it with the
    page's other clocks, in one request (``data-clock-batch-url``), once the match has a
    clock, and keeps it going."""
    halves = "".join(
        f'<span class="cw-half" data-clock-half="{side}"><span class="cw-time" data-clock-face="{side}"></span></span>'
        for side in ("a", "b")
    )
    return f'<span class="clock-widget is-compact" data-clock-match="{match.pk}" data-phase="">{halves}</span>'
