"""Where the edge of the public pages (``tournaments.edge_cache``) keeps what it keeps:
whole responses, the version of each public tournament that readers are given (its
"published" version), and the addresses readers asked for lately (which a writer renders
ahead). Redis itself when ``REDIS_URL`` is set, else Django's cache (one process:
``make run`` without Redis). Each process also keeps the responses it served lately in
its own memory: a key names one version of one page, so what it holds never changes."""

from __future__ import annotations

import json
import os
import pickle
import threading
import time
from collections import OrderedDict
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache

# Moves a tournament's published version forward — never back, unless the slug now
# names another tournament (one deleted, another made) — and stamps when it was checked.
# KEYS[1]: the slug's key; ARGV: tournament id, its creation instant, version, checked at, lifetime.
PUBLISH = """
local current = redis.call('GET', KEYS[1])
if current then
  local id, made, value, checked = string.match(current, '^(%d+) (%d+) (%d+) ([%d.]+)$')
  if id == ARGV[1] and made == ARGV[2] then
    local new = tonumber(ARGV[3])
    if tonumber(value) > new then return 0 end
    if tonumber(value) == new and tonumber(checked) >= tonumber(ARGV[4]) then return 0 end
  end
end
redis.call('SET', KEYS[1], ARGV[1] .. ' ' .. ARGV[2] .. ' ' .. ARGV[3] .. ' ' .. ARGV[4], 'EX', ARGV[5])
return 1
"""
# Removes the slug's published version if it is still the one seen (KEYS[1], ARGV[1]).
UNPUBLISH = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


@dataclass(frozen=True)
class Published:
    """A public tournament's published version, and when it was last checked against
    the database (a writer's publishing counts as a check)."""

    tournament_id: int
    made: int
    value: int
    checked_at: float

    def encode(self) -> str:
        return f"{self.tournament_id} {self.made} {self.value} {self.checked_at:.6f}"

    @classmethod
    def decode(cls, raw: bytes | str) -> Published:
        text = raw.decode() if isinstance(raw, bytes) else raw
        tournament_id, made, value, checked_at = text.split(" ")
        return cls(int(tournament_id), int(made), int(value), float(checked_at))


class LocalResponses:
    """The responses this process served lately, least recently used out first, within
    ``max_bytes`` of bodies. Thread-safe (gunicorn's threaded workers)."""

    def __init__(self, max_bytes: int):
        self.max_bytes = max_bytes
        self._entries: OrderedDict[str, Any] = OrderedDict()
        self._sizes: dict[str, int] = {}
        self._bytes = 0
        self._lock = threading.Lock()

    def get(self, key: str) -> Any:
        with self._lock:
            value = self._entries.get(key)
            if value is not None:
                self._entries.move_to_end(key)
            return value

    def put(self, key: str, value: Any, size: int) -> None:
        if size > self.max_bytes:
            return
        with self._lock:
            if key in self._entries:
                self._bytes -= self._sizes[key]
            self._entries[key], self._sizes[key] = value, size
            self._entries.move_to_end(key)
            self._bytes += size
            while self._bytes > self.max_bytes:
                old, _ = self._entries.popitem(last=False)
                self._bytes -= self._sizes.pop(old)

    def clear(self) -> None:
        with self._lock:
            self._entries.clear()
            self._sizes.clear()
            self._bytes = 0


def _size_of(value: Any) -> int:
    """The body's size of a stored response (status, headers, body); 1 for anything else."""
    return len(value[2]) if isinstance(value, tuple) and len(value) == 3 else 1


class ResponseStore:
    """Whole responses and notes: Redis itself when ``REDIS_URL`` is set — one
    client per process, under the cache's key prefix (Django's cache builds a client
    object for every call, which costs as much as the read itself) — else Django's cache."""

    def __init__(self) -> None:
        self._redis: Any = None
        self._scripts: dict[str, Any] = {}
        self._thread = threading.local()  # each thread's own connection for the readers' GETs
        self._lock = threading.Lock()  # publishing through Django's cache (one process)
        self.local = LocalResponses(max_bytes=getattr(settings, "EDGE_LOCAL_BYTES", 32 * 1024 * 1024))

    def _client(self) -> Any:
        if self._redis is None:
            import redis

            self._redis = redis.Redis.from_url(settings.REDIS_URL)
        return self._redis

    def _read(self, key: str) -> bytes | None:
        """GET on a connection of this thread's own: what every reader does, without the
        client's pool and retry bookkeeping (a third of the read's cost). A connection
        that fails is dropped; the caller hears the error."""
        connection, pid = getattr(self._thread, "connection", (None, None))
        if connection is None or pid != os.getpid():  # none yet, or inherited through a fork
            connection = self._client().connection_pool.make_connection()
            self._thread.connection = (connection, os.getpid())
        try:
            connection.send_command("GET", self._name(key))
            return connection.read_response()
        except BaseException:
            connection.disconnect()
            raise

    def _script(self, name: str, source: str) -> Any:
        if name not in self._scripts:
            self._scripts[name] = self._client().register_script(source)
        return self._scripts[name]

    @staticmethod
    def _name(key: str) -> str:
        return f"{settings.CACHES['default'].get('KEY_PREFIX', '')}:edge:{key}"

    # --- Responses ---------------------------------------------------------------------
    def response(self, key: str) -> Any:
        """A stored response: from this process's memory, else from the store (and kept)."""
        value = self.local.get(key)
        if value is None:
            value = self.get(key)
            if value is not None:
                self.local.put(key, value, _size_of(value))
        return value

    def get(self, key: str) -> Any:
        if not settings.REDIS_URL:
            return cache.get(key)
        raw = self._read(key)
        return None if raw is None else pickle.loads(raw)  # noqa: S301 - only what ``set`` wrote

    def set(self, key: str, value: Any, seconds: int) -> None:
        if not settings.REDIS_URL:
            cache.set(key, value, seconds)
        else:
            self._client().set(self._name(key), pickle.dumps(value, pickle.HIGHEST_PROTOCOL), ex=seconds)

    def set_many(self, values: dict[str, Any], seconds: int) -> None:
        if not settings.REDIS_URL:
            cache.set_many(values, seconds)
        else:
            pipeline = self._client().pipeline(transaction=False)
            for key, value in values.items():
                pipeline.set(self._name(key), pickle.dumps(value, pickle.HIGHEST_PROTOCOL), ex=seconds)
            pipeline.execute()
        for key, value in values.items():
            self.local.put(key, value, _size_of(value))

    def delete(self, key: str) -> None:
        if not settings.REDIS_URL:
            cache.delete(key)
        else:
            self._client().delete(self._name(key))

    # --- Published versions ------------------------------------------------------------
    def published(self, slug: str) -> Published | None:
        if not settings.REDIS_URL:
            raw = cache.get(f"published:{slug}")
        else:
            raw = self._read(f"published:{slug}")
        return None if raw is None else Published.decode(raw)

    def publish(self, slug: str, published: Published, seconds: int) -> None:
        """The slug's published version becomes ``published`` unless it is further on
        (or as far, checked later): it never moves back."""
        if settings.REDIS_URL:
            script = self._script("publish", PUBLISH)
            script(
                keys=[self._name(f"published:{slug}")],
                args=[published.tournament_id, published.made, published.value, f"{published.checked_at:.6f}", seconds],
            )
            return
        with self._lock:
            current = self.published(slug)
            same = current is not None and (current.tournament_id, current.made) == (
                published.tournament_id,
                published.made,
            )
            if same and (current.value, current.checked_at) >= (published.value, published.checked_at):
                return
            cache.set(f"published:{slug}", published.encode(), seconds)

    def unpublish(self, slug: str, seen: Published) -> None:
        """No published version for the slug (the tournament is gone), unless it moved since ``seen``."""
        if settings.REDIS_URL:
            self._script("unpublish", UNPUBLISH)(keys=[self._name(f"published:{slug}")], args=[seen.encode()])
            return
        with self._lock:
            if self.published(slug) == seen:
                cache.delete(f"published:{slug}")

    # --- Where readers read --------------------------------------------------------------
    def note_address(self, key: str, address: dict[str, str], seconds: int) -> None:
        """Note that readers asked for ``address`` (now); the notes go ``seconds`` after the last."""
        field, now = json.dumps(address, sort_keys=True), time.time()
        if not settings.REDIS_URL:
            noted = cache.get(key) or {}
            cache.set(key, {**noted, field: now}, seconds)
            return
        client, name = self._client(), self._name(key)
        client.pipeline(transaction=False).hset(name, field, now).expire(name, seconds).execute()

    def hot_addresses(self, key: str, seconds: int, most: int) -> list[dict[str, str]]:
        """The ``most`` addresses read last, within the last ``seconds``."""
        if not settings.REDIS_URL:
            noted = cache.get(key) or {}
        else:
            noted = {f.decode(): float(t) for f, t in self._client().hgetall(self._name(key)).items()}
        since = time.time() - seconds
        recent = sorted(((t, f) for f, t in noted.items() if t >= since), reverse=True)[:most]
        return [json.loads(field) for _t, field in recent]


store = ResponseStore()
