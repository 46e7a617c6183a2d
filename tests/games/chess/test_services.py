"""Chess mini-matches through their services: games entered and confirmed, tie-breaks
with their colours and controls, Armageddon's draw odds, a flag fall from the clock
held for its final position, the colour lots, and bad input refused with the match
unchanged."""

import pytest

from clocks import services as clock_services
from clocks.models import Clock
from games.chess import services
from games.chess.models import ChessGame
from games.chess.sheet import sheet_of
from tests.conftest import make_tournament
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError
from tournaments.models import AuditEntry, Match

pytestmark = pytest.mark.django_db

DRAW = {"result": "1/2-1/2", "termination": "agreed_draw"}


@pytest.fixture
def event(director):
    return make_tournament(
        director,
        players=8,
        game_type="chess",
        round_plan="2",
        settings={"tiebreaks": "2x600+10; armageddon 300+3 v 240+3 @61", "clock": "allowed"},
    )


@pytest.fixture
def match(event):
    return event.matches.filter(round_number=1).order_by("position").first()


def white_of(match, number=None):
    state = services.state_of(Match.objects.get(pk=match.pk))
    upcoming = state.next_game
    assert number is None or upcoming.number == number
    return upcoming.white


def entry(match, side):
    return match.entry_a if side == "a" else match.entry_b


def play(match, result, by=None, **extra):
    """The player with White enters the game (or ``by``), the other confirms it."""
    white = white_of(match)
    black = "b" if white == "a" else "a"
    data = {**result, **extra}
    entering = by or white
    row = services.record_game(Actor(entry=entry(match, entering)), match.pk, data)
    other = black if entering == white else white
    services.confirm_game(Actor(entry=entry(match, other)), row.pk)
    return row


def winner_wins(match, side):
    """A result in which ``side`` wins the next game, whatever its colour."""
    return {"result": "1-0" if white_of(match) == side else "0-1", "termination": "resignation"}


def test_two_games_decide_the_match_and_the_winner_advances(event, match):
    play(match, winner_wins(match, "a"))
    play(match, DRAW)
    match.refresh_from_db()
    assert match.decided_by == "result" and match.winner_side == "a"
    assert (match.score_a, match.score_b) == (1.5, 0.5)
    assert match.summary == "1½–½"
    nxt = Match.objects.get(pk=match.winner_to_id)
    assert match.entry_a_id in (nxt.entry_a_id, nxt.entry_b_id)


def test_colours_alternate_from_the_lot_and_the_tiebreak_runs_on_its_own_controls(event, match):
    first = white_of(match, 1)
    play(match, winner_wins(match, "a"))
    assert white_of(match, 2) != first
    play(match, winner_wins(match, "b"))  # 1–1: the rapid tie-break
    state = services.state_of(Match.objects.get(pk=match.pk))
    assert state.next_game.kind.value == "rapid" and state.next_game.white == first
    assert state.next_game.control_a.periods[0].time == 600_000


def test_armageddon_draw_sends_black_through(event, match):
    for side in ("a", "b", "a", "b"):  # level after the games and the rapid stage
        play(match, winner_wins(match, side))
    state = services.state_of(Match.objects.get(pk=match.pk))
    assert state.next_game.kind.value == "armageddon"
    black = state.next_game.black
    play(match, DRAW)
    match.refresh_from_db()
    assert match.winner_side == black
    white_control = state.next_game.control_of(state.next_game.white)
    assert white_control.periods[0].time == 300_000 and white_control.increment_from_move == 61


def test_a_flag_from_the_clock_is_held_for_the_position_which_decides_it(event, match):
    white = white_of(match)
    white_entry = entry(match, white)
    clock = clock_services.start_clock(Actor(entry=white_entry), match.pk, white)
    assert clock.control_a["periods"][0]["time"] == 5_400_000
    Clock.objects.filter(pk=clock.pk).update(deadline=None)  # the enforcement's own test is elsewhere
    services.flag_fall(Match.objects.get(pk=match.pk), white)
    held = ChessGame.objects.get(match=match, status="held")
    assert held.flagged == "white" and held.result == "0-1"
    with pytest.raises(ConflictError, match="waits for its final position"):
        services.record_game(Actor(entry=white_entry), match.pk, DRAW)
    # Black has a lone king: Black cannot checkmate, so White's flag fall is a draw.
    settled = services.enter_final_position(Actor(entry=white_entry), held.pk, "8/8/8/4k3/8/8/8/R3K3 w - - 0 50")
    assert settled.result == "1/2-1/2" and settled.status == "provisional"
    services.confirm_game(Actor(entry=entry(match, "b" if white == "a" else "a")), settled.pk)
    assert sheet_of(Match.objects.get(pk=match.pk)).state.score_a == 0.5


def test_a_flag_with_mating_material_left_loses(event, match):
    white = white_of(match)
    services.flag_fall(Match.objects.get(pk=match.pk), white)
    held = ChessGame.objects.get(match=match, status="held")
    black_has_a_rook = "r3k3/8/8/8/8/8/8/4K3 w - - 0 50"
    row = services.enter_final_position(Actor(entry=entry(match, white)), held.pk, black_has_a_rook)
    assert row.result == "0-1" and row.fen == black_has_a_rook


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"result": "2-0"}, "result"),
        ({"result": "1-0", "termination": "stalemate"}, "stalemate is a draw"),
        ({"result": "1-0", "termination": "checkmate", "fen": "8/8/8/4k3/8/8/8/4K3 b - - 0 1"}, "not checkmate"),
        ({"result": "1-0", "termination": "flag", "fen": "8/8/8/4k3/8/8/8/4K3 b - - 0 1"}, "cannot checkmate"),
        ({"result": "1-0", "moves": "1. e4 e5 2. Ke3"}, "not a legal move"),
        ({"result": "1-0", "colour": "red"}, "Unknown"),
        ({"result": "1/2-1/2", "termination": "flag"}, "whose flag fell"),
        ("1-0", "A game is an object"),
    ],
)
def test_bad_games_are_refused_and_nothing_is_recorded(event, match, data, message):
    before = AuditEntry.objects.count()
    with pytest.raises(DomainError, match=message):
        services.record_game(Actor(entry=match.entry_a), match.pk, data)
    assert not ChessGame.objects.filter(match=match).exists()
    assert AuditEntry.objects.count() == before
