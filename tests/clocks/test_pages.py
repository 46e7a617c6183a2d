"""The clock's pages: the table clock (players and director), the live JSON, the
buttons behind them (JSON from clock.js, plain forms without it) and the live clock
on the public match page and the score sheets."""

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext

from clocks.models import Clock, ClockEvent
from tests.conftest import first_round, make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})


@pytest.fixture
def match(event):
    return first_round(event)[0]


@pytest.fixture
def director_client(director_user):
    client = Client()
    client.force_login(director_user)
    return client


def table_url(match):
    return f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/"


def director_table_url(match):
    return f"/director/t/{match.tournament.slug}/m/{match.pk}/clock/"


def json_url(match):
    return f"/t/{match.tournament.slug}/m/{match.pk}/clock.json"


def post_json(client, path, body, token=None):
    headers = {"HTTP_X_CSRFTOKEN": token} if token else {}
    return client.post(path, json.dumps(body), content_type="application/json", **headers)


def player_client(match, entry=None):
    """A phone with the player's page open: CSRF checked as in a browser."""
    client = Client(enforce_csrf_checks=True)
    entry = entry or match.entry_a
    assert client.get(f"/p/{entry.private_key}/").status_code == 200
    return client, client.cookies["csrftoken"].value


# --- The JSON ------------------------------------------------------------------------------------
def test_the_clock_json_is_public_and_never_cached(match):
    response = Client().get(json_url(match))
    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    view = response.json()
    assert view["phase"] == "ready" and view["version"] == 0 and view["time_ms"] == {"a": 360000, "b": 360000}
    assert not Clock.objects.exists()


def test_the_clock_json_of_a_match_without_a_clock_is_404(director):
    scored = make_tournament(director, players=4)
    match = first_round(scored)[0]
    assert Client().get(f"/t/{scored.slug}/m/{match.pk}/clock.json").status_code == 404


# --- Many clocks in one request (the tournament page, the projector) ------------------------------
def many_url(event, matches) -> str:
    return f"/t/{event.slug}/clocks.json?matches={','.join(str(m) for m in matches)}"


def started(event):
    """The first round's matches, the first two with their clocks started by a player."""
    matches = first_round(event)
    for match in matches[:2]:
        client, token = player_client(match)
        post_json(client, f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/start/", {"side": "a"}, token)
    return matches


def test_many_clocks_come_in_one_answer_as_each_ones_own_json_at_one_moment(event):
    first, second = started(event)
    response = Client().get(many_url(event, [first.pk, second.pk]))
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    data = response.json()
    assert set(data["clocks"]) == {str(first.pk), str(second.pk)}
    for match in (first, second):
        view, own = data["clocks"][str(match.pk)], Client().get(json_url(match)).json()
        assert view["server_time"] == data["server_time"]
        assert {k: v for k, v in view.items() if k not in ("server_time", "time_ms", "delay_left_ms")} == {
            k: v for k, v in own.items() if k not in ("server_time", "time_ms", "delay_left_ms")
        }
        assert view["phase"] == "running" and view["running"] == "a"


def test_matches_without_a_clock_and_matches_of_another_event_are_left_out(event, director):
    first, _second = started(event)
    other = make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})
    theirs = started(other)[0]
    never_started = make_tournament(director, players=4, game_type="backgammon", round_plan="3")
    data = Client().get(many_url(event, [first.pk, theirs.pk, first_round(never_started)[0].pk, 99999])).json()
    assert list(data["clocks"]) == [str(first.pk)]
    assert Client().get(f"/t/{event.slug}/clocks.json").json()["clocks"] == {}  # nothing asked, nothing given


@pytest.mark.parametrize(
    "matches",
    ["abc", "1,,x", "-4", "1.5", "0", "12345678901", "1;2", ",".join(["7"] * 513)],
    ids=["letters", "a_word_among_them", "negative", "decimal", "zero", "too_big", "semicolons", "more_than_512"],
)
def test_a_bad_list_of_matches_is_a_400_that_says_how(event, matches):
    response = Client().get(f"/t/{event.slug}/clocks.json", {"matches": matches})
    assert response.status_code == 400
    assert "matches" in response.json()["errors"]


def test_the_clocks_of_a_draft_are_nobodys(director):
    draft = services.create_tournament(director, name="Not public yet", game_type="backgammon")
    assert Client().get(f"/t/{draft.slug}/clocks.json?matches=1").status_code == 404


def test_the_tournament_pages_running_matches_carry_their_clocks_fetched_together(event):
    started(event)
    with CaptureQueriesContext(connection) as queries:
        html = Client().get(f"/t/{event.slug}/").content.decode()
    assert not [q for q in queries if "clocks_clock" in q["sql"]], "a cached page does not keep a clock's time"
    assert f'data-clock-batch-url="/t/{event.slug}/clocks.json"' in html
    section = html.split('id="now-playing"')[1].split("</section>")[0]
    assert ">Clock<" in section
    compact = r'<span class="clock-widget is-compact" data-clock-match="(\d+)" data-phase="">'
    assert re.findall(compact, section) == [str(m.pk) for m in first_round(event)]  # filled in by clock.js
    assert section.count('<span class="cw-time" data-clock-face="a"></span>') == 2


def test_the_projector_shows_the_clocks_the_running_matches_have_blank_until_fetched(event):
    first, second = started(event)[:2]
    html = Client().get(f"/t/{event.slug}/projector/").content.decode()
    assert f'data-clock-batch-url="/t/{event.slug}/clocks.json"' in html
    blank = r'<div class="clock-widget" data-clock-url="[^"]+" data-clock-match="(\d+)" data-phase="">'
    widgets = re.findall(blank, html)
    assert widgets == [str(first.pk), str(second.pk)]


# --- The table clock -----------------------------------------------------------------------------
def test_the_players_table_clock_has_two_halves_and_start_buttons(match):
    response = Client().get(table_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    assert f'data-clock-url="{json_url(match)}"' in html
    assert f'data-clock-press-url="/p/{match.entry_a.private_key}/m/{match.pk}/clock/press/"' in html
    assert html.count("data-clock-half=") == 2
    assert f"Start {match.entry_a.name}'s time" in html and f"Start {match.entry_b.name}'s time" in html
    assert "6:00" in html  # both faces: 3 points x 2 minutes
    assert "js/clock.js" in html
    assert "clock/pause/" not in html and "Clock log" not in html  # the director's tools are the director's
    assert not Clock.objects.exists()


def test_only_the_players_of_the_match_open_its_table_clock(match, event):
    stranger = first_round(event)[1].entry_a
    assert Client().get(f"/p/{stranger.private_key}/m/{match.pk}/clock/").status_code == 403
    assert Client().get(f"/p/nonsense/m/{match.pk}/clock/").status_code == 404


def test_the_directors_table_clock_adds_pause_resume_adjust_and_the_log(match, director_client):
    client, token = player_client(match)
    post_json(client, f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/start/", {"side": "a"}, token)
    response = director_client.get(director_table_url(match))
    assert response.status_code == 200
    html = response.content.decode()
    for name in ("pause", "resume", "adjust"):
        assert f'action="/director/t/{match.tournament.slug}/m/{match.pk}/clock/{name}/"' in html
    assert "Clock log" in html and match.entry_a.name in html
    assert Client().get(director_table_url(match)).status_code == 302  # sign in first


def test_another_director_may_not_open_the_directors_table_clock(match, other_director_user):
    client = Client()
    client.force_login(other_director_user)
    assert client.get(director_table_url(match)).status_code == 403


def test_a_scrabble_clock_is_not_tapped_the_sheet_presses_it(director):
    scrabble = make_tournament(
        director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "per_move"}
    )
    match = first_round(scrabble)[0]
    html = Client().get(table_url(match)).content.decode()
    assert "The score sheet presses this clock" in html
    assert "data-clock-press-url" not in html and "Start " not in html
    assert html.count("disabled") >= 2  # both halves


# --- The buttons ---------------------------------------------------------------------------------
def test_a_phone_starts_and_presses_with_json_and_the_csrf_token(match):
    client, token = player_client(match)
    base = f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/"
    assert post_json(client, base + "start/", {"side": "a"}).status_code == 403  # no CSRF token
    response = post_json(client, base + "start/", {"side": "a", "version": 0}, token)
    assert response.status_code == 200
    assert response.json()["running"] == "a" and response.json()["version"] == 1

    # The opponent's phone may press the running side too; a double tap presses once.
    other, other_token = player_client(match, match.entry_b)
    other_base = f"/p/{match.entry_b.private_key}/m/{match.pk}/clock/"
    one = post_json(other, other_base + "press/", {"side": "a", "version": 1}, other_token)
    two = post_json(other, other_base + "press/", {"side": "a", "version": 1}, other_token)
    assert one.status_code == 200 and one.json()["running"] == "b"
    assert two.status_code == 409 and "changed since you saw it" in two.json()["detail"]
    presses = ClockEvent.objects.filter(kind="press")
    assert presses.count() == 1 and presses.get().by_entry_id == match.entry_b_id


@pytest.mark.parametrize(
    "body, status, message",
    [
        ({"side": "c", "version": 1}, 400, 'The side is "a" or "b".'),
        ({"side": "b", "version": 1}, 400, "It is not this side's time that runs."),
        ({"side": "a"}, 400, "A press carries the clock's version"),
        ({"side": "a", "version": 1, "x": 1}, 400, "Unknown field"),
        ({"side": ["a"], "version": 1}, 400, "side is a string or a number"),
        ({"side": "a", "version": 7}, 409, "changed since you saw it"),
    ],
)
def test_a_refused_json_press_answers_with_the_message(match, body, status, message):
    client, token = player_client(match)
    base = f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/"
    post_json(client, base + "start/", {"side": "a"}, token)
    response = post_json(client, base + "press/", body, token)
    assert response.status_code == status
    assert message in response.json()["detail"]
    assert ClockEvent.objects.filter(kind="press").count() == 0


def test_a_player_may_not_pause_through_the_page(match):
    client, token = player_client(match)
    response = post_json(client, f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/pause/", {}, token)
    assert response.status_code == 404  # a player's page has no pause button


def test_a_stranger_gets_a_403_in_json(match, event):
    stranger = first_round(event)[1].entry_a
    client, token = player_client(match, stranger)
    response = post_json(client, f"/p/{stranger.private_key}/m/{match.pk}/clock/start/", {"side": "a"}, token)
    assert response.status_code == 403 and "Only the two players" in response.json()["detail"]
    assert not Clock.objects.exists()


def test_without_javascript_the_halves_are_forms_too(match):
    client = Client()
    base = f"/p/{match.entry_a.private_key}/m/{match.pk}/clock/"
    response = client.post(base + "start/", {"side": "a", "version": "0"})
    assert response.status_code == 302 and response["Location"] == base
    response = client.post(base + "press/", {"side": "b", "version": "1"}, follow=True)
    assert "It is not this side&#x27;s time that runs." in response.content.decode()
    client.post(base + "press/", {"side": "a", "version": "1"})
    assert Clock.objects.get().running == "b"


def test_the_director_pauses_adjusts_and_resumes_with_plain_forms(match, director_client):
    base = director_table_url(match)
    director_client.post(base + "start/", {"side": "b"})
    response = director_client.post(base + "pause/", {"reason": "noise"}, follow=True)
    assert "The clock is paused." in response.content.decode()
    response = director_client.post(base + "adjust/", {"side": "a", "seconds": "75", "reason": ""}, follow=True)
    assert "Say why the time is adjusted" in response.content.decode()
    assert not ClockEvent.objects.filter(kind="adjust").exists()
    response = director_client.post(base + "adjust/", {"side": "a", "seconds": "75,5", "reason": "clock knocked"})
    assert response.status_code == 302
    assert Clock.objects.get().time_a_ms == 75500
    response = director_client.post(base + "resume/", {}, follow=True)
    assert "The clock runs again." in response.content.decode()
    html = response.content.decode()
    assert "clock knocked" in html and "jana" in html  # the log says who and why
    kinds = list(ClockEvent.objects.order_by("number").values_list("kind", flat=True))
    assert kinds == ["start", "pause", "adjust", "resume"]


def test_a_signed_out_director_button_asks_to_sign_in(match):
    base = director_table_url(match)
    assert Client().post(base + "pause/", {}).status_code == 302
    response = Client().post(base + "pause/", "{}", content_type="application/json")
    assert response.status_code == 403 and "Sign in" in response.json()["detail"]


# --- The live clock on other pages ---------------------------------------------------------------
def test_the_public_match_page_shows_the_live_clock(match):
    html = Client().get(f"/t/{match.tournament.slug}/m/{match.pk}/").content.decode()
    assert f'data-clock-url="{json_url(match)}"' in html and "js/clock.js" in html
    assert "Open the table clock" not in html


def test_a_match_without_a_clock_shows_none(director):
    event = make_tournament(director, players=4, game_type="backgammon", round_plan="3")
    match = first_round(event)[0]
    assert "data-clock-url" not in Client().get(f"/t/{event.slug}/m/{match.pk}/").content.decode()
    assert "data-clock-url" not in Client().get(f"/p/{match.entry_a.private_key}/m/{match.pk}/").content.decode()
    assert Client().get(table_url(match)).status_code == 404


def test_the_backgammon_sheet_links_to_the_table_clock(match, director_client):
    html = Client().get(f"/p/{match.entry_a.private_key}/m/{match.pk}/").content.decode()
    assert f'data-clock-url="{json_url(match)}"' in html
    assert f'href="{table_url(match)}"' in html and "Open the table clock" in html
    html = director_client.get(f"/director/t/{match.tournament.slug}/m/{match.pk}/").content.decode()
    assert f'href="{director_table_url(match)}"' in html


def test_the_scrabble_sheet_shows_the_move_clock_at_the_top(director):
    scrabble = make_tournament(
        director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "per_move"}
    )
    match = first_round(scrabble)[0]
    html = Client().get(f"/p/{match.entry_a.private_key}/m/{match.pk}/").content.decode()
    assert f'data-clock-url="{json_url(match)}"' in html
    assert html.index("data-clock-url") < html.index("sc-match")
    assert "2:00" in html
