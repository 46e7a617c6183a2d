"""Playing results through a drawn bracket (SPEC §2): winners advance, byes and
withdrawals settle by themselves, and an undo takes back what a result pushed on.

Entry 100 + s is the player seeded s (manual seeding), so a bracket of n players is
the standard order of SPEC §2: with 8, round 1 is 1-8, 4-5, 2-7, 3-6.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import Bracket, BracketError, DecidedBy
from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, DrawEntry, MatchKey, SeedingMethod, make_draw


def main(round_number: int, position: int) -> MatchKey:
    return MatchKey(MAIN, round_number, position)


def consolation(round_number: int, position: int) -> MatchKey:
    return MatchKey(CONSOLATION, round_number, position)


THIRD = MatchKey(THIRD_PLACE, 1, 0)


def seeded_bracket(n: int, **options) -> Bracket:
    """A bracket right after the draw: byes already settled, as the draw service does."""
    draw = make_draw(
        [DrawEntry(id=100 + s, seed=s) for s in range(1, n + 1)], SeedingMethod.MANUAL, random_seed=0, **options
    )
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    return bracket


def state(bracket: Bracket) -> dict:
    """Everything a decision or an undo may change, for comparing before and after."""
    return {
        key: (m.a.entry, m.a.bye, m.b.entry, m.b.bye, m.winner, m.decided_by, m.started)
        for key, m in bracket.matches.items()
    }


def players(bracket: Bracket, key: MatchKey) -> tuple[int | None, int | None]:
    match = bracket[key]
    return match.a.entry, match.b.entry


def play_out(bracket: Bracket, choose) -> None:
    while ready := [m for m in bracket.matches.values() if m.ready]:
        for match in ready:
            bracket.decide(match.key, choose(match))


# --- deciding ---------------------------------------------------------------------------


def test_the_winner_of_an_upper_match_moves_into_slot_a_of_the_next_round():
    bracket = seeded_bracket(8)
    changed = bracket.decide(main(1, 0), "b")  # seed 8 beats seed 1
    assert bracket[main(1, 0)].winner == "b" and bracket[main(1, 0)].decided_by == DecidedBy.RESULT
    assert bracket[main(1, 0)].winner_entry == 108 and bracket[main(1, 0)].loser_entry == 101
    assert players(bracket, main(2, 0)) == (108, None)
    assert changed == {main(1, 0), main(2, 0)}


def test_the_winner_of_a_lower_match_moves_into_slot_b_of_the_next_round():
    bracket = seeded_bracket(8)
    bracket.decide(main(1, 3), "a")  # seed 3 beats seed 6
    assert players(bracket, main(2, 1)) == (None, 103)
    assert not bracket[main(2, 1)].ready


def test_a_match_is_ready_once_both_winners_have_arrived():
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    assert not bracket[main(2, 0)].ready
    bracket.decide(main(1, 1), "b")
    assert players(bracket, main(2, 0)) == (101, 103)
    assert bracket[main(2, 0)].ready


def test_the_semi_final_losers_move_into_the_third_place_match():
    bracket = seeded_bracket(4, third_place=True)
    changed = bracket.decide(main(1, 0), "a")
    assert THIRD in changed
    bracket.decide(main(1, 1), "b")
    assert players(bracket, THIRD) == (104, 102)
    assert bracket[THIRD].ready


def test_a_first_round_loser_moves_into_the_consolation():
    bracket = seeded_bracket(8, consolation=True)
    bracket.decide(main(1, 1), "a")  # seed 4 beats seed 5
    bracket.decide(main(1, 0), "b")  # seed 8 beats seed 1
    assert players(bracket, consolation(1, 0)) == (101, 105)


def test_the_final_decides_the_champion_and_completes_a_bracket_without_side_flights():
    bracket = seeded_bracket(2)
    assert not bracket.is_complete()
    assert bracket.decide(main(1, 0), "b") == {main(1, 0)}
    assert bracket[main(1, 0)].winner_entry == 102
    assert bracket.is_complete()


# --- byes -------------------------------------------------------------------------------


def test_byes_settle_automatically_at_the_draw():
    draw = make_draw([DrawEntry(id=100 + s, seed=s) for s in range(1, 6)], SeedingMethod.MANUAL, random_seed=0)
    bracket = Bracket.from_draw(draw.matches)
    assert not any(m.decided for m in bracket.matches.values())
    changed = bracket.settle()
    # 5 players in 8 places: seeds 1, 2 and 3 go through without playing
    assert changed == {main(1, 0), main(1, 2), main(1, 3), main(2, 0), main(2, 1)}
    for key, seed in ((main(1, 0), 101), (main(1, 2), 102), (main(1, 3), 103)):
        assert bracket[key].decided_by == DecidedBy.BYE
        assert bracket[key].winner_entry == seed
        assert bracket[key].loser_entry is None
    assert players(bracket, main(2, 0)) == (101, None)
    assert players(bracket, main(2, 1)) == (102, 103)
    assert bracket[main(2, 1)].ready, "two players who both had a bye can play at once"
    assert not bracket[main(1, 1)].decided
    assert bracket.settle() == set(), "settling again changes nothing"


def test_a_bye_in_the_consolation_passes_its_player_on():
    bracket = seeded_bracket(6, consolation=True)
    # consolation round 1, match 1: the loser of 3-6 against the loser of round 2 match 1
    # only if seed 2 (who had a bye) loses it; seed 2 wins, so that place is a bye.
    bracket.decide(main(1, 3), "a")  # seed 3 beats seed 6
    bracket.decide(main(2, 1), "a")  # seed 2 beats seed 3
    assert bracket[consolation(1, 1)].decided_by == DecidedBy.BYE
    assert bracket[consolation(1, 1)].winner_entry == 106
    assert bracket[consolation(2, 0)].b.entry == 106


# --- withdrawals ------------------------------------------------------------------------


def test_a_withdrawn_players_waiting_opponent_wins_by_walkover():
    bracket = seeded_bracket(4)
    changed = bracket.withdraw(104)
    match = bracket[main(1, 0)]
    assert match.decided_by == DecidedBy.WITHDRAWAL
    assert match.winner_entry == 101 and match.loser_entry == 104
    assert players(bracket, main(2, 0)) == (101, None)
    assert changed == {main(1, 0), main(2, 0)}


def test_a_withdrawn_players_opponent_wins_by_walkover_when_they_arrive_later():
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    assert bracket.withdraw(101) == set(), "nobody to give the walkover to yet"
    assert not bracket[main(2, 0)].decided
    changed = bracket.decide(main(1, 1), "b")
    final = bracket[main(2, 0)]
    assert final.decided_by == DecidedBy.WITHDRAWAL
    assert final.winner_entry == 103
    assert main(2, 0) in changed
    assert bracket.is_complete()


def test_a_player_who_withdraws_in_the_slot_b_loses_by_walkover_too():
    bracket = seeded_bracket(4)
    bracket.withdraw(101)
    assert bracket[main(1, 0)].winner == "b"
    assert bracket[main(1, 0)].winner_entry == 104


def test_when_both_players_withdrew_the_match_is_void_and_a_bye_goes_on():
    bracket = seeded_bracket(4)
    bracket.withdraw(101)  # 104 gets the walkover...
    assert bracket[main(1, 0)].winner_entry == 104
    bracket = seeded_bracket(4)
    bracket.withdrawn.update({101, 104})  # ...unless both are gone when the match is due
    bracket.settle()
    void = bracket[main(1, 0)]
    assert void.decided_by == DecidedBy.VOID
    assert void.winner is None and void.winner_entry is None and void.loser_entry is None
    final = bracket[main(2, 0)]
    assert final.a.bye and final.a.entry is None
    bracket.decide(main(1, 1), "a")
    assert final.decided_by == DecidedBy.BYE and final.winner_entry == 102
    assert bracket.is_complete()


def test_a_void_match_sends_a_bye_down_its_loser_route_too():
    bracket = seeded_bracket(4, third_place=True)
    bracket.withdrawn.update({101, 104})
    bracket.settle()
    assert bracket[THIRD].a.bye
    bracket.decide(main(1, 1), "a")  # seed 2 beats seed 3
    assert bracket[THIRD].decided_by == DecidedBy.BYE and bracket[THIRD].winner_entry == 103


def test_a_withdrawn_player_facing_a_bye_does_not_advance():
    # 3 players: seed 1 had a bye and withdraws before it is settled.
    draw = make_draw([DrawEntry(id=100 + s, seed=s) for s in range(1, 4)], SeedingMethod.MANUAL, random_seed=0)
    bracket = Bracket(Bracket.from_draw(draw.matches).matches.values(), withdrawn={101})
    bracket.settle()
    assert bracket[main(1, 0)].decided_by == DecidedBy.VOID
    assert bracket[main(2, 0)].a.bye
    bracket.decide(main(1, 1), "a")
    assert bracket[main(2, 0)].winner_entry == 102


def test_a_no_show_sent_to_the_consolation_does_not_win_a_consolation_bye():
    bracket = seeded_bracket(6, consolation=True)
    bracket.withdraw(105)  # seed 5 does not turn up: seed 4 wins round 1 by walkover
    assert bracket[main(1, 1)].decided_by == DecidedBy.WITHDRAWAL
    assert bracket[consolation(1, 0)].b.entry == 105
    bracket.decide(main(2, 0), "a")  # seed 1 beats seed 4: the consolation place above is a bye
    match = bracket[consolation(1, 0)]
    assert match.a.bye and match.b.entry == 105
    assert match.decided_by == DecidedBy.VOID, "a withdrawn player does not go on by a bye"
    assert match.winner_entry is None
    assert bracket[consolation(2, 0)].a.bye


def test_a_started_match_is_not_settled_by_a_withdrawal_the_director_decides_it():
    bracket = seeded_bracket(4)
    bracket[main(1, 0)].started = True
    assert bracket.withdraw(104) == set()
    assert not bracket[main(1, 0)].decided
    bracket.decide(main(1, 0), "a", how=DecidedBy.WALKOVER)
    assert bracket[main(1, 0)].decided_by == DecidedBy.WALKOVER


# --- decide refuses what cannot be decided ---------------------------------------------


def test_decide_refuses_a_match_whose_players_are_not_known_yet():
    bracket = seeded_bracket(8)
    bracket.decide(main(1, 0), "a")
    bracket[main(2, 0)].label = "Semi-finals, match 1"
    before = state(bracket)
    with pytest.raises(BracketError, match="Semi-finals, match 1 is not ready: both players are not known yet"):
        bracket.decide(main(2, 0), "a")
    assert state(bracket) == before


def test_decide_refuses_a_match_already_decided():
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    before = state(bracket)
    with pytest.raises(BracketError, match="This match is already decided"):
        bracket.decide(main(1, 0), "b")
    assert state(bracket) == before


def test_decide_refuses_a_bye_that_has_not_been_settled():
    draw = make_draw([DrawEntry(id=100 + s, seed=s) for s in range(1, 4)], SeedingMethod.MANUAL, random_seed=0)
    bracket = Bracket.from_draw(draw.matches)
    bracket[main(1, 0)].label = "Semi-finals, match 1"
    with pytest.raises(BracketError, match="Semi-finals, match 1 is a bye: there is nothing to play"):
        bracket.decide(main(1, 0), "a")
    assert not bracket[main(1, 0)].decided


def test_decide_refuses_a_bye_settled_at_the_draw_as_already_decided():
    bracket = seeded_bracket(3)
    with pytest.raises(BracketError, match="already decided"):
        bracket.decide(main(1, 0), "a")


def test_decide_refuses_a_void_match():
    bracket = seeded_bracket(4)
    bracket.withdrawn.update({101, 104})
    bracket.settle()
    with pytest.raises(BracketError, match="already decided"):
        bracket.decide(main(1, 0), "a")


# --- undo -------------------------------------------------------------------------------


def test_retract_takes_a_result_back_and_clears_the_next_slot():
    bracket = seeded_bracket(8)
    before = state(bracket)
    bracket.decide(main(1, 1), "b")
    changed = bracket.retract(main(1, 1))
    assert changed == {main(1, 1), main(2, 0)}
    assert not bracket[main(1, 1)].decided and bracket[main(1, 1)].winner is None
    assert players(bracket, main(2, 0)) == (None, None)
    assert state(bracket) == before
    bracket.decide(main(1, 1), "a")  # and the corrected result goes in
    assert players(bracket, main(2, 0)) == (None, 104)


def test_retract_also_takes_the_loser_out_of_the_consolation():
    bracket = seeded_bracket(8, consolation=True)
    before = state(bracket)
    bracket.decide(main(1, 2), "a")
    assert bracket[consolation(1, 1)].a.entry == 107
    assert bracket.retract(main(1, 2)) == {main(1, 2), main(2, 1), consolation(1, 1)}
    assert state(bracket) == before


def test_retract_of_the_final_is_allowed():
    bracket = seeded_bracket(2)
    bracket.decide(main(1, 0), "a")
    assert bracket.retract(main(1, 0)) == {main(1, 0)}
    assert not bracket.is_complete()


def test_retract_refuses_a_match_without_a_result():
    bracket = seeded_bracket(4)
    bracket[main(1, 0)].label = "Semi-finals, match 1"
    with pytest.raises(BracketError, match="Semi-finals, match 1 has no result to undo"):
        bracket.retract(main(1, 0))


def test_retract_refuses_when_the_next_match_has_started_and_names_it():
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    bracket.decide(main(1, 1), "a")
    bracket[main(2, 0)].started = True
    bracket[main(2, 0)].label = "Final, match 1"
    before = state(bracket)
    with pytest.raises(BracketError, match="Final, match 1 has already started; undo that match first"):
        bracket.retract(main(1, 0))
    assert state(bracket) == before


@pytest.mark.parametrize("how", [DecidedBy.RESULT, DecidedBy.WALKOVER])
def test_retract_refuses_when_the_next_match_was_decided_by_the_director(how):
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    bracket.decide(main(1, 1), "a")
    bracket.decide(main(2, 0), "b", how=how)
    bracket[main(2, 0)].label = "Final, match 1"
    before = state(bracket)
    with pytest.raises(BracketError, match="Final, match 1"):
        bracket.retract(main(1, 1))
    assert state(bracket) == before
    bracket.retract(main(2, 0))  # undo the final first, then the semi-final
    bracket.retract(main(1, 1))
    assert players(bracket, main(2, 0)) == (101, None)


def test_retract_refuses_when_the_loser_has_started_in_the_third_place_match():
    bracket = seeded_bracket(4, third_place=True)
    bracket.decide(main(1, 0), "a")
    bracket.decide(main(1, 1), "a")
    bracket[THIRD].started = True
    bracket[THIRD].label = "Match for third place"
    with pytest.raises(BracketError, match="Match for third place has already started"):
        bracket.retract(main(1, 0))


def test_retract_without_labels_still_says_which_match_is_in_the_way():
    bracket = seeded_bracket(4)
    bracket.decide(main(1, 0), "a")
    bracket[main(2, 0)].started = True
    with pytest.raises(BracketError, match="The next match has already started"):
        bracket.retract(main(1, 0))


def test_retract_cascades_through_a_consolation_slot_that_became_a_bye():
    bracket = seeded_bracket(6, consolation=True)
    bracket.decide(main(1, 1), "a")  # seed 4 beats seed 5; 105 waits in the consolation
    before = state(bracket)
    changed = bracket.decide(main(2, 0), "a")  # seed 1 beats seed 4: 104 had played, so a bye
    assert bracket[consolation(1, 0)].decided_by == DecidedBy.BYE
    assert bracket[consolation(2, 0)].a.entry == 105
    assert {main(2, 0), main(3, 0), consolation(1, 0), consolation(2, 0)} <= changed
    changed = bracket.retract(main(2, 0))
    assert changed == {main(2, 0), main(3, 0), consolation(1, 0), consolation(2, 0)}
    assert state(bracket) == before
    assert not bracket[consolation(1, 0)].a.resolved
    assert bracket[consolation(2, 0)].a.entry is None


def test_retract_cascades_through_a_walkover_for_a_withdrawal():
    bracket = seeded_bracket(4)
    bracket.withdraw(101)  # 104 goes through
    before = state(bracket)
    bracket.decide(main(1, 1), "a")
    bracket.withdraw(104)  # and then withdraws as well: 102 wins the final
    assert bracket[main(2, 0)].decided_by == DecidedBy.WITHDRAWAL
    bracket.retract(main(1, 1))
    assert not bracket[main(2, 0)].decided
    assert players(bracket, main(2, 0)) == (104, None)
    assert state(bracket) == before


def test_retract_refuses_when_a_match_behind_an_automatic_decision_has_started():
    bracket = seeded_bracket(6, consolation=True)
    bracket.decide(main(1, 1), "a")
    bracket.decide(main(2, 0), "a")  # consolation (1, 0) settled by a bye, 105 moved on
    assert bracket[consolation(1, 0)].decided_by == DecidedBy.BYE
    target = bracket[consolation(2, 0)]
    target.started = True
    target.label = "Consolation: Final, match 1"
    before = state(bracket)
    with pytest.raises(BracketError, match="Consolation: Final, match 1 has already started"):
        bracket.retract(main(2, 0))
    assert state(bracket) == before


# --- whole tournaments ------------------------------------------------------------------


def test_a_full_random_tournament_is_complete_with_every_match_decided():
    choices = random.Random(42)
    draw = make_draw(
        [DrawEntry(id=1000 + i) for i in range(37)], SeedingMethod.RANDOM, 42, third_place=True, consolation=True
    )
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    play_out(bracket, lambda m: choices.choice("ab"))
    assert bracket.is_complete()
    assert all(m.decided for m in bracket.matches.values())
    assert all(m.decided_by in {DecidedBy.RESULT, DecidedBy.BYE, DecidedBy.VOID} for m in bracket.matches.values())
    # 37 players: 36 main matches are played, and one for third place
    played_main = [m for m in bracket.matches.values() if m.key.flight == MAIN and m.decided_by == DecidedBy.RESULT]
    assert len(played_main) == 36
    assert bracket[THIRD].decided_by == DecidedBy.RESULT


def flights_strategy():
    return st.tuples(st.integers(2, 80), st.booleans(), st.booleans()).map(
        lambda t: (t[0], t[1] and t[0] >= 3, t[2] and t[0] >= 5)
    )


@settings(max_examples=80, deadline=None)
@given(flights=flights_strategy(), random_seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_random_winners_always_complete_the_bracket_and_the_champion_never_loses(flights, random_seed, choices):
    n, third_place, with_consolation = flights
    entries = [DrawEntry(id=1000 + i) for i in range(n)]
    draw = make_draw(entries, SeedingMethod.RANDOM, random_seed, third_place=third_place, consolation=with_consolation)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    play_out(bracket, lambda m: choices.choice("ab"))

    assert bracket.is_complete()
    main_losses = {e.id: 0 for e in entries}
    for m in bracket.matches.values():
        if m.key.flight == MAIN and m.loser_entry is not None:
            main_losses[m.loser_entry] += 1
    assert max(main_losses.values()) <= 1, "nobody loses twice in the main flight"
    assert sum(main_losses.values()) == n - 1, "everybody but the champion loses once"
    champion = bracket[main(draw.flight_rounds(MAIN), 0)].winner_entry
    assert champion is not None and main_losses[champion] == 0
    assert all(m.loser_entry != champion for m in bracket.matches.values())
    assert not any(m.decided_by == DecidedBy.VOID and m.key.flight == MAIN for m in bracket.matches.values())
    if third_place:
        third = bracket[THIRD]
        assert third.winner_entry is not None or n == 3
        assert {third.a.entry, third.b.entry} - {None} <= {e for e, c in main_losses.items() if c == 1}


@settings(max_examples=80, deadline=None)
@given(
    flights=flights_strategy(),
    random_seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
    withdraw_chance=st.floats(0.0, 0.3),
)
def test_with_random_withdrawals_the_bracket_still_completes_and_no_withdrawn_player_wins_again(
    flights, random_seed, choices, withdraw_chance
):
    n, third_place, with_consolation = flights
    entries = [DrawEntry(id=1000 + i) for i in range(n)]
    draw = make_draw(entries, SeedingMethod.RANDOM, random_seed, third_place=third_place, consolation=with_consolation)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    wins_before_withdrawal: dict[int, set[MatchKey]] = {}
    while True:
        for e in entries:
            if e.id not in bracket.withdrawn and choices.random() < withdraw_chance / 4:
                wins_before_withdrawal[e.id] = {m.key for m in bracket.matches.values() if m.winner_entry == e.id}
                bracket.withdraw(e.id)
        ready = [m for m in bracket.matches.values() if m.ready]
        if not ready:
            break
        match = choices.choice(ready)
        bracket.decide(match.key, choices.choice("ab"))
    assert bracket.is_complete()
    for entry, earlier in wins_before_withdrawal.items():
        wins = {m.key for m in bracket.matches.values() if m.winner_entry == entry}
        assert wins == earlier, f"withdrawn {entry} won {wins - earlier}"
    for m in bracket.matches.values():
        if m.decided_by == DecidedBy.WITHDRAWAL:
            assert m.loser_entry in bracket.withdrawn


@settings(max_examples=80, deadline=None)
@given(flights=flights_strategy(), random_seed=st.integers(0, 2**32), choices=st.randoms(use_true_random=False))
def test_deciding_a_match_and_retracting_it_gives_back_the_bracket_as_it_was(flights, random_seed, choices):
    n, third_place, with_consolation = flights
    draw = make_draw(
        [DrawEntry(id=1000 + i) for i in range(n)],
        SeedingMethod.RANDOM,
        random_seed,
        third_place=third_place,
        consolation=with_consolation,
    )
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    while ready := [m for m in bracket.matches.values() if m.ready]:
        match = choices.choice(ready)
        before = state(bracket)
        changed = bracket.decide(match.key, choices.choice("ab"))
        after = state(bracket)
        assert bracket.retract(match.key) == changed
        assert state(bracket) == before
        bracket.decide(match.key, after[match.key][4])
        assert state(bracket) == after
    assert bracket.is_complete()
