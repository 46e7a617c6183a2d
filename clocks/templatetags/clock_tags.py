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
def clock_widget(context, match, link: bool = False) -> dict:
    """The match's clock, read-only and live (nothing if the match has no clock). With
    ``link``, a link to the table clock of whoever looks (a player or a director)."""
    view = selectors.clock_view_of(match) if match is not None and match.pk else None
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
