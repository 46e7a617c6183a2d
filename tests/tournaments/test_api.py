"""A knockout run through the REST API, as a client program would run it."""

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments.models import Entry, Match, Tournament

pytestmark = pytest.mark.django_db

CSV = """name;rating;club;country
Jana Nováková;1820;KDH Praha;CZ
Petr Svoboda;1790;Brno;CZ
Lucie Dvořáková;1765;KDH Praha;cz
Tomáš Černý;;Ostrava;CZE
Eva Kučerová;1690;Brno;CZ
"""


@pytest.fixture
def director_api(director_user) -> APIClient:
    token = Token.objects.create(user=director_user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def player_api(entry: Entry) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Entry {entry.private_key}")
    return client


def test_a_token_comes_from_a_directors_password(director_user):
    response = APIClient().post("/api/auth/token/", {"username": "jana", "password": "secret-jana"})
    assert response.status_code == 200
    assert response.json()["token"] == Token.objects.get(user=director_user).key


def test_a_knockout_from_creation_to_champion(director_api):
    response = director_api.post(
        "/api/tournaments/",
        {"name": "Brno Open", "third_place_match": True, "round_plan": [1, 3]},
        format="json",
    )
    assert response.status_code == 201, response.json()
    slug = response.json()["slug"]
    assert response.json()["status"] == "draft"
    assert response.json()["round_plan"] == [{"best_of": 1}, {"best_of": 3}]

    response = director_api.post(f"/api/tournaments/{slug}/entries/import/", {"csv": CSV}, format="json")
    assert response.status_code == 201, response.json()
    assert [e["country"] for e in response.json()] == ["CZ", "CZ", "CZ", "CZE", "CZ"]
    assert all(len(e["private_key"]) >= 22 for e in response.json())  # >= 128 bits in base64

    assert director_api.post(f"/api/tournaments/{slug}/open-registration/").status_code == 200
    response = director_api.post(f"/api/tournaments/{slug}/draw/", {"random_seed": 99}, format="json")
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "running"
    assert response.json()["bracket_size"] == 8
    assert response.json()["draw_random_seed"] == "99"

    bracket = APIClient().get(f"/api/tournaments/{slug}/bracket/").json()
    main_rounds = [r for r in bracket if r["flight"] == "main"]
    assert [r["name"] for r in main_rounds] == ["Quarter-finals", "Semi-finals", "Final"]
    assert [r["settings"] for r in main_rounds] == [{"best_of": 1}, {"best_of": 3}, {"best_of": 3}]
    first = main_rounds[0]["matches"]
    assert sum(1 for m in first if m["bye_b"]) == 3  # 5 players: seeds 1–3 have byes
    assert all(m["status"] == "decided" for m in first if m["bye_b"])

    # Players play everything through their private keys, round by round.
    tournament = Tournament.objects.get(slug=slug)
    while tournament.status != Tournament.Status.FINISHED:
        ready = Match.objects.filter(tournament=tournament, status="ready").select_related("round")
        assert ready, "nothing left to play but the tournament is not finished"
        for match in ready:
            best_of = match.round.settings["best_of"]
            games = [[21, 10]] * (best_of // 2 + 1)
            response = player_api(match.entry_b).post(
                f"/api/matches/{match.pk}/results/",
                {"result": {"games": [[b, a] for a, b in games]}, "winner": match.entry_b_id},
                format="json",
            )
            assert response.status_code == 201, response.json()
            assert response.json()["status"] == "provisional"
            response = player_api(match.entry_a).post(f"/api/results/{response.json()['id']}/confirm/")
            assert response.status_code == 200, response.json()
        tournament.refresh_from_db()

    standings = APIClient().get(f"/api/tournaments/{slug}/standings/").json()
    assert standings["final"] is True
    assert [row["place"] for row in standings["rows"]] == ["1", "2", "3", "4", "5"]
    # Slot b always won. Quarter-final 4 v 5: 5; semi-finals 1 v 5: 5, 2 v 3: 3;
    # final 5 v 3: 3; third place 1 v 2: 2.
    seeds = [row["entry"]["bracket_seed"] for row in standings["rows"]]
    assert seeds == [3, 5, 2, 1, 4]


def test_a_player_sees_their_matches_through_me(tournament):
    match = tournament.matches.filter(flight="main", round_number=1).first()
    response = player_api(match.entry_a).get("/api/me/")
    assert response.status_code == 200
    body = response.json()
    assert body["entry"]["id"] == match.entry_a_id
    assert [m["id"] for m in body["matches"]] == [match.pk]
    assert body["matches"][0]["entry_b"]["id"] == match.entry_b_id


def test_match_responses_show_the_open_result_marked_provisional(tournament):
    match = tournament.matches.filter(flight="main", round_number=1).first()
    player_api(match.entry_a).post(
        f"/api/matches/{match.pk}/results/", {"result": {"games": [[21, 1], [21, 2]]}}, format="json"
    )
    body = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert body["status"] == "provisional"
    assert body["open_result"]["status"] == "provisional"
    assert body["open_result"]["summary"] == "2–0 (21–1, 21–2)"
    assert body["winner"] is None


def test_the_audit_log_records_every_change(director_api, tournament):
    match = tournament.matches.filter(flight="main", round_number=1).first()
    director_api.post(f"/api/matches/{match.pk}/results/", {"result": {"games": [[21, 1], [21, 2]]}}, format="json")
    director_api.post(f"/api/matches/{match.pk}/undo/", {"reason": "typo"}, format="json")
    log = director_api.get(f"/api/tournaments/{tournament.slug}/audit/").json()
    actions = [entry["action"] for entry in log]
    assert actions[:2] == ["result.undone", "result.entered_by_director"]
    assert {"draw.made", "tournament.created", "entry.added"} <= set(actions)
    assert log[0]["message"] == "typo" and log[0]["actor_label"] == "user jana"


def test_the_schema_and_the_docs_are_served():
    schema = APIClient().get("/api/schema/")
    assert schema.status_code == 200
    text = schema.content.decode()
    assert "/api/matches/{match_id}/results/" in text
    assert "entryKey" in text
    docs = APIClient().get("/api/docs/")
    assert docs.status_code == 200
    assert b"swagger" in docs.content.lower()


def test_the_schema_is_valid_openapi_without_warnings(tmp_path):
    from django.core.management import call_command

    call_command("spectacular", "--validate", "--fail-on-warn", "--file", str(tmp_path / "schema.yml"))
    assert "/api/matches/{match_id}/games/" in (tmp_path / "schema.yml").read_text()
