"""The edge of the public pages (``tournaments.edge_cache``): a reader with no cookie is
answered from the page cache before Django — with no SQL when the published versions are
shared (Redis), one query otherwise — and never with a page older than the last change
confirmed to anybody, nor with anything meant for someone else.

Every test runs in both ways of giving readers their version: the database's, and the
published one. The tests commit (transactional database): publishing happens at commit."""

from __future__ import annotations

import gzip
import io
import json
import time
from contextlib import contextmanager
from unittest import mock
from wsgiref.util import setup_testing_defaults

import pytest
from django.core import signals
from django.db import close_old_connections, connection
from django.test.utils import CaptureQueriesContext

from director.wsgi import application
from tests.conftest import first_round, make_tournament, play
from tournaments import edge_cache, services
from tournaments.access import Actor
from tournaments.edge_cache import PUBLIC_PAGE, accepts_gzip
from tournaments.errors import DomainError
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["database", "published"], autouse=True)
def versions_from(request, settings) -> str:
    """Where a reader's version comes from: the database (one query), or the store."""
    settings.EDGE_PUBLISHED_VERSIONS = request.param == "published"
    return request.param


@pytest.fixture
def warm(versions_from) -> int:
    """The SQL queries of a reader answered from the edge."""
    return 1 if versions_from == "database" else 0


@contextmanager
def same_connection():
    """As Django's test client does: the test's connection stays open across requests."""
    signals.request_started.disconnect(close_old_connections)
    signals.request_finished.disconnect(close_old_connections)
    try:
        yield
    finally:
        signals.request_started.connect(close_old_connections)
        signals.request_finished.connect(close_old_connections)


def get(path: str, method: str = "GET", body: bytes = b"", **headers: str) -> tuple[int, dict[str, str], str, int]:
    """Status, headers, body and SQL queries of one request through the WSGI application
    (the edge, then Django), as gunicorn makes it."""
    status, response_headers, body, queries = get_bytes(path, method, body, **headers)
    return status, response_headers, body.decode(), queries


def get_bytes(
    path: str, method: str = "GET", body: bytes = b"", **headers: str
) -> tuple[int, dict[str, str], bytes, int]:
    environ: dict = {}
    setup_testing_defaults(environ)
    environ.update(PATH_INFO=path, REQUEST_METHOD=method, HTTP_HOST="testserver", QUERY_STRING="")
    if body:
        environ.update({"wsgi.input": io.BytesIO(body), "CONTENT_LENGTH": str(len(body))})
        environ["CONTENT_TYPE"] = "application/json"
    if "?" in path:
        environ["PATH_INFO"], environ["QUERY_STRING"] = path.split("?", 1)
    environ.update({f"HTTP_{name.upper()}": value for name, value in headers.items()})
    answered = {}

    def start_response(status, response_headers, exc_info=None):
        answered.update(status=int(status.split()[0]), headers=dict(response_headers))

    with same_connection(), CaptureQueriesContext(connection) as queries:
        result = application(environ, start_response)
        body = b"".join(result)
        if hasattr(result, "close"):
            result.close()
    return answered["status"], answered["headers"], body, len(queries)


@pytest.mark.parametrize(
    ("path", "public"),
    [
        ("/t/open/", True),
        ("/t/open/results/", True),
        ("/t/open/projector/", True),
        ("/t/open/m/12/", True),
        ("/t/open", False),
        ("/t/open/live/tournament/", False),
        ("/t/open/m/12/live/", False),
        ("/t/open/m/x/", False),
        ("/director/t/open/", False),
        ("/api/tournaments/open/", False),
        ("/t/../admin/", False),
    ],
)
def test_which_addresses_the_edge_answers(path, public):
    assert bool(PUBLIC_PAGE.match(path)) is public


def test_the_second_cookieless_reader_gets_the_same_page_from_the_edge(tournament, warm):
    match = first_round(tournament)[0]
    for path in (f"/t/{tournament.slug}/", f"/t/{tournament.slug}/results/", f"/t/{tournament.slug}/m/{match.pk}/"):
        status, headers, first, cold = get(path)
        assert status == 200 and cold > 1
        status, again_headers, again, queries = get(path)
        assert status == 200 and again == first
        assert queries == warm  # the page version at most; nothing else
        assert again_headers == headers  # the middleware's headers are kept
        assert headers["X-Frame-Options"] == "DENY" and "Set-Cookie" not in headers


def test_a_confirmed_result_shows_to_the_next_reader_at_once(tournament, warm):
    first = first_round(tournament)[0]
    _, _, before, _ = get(f"/t/{tournament.slug}/")
    assert "status-decided" not in before
    play(first)
    _, _, after, queries = get(f"/t/{tournament.slug}/")
    assert queries > 1  # rendered again, not served from the edge
    assert "status-decided" in after
    _, _, again, queries = get(f"/t/{tournament.slug}/")
    assert again == after and queries == warm


def test_each_language_has_its_own_page(tournament, warm, settings):
    _, czech_headers, czech, _ = get(f"/t/{tournament.slug}/", accept_language="cs")
    _, english_headers, english, _ = get(f"/t/{tournament.slug}/", accept_language="en")
    _, _, english_again, queries = get(f"/t/{tournament.slug}/", accept_language="en-GB,en;q=0.9")
    assert czech_headers["Content-Language"] == "cs" and english_headers["Content-Language"] == "en"
    assert czech != english and english_again == english and queries == warm
    _, default_headers, _, _ = get(f"/t/{tournament.slug}/")  # no preference: the settings' language
    assert default_headers["Content-Language"] == settings.LANGUAGE_CODE


def test_a_reader_with_a_cookie_goes_to_django(tournament, client, director_user):
    get(f"/t/{tournament.slug}/", accept_language="cs")
    _, headers, _, _ = get(f"/t/{tournament.slug}/", accept_language="cs", cookie="django_language=en")
    assert headers["Content-Language"] == "en"  # the reader's choice, not the Czech page stored
    client.force_login(director_user)
    session = client.cookies["sessionid"].value
    status, _, html, _ = get(f"/t/{tournament.slug}/", cookie=f"sessionid={session}")
    assert status == 200 and f"/director/t/{tournament.slug}/" in html  # the director's own link
    _, _, public, _ = get(f"/t/{tournament.slug}/")
    assert f"/director/t/{tournament.slug}/" not in public  # and nobody else was given it


def test_drafts_unknown_addresses_and_other_methods_are_never_stored(director):
    draft = make_tournament(director, draw=False)
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.DRAFT)
    for _ in range(2):
        status, _, _, queries = get(f"/t/{draft.slug}/")
        assert status == 404 and queries >= 1  # Django's answer, from the database
        status, _, _, _ = get("/t/no-such-event/")
        assert status == 404
    running = make_tournament(director)
    status, _, _, _ = get(f"/t/{running.slug}/m/999999/")
    assert status == 404
    status, _, _, queries = get(f"/t/{running.slug}/m/999999/")
    assert status == 404 and queries >= 1
    get(f"/t/{running.slug}/")
    status, _, _, _ = get(f"/t/{running.slug}/", method="POST")
    assert status == 403  # Django's answer (no CSRF token), not the stored page


def test_a_cache_that_does_not_answer_leaves_the_page_to_django(tournament):
    from tournaments import edge_cache

    get(f"/t/{tournament.slug}/")
    play(first_round(tournament)[0])  # a new version: the edge would read and then write
    away = ConnectionError("cache away")
    with (
        mock.patch.object(edge_cache.store, "get", side_effect=away),
        mock.patch.object(edge_cache.store, "set_many", side_effect=away),
        mock.patch.object(edge_cache.store, "published", side_effect=away),
        mock.patch.object(edge_cache.store, "publish", side_effect=away),
        mock.patch.object(edge_cache.store, "note_address", side_effect=away),
    ):
        status, _, html, _ = get(f"/t/{tournament.slug}/")
        assert status == 200 and "tournament-body" in html and "status-decided" in html
        play(first_round(tournament)[1])  # and a change made meanwhile is on the next page
        status, _, html, _ = get(f"/t/{tournament.slug}/")
        assert status == 200 and html.count("status-decided") == 2


def test_a_change_that_rolls_back_leaves_the_page_as_it_was(tournament, warm):
    first = first_round(tournament)[0]
    _, _, before, _ = get(f"/t/{tournament.slug}/")
    with pytest.raises(RuntimeError), mock.patch.object(services, "_finish_if_complete", side_effect=RuntimeError):
        director = services.Actor(user=tournament.directors.first())
        services.submit_result(director, first.pk, {"games": [[21, 1], [21, 2]]})
    _, _, after, queries = get(f"/t/{tournament.slug}/")
    assert after == before and queries == warm


@pytest.mark.parametrize("fragment", ["live/tournament/", "live/results/", "live/projector/", "m/{match}/live/"])
def test_a_live_poll_with_nothing_new_is_answered_204_from_the_edge(tournament, fragment, warm):
    match = first_round(tournament)[0]
    url = f"/t/{tournament.slug}/{fragment.format(match=match.pk)}"
    status, _, body, _ = get(url)  # no version yet: the fragment
    version = json.loads(body)["version"]
    status, headers, body, queries = get(f"{url}?since={version}", cookie="sessionid=whatever")
    assert (status, body, queries) == (204, "", warm) and headers["Cache-Control"] == "no-store"
    play(match)
    status, _, body, _ = get(f"{url}?since={version}")
    assert status == 200 and json.loads(body)["version"] > version  # the change, at once


@pytest.mark.parametrize("query", ["since=", "since=abc", "since=-1", "since=99999999999999999999999", "x=1"])
def test_a_live_poll_without_a_usable_version_goes_to_django(tournament, query):
    status, _, body, _ = get(f"/t/{tournament.slug}/live/tournament/?{query}")
    assert status == 200 and "html" in json.loads(body)


def test_a_live_poll_of_a_draft_goes_to_django(director):
    draft = make_tournament(director, draw=False)
    Tournament.objects.filter(pk=draft.pk).update(status=Tournament.Status.DRAFT)
    status, _, _, _ = get(f"/t/{draft.slug}/live/tournament/?since=0")
    assert status == 404


@pytest.mark.parametrize(
    ("accept_encoding", "gzipped"),
    [
        ("", False),
        ("identity", False),
        ("gzip;q=0", False),
        ("br, gzip;q=0.0", False),
        ("gzipx", False),
        ("x-gzip2", False),
        ("gzip;q=abc", False),
        ("gzip", True),
        ("GZIP", True),
        ("gzip, deflate, br, zstd", True),
        ("br;q=1.0, gzip;q=0.8, *;q=0.1", True),
        ("deflate,gzip", True),
        ("*", True),
        ("*;q=0.5, gzip;q=0", False),
        ("gzip;q=0.2, *;q=0", True),
        ("identity, *;q=0", False),
    ],
)
def test_which_readers_get_the_page_compressed(accept_encoding, gzipped):
    assert accepts_gzip(accept_encoding) is gzipped


def test_a_browser_gets_the_stored_page_gzip_compressed_the_same_page_underneath(tournament, warm):
    path = f"/t/{tournament.slug}/"
    status, first_headers, first, _ = get_bytes(path, accept_encoding="gzip, deflate, br")  # Django renders it
    assert status == 200 and first_headers["Content-Encoding"] == "gzip"
    _, plain_headers, plain, queries = get_bytes(path)  # a client that asks for nothing
    assert queries == warm and "Content-Encoding" not in plain_headers
    assert gzip.decompress(first) == plain and len(first) < len(plain) / 2
    assert int(first_headers["Content-Length"]) == len(first) and int(plain_headers["Content-Length"]) == len(plain)
    _, again_headers, again, queries = get_bytes(path, accept_encoding="gzip")
    assert queries == warm and again == first and again_headers == first_headers
    for headers in (first_headers, plain_headers):  # a shared cache keeps the two apart
        assert "Accept-Encoding" in [v.strip() for v in headers["Vary"].split(",")]
        assert "Accept-Language" in headers["Vary"]


def test_a_reader_with_a_cookie_is_answered_by_django_uncompressed(tournament):
    get(f"/t/{tournament.slug}/")
    _, headers, body, _ = get_bytes(f"/t/{tournament.slug}/", accept_encoding="gzip", cookie="django_language=en")
    assert "Content-Encoding" not in headers and b"<html" in body


# --- Writers render the new version, then publish it; readers never wait ------------
@pytest.fixture
def token(director_user) -> str:
    """The director's API token."""
    from rest_framework.authtoken.models import Token

    return Token.objects.create(user=director_user).key


def director_decides(tournament, match) -> edge_cache.Version:
    """The director enters a match's result (one transaction) in what the edge takes for a
    web request whose answer has not gone out yet; the version it committed."""
    director = Actor(user=tournament.directors.first())
    pending = edge_cache._NEW_VERSIONS.set([])
    try:
        services.submit_result(director, match.pk, {"games": [[21, 10], [21, 12]]})
        (version,) = edge_cache._NEW_VERSIONS.get()
        return version
    finally:
        edge_cache._NEW_VERSIONS.reset(pending)


def submit_through_the_web(token: str, match) -> int:
    body = json.dumps({"result": {"games": [[21, 10], [21, 12]]}}).encode()
    status, _, _, _ = get(f"/api/matches/{match.pk}/results/", "POST", body, authorization=f"Token {token}")
    return status


def version_of(tournament) -> int:
    return Tournament.objects.select_related("page_version").get(pk=tournament.pk).version


def later(seconds: float):
    """The edge's clock, ``seconds`` on."""
    now = time.time()
    return mock.patch.object(edge_cache.time, "time", return_value=now + seconds)


def test_a_result_entered_through_the_web_is_rendered_before_its_writer_hears_it_is_done(tournament, token, warm):
    match = first_round(tournament)[0]
    page = f"/t/{tournament.slug}/"
    _, _, before, _ = get(page, accept_language="en")  # readers ask for it: it is noted
    _, _, czech_before, _ = get(page, accept_language="cs")
    assert submit_through_the_web(token, match) == 201
    for language, old in (("en", before), ("cs", czech_before)):
        _, headers, after, queries = get(page, accept_language=language)
        assert queries == warm  # rendered ahead by the writer, in each language read lately
        assert after != old and "status-decided" in after and headers["Content-Language"] == language


def test_while_a_change_is_being_written_readers_get_the_page_just_before_it(tournament, versions_from, warm):
    first = first_round(tournament)[0]
    page, poll = f"/t/{tournament.slug}/", f"/t/{tournament.slug}/live/tournament/?since="
    _, _, before, _ = get(page)
    shown = version_of(tournament)
    written = director_decides(tournament, first)  # committed; its writer not answered yet
    assert written.value == shown + 1
    _, _, during, queries = get(page)
    if versions_from == "published":
        # Nobody has been told of the change yet: the page as it was, and the live
        # page's poll hears "nothing new".
        assert during == before and queries == 0
        assert get(poll + str(shown))[0] == 204
    else:  # the database's version: the first reader renders it
        assert "status-decided" in during and queries > 1
    application.prerender(written)  # the writer's rendering, then its answer
    _, _, after, queries = get(page)
    assert "status-decided" in after and after != before and queries == warm
    assert get(poll + str(shown))[0] == 200
    assert get(poll + str(written.value))[0] == 204


def test_two_writers_neither_answered_yet_readers_get_the_page_before_both_until_the_first_is(tournament):
    first, second, *_ = first_round(tournament)
    page = f"/t/{tournament.slug}/"
    _, _, before, _ = get(page)
    one, two = director_decides(tournament, first), director_decides(tournament, second)
    assert two.value == one.value + 1
    _, _, during, _ = get(page)
    assert during.count("status-decided") in (0, 2)  # before both, or rendered with both
    application.prerender(one)  # it renders the latest version: with both results
    _, _, after, _ = get(page)
    assert after.count("status-decided") == 2
    application.prerender(two)
    assert get(page)[2] == after


def test_a_writer_that_committed_twice_renders_once_and_publishes_the_later(tournament, warm):
    first, second, *_ = first_round(tournament)
    get(f"/t/{tournament.slug}/")
    one, two = director_decides(tournament, first), director_decides(tournament, second)
    with mock.patch.object(edge_cache, "publish", wraps=edge_cache.publish) as publish:
        application.prerender(one, two)
    assert [call.args[0].value for call in publish.call_args_list] == [two.value]
    _, _, page, queries = get(f"/t/{tournament.slug}/")
    assert page.count("status-decided") == 2 and queries == warm
    assert get(f"/t/{tournament.slug}/live/tournament/?since={two.value}")[0] == 204


def test_a_change_made_outside_a_web_request_is_published_when_it_commits(tournament, versions_from):
    first, second, *_ = first_round(tournament)
    page = f"/t/{tournament.slug}/"
    _, _, before, _ = get(page)
    shown = version_of(tournament)
    play(first)  # confirmed, and not through the web (as a clock's flag in a worker)
    written = director_decides(tournament, second)  # a web writer, not answered yet
    assert written.value > shown + 1
    _, _, during, queries = get(page)
    assert queries > 1 and during != before  # rendered now, with the confirmed result in it
    first.refresh_from_db()
    assert "status-decided" in during and first.winner.name in during
    poll = f"/t/{tournament.slug}/live/tournament/?since="
    assert get(poll + str(shown))[0] == 200  # it shows a page without the confirmed result
    application.prerender(written)
    assert get(poll + str(written.value))[0] == 204


def test_a_version_nobody_published_is_found_when_readers_check_the_database(tournament, versions_from):
    """A writer that died between its commit and its publishing: nobody was told of its
    change; readers find it at their next check of the database."""
    first = first_round(tournament)[0]
    page = f"/t/{tournament.slug}/"
    _, _, before, _ = get(page)
    director_decides(tournament, first)  # and never answered
    _, _, soon, _ = get(page)
    if versions_from == "database":
        assert "status-decided" in soon  # read by every reader
        return
    assert soon == before  # until the published version is checked
    with later(edge_cache.CHECK_SECONDS + 0.01):
        _, _, checked, queries = get(page)
    assert "status-decided" in checked and queries > 1
    _, _, again, queries = get(page)
    assert again == checked and queries == 0  # published by the reader that checked


@pytest.mark.parametrize("versions_from", ["published"], indirect=True)
def test_a_published_version_is_checked_in_one_query_and_used_again_until_it_is_old(tournament):
    page = f"/t/{tournament.slug}/"
    get(page)
    assert get(page)[3] == 0
    with later(edge_cache.CHECK_SECONDS + 0.01):
        assert get(page)[3] == 1  # the check
        assert get(page)[3] == 0  # checked: published again with the check's time


def test_a_tournament_gone_from_the_database_is_no_longer_served(tournament):
    page = f"/t/{tournament.slug}/"
    assert get(page)[0] == 200
    Tournament.objects.filter(pk=tournament.pk).delete()
    with later(edge_cache.CHECK_SECONDS + 0.01):
        assert get(page)[0] == 404
    assert get(page)[0] == 404


def test_a_change_that_rolls_back_publishes_nothing(tournament):
    match = first_round(tournament)[0]
    pending = edge_cache._NEW_VERSIONS.set([])
    try:
        with (
            pytest.raises(DomainError),
            mock.patch.object(edge_cache, "publish", wraps=edge_cache.publish) as publish,
        ):
            services.submit_result(Actor(entry=match.entry_a), match.pk, {"games": [[21, 21]]})
        assert edge_cache._NEW_VERSIONS.get() == [] and not publish.called
    finally:
        edge_cache._NEW_VERSIONS.reset(pending)


def test_a_writer_whose_pages_cannot_be_rendered_ahead_is_still_answered_and_published(tournament, token):
    match = first_round(tournament)[0]
    get(f"/t/{tournament.slug}/")
    with mock.patch.object(edge_cache.store, "hot_addresses", side_effect=ConnectionError("cache away")):
        assert submit_through_the_web(token, match) == 201
    _, _, after, _ = get(f"/t/{tournament.slug}/")
    assert "status-decided" in after  # its first reader renders it, as without the edge


def test_readers_served_from_the_edge_keep_their_page_among_those_rendered_ahead(tournament, token):
    first, second, *_ = first_round(tournament)
    page = f"/t/{tournament.slug}/"
    get(page)
    submit_through_the_web(token, first)  # the page is rendered ahead: readers never miss it now
    hot = edge_cache.Version(tournament.slug, tournament.pk, 0, 0)
    hot = edge_cache.Version(tournament.slug, tournament.pk, edge_cache.page_cache.instant(tournament.created_at), 0)
    edge_cache.store.delete(hot.hot_key)  # the notes of two minutes ago are gone
    application._noted.clear()  # and this process noted its read long ago
    assert get(page)[3] <= 1  # a read from the edge notes it again
    assert [a["PATH_INFO"] for a in edge_cache.store.hot_addresses(hot.hot_key, 60, 6)] == [page]
