"""Tables at the venue (``tournaments.tables``): the rounds played at the same time —
main round r, the consolation's round r − 1, the match for third place beside the
final — share one numbering, so no two matches are sent to the same table; byes take no
table; a director's own table is used as it is."""

from __future__ import annotations

from collections import defaultdict

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, DrawEntry, SeedingMethod, make_draw
from tournaments.tables import MatchPlace, number_tables, session_of, session_rounds


def place(match_id: int, flight: str, round_number: int, position: int, playable=True, own="") -> MatchPlace:
    return MatchPlace(match_id, flight, round_number, position, playable, own)


@pytest.mark.parametrize(
    ("places", "main_rounds", "tables"),
    [
        pytest.param([], 3, {}, id="no_matches_no_tables"),
        pytest.param([place(1, MAIN, 1, 0, playable=False)], 1, {}, id="a_bye_takes_no_table"),
        pytest.param(
            [place(1, MAIN, 1, 0, playable=False), place(2, MAIN, 1, 1), place(3, MAIN, 1, 2)],
            2,
            {2: "1", 3: "2"},
            id="byes_are_skipped_and_the_rest_numbered_from_1",
        ),
        pytest.param(
            [place(3, MAIN, 1, 1), place(2, MAIN, 1, 0)],
            1,
            {2: "1", 3: "2"},
            id="bracket_order_not_the_order_given",
        ),
        pytest.param(
            [place(1, MAIN, 1, 0, own="Stage"), place(2, MAIN, 1, 1)],
            1,
            {1: "Stage", 2: "2"},
            id="the_directors_own_table_is_kept",
        ),
        pytest.param(
            [place(1, MAIN, 1, 0), place(2, MAIN, 1, 1), place(3, MAIN, 2, 0)],
            2,
            {1: "1", 2: "2", 3: "1"},
            id="each_main_round_starts_again_at_1",
        ),
        pytest.param(
            [place(10, CONSOLATION, 1, 0), place(11, CONSOLATION, 1, 1), place(1, MAIN, 2, 0), place(2, MAIN, 2, 1)],
            3,
            {1: "1", 2: "2", 10: "3", 11: "4"},
            id="consolation_round_1_continues_after_main_round_2",
        ),
        pytest.param(
            [place(20, CONSOLATION, 2, 0), place(9, THIRD_PLACE, 1, 0), place(1, MAIN, 3, 0)],
            3,
            {1: "1", 9: "2", 20: "3"},
            id="final_then_third_place_then_consolation_final",
        ),
    ],
)
def test_number_tables(places, main_rounds, tables):
    assert number_tables(places, main_rounds) == tables


@pytest.mark.parametrize(
    ("flight", "round_number", "main_rounds", "session"),
    [(MAIN, 1, 4, 1), (MAIN, 4, 4, 4), (THIRD_PLACE, 1, 4, 4), (CONSOLATION, 1, 4, 2), (CONSOLATION, 3, 4, 4)],
)
def test_session_of(flight, round_number, main_rounds, session):
    assert session_of(flight, round_number, main_rounds) == session


@pytest.mark.parametrize(
    ("session", "main_rounds", "rounds"),
    [
        (1, 3, [(MAIN, 1)]),
        (2, 3, [(MAIN, 2), (CONSOLATION, 1)]),
        (3, 3, [(MAIN, 3), (THIRD_PLACE, 1), (CONSOLATION, 2)]),
        (1, 1, [(MAIN, 1), (THIRD_PLACE, 1)]),  # asked only of sizes that have no third place
    ],
)
def test_session_rounds(session, main_rounds, rounds):
    assert session_rounds(session, main_rounds) == rounds


@settings(max_examples=60, deadline=None)
@given(
    players=st.integers(min_value=8, max_value=128),
    third_place=st.booleans(),
    consolation=st.booleans(),
)
def test_every_session_of_a_real_draw_numbers_its_playable_matches_1_to_n(players, third_place, consolation):
    draw = make_draw(
        [DrawEntry(id=1000 + i, rating=2000 - i) for i in range(players)],
        SeedingMethod.RATING,
        random_seed=7,
        third_place=third_place,
        consolation=consolation,
    )
    main_rounds = draw.flight_rounds(MAIN)
    places = [
        place(i, spec.key.flight, spec.key.round, spec.key.position, playable=not (spec.bye_a or spec.bye_b))
        for i, spec in enumerate(draw.matches)
    ]
    tables = number_tables(places, main_rounds)
    by_session: dict[int, list[str]] = defaultdict(list)
    for p in places:
        if p.playable:
            by_session[session_of(p.flight, p.round_number, main_rounds)].append(tables[p.match_id])
        else:
            assert p.match_id not in tables
    for numbers in by_session.values():
        assert sorted(numbers, key=int) == [str(n) for n in range(1, len(numbers) + 1)]
    # Every round a session names exists in the draw, and every round is in its session.
    rounds = {(p.flight, p.round_number) for p in places}
    for p in places:
        session = session_of(p.flight, p.round_number, main_rounds)
        assert (p.flight, p.round_number) in session_rounds(session, main_rounds)
    for session in by_session:
        assert set(session_rounds(session, main_rounds)) & rounds
