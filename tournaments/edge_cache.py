"""The public pages at the edge: a WSGI layer in front of Django that answers a reader
with no cookie at all (the public, a projector, a crawler) from the page cache, before
any middleware, URL resolving or view runs — about what a static file costs.

What it serves is what Django answered the first such reader of the same address, page
version and language: ``page_cache.cached_page`` marks a response that anybody may be
given (``share``, with the version it rendered), this layer stores it whole (status,
headers, body) under that version's key. A key names one version of one page, so what is
stored under it never changes; each process keeps the pages it served lately in its own
memory too (``edge_store``).

**Which version a reader is given.** With Redis (``REDIS_URL``; any number of web
processes) the store holds each public tournament's *published* version: one small read
per reader, no SQL. A change is published by its writer once its transaction has
committed:

- a change made through a web request (a result, a score sheet) first has the pages that
  readers asked for lately (``HOT_PAGES``) rendered under the new version, through this
  very layer, and is published after that, before the writer is told it is done. Until
  then readers keep the page of the version before — nobody has been told of the change
  yet, so that page is not stale: every change already confirmed is in it;
- a change made elsewhere (a clock's flag in a Celery worker) is published when it
  commits, and rendered by its first reader.

A published version never moves back. If a process dies between its commit and its
publishing, nobody has been told of its change; readers check the published version
against the database every ``CHECK_SECONDS`` and find it then.

Without Redis (``make run``: one machine, each process with a cache of its own) the
reader's version is read from the database, one query.

Anything else — another method, a cookie, another address, an unknown or draft
tournament, a database or cache that does not answer — goes to Django unchanged.

A live page's poll ("has anything changed since version N?") is answered here too when
nothing has: 204, from the same read.
"""

from __future__ import annotations

import gzip
import io
import logging
import re
import sys
import time
from collections.abc import Callable, Iterable
from contextvars import ContextVar
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signals
from django.db import connection, transaction
from django.utils import translation

from tournaments import page_cache
from tournaments.edge_store import Published, store
from tournaments.models import PageVersion, Tournament

logger = logging.getLogger(__name__)

# The public pages that ``page_cache.cached_page`` serves (tournaments/urls.py).
PUBLIC_PAGE = re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]+)/(?:results/|projector/|m/\d+/)?$")
# What a live page asks every second or two (``views.public.live``): "?since=<version>".
LIVE = re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]+)/(?:live/[-a-zA-Z0-9_]+/|m/\d+/live/)$")
SINCE = re.compile(r"(?:^|&)since=(?P<version>\d{1,18})(?:&|$)")
SHARE = page_cache.EDGE_SHARE  # the environ key through which Django says "anybody may have this"
PRERENDER = "director.edge.prerender"  # the environ key of a writer's own rendering of a page
DATABASE_USED = "director.edge.database"  # the environ key saying the edge queried the database
WRITES = frozenset({"POST", "PUT", "PATCH", "DELETE"})
HOT_SECONDS, HOT_PAGES = 120, 6  # a writer renders the pages read in the last 2 minutes, 6 at most
NOTE_EVERY = 30  # seconds: how often a process notes again that an address is being read
NOTED_AT_MOST = 10_000  # addresses a process remembers having noted
CHECK_SECONDS = 1.0  # how old a published version may be before a reader checks it in the database

StartResponse = Callable[..., Any]


@dataclass(frozen=True)
class Version:
    """A public tournament's page version, and what its cache keys are made of."""

    slug: str
    tournament_id: int
    made: int  # the tournament's creation instant (µs): a database made again reuses ids
    value: int

    def key(self, language: str, name: str) -> str:
        return page_cache.page_key(self.tournament_id, self.made, self.value, language, name)

    @property
    def hot_key(self) -> str:
        return f"hot:{self.tournament_id}.{self.made}"

    def published(self, checked_at: float) -> Published:
        return Published(self.tournament_id, self.made, self.value, checked_at)


def publishing() -> bool:
    """Whether readers are given the published version (a store that every web and worker
    process shares: Redis) rather than the database's (``EDGE_PUBLISHED_VERSIONS``)."""
    return settings.EDGE_PUBLISHED_VERSIONS


def publish(version: Version, checked_at: float | None = None) -> None:
    """Readers are given ``version`` (or a later one) from now on. A store that does not
    answer is logged: readers find the version when they next check the database."""
    if not publishing():
        return
    try:
        published = version.published(time.time() if checked_at is None else checked_at)
        store.publish(version.slug, published, page_cache.lifetime())
    except Exception:
        logger.warning("The page cache could not publish version %s of %s", version.value, version.slug, exc_info=True)


# The new versions that the web request being served has committed (None: not in a web
# write, e.g. a Celery worker): ``EdgeCache._write`` renders them, then publishes them.
_NEW_VERSIONS: ContextVar[list[Version] | None] = ContextVar("edge_new_versions", default=None)


def note_new_version(tournament: Tournament, value: int) -> None:
    """A writer's transaction moves the tournament's pages to version ``value``
    (``services``). Once it commits, a web request's edge renders the version's pages and
    publishes it before answering; anywhere else it is published at once."""
    version = Version(tournament.slug, tournament.pk, page_cache.instant(tournament.created_at), value)
    pending = _NEW_VERSIONS.get()
    transaction.on_commit(lambda: publish(version) if pending is None else pending.append(version))


class EdgeCache:
    """Wraps the Django WSGI application (``director/wsgi.py``)."""

    def __init__(self, app: Callable[[dict, StartResponse], Iterable[bytes]]):
        self.app = app
        self._noted: dict[str, float] = {}  # address -> when this process last noted it read

    def __call__(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        method = environ.get("REQUEST_METHOD")
        if method != "GET":
            return self._write(environ, start_response) if method in WRITES else self.app(environ, start_response)
        path = environ.get("PATH_INFO", "")
        live = LIVE.match(path)
        if live is not None:
            return self._live(environ, start_response, live["slug"])
        found = PUBLIC_PAGE.match(path)
        if found is None or environ.get("HTTP_COOKIE"):
            return self.app(environ, start_response)
        if PRERENDER in environ:  # a writer renders the database's latest version
            return self._through_django(environ, start_response, None)
        version = self._current(found["slug"], environ)
        if version is None:
            return self._through_django(environ, start_response, None)
        language, name = self._address(environ)
        stored = self._response(variant(environ, version.key(language, name)))
        if stored is None:
            return self._through_django(environ, start_response, version)  # Django sends its own
        self._note_read(version, environ, name, language)
        self._finished(environ)
        return self._send(start_response, stored)

    # --- Writes -------------------------------------------------------------------------
    def _write(self, environ: dict, start_response: StartResponse) -> Iterable[bytes]:
        """Django handles the write; the pages of each version it committed are rendered,
        and the version published, before its answer goes out (WSGI sends the headers
        with the body's first piece)."""
        token = _NEW_VERSIONS.set([])
        try:
            result = self.app(environ, start_response)
            committed = _NEW_VERSIONS.get()
        finally:
            _NEW_VERSIONS.reset(token)
        by_tournament: dict[int, list[Version]] = {}
        for version in committed:
            by_tournament.setdefault(version.tournament_id, []).append(version)
        for versions in by_tournament.values():
            self.prerender(*versions)
        return result

    def prerender(self, *versions: Version) -> None:
        """Render the pages readers asked for lately in the tournament's latest version,
        through this very edge (so exactly as a reader would get them), then publish the
        latest of ``versions`` (those of one tournament that this writer committed) or of
        the pages rendered, whichever is further on."""
        newest = max(versions, key=lambda v: v.value)
        try:
            addresses = store.hot_addresses(newest.hot_key, HOT_SECONDS, HOT_PAGES)
        except Exception:
            logger.warning("The page cache could not read which pages are read", exc_info=True)
            addresses = []
        for address in addresses:
            environ = synthetic_environ(address)
            try:
                result = self(environ, lambda status, headers, exc_info=None: None)
                try:
                    for _piece in result:
                        pass
                finally:
                    if hasattr(result, "close"):
                        result.close()
            except Exception:
                logger.warning("Could not render %s ahead", address.get("path"), exc_info=True)
            rendered = environ.get(SHARE)
            if isinstance(rendered, tuple) and rendered[:2] == (newest.tournament_id, newest.made):
                newest = max(newest, Version(newest.slug, *rendered), key=lambda v: v.value)
        publish(newest)

    def _live(self, environ: dict, start_response: StartResponse, slug: str) -> Iterable[bytes]:
        """Nothing changed since the version the live page shows: 204, whoever asks (the
        answer has no content); anything else is Django's."""
        since = SINCE.search(environ.get("QUERY_STRING", ""))
        if since is None:
            return self.app(environ, start_response)
        version = self._current(slug, environ)
        if version is None or version.value != int(since["version"]):
            return self.app(environ, start_response)
        self._finished(environ)
        start_response("204 No Content", [("Cache-Control", "no-store")])
        return []

    # --- The lookup ---------------------------------------------------------------------
    @staticmethod
    def _address(environ: dict) -> tuple[str, str]:
        """The reader's language and the name of the page in the cache (host and address)."""
        language = translation.get_language_from_request(_CookielessRequest(environ))
        address = environ.get("SCRIPT_NAME", "") + environ.get("PATH_INFO", "")
        if environ.get("QUERY_STRING"):
            address += "?" + environ["QUERY_STRING"]
        return language, f"edge:{environ.get('HTTP_HOST', '')}{address}"

    def _current(self, slug: str, environ: dict) -> Version | None:
        """The version readers are given; None for a tournament the public may not see (or
        a database that does not answer)."""
        if not publishing():
            return self._version(slug, environ)
        try:
            published = store.published(slug)
        except Exception:
            logger.warning("The page cache could not read the version of %s", slug, exc_info=True)
            return self._version(slug, environ)
        now = time.time()
        if published is not None and now - published.checked_at < CHECK_SECONDS:
            return Version(slug, published.tournament_id, published.made, published.value)
        version = self._version(slug, environ)  # checked in the database
        if version is not None:
            publish(version, checked_at=now)
        elif published is not None:
            try:
                store.unpublish(slug, published)
            except Exception:
                logger.warning("The page cache could not unpublish %s", slug, exc_info=True)
        return version

    def _version(self, slug: str, environ: dict) -> Version | None:
        """The database's version of the tournament; None for one the public may not see
        (or a database that does not answer)."""
        # The signal Django sends as a request starts: its database connections are
        # checked and closed when too old, as for any request that uses them.
        signals.request_started.send(sender=self.__class__, environ=environ)
        environ[DATABASE_USED] = True
        try:
            row = current_version(slug)
        except Exception:  # the database is away: Django answers (and reports it)
            logger.warning("The page cache could not read the version of %s", slug, exc_info=True)
            return None
        return Version(slug, *row) if row is not None else None

    def _finished(self, environ: dict) -> None:
        """The edge answered: Django's signal that a request is done, if it used the database."""
        if environ.pop(DATABASE_USED, False):
            signals.request_finished.send(sender=self.__class__)

    @staticmethod
    def _response(key: str) -> StoredResponse | None:
        try:
            return store.response(key)
        except Exception:
            logger.warning("The page cache could not be read", exc_info=True)
            return None

    def _note_read(self, version: Version, environ: dict, name: str, language: str) -> None:
        """Readers still ask for this address: noted now and then, so that writers go on
        rendering it ahead."""
        local = f"{version.hot_key}|{language}|{name}"
        now = time.monotonic()
        if now - self._noted.get(local, -NOTE_EVERY) < NOTE_EVERY:
            return
        if len(self._noted) > NOTED_AT_MOST:  # addresses with ever new query strings
            self._noted.clear()
        self._noted[local] = now
        try:
            store.note_address(version.hot_key, address_of(environ), HOT_SECONDS)
        except Exception:
            logger.warning("The page cache could not note a read", exc_info=True)

    @staticmethod
    def _send(start_response: StartResponse, stored: StoredResponse) -> Iterable[bytes]:
        status, headers, body = stored
        start_response(status, list(headers))
        return [body]

    # --- The first reader ---------------------------------------------------------------
    def _through_django(self, environ: dict, start_response: StartResponse, seen: Version | None) -> Iterable[bytes]:
        """Django answers; a response it marked as anybody's is stored under the version it
        rendered, for the next readers (and sent as they will get it: compressed if this
        one accepts that). That version is published, and the address noted as one that
        readers ask for (a writer renders it ahead) — unless a writer is rendering it
        ahead: the writer publishes once all its pages are ready. ``seen``: the version
        the reader was to be given, if any."""
        environ[SHARE] = None
        answered: dict[str, Any] = {}

        def remember(status: str, headers: list[tuple[str, str]], exc_info=None):
            # Headers are sent with the first piece of the body (WSGI): held until then.
            answered.update(status=status, headers=headers, exc_info=exc_info)
            return _no_write

        result = self.app(environ, remember)
        rendered = environ[SHARE]
        shared = (
            rendered is not None
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
        slug = PUBLIC_PAGE.match(environ.get("PATH_INFO", ""))["slug"]
        version = Version(slug, *rendered)
        language, name = self._address(environ)
        key = version.key(language, name)
        plain, compressed = stored_responses(answered["status"], answered["headers"], body)
        try:
            store.set_many({key: plain, gzip_key(key): compressed}, page_cache.lifetime())
        except Exception:
            logger.warning("The page cache could not be written", exc_info=True)
        else:
            if PRERENDER not in environ:
                if seen is not None and (seen.tournament_id, seen.made) == (version.tournament_id, version.made):
                    publish(version)
                self._note_read(version, environ, name, language)
        return self._send(start_response, compressed if variant(environ, key) != key else plain)


def _no_write(data: bytes) -> None:
    raise NotImplementedError("Django returns its body; it never calls write()")


StoredResponse = tuple[str, list[tuple[str, str]], bytes]  # status, headers, body
COMPRESS_AT_LEAST = 1024  # bytes: below that, gzip's own overhead eats the saving


def stored_responses(status: str, headers: list[tuple[str, str]], body: bytes) -> tuple[StoredResponse, StoredResponse]:
    """What the edge keeps of a response: as Django gave it, and gzip-compressed for the
    readers who accept that (every browser; one compression per page version, not per
    reader) — each stored apart, so that a read fetches only the one it sends. Both say
    that they vary with the Accept-Encoding."""
    names = {name.lower(): value for name, value in headers}
    vary = [v.strip() for v in names.get("vary", "").split(",") if v.strip()]
    if "accept-encoding" not in {v.lower() for v in vary}:
        vary.append("Accept-Encoding")
        headers = [(n, v) for n, v in headers if n.lower() != "vary"] + [("Vary", ", ".join(vary))]
    plain = (status, headers, body)
    if len(body) < COMPRESS_AT_LEAST or "content-encoding" in names:
        return plain, plain
    compressed = gzip.compress(body, 6, mtime=0)
    headers = [(n, v) for n, v in headers if n.lower() != "content-length"]
    headers += [("Content-Encoding", "gzip"), ("Content-Length", str(len(compressed)))]
    return plain, (status, headers, compressed)


def gzip_key(key: str) -> str:
    return f"{key}:gzip"


def variant(environ: dict, key: str) -> str:
    """The key of the stored response this reader gets: compressed if it accepts that."""
    return gzip_key(key) if accepts_gzip(environ.get("HTTP_ACCEPT_ENCODING", "")) else key


def accepts_gzip(accept_encoding: str) -> bool:
    """Whether an Accept-Encoding header takes gzip ("gzip", "gzip;q=0.5", "*"; not
    "gzip;q=0"). An explicit "gzip" weighs over "*" (RFC 9110); a weight that is not a
    number counts as 0."""
    weights: dict[str, float] = {}
    for part in accept_encoding.split(","):
        coding, *params = (piece.strip() for piece in part.split(";"))
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value.strip())
                except ValueError:
                    weight = 0.0
        weights[coding.lower()] = weight
    return weights.get("gzip", weights.get("*", 0.0)) > 0


# What a writer needs to ask for a page again as its reader did (``synthetic_environ``).
ADDRESS_KEYS = (
    "HTTP_HOST",
    "SERVER_NAME",
    "SERVER_PORT",
    "SCRIPT_NAME",
    "PATH_INFO",
    "QUERY_STRING",
    "wsgi.url_scheme",
)


def address_of(environ: dict) -> dict[str, str]:
    address = {name: str(environ.get(name, "")) for name in ADDRESS_KEYS}
    address["language"] = translation.get_language_from_request(_CookielessRequest(environ))
    proxy = settings.SECURE_PROXY_SSL_HEADER  # the scheme behind a proxy, if one says it
    if proxy and proxy[0] in environ:
        address[proxy[0]] = str(environ[proxy[0]])
    return address


def synthetic_environ(address: dict[str, str]) -> dict[str, Any]:
    """A cookie-less GET of a noted address in its reader's language, marked as the writer's."""
    environ: dict[str, Any] = {name: value for name, value in address.items() if name != "language"}
    environ.update(
        {
            "REQUEST_METHOD": "GET",
            "HTTP_ACCEPT_LANGUAGE": address.get("language", ""),
            "SERVER_PROTOCOL": "HTTP/1.1",
            "REMOTE_ADDR": "127.0.0.1",
            "wsgi.version": (1, 0),
            "wsgi.input": io.BytesIO(b""),
            "wsgi.errors": sys.stderr,
            "wsgi.multithread": True,
            "wsgi.multiprocess": True,
            "wsgi.run_once": False,
            PRERENDER: True,
        }
    )
    return environ


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
    if connection.vendor == "sqlite":  # text or a naive datetime from a raw query: made aware as the ORM does
        created_at = connection.ops.convert_datetimefield_value(created_at, None, connection)
    return tournament_id, page_cache.instant(created_at), version or 0


class _CookielessRequest:
    """What ``get_language_from_request`` reads of a request without cookies: the
    Accept-Language header — the same choice ``LocaleMiddleware`` makes for it."""

    COOKIES: dict[str, str] = {}

    def __init__(self, environ: dict):
        self.META = environ
