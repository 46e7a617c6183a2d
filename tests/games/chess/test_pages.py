"""The chess sheet in the pages: the player's phone form enters a game that the
opponent confirms, a bad game is a form error with nothing stored, a flag fall waits on
the sheet for its final position, the director's tools and the public match page."""

import pytest
from django.test import Client

from games.chess import pgn, services
from games.chess.models import ChessGame
from tests.conftest import make_tournament
from tournaments.access import Actor
from tournaments.errors import DomainError
from tournaments.models import Match

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(director):
    return make_tournament(director, players=4, game_type="chess", round_plan="2")


@pytest.fixture
def match(event):
    return event.matches.filter(round_number=1).order_by("position").first()


def white_side(match) -> str:
    return services.state_of(Match.objects.get(pk=match.pk)).next_game.white


def test_a_player_enters_a_game_on_the_phone_and_the_opponent_confirms_it(event, match):
    white = white_side(match)
    white_entry = match.entry_a if white == "a" else match.entry_b
    black_entry = match.entry_b if white == "a" else match.entry_a
    page = Client().get(f"/p/{white_entry.private_key}/m/{match.pk}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "Game 1" in text and f"♔ {white_entry.name}" in text and "Result (White first)" in text
    response = Client().post(
        f"/p/{white_entry.private_key}/m/{match.pk}/chess-games/", {"result": "1-0", "termination": "resignation"}
    )
    assert response.status_code == 302
    row = ChessGame.objects.get(match=match)
    assert row.status == "provisional" and row.white_side == white
    page = Client().get(f"/p/{black_entry.private_key}/m/{match.pk}/").content.decode()
    assert 'name="confirm-game"' in page
    Client().post(f"/p/{black_entry.private_key}/chess-games/{row.pk}/confirm/")
    row.refresh_from_db()
    assert row.status == "confirmed"
    public = Client().get(f"/t/{event.slug}/m/{match.pk}/").content.decode()
    assert "1–0" in public and "Game 2" in public


def test_a_bad_game_from_the_form_is_an_error_and_nothing_is_stored(event, match):
    entry = match.entry_a
    response = Client().post(
        f"/p/{entry.private_key}/m/{match.pk}/chess-games/", {"result": "1-0", "termination": "stalemate"}
    )
    assert response.status_code == 400 and "stalemate is a draw" in response.content.decode()
    response = Client().post(f"/p/{entry.private_key}/m/{match.pk}/chess-games/", {})
    assert response.status_code == 400 and "Tap the result" in response.content.decode()
    assert not ChessGame.objects.exists()


def test_a_flag_fall_waits_on_the_sheet_and_the_director_settles_it(event, match, director_user):
    services.flag_fall(Match.objects.get(pk=match.pk), white_side(match))
    held = ChessGame.objects.get(status="held")
    client = Client()
    client.force_login(director_user)
    page = client.get(f"/director/t/{event.slug}/m/{match.pk}/").content.decode()
    assert "White&#x27;s flag fell." in page or "White's flag fell." in page
    assert 'name="final-position"' in page and "Decide: the flag fall loses" in page
    response = client.post(
        f"/director/t/{event.slug}/chess-games/{held.pk}/position/", {"fen": "8/8/8/4k3/8/8/8/R3K3 w - - 0 50"}
    )
    assert response.status_code == 302
    settled = ChessGame.objects.get(status="confirmed")
    assert settled.result == "1/2-1/2"  # Black's lone king cannot mate: White's flag fall is a draw
    dashboard = client.get(f"/director/t/{event.slug}/")
    assert dashboard.status_code == 200


def test_the_director_records_the_colour_lot_before_game_1(event, match, director_user):
    client = Client()
    client.force_login(director_user)
    other = "b" if white_side(match) == "a" else "a"
    client.post(f"/director/t/{event.slug}/m/{match.pk}/colours/", {"purpose": "first_game", "white": other})
    assert white_side(match) == other
    services.record_game(Actor(user=director_user), match.pk, {"result": "1-0"})
    response = client.post(f"/director/t/{event.slug}/m/{match.pk}/colours/", {"purpose": "first_game", "white": "a"})
    assert response.status_code == 302 and white_side(match) != other  # game 2: colours alternate, lot stands


def test_the_games_download_as_pgn_with_their_moves_and_the_event_as_trf(event, match, director_user):
    director = Actor(user=director_user)
    fools_mate = "1. f3 e5 2. g4 Qh4#"
    with pytest.raises(DomainError, match="enter 0–1"):
        services.record_game(director, match.pk, {"result": "1-0", "termination": "checkmate", "moves": fools_mate})
    services.record_game(director, match.pk, {"result": "0-1", "termination": "checkmate", "moves": fools_mate})
    response = Client().get(f"/t/{event.slug}/m/{match.pk}/games.pgn")
    assert response.status_code == 200 and response["Content-Disposition"].endswith('.pgn"')
    game = pgn.read_game(response.content.decode())
    assert game.moves == ("f3", "e5", "g4", "Qh4#") and game.result == "0-1"
    report = Client().get(f"/t/{event.slug}/tournament.trf").content.decode()
    assert report.startswith("012 ") and sum(line.startswith("001") for line in report.splitlines()) == 4
    assert Client().get("/t/no-such/games.pgn").status_code == 404
