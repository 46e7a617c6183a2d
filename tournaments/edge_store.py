"""Where the edge of the public pages (``tournaments.edge_cache``) keeps what it keeps:
whole responses, the "being written" marks of new versions, and the addresses readers
asked for lately (which a writer renders ahead). Redis itself when ``REDIS_URL`` is set,
else Django's cache (one process: ``make run`` without Redis)."""

from __future__ import annotations

import json
import pickle
import time
from typing import Any

from django.conf import settings
from django.core.cache import cache


class ResponseStore:
    """Whole responses and notes: Redis itself when ``REDIS_URL`` is set — one
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

    def set_many(self, values: dict[str, Any], seconds: int) -> None:
        if not settings.REDIS_URL:
            cache.set_many(values, seconds)
            return
        pipeline = self._client().pipeline(transaction=False)
        for key, value in values.items():
            pipeline.set(self._name(key), pickle.dumps(value, pickle.HIGHEST_PROTOCOL), ex=seconds)
        pipeline.execute()

    def get_many(self, keys: list[str]) -> list[Any]:
        """The values of ``keys`` in their order (None where missing), in one round trip."""
        if not settings.REDIS_URL:
            found = cache.get_many(keys)
            return [found.get(key) for key in keys]
        raws = self._client().mget([self._name(key) for key in keys])
        return [None if raw is None else pickle.loads(raw) for raw in raws]  # noqa: S301 - only what ``set`` wrote

    def delete(self, key: str) -> None:
        if not settings.REDIS_URL:
            cache.delete(key)
        else:
            self._client().delete(self._name(key))

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
