"""The tournament page's long tables built in Python: a 1024-player event has 1024
rows in its standings, 1024 in its player list and 512 running matches in its first
round, and a template loop over them costs several times the rest of the page (see
``bench/draw.py``)."""

from __future__ import annotations

from django import template
from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _

from clocks.templatetags.clock_tags import compact_clock
from tournaments.models import Entry
from tournaments.selectors import TableRow, TournamentView

register = template.Library()


def _name_cell(entry: Entry, withdrew: str) -> str:
    return escape(entry.name) + (f' <span class="tag">{withdrew}</span>' if entry.withdrawn_at is not None else "")


@register.simple_tag
def standings_rows(view: TournamentView) -> SafeString:
    """``{% standings_rows view %}``: the rows of the standings table, best first, then
    the players still in the event."""
    withdrew, won = escape(_("withdrew")), escape(_("won"))
    out = []
    for place, entry, finished_in, won_last in view.standing_rows():
        champion = ' class="champion"' if place == "1" else ""
        out.append(
            f'<tr{champion}><td class="place">{escape(place or "…")}</td>'
            f"<td>{_name_cell(entry, withdrew)}</td><td>{escape(entry.club)}</td>"
            f"<td>{escape(finished_in)}{f' ({won})' if won_last else ''}</td></tr>"
        )
    still = view.still_playing()
    if still:
        names = ", ".join(escape(e.name) for e in still)
        label = escape(_("Still playing:"))  # not inside the f-string: xgettext would not find it there
        out.append(f'<tr><td class="place">—</td><td colspan="3">{label} {names}</td></tr>')
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@register.simple_tag
def player_rows(entries: list[Entry]) -> SafeString:
    """``{% player_rows view.entries %}``: seed, name, rating, club, country."""
    withdrew = escape(_("withdrew"))
    out = [
        f'<tr><td class="num">{entry.bracket_seed or ""}</td><td>{_name_cell(entry, withdrew)}</td>'
        f'<td class="num">{"" if entry.rating is None else entry.rating}</td>'
        f"<td>{escape(entry.club)}</td><td>{escape(entry.country)}</td></tr>"
        for entry in entries
    ]
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped


@register.simple_tag
def now_playing_rows(running: list[TableRow], with_clocks: bool, match_url_prefix: str) -> SafeString:
    """``{% now_playing_rows running with_clocks prefix %}``: table, match, players, the
    live score, and the clock when the game has clocks."""
    tags = {"provisional": escape(_("provisional")), "disputed": escape(_("disputed"))}
    out = []
    for row in running:
        view = row.match
        match = view.match
        if view.open_result is not None:
            status = view.open_result.status
            score = f'<span class="tag {escape(status)}">{tags[status]}</span> {escape(view.open_result.summary)}'
        else:
            score = escape(view.live.text) if view.live is not None else ""
        clock = f"<td>{compact_clock(match)}</td>" if with_clocks else ""
        out.append(
            f'<tr><td class="num table-number">{escape(row.table)}</td>'
            f'<td><a href="{escape(match_url_prefix)}{match.pk}/">{escape(view.label)}</a></td>'
            f"<td>{escape(match.entry_a.name)} – {escape(match.entry_b.name)}</td>"
            f'<td class="live-score">{score}</td>{clock}</tr>'
        )
    return mark_safe("".join(out))  # noqa: S308 - every value above is escaped
