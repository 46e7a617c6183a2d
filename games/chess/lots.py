"""Colour lots of a chess mini-match, reproducible from the draw's recorded random seed.
Pure functions.

White in game 1 is drawn by lot, and so is White in Armageddon (SPEC §5). The system
draws both from the tournament's recorded random seed and the match's place in the
bracket: anyone can repeat the lot, and it is fixed before the first game is played
(no page has to "draw" anything). A director who draws the colours at the board
records that lot instead, and it counts.
"""

from __future__ import annotations

import hashlib
from typing import Literal

Side = Literal["a", "b"]
Purpose = Literal["first_game", "armageddon"]
PURPOSES: tuple[Purpose, Purpose] = ("first_game", "armageddon")


def colour_lot(random_seed: int, flight: str, round_number: int, position: int, purpose: Purpose) -> Side:
    """The side that has White: the lowest bit of SHA-256 over the seed, the match's
    place in the bracket and the lot's purpose."""
    text = f"{random_seed}:{flight}:{round_number}:{position}:{purpose}"
    return "a" if hashlib.sha256(text.encode()).digest()[0] % 2 == 0 else "b"
