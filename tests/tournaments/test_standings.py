"""Final standings of a knockout (SPEC §2): 1, 2, 3 (or 3–4 shared without a
third-place match), 5–8, 9–16, ..., counted from the players actually in the event,
each group placed only once nobody else can join it.

Entry 100 + s is the player seeded s (manual seeding, standard order).
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import Bracket
from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, DrawEntry, MatchKey, SeedingMethod, make_draw
from tournaments.standings import Placing, Standings, knockout_standings

THIRD = MatchKey(THIRD_PLACE, 1, 0)


def main(round_number: int, position: int) -> MatchKey:
    return MatchKey(MAIN, round_number, position)


def seeded_bracket(n: int, **options) -> tuple[Bracket, list[int]]:
    entries = [DrawEntry(id=100 + s, seed=s) for s in range(1, n + 1)]
    draw = make_draw(entries, SeedingMethod.MANUAL, random_seed=0, **options)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    return bracket, [e.id for e in entries]


def favourite(match) -> str:
    return "a" if match.a.entry < match.b.entry else "b"


def play(bracket: Bracket, flight: str | None = None, rounds: tuple[int, ...] | None = None) -> None:
    """Let the better seed win every ready match (of this flight and these rounds)."""
    while ready := [
        m
        for m in bracket.matches.values()
        if m.ready and (flight is None or m.key.flight == flight) and (rounds is None or m.key.round in rounds)
    ]:
        for match in ready:
            bracket.decide(match.key, favourite(match))


def table(standings: Standings) -> list[tuple[str, tuple[int, ...]]]:
    return [(p.label, p.entries) for p in standings.placings]


# --- places -----------------------------------------------------------------------------


def test_eight_players_without_a_third_place_match_share_3_4_and_5_8():
    bracket, entries = seeded_bracket(8)
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [
        ("1", (101,)),
        ("2", (102,)),
        ("3–4", (103, 104)),
        ("5–8", (105, 106, 107, 108)),
    ]
    assert standings.final and standings.still_playing == ()
    champion, finalist = standings.placings[:2]
    assert champion.won_last_match and not finalist.won_last_match
    assert champion.finished_in == finalist.finished_in == main(3, 0)
    assert standings.place_of(105).finished_in == main(1, 0)
    assert standings.place_of(103).finished_in == main(2, 0)


def test_eight_players_with_a_third_place_match_have_a_third_and_a_fourth():
    bracket, entries = seeded_bracket(8, third_place=True)
    play(bracket)
    bracket_third = bracket[THIRD]
    assert (bracket_third.a.entry, bracket_third.b.entry) == (104, 103)
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [
        ("1", (101,)),
        ("2", (102,)),
        ("3", (103,)),
        ("4", (104,)),
        ("5–8", (105, 106, 107, 108)),
    ]
    third, fourth = standings.placings[2:4]
    assert third.won_last_match and not fourth.won_last_match
    assert third.finished_in == fourth.finished_in == THIRD
    assert standings.final


def test_an_upset_changes_who_is_where_not_the_place_numbers():
    bracket, entries = seeded_bracket(4, third_place=True)
    bracket.decide(main(1, 0), "b")  # 104 beats 101
    bracket.decide(main(1, 1), "b")  # 103 beats 102
    bracket.decide(THIRD, "b")  # 102 beats 101 for third
    bracket.decide(main(2, 0), "a")  # 104 wins
    assert table(knockout_standings(bracket, entries)) == [("1", (104,)), ("2", (103,)), ("3", (102,)), ("4", (101,))]


@pytest.mark.parametrize(
    ("n", "expected"),
    [
        (2, [("1", 1), ("2", 1)]),
        (3, [("1", 1), ("2", 1), ("3", 1)]),
        (5, [("1", 1), ("2", 1), ("3–4", 2), ("5", 1)]),
        (6, [("1", 1), ("2", 1), ("3–4", 2), ("5–6", 2)]),
        (12, [("1", 1), ("2", 1), ("3–4", 2), ("5–8", 4), ("9–12", 4)]),
        (16, [("1", 1), ("2", 1), ("3–4", 2), ("5–8", 4), ("9–16", 8)]),
        (20, [("1", 1), ("2", 1), ("3–4", 2), ("5–8", 4), ("9–16", 8), ("17–20", 4)]),
    ],
)
def test_groups_are_counted_from_the_players_actually_in_the_event(n, expected):
    bracket, entries = seeded_bracket(n)
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert [(p.label, len(p.entries)) for p in standings.placings] == expected
    assert sorted(e for p in standings.placings for e in p.entries) == entries
    assert standings.final


def test_twelve_players_place_the_first_round_losers_9_to_12_not_9_to_16():
    bracket, entries = seeded_bracket(12)
    play(bracket)
    placing = knockout_standings(bracket, entries).place_of(109)
    assert (placing.first, placing.last, placing.label) == (9, 12, "9–12")
    assert placing.entries == (109, 110, 111, 112)


# --- places appear only when they are known --------------------------------------------


def test_a_group_gets_places_only_once_its_round_is_complete():
    bracket, entries = seeded_bracket(8)
    bracket.decide(main(1, 0), "a")
    bracket.decide(main(1, 1), "a")
    standings = knockout_standings(bracket, entries)
    assert len(standings.placings) == 1
    out = standings.placings[0]
    assert out.entries == (105, 108)
    assert out.first is None and out.last is None and out.label == ""
    assert set(standings.still_playing) == {101, 102, 103, 104, 106, 107}
    assert not standings.final

    bracket.decide(main(1, 2), "a")
    bracket.decide(main(1, 3), "a")
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("5–8", (105, 106, 107, 108))]
    assert set(standings.still_playing) == {101, 102, 103, 104}


def test_before_any_match_nobody_has_a_place():
    bracket, entries = seeded_bracket(8)
    standings = knockout_standings(bracket, entries)
    assert standings.placings == ()
    assert standings.still_playing == tuple(entries)
    assert not standings.final


def test_byes_count_as_decided_when_deciding_whether_a_round_is_over():
    bracket, entries = seeded_bracket(12)  # seeds 1-4 have byes
    for p in range(8):
        if bracket[main(1, p)].ready:
            bracket.decide(main(1, p), favourite(bracket[main(1, p)]))
    assert table(knockout_standings(bracket, entries)) == [("9–12", (109, 110, 111, 112))]


def test_a_lower_group_is_not_numbered_while_a_round_below_it_is_still_open():
    bracket, entries = seeded_bracket(8)
    bracket.decide(main(1, 0), "a")
    bracket.decide(main(1, 1), "a")
    bracket.decide(main(2, 0), "a")  # 104 is out in the semi-final, but round 1 is not over
    standings = knockout_standings(bracket, entries)
    assert [(p.label, p.entries) for p in standings.placings] == [("", (104,)), ("", (105, 108))]


def test_while_the_third_place_match_is_pending_the_places_above_it_are_not_numbered():
    bracket, entries = seeded_bracket(8, third_place=True)
    play(bracket, flight=MAIN)  # the final is played before the match for third
    assert bracket[THIRD].ready
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("", (101,)), ("", (102,)), ("5–8", (105, 106, 107, 108))]
    assert set(standings.still_playing) == {103, 104}
    assert standings.place_of(103) is None
    assert not standings.final

    bracket.decide(THIRD, "b")
    standings = knockout_standings(bracket, entries)
    assert [p.label for p in standings.placings] == ["1", "2", "3", "4", "5–8"]
    assert standings.final


def test_without_a_third_place_match_the_semi_final_losers_are_placed_when_both_semis_are_over():
    bracket, entries = seeded_bracket(8)
    play(bracket, rounds=(1, 2))
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("3–4", (103, 104)), ("5–8", (105, 106, 107, 108))]
    assert set(standings.still_playing) == {101, 102}


def test_an_unfinished_final_leaves_the_finalists_still_playing():
    bracket, entries = seeded_bracket(2)
    standings = knockout_standings(bracket, entries)
    assert standings.placings == () and standings.still_playing == (101, 102)


# --- consolation ------------------------------------------------------------------------


def test_the_consolation_winner_and_runner_up_are_reported():
    bracket, entries = seeded_bracket(8, consolation=True)
    play(bracket, flight=MAIN)
    standings = knockout_standings(bracket, entries)
    assert standings.consolation_winner is None and standings.consolation_runner_up is None
    # consolation: 108-105, 107-106; the better seed wins each
    play(bracket, flight=CONSOLATION)
    assert {bracket[MatchKey(CONSOLATION, 1, p)].loser_entry for p in (0, 1)} == {107, 108}
    standings = knockout_standings(bracket, entries)
    assert standings.consolation_winner == 105
    assert standings.consolation_runner_up == 106
    # the consolation does not change the main places
    assert standings.place_of(105).label == "5–8"


def test_without_a_consolation_flight_nobody_wins_one():
    bracket, entries = seeded_bracket(8)
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert standings.consolation_winner is None and standings.consolation_runner_up is None


# --- withdrawals ------------------------------------------------------------------------


def test_a_player_who_withdraws_before_the_first_round_is_placed_with_the_first_round_losers():
    bracket, entries = seeded_bracket(8)
    bracket.withdraw(103)  # seed 6 goes through by walkover
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert standings.place_of(103).label == "5–8"
    assert standings.place_of(103).finished_in == main(1, 0)
    assert standings.place_of(106).label == "3–4"  # 106 reached the semi-final and lost to 102


def test_a_player_who_withdraws_before_the_semi_final_is_placed_3_4():
    bracket, entries = seeded_bracket(8)
    play(bracket, rounds=(1,))
    bracket.withdraw(102)
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("1", (101,)), ("2", (103,)), ("3–4", (102, 104)), ("5–8", (105, 106, 107, 108))]


def test_a_finalist_who_withdraws_before_the_final_is_second():
    bracket, entries = seeded_bracket(4)
    play(bracket, rounds=(1,))
    bracket.withdraw(101)
    standings = knockout_standings(bracket, entries)
    assert table(standings)[:2] == [("1", (102,)), ("2", (101,))]
    assert standings.final


def test_a_semi_final_loser_who_goes_home_before_the_match_for_third_is_fourth():
    bracket, entries = seeded_bracket(4, third_place=True)
    play(bracket, flight=MAIN)
    bracket.withdraw(104)
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("1", (101,)), ("2", (102,)), ("3", (103,)), ("4", (104,))]


def test_when_both_players_for_third_place_withdrew_they_share_3_4_and_the_finalists_keep_1_and_2():
    bracket, entries = seeded_bracket(4, third_place=True)
    bracket.withdrawn.update({103, 104})  # both gone before their semi-finals
    bracket.settle()
    assert bracket[THIRD].winner is None  # void
    play(bracket)
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("1", (101,)), ("2", (102,)), ("3–4", (103, 104))]
    assert standings.final


def test_when_both_players_of_a_semi_final_withdrew_they_are_still_placed_below_third():
    bracket, entries = seeded_bracket(4, third_place=True)
    bracket.withdrawn.update({101, 104})  # semi-final 1-4 is void: 102-103 decides everything
    bracket.settle()
    bracket.decide(main(1, 1), "a")  # 102 beats 103; 103 takes third by a bye
    assert bracket.is_complete()
    standings = knockout_standings(bracket, entries)
    # Counted from the bottom: nobody lost the final, so 103 (third by a bye) is second.
    assert table(standings) == [("1", (102,)), ("2", (103,)), ("3–4", (101, 104))]
    assert standings.final


def test_when_both_finalists_withdrew_they_share_first_and_second():
    bracket, entries = seeded_bracket(4)
    play(bracket, rounds=(1,))
    bracket.withdrawn.update({101, 102})
    bracket.settle()
    standings = knockout_standings(bracket, entries)
    assert table(standings) == [("1–2", (101, 102)), ("3–4", (103, 104))]
    assert standings.final


# --- invariants -------------------------------------------------------------------------


@settings(max_examples=80, deadline=None)
@given(
    n=st.integers(2, 70),
    third_place=st.booleans(),
    random_seed=st.integers(0, 2**32),
    choices=st.randoms(use_true_random=False),
    withdraw_chance=st.sampled_from([0.0, 0.0, 0.05, 0.2]),
)
def test_a_finished_knockout_places_everybody_once_with_places_that_add_up(
    n, third_place, random_seed, choices, withdraw_chance
):
    third_place = third_place and n >= 3
    entries = [DrawEntry(id=1000 + i) for i in range(n)]
    draw = make_draw(entries, SeedingMethod.RANDOM, random_seed, third_place=third_place)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    ids = [e.id for e in entries]
    while True:
        for e in ids:
            if e not in bracket.withdrawn and choices.random() < withdraw_chance / 4:
                bracket.withdraw(e)
        ready = [m for m in bracket.matches.values() if m.ready]
        if not ready:
            break
        bracket.decide(choices.choice(ready).key, choices.choice("ab"))
        standings = knockout_standings(bracket, ids)
        assert_consistent(standings, ids)
    standings = knockout_standings(bracket, ids)
    assert_consistent(standings, ids)
    assert standings.final
    expected_last = 0
    for placing in reversed(standings.placings):
        assert placing.last == n - expected_last
        expected_last += len(placing.entries)
    assert standings.placings[0].first == 1
    if withdraw_chance == 0:
        final = bracket[main(draw.flight_rounds(MAIN), 0)]
        assert standings.placings[0] == Placing((final.winner_entry,), final.key, 1, 1, True)


def assert_consistent(standings: Standings, ids: list[int]) -> None:
    listed = [e for p in standings.placings for e in p.entries] + list(standings.still_playing)
    assert sorted(listed) == sorted(ids), "everybody is either placed or still playing, once"
    numbered = [p for p in standings.placings if p.first is not None]
    # numbered groups are the bottom ones, without gaps, from the last place up
    assert standings.placings[len(standings.placings) - len(numbered) :] == tuple(numbered)
    last = len(ids)
    for placing in reversed(numbered):
        assert placing.last == last and placing.first == last - len(placing.entries) + 1
        last = placing.first - 1
