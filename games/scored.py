"""The generic scored game, as pure functions: every game has two scores, a match is
best of K games.

It is the simplest game the knockout can run: the players report each game's score
and the first to win more than half of the K games wins the match. Backgammon,
Scrabble and chess bring their own rules through the same registry seam.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Literal

from games.text import RuleError, gettext_noop

Side = Literal["a", "b"]

DEFAULT_BEST_OF = 3
MAX_BEST_OF = 99
MAX_SCORE = 100_000


@dataclass(frozen=True)
class MatchDecision:
    """A whole match's result as the rules read it."""

    winner: Side
    score_a: float  # games won by the player in slot a
    score_b: float
    summary: str  # "2–1 (21–15, 18–21, 21–10)"
    result: dict[str, Any]  # the result in its canonical form, as stored


def clean_round_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    """Validate a round's settings: ``{"best_of": K}`` with K odd, 1 to 99."""
    unknown = set(raw) - {"best_of"}
    if unknown:
        raise RuleError(gettext_noop("Unknown round setting(s): %(names)s."), names=", ".join(sorted(unknown)))
    best_of = raw.get("best_of", DEFAULT_BEST_OF)
    if isinstance(best_of, bool) or not isinstance(best_of, int):
        try:
            best_of = int(str(best_of).strip())
        except ValueError:
            raise RuleError(gettext_noop("Best of must be a whole number, not %(value)r."), value=best_of) from None
    if not 1 <= best_of <= MAX_BEST_OF:
        raise RuleError(
            gettext_noop("Best of must be between 1 and %(max)d, not %(value)d."), max=MAX_BEST_OF, value=best_of
        )
    if best_of % 2 == 0:
        raise RuleError(
            gettext_noop("Best of must be an odd number (1, 3, 5, …) so that a match cannot end level, not %(value)d."),
            value=best_of,
        )
    return {"best_of": best_of}


def decide_match(result: Mapping[str, Any], round_settings: Mapping[str, Any]) -> MatchDecision:
    """Read ``{"games": [[score_a, score_b], ...]}`` as a best-of-K match."""
    best_of = clean_round_settings(round_settings)["best_of"]
    to_win = best_of // 2 + 1
    games = result.get("games") if isinstance(result, Mapping) else None
    if not isinstance(games, list) or not games:
        raise RuleError(
            gettext_noop('Enter the score of every game played, e.g. {"games": [[21, 15], [18, 21], [21, 10]]}.')
        )
    unknown = set(result) - {"games"}
    if unknown:
        raise RuleError(gettext_noop("Unknown result field(s): %(names)s."), names=", ".join(sorted(unknown)))

    clean: list[list[int]] = []
    wins = {"a": 0, "b": 0}
    for number, game in enumerate(games, start=1):
        if wins["a"] == to_win or wins["b"] == to_win:
            raise RuleError(
                gettext_noop(
                    "The match was over after game %(number)d (%(a)d–%(b)d, best of %(best_of)d): "
                    "remove the games after it."
                ),
                number=number - 1,
                a=wins["a"],
                b=wins["b"],
                best_of=best_of,
            )
        score_a, score_b = _game_scores(number, game)
        if score_a == score_b:
            raise RuleError(
                gettext_noop(
                    "Game %(number)d ends level (%(a)d–%(b)d); every game must have a winner — "
                    "enter the final score after the tie-break."
                ),
                number=number,
                a=score_a,
                b=score_b,
            )
        wins["a" if score_a > score_b else "b"] += 1
        clean.append([score_a, score_b])
    if max(wins.values()) < to_win:
        raise RuleError(
            gettext_noop(
                "Nobody has won %(to_win)d games yet (%(a)d–%(b)d, best of %(best_of)d): "
                "enter every game up to the one that decided the match."
            ),
            to_win=to_win,
            a=wins["a"],
            b=wins["b"],
            best_of=best_of,
        )
    winner: Side = "a" if wins["a"] > wins["b"] else "b"
    games_text = ", ".join(f"{a}–{b}" for a, b in clean)
    return MatchDecision(
        winner=winner,
        score_a=wins["a"],
        score_b=wins["b"],
        summary=f"{wins['a']}–{wins['b']} ({games_text})",
        result={"games": clean},
    )


def result_from_form(fields: Mapping[str, str], round_settings: Mapping[str, Any]) -> dict[str, Any]:
    """Read a result-entry form (``game-N-a`` / ``game-N-b`` inputs) into a result.

    Games left blank on both sides were not played; the rules check the rest.
    """
    best_of = clean_round_settings(round_settings)["best_of"]
    games: list[list[str]] = []
    for number in range(1, best_of + 1):
        score_a = str(fields.get(f"game-{number}-a", "") or "").strip()
        score_b = str(fields.get(f"game-{number}-b", "") or "").strip()
        if not score_a and not score_b:
            continue
        if not score_a or not score_b:
            raise RuleError(gettext_noop("Game %(number)d: enter both scores."), number=number)
        games.append([score_a, score_b])
    return {"games": games}


def _game_scores(number: int, game: Any) -> tuple[int, int]:
    if not isinstance(game, (list, tuple)) or len(game) != 2:
        raise RuleError(
            gettext_noop("Game %(number)d must be a pair of scores like [21, 15], not %(value).40r."),
            number=number,
            value=game,
        )
    scores = []
    for score in game:
        if isinstance(score, bool) or not isinstance(score, int):
            text = score.strip() if isinstance(score, str) else ""
            if not text.isdecimal():  # not isdigit(): int() refuses "²"
                raise RuleError(
                    gettext_noop("Game %(number)d: a score must be a whole number, not %(value).40r."),
                    number=number,
                    value=score,
                )
            if len(text) > 100:  # int() refuses thousands of digits; no score is that long
                raise RuleError(
                    gettext_noop("Game %(number)d: a score must be between 0 and %(max)d."),
                    number=number,
                    max=MAX_SCORE,
                )
            score = int(text)
        if not 0 <= score <= MAX_SCORE:
            raise RuleError(
                gettext_noop("Game %(number)d: a score must be between 0 and %(max)d, not %(value)d."),
                number=number,
                max=MAX_SCORE,
                value=score,
            )
        scores.append(score)
    return scores[0], scores[1]
