"""Load figures of the public tournament page at event scale (not part of the test run).

Runs the app as in production — gunicorn (``--workers``, default 2) on PostgreSQL and
Redis (cache and broker), DEBUG off, static files from collectstatic through WhiteNoise —
with a 256-player knockout (``--players``), and measures with ``wrk`` (Debian's package;
installed with apt-get if missing), which asks as a browser does: compressed if the
server has it (``Accept-Encoding``; the static file too):

1. the ceiling: a static file served by the same server;
2. the public tournament page while nothing changes;
3. the public tournament page while a director submits results through the API at 10 per
   second (``--results-per-second``): every result bumps the tournament's version, so the
   cached page is rendered again after each one.

For each it prints requests per second and the latency p50 / p99. Goal: the page under
writes at least half the static file's throughput, p99 under 100 ms — and, once the last
result is answered, the page a reader gets shows every decided match (nothing stale).

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/director \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python bench/load.py [--players 256] [--seconds 20] [--connections 16]

DATABASE_URL names the server: the bench makes its own database ``bench_load`` there and
drops it at the end; its cache keys in Redis carry a prefix of their own and are removed.
"""

from __future__ import annotations

import argparse
import gzip
import json
import os
import re
import secrets
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from common import create_database, drop_database, require_services

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DB = "bench_load"
UNITS = {"us": 0.001, "ms": 1.0, "s": 1000.0}
# wrk asks like a browser does: compressed if the server has it (the static file too).
BROWSER_ACCEPT_ENCODING = "Accept-Encoding: gzip, deflate, br"


def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--seconds", type=int, default=20, help="length of each measurement")
    parser.add_argument("--connections", type=int, default=16, help="wrk's open connections")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn worker processes")
    parser.add_argument("--threads", type=int, default=1, help="threads per worker (1: sync workers; more: gthread)")
    parser.add_argument("--results-per-second", type=float, default=10.0)
    return parser.parse_args()


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def wrk_binary() -> str:
    found = shutil.which("wrk")
    if found:
        return found
    subprocess.run(["apt-get", "install", "-y", "wrk"], capture_output=True, check=False)
    found = shutil.which("wrk")
    if not found:
        print("bench/load.py needs wrk (Debian: apt-get install wrk).", file=sys.stderr)
        sys.exit(2)
    return found


def run_wrk(wrk: str, url: str, seconds: int, connections: int) -> dict[str, float]:
    """Requests per second and latency percentiles (ms) of one wrk run."""
    out = subprocess.run(
        [wrk, "-t2", f"-c{connections}", f"-d{seconds}s", "--latency", "-H", BROWSER_ACCEPT_ENCODING, url],
        capture_output=True,
        text=True,
        check=True,
    ).stdout
    figures = {"rps": float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))}
    for percent, value, unit in re.findall(r"^\s+(50|90|99)%\s+([\d.]+)(us|ms|s)\s*$", out, re.MULTILINE):
        figures[f"p{percent}"] = float(value) * UNITS[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    figures["errors"] = float(errors.group(1)) if errors else 0.0
    return figures


def wait_until_up(url: str, limit: float = 30) -> None:
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            with urllib.request.urlopen(url, timeout=2) as response:  # noqa: S310 - our own server
                if response.status == 200:
                    return
        except (urllib.error.URLError, ConnectionError):
            time.sleep(0.3)
    raise RuntimeError(f"gunicorn did not answer {url} in {limit} s")


class ResultWriter(threading.Thread):
    """A director submitting results through the API at a steady pace, round after round
    (a few requests in flight at once, so a slow answer does not slow the pace)."""

    def __init__(self, base: str, token: str, tournament_id: int, per_second: float):
        super().__init__(daemon=True)
        self.base, self.token, self.tournament_id = base, token, tournament_id
        self.interval = 1 / per_second
        self.stop = threading.Event()
        self.done = self.failed = 0
        self.lock = threading.Lock()

    def run(self) -> None:
        from tournaments.models import Match

        sent: set[int] = set()
        next_at = time.monotonic()
        with ThreadPoolExecutor(max_workers=4) as pool:
            while not self.stop.is_set():
                ready = [
                    pk
                    for pk in Match.objects.filter(tournament_id=self.tournament_id, status="ready")
                    .order_by("round_number", "position")
                    .values_list("pk", flat=True)[:64]
                    if pk not in sent
                ]
                if not ready:
                    time.sleep(self.interval)  # the round's last results are on their way
                    continue
                for match_id in ready:
                    if self.stop.is_set():
                        break
                    sent.add(match_id)
                    pool.submit(self.submit, match_id)
                    next_at += self.interval
                    time.sleep(max(0.0, next_at - time.monotonic()))

    def submit(self, match_id: int) -> None:
        body = json.dumps({"result": {"games": [[21, 10], [21, 12]]}}).encode()
        request = urllib.request.Request(  # noqa: S310 - our own server
            f"{self.base}/api/matches/{match_id}/results/",
            data=body,
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"},
            method="POST",
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
                ok = response.status == 201
        except urllib.error.URLError:
            ok = False
        with self.lock:
            self.done += ok
            self.failed += not ok


def shows_every_result(page: str, tournament_id: int) -> bool:
    """Whether the page a reader gets once the last result is answered (from the edge,
    compressed, as wrk asked) shows every decided match in the database; printed."""
    from tournaments.models import Match

    request = urllib.request.Request(page, headers={"Accept-Encoding": "gzip"})  # noqa: S310 - our own server
    with urllib.request.urlopen(request, timeout=10) as response:  # noqa: S310
        body = response.read()
        if response.headers.get("Content-Encoding") == "gzip":
            body = gzip.decompress(body)
    shown = body.decode().count("bracket-match status-decided")
    decided = Match.objects.filter(tournament_id=tournament_id, status="decided").count()
    print(f"  decided matches on the page after the last answer: {shown} of {decided}")
    return shown == decided


def report(name: str, figures: dict[str, float], ceiling: dict[str, float] | None = None) -> None:
    share = f", {figures['rps'] / ceiling['rps']:.0%} of the static file's" if ceiling else ""
    print(
        f"  {name:<44} {figures['rps']:>8.0f} req/s{share}; p50 {figures.get('p50', 0):.1f} ms, "
        f"p99 {figures.get('p99', 0):.1f} ms; non-2xx {figures['errors']:.0f}"
    )


def main() -> None:
    args = parse_args()
    database_url, redis_url = require_services("bench/load.py")
    wrk = wrk_binary()
    var_dir = Path(tempfile.mkdtemp(prefix="bench-load-"))
    prefix = f"bench-load-{uuid.uuid4().hex[:10]}"
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "director.settings",
        "DATABASE_URL": create_database(database_url, BENCH_DB),
        "REDIS_URL": redis_url,
        "CACHE_KEY_PREFIX": prefix,
        "SECRET_KEY": os.environ.get("SECRET_KEY") or secrets.token_urlsafe(50),
        "DEBUG": "0",
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "VAR_DIR": str(var_dir),
        "STATIC_ROOT": str(var_dir / "static"),
        "LOG_LEVEL": "WARNING",
    }
    os.environ.update(env)
    sys.path.insert(0, str(BASE_DIR))
    server = None
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command
        from rest_framework.authtoken.models import Token

        from tournaments import services
        from tournaments.access import Actor

        call_command("migrate", interactive=False, verbosity=0)
        call_command("collectstatic", interactive=False, verbosity=0)
        user = get_user_model().objects.create_user("bench-director")
        token = Token.objects.create(user=user).key
        actor = Actor(user=user)
        tournament = services.create_tournament(actor, name="Load Open", round_plan="3")
        csv = "name,rating\n" + "\n".join(f"Player {i:03d},{2400 - i}" for i in range(args.players))
        services.import_entries(actor, tournament.pk, csv)
        services.open_registration(actor, tournament.pk)
        services.make_draw(actor, tournament.pk, random_seed=1)

        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "gunicorn", "director.wsgi", "-w", str(args.workers)),
                *(("-k", "gthread", "--threads", str(args.threads)) if args.threads > 1 else ()),
                *("-b", f"127.0.0.1:{port}"),
            ],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        page = f"{base}/t/{tournament.slug}/"
        static = f"{base}/static/css/site.css"
        wait_until_up(page)
        print(
            f"bench/load.py: gunicorn {args.workers} workers x {args.threads} threads, PostgreSQL + Redis, "
            f"cores: {os.cpu_count()}, "
            f"{args.players} players, wrk {args.connections} connections x {args.seconds} s"
        )
        ceiling = run_wrk(wrk, static, args.seconds, args.connections)
        report("static file (the ceiling)", ceiling)
        quiet = run_wrk(wrk, page, args.seconds, args.connections)
        report("public tournament page, nothing changing", quiet, ceiling)
        writer = ResultWriter(base, token, tournament.pk, args.results_per_second)
        writer.start()
        started = time.monotonic()
        busy = run_wrk(wrk, page, args.seconds, args.connections)
        writer.stop.set()
        writer.join(timeout=10)
        rate = writer.done / (time.monotonic() - started)
        report(f"public tournament page, {rate:.1f} results/s", busy, ceiling)
        print(f"  results submitted: {writer.done}, failed: {writer.failed}")
        fresh = shows_every_result(page, tournament.pk)
        verdict = busy["rps"] >= ceiling["rps"] / 2 and busy.get("p99", 1e9) < 100 and fresh
        print(f"goal (under writes: >= half the static throughput, p99 < 100 ms): {'met' if verdict else 'NOT met'}")
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=15)
        from django.db import connections

        connections.close_all()
        drop_database(database_url, BENCH_DB)
        import redis

        client = redis.Redis.from_url(redis_url)
        for key in client.scan_iter(f"{prefix}*"):
            client.delete(key)
        shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
