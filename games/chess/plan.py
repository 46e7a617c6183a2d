"""A chess round's settings and the mini-match plan they give. Pure functions.

A round plays ``games`` games per match (the director's plan per round, e.g. 2, 2, 4)
on the ``time_control`` (PGN ``TimeControl`` form, in seconds: ``5400+30`` is 90
minutes + 30 seconds a move from move 1; ``40/5400:1800+30`` adds 30 minutes after
move 40), then, while the match is level, the ``tiebreaks`` stages
(``games.chess.minimatch``). ``clock``: whether the table clock is used.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from clocks.controls import ClockError, format_pgn, parse_pgn
from games.chess import minimatch
from games.text import RuleError, gettext_noop

DEFAULT_GAMES = 2
DEFAULT_TIME_CONTROL = "5400+30"
DEFAULT_TIEBREAKS = "2x1500+10; 2x600+10; 2x300+3; armageddon 300+3 v 240+3 @61"
CLOCK_CHOICES = ("none", "allowed", "required")
DEFAULT_CLOCK = "allowed"
FIELDS = ("games", "time_control", "tiebreaks", "clock")


def parse_time_control(text: str) -> str:
    """A match game's time control in the PGN form, normalised; refused if it cannot be."""
    try:
        control = parse_pgn(str(text).strip())
    except ClockError as error:
        raise RuleError(gettext_noop("Time control: %(problem)s"), problem=error) from None
    if control is None:
        raise RuleError(gettext_noop("A match game needs a time control, such as 5400+30 (90 min + 30 s a move)."))
    written = format_pgn(control)
    if written is None:
        raise RuleError(gettext_noop("Time control %(text).40r cannot be written as a PGN time control."), text=text)
    return written


NO_TIEBREAKS = ("-", "none", "žádné")


def parse_tiebreaks(text: str) -> str:
    """The tie-break stages as text, normalised (empty, "-" or "none": no tie-breaks)."""
    text = str(text).strip()
    if text.lower() in NO_TIEBREAKS:
        return ""
    return minimatch.format_tiebreaks(minimatch.parse_tiebreaks(text))


def clean_round_settings(raw: Mapping[str, Any]) -> dict[str, Any]:
    unknown = set(raw) - set(FIELDS)
    if unknown:
        raise RuleError(gettext_noop("Unknown round setting(s): %(names)s."), names=", ".join(sorted(unknown)))
    games = raw.get("games", DEFAULT_GAMES)
    if isinstance(games, str) and games.strip().isdecimal() and len(games.strip()) < 4:
        games = int(games.strip())
    if isinstance(games, bool) or not isinstance(games, int) or not 1 <= games <= minimatch.MAX_GAMES:
        raise RuleError(
            gettext_noop("The games per match are a whole number from 1 to %(max)d, not %(value).40r."),
            max=minimatch.MAX_GAMES,
            value=games,
        )
    clock = raw.get("clock", DEFAULT_CLOCK)
    if clock not in CLOCK_CHOICES:
        raise RuleError(
            gettext_noop("The clock setting is one of %(choices)s, not %(value).40r."),
            choices=", ".join(CLOCK_CHOICES),
            value=clock,
        )
    return {
        "games": games,
        "time_control": parse_time_control(raw.get("time_control", DEFAULT_TIME_CONTROL)),
        "tiebreaks": parse_tiebreaks(raw.get("tiebreaks", DEFAULT_TIEBREAKS)),
        "clock": clock,
    }


def plan_of(settings: Mapping[str, Any]) -> minimatch.Plan:
    """The mini-match plan of a round's (clean) settings."""
    clean = clean_round_settings(settings)
    control = parse_pgn(clean["time_control"])
    assert control is not None
    return minimatch.make_plan(clean["games"], control, minimatch.parse_tiebreaks(clean["tiebreaks"]))
