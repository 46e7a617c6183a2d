"""The public pages' cache: the expensive part of a tournament's public pages (the
bracket, standings, players; the results list), rendered once per version of the
tournament and language, and shared by every web process through the cache (Redis
when ``REDIS_URL`` is set).

Correctness comes from the key, not from deleting entries: every writer bumps the
tournament's ``version`` in its own transaction (``services.lock_tournament``), so the
moment a change commits, every reader builds the new key and renders the new state.
Old entries simply expire.
"""

from __future__ import annotations

from collections.abc import Callable

from django.conf import settings
from django.core.cache import cache
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from tournaments.models import Tournament


def fragment_key(tournament: Tournament, name: str) -> str:
    """The tournament (its id and the instant it was made: a database made again reuses
    ids, the cache may outlive it), its version, the reader's language, the fragment."""
    made = int(tournament.created_at.timestamp() * 1_000_000)
    return f"public:{tournament.pk}.{made}:{tournament.version}:{get_language()}:{name}"


def cached_fragment(tournament: Tournament, name: str, render: Callable[[], str]) -> SafeString:
    """The fragment ``name`` of this tournament's current version, rendered by
    ``render`` (escaped HTML) if no process has rendered it yet."""
    key = fragment_key(tournament, name)
    html = cache.get(key)
    if html is None:
        html = render()
        cache.set(key, html, getattr(settings, "PUBLIC_PAGE_CACHE_SECONDS", 600))
    return mark_safe(html)  # noqa: S308 - rendered by our templates, escaped there
