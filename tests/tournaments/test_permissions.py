"""Who may do what (SPEC §1), through the API and through the pages: a player cannot
touch another table's match, the public cannot write, a director of one tournament
cannot manage another. Every refusal leaves the stored state as it was."""

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.conftest import api_client_for, first_round, make_tournament
from tournaments import services
from tournaments.access import Actor
from tournaments.models import AuditEntry, Entry, Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


def snapshot():
    """Everything a refused request must leave untouched."""
    return (
        list(Tournament.objects.order_by("pk").values()),
        list(Entry.objects.order_by("pk").values()),
        list(Match.objects.order_by("pk").values()),
        list(ResultSubmission.objects.order_by("pk").values()),
        AuditEntry.objects.count(),
    )


@pytest.fixture
def scene(db, director, other_director_user):
    """Two tournaments with different directors; in the first, one result waits."""
    mine = make_tournament(director, players=8)
    theirs = make_tournament(Actor(user=other_director_user), players=4)
    m1, m2 = first_round(mine)[:2]
    submission = services.submit_result(Actor(entry=m1.entry_a), m1.pk, {"games": [[21, 1], [21, 2]]})
    entry_to_edit = mine.entries.first()
    return {
        "mine": mine,
        "theirs": theirs,
        "m1": m1,
        "m2": m2,
        "submission": submission,
        "entry": entry_to_edit,
    }


WRITES = [
    ("post", lambda s: "/api/tournaments/", {"name": "Sneaky Cup"}),
    ("patch", lambda s: f"/api/tournaments/{s['mine'].slug}/", {"name": "Renamed"}),
    ("post", lambda s: f"/api/tournaments/{s['mine'].slug}/entries/", {"name": "Gate Crasher"}),
    ("post", lambda s: f"/api/tournaments/{s['mine'].slug}/entries/import/", {"csv": "name\nX"}),
    ("delete", lambda s: f"/api/tournaments/{s['mine'].slug}/draw/", None),
    ("post", lambda s: f"/api/tournaments/{s['mine'].slug}/seeds/", lambda s: {"seeds": {str(s["entry"].pk): 5}}),
    ("patch", lambda s: f"/api/entries/{s['entry'].pk}/", {"club": "Elsewhere"}),
    ("post", lambda s: f"/api/entries/{s['entry'].pk}/withdraw/", {}),
    ("post", lambda s: f"/api/matches/{s['m2'].pk}/results/", {"result": {"games": [[21, 1], [21, 1]]}}),
    ("post", lambda s: f"/api/matches/{s['m2'].pk}/walkover/", lambda s: {"winner": s["m2"].entry_a_id}),
    ("post", lambda s: f"/api/matches/{s['m1'].pk}/undo/", {}),
    ("post", lambda s: f"/api/results/{s['submission'].pk}/confirm/", None),
    ("post", lambda s: f"/api/results/{s['submission'].pk}/dispute/", {}),
]


def payload(body, scene):
    return body(scene) if callable(body) else body


WRITE_IDS = [
    "create-tournament",
    "edit-tournament",
    "add-entry",
    "import-entries",
    "cancel-draw",
    "set-seeds",
    "edit-entry",
    "withdraw-entry",
    "enter-result",
    "walkover",
    "undo",
    "confirm",
    "dispute",
]


@pytest.mark.parametrize("method,url,body", WRITES, ids=WRITE_IDS)
def test_the_public_cannot_write_anything(scene, method, url, body):
    before = snapshot()
    response = getattr(APIClient(), method)(url(scene), payload(body, scene), format="json")
    assert response.status_code in (401, 403), response.content
    assert snapshot() == before


# Every write but creating a tournament (which any signed-in director may do).
@pytest.mark.parametrize("method,url,body", WRITES[1:], ids=WRITE_IDS[1:])
def test_a_director_of_another_tournament_cannot_manage_this_one(scene, other_director_user, method, url, body):
    before = snapshot()
    response = getattr(api_client_for(user=other_director_user), method)(
        url(scene), payload(body, scene), format="json"
    )
    assert response.status_code == 403, response.content
    assert snapshot() == before


def test_a_player_cannot_write_another_tables_match(scene):
    outsider = scene["m2"].entry_a  # plays m2, not m1
    client = api_client_for(entry=outsider)
    before = snapshot()
    attempts = [
        client.post(
            f"/api/matches/{scene['m1'].pk}/results/", {"result": {"games": [[1, 21], [1, 21]]}}, format="json"
        ),
        client.post(f"/api/results/{scene['submission'].pk}/confirm/"),
        client.post(f"/api/results/{scene['submission'].pk}/dispute/", {"reason": "meddling"}, format="json"),
        client.post(f"/api/matches/{scene['m2'].pk}/walkover/", {"winner": outsider.pk}, format="json"),
        client.patch(f"/api/entries/{outsider.pk}/", {"seed": 1}, format="json"),
    ]
    assert [r.status_code for r in attempts] == [403] * len(attempts)
    assert snapshot() == before


def test_a_player_link_cannot_open_another_players_match_page(scene):
    player = scene["m2"].entry_a
    response = Client().get(f"/p/{player.private_key}/m/{scene['m1'].pk}/")
    assert response.status_code == 403
    response = Client().post(f"/p/{player.private_key}/m/{scene['m1'].pk}/result/", {"game-1-a": "21", "game-1-b": "1"})
    assert response.status_code == 403


def test_a_player_link_cannot_confirm_another_tables_result_from_the_page(scene):
    player = scene["m2"].entry_a
    before = snapshot()
    Client().post(f"/p/{player.private_key}/results/{scene['submission'].pk}/confirm/")
    assert snapshot()[:4] == before[:4]


def test_an_unknown_private_key_is_not_found():
    assert Client().get("/p/not-a-real-key-at-all-0123456789/").status_code == 404


def test_private_keys_are_shown_only_to_the_player_and_the_directors(scene, director_user):
    entry = scene["m1"].entry_a
    other = scene["m2"].entry_a
    assert "private_key" not in APIClient().get(f"/api/entries/{entry.pk}/").json()
    assert "private_key" not in api_client_for(entry=other).get(f"/api/entries/{entry.pk}/").json()
    assert api_client_for(entry=entry).get(f"/api/entries/{entry.pk}/").json()["private_key"] == entry.private_key
    assert api_client_for(user=director_user).get(f"/api/entries/{entry.pk}/").json()["private_key"]
    public_list = APIClient().get(f"/api/tournaments/{scene['mine'].slug}/entries/").json()
    assert all("private_key" not in row for row in public_list)


def test_private_keys_carry_at_least_128_random_bits(scene):
    keys = list(Entry.objects.values_list("private_key", flat=True))
    assert len(set(keys)) == len(keys)
    assert all(len(k) * 6 >= 128 for k in keys)  # URL-safe base64: 6 bits a character


def test_a_draft_is_seen_only_by_its_directors(db, director, director_user, other_director_user):
    draft = services.create_tournament(director, name="Secret Draft")
    assert APIClient().get(f"/api/tournaments/{draft.slug}/").status_code == 404
    assert api_client_for(user=other_director_user).get(f"/api/tournaments/{draft.slug}/").status_code == 404
    assert api_client_for(user=director_user).get(f"/api/tournaments/{draft.slug}/").status_code == 200
    assert Client().get(f"/t/{draft.slug}/").status_code == 404
    assert draft.slug not in [t["slug"] for t in APIClient().get("/api/tournaments/").json()]


def test_director_pages_of_another_tournament_are_forbidden(scene, other_director_user):
    client = Client()
    client.force_login(other_director_user)
    slug = scene["mine"].slug
    for path in ("", "settings/", "entries/", "audit/", "slips/", f"m/{scene['m1'].pk}/"):
        assert client.get(f"/director/t/{slug}/{path}").status_code == 403, path
    before = snapshot()
    assert client.post(f"/director/t/{slug}/m/{scene['m1'].pk}/undo/").status_code == 403
    assert client.post(f"/director/t/{slug}/draw/cancel/").status_code == 403
    assert snapshot() == before


def test_director_pages_send_the_public_to_sign_in(scene):
    response = Client().get(f"/director/t/{scene['mine'].slug}/")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    before = snapshot()
    response = Client().post(f"/director/t/{scene['mine'].slug}/m/{scene['m1'].pk}/walkover/", {"winner": "1"})
    assert response.status_code == 302
    assert snapshot() == before


def test_the_audit_log_is_for_directors_only(scene, director_user):
    slug = scene["mine"].slug
    assert APIClient().get(f"/api/tournaments/{slug}/audit/").status_code in (401, 403)
    assert api_client_for(entry=scene["m1"].entry_a).get(f"/api/tournaments/{slug}/audit/").status_code == 403
    assert api_client_for(user=director_user).get(f"/api/tournaments/{slug}/audit/").status_code == 200
