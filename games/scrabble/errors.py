"""The one error type of the Scrabble rule core.

Kept apart so that ``tiles``, ``board`` and ``placement`` can all raise it without
importing each other; ``games.scrabble.placement`` re-exports it.
"""

from __future__ import annotations

from games.text import RuleError


class PlacementError(RuleError):
    """A square, position, word, letter or rack that cannot be: the message says what
    was wrong and what to type instead."""
