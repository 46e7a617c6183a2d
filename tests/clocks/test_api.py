"""The match clock through the API: GET the clock, start, press, pause, resume, adjust;
every refusal answers with a message and leaves the clock as it was."""

from datetime import timedelta

import pytest
from django.core.management import call_command
from django.db import transaction
from rest_framework.test import APIClient

from clocks import selectors, services
from clocks.api.serializers import ClockSerializer
from clocks.models import Clock, ClockEvent
from tests.conftest import api_client_for, first_round, make_tournament
from tournaments.models import AuditEntry

pytestmark = pytest.mark.django_db

RESERVE_MS = 3 * 2 * 60 * 1000  # a match to 3, 2 minutes per point


@pytest.fixture
def event(director):
    """A backgammon knockout whose rounds allow the match clock (matches to 3)."""
    return make_tournament(director, players=4, game_type="backgammon", round_plan="3", settings={"clock": "allowed"})


@pytest.fixture
def match(event):
    return first_round(event)[0]


@pytest.fixture
def players(match):
    return api_client_for(entry=match.entry_a), api_client_for(entry=match.entry_b)


@pytest.fixture
def boss(director_user):
    return api_client_for(user=director_user)


def url(match, action=""):
    return f"/api/matches/{match.pk}/clock/" + (f"{action}/" if action else "")


def clock_facts(match):
    """What a refused request must leave untouched."""
    clock = Clock.objects.filter(match=match).first()
    return (
        None if clock is None else (clock.version, clock.phase, clock.running, clock.time_a_ms, clock.time_b_ms),
        list(ClockEvent.objects.filter(clock__match=match).order_by("number").values("kind", "side", "version")),
    )


def started(match, players):
    first, _ = players
    response = first.post(url(match, "start"), {"side": "a"}, format="json")
    assert response.status_code == 200, response.json()
    return response.json()


# --- Reading --------------------------------------------------------------------------------
def test_a_match_not_started_shows_a_ready_clock_without_creating_one(match):
    response = APIClient().get(url(match))
    assert response.status_code == 200
    view = response.json()
    assert view["phase"] == "ready" and view["running"] is None and view["version"] == 0
    assert view["time_ms"] == {"a": RESERVE_MS, "b": RESERVE_MS}
    assert view["controls"]["a"]["delay_kind"] == "simple" and view["controls"]["a"]["delay"] == 12000
    assert view["presses_from_sheet"] is False
    assert "no-store" in response["Cache-Control"]
    assert not Clock.objects.filter(match=match).exists()  # a GET writes nothing


def test_the_ready_view_is_what_the_created_clock_shows(match):
    ready = selectors.clock_view_of(match)
    with transaction.atomic():
        clock = services.ensure_clock(match)
        created = services.clock_view(clock)
        transaction.set_rollback(True)
    assert {**ready, "server_time": None} == {**created, "server_time": None}


def test_the_response_shape_is_the_services_view(match, players):
    view = started(match, players)
    assert ClockSerializer(view).data == view
    assert set(view) == set(services.clock_view(Clock.objects.get(match=match)))


def test_a_match_without_a_clock_is_not_found(director):
    scored = make_tournament(director, players=4)
    response = APIClient().get(url(first_round(scored)[0]))
    assert response.status_code == 404
    assert "no clock" in response.json()["detail"]


def test_the_schema_lists_the_clock_and_stays_valid(tmp_path):
    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    schema = (tmp_path / "schema.yml").read_text()
    for action in ("", "start/", "press/", "pause/", "resume/", "adjust/"):
        assert f"/api/matches/{{match_id}}/clock/{action}:" in schema


# --- The players ------------------------------------------------------------------------------
def test_a_player_starts_and_either_player_presses_the_running_side(match, players):
    first, second = players
    view = started(match, players)
    assert view["phase"] == "running" and view["running"] == "a" and view["version"] == 1
    assert 0 < view["delay_left_ms"] <= 12000 and view["delay_kind"] == "simple"

    # Like a physical clock: the opponent may press the running side too.
    response = second.post(url(match, "press"), {"side": "a", "version": 1}, format="json")
    assert response.status_code == 200, response.json()
    view = response.json()
    assert view["running"] == "b" and view["version"] == 2 and view["moves"] == {"a": 1, "b": 0}

    response = second.post(url(match, "press"), {"side": "b", "version": 2}, format="json")
    assert response.status_code == 200 and response.json()["running"] == "a"
    events = list(ClockEvent.objects.filter(clock__match=match).order_by("number"))
    assert [(e.kind, e.side, e.by_entry_id) for e in events] == [
        ("start", "a", match.entry_a_id),
        ("press", "a", match.entry_b_id),
        ("press", "b", match.entry_b_id),
    ]


def test_a_double_tap_presses_once(match, players):
    first, second = players
    started(match, players)
    one = first.post(url(match, "press"), {"side": "a", "version": 1}, format="json")
    two = first.post(url(match, "press"), {"side": "a", "version": 1}, format="json")
    assert one.status_code == 200 and two.status_code == 409
    assert "changed since you saw it" in two.json()["detail"]
    assert ClockEvent.objects.filter(clock__match=match, kind="press").count() == 1
    assert Clock.objects.get(match=match).running == "b"


def test_a_press_with_a_stale_version_is_refused_and_nothing_is_recorded(match, players):
    first, _ = players
    started(match, players)
    before = clock_facts(match)
    response = first.post(url(match, "press"), {"side": "a", "version": 0}, format="json")
    assert response.status_code == 409
    assert clock_facts(match) == before


@pytest.mark.parametrize(
    "action, body, field, message",
    [
        ("press", {"side": "a"}, "version", "This field is required."),
        ("press", {"version": 1}, "side", "This field is required."),
        ("press", {"side": "c", "version": 1}, "side", '"c" is not a valid choice.'),
        ("press", {"side": "a", "version": "one"}, "version", "A valid integer is required."),
        ("press", {"side": "a", "version": 1, "colour": "red"}, "colour", "Unknown field"),
        ("press", {"side": "b", "version": 1}, None, "It is not this side's time that runs."),
        ("start", {"side": "b"}, None, "The clock is already running."),
        ("start", {"side": "a", "tap": True}, "tap", "Unknown field"),
    ],
)
def test_bad_input_from_a_player_is_a_400_with_the_message(match, players, action, body, field, message):
    first, _ = players
    started(match, players)
    before = clock_facts(match)
    response = first.post(url(match, action), body, format="json")
    assert response.status_code == 400, response.json()
    data = response.json()
    assert message in data["detail"]
    if field:
        assert field in data["errors"]
    assert clock_facts(match) == before


def test_someone_else_may_not_touch_the_clock(match, players, event):
    stranger = first_round(event)[1].entry_a
    for client in (api_client_for(entry=stranger), APIClient()):
        response = client.post(url(match, "start"), {"side": "a"}, format="json")
        assert response.status_code == 403
        assert "Only the two players of this match" in response.json()["detail"]
    assert not Clock.objects.filter(match=match).exists()
    started(match, players)
    before = clock_facts(match)
    response = api_client_for(entry=stranger).post(url(match, "press"), {"side": "a", "version": 1}, format="json")
    assert response.status_code == 403
    assert clock_facts(match) == before


@pytest.mark.parametrize(
    "action, body",
    [("pause", {}), ("resume", {}), ("adjust", {"side": "a", "seconds": 60, "reason": "my way"})],
)
def test_a_player_may_not_pause_resume_or_adjust(match, players, action, body):
    first, _ = players
    started(match, players)
    before = clock_facts(match)
    response = first.post(url(match, action), body, format="json")
    assert response.status_code == 403
    assert "Only a director" in response.json()["detail"]
    assert clock_facts(match) == before


def test_a_player_may_not_press_a_clock_the_score_sheet_presses(director):
    scrabble = make_tournament(
        director, players=4, game_type="scrabble", round_plan="1", settings={"clock": "per_move"}
    )
    match = first_round(scrabble)[0]
    view = APIClient().get(url(match)).json()
    assert view["presses_from_sheet"] is True and view["time_ms"] == {"a": 120000, "b": 120000}
    player = api_client_for(entry=match.entry_a)
    for action, body in (("start", {"side": "a"}), ("press", {"side": "a", "version": 0})):
        response = player.post(url(match, action), body, format="json")
        assert response.status_code == 400
        assert "The score sheet runs this clock" in response.json()["detail"]
    assert not Clock.objects.filter(match=match).exists()


# --- The director -----------------------------------------------------------------------------
def test_the_director_pauses_resumes_and_adjusts_with_a_reason(match, players, boss):
    started(match, players)
    response = boss.post(url(match, "pause"), {"reason": "a spilled coffee"}, format="json")
    assert response.status_code == 200 and response.json()["phase"] == "paused"
    frozen = response.json()["time_ms"]
    assert boss.get(url(match)).json()["time_ms"] == frozen  # a paused clock stands still

    response = boss.post(url(match, "adjust"), {"side": "b", "seconds": 90.5, "reason": "a wrong press"}, format="json")
    assert response.status_code == 200
    assert response.json()["time_ms"]["b"] == 90500 and response.json()["phase"] == "paused"

    response = boss.post(url(match, "resume"), {}, format="json")
    assert response.status_code == 200 and response.json()["phase"] == "running"
    kinds = list(ClockEvent.objects.filter(clock__match=match).order_by("number").values_list("kind", "reason"))
    assert kinds == [("start", ""), ("pause", "a spilled coffee"), ("adjust", "a wrong press"), ("resume", "")]
    adjust = ClockEvent.objects.get(clock__match=match, kind="adjust")
    assert adjust.value_ms == 90500 and adjust.by_user is not None
    assert AuditEntry.objects.filter(action="clock.adjust", message="a wrong press").exists()


@pytest.mark.parametrize(
    "body, field, message",
    [
        ({"side": "a", "seconds": 60}, "reason", "Say why the time is adjusted"),
        ({"side": "a", "seconds": 60, "reason": "  "}, "reason", "Say why the time is adjusted"),
        ({"side": "a", "seconds": 0, "reason": "x"}, "seconds", "more than 0 and at most a day"),
        ({"side": "a", "seconds": -5, "reason": "x"}, "seconds", "more than 0 and at most a day"),
        ({"side": "a", "seconds": 90000, "reason": "x"}, "seconds", "more than 0 and at most a day"),
        ({"side": "a", "seconds": "soon", "reason": "x"}, "seconds", "A valid number is required."),
        ({"seconds": 60, "reason": "x"}, "side", "This field is required."),
        ({"side": "x", "seconds": 60, "reason": "x"}, "side", "not a valid choice"),
        ({"side": "a", "seconds": 60, "reason": "x", "minutes": 1}, "minutes", "Unknown field"),
    ],
)
def test_a_bad_adjustment_is_a_400_with_the_message(match, players, boss, body, field, message):
    started(match, players)
    before = clock_facts(match)
    response = boss.post(url(match, "adjust"), body, format="json")
    assert response.status_code == 400, response.json()
    assert message in response.json()["detail"]
    assert field in response.json()["errors"]
    assert clock_facts(match) == before


def test_pause_and_resume_only_when_they_make_sense(match, players, boss):
    response = boss.post(url(match, "resume"), {}, format="json")
    assert response.status_code == 400 and "Only a paused clock" in response.json()["detail"]
    started(match, players)
    response = boss.post(url(match, "pause"), {"because": "x"}, format="json")
    assert response.status_code == 400 and "because" in response.json()["errors"]


# --- Time running out -------------------------------------------------------------------------
def test_a_press_after_the_deadline_is_a_409_and_the_flag_falls(match, players, monkeypatch):
    first, _ = players
    started(match, players)
    later = services.server_now() + timedelta(seconds=RESERVE_MS // 1000 + 13)
    monkeypatch.setattr(services, "server_now", lambda: later)
    response = first.post(url(match, "press"), {"side": "a", "version": 1}, format="json")
    assert response.status_code == 409
    assert "Time ran out" in response.json()["detail"]
    view = APIClient().get(url(match)).json()
    assert view["phase"] == "flagged" and view["flagged"] == "a" and view["time_ms"]["a"] == 0
    assert ClockEvent.objects.filter(clock__match=match, kind="press").count() == 0
    match.refresh_from_db()
    assert match.winner_id == match.entry_b_id  # backgammon: running out loses the match


def test_the_enforcement_flags_a_clock_nobody_presses(match, players, monkeypatch):
    started(match, players)
    clock = Clock.objects.get(match=match)
    assert services.enforce(clock.pk) == "early"
    later = services.server_now() + timedelta(seconds=RESERVE_MS // 1000 + 13)
    monkeypatch.setattr(services, "server_now", lambda: later)
    assert services.enforce(clock.pk, clock.version) == "a"
    assert services.enforce(clock.pk) == "idle"  # exactly once
    assert APIClient().get(url(match)).json()["phase"] == "flagged"
