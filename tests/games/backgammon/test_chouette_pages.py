"""The chouette pages: the public list and session page, the table page with its forms,
the director's view, and a new session (SPEC §3.3)."""

from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.test import Client

from games.backgammon import chouette_services as services
from games.backgammon.models import ChouetteEvent, ChouetteSession
from tournaments.access import Actor

pytestmark = pytest.mark.django_db

NAMES = ["Ann", "Bob", "Cyril", "Dana"]


def open_session(director: Actor, names=NAMES, cubes: str = "many", public: bool = True) -> ChouetteSession:
    """A session whose line is the players in the order given."""
    session = services.create_session(
        director, "Club night", names, stake_cents=1000, settings={"cubes": cubes}, public=public
    )
    services.set_line(director, session.pk, order=ids(session))
    session.refresh_from_db()
    return session


def ids(session: ChouetteSession) -> list[str]:
    return [str(pk) for pk in session.players.order_by("pk").values_list("pk", flat=True)]


def names_in_line(session: ChouetteSession) -> list[str]:
    session.refresh_from_db()
    players = {str(p.pk): p.name for p in session.players.all()}
    return [players[p] for p in session.line]


def table_url(session: ChouetteSession) -> str:
    return f"/chouette/table/{session.table_key}/"


def games_of(session: ChouetteSession) -> int:
    return session.events.filter(kind=ChouetteEvent.Kind.GAME, status="live").count()


@pytest.fixture
def signed_in(director_user) -> Client:
    client = Client()
    client.force_login(director_user)
    return client


# --- Reading -------------------------------------------------------------------------------
def test_the_public_pages_show_the_line_the_ledger_and_the_games(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    services.record_game(director, session.pk, {"board": {"winner": "box", "kind": "gammon"}})

    listing = Client().get("/chouette/")
    assert listing.status_code == 200
    assert "Club night" in listing.content.decode() and "Ann, Bob, Cyril, Dana" in listing.content.decode()

    page = Client().get(f"/chouette/{session.pk}/")
    html = page.content.decode()
    assert page.status_code == 200
    assert names_in_line(session) == ["Ann", "Cyril", "Dana", "Bob"]  # the box won: Bob to the end
    assert html.index("Ann") < html.index("Cyril") < html.index("Dana")
    assert "Ann won a gammon" in html
    assert 'data-player="Ann" data-total="6"' in html and 'data-player="Bob" data-total="-2"' in html
    assert "60 CZK" in html  # Ann's 6 points at 10 CZK
    assert "Record the game" not in html and session.table_key not in html


def test_a_private_session_is_hidden_but_from_its_director_and_its_table(director, signed_in, other_director_user):
    session = open_session(director, public=False)
    assert Client().get(f"/chouette/{session.pk}/").status_code == 404
    other = Client()
    other.force_login(other_director_user)
    assert other.get(f"/chouette/{session.pk}/").status_code == 404
    assert other.get(f"/chouette/{session.pk}/manage/").status_code == 403
    assert "Club night" not in Client().get("/chouette/").content.decode()
    assert signed_in.get(f"/chouette/{session.pk}/").status_code == 200
    assert Client().get(table_url(session)).status_code == 200


def test_the_director_sees_the_table_link_with_its_qr_code_and_the_director_buttons(director, signed_in):
    session = open_session(director)
    page = signed_in.get(f"/chouette/{session.pk}/manage/")
    html = page.content.decode()
    assert page.status_code == 200
    assert f"http://testserver/chouette/table/{session.table_key}/" in html and "<svg" in html
    assert 'value="close"' in html and 'value="order"' in html
    assert Client().get(f"/chouette/{session.pk}/manage/").status_code == 302  # to the login


def test_an_unknown_table_key_is_not_found():
    assert Client().get("/chouette/table/no-such-key/").status_code == 404


# --- The quick game form -------------------------------------------------------------------
def test_the_quick_form_records_a_many_cube_game_and_shows_the_new_line(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    # Ann is box. Bob (captain) took the box's double to 2; Cyril dropped it; Dana's cube
    # was never turned. The team wins a single.
    post = {
        "action": "game",
        "winner": "team",
        "kind": "single",
        f"cube-{b}": "2",
        f"owner-{b}": "member",
        f"cube-{c}": "2",
        f"dropped-{c}": "member",
        f"cube-{d}": "1",
    }
    response = Client().post(table_url(session), post, follow=True)
    assert response.redirect_chain == [(table_url(session), 302)]
    assert "Game 1 recorded. Next: Bob (Box), Cyril (Captain), Dana, Ann." in response.content.decode()
    (event,) = session.events.filter(kind="game")
    assert event.points == {a: -2, b: 2, c: -1, d: 1}
    assert event.entered_at_table


def test_the_quick_form_of_a_one_cube_session_builds_every_members_cube(director):
    session = open_session(director, cubes="one")
    a, b, c, d = ids(session)
    # The box doubled the team to 2: Dana dropped, Bob and Cyril took; the box wins a gammon.
    post = {
        "action": "game",
        "winner": "box",
        "kind": "gammon",
        "cube-team": "2",
        "owner-team": "member",
        f"dropped-{d}": "member",
    }
    response = Client().post(table_url(session), post)
    assert response.status_code == 302
    (event,) = session.events.filter(kind="game")
    assert event.points == {a: 9, b: -4, c: -4, d: -1}
    assert event.data["cubes"][d] == {"value": 2, "owner": None, "dropped_by": "member"}


def test_a_captain_who_drops_hands_the_board_to_a_teammate(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    post = {
        "action": "game",
        "winner": "team",
        "kind": "single",
        f"cube-{b}": "2",
        f"dropped-{b}": "member",
        f"cube-{c}": "2",
        f"owner-{c}": "member",
        "takeover": c,
    }
    assert Client().post(table_url(session), post).status_code == 302
    assert names_in_line(session) == ["Cyril", "Dana", "Bob", "Ann"]


def test_a_cube_of_3_is_refused_with_the_message_and_the_posted_values_kept(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    post = {"action": "game", "winner": "team", "kind": "gammon", f"cube-{b}": "3", f"owner-{b}": "member"}
    response = Client().post(table_url(session), post)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Bob&#x27;s cube shows 3; a cube is 1 (in the centre), 2, 4, 8, 16, 32 or 64." in html
    assert 'value="team" id="winner-team" checked' in html and 'value="gammon" id="kind-gammon" checked' in html
    assert games_of(session) == 0


def test_a_game_from_a_page_that_missed_the_last_game_is_refused(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    post = {"action": "game", "winner": "team", "kind": "single", "box": a, "captain": b}
    assert Client().post(table_url(session), post).status_code == 302  # the line moves on: Bob is box
    response = Client().post(table_url(session), post)  # the same form, sent again from another phone
    assert response.status_code == 400
    assert "The game names Ann as box, but the line&#x27;s box is Bob." in response.content.decode()
    assert games_of(session) == 1


def test_a_game_without_a_board_result_says_what_is_missing(director):
    session = open_session(director)
    response = Client().post(table_url(session), {"action": "game", "winner": "", "kind": "single"})
    assert response.status_code == 400
    assert "Bob, Cyril, Dana played on to the end: record the board result" in response.content.decode()
    assert games_of(session) == 0


def test_the_table_key_of_another_session_is_refused(director):
    session = open_session(director)
    other = open_session(director, names=["Eve", "Fred", "Gina"])
    a, b, c, d = ids(session)
    # Through the other table's page, this session's players are strangers...
    post = {"action": "game", "winner": "team", "kind": "single", "takeover": c}
    response = Client().post(table_url(other), post)
    assert response.status_code == 400
    assert "The player who took over the board is not in the line." in response.content.decode()
    response = Client().post(table_url(other), {"action": "leave", "player": d})
    assert response.status_code == 400 and "This player is not at the table." in response.content.decode()
    assert games_of(other) == 0 and games_of(session) == 0
    assert names_in_line(session) == NAMES
    # ...and the other table's key writes nothing here.
    with pytest.raises(PermissionDenied):
        services.record_game(Actor(), session.pk, {"board": {"winner": "box", "kind": "single"}}, key=other.table_key)
    assert games_of(session) == 0


def test_a_closed_session_refuses_a_game_with_409(director):
    session = open_session(director)
    services.close_session(director, session.pk)
    response = Client().post(table_url(session), {"action": "game", "winner": "box", "kind": "single"})
    assert response.status_code == 409
    assert "This session is closed." in response.content.decode()
    assert "Record the game" not in response.content.decode()


def test_the_table_cannot_use_the_directors_buttons(director):
    session = open_session(director)
    services.record_game(director, session.pk, {"board": {"winner": "box", "kind": "single"}})
    assert Client().post(table_url(session), {"action": "undo"}).status_code == 400
    assert games_of(session) == 1


# --- The line ------------------------------------------------------------------------------
def test_the_opening_rolls_with_a_tie_ask_the_tied_players_to_roll_again(director):
    session = services.create_session(director, "Rolls", NAMES)
    a, b, c, d = ids(session)
    first = {"action": "rolls", f"roll-1-{a}": "6", f"roll-1-{b}": "4", f"roll-1-{c}": "4", f"roll-1-{d}": "2"}
    response = Client().post(table_url(session), first)
    html = response.content.decode()
    assert response.status_code == 400
    assert "Bob, Cyril are still tied after round 1" in html
    assert f'name="roll-2-{b}"' in html and 'value="6"' in html  # a column for the re-roll, round 1 kept
    response = Client().post(table_url(session), {**first, f"roll-2-{b}": "1", f"roll-2-{c}": "5"}, follow=True)
    assert "The line is set. Next: Ann (Box), Cyril (Captain), Bob, Dana." in response.content.decode()
    assert names_in_line(session) == ["Ann", "Cyril", "Bob", "Dana"]


def test_two_tied_groups_are_both_named(director):
    session = services.create_session(director, "Rolls", NAMES)
    a, b, c, d = ids(session)
    rolls = {"action": "rolls", f"roll-1-{a}": "6", f"roll-1-{b}": "6", f"roll-1-{c}": "3", f"roll-1-{d}": "3"}
    response = Client().post(table_url(session), rolls)
    assert response.status_code == 400
    assert "Ann, Bob; Cyril, Dana are still tied after round 1" in response.content.decode()


def test_roll_for_us_sets_a_line_of_everyone(director):
    session = services.create_session(director, "Rolls", NAMES)
    assert Client().post(table_url(session), {"action": "roll"}).status_code == 302
    assert sorted(names_in_line(session)) == sorted(NAMES)


def test_the_director_sets_the_line_by_order_and_the_table_cannot(director, signed_in):
    session = services.create_session(director, "Order", NAMES)
    a, b, c, d = ids(session)
    order = {"action": "order", "seat-1": d, "seat-2": c, "seat-3": b, "seat-4": a}
    assert Client().post(table_url(session), order).status_code == 400
    assert signed_in.post(f"/chouette/{session.pk}/manage/", order).status_code == 302
    assert names_in_line(session) == ["Dana", "Cyril", "Bob", "Ann"]
    twice = {**order, "seat-2": d}
    response = signed_in.post(f"/chouette/{session.pk}/manage/", twice)
    assert response.status_code == 400 and "Dana stands in the line twice" in response.content.decode()


# --- Players, undo, close ----------------------------------------------------------------------
def test_a_player_joins_the_end_of_the_line_and_another_leaves(director):
    session = open_session(director)
    a, b, c, d = ids(session)
    assert Client().post(table_url(session), {"action": "join", "name": "Eve"}).status_code == 302
    assert names_in_line(session) == ["Ann", "Bob", "Cyril", "Dana", "Eve"]
    assert Client().post(table_url(session), {"action": "leave", "player": b}).status_code == 302
    assert names_in_line(session) == ["Ann", "Cyril", "Dana", "Eve"]
    response = Client().post(table_url(session), {"action": "join", "name": "eve"})
    assert response.status_code == 400 and "eve is at the table already." in response.content.decode()


def test_the_director_undoes_the_last_game_and_closes_the_session_with_the_settlement(director, signed_in):
    session = open_session(director)
    manage = f"/chouette/{session.pk}/manage/"
    for winner in ("box", "box"):
        services.record_game(director, session.pk, {"board": {"winner": winner, "kind": "single"}})
    assert signed_in.post(manage, {"action": "undo"}).status_code == 302
    assert games_of(session) == 1
    response = signed_in.post(manage, {"action": "close"}, follow=True)
    html = response.content.decode()
    assert "The session is closed" in html
    for loser in ("Bob", "Cyril", "Dana"):
        assert f"{loser} pays Ann 10 CZK" in html
    assert "Ann pays" not in html
    assert "Bob pays Ann 10 CZK" in Client().get(f"/chouette/{session.pk}/").content.decode()


# --- A new session ---------------------------------------------------------------------------
NEW = {
    "name": "Tuesday",
    "players": "Ann\nBob\nCyril\n",
    "stake": "2.50",
    "currency": "eur",
    "cubes": "one",
    "automatic_doubles_limit": "1",
    "advice": "after_double",
    "jacoby": "on",
    "public": "on",
}


def test_the_new_session_form_opens_a_session_and_leads_to_the_directors_view(signed_in, director_user):
    response = signed_in.post("/chouette/new/", NEW)
    session = ChouetteSession.objects.get(name="Tuesday")
    assert response.status_code == 302 and response.url == f"/chouette/{session.pk}/manage/"
    assert (session.created_by, session.stake_cents, session.currency) == (director_user, 250, "EUR")
    assert session.settings == {
        "cubes": "one",
        "jacoby": True,
        "beavers": False,
        "automatic_doubles_limit": 1,
        "advice": "after_double",
        "box_partner": False,
    }
    assert [p.name for p in session.players.all()] == ["Ann", "Bob", "Cyril"]
    assert signed_in.get(response.url).status_code == 200


def test_the_new_session_form_refuses_fewer_than_three_players(signed_in):
    response = signed_in.post("/chouette/new/", {**NEW, "players": "Ann\nBob"})
    assert response.status_code == 400
    assert "A chouette needs at least 3 players." in response.content.decode()
    assert not ChouetteSession.objects.exists()


def test_opening_a_session_needs_a_signed_in_user():
    assert Client().get("/chouette/new/").status_code == 302
    assert "Sign in to open a session." in Client().get("/chouette/").content.decode()
