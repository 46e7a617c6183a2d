"""A finished (or running) match as a plain-text match record in the style of the
JellyFish / gnubg ``.mat`` format. Pure functions.

The tournament director records each game's result, not its moves, so every game
holds only its score line and the ``Wins N points`` line, and the header says so.
"""

from __future__ import annotations

from dataclasses import dataclass

from games.backgammon.match import MatchState

LEFT_COLUMN = 33


@dataclass(frozen=True)
class MatchInfo:
    event: str
    round: str
    site: str
    date: str  # "2026.11.22"
    player_a: str
    player_b: str


def match_record(info: MatchInfo, state: MatchState) -> str:
    lines = [
        f'; [Event "{_clean(info.event)}"]',
        f'; [Round "{_clean(info.round)}"]',
        f'; [Site "{_clean(info.site)}"]',
        f'; [EventDate "{info.date}"]',
        f'; [Player 1 "{_clean(info.player_a)}"]',
        f'; [Player 2 "{_clean(info.player_b)}"]',
        f'; [Crawford "{"On" if state.crawford_rule else "Off"}"]',
        '; [Note "Moves are not recorded: each game gives its result only (winner and points)."]',
        "",
        f" {state.length} point match",
        "",
    ]
    for line in state.lines:
        score_a, score_b = line.score_before
        left = f" {_clean(info.player_a)} : {score_a}"
        lines.append(f" Game {line.number}")
        lines.append(f"{left:<{LEFT_COLUMN}}{_clean(info.player_b)} : {score_b}")
        wins = f"Wins {line.points} point{'s' if line.points != 1 else ''}"
        if state.over and line is state.lines[-1]:
            wins += " and the match"
        indent = 6 if line.game.winner == "a" else LEFT_COLUMN + 1
        lines.append(" " * indent + wins)
        lines.append("")
    return "\n".join(lines) + "\n"


def _clean(text: str) -> str:
    """Names and titles on one line, without the quotes that close a header value."""
    return " ".join(str(text).replace('"', "'").split())
