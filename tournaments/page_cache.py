"""The public pages' cache: the expensive part of a tournament's public pages (the
bracket, standings, players; the results list), rendered once per version of the
tournament and language, and shared by every web process through the cache (Redis
when ``REDIS_URL`` is set).

For a reader with no cookies at all (the public, a projector, a crawler) the whole page
is the same, so the whole response is cached too: ``cached_page`` marks it as anybody's,
and the WSGI layer in front of Django (``tournaments.edge_cache``) keeps it and answers
the next such reader before any middleware runs. ``cached_page`` keeps the whole page
itself for readers whom only a language cookie sets apart (they go through Django).

Correctness comes from the key, not from deleting entries: every writer bumps the
tournament's ``version`` in its own transaction (``services.lock_tournament``), so the
moment a change commits, every reader builds the new key and renders the new state.
Old entries simply expire.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from datetime import datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language

from tournaments.models import Tournament

# Set by ``edge_cache.EdgeCache`` in the WSGI environ; a page anybody may have is marked
# with the version it shows there: (tournament id, its creation instant, version).
EDGE_SHARE = "director.edge.share"
RENDER_WAIT = 2.0  # seconds a reader waits for another's rendering of the same page
POLL = 0.01


def lifetime() -> int:
    """How long an entry stays (seconds): only a bound on memory, never on freshness."""
    return getattr(settings, "PUBLIC_PAGE_CACHE_SECONDS", 600)


def fragment_key(tournament: Tournament, name: str) -> str:
    """The key of a fragment of this tournament's current version in the reader's language."""
    return page_key(tournament.pk, instant(tournament.created_at), tournament.version, get_language(), name)


def page_key(tournament_id: int, made: int, version: int, language: str, name: str) -> str:
    """The tournament (its id and the instant it was made: a database made again reuses
    ids, the cache may outlive it), its version, the reader's language, the fragment."""
    return f"public:{tournament_id}.{made}:{version}:{language}:{name}"


def instant(moment: datetime) -> int:
    """A moment in whole microseconds since the epoch."""
    return int(moment.timestamp() * 1_000_000)


def cached_fragment(tournament: Tournament, name: str, render: Callable[[], str]) -> SafeString:
    """The fragment ``name`` of this tournament's current version, rendered by
    ``render`` (escaped HTML) if no process has rendered it yet."""
    return mark_safe(get_or_render(fragment_key(tournament, name), render))  # noqa: S308 - escaped by our templates


def get_or_render(key: str, render: Callable[[], Any]) -> Any:
    """The cached value, or ``render()`` stored — by one reader only: right after a
    change every reader misses at once, and a 256-player bracket rendered by each of them
    would starve the server. The others wait for it (never an older version instead), up
    to ``RENDER_WAIT`` seconds, then render it themselves."""
    value = cache.get(key)
    if value is not None:
        return value
    claim = f"{key}:rendering"
    if not cache.add(claim, 1, RENDER_WAIT * 2):
        waited = 0.0
        while waited < RENDER_WAIT:
            time.sleep(POLL)
            waited += POLL
            value = cache.get(key)
            if value is not None:
                return value
    try:
        value = render()
        cache.set(key, value, lifetime())
    finally:
        cache.delete(claim)
    return value


def anonymous(request: HttpRequest) -> bool:
    """No cookie at all: no session, no messages waiting, no CSRF token — the page can be
    nobody's but everybody's."""
    return (
        request.method == "GET"
        and not request.COOKIES.get(settings.SESSION_COOKIE_NAME)
        and not any(name in request.COOKIES for name in ("messages", settings.CSRF_COOKIE_NAME))
    )


def cached_page(request: HttpRequest, tournament: Tournament, render: Callable[[], HttpResponse]) -> HttpResponse:
    """The whole response of a public page, for readers with no cookies; everyone else
    (a director, a player) gets ``render()``, itself built on the cached fragments."""
    if not anonymous(request):
        return render()
    if EDGE_SHARE in request.META:
        # The edge in front keeps the whole response for the next readers: no copy here
        # (the page around the cached fragments costs little to render).
        request.META[EDGE_SHARE] = (tournament.pk, instant(tournament.created_at), tournament.version)
        return render()
    key = fragment_key(tournament, f"page:{request.get_host()}{request.get_full_path()}")
    own: list[HttpResponse] = []  # the response this reader rendered, if it did

    def render_page() -> tuple[bytes, str]:
        response = render()
        own.append(response)
        if response.status_code != 200 or response.cookies:
            raise Uncacheable
        return response.content, response["Content-Type"]

    try:
        content, content_type = get_or_render(key, render_page)
    except Uncacheable:
        return own[0]
    return own[0] if own else HttpResponse(content, content_type=content_type)


class Uncacheable(Exception):  # noqa: N818 - a signal, not an error
    """A page nobody else may be given (not a 200, or it sets a cookie): not stored."""
