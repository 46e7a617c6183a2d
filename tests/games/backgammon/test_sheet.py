"""The backgammon score sheet through its services and API: games entered, confirmed,
disputed, corrected and undone; the match decided when a player reaches N."""

from datetime import timedelta

import pytest

from games.backgammon import services
from games.backgammon.models import BackgammonGame
from tests.conftest import api_client_for, first_round, make_tournament
from tests.tournaments.test_permissions import snapshot
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError
from tournaments.models import AuditEntry, Match, ResultSubmission, Tournament

pytestmark = pytest.mark.django_db


def bg_snapshot():
    return (*snapshot(), list(BackgammonGame.objects.order_by("pk").values()))


@pytest.fixture
def event(director):
    """An 8-player backgammon knockout, matches to 3, 3, 5 points."""
    return make_tournament(director, players=8, game_type="backgammon", round_plan="3, 3, 5")


def game(winner="a", kind="single", cube=1, ending="played", **extra):
    return {"winner": winner, "kind": kind, "cube": cube, "ending": ending, **extra}


def test_round_settings_come_from_the_plan_and_the_crawford_setting(director):
    tournament = make_tournament(
        director, players=8, game_type="backgammon", round_plan="3, 3, 5", settings={"crawford": False}
    )
    lengths = {r.number: r.settings for r in tournament.rounds.filter(flight="main")}
    no_clock = {"clock": "none", "clock_minutes_per_point": 2, "clock_delay": 12}
    assert lengths == {
        1: {"match_length": 3, "crawford": False, **no_clock},
        2: {"match_length": 3, "crawford": False, **no_clock},
        3: {"match_length": 5, "crawford": False, **no_clock},
    }


def test_a_players_game_waits_for_the_opponent(event):
    match = first_round(event)[0]
    row = services.record_game(Actor(entry=match.entry_a), match.pk, game(kind="gammon"))
    assert row.status == BackgammonGame.Status.PROVISIONAL and row.points == 2 and row.number == 1
    match.refresh_from_db()
    assert match.started_at is not None and not match.decided_by
    with pytest.raises(DomainError, match="your opponent must confirm"):
        services.confirm_game(Actor(entry=match.entry_a), row.pk)
    services.confirm_game(Actor(entry=match.entry_b), row.pk)
    row.refresh_from_db()
    assert row.status == BackgammonGame.Status.CONFIRMED and row.confirmed_by_entry_id == match.entry_b_id


def test_reaching_n_with_confirmed_games_decides_the_match_and_the_winner_advances(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_game(b, match.pk, game(winner="b"))  # 0–1
    second = services.record_game(a, match.pk, game(kind="gammon"))  # 2–1: a is at N−1
    services.confirm_game(a, first.pk)
    services.confirm_game(b, second.pk)
    # The next game is the Crawford game: the cube stays at 1.
    with pytest.raises(DomainError, match="Crawford"):
        services.record_game(a, match.pk, game(cube=2))
    last = services.record_game(a, match.pk, game())  # 3–1
    match.refresh_from_db()
    assert not match.decided_by  # not before the opponent confirms
    services.confirm_game(b, last.pk)
    match.refresh_from_db()
    assert match.decided_by == Match.DecidedBy.RESULT
    assert match.winner_id == match.entry_a_id
    assert (match.score_a, match.score_b, match.summary) == (3, 1, "3–1")
    target = Match.objects.get(pk=match.winner_to_id)
    assert target.entry_a_id == match.entry_a_id
    result = match.submissions.get(status="confirmed")
    assert [g["points"] for g in result.result["games"]] == [1, 2, 1]
    with pytest.raises(ConflictError, match="decided"):
        services.record_game(a, match.pk, game())


def test_confirming_a_later_game_confirms_the_earlier_ones_of_the_same_player(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    g1 = services.record_game(a, match.pk, game())
    g2 = services.record_game(a, match.pk, game())
    services.confirm_game(b, g2.pk)
    assert set(BackgammonGame.objects.filter(pk__in=[g1.pk, g2.pk]).values_list("status", flat=True)) == {"confirmed"}


def test_a_disputed_game_stops_the_sheet_until_the_director_decides(event, director):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    row = services.record_game(a, match.pk, game(kind="gammon"))
    services.dispute_game(b, row.pk, "It was a single game")
    with pytest.raises(ConflictError, match="disputed"):
        services.record_game(a, match.pk, game())
    with pytest.raises(ConflictError, match="disputed"):
        services.confirm_game(b, row.pk)
    corrected = services.correct_last_game(director, match.pk, game(), "checked with both")
    row.refresh_from_db()
    assert row.status == BackgammonGame.Status.SUPERSEDED
    assert corrected.number == 1 and corrected.points == 1 and corrected.status == "confirmed"
    services.record_game(b, match.pk, game(winner="b"))  # the sheet goes on


def test_a_directors_game_is_final_at_once(event, director):
    match = first_round(event)[0]
    row = services.record_game(director, match.pk, game(winner="b", kind="backgammon"))
    assert row.status == "confirmed" and row.points == 3
    match.refresh_from_db()
    assert match.decided_by == Match.DecidedBy.RESULT and match.winner_id == match.entry_b_id


def test_undoing_the_deciding_game_reopens_the_match_until_the_next_one_starts(event, director):
    r1 = first_round(event)
    services.record_game(director, r1[0].pk, game(kind="backgammon"))  # 3–0, decided
    services.undo_last_game(director, r1[0].pk, "wrong winner")
    r1[0].refresh_from_db()
    assert not r1[0].decided_by and r1[0].status == Match.Status.READY
    assert Match.objects.get(pk=r1[0].winner_to_id).entry_a_id is None
    assert r1[0].submissions.get().status == ResultSubmission.Status.UNDONE
    # Decided again, and the next match starts: now the undo is refused.
    services.record_game(director, r1[0].pk, game(kind="backgammon"))
    services.record_game(director, r1[1].pk, game(kind="backgammon"))
    semi = Match.objects.get(pk=r1[0].winner_to_id)
    services.record_game(Actor(entry=semi.entry_a), semi.pk, game())
    with pytest.raises(ConflictError, match="has already started"):
        services.undo_last_game(director, r1[0].pk)
    assert r1[0].backgammon_games.filter(status="confirmed").count() == 1


def test_the_generic_result_paths_point_to_the_sheet(event, director):
    match = first_round(event)[0]
    with pytest.raises(DomainError, match="score sheet"):
        tournament_services.submit_result(director, match.pk, {"games": [[1, 0]]})
    services.record_game(director, match.pk, game(kind="backgammon"))
    with pytest.raises(DomainError, match="undo its last game there"):
        tournament_services.undo_result(director, match.pk)


def test_a_walkover_still_works_and_the_sheet_is_then_closed(event, director):
    match = first_round(event)[0]
    tournament_services.record_walkover(director, match.pk, match.entry_b_id)
    with pytest.raises(ConflictError, match="decided"):
        services.record_game(director, match.pk, game())


def test_an_overdue_game_is_confirmed_once_and_can_decide_the_match(event):
    match = first_round(event)[0]
    row = services.record_game(Actor(entry=match.entry_a), match.pk, game(kind="backgammon"))
    assert services.confirm_if_due(row.pk) is False
    later = row.confirm_deadline + timedelta(seconds=1)
    assert services.confirm_overdue_games(now=later) == 1
    assert services.confirm_if_due(row.pk, now=later) is False
    match.refresh_from_db()
    assert match.decided_by == Match.DecidedBy.RESULT
    assert AuditEntry.objects.filter(action="backgammon.game_auto_confirmed").count() == 1


def test_players_of_other_tables_and_the_public_cannot_touch_the_sheet(event):
    m1, m2 = first_round(event)[:2]
    row = services.record_game(Actor(entry=m1.entry_a), m1.pk, game())
    outsider = api_client_for(entry=m2.entry_a)
    before = bg_snapshot()
    assert outsider.post(f"/api/matches/{m1.pk}/games/", game(), format="json").status_code == 403
    assert outsider.post(f"/api/backgammon-games/{row.pk}/confirm/").status_code == 403
    assert outsider.post(f"/api/backgammon-games/{row.pk}/dispute/", {}, format="json").status_code == 403
    assert outsider.post(f"/api/matches/{m1.pk}/games/undo-last/", {}, format="json").status_code == 403
    assert (
        api_client_for(entry=m1.entry_a).post(f"/api/matches/{m1.pk}/games/undo-last/", {}, format="json").status_code
        == 403
    )
    from rest_framework.test import APIClient

    assert APIClient().post(f"/api/matches/{m1.pk}/games/", game(), format="json").status_code in (401, 403)
    assert bg_snapshot() == before


BAD_GAMES = [
    (game(winner="c"), "the winner must be Player"),
    (game(winner=999999), "is not playing in this match"),
    (game(kind="triple"), "kind must be one of"),
    (game(cube=3), "cube is 1, 2, 4, 8, 16, 32 or 64"),
    (game(cube=128), "cube is 1, 2, 4, 8, 16, 32 or 64"),
    (game(ending="abandoned"), "ending must be one of"),
    (game(cube=1, ending="dropped"), "cube offered"),
    (game(kind="gammon", cube=4, ending="dropped"), "dropped double scores the cube before"),
    (game(cube=2, cube_history=[["a", "double"], ["b", "take"], ["a", "double"], ["b", "take"]]), "without owning"),
    (
        game(
            winner="a",
            cube=4,
            ending="dropped",
            cube_history=[["a", "double"], ["b", "take"], ["b", "double"], ["a", "drop"]],
        ),
        "loses the game",
    ),
    (
        game(
            winner="b",
            cube=2,
            ending="dropped",
            cube_history=[["a", "double"], ["b", "take"], ["b", "double"], ["a", "drop"]],
        ),
        "record the cube offered (4)",
    ),
    (game(cube=4, cube_history=[["a", "double"], ["b", "beaver"]]), "Beavers are not played"),
    ({"winner": "a", "points": 3}, "points: Unknown field"),
]


@pytest.mark.parametrize("data,fragment", BAD_GAMES, ids=[f"bad{i}" for i in range(len(BAD_GAMES))])
def test_every_invalid_game_is_a_400_that_names_the_rule_and_changes_nothing(event, data, fragment):
    match = first_round(event)[0]
    client = api_client_for(entry=match.entry_a)
    before = bg_snapshot()
    response = client.post(f"/api/matches/{match.pk}/games/", data, format="json")
    assert response.status_code == 400, response.content
    assert fragment.lower() in response.json()["detail"].lower(), response.json()
    assert bg_snapshot() == before


def test_the_crawford_rules_are_refused_with_their_reason(event, director):
    match = first_round(event)[0]
    services.record_game(director, match.pk, game(kind="gammon"))  # 2–0 of 3: Crawford game next
    client = api_client_for(entry=match.entry_b)
    before = bg_snapshot()
    for data, fragment in (
        (game(winner="b", cube=2), "Game 2: The cube stays at 1 in the Crawford game"),
        (game(winner="b", cube=2, ending="dropped"), "Game 2: No double can be offered in the Crawford game"),
    ):
        response = client.post(f"/api/matches/{match.pk}/games/", data, format="json")
        assert response.status_code == 400 and fragment in response.json()["detail"], response.json()
    assert bg_snapshot() == before


def test_match_responses_carry_the_derived_state(event, director):
    match = first_round(event)[0]
    services.record_game(director, match.pk, game(kind="gammon"))
    body = api_client_for().get(f"/api/matches/{match.pk}/").json()
    state = body["sheet_state"]
    assert (state["score_a"], state["score_b"], state["away_a"], state["away_b"]) == (2, 0, 1, 3)
    assert state["next_game_is_crawford"] is True and state["over"] is False
    assert state["text"] == "2–0 of 3, Crawford game"
    bracket = api_client_for().get(f"/api/tournaments/{event.slug}/bracket/").json()
    first = next(m for r in bracket for m in r["matches"] if m["id"] == match.pk)
    assert first["sheet_state"]["text"] == "2–0 of 3, Crawford game"


def test_an_eight_player_knockout_played_through_the_api(event):
    """Matches to 3, 3, 5: in each match slot b wins every game as a single,
    so the lowest seed of each pair goes through."""
    while event.status != Tournament.Status.FINISHED:
        ready = Match.objects.filter(tournament=event, status="ready").select_related("round", "entry_a", "entry_b")
        assert ready, "nothing to play but the event is not finished"
        for match in ready:
            winner_client = api_client_for(entry=match.entry_b)
            loser_client = api_client_for(entry=match.entry_a)
            for _ in range(match.round.settings["match_length"]):
                response = winner_client.post(
                    f"/api/matches/{match.pk}/games/", {"winner": match.entry_b_id}, format="json"
                )
                assert response.status_code == 201, response.json()
                pending = response.json()["state"]["pending_games"]
                game_id = next(g["id"] for g in response.json()["games"] if g["number"] == pending[-1])
                confirmed = loser_client.post(f"/api/backgammon-games/{game_id}/confirm/")
                assert confirmed.status_code == 200, confirmed.json()
            match.refresh_from_db()
            assert match.decided_by == "result" and match.winner_id == match.entry_b_id
        event.refresh_from_db()
    standings = api_client_for().get(f"/api/tournaments/{event.slug}/standings/").json()
    # Bracket of 8: 1v8 -> 8, 4v5 -> 5, 2v7 -> 7, 3v6 -> 6; semis 8v5 -> 5, 7v6 -> 6; final 5v6 -> 6.
    assert [(row["place"], row["entry"]["bracket_seed"]) for row in standings["rows"]] == [
        ("1", 6),
        ("2", 5),
        ("3–4", 7),
        ("3–4", 8),
        ("5–8", 1),
        ("5–8", 2),
        ("5–8", 3),
        ("5–8", 4),
    ]
    final = Match.objects.get(tournament=event, round_number=3)
    assert final.summary == "0–5"
