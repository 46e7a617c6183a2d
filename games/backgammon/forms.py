"""The score sheet's buttons as a game: winner, cube, and one outcome button."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.text import RuleError, gettext_noop

# outcome button -> (kind, ending)
OUTCOMES = {
    "single": ("single", "played"),
    "gammon": ("gammon", "played"),
    "backgammon": ("backgammon", "played"),
    "dropped": ("single", "dropped"),
    "resigned-single": ("single", "resigned"),
    "resigned-gammon": ("gammon", "resigned"),
    "resigned-backgammon": ("backgammon", "resigned"),
}


def game_from_form(fields: Mapping[str, Any]) -> dict[str, Any]:
    winner = str(fields.get("winner", "") or "")
    if winner not in ("a", "b"):
        raise RuleError(gettext_noop("Tap the winner of the game first."))
    outcome = str(fields.get("outcome", "") or "")
    if outcome not in OUTCOMES:
        raise RuleError(gettext_noop("Tap how the game ended (single, gammon, backgammon, dropped or resigned)."))
    cube_text = str(fields.get("cube", "1") or "1").strip()
    cube: Any = int(cube_text) if cube_text.isdecimal() and len(cube_text) < 4 else cube_text
    kind, ending = OUTCOMES[outcome]
    return {"winner": winner, "kind": kind, "cube": cube, "ending": ending}
