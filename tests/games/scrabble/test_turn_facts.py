"""Recording a turn reads the game's facts in one query (``_live_facts``: the live turns
joined with their protests); they must be the facts the sheet reads (``game_facts``)."""

import pytest

from games.scrabble import services
from games.scrabble.models import ScrabbleGame
from tests.conftest import first_round, make_tournament
from tournaments.access import Actor

pytestmark = pytest.mark.django_db


def place(position, word, announced):
    return {"kind": "place", "position": position, "word": word, "announced": announced}


def test_the_facts_read_for_a_new_turn_are_the_sheets_with_protests_and_undone_turns(director):
    event = make_tournament(director, players=4, game_type="scrabble", round_plan="1")
    services.upload_word_list(director, event.pk, "words.txt", "slova\n")
    match = first_round(event)[0]
    a, b = Actor(entry=match.entry_a), Actor(entry=match.entry_b)
    first = services.record_turn(a, match.pk, place("8D", "SLOVA", 20))  # overscored
    assert services.raise_protest(b, first.pk, "overscore").verdict == "upheld"
    assert services.raise_protest(b, first.pk, "word", "slova").verdict == "rejected"  # two on one turn
    services.record_turn(b, match.pk, {"kind": "pass"})
    services.record_turn(a, match.pk, {"kind": "pass"})
    services.undo_last_turn(director, match.pk, "entered by mistake")  # an undone turn is no fact
    game = ScrabbleGame.objects.get(match=match)

    rows, facts = services.game_facts(game)
    read, open_players = services._live_facts(game)

    assert read == facts
    assert [len(turn.protests) for turn in read] == [2, 0]
    # b's pass was accepted by a's, undone since (and itself never accepted: no longer counts)
    assert open_players == {row.player for row in rows if row.accepted_at is None} == set()
