"""The public pages at the edge: a WSGI layer in front of Django that answers a reader
with no cookie at all (the public, a projector, a crawler) from the page cache, before
any middleware, URL resolving or view runs — one SQL query (the tournament's page
version) and one cache read, about what a static file costs.

What it serves is what Django answered the first such reader of the same address, page
version and language: ``page_cache.cached_page`` marks a response that anybody may be
given (``share``), this layer stores it whole (status, headers, body) under the
version's key. Correctness comes from the key, as for the rest of the page cache: a
change bumps the version in its own transaction, so the moment it commits every reader
looks up a key nobody has stored yet and Django renders the new state.

Anything else — another method, a cookie, another address, an unknown or draft
tournament, a database or cache that does not answer — goes to Django unchanged.

A live page's poll ("has anything changed since version N?") is answered here too when
nothing has: 204, from the same one query.
"""

from __future__ import annotations

import gzip
import logging
import pickle
import re
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.core import signals
from django.core.cache import cache
from django.db import connection
from django.utils import translation

from tournaments import page_cache
from tournaments.models import PageVersion, Tournament

logger = logging.getLogger(__name__)

# The public pages that ``page_cache.cached_page`` serves (tournaments/urls.py).
PUBLIC_PAGE = re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]+)/(?:results/|projector/|m/\d+/)?$")
# What a live page asks every second or two (``views.public.live``): "?since=<version>".
LIVE = re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]+)/(?:live/[-a-zA-Z0-9_]+/|m/\d+/live/)$")
SINCE = re.compile(r"(?:^|&)since=(?P<version>\d{1,18})(?:&|$)")
SHARE = page_cache.EDGE_SHARE  # the environ key through which Django says "anybody may have this"

StartResponse = Callable[..., Any]


class EdgeCache:
    """Wraps the Django WSGI application (``director/wsgi.py``)."""

    def __init__(self, app: Callable[[dict, StartResponse], Iterable[bytes]]):
        self.app = app

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        if environ.get("REQUEST_METHOD") != "GET":
            return self.app(environ, start_response)
        path = environ.get("PATH_INFO", "")
        live = LIVE.match(path)
        if live is not None:
            return self._live(environ, start_response, live["slug"])
        found = PUBLIC_PAGE.match(path)
        if found is None or environ.get("HTTP_COOKIE"):
            return self.app(environ, start_response)
        # The signals Django sends around a request: its database connections are
        # checked and closed when too old, as for any request.
        signals.request_started.send(sender=self.__class__, environ=environ)
        key = self._key(environ, found["slug"])
        stored = self._get(key) if key is not None else None
        if stored is None:
            return self._through_django(environ, start_response, key)  # Django sends its own
        signals.request_finished.send(sender=self.__class__)
        return self._send(environ, start_response, stored)

    @staticmethod
    def _send(environ: dict, start_response: StartResponse, stored: StoredResponse) -> Iterable[bytes]:
        """The stored response, gzip-compressed for a reader who accepts it (every browser)."""
        status, headers, body, compressed = stored
        if compressed is not None and accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING", "")):
            headers = [(n, v) for n, v in headers if n.lower() != "content-length"]
            headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(compressed)))]
            body = compressed
        start_response(status, list(headers))
        return [body]

    def _live(self, environ: dict, start_response: StartResponse, slug: str) -> Iterable[bytes]:
        """Nothing changed since the version the live page shows: 204, whoever asks (the
        answer has no content); anything else is Django's."""
        since = SINCE.search(environ.get("QUERY_STRING", ""))
        if since is None:
            return self.app(environ, start_response)
        signals.request_started.send(sender=self.__class__, environ=environ)
        row = self._version(slug)
        if row is None or row[2] != int(since["version"]):
            return self.app(environ, start_response)
        signals.request_finished.send(sender=self.__class__)
        start_response("204 No Content", [("Cache-Control", "no-store")])
        return []

    # --- The lookup ---------------------------------------------------------------------
    def _key(self, environ: dict, slug: str) -> str | None:
        """The cache key of this address in its tournament's current version and the
        reader's language; None for a tournament the public may not see (or no answer)."""
        row = self._version(slug)
        if row is None:
            return None
        tournament_id, made, version = row
        language = translation.get_language_from_request(_CookielessRequest(environ))
        address = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        if environ.get("QUERY_STRING"):
            address += "?" + environ["QUERY_STRING"]
        name = f"edge:{environ.get('HTTP_HOST', '')}{address}"
        return page_cache.page_key(tournament_id, made, version, language, name)

    @staticmethod
    def _version(slug: str) -> tuple[int, int, int] | None:
        try:
            return current_version(slug)
        except Exception:  # the database is away: Django answers (and reports it)
            logger.warning("The page cache could not read the version of %s", slug, exc_info=True)
            return None

    @staticmethod
    def _get(key: str) -> StoredResponse | None:
        try:
            return store.get(key)
        except Exception:
            logger.warning("The page cache could not be read", exc_info=True)
            return None

    # --- The first reader ---------------------------------------------------------------
    def _through_django(self, environ: dict, start_response: StartResponse, key: str | None) -> Iterable[bytes]:
        """Django answers; a response it marked as anybody's is stored for the next reader
        (and sent as the next readers will get it: compressed if this one accepts that)."""
        environ[SHARE] = False
        answered: dict[str, Any] = {}

        def remember(status: str, headers: list[tuple[str, str]], exc_info=None):
            # Headers are sent with the first piece of the body (WSGI): held until then.
            answered.update(status=status, headers=headers, exc_info=exc_info)
            return _no_write

        result = self.app(environ, remember)
        shared = (
            key is not None
            and environ[SHARE]
            and answered.get("status", "").startswith("200")
            and not any(name.lower() == "set-cookie" for name, _ in answered["headers"])
        )
        if not shared:
            if answered.get("exc_info"):
                start_response(answered["status"], answered["headers"], answered["exc_info"])
            elif answered:
                start_response(answered["status"], answered["headers"])
            return result
        try:
            body = b"".join(result)
        finally:
            if hasattr(result, "close"):
                result.close()
        stored = stored_response(answered["status"], answered["headers"], body)
        try:
            store.set(key, stored, page_cache.lifetime())
        except Exception:
            logger.warning("The page cache could not be written", exc_info=True)
        return self._send(environ, start_response, stored)


def _no_write(data: bytes) -> None:
    raise NotImplementedError("Django returns its body; it never calls write()")


# (status, headers, body, the body gzip-compressed or None)
StoredResponse = tuple[str, list[tuple[str, str]], bytes, bytes | None]
COMPRESS_AT_LEAST = 1024  # bytes: below that, gzip's own overhead eats the saving
GZIP_TOKEN = re.compile(r"(?:^|,)\s*(?:gzip|\*)\s*(?:;\s*q\s*=\s*(?P<q>[\d.]+))?\s*(?:,|$)", re.IGNORECASE)


def stored_response(status: str, headers: list[tuple[str, str]], body: bytes) -> StoredResponse:
    """What the edge keeps of a response: its headers say that it varies with the
    Accept-Encoding, and a large enough body is kept gzip-compressed too (at the cost of
    one compression per page version, not per reader)."""
    names = {name.lower(): value for name, value in headers}
    vary = [v.strip() for v in names.get("vary", "").split(",") if v.strip()]
    if "accept-encoding" not in {v.lower() for v in vary}:
        headers = [(n, v) for n, v in headers if n.lower() != "vary"] + [
            ("Vary", ", ".join([*vary, "Accept-Encoding"]))
        ]
    compressible = len(body) >= COMPRESS_AT_LEAST and "content-encoding" not in names
    return status, headers, body, gzip.compress(body, 6, mtime=0) if compressible else None


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip ("gzip", "gzip;q=0.5", "*"; not "gzip;q=0")."""
    found = GZIP_TOKEN.search(accept_encoding)
    if found is None:
        return False
    try:
        return found["q"] is None or float(found["q"]) > 0
    except ValueError:
        return False


class ResponseStore:
    """Where the edge keeps whole responses: Redis itself when ``REDIS_URL`` is set — one
    client per process, under the cache's key prefix (Django's cache builds a client
    object for every call, which costs as much as the read itself) — else Django's cache."""

    def __init__(self) -> None:
        self._redis: Any = None

    def _client(self) -> Any:
        if self._redis is None:
            import redis

            self._redis = redis.Redis.from_url(settings.REDIS_URL)
        return self._redis

    @staticmethod
    def _name(key: str) -> str:
        return f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:edge:{key}"

    def get(self, key: str) -> Any:
        if not settings.REDIS_URL:
            return cache.get(key)
        raw = self._client().get(self._name(key))
        return None if raw is None else pickle.loads(raw)  # noqa: S301 - only what ``set`` wrote

    def set(self, key: str, value: Any, seconds: int) -> None:
        if not settings.REDIS_URL:
            cache.set(key, value, seconds)
        else:
            self._client().set(self._name(key), pickle.dumps(value, pickle.HIGHEST_PROTOCOL), ex=seconds)


store = ResponseStore()


def current_version(slug: str) -> tuple[int, int, int] | None:
    """(tournament id, its creation instant in µs, page version) of a public tournament,
    in one query; None for no such tournament or a draft."""
    tournaments, versions = Tournament._meta.db_table, PageVersion._meta.db_table
    quote = connection.ops.quote_name
    # The table names come from the models, the values are parameters.
    sql = (
        f"SELECT t.id, t.created_at, v.value FROM {quote(tournaments)} t "  # noqa: S608
        f"LEFT JOIN {quote(versions)} v ON v.tournament_id = t.id "
        f"WHERE t.slug = %s AND t.status <> %s"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, [slug, Tournament.Status.DRAFT])
        row = cursor.fetchone()
    if row is None:
        return None
    tournament_id, created_at, version = row
    if isinstance(created_at, str):  # SQLite hands back text for a raw query
        created_at = connection.ops.convert_datetimefield_value(created_at, None, connection)
    return tournament_id, page_cache.instant(created_at), version or 0


class _CookielessRequest:
    """What ``get_language_from_request`` reads of a request without cookies: the
    Accept-Language header — the same choice ``LocaleMiddleware`` makes for it."""

    COOKIES: dict[str, str] = {}

    def __init__(self, environ: dict):
        self.META = environ
