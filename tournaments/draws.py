"""The knockout draw ("pavouk") as pure functions: seeding, byes and the bracket's shape.

SPEC §2. Nothing here touches Django: entries come in as plain values, the draw goes
out as plain values (which entry sits in which first-round slot, and where the winner
and the loser of every match go next). ``tournaments.bracket`` then plays results
through that shape.

Conventions
- Seeds are numbered from 1 (the favourite). In a bracket of ``size`` places, the
  "seeds" above the number of entries are byes, so the top seeds meet the byes.
- Flights: ``main`` (the knockout itself), ``third_place`` (semi-final losers, one
  match) and ``consolation`` (players who lose their first match).
- Matches are keyed by (flight, round, position); rounds count from 1, positions
  from 0, top of the bracket first. Slot ``a`` is the upper slot of a match.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Literal

from games.text import TextError, gettext_noop

Side = Literal["a", "b"]

MAIN = "main"
THIRD_PLACE = "third_place"
CONSOLATION = "consolation"

MIN_ENTRIES = 2
MIN_BRACKET_FOR_THIRD_PLACE = 4
MIN_BRACKET_FOR_CONSOLATION = 8


class DrawError(TextError):
    """The draw cannot be made from this input; the message says why, for a person."""


class SeedingMethod(StrEnum):
    RATING = "rating"  # highest rating first; equal ratings are drawn by lot
    MANUAL = "manual"  # the director's order (each entry's seed number)
    RANDOM = "random"  # everybody drawn by lot ("losování")


@dataclass(frozen=True)
class DrawEntry:
    """An entry as the draw sees it."""

    id: int
    rating: int | None = None
    seed: int | None = None  # the director's manual seed, when given


@dataclass(frozen=True, order=True)
class MatchKey:
    flight: str
    round: int
    position: int


@dataclass(frozen=True)
class Route:
    """Where a player goes after a match: the slot of another match."""

    to: MatchKey
    slot: Side


@dataclass(frozen=True)
class MatchSpec:
    """One match of the drawn bracket, as created by the draw."""

    key: MatchKey
    entry_a: int | None = None
    entry_b: int | None = None
    bye_a: bool = False
    bye_b: bool = False
    winner_to: Route | None = None
    loser_to: Route | None = None
    # The loser goes on only if they played this match from this slot (a player who
    # had a first-round bye and then loses their first match goes to the consolation
    # flight; the other player of that match has lost before). Otherwise the target
    # slot becomes a bye.
    loser_only_from: Side | None = None


@dataclass(frozen=True)
class Draw:
    bracket_size: int
    random_seed: int
    seed_of: dict[int, int]  # entry id -> seed number (1 = top)
    matches: tuple[MatchSpec, ...] = field(default_factory=tuple)

    def flight_rounds(self, flight: str) -> int:
        return max((m.key.round for m in self.matches if m.key.flight == flight), default=0)


def bracket_size(entries: int) -> int:
    """The next power of two that holds ``entries`` players (at least 2)."""
    if entries < MIN_ENTRIES:
        raise DrawError(
            gettext_noop("A knockout needs at least %(min)d players; there are %(count)d."),
            min=MIN_ENTRIES,
            count=entries,
        )
    size = 1
    while size < entries:
        size *= 2
    return size


def seeding_order(size: int) -> list[int]:
    """Seeds in bracket order, top to bottom: 8 -> 1, 8, 4, 5, 2, 7, 3, 6.

    Built recursively: each seed s of the half-size order is followed by its
    opponent ``size + 1 - s``, so that favourites meet only as late as possible.
    """
    if size < 1 or size & (size - 1):
        raise DrawError(gettext_noop("A bracket has a power-of-two number of places, not %(size)d."), size=size)
    order = [1]
    while len(order) < size:
        mirror = 2 * len(order) + 1
        order = [seed for s in order for seed in (s, mirror - s)]
    return order


def order_entries(
    entries: Sequence[DrawEntry],
    method: SeedingMethod,
    seeded_count: int | None,
    rng: random.Random,
) -> list[int]:
    """Entry ids in seed order (index 0 is seed 1).

    ``seeded_count`` None seeds everybody by the method; k seeds only the top k and
    draws the rest by lot into the remaining seed numbers. A random draw seeds nobody.
    """
    pool = sorted(entries, key=lambda e: e.id)  # the same input order whatever the caller's
    if len({e.id for e in pool}) != len(pool):
        raise DrawError(gettext_noop("The same entry appears twice in the draw."))
    if method == SeedingMethod.RANDOM:
        k = 0
    else:
        k = len(pool) if seeded_count is None else seeded_count
        if not 0 <= k <= len(pool):
            raise DrawError(gettext_noop("Cannot seed %(k)d players out of %(count)d."), k=k, count=len(pool))

    if method == SeedingMethod.MANUAL:
        with_seed = sorted((e for e in pool if e.seed is not None), key=lambda e: e.seed or 0)
        if len(with_seed) < k:
            raise DrawError(
                gettext_noop(
                    "Manual seeding of %(k)d players needs a seed number for each of them; only %(count)d have one."
                ),
                k=k,
                count=len(with_seed),
            )
        seen: set[int] = set()
        for e in with_seed:
            if e.seed is not None and e.seed in seen:
                raise DrawError(gettext_noop("Seed %(seed)d is given to two players."), seed=e.seed)
            if e.seed is not None:
                seen.add(e.seed)
        seeded = with_seed[:k]
    elif method == SeedingMethod.RATING:
        # Equal ratings (and the unrated, who come last) are ordered by lot.
        tie_break = {e.id: rng.random() for e in pool}
        by_rating = sorted(
            pool,
            key=lambda e: (e.rating is None, -(e.rating or 0), tie_break[e.id]),
        )
        seeded = by_rating[:k]
    else:
        seeded = []

    seeded_ids = {e.id for e in seeded}
    drawn = [e.id for e in pool if e.id not in seeded_ids]
    rng.shuffle(drawn)
    return [e.id for e in seeded] + drawn


def make_draw(
    entries: Iterable[DrawEntry],
    method: SeedingMethod,
    random_seed: int,
    seeded_count: int | None = None,
    third_place: bool = False,
    consolation: bool = False,
) -> Draw:
    """The whole bracket for these entries; the same input and seed give the same draw."""
    entries = list(entries)
    size = bracket_size(len(entries))
    if third_place and size < MIN_BRACKET_FOR_THIRD_PLACE:
        raise DrawError(gettext_noop("A match for third place needs at least 3 players."))
    if consolation and size < MIN_BRACKET_FOR_CONSOLATION:
        raise DrawError(gettext_noop("A consolation flight needs at least 5 players (a bracket of 8)."))

    rng = random.Random(random_seed)
    in_seed_order = order_entries(entries, method, seeded_count, rng)
    seed_of = {entry_id: i + 1 for i, entry_id in enumerate(in_seed_order)}
    n = len(in_seed_order)

    main_rounds = size.bit_length() - 1
    order = seeding_order(size)
    specs: dict[MatchKey, dict] = {}

    def entry_for(seed: int) -> int | None:
        return in_seed_order[seed - 1] if seed <= n else None

    for r in range(1, main_rounds + 1):
        for p in range(size >> r):
            key = MatchKey(MAIN, r, p)
            spec: dict = {"key": key}
            if r < main_rounds:
                spec["winner_to"] = Route(MatchKey(MAIN, r + 1, p // 2), _slot(p))
            if r == 1:
                seed_a, seed_b = order[2 * p], order[2 * p + 1]
                spec["entry_a"], spec["entry_b"] = entry_for(seed_a), entry_for(seed_b)
                spec["bye_a"], spec["bye_b"] = seed_a > n, seed_b > n
            specs[key] = spec

    first_round_bye = [specs[MatchKey(MAIN, 1, p)]["bye_b"] for p in range(size // 2)]
    semi_final_round = main_rounds - 1

    if third_place:
        key = MatchKey(THIRD_PLACE, 1, 0)
        specs[key] = {"key": key}
        for p in (0, 1):
            specs[MatchKey(MAIN, semi_final_round, p)]["loser_to"] = Route(key, _slot(p))

    if consolation:
        consolation_size = size // 2
        consolation_rounds = consolation_size.bit_length() - 1
        for r in range(1, consolation_rounds + 1):
            for p in range(consolation_size >> r):
                key = MatchKey(CONSOLATION, r, p)
                spec = {"key": key}
                if r < consolation_rounds:
                    spec["winner_to"] = Route(MatchKey(CONSOLATION, r + 1, p // 2), _slot(p))
                specs[key] = spec
        for p in range(size // 2):
            target = Route(MatchKey(CONSOLATION, 1, p // 2), _slot(p))
            if not first_round_bye[p]:
                specs[MatchKey(MAIN, 1, p)]["loser_to"] = target
        for q in range(size // 4):
            second_round = specs[MatchKey(MAIN, 2, q)]
            upper_bye, lower_bye = first_round_bye[2 * q], first_round_bye[2 * q + 1]
            if not (upper_bye or lower_bye):
                continue
            consolation_first = specs[MatchKey(CONSOLATION, 1, q)]
            if "loser_to" in second_round:
                # Round 2 is the semi-final and its loser plays for third place: a
                # player with a bye who loses there is not sent to the consolation.
                if upper_bye:
                    consolation_first["bye_a"] = True
                if lower_bye:
                    consolation_first["bye_b"] = True
            elif upper_bye and lower_bye:
                # Both players of this round-2 match had a bye: its loser is always
                # losing a first match.
                second_round["loser_to"] = Route(consolation_first["key"], "a")
                consolation_first["bye_b"] = True
            else:
                bye_side: Side = "a" if upper_bye else "b"
                second_round["loser_to"] = Route(consolation_first["key"], bye_side)
                second_round["loser_only_from"] = bye_side

    matches = tuple(MatchSpec(**specs[key]) for key in sorted(specs, key=_bracket_sort_key))
    return Draw(bracket_size=size, random_seed=random_seed, seed_of=seed_of, matches=matches)


FLIGHT_ORDER = {MAIN: 0, THIRD_PLACE: 1, CONSOLATION: 2}


def _bracket_sort_key(key: MatchKey) -> tuple[int, int, int]:
    return (FLIGHT_ORDER[key.flight], key.round, key.position)


def _slot(position: int) -> Side:
    return "a" if position % 2 == 0 else "b"
