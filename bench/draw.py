"""Draw and bracket-page figures (not part of the test run).

Prints:
- the time to create a 1024-entry tournament, import its players and make its draw
  (goal: under 1 s);
- the SQL queries of the public tournament page for 16 and for 1024 entries (goal:
  the same number, at most 15);
- the page's median server time for 1024 entries (goal: under 150 ms): cold, just
  after a change (the tournament's version bumped, so the cached body is rendered
  again), and warm, as every further reader gets it until the next change
  (``tournaments.page_cache``).

Runs against a throw-away test database on whatever DATABASE_URL points at (SQLite
by default): ``make bench`` or ``DATABASE_URL=postgres://... .venv/bin/python bench/draw.py``.
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "director.test_settings")

import django  # noqa: E402

django.setup()

from django.contrib.auth import get_user_model  # noqa: E402
from django.db import connection  # noqa: E402
from django.db.models import F  # noqa: E402
from django.test import Client  # noqa: E402
from django.test.utils import CaptureQueriesContext, setup_test_environment  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.access import Actor  # noqa: E402
from tournaments.models import Tournament  # noqa: E402

RUNS = int(os.environ.get("BENCH_RUNS", "21"))


def make_event(actor: Actor, players: int, name: str):
    started = time.perf_counter()
    tournament = services.create_tournament(actor, name=name, third_place_match=True, round_plan="3")
    csv = "name,rating,club\n" + "\n".join(f"Player {i:04d},{3000 - i},Club {i % 40}" for i in range(players))
    services.import_entries(actor, tournament.pk, csv)
    services.make_draw(actor, tournament.pk, random_seed=1)
    return tournament, time.perf_counter() - started


def changed(tournament) -> None:
    """What every writer does to the tournament: bump its version (the cache's key)."""
    Tournament.objects.filter(pk=tournament.pk).update(version=F("version") + 1)


def page_queries(client: Client, url: str, tournament) -> int:
    """The queries of the page as the first reader after a change renders it."""
    changed(tournament)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, response.status_code
    return len(queries)


def timed(client: Client, url: str) -> float:
    started = time.perf_counter()
    response = client.get(url)
    assert response.status_code == 200, response.status_code
    return (time.perf_counter() - started) * 1000


def main() -> None:
    setup_test_environment()
    old_name = connection.creation.create_test_db(verbosity=0, autoclobber=True)
    try:
        user = get_user_model().objects.create_user("bench")
        actor = Actor(user=user)
        small, _ = make_event(actor, 16, "Sixteen")
        big, seconds = make_event(actor, 1024, "Thousand")
        # Play the first round of the big event so the page shows results, not only names.
        for match in big.matches.filter(flight="main", round_number=1):
            services.submit_result(actor, match.pk, {"games": [[21, 10], [21, 12]]})

        client = Client()
        small_url, big_url = f"/t/{small.slug}/", f"/t/{big.slug}/"
        client.get(small_url)  # warm the template cache
        queries_small = page_queries(client, small_url, small)
        queries_big = page_queries(client, big_url, big)
        cold, warm = [], []
        for _ in range(RUNS):
            changed(big)
            cold.append(timed(client, big_url))
            warm.append(timed(client, big_url))

        engine = connection.vendor
        print(f"database: {engine}; cores: {os.cpu_count()}")
        print(f"create a 1024-entry tournament + import + draw: {seconds * 1000:.0f} ms (goal < 1000 ms)")
        print(
            f"public tournament page SQL queries: 16 entries {queries_small}, 1024 entries {queries_big} "
            f"(goal: equal, <= 15)"
        )
        for name, timings in (("cold, after a change", cold), ("warm, from the cache", warm)):
            print(
                f"public tournament page, 1024 entries, {name}: median {statistics.median(timings):.1f} ms, "
                f"min {min(timings):.1f} ms, max {max(timings):.1f} ms over {RUNS} runs (goal: median < 150 ms)"
            )
    finally:
        connection.creation.destroy_test_db(old_name, verbosity=0)


if __name__ == "__main__":
    main()
