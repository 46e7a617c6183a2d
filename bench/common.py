"""What the benches that need the production setup share: the check that PostgreSQL and
Redis are there, a throw-away database of the bench's own on DATABASE_URL's server, and
the nearest-rank percentile."""

from __future__ import annotations

import math
import os
import sys
from urllib.parse import urlsplit, urlunsplit


def require_services(bench: str) -> tuple[str, str]:
    """DATABASE_URL (PostgreSQL) and REDIS_URL, or exit 2 saying what is missing."""
    database_url = os.environ.get("DATABASE_URL", "")
    redis_url = os.environ.get("REDIS_URL", "")
    problems = []
    if urlsplit(database_url).scheme not in ("postgres", "postgresql"):
        problems.append("DATABASE_URL must point at PostgreSQL, e.g. postgres://postgres@127.0.0.1:5432/director")
    if urlsplit(redis_url).scheme != "redis":
        problems.append("REDIS_URL must point at Redis, e.g. redis://127.0.0.1:6379/0")
    if problems:
        print(f"{bench} measures the production setup:\n  " + "\n  ".join(problems), file=sys.stderr)
        sys.exit(2)
    import redis

    try:
        redis.Redis.from_url(redis_url, socket_connect_timeout=5).ping()
    except redis.RedisError as error:
        print(f"Cannot reach Redis at REDIS_URL: {error}", file=sys.stderr)
        sys.exit(2)
    return database_url, redis_url


def with_database(url: str, name: str) -> str:
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def create_database(server_url: str, name: str) -> str:
    """A fresh database ``name`` on DATABASE_URL's server; its URL."""
    import psycopg

    try:
        with psycopg.connect(with_database(server_url, "postgres"), autocommit=True, connect_timeout=5) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{name}"')
    except psycopg.OperationalError as error:
        print(f"Cannot reach PostgreSQL at DATABASE_URL: {error}", file=sys.stderr)
        sys.exit(2)
    return with_database(server_url, name)


def drop_database(server_url: str, name: str) -> None:
    import psycopg

    with psycopg.connect(with_database(server_url, "postgres"), autocommit=True, connect_timeout=5) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def percentile(values: list[float], fraction: float) -> float:
    """Nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(fraction * len(ordered)) - 1)]
