"""An 8-player chess knockout played through the REST API to the end, as a client
program would: one match goes to the rapid tie-break, one game is lost on the clock
(the server's flag fall, held until the final position settles it), and the champion,
the standings, the PGN and the TRF come out right."""

import time

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from clocks import services as clock_services
from games.chess import pgn, trf
from tournaments.models import Entry, Match, Tournament

pytestmark = pytest.mark.django_db

PLAYERS = [
    ("Magnus Novák", 2710),
    ("Hana Dvořáková", 2650),
    ("David Navara", 2690),
    ("Jan Krejčí", 2480),
    ("Tereza Olšarová", 2390),
    ("Petr Kučera", 2410),
    ("Eva Sýkorová", 2350),
    ("Ondřej Černý", 2300),
]
CSV = "name,rating,country\n" + "\n".join(f"{name},{rating},CZE" for name, rating in PLAYERS)


@pytest.fixture
def director_api(director_user) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=director_user).key}")
    return client


def player_api(entry: Entry) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Entry {entry.private_key}")
    return client


def sheet(match: Match) -> dict:
    response = APIClient().get(f"/api/matches/{match.pk}/chess/")
    assert response.status_code == 200, response.content
    return response.json()


def entry_on(match: Match, side: str) -> Entry:
    return match.entry_a if side == "a" else match.entry_b


def play_game(match: Match, winner: str | None, termination: str | None = None) -> dict:
    """The loser (or White, in a draw) enters the next game; the opponent confirms it."""
    upcoming = sheet(match)["state"]["next_game"]
    white = upcoming["white"]
    if winner is None:
        data, entering = {"result": "1/2-1/2"}, white
    else:
        data = {"result": "1-0" if winner == white else "0-1"}
        entering = "b" if winner == "a" else "a"
    if termination:
        data["termination"] = termination
    response = player_api(entry_on(match, entering)).post(f"/api/matches/{match.pk}/chess/", data, format="json")
    assert response.status_code == 201, response.json()
    game = response.json()["games"][-1]
    confirmer = "b" if entering == "a" else "a"
    response = player_api(entry_on(match, confirmer)).post(f"/api/chess-games/{game['id']}/confirm/")
    assert response.status_code == 200, response.json()
    return response.json()


def test_an_eight_player_knockout_with_a_tiebreak_and_a_flag_fall(director_api):
    response = director_api.post(
        "/api/tournaments/",
        {
            "name": "Pražský pohár",
            "game_type": "chess",
            "round_plan": [2, 2, 2],
            "third_place_match": True,
            "settings": {"time_control": "5400+30", "tiebreaks": "2x1500+10; armageddon 300+3 v 240+3 @61"},
        },
        format="json",
    )
    assert response.status_code == 201, response.json()
    slug = response.json()["slug"]
    assert director_api.post(f"/api/tournaments/{slug}/entries/import/", {"csv": CSV}, format="json").status_code == 201
    assert director_api.post(f"/api/tournaments/{slug}/open-registration/").status_code == 200
    assert director_api.post(f"/api/tournaments/{slug}/draw/", {"random_seed": 7}, format="json").status_code == 201
    tournament = Tournament.objects.get(slug=slug)

    def match_of(round_number: int, position: int, flight: str = "main") -> Match:
        return Match.objects.select_related("entry_a", "entry_b").get(
            tournament=tournament, flight=flight, round_number=round_number, position=position
        )

    # Quarter-finals. Seeds by rating: 1 Novák v 8 Černý, 4 Krejčí v 5 Kučera, 2 Navara v 7 Sýkorová, 3 v 6.
    qf = [match_of(1, p) for p in range(4)]
    assert [(m.entry_a.name, m.entry_b.name) for m in qf][0] == ("Magnus Novák", "Ondřej Černý")
    play_game(qf[0], "a")
    play_game(qf[0], "a")  # 2–0
    play_game(qf[1], "a")
    play_game(qf[1], "b")  # 1–1: the rapid tie-break
    assert sheet(qf[1])["state"]["next_game"]["stage"] == "rapid"
    assert sheet(qf[1])["state"]["next_game"]["time_control_a"] == "1500+10"
    play_game(qf[1], "b")
    play_game(qf[1], None)  # rapid 1½–½ for side b
    state = sheet(qf[1])["state"]
    assert state["over"] and state["winner"] == "b" and state["decided_in"] == "rapid"

    # A flag fall on the server's clock in the third quarter-final.
    flagged_match = qf[2]
    upcoming = sheet(flagged_match)["state"]["next_game"]
    white = upcoming["white"]
    white_player = player_api(entry_on(flagged_match, white))
    response = white_player.post(f"/api/matches/{flagged_match.pk}/clock/start/", {"side": white}, format="json")
    assert response.status_code == 200, response.json()
    response = director_api.post(
        f"/api/matches/{flagged_match.pk}/clock/adjust/",
        {"side": white, "seconds": 0.05, "reason": "test: White is about to flag"},
        format="json",
    )
    assert response.status_code == 200, response.json()
    time.sleep(0.1)
    clock = flagged_match.clock
    assert clock_services.enforce(clock.pk) == white  # what the Celery task does at the deadline
    state = sheet(flagged_match)
    held = state["games"][-1]
    assert held["status"] == "held" and held["termination"] == "flag" and held["flagged"] == "white"
    assert state["state"]["held_game"] == held["id"]
    # Nothing more can be entered until the final position (or the director) settles it.
    response = white_player.post(f"/api/matches/{flagged_match.pk}/chess/", {"result": "1-0"}, format="json")
    assert response.status_code == 409 and "final position" in response.json()["detail"]
    # White flagged with a bare king against a rook: Black can checkmate, White loses.
    response = white_player.post(
        f"/api/chess-games/{held['id']}/position/", {"fen": "8/8/8/4k3/8/8/8/r3K3 w - - 0 41"}, format="json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["result"] == "0-1" and response.json()["status"] == "provisional"
    black = "b" if white == "a" else "a"
    response = player_api(entry_on(flagged_match, black)).post(f"/api/chess-games/{response.json()['id']}/confirm/")
    assert response.status_code == 200
    play_game(flagged_match, black)  # 2–0 for Black's player
    assert Match.objects.get(pk=flagged_match.pk).winner_side == black
    play_game(qf[3], "a")
    play_game(qf[3], None)

    # Semi-finals, the match for third place and the final: the favourites of each win.
    while ready := list(
        Match.objects.filter(tournament=tournament, status="ready").select_related("entry_a", "entry_b")
    ):
        for match in ready:
            play_game(match, "a")
            play_game(match, "a")

    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED
    standings = APIClient().get(f"/api/tournaments/{slug}/standings/").json()
    assert standings["final"]
    places = {row["entry"]["name"]: row["place"] for row in standings["rows"]}
    final = match_of(3, 0)
    champion = final.entry_a.name
    assert places[champion] == "1" and places[final.entry_b.name] == "2"
    assert sorted(places.values()).count("5–8") == 4

    # The records: every game in the PGN, the TRF's player lines column by column.
    games = pgn.read_games(APIClient().get(f"/t/{slug}/games.pgn").content.decode())
    assert len(games) == 2 + 4 + 2 + 2 + 2 * 2 + 2 * 2  # QFs (2, 4, 2, 2), SFs, final, third place
    assert {g.headers["Stage"] for g in games} == {"classical", "rapid"}
    flag_game = next(g for g in games if g.headers["Termination"] == "time forfeit")
    assert flag_game.result == "0-1"
    report = APIClient().get(f"/t/{slug}/tournament.trf").content.decode()
    lines = [line for line in report.splitlines() if line.startswith("001")]
    assert len(lines) == 8
    players = {p.name: p for p in (trf.read_player_line(line) for line in lines)}
    assert players[champion].rank == 1 and players[champion].points == 6.0
    # The quarter-final that went to the tie-break has four TRF rounds in round 1.
    tiebreak_winner = players[qf[1].entry_b.name]
    assert [r.result for r in tiebreak_winner.rounds[:4]] == ["0", "1", "1", "="]
