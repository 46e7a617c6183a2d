"""Bad input never crashes and never changes anything: a 400 (or a form error) that
says what was wrong, and the stored state exactly as before."""

import pytest
from django.test import Client

from tests.conftest import api_client_for, first_round, make_tournament, play
from tests.tournaments.test_permissions import snapshot
from tournaments import services

pytestmark = pytest.mark.django_db


@pytest.fixture
def api(director_user):
    return api_client_for(user=director_user)


@pytest.fixture
def open_tournament(director):
    """A tournament taking registrations, with one player already in (seed 1)."""
    tournament = services.create_tournament(director, name="Open Cup")
    services.add_entry(director, tournament.pk, name="Jana Nováková", rating=1800, seed=1)
    return tournament


def refused(response, *fragments, status=400):
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    detail = body["detail"]
    for fragment in fragments:
        assert fragment.lower() in str(body).lower(), (fragment, body)
    return detail


ENTRY_CASES = [
    ({"name": ""}, ["name", "empty"]),
    ({"name": "   "}, ["name", "empty"]),
    ({"name": "jana  NOVÁKOVÁ"}, ["already registered"]),
    ({"name": "Petr", "seed": 1}, ["seed 1 is already given to Jana"]),
    ({"name": "Petr", "seed": 0}, ["seed"]),
    ({"name": "Petr", "rating": "abc"}, ["rating", "integer"]),
    ({"name": "Petr", "rating": -5}, ["rating must be between 0"]),
    ({"name": "Petr", "country": "Czechia"}, ["country"]),
    ({"name": "Petr", "country": "C1"}, ["2- or 3-letter"]),
    ({"name": "x" * 121}, ["under 120"]),
    ({"name": "Petr", "seed": 10**6}, ["seed must be between"]),
]


@pytest.mark.parametrize("body,fragments", ENTRY_CASES, ids=[repr(c[0])[:40] for c in ENTRY_CASES])
def test_bad_players_are_refused_by_the_api(api, open_tournament, body, fragments):
    before = snapshot()
    refused(api.post(f"/api/tournaments/{open_tournament.slug}/entries/", body, format="json"), *fragments)
    assert snapshot() == before


def test_bad_players_are_form_errors_on_the_page(director_user, open_tournament):
    client = Client()
    client.force_login(director_user)
    before = snapshot()
    response = client.post(
        f"/director/t/{open_tournament.slug}/entries/",
        {"add": "1", "entry-name": "JANA nováková", "entry-seed": "1"},
    )
    assert response.status_code == 400
    assert "already registered" in response.content.decode()
    assert snapshot() == before


MALFORMED_CSV = [
    ("name,rating\nPetr,abc\nEva,1500\n", ["Line 2", "rating"]),
    ("name,rating\nPetr,1500\n,1400\n", ["Line 3", "empty"]),
    ("name,rating\nPetr,1500\npetr,1400\n", ["Line 3", "already on line 2"]),
    ("name,seed\nPetr,2\nEva,2\n", ["Line 3", "seed 2 is already given on line 2"]),
    ("name,seed\nPetr,1\n", ["Line 2", "Seed 1 is already given to Jana"]),
    ("name,rating\nJana Nováková,1500\n", ["Line 2", "already registered"]),
    ("name,rating,shoe size\nPetr,1,44\n", ["Line 1", "unknown column", "shoe size"]),
    ("name,rating\nPetr,1500,Brno,CZ,3,extra\n", ["Line 2", "values"]),
    ("", ["empty"]),
    ("name;rating\n", ["no players"]),
]


@pytest.mark.parametrize("text,fragments", MALFORMED_CSV, ids=[f"csv{i}" for i in range(len(MALFORMED_CSV))])
def test_a_malformed_csv_imports_nobody_and_says_which_line(api, open_tournament, text, fragments):
    before = snapshot()
    refused(
        api.post(f"/api/tournaments/{open_tournament.slug}/entries/import/", {"csv": text}, format="json"), *fragments
    )
    assert snapshot() == before


def test_a_malformed_csv_upload_is_a_form_error(director_user, open_tournament):
    client = Client()
    client.force_login(director_user)
    before = snapshot()
    response = client.post(
        f"/director/t/{open_tournament.slug}/entries/",
        {"import": "1", "import-text": "name,rating\nPetr,1500\nEva,lots\n"},
    )
    assert response.status_code == 400
    assert "Line 3" in response.content.decode()
    assert snapshot() == before


def test_a_file_that_is_not_utf8_is_refused(director_user, open_tournament):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client = Client()
    client.force_login(director_user)
    before = snapshot()
    upload = SimpleUploadedFile("players.csv", "name\nŘehoř\n".encode("cp1250"))
    response = client.post(f"/director/t/{open_tournament.slug}/entries/", {"import": "1", "import-file": upload})
    assert response.status_code == 400
    assert "UTF-8" in response.content.decode()
    assert snapshot() == before


def test_a_second_draw_is_refused(api, tournament):
    before = snapshot()
    refused(api.post(f"/api/tournaments/{tournament.slug}/draw/", {}, format="json"), "already been made")
    assert snapshot() == before


def test_a_draw_needs_two_players(api, open_tournament):
    before = snapshot()
    refused(api.post(f"/api/tournaments/{open_tournament.slug}/draw/", {}, format="json"), "at least 2 players")
    assert snapshot() == before


def test_players_cannot_be_added_after_the_draw(api, tournament):
    before = snapshot()
    refused(api.post(f"/api/tournaments/{tournament.slug}/entries/", {"name": "Late"}, format="json"), "draw")
    assert snapshot() == before


def test_a_result_for_a_bye_is_refused(api, director):
    tournament = make_tournament(director, players=5)
    bye = tournament.matches.filter(bye_b=True).first()
    before = snapshot()
    refused(
        api.post(f"/api/matches/{bye.pk}/results/", {"result": {"games": [[21, 1], [21, 1]]}}, format="json"), "bye"
    )
    refused(api.post(f"/api/matches/{bye.pk}/walkover/", {"winner": bye.entry_a_id}, format="json"), "bye")
    assert snapshot() == before


def test_a_result_for_a_match_without_its_players_is_refused(api, tournament):
    later = tournament.matches.filter(round_number=2).first()
    before = snapshot()
    refused(
        api.post(f"/api/matches/{later.pk}/results/", {"result": {"games": [[21, 1], [21, 1]]}}, format="json"),
        "not known yet",
    )
    assert snapshot() == before


def test_a_winner_who_is_not_in_the_match_is_refused(api, tournament):
    m1, m2 = first_round(tournament)[:2]
    before = snapshot()
    refused(
        api.post(f"/api/matches/{m1.pk}/walkover/", {"winner": m2.entry_a_id}, format="json"),
        "is not playing in this match",
    )
    refused(
        api.post(
            f"/api/matches/{m1.pk}/results/",
            {"result": {"games": [[21, 1], [21, 1]]}, "winner": m2.entry_a_id},
            format="json",
        ),
        "is not playing in this match",
    )
    refused(
        api.post(
            f"/api/matches/{m1.pk}/results/",
            {"result": {"games": [[21, 1], [21, 1]]}, "winner": m1.entry_b_id},
            format="json",
        ),
        "scores say",
    )
    assert snapshot() == before


RESULT_CASES = [
    ({"games": []}, "every game"),
    ({"games": "21-15"}, "every game"),
    ({"games": [[21, 21], [21, 1]]}, "ends level"),
    ({"games": [[21, 1]]}, "nobody has won 2"),
    ({"games": [[21, 1], [21, 1], [21, 1]]}, "over after game 2"),
    ({"games": [[21, -1], [21, 1]]}, "between 0"),
    ({"games": [[21.5, 1], [21, 1]]}, "whole number"),
    ({"games": [[21, 1, 3], [21, 1]]}, "pair of scores"),
    ({"games": [[21, 1], [21, 1]], "bonus": 1}, "unknown result field"),
    ([[21, 1], [21, 1]], "must be an object"),
]


@pytest.mark.parametrize("result,fragment", RESULT_CASES, ids=[f"result{i}" for i in range(len(RESULT_CASES))])
def test_bad_results_are_refused_with_the_reason(tournament, result, fragment):
    match = first_round(tournament)[0]
    client = api_client_for(entry=match.entry_a)
    before = snapshot()
    refused(client.post(f"/api/matches/{match.pk}/results/", {"result": result}, format="json"), fragment)
    assert snapshot() == before


def test_a_bad_result_on_the_players_page_is_shown_and_nothing_is_stored(tournament):
    match = first_round(tournament)[0]
    before = snapshot()
    response = Client().post(
        f"/p/{match.entry_a.private_key}/m/{match.pk}/result/",
        {"game-1-a": "21", "game-1-b": "21", "game-2-a": "21", "game-2-b": "3"},
    )
    assert response.status_code == 400
    assert "ends level" in response.content.decode()
    assert 'value="3"' in response.content.decode()  # what the player typed is kept
    assert snapshot() == before


def test_a_result_after_the_tournament_finished_is_refused(api, director):
    tournament = make_tournament(director, players=2)
    final = tournament.matches.get()
    play(final)
    before = snapshot()
    refused(
        api.post(f"/api/matches/{final.pk}/results/", {"result": {"games": [[1, 21], [1, 21]]}}, format="json"),
        "finished",
    )
    assert snapshot() == before


TOURNAMENT_CASES = [
    ({"name": ""}, "name"),
    ({"name": "Cup", "game_type": "tiddlywinks"}, "unknown game"),
    ({"name": "Cup", "round_plan": "3, 4"}, "round 2"),
    ({"name": "Cup", "round_plan": "three"}, "whole number"),
    ({"name": "Cup", "confirmation_timeout_seconds": -1}, "confirmation_timeout_seconds"),
    ({"name": "Cup", "seeding_method": "alphabetical"}, "seeding_method"),
    ({"name": "Cup", "starts_on": "yesterday"}, "starts_on"),
    ({"name": "Cup", "third_place_match": "perhaps"}, "third_place_match"),
    ({"name": "Cup", "round_plans": "3, 5"}, "round_plans: unknown field"),
    ({"name": "Cup", "settings": {"crawford": True}}, "unknown game setting"),
    ({"name": "Cup", "game_type": "backgammon", "settings": {"crawford": "yes"}}, "crawford is true or false"),
]


@pytest.mark.parametrize("body,fragment", TOURNAMENT_CASES, ids=[f"t{i}" for i in range(len(TOURNAMENT_CASES))])
def test_bad_tournament_settings_are_refused(api, body, fragment):
    before = snapshot()
    refused(api.post("/api/tournaments/", body, format="json"), fragment)
    assert snapshot() == before


def test_settings_fixed_by_the_draw_cannot_change(api, tournament):
    before = snapshot()
    refused(api.patch(f"/api/tournaments/{tournament.slug}/", {"consolation": True}, format="json"), "cancel the draw")
    assert snapshot() == before


def test_a_consolation_flight_needs_enough_players(api, director):
    tournament = make_tournament(director, players=4, draw=False, consolation=True)
    before = snapshot()
    refused(api.post(f"/api/tournaments/{tournament.slug}/draw/", {}, format="json"), "consolation")
    assert snapshot() == before


def test_manual_seeding_without_seeds_is_refused(api, director):
    tournament = make_tournament(director, players=4, draw=False, seeding_method="manual")
    before = snapshot()
    refused(api.post(f"/api/tournaments/{tournament.slug}/draw/", {}, format="json"), "needs a seed number")
    assert snapshot() == before


def test_malformed_json_is_a_400(api):
    response = api.post("/api/tournaments/", data="{not json", content_type="application/json")
    assert response.status_code == 400
    assert "JSON" in response.json()["detail"]


def test_unknown_ids_are_404_or_400_never_500(api):
    assert api.get("/api/matches/999999/").status_code == 404
    assert api.post("/api/results/999999/confirm/").status_code == 400
    assert api.post("/api/entries/999999/withdraw/", {}, format="json").status_code == 400
    assert api.get("/api/tournaments/nope/").status_code == 404


def test_duplicate_seeds_are_refused_as_a_whole(api, open_tournament, director):
    petr = services.add_entry(director, open_tournament.pk, name="Petr")
    eva = services.add_entry(director, open_tournament.pk, name="Eva")
    before = snapshot()
    url = f"/api/tournaments/{open_tournament.slug}/seeds/"
    refused(api.post(url, {"seeds": {str(petr.pk): 2, str(eva.pk): 2}}, format="json"), "seed 2 is given to both")
    refused(api.post(url, {"seeds": {str(petr.pk): 1}}, format="json"), "seed 1 is given to both")
    refused(api.post(url, {"seeds": {"999999": 3}}, format="json"), "not players of this tournament")
    refused(api.post(url, {"seeds": {str(petr.pk): 0}}, format="json"), "seeds")
    assert snapshot() == before
    response = api.post(url, {"seeds": {str(petr.pk): 2, str(eva.pk): 3}}, format="json")
    assert response.status_code == 200
    assert [(e["name"], e["seed"]) for e in response.json()] == [("Jana Nováková", 1), ("Petr", 2), ("Eva", 3)]
