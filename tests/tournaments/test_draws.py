"""The knockout draw (SPEC §2): bracket size, seeding order, byes, seeding sources and
the routes of the third-place match and the consolation flight.

Entry ids are 100 + the seed a test has in mind, never equal to a seed number, so
that a mix-up between the two cannot pass by accident.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.bracket import Bracket, DecidedBy
from tournaments.draws import (
    CONSOLATION,
    MAIN,
    THIRD_PLACE,
    Draw,
    DrawEntry,
    DrawError,
    MatchKey,
    MatchSpec,
    Route,
    SeedingMethod,
    bracket_size,
    make_draw,
    order_entries,
    seeding_order,
)


def plain_entries(n: int) -> list[DrawEntry]:
    return [DrawEntry(id=101 + i) for i in range(n)]


def seeded_entries(n: int) -> list[DrawEntry]:
    """Entry 100 + s carries the manual seed s."""
    return [DrawEntry(id=100 + s, seed=s) for s in range(1, n + 1)]


def manual_draw(n: int, **options) -> Draw:
    return make_draw(seeded_entries(n), SeedingMethod.MANUAL, random_seed=1, **options)


def first_round(draw: Draw) -> list[MatchSpec]:
    matches = [m for m in draw.matches if m.key.flight == MAIN and m.key.round == 1]
    return sorted(matches, key=lambda m: m.key.position)


def spec(draw: Draw, flight: str, round_number: int, position: int) -> MatchSpec:
    (match,) = [m for m in draw.matches if m.key == MatchKey(flight, round_number, position)]
    return match


def slot_seeds(draw: Draw) -> list[int | None]:
    """The seed in every first-round place, top to bottom; None for a bye."""
    places: list[int | None] = []
    for match in first_round(draw):
        for entry in (match.entry_a, match.entry_b):
            places.append(None if entry is None else draw.seed_of[entry])
    return places


def first_round_seed_order(draw: Draw) -> list[int]:
    """The seeds of the first-round places with a bye counted as the seed it stands for."""
    order: list[int | None] = []
    for match in first_round(draw):
        pair = [None if e is None else draw.seed_of[e] for e in (match.entry_a, match.entry_b)]
        order.extend(pair)
    # A bye stands for the seed that completes its pair to bracket_size + 1.
    for i in range(0, len(order), 2):
        a, b = order[i], order[i + 1]
        if b is None and a is not None:
            order[i + 1] = draw.bracket_size + 1 - a
        if a is None and b is not None:
            order[i] = draw.bracket_size + 1 - b
    assert None not in order, "a bye met a bye"
    assert sorted(order) == list(range(1, draw.bracket_size + 1))
    return order


def assert_structure(draw: Draw, entry_ids: list[int]) -> None:
    """The invariants every draw must keep, whatever its size, seed and options."""
    n, size = len(entry_ids), draw.bracket_size
    assert size >= n and size & (size - 1) == 0
    assert size == 2 or size // 2 < n, "the bracket is larger than needed"
    assert sorted(draw.seed_of) == sorted(entry_ids)
    assert sorted(draw.seed_of.values()) == list(range(1, n + 1))

    matches = first_round(draw)
    assert [m.key.position for m in matches] == list(range(size // 2))
    placed = [e for m in matches for e in (m.entry_a, m.entry_b) if e is not None]
    assert sorted(placed) == sorted(entry_ids), "every entry appears exactly once in round 1"
    for m in matches:
        assert (m.entry_a is None) == m.bye_a and (m.entry_b is None) == m.bye_b
        assert not (m.bye_a and m.bye_b), f"a bye meets a bye in {m.key}"

    facing_a_bye = {draw.seed_of[m.entry_a if m.bye_b else m.entry_b] for m in matches if m.bye_a or m.bye_b}
    assert facing_a_bye == set(range(1, size - n + 1)), "the byes go to the top seeds, and only to them"

    places = slot_seeds(draw)
    top_half, bottom_half = places[: size // 2], places[size // 2 :]
    assert 1 in top_half and 2 in bottom_half, "seeds 1 and 2 are in different halves"

    # In round 1, seed s meets seed size + 1 - s (a bye standing for the seeds above n).
    order = first_round_seed_order(draw)
    for i in range(0, size, 2):
        assert order[i] + order[i + 1] == size + 1

    assert_routes_fill_every_slot_once(draw)


def assert_routes_fill_every_slot_once(draw: Draw) -> None:
    """Every place of every later match is filled by exactly one route or is a bye from the
    draw; a route never points at a first-round place or at a match that does not exist."""
    keys = {m.key for m in draw.matches}
    feeders: dict[tuple[MatchKey, str], int] = {}
    for m in draw.matches:
        for route in (m.winner_to, m.loser_to):
            if route is not None:
                assert route.to in keys
                assert route.to != m.key
                feeders[(route.to, route.slot)] = feeders.get((route.to, route.slot), 0) + 1
    for m in draw.matches:
        for side, entry, bye in (("a", m.entry_a, m.bye_a), ("b", m.entry_b, m.bye_b)):
            fed = feeders.get((m.key, side), 0)
            if m.key.flight == MAIN and m.key.round == 1:
                assert fed == 0
            else:
                assert entry is None
                assert fed + int(bye) == 1, f"{m.key} slot {side} fed {fed} times, bye={bye}"


# --- bracket size -----------------------------------------------------------------------


@pytest.mark.parametrize(
    ("entries", "size"),
    [(2, 2), (3, 4), (4, 4), (5, 8), (7, 8), (8, 8), (9, 16), (16, 16), (17, 32), (64, 64), (65, 128), (130, 256)],
)
def test_bracket_size_is_the_next_power_of_two(entries, size):
    assert bracket_size(entries) == size


@pytest.mark.parametrize("entries", [-1, 0, 1])
def test_bracket_size_refuses_fewer_than_two_players(entries):
    with pytest.raises(DrawError, match=f"at least 2 players; there are {entries}"):
        bracket_size(entries)


# --- seeding order ----------------------------------------------------------------------


def test_seeding_order_for_8_is_the_one_in_the_spec():
    assert seeding_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]


def test_seeding_order_for_16_is_the_one_in_the_spec():
    assert seeding_order(16) == [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]


@pytest.mark.parametrize(("size", "order"), [(1, [1]), (2, [1, 2]), (4, [1, 4, 2, 3])])
def test_seeding_order_of_the_smallest_brackets(size, order):
    assert seeding_order(size) == order


@pytest.mark.parametrize("size", [0, -4, 3, 6, 12, 100])
def test_seeding_order_refuses_a_size_that_is_not_a_power_of_two(size):
    with pytest.raises(DrawError, match=f"power-of-two number of places, not {size}"):
        seeding_order(size)


@pytest.mark.parametrize("size", [2**k for k in range(1, 10)])
def test_seeding_order_keeps_the_top_seeds_apart_until_the_round_they_may_meet(size):
    """The top 2^j seeds sit in 2^j different blocks of size / 2^j places: 1 and 2 can meet
    only in the final, 1-4 only in the semi-finals, and so on."""
    order = seeding_order(size)
    assert sorted(order) == list(range(1, size + 1))
    j = 1
    while 2**j <= size:
        block = size // 2**j
        blocks_of_top = {order.index(s) // block for s in range(1, 2**j + 1)}
        assert len(blocks_of_top) == 2**j
        j += 1


# --- the acceptance criteria, for every field from 2 to 130 ----------------------------


@pytest.mark.parametrize("n", range(2, 131))
def test_draw_structure_for_every_field_size_from_2_to_130(n):
    draw = manual_draw(n)
    assert draw.bracket_size == bracket_size(n)
    assert_structure(draw, [e.id for e in seeded_entries(n)])
    # With manual seeds 1..n the seed numbers are the director's.
    assert draw.seed_of == {100 + s: s for s in range(1, n + 1)}


@pytest.mark.parametrize("n", range(2, 131))
def test_byes_go_exactly_to_seeds_1_to_size_minus_n(n):
    draw = manual_draw(n)
    size = draw.bracket_size
    with_a_bye = sorted(
        draw.seed_of[m.entry_a if m.bye_b else m.entry_b] for m in first_round(draw) if m.bye_a or m.bye_b
    )
    assert with_a_bye == list(range(1, size - n + 1))


def play_favourites(draw: Draw) -> tuple[Bracket, dict[int, list[tuple[int, int]]]]:
    """Let the better seed win every match; the pairs of seeds met in each main round
    (a bye counted as the seed above the field it stands for)."""
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    rounds = draw.flight_rounds(MAIN)
    met: dict[int, list[tuple[int, int]]] = {}
    for r in range(1, rounds + 1):
        players_left = draw.bracket_size >> (r - 1)
        met[r] = []
        for p in range(players_left // 2):
            match = bracket[MatchKey(MAIN, r, p)]
            seeds = [None if s.entry is None else draw.seed_of[s.entry] for s in (match.a, match.b)]
            real = [s for s in seeds if s is not None]
            assert real, f"nobody in {match.key}"
            if len(real) == 1:
                assert r == 1 and match.decided_by == DecidedBy.BYE
                met[r].append((real[0], players_left + 1 - real[0]))
                continue
            met[r].append((seeds[0], seeds[1]))
            bracket.decide(match.key, "a" if seeds[0] < seeds[1] else "b")
    return bracket, met


@pytest.mark.parametrize("n", range(2, 131))
def test_if_the_favourites_win_seed_s_meets_players_left_plus_1_minus_s_in_every_round(n):
    draw = manual_draw(n)
    bracket, met = play_favourites(draw)
    for r, pairs in met.items():
        players_left = draw.bracket_size >> (r - 1)
        assert sorted(s for pair in pairs for s in pair) == list(range(1, players_left + 1))
        for s, t in pairs:
            assert s + t == players_left + 1, f"round {r}: seed {s} met seed {t}"
    final = bracket[MatchKey(MAIN, draw.flight_rounds(MAIN), 0)]
    assert draw.seed_of[final.winner_entry] == 1
    assert bracket.is_complete()


def test_favourites_in_a_16_player_draw_meet_as_the_spec_says_round_by_round():
    _, met = play_favourites(manual_draw(16))
    assert met[1] == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert met[2] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    assert met[3] == [(1, 4), (2, 3)]
    assert met[4] == [(1, 2)]


def test_a_5_player_draw_gives_byes_to_seeds_1_2_3_and_seeds_4_and_5_play():
    draw = manual_draw(5)
    pairs = [(m.entry_a, m.entry_b) for m in first_round(draw)]
    assert pairs == [(101, None), (104, 105), (102, None), (103, None)]


def test_a_two_player_draw_is_just_a_final():
    draw = manual_draw(2)
    assert draw.bracket_size == 2
    assert [m.key for m in draw.matches] == [MatchKey(MAIN, 1, 0)]
    final = draw.matches[0]
    assert (final.entry_a, final.entry_b) == (101, 102)
    assert final.winner_to is None and final.loser_to is None


def test_winners_move_to_the_next_round_upper_slot_from_even_positions_and_lower_from_odd():
    draw = manual_draw(16)
    for m in draw.matches:
        if m.key.round < 4:
            assert m.winner_to == Route(MatchKey(MAIN, m.key.round + 1, m.key.position // 2), "ab"[m.key.position % 2])
        else:
            assert m.winner_to is None
    assert draw.flight_rounds(MAIN) == 4
    assert draw.flight_rounds(THIRD_PLACE) == 0


def test_matches_are_listed_main_then_third_place_then_consolation_round_by_round():
    draw = manual_draw(9, third_place=True, consolation=True)
    keys = [m.key for m in draw.matches]
    flights = [k.flight for k in keys]
    assert flights == sorted(flights, key=[MAIN, THIRD_PLACE, CONSOLATION].index)
    for flight in (MAIN, CONSOLATION):
        of_flight = [(k.round, k.position) for k in keys if k.flight == flight]
        assert of_flight == sorted(of_flight)
    assert len(keys) == 15 + 1 + 7


def test_the_same_entry_twice_is_refused():
    entries = [DrawEntry(101), DrawEntry(102), DrawEntry(101)]
    with pytest.raises(DrawError, match="same entry appears twice"):
        make_draw(entries, SeedingMethod.RANDOM, random_seed=3)


# --- random draw (losování) -------------------------------------------------------------


def test_a_random_draw_records_its_seed():
    assert make_draw(plain_entries(10), SeedingMethod.RANDOM, random_seed=987654321).random_seed == 987654321


@pytest.mark.parametrize("n", [2, 3, 7, 16, 33])
def test_a_random_draw_is_reproduced_by_its_recorded_seed(n):
    first = make_draw(plain_entries(n), SeedingMethod.RANDOM, random_seed=2024)
    again = make_draw(plain_entries(n), SeedingMethod.RANDOM, random_seed=first.random_seed)
    assert again == first


def test_the_input_order_of_entries_does_not_change_a_random_draw():
    entries = plain_entries(20)
    shuffled = entries[:]
    random.Random(5).shuffle(shuffled)
    assert shuffled != entries
    for seed in (0, 1, 77):
        expected = make_draw(entries, SeedingMethod.RANDOM, random_seed=seed)
        assert make_draw(shuffled, SeedingMethod.RANDOM, random_seed=seed) == expected
        assert make_draw(reversed(entries), SeedingMethod.RANDOM, random_seed=seed) == expected


def test_different_seeds_give_different_random_draws_for_16_players():
    orders = {tuple(slot_seeds_by_entry(make_draw(plain_entries(16), SeedingMethod.RANDOM, s))) for s in range(40)}
    assert len(orders) == 40


def slot_seeds_by_entry(draw: Draw) -> list[int | None]:
    """The entry in every first-round place, top to bottom; None for a bye."""
    return [e for m in first_round(draw) for e in (m.entry_a, m.entry_b)]


def entry_seeded(draw: Draw, seed: int = 1) -> int:
    return next(e for e, s in draw.seed_of.items() if s == seed)


def test_a_random_draw_lets_every_player_land_on_the_top_place_some_time():
    tops = {make_draw(plain_entries(4), SeedingMethod.RANDOM, s).matches[0].entry_a for s in range(200)}
    assert tops == {101, 102, 103, 104}


def test_a_random_draw_ignores_ratings_and_manual_seeds():
    entries = [DrawEntry(id=101 + i, rating=3000 - i, seed=i + 1) for i in range(8)]
    tops = {entry_seeded(make_draw(entries, SeedingMethod.RANDOM, s)) for s in range(30)}
    assert len(tops) > 1
    # seeded_count is meaningless for a random draw and does not pin anyone either
    pinned = {make_draw(entries, SeedingMethod.RANDOM, s, seeded_count=4).matches[0].entry_a for s in range(30)}
    assert len(pinned) > 1


# --- rating seeding ---------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ratings", "expected_seed_order"),
    [
        # ids 101.. in input order; expected ids from seed 1 down
        ([1500, 2100, 1800], [102, 103, 101]),
        ([2000, None, 1900, None, 2400], [105, 101, 103, None, None]),
        ([0, None, -50], [101, 103, 102]),  # rating 0 is a rating; the unrated come last
        ([1200, 1200, 1300], [103, None, None]),  # the two 1200s are drawn for seeds 2 and 3
    ],
)
def test_rating_seeding_puts_the_highest_rating_first_and_the_unrated_last(ratings, expected_seed_order):
    entries = [DrawEntry(id=101 + i, rating=r) for i, r in enumerate(ratings)]
    draw = make_draw(entries, SeedingMethod.RATING, random_seed=11)
    by_seed = sorted(draw.seed_of, key=draw.seed_of.get)
    for got, expected in zip(by_seed, expected_seed_order, strict=True):
        if expected is not None:
            assert got == expected
    unrated = {e.id for e in entries if e.rating is None}
    assert set(by_seed[len(by_seed) - len(unrated) :]) == unrated


def test_rating_seeding_breaks_equal_ratings_by_lot_but_reproducibly():
    entries = [DrawEntry(id=101, rating=2200)] + [DrawEntry(id=102 + i, rating=1800) for i in range(5)]
    orders = set()
    for seed in range(30):
        draw = make_draw(entries, SeedingMethod.RATING, random_seed=seed)
        assert draw.seed_of[101] == 1
        assert sorted(draw.seed_of[e] for e in range(102, 107)) == [2, 3, 4, 5, 6]
        assert make_draw(list(reversed(entries)), SeedingMethod.RATING, random_seed=seed) == draw
        orders.add(tuple(sorted(draw.seed_of, key=draw.seed_of.get)))
    assert len(orders) > 10, "equal ratings must be ordered by lot, not by id"


def test_rating_seeding_orders_the_unrated_by_lot():
    entries = [DrawEntry(id=101, rating=1500)] + [DrawEntry(id=102 + i) for i in range(4)]
    tops_of_unrated = set()
    for seed in range(30):
        draw = make_draw(entries, SeedingMethod.RATING, random_seed=seed)
        assert draw.seed_of[101] == 1
        tops_of_unrated.add(entry_seeded(draw, 2))
    assert tops_of_unrated == {102, 103, 104, 105}


def test_rating_seeding_gives_the_byes_to_the_highest_rated():
    entries = [DrawEntry(id=101 + i, rating=1000 + 10 * i) for i in range(6)]  # 106 is the best
    draw = make_draw(entries, SeedingMethod.RATING, random_seed=0)
    with_bye = {m.entry_a for m in first_round(draw) if m.bye_b}
    assert with_bye == {106, 105}


# --- manual seeding ---------------------------------------------------------------------


def test_manual_seeding_follows_the_directors_numbers_whatever_the_ids():
    seeds = {101: 3, 102: 1, 103: 4, 104: 2}
    entries = [DrawEntry(id=i, seed=s) for i, s in seeds.items()]
    draw = make_draw(entries, SeedingMethod.MANUAL, random_seed=9)
    assert draw.seed_of == seeds
    # seed 1 (102) meets seed 4 (103); seed 2 (104) meets seed 3 (101)
    assert [(m.entry_a, m.entry_b) for m in first_round(draw)] == [(102, 103), (104, 101)]


def test_manual_seeding_with_gaps_in_the_numbers_keeps_their_order():
    entries = [DrawEntry(101, seed=10), DrawEntry(102, seed=2), DrawEntry(103, seed=7)]
    assert make_draw(entries, SeedingMethod.MANUAL, random_seed=0).seed_of == {102: 1, 103: 2, 101: 3}


@pytest.mark.parametrize(
    ("seeds", "seeded_count", "message"),
    [
        ([1, 2, None, 4], None, "Manual seeding of 4 players needs a seed number for each of them; only 3 have one"),
        ([None, None, None], None, "only 0 have one"),
        ([1, None, None, None], 2, "Manual seeding of 2 players needs a seed number"),
    ],
)
def test_manual_seeding_refuses_too_few_seed_numbers(seeds, seeded_count, message):
    entries = [DrawEntry(id=101 + i, seed=s) for i, s in enumerate(seeds)]
    with pytest.raises(DrawError, match=message):
        make_draw(entries, SeedingMethod.MANUAL, random_seed=0, seeded_count=seeded_count)


@pytest.mark.parametrize(
    ("seeds", "seeded_count"),
    [([1, 2, 3, 3], None), ([2, 1, 2, None], 2), ([1, 1], None)],
)
def test_manual_seeding_refuses_a_seed_number_given_twice(seeds, seeded_count):
    entries = [DrawEntry(id=101 + i, seed=s) for i, s in enumerate(seeds)]
    duplicate = next(s for s in seeds if seeds.count(s) > 1)
    with pytest.raises(DrawError, match=f"Seed {duplicate} is given to two players"):
        make_draw(entries, SeedingMethod.MANUAL, random_seed=0, seeded_count=seeded_count)


# --- partial seeding: the top k fixed, the rest drawn ----------------------------------


@pytest.mark.parametrize("method", [SeedingMethod.RATING, SeedingMethod.MANUAL])
@pytest.mark.parametrize(("n", "k"), [(8, 2), (12, 4), (13, 1), (20, 8)])
def test_partial_seeding_fixes_the_top_k_places_and_draws_the_rest(method, n, k):
    entries = [DrawEntry(id=101 + i, rating=3000 - i, seed=(i + 1 if i < k else None)) for i in range(n)]
    top = [101 + i for i in range(k)]
    rest = {101 + i for i in range(k, n)}
    top_places: set[tuple] = set()
    rest_places: set[tuple] = set()
    for random_seed in range(25):
        draw = make_draw(entries, method, random_seed=random_seed, seeded_count=k)
        assert_structure(draw, [e.id for e in entries])
        assert [draw.seed_of[e] for e in top] == list(range(1, k + 1))
        assert {draw.seed_of[e] for e in rest} == set(range(k + 1, n + 1))
        places = slot_seeds_by_entry(draw)
        top_places.add(tuple(places.index(e) for e in top))
        rest_places.add(tuple(places.index(e) for e in sorted(rest)))
    assert len(top_places) == 1, "the seeded players' places never change with the random seed"
    assert len(rest_places) > 1, "the unseeded players are drawn by lot"


def test_partial_seeding_puts_the_top_seeds_where_the_standard_order_wants_them():
    entries = [DrawEntry(id=101 + i, rating=3000 - i) for i in range(16)]
    draw = make_draw(entries, SeedingMethod.RATING, random_seed=4, seeded_count=4)
    places = slot_seeds_by_entry(draw)
    order = seeding_order(16)
    for s in (1, 2, 3, 4):
        assert places.index(100 + s) == order.index(s)


def test_partial_rating_seeding_draws_the_rest_regardless_of_their_rating():
    entries = [DrawEntry(id=101 + i, rating=3000 - i) for i in range(8)]
    fifths = {entry_seeded(make_draw(entries, SeedingMethod.RATING, seed, seeded_count=4), 5) for seed in range(40)}
    assert fifths == {105, 106, 107, 108}


def test_seeding_nobody_is_a_random_draw():
    entries = [DrawEntry(id=101 + i, rating=3000 - i) for i in range(8)]
    tops = {entry_seeded(make_draw(entries, SeedingMethod.RATING, seed, seeded_count=0)) for seed in range(40)}
    assert len(tops) > 1


@pytest.mark.parametrize("seeded_count", [-1, 6, 100])
def test_seeding_more_players_than_there_are_or_a_negative_number_is_refused(seeded_count):
    with pytest.raises(DrawError, match=f"Cannot seed {seeded_count} players out of 5"):
        make_draw(plain_entries(5), SeedingMethod.RATING, random_seed=0, seeded_count=seeded_count)


def test_order_entries_returns_ids_from_seed_1_down():
    entries = [DrawEntry(id=101, rating=1), DrawEntry(id=102, rating=3), DrawEntry(id=103, rating=2)]
    assert order_entries(entries, SeedingMethod.RATING, None, random.Random(0)) == [102, 103, 101]


# --- third-place match ------------------------------------------------------------------


@pytest.mark.parametrize("n", [3, 4, 5, 8, 13, 16])
def test_the_third_place_match_takes_the_two_semi_final_losers(n):
    draw = manual_draw(n, third_place=True)
    semi = draw.flight_rounds(MAIN) - 1
    third = MatchKey(THIRD_PLACE, 1, 0)
    assert spec(draw, MAIN, semi, 0).loser_to == Route(third, "a")
    assert spec(draw, MAIN, semi, 1).loser_to == Route(third, "b")
    others = [m for m in draw.matches if m.key.flight == MAIN and m.key.round != semi]
    assert all(m.loser_to is None for m in others)
    third_spec = spec(draw, THIRD_PLACE, 1, 0)
    assert third_spec.winner_to is None and third_spec.loser_to is None
    assert third_spec.entry_a is None and third_spec.entry_b is None


def test_without_a_third_place_match_nobody_is_routed_after_losing():
    draw = manual_draw(16)
    assert all(m.loser_to is None for m in draw.matches)
    assert all(m.key.flight == MAIN for m in draw.matches)


def test_the_semi_final_losers_play_for_third_place_when_the_favourites_win():
    draw = manual_draw(8, third_place=True)
    bracket, _ = play_favourites(draw)
    third = bracket[MatchKey(THIRD_PLACE, 1, 0)]
    assert (third.a.entry, third.b.entry) == (104, 103)  # seed 4 lost to 1 above, seed 3 lost to 2 below
    assert third.ready


def test_the_third_place_match_with_3_players_gives_the_semi_final_loser_a_bye():
    draw = manual_draw(3, third_place=True)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    bracket.decide(MatchKey(MAIN, 1, 1), "b")  # seed 3 beats seed 2
    third = bracket[MatchKey(THIRD_PLACE, 1, 0)]
    assert third.a.bye and third.b.entry == 102
    assert third.decided_by == DecidedBy.BYE and third.winner_entry == 102


# --- consolation flight -----------------------------------------------------------------


def test_consolation_takes_every_first_round_loser_in_a_full_bracket_of_8():
    draw = manual_draw(8, consolation=True)
    for p in range(4):
        assert spec(draw, MAIN, 1, p).loser_to == Route(MatchKey(CONSOLATION, 1, p // 2), "ab"[p % 2])
    assert all(m.loser_to is None for m in draw.matches if m.key.round > 1 or m.key.flight != MAIN)
    consolation = [m.key for m in draw.matches if m.key.flight == CONSOLATION]
    assert consolation == [MatchKey(CONSOLATION, 1, 0), MatchKey(CONSOLATION, 1, 1), MatchKey(CONSOLATION, 2, 0)]
    assert spec(draw, CONSOLATION, 1, 1).winner_to == Route(MatchKey(CONSOLATION, 2, 0), "b")


def test_consolation_takes_a_player_with_a_bye_who_loses_in_round_2_but_not_their_opponent():
    # 6 players: seeds 1 and 2 have byes. Round 2, match 0 is seed 1 against the
    # winner of 4-5, who has already lost... nothing: they won round 1.
    draw = manual_draw(6, consolation=True)
    r2 = spec(draw, MAIN, 2, 0)
    assert r2.loser_to == Route(MatchKey(CONSOLATION, 1, 0), "a")
    assert r2.loser_only_from == "a"
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    bracket.decide(MatchKey(MAIN, 1, 1), "a")  # seed 4 beats seed 5: 105 goes to the consolation
    consolation = bracket[MatchKey(CONSOLATION, 1, 0)]
    assert consolation.b.entry == 105
    bracket.decide(MatchKey(MAIN, 2, 0), "b")  # seed 4 beats seed 1, who had a bye
    assert consolation.a.entry == 101, "the seed with a bye lost their first match"
    assert consolation.ready


def test_a_player_who_won_round_1_and_loses_round_2_does_not_go_to_the_consolation():
    draw = manual_draw(6, consolation=True)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    bracket.decide(MatchKey(MAIN, 1, 1), "a")  # seed 4 beats seed 5
    bracket.decide(MatchKey(MAIN, 2, 0), "a")  # seed 1 beats seed 4
    consolation = bracket[MatchKey(CONSOLATION, 1, 0)]
    assert consolation.a.entry is None and consolation.a.bye
    assert 104 not in {
        e for m in bracket.matches.values() if m.key.flight == CONSOLATION for e in (m.a.entry, m.b.entry)
    }
    # the only player left in that consolation match goes on by a bye
    assert consolation.decided_by == DecidedBy.BYE and consolation.winner_entry == 105


def test_consolation_when_both_players_of_a_round_2_match_had_byes():
    # 5 players: seeds 2 and 3 both have byes and meet in round 2 (match 1).
    draw = manual_draw(5, consolation=True)
    r2 = spec(draw, MAIN, 2, 1)
    assert r2.loser_to == Route(MatchKey(CONSOLATION, 1, 1), "a")
    assert r2.loser_only_from is None
    assert spec(draw, CONSOLATION, 1, 1).bye_b
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    bracket.decide(MatchKey(MAIN, 2, 1), "a")  # seed 2 beats seed 3
    assert bracket[MatchKey(CONSOLATION, 1, 1)].a.entry == 103


def test_with_a_third_place_match_a_semi_final_loser_with_a_bye_plays_for_third_not_in_the_consolation():
    # In a bracket of 8, round 2 is the semi-final.
    draw = manual_draw(6, third_place=True, consolation=True)
    r2 = spec(draw, MAIN, 2, 0)
    assert r2.loser_to == Route(MatchKey(THIRD_PLACE, 1, 0), "a")
    assert spec(draw, CONSOLATION, 1, 0).bye_a
    assert spec(draw, CONSOLATION, 1, 1).bye_a


def consolation_entrants(bracket: Bracket) -> set[int]:
    return {e for m in bracket.matches.values() if m.key.flight == CONSOLATION for e in (m.a.entry, m.b.entry) if e}


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(min_value=5, max_value=70),
    third_place=st.booleans(),
    random_seed=st.integers(min_value=0, max_value=2**32),
    choices=st.randoms(use_true_random=False),
)
def test_the_consolation_takes_exactly_the_players_who_lost_their_first_match(n, third_place, random_seed, choices):
    draw = make_draw(plain_entries(n), SeedingMethod.RANDOM, random_seed, third_place=third_place, consolation=True)
    bracket = Bracket.from_draw(draw.matches)
    bracket.settle()
    while ready := [m for m in bracket.matches.values() if m.ready]:
        bracket.decide(ready[0].key, choices.choice("ab"))
    assert bracket.is_complete()
    semi = draw.flight_rounds(MAIN) - 1
    played = sorted(
        (m for m in bracket.matches.values() if m.key.flight == MAIN and m.decided_by == DecidedBy.RESULT),
        key=lambda m: m.key.round,
    )
    expected = set()
    for entry in draw.seed_of:
        first = next(m for m in played if m.side_of(entry))
        if first.winner_entry != entry and not (third_place and first.key.round == semi):
            expected.add(entry)
    assert consolation_entrants(bracket) == expected


# --- errors -----------------------------------------------------------------------------


@pytest.mark.parametrize("n", [0, 1])
def test_a_draw_needs_at_least_two_players(n):
    with pytest.raises(DrawError, match="at least 2 players"):
        make_draw(plain_entries(n), SeedingMethod.RANDOM, random_seed=0)


def test_a_third_place_match_needs_at_least_3_players():
    with pytest.raises(DrawError, match="third place needs at least 3 players"):
        make_draw(plain_entries(2), SeedingMethod.RANDOM, random_seed=0, third_place=True)
    assert spec(make_draw(plain_entries(3), SeedingMethod.RANDOM, 0, third_place=True), THIRD_PLACE, 1, 0)


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_consolation_flight_needs_at_least_5_players(n):
    with pytest.raises(DrawError, match="consolation flight needs at least 5 players"):
        make_draw(plain_entries(n), SeedingMethod.RANDOM, random_seed=0, consolation=True)


def test_a_consolation_flight_with_5_players_is_drawn():
    draw = make_draw(plain_entries(5), SeedingMethod.RANDOM, random_seed=0, consolation=True)
    assert draw.flight_rounds(CONSOLATION) == 2


# --- the invariants, for any field and any seed ----------------------------------------


@settings(max_examples=150, deadline=None)
@given(
    n=st.integers(min_value=2, max_value=300),
    random_seed=st.integers(min_value=0, max_value=2**63),
    method=st.sampled_from([SeedingMethod.RANDOM, SeedingMethod.RATING]),
    third_place=st.booleans(),
    consolation=st.booleans(),
    data=st.data(),
)
def test_any_draw_keeps_the_structure_invariants(n, random_seed, method, third_place, consolation, data):
    third_place = third_place and n >= 3
    consolation = consolation and n >= 5
    ratings = data.draw(st.lists(st.none() | st.integers(0, 3000), min_size=n, max_size=n))
    entries = [DrawEntry(id=1000 + i, rating=r) for i, r in enumerate(ratings)]
    draw = make_draw(entries, method, random_seed, third_place=third_place, consolation=consolation)
    assert_structure(draw, [e.id for e in entries])
    assert draw.random_seed == random_seed
    assert draw == make_draw(
        list(reversed(entries)), method, random_seed, third_place=third_place, consolation=consolation
    )
    if method == SeedingMethod.RATING:
        by_seed = sorted(entries, key=lambda e: draw.seed_of[e.id])
        keys = [(e.rating is None, -(e.rating or 0)) for e in by_seed]
        assert keys == sorted(keys), "rating seeding is ordered by rating, the unrated last"
    assert (draw.flight_rounds(THIRD_PLACE) == 1) == third_place
    assert draw.flight_rounds(CONSOLATION) == (draw.flight_rounds(MAIN) - 1 if consolation else 0)
