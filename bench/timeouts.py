"""Clock timeout figures: how late real Celery workers enforce many simultaneous
deadlines (not part of the test run).

For each N (``--clocks``, default 200 and 1000) it runs a Scrabble tournament whose
round 1 has N matches with a per-move clock of S seconds (``--move-seconds``, default
3), starts the N clocks within about 2 s (``--window``; each start is a player's
request, made from ``--starters`` processes: on a small machine starting 1000 takes
longer, and the wall line says how long), and leaves every player alone: each timeout
records a timeout pass and starts the opponent's time, until the tournament's
``scoreless_turns`` timeouts end each game and halt its clock. It prints, per N:

- the floor: N no-op Celery tasks scheduled for the same moments, and how late each ran;
- every flag's lateness (``ClockEvent.at - ClockEvent.deadline``): median, p99, max;
- missed consequences (a flag or its timeout pass that never came) and duplicated ones
  (two flags for one deadline, more timeout passes than flags);
- the wall time and the flags per second.

Goal: p99 lateness under 1 s, none missed, none duplicated.

Needs PostgreSQL and Redis (the production setup)::

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/director \\
    REDIS_URL=redis://127.0.0.1:6379/0 \\
    .venv/bin/python bench/timeouts.py [--clocks 200 1000] [--move-seconds 3]

DATABASE_URL names the server only: the bench creates its own database
``bench_timeouts`` there (dropped at the end). It starts a Celery worker (prefork, one
process per core) and beat on a queue of its own, with ``director.settings``.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import re
import secrets
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from collections import Counter, defaultdict
from datetime import UTC, datetime
from pathlib import Path

from common import create_database, drop_database, percentile, require_services

BASE_DIR = Path(__file__).resolve().parent.parent
BENCH_DB = "bench_timeouts"
PROFILE_MATCHES = 32


# --- Setup -----------------------------------------------------------------------------
def parse_args() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--clocks", type=int, nargs="+", default=[200, 1000], help="simultaneous clocks (N)")
    parser.add_argument("--move-seconds", type=int, default=3, help="the per-move time (S), 1-600")
    parser.add_argument("--window", type=float, default=2.0, help="start the N clocks within this many seconds")
    parser.add_argument("--limit", type=float, default=None, help="give up waiting after this many seconds")
    parser.add_argument("--concurrency", type=int, default=None, help="worker processes (default: one per core)")
    parser.add_argument("--starters", type=int, default=None, help="processes starting the clocks (default: cores)")
    parser.add_argument("--keep-logs", action="store_true", help="keep the Celery logs (their folder is printed)")
    args = parser.parse_args()
    if not 1 <= args.move_seconds <= 600 or any(n < 1 for n in args.clocks):
        parser.error("--move-seconds is 1-600 and every --clocks value at least 1")
    return args


class Celery:
    """A worker (prefork, ``concurrency`` processes) and beat on the bench's own queue."""

    def __init__(self, env: dict[str, str], log_dir: Path, concurrency: int):
        self.env, self.log_dir, self.concurrency = env, log_dir, concurrency
        self.queue = env["CELERY_TASK_DEFAULT_QUEUE"]
        self.processes: list[subprocess.Popen] = []
        self.worker_log = log_dir / "worker.log"

    def start(self) -> None:
        worker = [
            sys.executable, "-m", "celery", "-A", "director", "worker", "-l", "info", "-P", "prefork",
            "--concurrency", str(self.concurrency), "-Q", self.queue, "-n", f"{self.queue}@%h",
            "-I", "bench.timeouts_probe", "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        beat = [
            sys.executable, "-m", "celery", "-A", "director", "beat", "-l", "info",
            "-s", str(self.log_dir / "celerybeat-schedule"),
        ]  # fmt: skip
        self._spawn(worker, self.worker_log, "ready.")
        self._spawn(beat, self.log_dir / "beat.log", "beat: Starting")

    def _spawn(self, cmd: list[str], log: Path, marker: str, timeout: float = 60) -> None:
        with log.open("w") as handle:
            process = subprocess.Popen(cmd, env=self.env, cwd=BASE_DIR, stdout=handle, stderr=subprocess.STDOUT)
        self.processes.append(process)
        deadline = time.monotonic() + timeout
        while marker not in log.read_text(errors="replace"):
            if process.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError(f"Celery did not start:\n{log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.2)

    def stop(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.terminate()
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    def drain(self, redis_url: str, timeout: float = 300) -> float:
        """Wait until the worker holds no task and the queue is empty (what a previous run
        left behind); how many seconds that took."""
        import redis

        from director.celery import app

        client = redis.Redis.from_url(redis_url)
        inspect = app.control.inspect(destination=[f"{self.queue}@{socket.gethostname()}"], timeout=1)
        started = time.perf_counter()
        while time.perf_counter() - started < timeout:
            held = [
                task
                for reply in (inspect.active() or {}, inspect.reserved() or {}, inspect.scheduled() or {})
                for tasks in reply.values()
                for task in tasks
                if "enforce_overdue" not in str(task)
            ]
            if not held and not client.llen(self.queue):
                break
            time.sleep(0.5)
        return time.perf_counter() - started

    def worker_log_size(self) -> int:
        return self.worker_log.stat().st_size

    def worker_log_since(self, offset: int) -> str:
        with self.worker_log.open("rb") as handle:
            handle.seek(offset)
            return handle.read().decode(errors="replace")


def clean_redis(redis_url: str, queue: str) -> None:
    """Remove the bench's queue, its probe lists and anything it left unacknowledged."""
    import redis

    client = redis.Redis.from_url(redis_url)
    for key in list(client.scan_iter(match=f"*{queue}*")):
        client.delete(key)
    for tag, payload in list(client.hscan_iter("unacked")):
        try:
            routing_key = json.loads(payload)[2]
        except (ValueError, IndexError, TypeError):
            continue
        if routing_key == queue:
            client.hdel("unacked", tag)
            client.zrem("unacked_index", tag)


# --- Figures -----------------------------------------------------------------------------
def figures(values: list[float]) -> str:
    if not values:
        return f"{0:>6}  {'-':>9}  {'-':>9}  {'-':>9}"
    return f"{len(values):>6}  {statistics.median(values):>9.1f}  {percentile(values, 0.99):>9.1f}  {max(values):>9.1f}"


def ms(delta) -> float:
    return delta.total_seconds() * 1000


# --- The runs ------------------------------------------------------------------------------
def make_event(actor, clocks: int, move_seconds: int, name: str):
    """A Scrabble knockout whose round 1 has ``clocks`` real matches; those matches.

    A knockout of P players fills a bracket of B = 2^k >= P slots, so round 1 has P - B/2
    real matches (the rest are byes): P = B/2 + clocks players with B the bracket of
    2 * clocks players (2 * clocks exactly when clocks is a power of two)."""
    from tournaments import services
    from tournaments.draws import bracket_size

    players = bracket_size(2 * clocks) // 2 + clocks
    tournament = services.create_tournament(
        actor,
        name=name,
        game_type="scrabble",
        round_plan="1",
        settings={"clock": "per_move", "move_seconds": move_seconds},
    )
    csv = "name,rating\n" + "\n".join(f"Player {i:05d},{3000 - i}" for i in range(players))
    services.import_entries(actor, tournament.pk, csv)
    services.open_registration(actor, tournament.pk)
    services.make_draw(actor, tournament.pk, random_seed=1)
    tournament.refresh_from_db()
    matches = [
        m
        for m in tournament.matches.filter(flight="main", round_number=1).order_by("position")
        if not m.is_bye and m.entry_a_id and m.entry_b_id
    ]
    assert len(matches) == clocks, (len(matches), clocks)
    return tournament, matches, players


def profile_enforcement(actor) -> str:
    """One enforcement at a time in this process, nothing else running: its cost and
    its SQL queries (each holds its match's lock and the tournament's shared, so the
    worker's processes enforce different matches at the same time)."""
    from django.db import connection

    from clocks import services as clock_services
    from clocks.models import Clock
    from director.celery import app

    tournament, matches, _ = make_event(actor, PROFILE_MATCHES, 1, "Profile")
    expected = tournament.game.clean_settings(tournament.settings)["scoreless_turns"]
    timings: list[float] = []
    queries: list[int] = []
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = True  # no tasks: this process enforces every deadline itself
    try:
        clocks = [clock_services.start_clock(actor, m.pk, "a") for m in matches]
        for _ in range(expected):
            latest = max(Clock.objects.filter(pk__in=[c.pk for c in clocks]).values_list("deadline", flat=True))
            time.sleep(max(0.0, (latest - clock_services.server_now()).total_seconds()) + 0.02)
            for clock in clocks:
                count = [0]

                def counter(execute, sql, params, many, context, count=count):
                    count[0] += 1
                    return execute(sql, params, many, context)

                with connection.execute_wrapper(counter):
                    started = time.perf_counter()
                    outcome = clock_services.enforce(clock.pk)
                    timings.append((time.perf_counter() - started) * 1000)
                assert outcome in ("a", "b"), outcome
                queries.append(count[0])
        batched = enforce_in_batches(actor, expected)
    finally:
        app.conf.task_always_eager = eager
    median = statistics.median(timings)
    return (
        f"one enforcement (flag + timeout pass), in this process, one at a time: median {median:.1f} ms, "
        f"max {max(timings):.1f} ms, {min(queries)}-{max(queries)} SQL queries "
        f"({len(timings)} flags): ~{1000 / median:.0f} flags/s per worker process\n"
        f"the same in batches (enforce_due, {PROFILE_MATCHES} clocks due at once): {batched:.1f} ms per flag: "
        f"~{1000 / batched:.0f} flags/s per worker process"
    )


def enforce_in_batches(actor, rounds: int) -> float:
    """ms per flag when ``enforce_due`` finds PROFILE_MATCHES clocks due at once."""
    from clocks import services as clock_services
    from clocks.models import Clock

    _tournament, matches, _ = make_event(actor, PROFILE_MATCHES, 1, "Profile batches")
    clock_ids = [clock_services.start_clock(actor, m.pk, "a").pk for m in matches]
    spent, flags = 0.0, 0
    for _ in range(rounds):
        latest = max(Clock.objects.filter(pk__in=clock_ids).values_list("deadline", flat=True))
        time.sleep(max(0.0, (latest - clock_services.server_now()).total_seconds()) + 0.02)
        started = time.perf_counter()
        flags += clock_services.enforce_due()
        spent += time.perf_counter() - started
    assert flags == rounds * PROFILE_MATCHES, flags
    return spent * 1000 / flags


def run_floor(clocks: int, move_seconds: int, window: float, redis_url: str, queue: str) -> list[float]:
    """N no-op tasks due S seconds from now, spread over the window: how late each ran."""
    import redis

    from bench.timeouts_probe import noop_at

    client = redis.Redis.from_url(redis_url)
    key = f"{queue}:floor:{clocks}"
    base = time.time_ns() // 1_000_000 + move_seconds * 1000
    for i in range(clocks):
        eta_ms = base + int(i * window * 1000 / clocks)
        noop_at.apply_async((key, eta_ms), eta=datetime.fromtimestamp(eta_ms / 1000, UTC))
    limit = time.monotonic() + move_seconds + window + 60
    while client.llen(key) < clocks and time.monotonic() < limit:
        time.sleep(0.2)
    values = [float(v) for v in client.lrange(key, 0, -1)]
    client.delete(key)
    return values


def start_clocks(actor, match_ids: list[int], window: float, starters: int) -> None:
    """Start every match's clock (side a), clock i at i/N of the window, shared out
    between ``starters`` forked processes (each with its own database connection)."""
    from django.db import connections

    connections.close_all()  # no connection is shared with the children
    moment = time.time() + 0.2
    slices = [(actor.user.pk, match_ids, window, moment, k, starters) for k in range(starters)]
    with multiprocessing.get_context("fork").Pool(starters) as pool:
        pool.starmap(_start_slice, slices)


def _start_slice(user_id: int, match_ids: list[int], window: float, moment: float, k: int, starters: int) -> None:
    from django.contrib.auth import get_user_model
    from django.db import connections

    from clocks import services as clock_services
    from tournaments.access import Actor

    actor = Actor(user=get_user_model().objects.get(pk=user_id))
    try:
        for i in range(k, len(match_ids), starters):
            pause = moment + i * window / len(match_ids) - time.time()
            if pause > 0:
                time.sleep(pause)
            clock_services.start_clock(actor, match_ids[i], "a")
    finally:
        connections.close_all()


def run_clocks(
    actor,
    clocks: int,
    move_seconds: int,
    window: float,
    starters: int,
    limit: float | None,
    celery: Celery,
    redis_url: str,
) -> dict:
    from django.conf import settings

    from clocks.models import Clock, ClockEvent
    from games.scrabble.models import ScrabbleTurn
    from tournaments.models import AuditEntry

    tournament, matches, players = make_event(actor, clocks, move_seconds, f"Timeouts {clocks}")
    expected = tournament.game.clean_settings(tournament.settings)["scoreless_turns"]
    total = clocks * expected
    sweep = float(settings.CELERY_BEAT_SCHEDULE["enforce-overdue-clocks"]["schedule"])
    limit = limit if limit is not None else 120 + 0.1 * total
    log_offset = celery.worker_log_size()

    # Start the N clocks, evenly over the window (or as fast as starting goes), from
    # ``starters`` processes: each start is a player's request.
    started = time.perf_counter()
    start_clocks(actor, [m.pk for m in matches], window, starters)
    start_seconds = time.perf_counter() - started

    of_tournament = {"clock__match__tournament": tournament}
    flags = ClockEvent.objects.filter(kind="flag", **of_tournament)
    running = Clock.objects.filter(match__tournament=tournament, deadline__isnull=False)
    give_up = started + limit
    last_report = time.perf_counter()
    while (flags.count() < total or running.exists()) and time.perf_counter() < give_up:
        time.sleep(0.25)
        if time.perf_counter() - last_report >= 15:
            last_report = time.perf_counter()
            print(f"  ... {flags.count()}/{total} flags after {last_report - started:.0f} s", file=sys.stderr)
    done_seconds = time.perf_counter() - started
    timed_out = flags.count() < total or running.exists()
    time.sleep(2 * sweep + 1)  # anything late or twice shows up now
    drain_seconds = 2 * sweep + 1 + celery.drain(redis_url)  # every task sent has run

    rows = list(flags.values_list("clock_id", "clock__match_id", "deadline", "at"))
    clock_of = dict(Clock.objects.filter(match__tournament=tournament).values_list("match_id", "pk"))
    passes = Counter(
        ScrabbleTurn.objects.filter(game__match__tournament=tournament, kind="timeout", status="live").values_list(
            "game__match_id", flat=True
        )
    )
    per_deadline = Counter((clock_id, deadline) for clock_id, _m, deadline, _a in rows)
    per_clock: dict[int, int] = defaultdict(int)
    for clock_id, _deadline in per_deadline:
        per_clock[clock_id] += 1
    duplicated = sum(n - 1 for n in per_deadline.values())
    flags_of_match = Counter(match_id for _c, match_id, _d, _a in rows)
    duplicated += sum(max(0, passes[m] - flags_of_match[m]) for m in passes)
    extra = sum(max(0, per_clock[c] - expected) for c in per_clock)
    missed = sum(max(0, expected - min(per_clock.get(clock_of.get(m.pk), 0), passes[m.pk])) for m in matches)
    lateness = [ms(at - deadline) for _c, _m, deadline, at in rows]
    # A batch applies its flags at one moment and writes them at its end: the audit
    # entry's time is when the flag was written, just before the batch commits.
    logged = AuditEntry.objects.filter(tournament=tournament, action="clock.flag").values_list("at", "after")
    written = [ms(at - datetime.fromisoformat(after["deadline"])) for at, after in logged]
    by_turn: dict[int, list[float]] = defaultdict(list)
    ordered = sorted(rows, key=lambda r: (r[0], r[2]))
    turn = Counter()
    for clock_id, _m, deadline, at in ordered:
        turn[clock_id] += 1
        by_turn[turn[clock_id]].append(ms(at - deadline))
    starts = ClockEvent.objects.filter(kind="start", **of_tournament).order_by("at").values_list("at", flat=True)
    first_start, first_deadline = starts.first(), min((r[2] for r in rows), default=None)
    last_flag = max((r[3] for r in rows), default=None)

    log = celery.worker_log_since(log_offset)
    sweep_line = r"enforce_overdue_clocks\[[^\]]*\] succeeded in ([\d.]+)s: (\d+)"
    sweep_runs = [(float(seconds), int(flagged)) for seconds, flagged in re.findall(sweep_line, log)]
    outcomes = Counter(re.findall(r"enforce_clock\[[^\]]*\] succeeded in [\d.]+s: '(\w+)'", log))
    bucket_line = r"enforce_due_clocks\[[^\]]*\] succeeded in ([\d.]+)s: (\d+)"
    bucket_runs = [(float(seconds), int(flagged)) for seconds, flagged in re.findall(bucket_line, log)]
    errors = len(re.findall(r"ERROR/|CRITICAL/|Traceback", log))
    return {
        "players": players,
        "expected": expected,
        "total": total,
        "lateness": lateness,
        "written": written,
        "by_turn": by_turn,
        "missed": missed,
        "duplicated": duplicated,
        "extra": extra,
        "timed_out": timed_out,
        "limit": limit,
        "start_seconds": start_seconds,
        "done_seconds": done_seconds,
        "span_seconds": (last_flag - first_start).total_seconds() if last_flag and first_start else None,
        "flag_seconds": (last_flag - first_deadline).total_seconds() if last_flag and first_deadline else None,
        "ideal_seconds": start_seconds + expected * move_seconds,
        "sweep_runs": sweep_runs,
        "bucket_runs": bucket_runs,
        "task_outcomes": outcomes,
        "errors": errors,
        "drain_seconds": drain_seconds,
    }


def report(clocks: int, move_seconds: int, window: float, floor: list[float], run: dict) -> None:
    cores = os.cpu_count()
    print()
    print(
        f"N = {clocks} clocks ({run['players']} players), {move_seconds} s per move, "
        f"{run['expected']} timeouts per clock (scoreless_turns) = {run['total']} flags expected"
    )
    print(f"{'lateness (ms)':<28}{'count':>6}  {'median':>9}  {'p99':>9}  {'max':>9}")
    print(f"{'floor: no-op task at an eta':<28}{figures(floor)}")
    print(f"{'flags, all':<28}{figures(run['lateness'])}")
    print(f"{'  the same, as written':<28}{figures(run['written'])}")
    for number in sorted(run["by_turn"]):
        print(f"{f'  timeout #{number} of each clock':<28}{figures(run['by_turn'][number])}")
    print(f"missed: {run['missed']}   duplicated: {run['duplicated']}   flags beyond the game's end: {run['extra']}")
    if run["timed_out"]:
        print(f"NOT FINISHED: gave up waiting after {run['limit']:.0f} s")
    flag_seconds = run["flag_seconds"]
    rate = f"{len(run['lateness']) / flag_seconds:.0f}" if flag_seconds else "-"
    span = f"{run['span_seconds']:.1f} s" if run["span_seconds"] is not None else "-"
    print(
        f"wall: {clocks} clocks started in {run['start_seconds']:.2f} s (asked: {window:.1f} s); first start -> "
        f"last flag {span} (on time it would be ~{run['ideal_seconds']:.1f} s); "
        f"{rate} flags/s from the first deadline to the last flag; all seen after {run['done_seconds']:.1f} s"
    )
    sweeps, buckets = run["sweep_runs"], run["bucket_runs"]
    outcomes = ", ".join(f"{k} {v}" for k, v in sorted(run["task_outcomes"].items())) or "-"
    print(
        f"worker: deadline buckets' tasks: {len(buckets)} runs, {sum(n for _, n in buckets)} flags, longest "
        f"{max((s for s, _ in buckets), default=0):.2f} s; single clocks' tasks by outcome: {outcomes}; "
        f"beat sweeps: {len(sweeps)} runs, "
        f"{sum(n for _, n in sweeps)} flags, longest {max((s for s, _ in sweeps), default=0):.2f} s; "
        f"errors in the log: {run['errors']}; the worker was idle again {run['drain_seconds']:.0f} s after "
        f"the last flag"
    )
    met = (
        run["lateness"]
        and percentile(run["lateness"], 0.99) < 1000
        and percentile(run["written"] or [0.0], 0.99) < 1000  # and as written, at the batch's end
        and not run["missed"]
        and not run["duplicated"]
        and not run["extra"]
    )
    print(f"goal (p99 < 1000 ms, none missed, none duplicated): {'met' if met else 'NOT met'}; cores: {cores}")


def main() -> None:
    args = parse_args()
    database_url, redis_url = require_services("bench/timeouts.py")
    cores = os.cpu_count() or 1
    queue = f"bench-timeouts-{uuid.uuid4().hex[:10]}"
    var_dir = Path(tempfile.mkdtemp(prefix="bench-timeouts-"))
    bench_url = create_database(database_url, BENCH_DB)
    env = {
        "DJANGO_SETTINGS_MODULE": "director.settings",
        "DATABASE_URL": bench_url,
        "REDIS_URL": redis_url,
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CACHE_KEY_PREFIX": queue,
        "VAR_DIR": str(var_dir),
        "LOG_LEVEL": "INFO",
    }
    os.environ.update(env)
    if not os.environ.get("SECRET_KEY") and os.environ.get("DEBUG", "") in ("", "0"):
        os.environ["SECRET_KEY"] = secrets.token_urlsafe(50)  # DEBUG stays off, as in production
    celery = Celery(dict(os.environ), var_dir, concurrency=args.concurrency or cores)
    os.environ["LOG_LEVEL"] = "WARNING"  # this process: no line per flag it enforces itself
    sys.path.insert(0, str(BASE_DIR))
    failed = True
    try:
        import django

        django.setup()
        from django.contrib.auth import get_user_model
        from django.core.management import call_command

        import director.celery  # noqa: F401  (the app with the bench's queue)
        from tournaments.access import Actor

        call_command("migrate", interactive=False, verbosity=0)
        actor = Actor(user=get_user_model().objects.create_user("bench-director"))
        began = time.perf_counter()
        from django.conf import settings

        sweep = settings.CELERY_BEAT_SCHEDULE["enforce-overdue-clocks"]["schedule"]
        print(
            f"bench/timeouts.py: PostgreSQL + Redis, cores: {cores}, "
            f"Celery worker prefork x{celery.concurrency} + beat "
            f"(clock sweep every {sweep:g} s), queue {queue}"
        )
        print(profile_enforcement(actor))
        celery.start()
        for clocks in args.clocks:
            drained = celery.drain(redis_url)
            if drained > 1:
                print(f"\n(the worker needed {drained:.0f} s to work off the tasks the previous run left)")
            floor = run_floor(clocks, args.move_seconds, args.window, redis_url, queue)
            run = run_clocks(
                actor, clocks, args.move_seconds, args.window, args.starters or cores, args.limit, celery, redis_url
            )
            report(clocks, args.move_seconds, args.window, floor, run)
            sys.stdout.flush()
        print(f"\ntotal bench time: {time.perf_counter() - began:.0f} s")
        failed = False
    finally:
        celery.stop()
        try:
            from django.db import connections

            connections.close_all()
        except Exception:  # noqa: S110 (Django may not be set up)
            pass
        drop_database(database_url, BENCH_DB)
        clean_redis(redis_url, queue)
        if failed or args.keep_logs:
            print(f"Celery logs kept in {var_dir}", file=sys.stderr)
        else:
            shutil.rmtree(var_dir, ignore_errors=True)


if __name__ == "__main__":
    main()
