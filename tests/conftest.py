"""Fixtures shared by the whole suite.

Services: tests that need PostgreSQL, Redis, a Celery worker or Chromium ask for the
fixture of that service. Without the service they are skipped on a developer's
machine, but with ``REQUIRE_SERVICES=1`` (as in CI) a missing service fails the run.
"""

from __future__ import annotations

import os
import shutil
import socket
import subprocess
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import quote, urlparse

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation
from rest_framework.test import APIClient

from tournaments import services
from tournaments.access import Actor
from tournaments.models import Tournament

REQUIRE_SERVICES = os.environ.get("REQUIRE_SERVICES", "") not in ("", "0", "false", "no")
BASE_DIR = Path(__file__).resolve().parent.parent
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def need(condition: bool, what: str) -> None:
    """Skip without the service, or fail when the run requires every service."""
    if condition:
        return
    if REQUIRE_SERVICES:
        pytest.fail(f"{what} is required (REQUIRE_SERVICES=1) but not available.", pytrace=False)
    pytest.skip(f"{what} is not available here (set it up and REQUIRE_SERVICES=1 to insist).")


@pytest.fixture
def postgres(db):
    need(connection.vendor == "postgresql", "PostgreSQL (DATABASE_URL=postgres://...)")


def redis_reachable() -> bool:
    url = settings.REDIS_URL
    if not url:
        return False
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or 6379), timeout=2):
            return True
    except OSError:
        return False


@pytest.fixture
def redis():
    need(redis_reachable(), "Redis (REDIS_URL=redis://...)")


@pytest.fixture
def chromium():
    need(Path(CHROMIUM).exists(), f"Chromium at {CHROMIUM}")
    return CHROMIUM


@pytest.fixture(autouse=True)
def _language_of_the_settings():
    """Every test starts in the settings' language: a request in Czech activates Czech
    for the thread, and a later test asserting an English message must not inherit it."""
    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


# --- People --------------------------------------------------------------------------
@pytest.fixture
def director_user(django_user_model):
    return django_user_model.objects.create_user("jana", password="secret-jana")


@pytest.fixture
def other_director_user(django_user_model):
    return django_user_model.objects.create_user("petr", password="secret-petr")


@pytest.fixture
def director(director_user) -> Actor:
    return Actor(user=director_user)


def api_client_for(user=None, entry=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    if entry is not None:
        client.credentials(HTTP_AUTHORIZATION=f"Entry {entry.private_key}")
    return client


# --- Tournaments ---------------------------------------------------------------------
def make_tournament(actor: Actor, players: int = 8, draw: bool = True, **settings_) -> Tournament:
    """A scored-game knockout with ``players`` rated entries, drawn unless told not to."""
    settings_.setdefault("name", f"Cup {uuid.uuid4().hex[:6]}")
    settings_.setdefault("round_plan", "3")
    tournament = services.create_tournament(actor, **settings_)
    for i in range(players):
        services.add_entry(actor, tournament.pk, name=f"Player {i + 1:03d}", rating=2000 - i, club="Club")
    services.open_registration(actor, tournament.pk)
    if draw:
        services.make_draw(actor, tournament.pk, random_seed=12345)
    tournament.refresh_from_db()
    return tournament


@pytest.fixture
def tournament(db, director) -> Tournament:
    return make_tournament(director)


def first_round(tournament: Tournament):
    return list(tournament.matches.filter(flight="main", round_number=1).order_by("position"))


def play(match, games=((21, 10), (21, 12))):
    """Both players of a match enter and confirm a result (slot a wins by default)."""
    match.refresh_from_db()
    submission = services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [list(g) for g in games]})
    services.confirm_result(Actor(entry=match.entry_b), submission.pk)
    match.refresh_from_db()
    return match


# --- A real Celery worker ------------------------------------------------------------
def database_url_for_subprocess() -> str:
    """The URL of the test database this test process uses, for a worker process."""
    db = connection.settings_dict
    if connection.vendor == "sqlite":
        return f"sqlite:///{db['NAME']}"
    if connection.vendor == "postgresql":
        user = quote(db.get("USER") or "")
        password = f":{quote(db['PASSWORD'])}" if db.get("PASSWORD") else ""
        auth = f"{user}{password}@" if user or password else ""
        return f"postgres://{auth}{db.get('HOST') or '127.0.0.1'}:{db.get('PORT') or 5432}/{db['NAME']}"
    raise RuntimeError(f"No worker support for {connection.vendor}")


class WorkerProcesses:
    """Celery worker (and optionally beat) processes on a queue of this test's own."""

    def __init__(self, queue: str, env: dict[str, str], log_dir: Path):
        self.queue = queue
        self.env = env
        self.log_dir = log_dir
        self.processes: list[tuple[subprocess.Popen, Path]] = []

    def start_worker(self, name: str = "w1", concurrency: int = 2) -> subprocess.Popen:
        log = self.log_dir / f"{name}.log"
        cmd = [
            sys.executable, "-m", "celery", "-A", "director", "worker", "-l", "info",
            "-Q", self.queue, "-n", f"{name}-{self.queue}@%h", "--concurrency", str(concurrency),
            "--without-gossip", "--without-mingle", "--without-heartbeat",
        ]  # fmt: skip
        process = self._spawn(cmd, log)
        self._wait_for(log, "ready.", process)
        return process

    def start_beat(self) -> subprocess.Popen:
        log = self.log_dir / "beat.log"
        schedule = self.log_dir / "celerybeat-schedule"
        cmd = [sys.executable, "-m", "celery", "-A", "director", "beat", "-l", "info", "-s", str(schedule)]
        process = self._spawn(cmd, log)
        self._wait_for(log, "beat: Starting", process)
        return process

    def _spawn(self, cmd: list[str], log: Path) -> subprocess.Popen:
        handle = log.open("w")
        process = subprocess.Popen(cmd, env=self.env, cwd=BASE_DIR, stdout=handle, stderr=subprocess.STDOUT)
        self.processes.append((process, log))
        return process

    @staticmethod
    def _wait_for(log: Path, marker: str, process: subprocess.Popen, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if marker in log.read_text(errors="replace"):
                return
            if process.poll() is not None:
                raise RuntimeError(f"Celery exited early:\n{log.read_text(errors='replace')[-4000:]}")
            time.sleep(0.2)
        raise RuntimeError(f"Celery did not get ready in {timeout} s:\n{log.read_text(errors='replace')[-4000:]}")

    def stop(self) -> None:
        for process, _ in self.processes:
            if process.poll() is None:
                process.terminate()
        for process, _ in self.processes:
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()

    def logs(self) -> str:
        return "\n".join(f"--- {log.name}\n{log.read_text(errors='replace')[-3000:]}" for _, log in self.processes)


@pytest.fixture
def celery_workers(transactional_db, tmp_path, settings):
    """Start real Celery processes against this test's database and broker.

    In CI the broker is Redis (REDIS_URL) and the database PostgreSQL; on a bare
    machine, the filesystem broker and the SQLite test file. Tasks this test process
    sends go to a queue of the test's own, so nothing stale from other tests runs.
    """
    from director.celery import app

    if REQUIRE_SERVICES:
        need(redis_reachable(), "Redis for the Celery worker")
    queue = f"test-{uuid.uuid4().hex[:10]}"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "director.test_settings",
        "DATABASE_URL": database_url_for_subprocess(),
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_TASK_DEFAULT_QUEUE": queue,
        "RESULT_CONFIRMATION_SWEEP_SECONDS": "1",
        "CLOCK_SWEEP_SECONDS": "1",
        "CONN_MAX_AGE": "60",  # as in production (the test process itself keeps none)
        "VAR_DIR": str(settings.VAR_DIR),
    }
    previous = (app.conf.task_always_eager, app.conf.task_default_queue)
    app.conf.task_always_eager = False
    app.conf.task_default_queue = queue
    workers = WorkerProcesses(queue, env, tmp_path)
    try:
        yield workers
    finally:
        workers.stop()
        app.conf.task_always_eager, app.conf.task_default_queue = previous


def pytest_report_header(config):
    engine = settings.DATABASES["default"]["ENGINE"].rsplit(".", 1)[-1]
    broker = "redis" if settings.REDIS_URL else "filesystem"
    chromium = "yes" if shutil.which(CHROMIUM) or Path(CHROMIUM).exists() else "no"
    return (
        f"database: {engine}; celery broker: {broker}; chromium: {chromium}; REQUIRE_SERVICES={int(REQUIRE_SERVICES)}"
    )
