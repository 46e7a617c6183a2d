"""Small template helpers for the pages."""

from django import template

register = template.Library()


@register.filter
def get_item(mapping, key):
    """``posted|get_item:"game-1-a"`` — a value of a dict or a QueryDict."""
    try:
        return mapping.get(key, "")
    except AttributeError:
        return ""


@register.filter
def upto(count):
    """``{% for n in 3|upto %}`` -> 1, 2, 3."""
    try:
        return range(1, int(count) + 1)
    except (TypeError, ValueError):
        return range(0)


@register.filter
def score(value):
    """A score without a needless ``.0`` (1.0 -> 1, 1.5 -> 1½)."""
    if value is None:
        return ""
    if float(value).is_integer():
        return str(int(value))
    whole = int(value)
    return f"{whole or ''}½" if abs(value - whole - 0.5) < 1e-9 else str(value)


@register.simple_tag
def posted_value(posted, *parts):
    """The value a form field had when it was sent back with an error:
    ``{% posted_value posted "game-" n "-a" %}``."""
    try:
        return posted.get("".join(str(p) for p in parts), "")
    except AttributeError:
        return ""


@register.filter
def score_for(match, entry):
    """A match's score from one player's side: ``{{ match|score_for:entry }}`` -> "0–2"."""
    if match.score_a is None or match.score_b is None:
        return ""
    mine, theirs = (match.score_a, match.score_b) if match.entry_a_id == entry.pk else (match.score_b, match.score_a)
    return f"{score(mine)}–{score(theirs)}"


@register.filter
def audit_action(action: str) -> str:
    """The audit log's name of an action code, in the reader's language."""
    from tournaments.audit import ACTIONS

    return str(ACTIONS.get(action, action))
