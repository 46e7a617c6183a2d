"""Where the edge keeps what it keeps (``tournaments.edge_store``): a tournament's
published version never moves back, and each process's memory of pages stays within
its bound. The published versions are tested on Redis itself (its script) and on
Django's cache (one process, no Redis)."""

from __future__ import annotations

import uuid

import pytest

from tournaments.edge_store import LocalResponses, Published, ResponseStore

T0, T1 = 1000.0, 1001.5


@pytest.fixture(params=["redis", "django cache"])
def store(request, settings):
    if request.param == "redis":
        request.getfixturevalue("redis")
    else:
        settings.REDIS_URL = ""
        settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
    return ResponseStore()


@pytest.fixture
def slug() -> str:
    return f"open-{uuid.uuid4().hex[:8]}"


@pytest.mark.parametrize(
    ("before", "offered", "after"),
    [
        # nothing published yet
        (None, Published(1, 7, 5, T0), Published(1, 7, 5, T0)),
        # never back: an earlier version published late (a slow writer) changes nothing
        (Published(1, 7, 6, T0), Published(1, 7, 5, T1), Published(1, 7, 6, T0)),
        # forward
        (Published(1, 7, 5, T0), Published(1, 7, 6, T1), Published(1, 7, 6, T1)),
        (Published(1, 7, 5, T1), Published(1, 7, 9, T0), Published(1, 7, 9, T0)),
        # the same version checked again: the later check stands
        (Published(1, 7, 5, T0), Published(1, 7, 5, T1), Published(1, 7, 5, T1)),
        (Published(1, 7, 5, T1), Published(1, 7, 5, T0), Published(1, 7, 5, T1)),
        # the slug names another tournament now (one deleted, another made): replaced
        (Published(1, 7, 9, T0), Published(2, 8, 1, T1), Published(2, 8, 1, T1)),
        (Published(1, 7, 9, T0), Published(1, 8, 1, T1), Published(1, 8, 1, T1)),
    ],
)
def test_a_published_version_never_moves_back(store, slug, before, offered, after):
    if before is not None:
        store.publish(slug, before, 60)
    store.publish(slug, offered, 60)
    assert store.published(slug) == after


def test_a_creation_instant_in_microseconds_survives_the_store(store, slug):
    published = Published(123456789, 1_795_000_000_123_456, 2**40, 1_795_000_000.654321)
    store.publish(slug, published, 60)
    assert store.published(slug) == published


def test_unpublishing_removes_only_the_version_seen(store, slug):
    seen = Published(1, 7, 5, T0)
    store.publish(slug, seen, 60)
    store.unpublish(slug, Published(1, 7, 4, T0))  # not what is there: stays
    assert store.published(slug) == seen
    store.unpublish(slug, seen)
    assert store.published(slug) is None


def test_a_response_is_read_from_memory_once_read_from_the_store(store):
    key = f"page-{uuid.uuid4().hex}"
    response = ("200 OK", [("Content-Type", "text/html")], b"<html>")
    assert store.response(key) is None
    store.set(key, response, 60)
    assert store.response(key) == response
    store.delete(key)  # gone from the store: this process still has it (a key never changes)
    assert store.response(key) == response


@pytest.mark.parametrize(
    ("sizes", "bound", "kept"),
    [
        ([], 10, []),
        ([11], 10, []),  # larger than the whole bound: never kept
        ([10], 10, ["0"]),
        ([4, 4, 4], 10, ["1", "2"]),  # the least recently used goes first
        ([5, 5, 1], 10, ["1", "2"]),
    ],
)
def test_the_memory_of_pages_stays_within_its_bound(sizes, bound, kept):
    local = LocalResponses(max_bytes=bound)
    for number, size in enumerate(sizes):
        local.put(str(number), ("200 OK", [], b"x" * size), size)
    assert [key for key in map(str, range(len(sizes))) if local.get(key) is not None] == kept


def test_reading_a_page_makes_it_the_last_to_go():
    local = LocalResponses(max_bytes=8)
    local.put("a", "A", 4)
    local.put("b", "B", 4)
    assert local.get("a") == "A"
    local.put("c", "C", 4)
    assert (local.get("a"), local.get("b"), local.get("c")) == ("A", None, "C")
    local.put("a", "A2", 4)  # stored again: replaced, not counted twice
    assert (local.get("a"), local.get("c")) == ("A2", "C")
