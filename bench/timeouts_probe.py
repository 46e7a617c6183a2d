"""A benchmark probe for bench/timeouts.py, not part of the product.

The worker that bench/timeouts.py starts imports this module (``-I bench.timeouts_probe``);
no other worker does. ``noop_at`` does nothing but note how late Celery ran it: the
floor under any task scheduled for a moment (the clocks' timeouts are such tasks).
"""

from __future__ import annotations

import os
import time

import redis
from celery import shared_task

_client: redis.Redis | None = None


@shared_task(name="bench.timeouts_probe.noop_at", ignore_result=True)
def noop_at(key: str, eta_ms: int) -> None:
    """Push (when it ran − when it was due) in ms to the Redis list ``key``."""
    ran_ms = time.time_ns() // 1_000_000
    global _client
    if _client is None:
        _client = redis.Redis.from_url(os.environ["REDIS_URL"])
    _client.rpush(key, ran_ms - eta_ms)
