"""The Scrabble score sheet through its services and API: turns, protests and
verdicts, forced passes, the end racks, the match decided over best of K."""

import pytest
from rest_framework.test import APIClient

from games.scrabble import services
from games.scrabble.models import ScrabbleGame, ScrabbleProtest, ScrabbleTurn
from games.scrabble.sheet import match_view
from tests.conftest import api_client_for, first_round, make_tournament
from tests.tournaments.test_permissions import snapshot
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError
from tournaments.models import Match, Tournament

pytestmark = pytest.mark.django_db


def sheet_snapshot():
    return (
        *snapshot(),
        list(ScrabbleGame.objects.order_by("pk").values()),
        list(ScrabbleTurn.objects.order_by("pk").values()),
        list(ScrabbleProtest.objects.order_by("pk").values()),
    )


@pytest.fixture
def event(director):
    """A 4-player Scrabble knockout, best of 1 game per match."""
    return make_tournament(director, players=4, game_type="scrabble", round_plan="1")


def place(position, word, announced):
    return {"kind": "place", "position": position, "word": word, "announced": announced}


PASS = {"kind": "pass"}


def state_of(match):
    match.refresh_from_db()
    return match_view(match).current.state


def test_a_move_is_scored_and_the_opponent_accepts_it_by_moving(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    preview = services.preview_turn(a, match.pk, place("8D", "SLOVA", 12))
    assert preview.true_score == 12 and [w.word for w in preview.move.words] == ["SLOVA"]
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    assert first.accepted_at is None and first.position == "8D" and first.word == "SLOVA"
    with pytest.raises(DomainError, match="opponent's turn"):
        services.record_turn(a, match.pk, PASS)
    services.record_turn(b, match.pk, PASS)
    first.refresh_from_db()
    assert first.accepted_at is not None  # moving on accepts the previous turn
    state = state_of(match)
    assert state.scores == (12, 0) and state.bag == 100 - 14 - 5 and state.racks == (7, 7)
    match.refresh_from_db()
    assert match.started_at is not None


def test_a_protest_must_come_before_acceptance(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    services.accept_turn(b, first.pk)
    with pytest.raises(ConflictError, match="accepted already"):
        services.raise_protest(b, first.pk, "overscore")
    with pytest.raises(DomainError, match="Your opponent accepts your turn"):
        services.accept_turn(a, first.pk)


def test_an_overscore_protest_corrects_the_score_and_crosses_the_player(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 20))
    protest = services.raise_protest(b, first.pk, "overscore")
    assert protest.verdict == "upheld" and protest.decided_by == "system"
    state = state_of(match)
    assert state.scores == (12, 0) and state.crosses == (1, 0)


def test_a_word_protest_waits_for_the_director_whose_verdict_voids_the_move(event, director):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    protest = services.raise_protest(b, first.pk, "word", "slova")
    assert protest.verdict == "pending" and protest.word == "SLOVA"
    with pytest.raises(DomainError, match="waits for its verdict"):
        services.record_turn(b, match.pk, PASS)
    services.decide_protest(director, protest.pk, "upheld")
    state = state_of(match)
    assert state.lines[0].void and state.scores == (0, 0)
    assert state.bag == 86 and state.racks == (7, 7)  # the tiles went back
    assert state.on_turn == 1


def test_a_word_list_judges_word_protests_and_the_director_may_overrule(event, director):
    services.upload_word_list(director, event.pk, "words.txt", "slova\nkrmit\n")
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    protest = services.raise_protest(b, first.pk, "word", "SLOVA")
    assert protest.verdict == "rejected" and protest.decided_by == "word_list"
    assert state_of(match).crosses == (0, 1)
    services.decide_protest(director, protest.pk, "upheld")
    protest.refresh_from_db()
    assert protest.decided_by == "director"
    state = state_of(match)
    assert state.crosses == (0, 0) and state.lines[0].void


def test_the_third_cross_costs_a_turn_recorded_when_the_opponent_moves_on(event):
    """b protests three honest scores: the 1st and 2nd cross are free, the 3rd costs b a turn."""
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    honest_moves = [("8D", "SLOVA"), ("D7", "A."), ("H7", "K.")]  # SLOVA, then AS and KA down
    for number, (position, word) in enumerate(honest_moves, start=1):
        true = services.preview_turn(a, match.pk, place(position, word, 0)).true_score
        turn = services.record_turn(a, match.pk, place(position, word, true))
        assert services.raise_protest(b, turn.pk, "overscore").verdict == "rejected"
        assert state_of(match).crosses == (0, number)
        if number < 3:
            services.record_turn(b, match.pk, PASS)
    assert state_of(match).forced_passes_due == (0, 1)
    with pytest.raises(DomainError, match="lost this turn to a penalty"):
        services.record_turn(b, match.pk, PASS)
    services.record_turn(a, match.pk, PASS)  # a moves on: b's forced pass is recorded first
    kinds = list(
        ScrabbleTurn.objects.filter(game__match=match, status="live").order_by("number").values_list("kind", "player")
    )
    assert kinds[-2:] == [("forced_pass", "b"), ("pass", "a")]
    assert state_of(match).forced_passes_due == (0, 0)


def test_bad_turns_are_400s_that_leave_the_sheet_as_it_was(event):
    match = first_round(event)[0]
    client = api_client_for(entry=match.entry_a)
    cases = [
        (place("8D", "SLOV", 10) | {"position": "8M"}, "board"),
        (place("8J", "SLOVA", 12), "H8"),
        (place("8D", "XXXX", 40), "X"),
        ({"kind": "exchange", "exchanged": 8}, "exchange swaps 1 to 7"),
        ({"kind": "juggle"}, "place, exchange, pass"),
        (place("8D", "SLOVA", 12) | {"score": 3}, "score: Unknown field"),
    ]
    for body, fragment in cases:
        before = sheet_snapshot()
        response = client.post(f"/api/matches/{match.pk}/turns/", body, format="json")
        assert response.status_code == 400, (body, response.content)
        assert fragment.lower() in response.json()["detail"].lower(), (body, response.json())
        assert sheet_snapshot() == before
    opponent = api_client_for(entry=match.entry_b)
    before = sheet_snapshot()
    response = opponent.post(f"/api/matches/{match.pk}/turns/", PASS, format="json")
    assert response.status_code == 400 and "opponent's turn" in response.json()["detail"]
    assert sheet_snapshot() == before


def test_a_game_ended_by_four_scoreless_turns_then_the_racks_decide_the_match(event):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    for actor in (b, a, b):
        services.record_turn(actor, match.pk, PASS)
    assert not state_of(match).ended
    services.record_turn(a, match.pk, PASS)  # the fourth scoreless turn in a row
    state = state_of(match)
    assert state.ended and state.went_out is None
    with pytest.raises(ConflictError, match="enter the racks"):
        services.record_turn(b, match.pk, PASS)
    game = match.scrabble_games.get()
    with pytest.raises(DomainError, match="should have 7 tiles"):
        services.enter_end_racks(a, game.pk, ["AEI", "OUKLMNP"])
    services.enter_end_racks(a, game.pk, ["AEIOUKL", "ÁBCDEFG"])
    game.refresh_from_db()
    # Blocked game: each subtracts their rack. A: 1+1+1+1+2+1+1 = 8; B: 2+3+2+1+1+5+5 = 19.
    assert (game.score_a, game.score_b, game.finished) == (12 - 8, 0 - 19, True)
    match.refresh_from_db()
    assert match.decided_by == "result" and match.winner_id == match.entry_a_id
    assert match.summary == "1–0"
    assert Match.objects.get(pk=match.winner_to_id).entry_a_id == match.entry_a_id


def test_undo_of_the_last_turn_reopens_a_finished_game_and_match(event, director):
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    services.record_turn(a, match.pk, place("8D", "SLOVA", 12))
    for actor in (b, a, b, a):
        services.record_turn(actor, match.pk, PASS)
    game = match.scrabble_games.get()
    services.enter_end_racks(director, game.pk, ["AEIOUKL", "ÁBCDEFG"])
    match.refresh_from_db()
    assert match.decided_by == "result"
    services.undo_last_turn(director, match.pk, "the last pass was a move")
    match.refresh_from_db()
    game.refresh_from_db()
    assert not match.decided_by and not game.finished and game.end_racks is None
    assert state_of(match).on_turn == 0


def test_a_best_of_three_needs_two_wins_and_the_players_take_turns_to_start(director):
    tournament = make_tournament(director, players=2, game_type="scrabble", round_plan="3")
    match = tournament.matches.get()
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)

    def blocked_game(first, second, opening, racks):
        services.record_turn(first, match.pk, opening)
        for actor in (second, first, second, first):
            services.record_turn(actor, match.pk, PASS)
        services.enter_end_racks(first, match.scrabble_games.order_by("-number").first().pk, racks)

    blocked_game(a, b, place("8D", "SLOVA", 12), ["AEIOUKL", "ÁBCDEFG"])  # a wins game 1
    assert match.scrabble_games.get(number=1).starter == "a"
    blocked_game(b, a, place("8D", "SLOVA", 12), ["ÁBCDEFG", "AEIOUKL"])  # b wins game 2, b started
    assert match.scrabble_games.get(number=2).starter == "b"
    match.refresh_from_db()
    assert not match.decided_by
    blocked_game(a, b, place("8D", "SLOVA", 12), ["AEIOUKL", "ÁBCDEFG"])
    match.refresh_from_db()
    assert match.decided_by == "result" and match.summary == "2–1"
    tournament.refresh_from_db()
    assert tournament.status == Tournament.Status.FINISHED


def test_the_sheet_api_gives_the_derived_state_and_every_turn(event):
    match = first_round(event)[0]
    api_client_for(entry=match.entry_a).post(f"/api/matches/{match.pk}/turns/", place("8D", "SLOVA", 14), format="json")
    sheet = APIClient().get(f"/api/matches/{match.pk}/scrabble/").json()
    game = sheet["games"][0]
    assert game["state"]["scores"] == [14, 0] and game["state"]["bag"] == 81 and game["state"]["on_turn"] == "b"
    derived = game["turns"][0]["derived"]
    assert (
        derived["true_score"] == 12 and derived["score"] == 14 and derived["words"] == [{"word": "SLOVA", "score": 12}]
    )
    assert sheet["match"] == {"best_of": 1, "wins_a": 0.0, "wins_b": 0.0, "spread": 0, "over": False, "winner": None}
    body = APIClient().get(f"/api/matches/{match.pk}/").json()
    assert body["sheet_state"]["games"][0]["score_a"] == 14


def test_players_of_other_tables_and_the_public_cannot_write_the_sheet(event):
    m1, m2 = first_round(event)[:2]
    turn = services.record_turn(Actor(entry=m1.entry_a), m1.pk, place("8D", "SLOVA", 12))
    outsider = api_client_for(entry=m2.entry_a)
    before = sheet_snapshot()
    assert outsider.post(f"/api/matches/{m1.pk}/turns/", PASS, format="json").status_code == 403
    assert (
        outsider.post(f"/api/scrabble-turns/{turn.pk}/protests/", {"kind": "overscore"}, format="json").status_code
        == 403
    )
    assert outsider.post(f"/api/scrabble-turns/{turn.pk}/accept/").status_code == 403
    assert APIClient().post(f"/api/matches/{m1.pk}/turns/", PASS, format="json").status_code in (401, 403)
    assert api_client_for(entry=m1.entry_b).post(f"/api/matches/{m1.pk}/turns/undo-last/").status_code == 403
    assert sheet_snapshot() == before


def test_the_word_list_page_uploads_a_list_and_refuses_a_bad_one(event, director_user):
    from django.core.files.uploadedfile import SimpleUploadedFile
    from django.test import Client

    client = Client()
    client.force_login(director_user)
    page = client.get(f"/director/t/{event.slug}/")
    assert f"/director/t/{event.slug}/word-list/" in page.content.decode()
    bad = SimpleUploadedFile("words.txt", b"slova\nslovo42\n")
    response = client.post(f"/director/t/{event.slug}/word-list/", {"file": bad})
    assert response.status_code == 400 and "SLOVO42" in response.content.decode()
    good = SimpleUploadedFile("words.txt", b"slova\n# a comment\nKRMIT\n\n")
    response = client.post(f"/director/t/{event.slug}/word-list/", {"file": good})
    assert response.status_code == 302
    assert event.scrabble_word_list.word_count == 2


@pytest.mark.parametrize(
    ("announced", "says"),
    [
        (12, None),  # announced right: no warning
        (15, "the opponent may protest the overscore"),
        (10, "an underscore stands, 10 will count"),
    ],
)
def test_the_check_button_shows_the_words_and_warns_when_the_announced_score_is_off(event, announced, says):
    from django.test import Client

    match = first_round(event)[0]
    before = sheet_snapshot()
    response = Client().post(
        f"/p/{match.entry_a.private_key}/m/{match.pk}/turns/",
        {"action": "check", "position": "8D", "word": "SLOVA", "announced": announced},
    )
    page = response.content.decode()
    assert response.status_code == 200 and "<strong>SLOVA</strong> 12" in page
    warnings = ["the opponent may protest the overscore", "an underscore stands"]
    assert [w for w in warnings if w in page] == ([says.split(",")[0]] if says else [])
    if says:
        assert says in page
    assert sheet_snapshot() == before  # checking records nothing
