"""One Scrabble game as the engine derives it from its facts (SPEC §4.2–§4.4 and the
Czech rules text): turns, the bag and the racks; protests of each kind, upheld and
rejected; penalty crosses and the forced passes they cause; the word-penalty settings;
the end by going out and by scoreless turns; the end racks and the adjustment under
both end rules; and bad input, refused with a message naming the turn and the rule.

Scores are worked by hand from scrabble-czech-set.md (see CHAIN in turns.py)."""

from __future__ import annotations

from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from games.scrabble.game import (
    EndRule,
    GameError,
    Protest,
    ProtestKind,
    Settings,
    Turn,
    TurnKind,
    WordPenalty,
    add_turn,
    describe_turn,
    finish,
    replay,
    start,
)
from games.scrabble.tiles import CZECH, TileSet, rack_value
from games.text import RuleError
from tests.games.scrabble.turns import (
    CHAIN,
    PENDING,
    REJECTED,
    SMALL,
    SMALL_PLUS_ONE,
    UPHELD,
    exchange,
    exchange_protest,
    forced,
    overscore,
    pass_,
    place,
    placement_protest,
    play,
    random_games,
    timeout,
    word_protest,
)

SLOVA = place(0, "8D", "SLOVA", 12)  # true score 12
ON = ("9G", "ON", 8)  # forms ON 3, VO 3, AN 2


def on_move(player: int, announced: int, *protests) -> Turn:
    return place(player, *ON[:2], announced, *protests)


def refused(state, turn, fragment: str, number: int | None = None) -> str:
    """The turn is refused with a message that names the turn and contains ``fragment``."""
    number = len(state.lines) + 1 if number is None else number
    with pytest.raises(GameError) as error:
        add_turn(state, turn)
    message = str(error.value)
    assert message.startswith(f"Turn {number}: "), message
    assert fragment in message, message
    return message


# --- The start, the bag and the racks ---------------------------------------------------------


@pytest.mark.parametrize(("players", "bag"), [(2, 86), (3, 79), (4, 72)])
def test_the_bag_after_the_deal_is_100_less_7_per_player(players, bag):
    state = start(Settings(players=players))
    assert state.bag == bag
    assert state.racks == (7,) * players
    assert state.scores == state.crosses == state.forced_passes_due == (0,) * players
    assert state.on_turn == 0 and not state.ended and not state.finished


@pytest.mark.parametrize(
    ("players", "starter", "fragment"),
    [
        (1, 0, "A game has 2 to 4 players, not 1."),
        (5, 0, "A game has 2 to 4 players, not 5."),
        (2, 2, "The starting player is one of the 2 players."),
        (2, -1, "The starting player is one of the 2 players."),
        (3, 3, "The starting player is one of the 3 players."),
    ],
)
def test_start_refuses_a_wrong_number_of_players_or_starter(players, starter, fragment):
    with pytest.raises(GameError) as error:
        start(Settings(players=players), starter)
    assert str(error.value) == fragment


@pytest.mark.parametrize(
    ("players", "starter", "order"),
    [(2, 1, [1, 0, 1, 0]), (3, 2, [2, 0, 1, 2, 0]), (4, 0, [0, 1, 2, 3, 0]), (4, 3, [3, 0, 1, 2, 3])],
)
def test_turns_go_round_in_seating_order_from_the_starter(players, starter, order):
    state = start(Settings(players=players, scoreless_turns_to_end=10), starter)
    seen = []
    for _ in order:
        seen.append(state.on_turn)
        state = add_turn(state, pass_(state.on_turn))
    assert seen == order


def test_the_bag_shrinks_by_the_tiles_placed_and_the_racks_refill():
    state = play([SLOVA, on_move(1, 8), exchange(0, 4), pass_(1)])
    # 86 - 5 (SLOVA) - 2 (ON); the exchange and the pass leave the bag as it was
    assert [line.bag_after for line in state.lines] == [81, 79, 79, 79]
    assert [line.racks_after for line in state.lines] == [(7, 7)] * 4
    assert [line.totals_after for line in state.lines] == [(12, 0), (12, 8), (12, 8), (12, 8)]
    assert state.bag == 79 and state.scores == (12, 8)


def test_the_announced_score_counts_when_nobody_protests_even_if_it_is_too_high():
    state = play([place(0, "8D", "SLOVA", 20)])
    assert state.lines[0].true_score == 12
    assert state.scores == (20, 0) and not state.lines[0].corrected


def test_each_placement_of_the_chain_scores_as_worked_by_hand():
    state = start()
    for position, text, score, words in CHAIN:
        state = add_turn(state, place(state.on_turn, position, text, score))
        line = state.lines[-1]
        assert line.true_score == score, (position, text)
        assert tuple(formed.word.upper() for formed in line.move.words) == words
    assert state.bag == 86 - 21  # 5 + 2 + 2 + 3 + 2 + 2 + 2 + 1 + 2 tiles placed


def test_bingo_adds_50_on_the_small_set():
    state = play([place(0, "8D", "AAABBB", 20), place(1, "D1", "CCCCAAB.", 90)], Settings(tile_set=SMALL))
    # C on D1 (DL) 6 + C C C 9 (D4 is DW) + A A B 4 + the A on D8 1 = 20, × 2 = 40, + 50
    assert state.lines[1].move.bingo and state.lines[1].true_score == 90


# --- Word protests ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("protests", "void", "score", "crosses", "due"),
    [
        pytest.param([], False, 8, (0, 0), (0, 0), id="no_protest"),
        pytest.param([("ON", REJECTED)], False, 8, (1, 0), (0, 0), id="rejected_cross_for_the_protester"),
        pytest.param([("VO", UPHELD)], True, 0, (0, 0), (0, 0), id="upheld_on_a_cross_word_voids_the_move"),
        pytest.param([("ON", REJECTED), ("VO", REJECTED)], False, 8, (2, 0), (0, 0), id="two_rejected_two_free"),
        pytest.param(
            [("ON", REJECTED), ("VO", REJECTED), ("AN", REJECTED)], False, 8, (3, 0), (1, 0), id="three_rejected"
        ),
        pytest.param([("ON", REJECTED), ("AN", UPHELD)], True, 0, (1, 0), (0, 0), id="rejected_then_upheld"),
        pytest.param(
            [("AN", REJECTED), ("ON", REJECTED), ("VO", UPHELD)], True, 0, (2, 0), (0, 0), id="two_rejected_then_void"
        ),
        pytest.param([("vo", UPHELD)], True, 0, (0, 0), (0, 0), id="the_word_in_any_case"),
    ],
)
def test_several_word_protests_on_one_move_each_under_the_same_rule(protests, void, score, crosses, due):
    state = play([SLOVA, on_move(1, 8, *(word_protest(0, text, verdict) for text, verdict in protests))])
    line = state.lines[1]
    assert line.void is void and line.score == score
    assert state.scores == (12, score)
    assert state.crosses == crosses and state.forced_passes_due == due
    assert [p.verdict for p in line.protests] == [verdict for _, verdict in protests]


def test_an_upheld_word_protest_returns_the_tiles_to_the_bag_count_and_frees_the_squares():
    state = play([SLOVA, on_move(1, 8, word_protest(0, "VO", UPHELD))])
    assert state.lines[1].bag_after == state.bag == 81  # as after SLOVA: the 2 tiles went back
    assert state.racks == (7, 7) and not state.lines[1].tiles_stayed
    assert (8, 6) not in state.board and (8, 7) not in state.board
    # the turn is lost: player 1 moves next, and the squares are free for ON again
    state = add_turn(state, on_move(0, 8))
    assert state.bag == 79 and state.scores == (20, 0)


def test_an_upheld_word_protest_on_a_last_rack_puts_all_seven_tiles_back_on_the_rack():
    small = Settings(tile_set=SMALL)
    first = place(0, "8D", "AAABBB", 20)  # the bag holds 6: these 6 tiles empty it
    going_out = place(1, "D1", "CCCCAAB.", 90, word_protest(0, "CCCCAABA", UPHELD))
    state = play([first, going_out], small)
    assert state.bag == 0 and state.racks == (7, 7)  # player 2 did not go out
    assert not state.ended and state.went_out is None and state.scores == (20, 0)
    # the 7 tiles are back: 2 of them placed now leave 5 on the rack
    state = add_turn(state, pass_(0))
    state = add_turn(state, place(1, "D8", ".CC", 7))
    assert state.racks == (7, 5) and state.bag == 0


@pytest.mark.parametrize(
    ("protests", "fragment"),
    [
        pytest.param(
            [word_protest(0, "SLOVA", REJECTED)], "SLOVA is not a word this move formed (it formed AN, ON, VO)", id="n"
        ),
        pytest.param([word_protest(0, "", REJECTED)], "'' is not a word this move formed", id="no_word_named"),
        pytest.param(
            [word_protest(0, "ON", REJECTED), word_protest(0, "on", UPHELD)], "ON has already been protested", id="tw"
        ),
        pytest.param(
            [word_protest(0, "VO", UPHELD), word_protest(0, "AN", REJECTED)],
            "The move is already void: there is nothing left to protest",
            id="word_after_void",
        ),
        pytest.param(
            [word_protest(0, "VO", UPHELD), overscore(0)], "The move is already void", id="overscore_after_void"
        ),
        pytest.param([word_protest(1, "ON", REJECTED)], "Only an opponent of the player who moved", id="own_move"),
        pytest.param([word_protest(2, "ON", REJECTED)], "Only an opponent of the player who moved", id="no_player"),
        pytest.param([exchange_protest(0)], "Only an exchange can be protested as an exchange", id="exchange_kind"),
        pytest.param(
            [Protest(ProtestKind.OVERSCORE, protester=0, verdict=UPHELD)],
            "The system decides this protest by itself; it takes no verdict",
            id="verdict_on_overscore",
        ),
        pytest.param(
            [Protest(ProtestKind.OVERSCORE, protester=0, word="ON")],
            "Only a word protest names a word",
            id="word_on_overscore",
        ),
    ],
)
def test_a_protest_the_rules_do_not_allow_is_refused(protests, fragment):
    state = play([SLOVA])
    refused(state, on_move(1, 8, *protests), fragment)


@pytest.mark.parametrize(
    "turn",
    [
        Turn(player=1, kind=TurnKind.PASS, protests=(word_protest(0, "ON", UPHELD),)),
        Turn(player=1, kind=TurnKind.TIMEOUT, protests=(overscore(0),)),
        Turn(player=1, kind=TurnKind.EXCHANGE, exchanged=2, protests=(placement_protest(0),)),
    ],
    ids=["word_on_a_pass", "overscore_on_a_timeout", "placement_on_an_exchange"],
)
def test_only_a_placement_can_be_protested_for_a_word_a_score_or_its_placement(turn):
    refused(play([SLOVA]), turn, "Only a placement can be protested")


def test_a_word_protest_names_a_blank_as_the_letter_it_stands_for():
    state = play([place(0, "8D", "SLOVa", 10, word_protest(1, "slova", UPHELD))])
    assert state.lines[0].void and state.lines[0].true_score == 10  # the blank A on H8 is 0: (2+1+1+1+0) × 2


# --- Overscore protests ----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("announced", "verdict", "score", "crosses"),
    [
        pytest.param(15, UPHELD, 12, (1, 0), id="overscore_corrected_player_crossed"),
        pytest.param(13, UPHELD, 12, (1, 0), id="one_point_over_corrected"),
        pytest.param(12, REJECTED, 12, (0, 1), id="right_score_protester_crossed"),
        pytest.param(11, REJECTED, 11, (0, 1), id="underscore_stands_protester_crossed"),
        pytest.param(0, REJECTED, 0, (0, 1), id="zero_announced_stands"),
    ],
)
def test_overscore_protest(announced, verdict, score, crosses):
    state = play([place(0, "8D", "SLOVA", announced, overscore(1))])
    line = state.lines[0]
    assert line.protests[0].verdict == verdict
    assert line.corrected is (verdict == UPHELD) and not line.void
    assert line.score == score and state.scores == (score, 0)
    assert state.crosses == crosses
    assert line.protests[0].crosses == crosses
    assert state.bag == 81  # the tiles stay either way


def test_an_overscore_corrected_then_voided_keeps_the_players_cross():
    state = play([SLOVA, on_move(1, 20, overscore(0), word_protest(0, "ON", UPHELD))])
    line = state.lines[1]
    assert line.corrected and line.void and line.score == 0
    assert state.crosses == (0, 1) and state.scores == (12, 0)


# --- Exchange protests -----------------------------------------------------------------------


def test_an_exchange_with_6_in_the_bag_is_refused_unless_recorded_as_played():
    state = start(Settings(tile_set=SMALL))
    assert state.bag == 6
    message = refused(state, exchange(0, 3), "The bag holds only 6 tiles: an exchange needs at least 7")
    assert "record it as played" in message
    state = add_turn(state, exchange(0, 3, as_played=True))
    line = state.lines[0]
    assert line.rule_breaks == ("exchange with fewer than 7 tiles in the bag",)
    assert not line.void and state.crosses == (0, 0)  # nobody protested: it stands
    assert state.bag == 6 and state.racks == (7, 7) and state.scoreless_run == 1


def test_an_exchange_with_6_in_the_bag_recorded_as_played_is_voided_by_a_protest():
    state = play([exchange(0, 3, exchange_protest(1), as_played=True)], Settings(tile_set=SMALL))
    line = state.lines[0]
    assert line.protests[0].verdict == UPHELD and line.void
    assert state.crosses == (0, 0) and state.scores == (0, 0)
    assert state.bag == 6 and state.racks == (7, 7) and state.scoreless_run == 1
    assert state.on_turn == 1  # the turn is lost


@pytest.mark.parametrize(
    ("tile_set", "bag"),
    [pytest.param(SMALL_PLUS_ONE, 7, id="exactly_7_in_the_bag"), pytest.param(CZECH, 86, id="a_full_bag")],
)
def test_an_exchange_protest_with_7_or_more_in_the_bag_is_rejected_and_crosses_the_protester(tile_set, bag):
    state = play([exchange(0, 7, exchange_protest(1))], Settings(tile_set=tile_set))
    assert state.lines[0].bag_before == bag
    assert state.lines[0].protests[0].verdict == REJECTED and not state.lines[0].void
    assert state.crosses == (0, 1) and state.lines[0].rule_breaks == ()


def test_an_exchange_is_refused_once_the_bag_is_empty():
    state = play([place(0, "8D", "AAABBB", 20)], Settings(tile_set=SMALL))
    refused(state, exchange(1, 1), "The bag holds only 0 tiles")


# --- Placement protests ----------------------------------------------------------------------


def test_a_first_word_off_the_centre_recorded_as_played_stands_unless_protested():
    state = play([place(0, "8A", "SLOVA", 18, as_played=True)])
    line = state.lines[0]
    assert line.rule_breaks == ("first word not covering the centre square H8",)
    assert not line.void and line.tiles_stayed and state.scores == (18, 0) and state.bag == 81
    # S on A8 (TW) 1, L O 2, V on D8 (DL) 2, A 1: 6 × 3
    assert line.true_score == 18


def test_a_first_word_off_the_centre_protested_is_void_and_the_next_first_word_must_cover_it():
    state = play([place(0, "8A", "SLOVA", 18, placement_protest(1), as_played=True)])
    line = state.lines[0]
    assert line.protests[0].verdict == UPHELD and line.void and line.score == 0
    assert state.board == {} and state.bag == 86 and state.racks == (7, 7) and state.crosses == (0, 0)
    refused(state, place(1, "8A", "SLOVA", 18), "The first word must cover the centre square H8")
    assert add_turn(state, place(1, "8D", "SLOVA", 12)).scores == (0, 12)


def test_a_word_not_connected_recorded_as_played_is_voided_by_a_placement_protest():
    state = play([SLOVA, place(1, "1A", "AB", 12, placement_protest(0), as_played=True)])
    line = state.lines[1]
    assert line.rule_breaks == ("word not connected to the tiles on the board",)
    assert line.void and state.scores == (12, 0) and state.bag == 81 and state.crosses == (0, 0)


def test_a_placement_protest_against_a_legal_move_is_rejected_and_crosses_the_protester():
    state = play([place(0, "8D", "SLOVA", 12, placement_protest(1)), on_move(1, 8, placement_protest(0))])
    assert [line.protests[0].verdict for line in state.lines] == [REJECTED, REJECTED]
    assert state.crosses == (1, 1) and state.scores == (12, 8)


def test_as_played_on_a_legal_move_records_no_rule_break():
    state = play([place(0, "8D", "SLOVA", 12, as_played=True)])
    assert state.lines[0].rule_breaks == () and state.scores == (12, 0)


# --- Penalty crosses and forced passes ----------------------------------------------------------


def test_the_first_two_crosses_are_free_and_the_third_and_fourth_each_force_a_pass():
    state = play([place(0, *CHAIN[0][:2], 12, overscore(1))])  # cross 1
    assert state.crosses == (0, 1) and state.forced_passes_due == (0, 0)
    state = add_turn(state, pass_(1))  # free: player 2 moves as they like
    state = add_turn(state, place(0, *CHAIN[1][:2], 8, overscore(1)))  # cross 2
    assert state.crosses == (0, 2) and state.forced_passes_due == (0, 0)
    state = add_turn(state, pass_(1))
    state = add_turn(state, place(0, *CHAIN[2][:2], 3, overscore(1)))  # cross 3
    assert state.crosses == (0, 3) and state.forced_passes_due == (0, 1)
    refused(state, pass_(1), "This player lost this turn to a penalty: it is a forced pass")
    state = add_turn(state, forced(1))
    assert state.forced_passes_due == (0, 0) and state.lines[-1].score == 0
    state = add_turn(state, place(0, *CHAIN[3][:2], 9, overscore(1)))  # cross 4
    assert state.crosses == (0, 4) and state.forced_passes_due == (0, 1)
    refused(state, place(1, *CHAIN[4][:2], 3), "it is a forced pass")
    state = add_turn(state, forced(1))
    state = add_turn(state, place(0, *CHAIN[4][:2], 3))
    refused(state, forced(1), "A forced pass is only recorded for a turn lost to a penalty")
    state = add_turn(state, pass_(1))
    assert [line.turn.kind for line in state.lines].count(TurnKind.FORCED_PASS) == 2
    assert state.scores == (12 + 8 + 3 + 9 + 3, 0)


@pytest.mark.parametrize(
    "turn",
    [pass_(1), timeout(1), exchange(1, 2), place(1, "F8", ".KNO", 9)],
    ids=["pass", "timeout", "exchange", "placement"],
)
def test_a_forced_pass_cannot_be_skipped(turn):
    state = play(
        [
            place(0, "8D", "SLOVA", 12, overscore(1)),
            pass_(1),
            on_move(0, 8, overscore(1)),
            pass_(1),
            place(0, "D8", ".EN", 3, overscore(1)),  # player 2's 3rd cross
        ]
    )
    assert state.forced_passes_due == (0, 1)
    refused(state, turn, "This player lost this turn to a penalty: it is a forced pass")
    assert add_turn(state, forced(1)).forced_passes_due == (0, 0)


@pytest.mark.parametrize("starter", [0, 1])
def test_a_forced_pass_cannot_be_recorded_when_none_is_due(starter):
    refused(start(Settings(), starter), forced(starter), "A forced pass is only recorded for a turn lost to a penalty")


def test_the_third_and_fourth_cross_in_one_turn_force_two_passes():
    state = play(
        [
            place(0, "8D", "SLOVA", 12, overscore(1)),  # player 2's 1st cross
            pass_(1),
            on_move(0, 8, *(word_protest(1, text, REJECTED) for text in ("ON", "VO", "AN"))),  # 2nd, 3rd, 4th
        ]
    )
    assert state.crosses == (0, 4) and state.forced_passes_due == (0, 2)
    state = add_turn(state, forced(1))
    state = add_turn(state, place(0, "D8", ".EN", 3))
    refused(state, pass_(1), "it is a forced pass")
    state = add_turn(state, forced(1))
    state = add_turn(state, place(0, "F8", ".KNO", 9))
    state = add_turn(state, pass_(1))
    assert state.forced_passes_due == (0, 0)


def test_an_upheld_overscore_crosses_the_player_whose_third_cross_costs_their_next_turn():
    state = play(
        [
            place(0, "8D", "SLOVA", 13, overscore(1)),  # upheld: player 1's 1st cross
            pass_(1),
            on_move(0, 9, overscore(1)),  # 2nd
            pass_(1),
            place(0, "D8", ".EN", 4, overscore(1)),  # 3rd
            pass_(1),
        ]
    )
    assert state.crosses == (3, 0) and state.forced_passes_due == (1, 0)
    assert state.scores == (12 + 8 + 3, 0)
    assert add_turn(state, forced(0)).forced_passes_due == (0, 0)


@pytest.mark.parametrize(("free", "due"), [(0, (0, 3)), (1, (0, 2)), (2, (0, 1)), (3, (0, 0))])
def test_the_number_of_free_crosses_is_a_setting(free, due):
    protests = (word_protest(1, text, REJECTED) for text in ("ON", "VO", "AN"))
    state = play([SLOVA, pass_(1), on_move(0, 8, *protests)], Settings(free_crosses=free))
    assert state.crosses == (0, 3) and state.forced_passes_due == due


# --- The word-penalty setting -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("penalty", "points", "score", "bonuses", "crosses", "due"),
    [
        pytest.param(WordPenalty.CROSS, 5, 8, (0, 0), (2, 0), (0, 0), id="cross_czech_default"),
        pytest.param(WordPenalty.POINTS_PER_WORD, 5, 18, (5, 5), (0, 0), (0, 0), id="5_per_word"),
        pytest.param(WordPenalty.POINTS_PER_WORD, 10, 28, (10, 10), (0, 0), (0, 0), id="10_per_word"),
        pytest.param(WordPenalty.POINTS_PER_TURN, 5, 13, (5, 0), (0, 0), (0, 0), id="5_per_turn"),
        pytest.param(WordPenalty.POINTS_PER_TURN, 10, 18, (10, 0), (0, 0), (0, 0), id="10_per_turn"),
        pytest.param(WordPenalty.LOSE_TURN, 5, 8, (0, 0), (0, 0), (2, 0), id="lose_turn_per_protest"),
        pytest.param(WordPenalty.NONE, 5, 8, (0, 0), (0, 0), (0, 0), id="none"),
    ],
)
def test_the_word_penalty_setting_replaces_the_cross_for_a_lost_word_protest(
    penalty, points, score, bonuses, crosses, due
):
    setting = Settings(word_penalty=penalty, penalty_points=points)
    state = play([SLOVA, on_move(1, 8, word_protest(0, "ON", REJECTED), word_protest(0, "VO", REJECTED))], setting)
    line = state.lines[1]
    assert line.score == 8 and line.bonus == sum(bonuses)
    assert tuple(p.bonus for p in line.protests) == bonuses
    assert state.scores == (12, score) and line.totals_after == (12, score)
    assert state.crosses == crosses and state.forced_passes_due == due


def test_the_lose_turn_setting_costs_the_protester_their_next_turn():
    state = play([SLOVA, on_move(1, 8, word_protest(0, "AN", REJECTED))], Settings(word_penalty=WordPenalty.LOSE_TURN))
    refused(state, place(0, "D8", ".EN", 3), "it is a forced pass")
    state = add_turn(state, forced(0))
    assert state.forced_passes_due == (0, 0) and state.crosses == (0, 0)


@pytest.mark.parametrize("penalty", [p for p in WordPenalty if p != WordPenalty.CROSS])
def test_the_word_penalty_setting_leaves_the_cross_for_other_lost_protests(penalty):
    setting = Settings(word_penalty=penalty)
    state = play(
        [place(0, "8D", "SLOVA", 12, overscore(1)), on_move(1, 8, placement_protest(0)), exchange(0, 2)]
        + [exchange(1, 3, exchange_protest(0))],
        setting,
    )
    assert state.crosses == (2, 1) and state.scores == (12, 8)
    assert all(line.bonus == 0 for line in state.lines) and state.forced_passes_due == (0, 0)


@pytest.mark.parametrize("penalty", list(WordPenalty))
def test_an_upheld_word_protest_voids_the_move_under_every_setting(penalty):
    state = play([SLOVA, on_move(1, 8, word_protest(0, "VO", UPHELD))], Settings(word_penalty=penalty))
    assert state.lines[1].void and state.scores == (12, 0) and state.crosses == (0, 0)
    assert state.forced_passes_due == (0, 0)


def test_a_points_penalty_stands_when_a_later_protest_voids_the_move():
    setting = Settings(word_penalty=WordPenalty.POINTS_PER_WORD)
    state = play([SLOVA, on_move(1, 8, word_protest(0, "ON", REJECTED), word_protest(0, "VO", UPHELD))], setting)
    line = state.lines[1]
    assert line.void and line.score == 0 and line.bonus == 5
    assert state.scores == (12, 5)


# --- A word protest waiting for its verdict -------------------------------------------------


def test_a_pending_word_protest_blocks_the_next_turn():
    state = play([place(0, "8D", "SLOVA", 12, word_protest(1, "SLOVA", PENDING))])
    assert state.waiting_for_verdict
    for turn in (pass_(1), on_move(1, 8), forced(1)):
        refused(state, turn, "A word protest on the last turn waits for its verdict")
    # the verdict is entered by replaying the turn with it
    for verdict, scores, crosses in ((UPHELD, (0, 0), (0, 0)), (REJECTED, (12, 0), (0, 1))):
        decided = play([place(0, "8D", "SLOVA", 12, word_protest(1, "SLOVA", verdict))])
        assert not decided.waiting_for_verdict and decided.scores == scores and decided.crosses == crosses
        assert add_turn(decided, pass_(1)).lines[-1].number == 2


def test_a_pending_word_protest_on_the_move_that_goes_out_holds_the_end():
    small = Settings(tile_set=SMALL)
    first = place(0, "8D", "AAABBB", 20)
    pending = play([first, place(1, "D1", "CCCCAAB.", 90, word_protest(0, "CCCCAABA", PENDING))], small)
    assert pending.waiting_for_verdict and not pending.ended
    with pytest.raises(GameError, match="not over yet"):
        finish(pending, ["AAABB??", ""])
    rejected = play([first, place(1, "D1", "CCCCAAB.", 90, word_protest(0, "CCCCAABA", REJECTED))], small)
    assert rejected.ended and rejected.went_out == 1 and rejected.crosses == (1, 0)


def test_while_a_word_protest_waits_the_tiles_stay_on_the_board():
    state = play([SLOVA, pass_(1), pass_(0), on_move(1, 8, word_protest(0, "AN", PENDING))])
    assert state.waiting_for_verdict and state.scoreless_run == 0
    assert state.bag == 79 and (8, 6) in state.board and state.scores == (12, 8)
    refused(state, pass_(0), "waits for its verdict", number=5)


# --- The end: going out -----------------------------------------------------------------------


def going_out(end_rule: EndRule = EndRule.INTERNATIONAL):
    """Small set, 20 tiles: player 1 empties the bag with 6 tiles, player 2 goes out
    with a bingo. Left: A A A B B and the two blanks, all on player 1's rack."""
    setting = Settings(tile_set=SMALL, end_rule=end_rule)
    return play([place(0, "8D", "AAABBB", 20), place(1, "D1", "CCCCAAB.", 90)], setting)


def test_going_out_with_the_bag_empty_ends_the_game_at_once():
    state = going_out()
    assert state.lines[0].bag_after == 0 and state.lines[0].racks_after == (7, 7)
    assert state.ended and state.went_out == 1 and state.racks == (7, 0)
    assert not state.finished and state.final_scores is None and state.winner is None
    refused(state, pass_(0), "The game is over: no turn can be added", number=3)


def test_an_empty_bag_alone_does_not_end_the_game():
    state = play([place(0, "8D", "AAABBB", 20), place(1, "D8", ".CC", 7)], Settings(tile_set=SMALL))
    assert state.bag == 0 and state.racks == (7, 5) and not state.ended and state.went_out is None


def test_a_move_cannot_place_more_tiles_than_the_rack_holds():
    state = play([place(0, "8D", "AAABBB", 20), place(1, "D8", ".CC", 7), pass_(0)], Settings(tile_set=SMALL))
    refused(state, place(1, "E2", "CCAABB.", 40), "The player has 5 tiles on the rack and cannot place 6")


@pytest.mark.parametrize(
    ("end_rule", "adjustments", "final"),
    [
        # the rack left, AAABB??, is worth 1+1+1+2+2 = 7
        pytest.param(EndRule.INTERNATIONAL, (-7, 7), (13, 97), id="international"),
        pytest.param(EndRule.NORTH_AMERICAN, (0, 14), (20, 104), id="north_american"),
    ],
)
def test_the_rack_adjustment_after_going_out(end_rule, adjustments, final):
    state = finish(going_out(end_rule), ["aab b??a", ""])
    assert state.end_racks == ("AABB??A", "")
    assert state.adjustments == adjustments and state.final_scores == final
    assert state.winner == 1 and not state.draw and state.finished


def three_player_going_out(end_rule: EndRule):
    """27 tiles, bag 6 after the deal: player 1 empties it, player 2 places 2, player 3
    goes out; A×6, B×4 and the blanks are left for players 1 (7) and 2 (5)."""
    tiles = TileSet(name="small3", letters={"A": (1, 11), "B": (2, 8), "C": (3, 6)}, blanks=2)
    setting = Settings(players=3, tile_set=tiles, end_rule=end_rule)
    turns = [place(0, "8D", "AAABBB", 20), place(1, "D8", ".CC", 7), place(2, "E1", "CCCCAAB.", 84)]
    return play(turns, setting)


@pytest.mark.parametrize(
    ("end_rule", "adjustments", "final"),
    [
        # AAAAB?? = 6, AABBB = 8: who went out adds 6 + 8 (twice that, north american)
        pytest.param(EndRule.INTERNATIONAL, (-6, -8, 14), (14, -1, 98), id="international"),
        pytest.param(EndRule.NORTH_AMERICAN, (0, 0, 28), (20, 7, 112), id="north_american"),
    ],
)
def test_who_goes_out_adds_the_racks_of_all_the_opponents(end_rule, adjustments, final):
    state = three_player_going_out(end_rule)
    # E1..E4 C C C C 12, E5 (DW) A, A B, the A on E8: 17 × 2 + 50
    assert state.lines[2].true_score == 84 and state.ended and state.went_out == 2
    state = finish(state, ["AAAAB??", "AABBB", ""])
    assert state.adjustments == adjustments and state.final_scores == final and state.winner == 2


# --- The end: scoreless turns --------------------------------------------------------------


@pytest.mark.parametrize(
    "scoreless",
    [
        pytest.param(lambda p: pass_(p), id="passes"),
        pytest.param(lambda p: timeout(p), id="timeouts"),
        pytest.param(lambda p: exchange(p, 7), id="exchanges"),
        pytest.param(lambda p: on_move(p, 8, word_protest(1 - p, "ON", UPHELD)), id="voided_moves"),
    ],
)
def test_four_consecutive_scoreless_turns_end_the_game(scoreless):
    state = play([SLOVA])
    for number in range(1, 5):
        assert not state.ended
        state = add_turn(state, scoreless(state.on_turn))
        assert state.scoreless_run == number
    assert state.ended and state.went_out is None
    refused(state, pass_(state.on_turn), "The game is over", number=6)


def test_the_scoreless_run_counts_a_voided_move_an_exchange_and_a_forced_pass():
    state = play(
        [
            SLOVA,
            # two rejected word protests: player 1's 1st and 2nd cross; the third voids the move
            on_move(
                1, 8, word_protest(0, "ON", REJECTED), word_protest(0, "AN", REJECTED), word_protest(0, "VO", UPHELD)
            ),
            exchange(0, 3),
            exchange(1, 2, exchange_protest(0)),  # rejected: player 1's 3rd cross, a forced pass
            forced(0),
        ]
    )
    assert [not line.tiles_stayed for line in state.lines] == [False, True, True, True, True]
    assert not replay(Settings(), 0, [line.turn for line in state.lines[:-1]]).ended
    assert state.scoreless_run == 4 and state.ended
    assert state.crosses == (3, 0) and state.forced_passes_due == (0, 0)


def test_the_scoreless_run_resets_when_a_tile_stays():
    state = play([SLOVA, pass_(1), pass_(0), pass_(1)])
    assert state.scoreless_run == 3 and not state.ended
    state = add_turn(state, on_move(0, 8))
    assert state.scoreless_run == 0
    for number in range(1, 4):
        state = add_turn(state, pass_(state.on_turn))
        assert state.scoreless_run == number and not state.ended
    assert add_turn(state, pass_(state.on_turn)).ended


def test_an_upheld_protest_is_scoreless_but_a_rejected_one_keeps_the_tiles_on_the_board():
    state = play([SLOVA, pass_(1), pass_(0), on_move(1, 8, word_protest(0, "ON", REJECTED))])
    assert state.scoreless_run == 0
    state = play([SLOVA, pass_(1), pass_(0), on_move(1, 8, word_protest(0, "ON", UPHELD))])
    assert state.scoreless_run == 3 and not state.ended


@pytest.mark.parametrize(("turns_to_end", "ends_after"), [(4, 4), (6, 6), (2, 2)])
def test_the_number_of_scoreless_turns_is_a_setting(turns_to_end, ends_after):
    state = start(Settings(scoreless_turns_to_end=turns_to_end))
    for _ in range(ends_after):
        assert not state.ended
        state = add_turn(state, pass_(state.on_turn))
    assert state.ended and len(state.lines) == ends_after


# --- The end racks ---------------------------------------------------------------------------


def blocked(end_rule: EndRule = EndRule.INTERNATIONAL):
    """SLOVA 12, ON 8, then four passes: the game is blocked, both racks full."""
    return play([SLOVA, on_move(1, 8), pass_(0), pass_(1), pass_(0), pass_(1)], Settings(end_rule=end_rule))


@pytest.mark.parametrize("end_rule", list(EndRule))
def test_a_blocked_game_everybody_subtracts_their_own_rack_under_both_rules(end_rule):
    state = blocked(end_rule)
    assert state.ended and state.went_out is None
    # ŽAAEEII = 4+1+1+1+1+1+1 = 10; XBKNOTU = 10+3+1+1+1+1+2 = 19
    state = finish(state, ["ŽAAEEII", "XBKNOTU"])
    assert state.adjustments == (-10, -19) and state.final_scores == (2, -11)
    assert state.winner == 0 and not state.draw


def test_a_draw_on_equal_totals():
    # 12 - 10 (ŽAAEEII) = 8 - 6 (AEIKNO?)
    state = finish(blocked(), ["ŽAAEEII", "AEIKNO?"])
    assert state.final_scores == (2, 2) and state.draw and state.winner is None


def test_a_game_with_no_placement_ends_after_four_passes_and_both_subtract():
    state = finish(play([pass_(0), pass_(1), pass_(0), pass_(1)]), ["ABCDEFG", "??XOOOO"])
    # ABCDEFG = 1+3+2+1+1+5+5 = 18; ??XOOOO = 10+4 = 14
    assert state.final_scores == (-18, -14) and state.winner == 1


@pytest.mark.parametrize(
    ("racks", "fragment"),
    [
        pytest.param(["AAABB?", ""], "Player 1 should have 7 tiles left on the rack, not 6", id="one_too_few"),
        pytest.param(["AAABB??", "A"], "Player 2 should have 0 tiles left on the rack, not 1", id="the_out_player"),
        pytest.param(["AAABB??A", ""], "Player 1 should have 7 tiles left on the rack, not 8", id="one_too_many"),
        pytest.param(["AAABB??"], "Enter the rack left of each of the 2 players", id="one_rack_for_two"),
    ],
)
def test_end_racks_that_do_not_match_the_known_rack_sizes_are_refused(racks, fragment):
    with pytest.raises(GameError) as error:
        finish(going_out(), racks)
    assert fragment in str(error.value)


@pytest.mark.parametrize(
    ("racks", "fragment"),
    [
        # all four C are on the board
        pytest.param(["AAABBC?", ""], "The set has 4 × C, but the board and the racks hold 5", id="c_all_on_the_board"),
        # 5 A on the board + 4 on the rack > 8
        pytest.param(["AAAABB?", ""], "The set has 8 × A, but the board and the racks hold 9", id="a_too_many"),
        pytest.param(["AAABBB?", ""], "The set has 6 × B, but the board and the racks hold 7", id="b_too_many"),
        pytest.param(["AAAB???", ""], "Player 1's rack: The rack has 3 blanks (?), but the set has only 2", id="q"),
        pytest.param(["AAABBŽ?", ""], "Player 1's rack: Ž is not a tile of the set", id="not_in_the_set"),
    ],
)
def test_end_racks_with_letters_no_longer_available_are_refused(racks, fragment):
    with pytest.raises(GameError) as error:
        finish(going_out(), racks)
    assert fragment in str(error.value)


@pytest.mark.parametrize(
    ("racks", "fragment"),
    [
        pytest.param(["XAEEIIO", "XBKNOTU"], "The set has 1 × X, but the board and the racks hold 2", id="x_twice"),
        pytest.param(["VVVVAEE", "BKNOTUS"], "The set has 4 × V, but the board and the racks hold 5", id="v_board"),
        pytest.param(["?AEEIIO", "??KNOTU"], "The set has 2 × ?, but the board and the racks hold 3", id="blanks"),
        pytest.param(["XXAEEII", "BKNOTUS"], "Player 1's rack: The rack has 2 × X", id="one_rack"),
    ],
)
def test_end_racks_are_checked_against_the_board_and_each_other(racks, fragment):
    with pytest.raises(GameError) as error:
        finish(blocked(), racks)
    assert fragment in str(error.value)


def test_the_end_racks_are_entered_only_at_the_end():
    with pytest.raises(GameError, match="The game is not over yet"):
        finish(play([SLOVA]), ["AAAAAAA", "EEEEEEE"])


# --- Bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "turn", "fragment"),
    [
        pytest.param([], place(1, "8D", "SLOVA", 12), "Player 2 is not on turn; player 1 is.", id="not_on_turn"),
        pytest.param([SLOVA], pass_(0), "Player 1 is not on turn; player 2 is.", id="twice_in_a_row"),
        pytest.param([], place(0, "8L", "SLOVA", 12), "runs off the board", id="off_the_board_across"),
        pytest.param([], place(0, "L12", "SLOVA", 12), "runs off the board", id="off_the_board_down"),
        pytest.param([], place(0, "16A", "AB", 2), "16A is off the board", id="no_row_16"),
        pytest.param([SLOVA], place(1, "P8", "AB", 2), "P8 is off the board", id="no_column_p"),
        pytest.param([], place(0, "8G", "V.AK", 2), 'There is no tile on H8 for "." to stand for', id="a_gap"),
        pytest.param([SLOVA], place(1, "8I", "KY", 2), "The word continues over the tiles at D8", id="stops_short"),
        pytest.param([], place(0, "8A", "SLOVA", 18), "The first word must cover the centre square H8", id="centre"),
        pytest.param([SLOVA], place(1, "1A", "AB", 2), "touches no tile on the board", id="not_connected"),
        pytest.param([], place(0, "8G", "XX", 20), "The set has only 1 × X", id="two_x"),
        pytest.param([SLOVA], place(1, "H8", ".?", 1), "Type a blank as the lower-case letter", id="question_mark"),
        pytest.param([], place(0, "8H", "ABCDEFGH", 20), "A move places at most 7 tiles", id="eight_tiles"),
        pytest.param([], place(0, "8H", "QA", 2), "There is no Q tile in the set", id="no_q"),
        pytest.param([], place(0, "8H", "", 2), "Type the word", id="no_word"),
        pytest.param([], place(0, "", "SLOVA", 12), "Type the word's position", id="no_position"),
        pytest.param([], place(0, "8H", "H", 2), "A word has at least 2 letters", id="one_letter"),
        pytest.param([SLOVA], place(1, "8D", "SLOVA", 12), "The word places no new tile", id="nothing_new"),
        pytest.param([SLOVA], place(1, "8D", "SLOVO", 12), "H8 already holds A, but the word has O", id="over"),
        pytest.param([], place(0, "8D", "SLOVA", -1), "The announced score is a whole number from 0 to 2000", id="neg"),
        pytest.param([], place(0, "8D", "SLOVA", 2001), "not 2001", id="too_high"),
        pytest.param([], exchange(0, 0), "An exchange swaps 1 to 7 tiles", id="exchange_none"),
        pytest.param([], exchange(0, 8), "not 8", id="exchange_eight"),
        pytest.param([], Turn(0, TurnKind.PASS, announced=3), "A pass has no position", id="pass_with_score"),
        pytest.param([], Turn(0, TurnKind.TIMEOUT, word="AB"), "A pass has no position", id="timeout_with_word"),
        pytest.param([], Turn(0, TurnKind.EXCHANGE, exchanged=2, word="AB"), "An exchange has no position", id="ex"),
        pytest.param([], Turn(0, TurnKind.PLACE, "8D", "SLOVA", 12, exchanged=2), "exchanges no tiles", id="pl"),
        pytest.param([], forced(0), "A forced pass is only recorded for a turn lost to a penalty", id="forced"),
    ],
)
def test_a_turn_the_rules_do_not_allow_is_refused_naming_the_turn_and_the_rule(before, turn, fragment):
    state = play(before)
    refused(state, turn, fragment)


@pytest.mark.parametrize(
    ("before", "turn", "fragment"),
    [
        pytest.param([], place(0, "8L", "SLOVA", 12, as_played=True), "runs off the board", id="off_the_board"),
        pytest.param([], place(0, "16A", "AB", 2, as_played=True), "off the board", id="no_row_16"),
        pytest.param([], place(0, "8G", "V.AK", 2, as_played=True), 'no tile on H8 for "."', id="a_gap"),
        pytest.param([SLOVA], place(1, "8I", "KY", 2, as_played=True), "The word continues over", id="stops_short"),
        pytest.param([], place(0, "8A", "XXA", 2, as_played=True), "The set has only 1 × X", id="off_centre_two_x"),
        pytest.param(
            [SLOVA], place(1, "1A", "ABCDEFGH", 2, as_played=True), "A move places at most 7 tiles", id="unconnected_8"
        ),
        pytest.param([SLOVA], place(1, "8D", "SLOVA", 12, as_played=True), "no new tile", id="nothing_new"),
    ],
)
def test_as_played_lets_through_only_a_centre_or_connection_break(before, turn, fragment):
    refused(play(before), turn, fragment)


@pytest.mark.parametrize(
    ("before", "turn", "breaks"),
    [
        pytest.param([], place(0, "8A", "SLOVA", 18, as_played=True), "first word not covering", id="off_centre"),
        pytest.param([], place(0, "A1", "SLOVA", 18, as_played=True), "first word not covering", id="in_a_corner"),
        pytest.param([SLOVA], place(1, "1A", "AB", 2, as_played=True), "word not connected", id="not_connected"),
        pytest.param([SLOVA], place(1, "7I", "AB", 2, as_played=True), "word not connected", id="corner_only"),
    ],
)
def test_as_played_records_a_centre_or_connection_break(before, turn, breaks):
    state = add_turn(play(before), turn)
    assert len(state.lines[-1].rule_breaks) == 1 and state.lines[-1].rule_breaks[0].startswith(breaks)
    assert state.lines[-1].tiles_stayed


def test_a_placement_of_a_letter_already_used_up_on_the_board_is_refused():
    state = play([place(0, "8G", "XI", 22), pass_(1)])
    refused(state, place(0, "H8", ".X", 20), "The set has only 1 × X, and with this word the board would hold 2")


def test_a_refused_turn_leaves_the_state_as_it_was():
    state = play([SLOVA, on_move(1, 8)])
    before = (state.lines, dict(state.board), state.scores, state.bag, state.racks, state.crosses)
    with pytest.raises(RuleError):
        add_turn(state, place(0, "8L", "SLOVA", 12))
    assert (state.lines, dict(state.board), state.scores, state.bag, state.racks, state.crosses) == before


def test_replay_checks_each_turn_and_the_end_racks():
    turns = [line.turn for line in blocked().lines]
    assert replay(Settings(), 0, turns, ["ŽAAEEII", "AEIKNO?"]).draw
    with pytest.raises(GameError, match="Turn 2: Player 1 is not on turn"):
        replay(Settings(), 0, [SLOVA, SLOVA])
    with pytest.raises(GameError, match="should have 7 tiles"):
        replay(Settings(), 0, turns, ["ŽAAEEII", "AEIKNO"])


# --- The sheet's description of a turn -----------------------------------------------------


def test_describe_turn_for_each_kind_of_turn():
    state = play(
        [
            place(0, "8D", "SLOVA", 12),
            place(1, "G8", ".ům", 1, word_protest(0, "VŮM", REJECTED)),  # with no free cross: a forced pass
            forced(0),
            exchange(1, 3),
            timeout(0),
            pass_(1),
        ],
        Settings(free_crosses=0),
    )
    assert [str(describe_turn(line)) for line in state.lines] == [
        "8D SLOVA",
        "G8 .ům",
        "forced pass (penalty)",
        "exchange of 3",
        "timeout pass",
        "pass",
    ]


# --- Invariants over random games ---------------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(random_games())
def test_tiles_scores_crosses_and_the_scoreless_run_add_up_in_any_game(state):
    setting = state.settings
    n = setting.players
    placed = sum(len(line.placement.new_tiles) for line in state.lines if line.tiles_stayed)
    # every tile is in the bag, on a rack or on the board; the bag follows SPEC's formula
    assert len(state.board) == placed
    assert state.bag + sum(state.racks) + len(state.board) == CZECH.total_tiles
    assert state.bag == max(0, 100 - 7 * n - placed)

    totals = [0] * n
    crosses = [0] * n
    lost_word_protests = [0] * n
    forced_passes = Counter(line.turn.player for line in state.lines if line.turn.kind == TurnKind.FORCED_PASS)
    run = 0
    for line in state.lines:
        turn = line.turn
        rejected_words = [p for p in line.protests if p.protest.kind == "word" and p.verdict == REJECTED]
        # what a turn counts
        if line.void or turn.kind != TurnKind.PLACE:
            assert line.score == 0 and not line.tiles_stayed
        elif line.corrected:
            assert line.score == line.true_score < turn.announced
        else:
            assert line.score == turn.announced
        assert line.corrected == any(
            p.protest.kind == "overscore" and turn.announced > line.true_score for p in line.protests
        )
        # what a lost word protest gives the protested player
        expected_bonus = {
            WordPenalty.POINTS_PER_WORD: setting.penalty_points * len(rejected_words),
            WordPenalty.POINTS_PER_TURN: setting.penalty_points if rejected_words else 0,
        }.get(setting.word_penalty, 0)
        assert line.bonus == expected_bonus == sum(p.bonus for p in line.protests)
        totals[turn.player] += line.score + line.bonus
        assert line.totals_after == tuple(totals)
        for protest in line.protests:
            crosses = [c + given for c, given in zip(crosses, protest.crosses, strict=True)]
        for protest in rejected_words:
            lost_word_protests[protest.protest.protester] += 1
        run = 0 if line.tiles_stayed else run + 1
    assert state.scores == tuple(totals)
    assert state.crosses == tuple(crosses)
    # each cross beyond the free ones (and, under the lose-turn setting, each lost word
    # protest) costs one turn: taken already, or still due
    for player in range(n):
        lost = max(0, crosses[player] - setting.free_crosses)
        if setting.word_penalty == WordPenalty.LOSE_TURN:
            lost += lost_word_protests[player]
        assert forced_passes[player] + state.forced_passes_due[player] == lost
    if setting.word_penalty not in (WordPenalty.CROSS,):
        assert all(
            given == 0 for line in state.lines for p in line.protests if p.protest.kind == "word" for given in p.crosses
        )
    assert state.scoreless_run == run
    assert state.ended == (run >= setting.scoreless_turns_to_end) and state.went_out is None


@settings(max_examples=200, deadline=None)
@given(st.data(), st.sampled_from(list(EndRule)))
def test_in_a_blocked_game_each_player_subtracts_exactly_their_rack(data, end_rule):
    state = blocked(end_rule)
    left = Counter({letter: CZECH.count(letter) for letter in CZECH.letter_set} | {"?": CZECH.blanks})
    left.subtract(tile.letter for tile in state.board.values())  # no blank on this board
    tiles = data.draw(st.permutations(sorted(left.elements())))
    racks = ["".join(tiles[:7]), "".join(tiles[7:14])]
    typed = [data.draw(st.sampled_from([rack, rack.lower(), " ".join(rack)])) for rack in racks]
    state = finish(state, typed)
    values = tuple(rack_value(rack, CZECH) for rack in racks)
    assert state.adjustments == (-values[0], -values[1])
    final = (12 - values[0], 8 - values[1])
    assert state.final_scores == final
    assert state.draw == (final[0] == final[1])
    assert state.winner == (None if state.draw else (0 if final[0] > final[1] else 1))
