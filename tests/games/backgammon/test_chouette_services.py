"""Chouette sessions through their services and the API: the line from rolls, games
recorded at the table, rotation and ledger, joining and leaving, closing and settling;
every bad input a 400 that says what is wrong, with nothing recorded."""

import pytest
from django.core.exceptions import PermissionDenied
from rest_framework.test import APIClient

from games.backgammon import chouette_services as services
from games.backgammon.models import ChouetteEvent, ChouetteSession
from tests.conftest import api_client_for
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError

pytestmark = pytest.mark.django_db
TABLE = Actor()  # whoever sits at the table: no account, the table's key


@pytest.fixture
def session(director):
    return services.create_session(director, "Friday chouette", ["Ann", "Ben", "Cyd", "Dan", "Eva"], stake_cents=1000)


def ids(session):
    return {p.name: str(p.pk) for p in session.players.all()}


def names(session, line):
    by_id = {v: k for k, v in ids(session).items()}
    return [by_id[p] for p in line]


def seated(session, director, order=("Ann", "Ben", "Cyd", "Dan", "Eva")):
    pid = ids(session)
    services.set_line(director, session.pk, order=[pid[n] for n in order])
    session.refresh_from_db()
    return pid


def snapshot(session):
    session.refresh_from_db()
    return (
        list(session.events.order_by("number").values("kind", "data", "status")),
        session.line,
        session.games_played,
    )


# --- Opening ---------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("players", "settings", "message"),
    [
        (["Ann", "Ben"], {}, "at least 3 players"),
        (["Ann", "Ben", "ann"], {}, "named twice"),
        (["Ann", "Ben", "Cyd", "Dan", "Eva"], {"box_partner": True}, "box partner needs at least 6"),
        (["Ann", "Ben", "Cyd"], {"cubes": "two"}, "The cubes setting is"),
        (["Ann", "Ben", "Cyd"], {"colour": "red"}, "Unknown setting"),
    ],
)
def test_a_session_that_cannot_be_is_refused(director, players, settings, message):
    with pytest.raises(DomainError, match=message):
        services.create_session(director, "Bad", players, settings=settings)
    assert not ChouetteSession.objects.exists()


def test_only_a_signed_in_user_opens_a_session():
    with pytest.raises(PermissionDenied):
        services.create_session(TABLE, "Mine", ["Ann", "Ben", "Cyd"])


def test_the_line_comes_from_the_rolls_and_ties_reroll_among_the_tied(session):
    pid = ids(session)
    rolls = [
        {pid["Ann"]: 3, pid["Ben"]: 6, pid["Cyd"]: 6, pid["Dan"]: 1, pid["Eva"]: 4},
        {pid["Ben"]: 2, pid["Cyd"]: 5},
    ]
    services.set_line(TABLE, session.pk, session.table_key, rolls=rolls)
    session.refresh_from_db()
    assert names(session, session.line) == ["Cyd", "Ben", "Eva", "Ann", "Dan"]
    # A tie left unresolved is refused, and the line stays as it was.
    before = snapshot(session)
    with pytest.raises(DomainError):
        services.set_line(TABLE, session.pk, session.table_key, rolls=rolls[:1])
    assert snapshot(session) == before


def test_the_server_rolls_fairly_and_only_the_director_sets_an_order(session, director):
    services.set_line(TABLE, session.pk, session.table_key, roll=True)
    session.refresh_from_db()
    assert sorted(session.line) == sorted(ids(session).values())
    assert session.events.get(status="live").data["method"] == "server"
    with pytest.raises(PermissionDenied):
        services.set_line(TABLE, session.pk, session.table_key, order=list(ids(session).values()))
    with pytest.raises(PermissionDenied):
        services.set_line(TABLE, session.pk, "not-the-key", roll=True)


# --- Games at the table ------------------------------------------------------------------
def test_the_box_wins_stays_and_the_captain_goes_to_the_end(session, director):
    seated(session, director)
    services.record_game(TABLE, session.pk, {"board": {"winner": "box", "kind": "single"}}, session.table_key)
    session.refresh_from_db()
    assert names(session, session.line) == ["Ann", "Cyd", "Dan", "Eva", "Ben"]
    state = services.replay(session)
    pid = ids(session)
    assert state.totals == {pid["Ann"]: 4, pid["Ben"]: -1, pid["Cyd"]: -1, pid["Dan"]: -1, pid["Eva"]: -1}


def test_speccs_example_the_captain_drops_and_a_teammate_takes_over(session, director):
    pid = seated(session, director, order=("Ann", "Ben", "Cyd", "Dan", "Eva"))  # B, C, T1, T2, T3
    game = {
        "cubes": {
            pid["Ben"]: {"value": 2, "dropped_by": "member"},  # the captain drops
            pid["Eva"]: {"value": 2, "dropped_by": "member"},
            pid["Cyd"]: {"value": 2, "owner": "member"},  # T1 takes over the board
            pid["Dan"]: {"value": 2, "owner": "member"},
        },
        "board": {"winner": "team", "kind": "single"},
        "takeover": pid["Cyd"],
    }
    services.record_game(TABLE, session.pk, game, session.table_key)
    session.refresh_from_db()
    assert names(session, session.line) == ["Cyd", "Dan", "Eva", "Ben", "Ann"]  # T1 beat the box
    points = services.replay(session).games[0][1].points
    assert points == {pid["Ann"]: 2 - 4, pid["Ben"]: -1, pid["Eva"]: -1, pid["Cyd"]: 2, pid["Dan"]: 2}


@pytest.mark.parametrize(
    ("game", "message"),
    [
        ({"cubes": {"CYD": {"value": 3}}, "board": {"winner": "box"}}, "a cube is 1 (in the centre), 2, 4"),
        ({"cubes": {"CYD": {"value": 128, "owner": "member"}}, "board": {"winner": "box"}}, "a cube is 1"),
        ({"board": {"winner": "box"}, "captain": "nobody"}, "is not in the line"),
        ({"board": {"winner": "box"}, "takeover": "nobody"}, "not in the line"),
        ({"board": {"winner": "both"}}, 'names the winner: "box" or "team"'),
        ({"board": {"winner": "box", "kind": "triple"}}, "single, gammon or backgammon"),
        ({"board": {"winner": "box"}, "colour": "red"}, "Unknown game field"),
        # Everyone dropped, yet a board result claims points for them.
        (
            {
                "cubes": {p: {"value": 2, "dropped_by": "member"} for p in ("BEN", "CYD", "DAN", "EVA")},
                "board": {"winner": "team"},
            },
            "Ben, Cyd, Dan, Eva dropped",
        ),
        # The box doubles a cube the member owns: only its owner may double it.
        (
            {"cubes": {"CYD": {"value": 4, "owner": "member", "dropped_by": "member"}}, "board": {"winner": "box"}},
            "The box cannot double Cyd's cube: Cyd owns it",
        ),
    ],
)
def test_a_game_that_cannot_be_is_a_400_and_nothing_is_recorded(session, director, game, message):
    pid = seated(session, director)
    by_tag = {name.upper(): pid[name] for name in pid}

    def swap(value):
        if isinstance(value, dict):
            return {by_tag.get(k, k): swap(v) for k, v in value.items()}
        return by_tag.get(value, value) if isinstance(value, str) else value

    before = snapshot(session)
    with pytest.raises(DomainError) as refused:
        services.record_game(TABLE, session.pk, swap(game), session.table_key)
    assert message in refused.value.message and refused.value.message
    # Every player the input refers to (by id) is named in the message by name.
    referred = {tag for tag in by_tag if tag in repr(game)}
    assert all(tag.title() in refused.value.message for tag in referred), refused.value.message
    assert snapshot(session) == before


def test_joining_leaving_undo_close_and_settle(session, director):
    pid = seated(session, director)
    key = session.table_key
    services.record_game(TABLE, session.pk, {"board": {"winner": "team", "kind": "gammon"}}, key)
    fay = services.add_player(TABLE, session.pk, "Fay", key)
    session.refresh_from_db()
    assert names(session, session.line) == ["Ben", "Cyd", "Dan", "Eva", "Ann", "Fay"]
    with pytest.raises(DomainError, match="at the table already"):
        services.add_player(TABLE, session.pk, "fay", key)
    services.remove_player(TABLE, session.pk, pid["Dan"], key)
    services.record_game(TABLE, session.pk, {"board": {"winner": "box", "kind": "single"}}, key)
    with pytest.raises(PermissionDenied):
        services.undo_last_game(TABLE, session.pk)
    services.undo_last_game(director, session.pk)
    session.refresh_from_db()
    assert session.games_played == 1
    services.close_session(director, session.pk)
    payments = services.settlement(session)
    state = services.replay(session)
    assert sum(state.totals.values()) == 0 and state.totals[pid["Dan"]] == 2  # Dan keeps his total after leaving
    paid = {p: 0 for p in state.totals}
    for payment in payments:
        paid[payment.payer] -= payment.amount
        paid[payment.payee] += payment.amount
    assert paid == {p: t * 1000 for p, t in state.totals.items()} and str(fay.pk) in paid
    with pytest.raises(ConflictError, match="closed"):
        services.record_game(TABLE, session.pk, {"board": {"winner": "box"}}, key)


def test_the_cached_line_and_game_count_match_a_replay_of_the_events(session, director):
    seated(session, director)
    for winner in ("box", "team", "team", "box"):
        services.record_game(TABLE, session.pk, {"board": {"winner": winner, "kind": "single"}}, session.table_key)
    session.refresh_from_db()
    state = services.replay(session)
    assert session.line == list(state.line) and session.games_played == len(state.games) == 4
    assert all(sum(row.values()) == 0 for row in state.ledger)
    assert [e.points for e in session.events.filter(kind="game")] == [s.points for _e, s, _l in state.games]


# --- The API ---------------------------------------------------------------------------------
def test_the_table_plays_through_the_api_with_its_key(director_user):
    client = api_client_for(user=director_user)
    response = client.post(
        "/api/chouette/",
        {"name": "API night", "players": ["Ann", "Ben", "Cyd"], "stake_cents": 500, "public": False},
        format="json",
    )
    assert response.status_code == 201, response.content
    session = ChouetteSession.objects.get()
    table = APIClient()
    table.credentials(HTTP_X_TABLE_KEY=session.table_key)
    assert APIClient().get(f"/api/chouette/{session.pk}/").status_code == 404  # private
    assert table.post(f"/api/chouette/{session.pk}/line/", {"roll": True}, format="json").status_code == 200
    body = table.post(
        f"/api/chouette/{session.pk}/games/", {"board": {"winner": "box", "kind": "backgammon"}}, format="json"
    )
    assert body.status_code == 201
    data = body.json()
    assert [p["role"] for p in data["line"]] == ["box", "captain", "team"]
    assert sum(data["totals"].values()) == 0 and max(data["totals"].values()) == 6  # 3 × 2 members
    bad = table.post(f"/api/chouette/{session.pk}/games/", {"cubes": {"x": {"value": 3}}}, format="json")
    assert bad.status_code == 400 and "not in the line" in bad.json()["detail"]
    assert APIClient().post(f"/api/chouette/{session.pk}/games/", {}, format="json").status_code in (403, 404)
    closed = client.post(f"/api/chouette/{session.pk}/close/")
    assert closed.status_code == 200 and closed.json()["settlement"]
    assert ChouetteEvent.objects.filter(kind="game").count() == 1
