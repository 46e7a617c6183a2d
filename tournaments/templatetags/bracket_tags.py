"""The bracket drawn as HTML in Python: a 1024-player event has over 1500 match boxes,
and building them here is several times faster than a template include per box."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from tournaments.selectors import FlightView, MatchView, SideView
from tournaments.templatetags.director_tags import score

register = template.Library()


@register.simple_tag
def bracket(flight: FlightView, match_url_prefix: str) -> SafeString:
    """``{% bracket flight match_url_prefix %}``: one flight, a column per round."""
    words = {
        "bye": escape(_("bye")),
        "tbd": escape(_("to be decided")),
        "provisional": escape(_("provisional")),
        "disputed": escape(_("disputed")),
        "walkover": escape(_("walkover")),
        "withdrawal": escape(_("opponent withdrew")),
    }
    names: dict[int, str] = {}
    out = [f'<div class="bracket" data-flight="{escape(flight.flight)}">']
    for round_view in flight.rounds:
        out.append(
            f'<section class="bracket-round"><h3>{escape(round_view.name)} '
            f'<small>{escape(round_view.settings_text)}</small></h3><ol class="bracket-matches">'
        )
        for match_view in round_view.matches:
            out.append(_match_box(match_view, match_url_prefix, words, names))
        out.append("</ol></section>")
    out.append("</div>")
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


def _match_box(view: MatchView, prefix: str, words: dict[str, str], names: dict[int, str]) -> str:
    match = view.match
    classes = f"bracket-match status-{match.status}" + (" is-bye" if match.is_bye else "")
    note = ""
    if view.open_result is not None:
        status = view.open_result.status
        label = words["disputed"] if status == "disputed" else words["provisional"]
        note = (
            f'<span class="note"><span class="tag {status}">{label}: {escape(view.open_result.summary)}</span></span>'
        )
    elif match.decided_by in ("walkover", "withdrawal"):
        note = f'<span class="note muted">{words[match.decided_by]}</span>'
    elif view.live is not None and not match.decided_by and view.live.data.get("games_played"):
        waiting = ""
        if view.live.data.get("pending_games"):
            waiting = f' <span class="tag provisional">{words["provisional"]}</span>'
        note = f'<span class="note live">{escape(view.live.text)}{waiting}</span>'
    return (
        f'<li class="{classes}" data-match="{match.pk}"><a href="{prefix}{match.pk}/">'
        f"{side_html(view.a, words, names)}{side_html(view.b, words, names)}{note}</a></li>"
    )


def side_html(side: SideView, words: dict[str, str], names: dict[int, str]) -> str:
    classes = "side"
    if side.winner:
        classes += " winner"
    elif side.loser:
        classes += " loser"
    entry = side.entry
    if side.bye:
        classes += " bye"
        seed, name = "", words["bye"]
    elif entry is None:
        classes += " tbd"
        seed, name = "", words["tbd"]
    else:
        if entry.withdrawn_at is not None:
            classes += " withdrawn"
        seed = entry.bracket_seed or ""
        name = names.get(entry.pk)
        if name is None:
            name = names[entry.pk] = escape(entry.name)
    points = f'<span class="score">{score(side.score)}</span>' if side.score is not None else ""
    return f'<span class="{classes}"><span class="seed">{seed}</span><span class="name">{name}</span>{points}</span>'


@register.simple_tag
def bracket_side(side: SideView) -> SafeString:
    """One side of a match (a player, a bye or "to be decided"), as in the bracket."""
    words = {"bye": escape(_("bye")), "tbd": escape(_("to be decided"))}
    return mark_safe(side_html(side, words, {}))  # noqa: S308 - escaped in side_html
