"""The chess sheet's form as a game: the result button, how the game ended, and what
the players may add of the board (the final position, the moves, whose flag fell)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.text import RuleError, gettext_noop

OPTIONAL = ("termination", "fen", "moves", "flagged")


def game_from_form(fields: Mapping[str, Any]) -> dict[str, Any]:
    result = str(fields.get("result", "") or "")
    if not result:
        raise RuleError(gettext_noop("Tap the result of the game: 1–0, ½–½ or 0–1."))
    data: dict[str, Any] = {"result": result}
    for name in OPTIONAL:
        value = str(fields.get(name, "") or "").strip()
        if value:
            data[name] = value
    if fields.get("both_flags"):
        data["both_flags"] = True
    return data
