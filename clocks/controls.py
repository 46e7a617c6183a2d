"""Time controls (SPEC §6) as plain values, and their PGN ``TimeControl`` form.

Pure Python: no Django. All durations are whole milliseconds (``int``) so that the
arithmetic of a clock is exact; the constructors take seconds as people write them.

A control is one of:

- a **per-move countdown** (Scrabble: 2 minutes for every move; nothing carries over);
- **periods** of play: sudden death (one period for the rest of the game), or several
  (``40 moves in 90 min, then 30 min``; a last period with a move count repeats), each
  with its own **Fischer increment** (added after every move that beat the flag, from
  move ``increment_from_move``, no cap);
- optionally a **delay**: simple (US) delay, where the clock waits before it counts and
  time never grows, or Bronstein delay, which gives back min(time used, delay) after
  the move;
- a **sandclock** (hourglass): the time one side uses flows to the other.

The backgammon match clock is a reserve of minutes per match point with a simple
delay per move (``backgammon_match_clock``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import StrEnum

from games.text import RuleError, gettext_noop

SECOND = 1000
MINUTE = 60 * SECOND
MAX_DURATION = 24 * 3600 * SECOND  # no period, increment or delay is longer than a day
MAX_MOVES = 500


class ClockError(RuleError):
    """A time control or clock event that cannot be: the message says what is wrong."""


class Delay(StrEnum):
    NONE = "none"
    SIMPLE = "simple"  # US delay: the clock waits `delay` before it counts down
    BRONSTEIN = "bronstein"  # counts at once, gives back min(used, delay) after the move


@dataclass(frozen=True)
class Period:
    """``time`` ms for ``moves`` moves (None: the rest of the game), ``increment`` ms
    added after each of its moves."""

    time: int
    moves: int | None = None
    increment: int = 0


@dataclass(frozen=True)
class TimeControl:
    periods: tuple[Period, ...] = ()
    per_move: int = 0  # > 0: a fresh countdown of this many ms for every move
    delay: int = 0
    delay_kind: Delay = Delay.NONE
    increment_from_move: int = 1  # Armageddon: "+3 s from move 61"
    sandclock: bool = False

    def __post_init__(self) -> None:
        validate(self)

    @property
    def initial(self) -> int:
        """The time on the clock before the first move."""
        return self.per_move if self.per_move else self.periods[0].time

    def period_at(self, moves_made: int) -> int:
        """The index of the period in which the move after ``moves_made`` moves is played
        (a repeating last period keeps its index)."""
        done = 0
        for index, period in enumerate(self.periods):
            if period.moves is None:
                return index
            done += period.moves
            if moves_made < done:
                return index
        return len(self.periods) - 1

    def time_added_after(self, move_number: int) -> int:
        """Time a period adds once move ``move_number`` (from 1) completes its quota:
        the next period's time, or the repeating last period's again."""
        if self.per_move or not self.periods:
            return 0
        boundary = 0
        for index, period in enumerate(self.periods):
            if period.moves is None:
                return 0
            boundary += period.moves
            if move_number == boundary:
                following = self.periods[index + 1] if index + 1 < len(self.periods) else period
                return following.time
            if move_number < boundary:
                return 0
        last = self.periods[-1]  # a last period with a move count repeats
        assert last.moves is not None
        return last.time if (move_number - boundary) % last.moves == 0 else 0

    def increment_after(self, move_number: int) -> int:
        """The Fischer increment earned by completing move ``move_number`` (from 1)."""
        if self.per_move or move_number < self.increment_from_move:
            return 0
        return self.periods[self.period_at(move_number - 1)].increment

    def charged(self, used: int) -> int:
        """How much of ``used`` ms of thinking the clock takes off (before any give-back)."""
        if self.delay_kind is Delay.SIMPLE:
            return max(0, used - self.delay)
        return used

    def given_back(self, used: int) -> int:
        """What the clock returns after a move that took ``used`` ms (Bronstein delay)."""
        if self.delay_kind is Delay.BRONSTEIN:
            return min(used, self.delay)
        return 0

    def allowance(self, remaining: int) -> int:
        """How long a move may take with ``remaining`` ms on the clock before the flag falls."""
        if self.delay_kind is Delay.SIMPLE:
            return remaining + self.delay
        return remaining


# --- Constructors ----------------------------------------------------------------------
def seconds(value: float) -> int:
    return round(value * SECOND)


def per_move(limit_seconds: float) -> TimeControl:
    """A fresh countdown for every move (Scrabble: 120 s)."""
    return TimeControl(per_move=seconds(limit_seconds))


def sudden_death(total_seconds: float, increment: float = 0) -> TimeControl:
    """The whole game in ``total_seconds`` (with a Fischer increment if given)."""
    return TimeControl(periods=(Period(seconds(total_seconds), increment=seconds(increment)),))


def with_delay(control: TimeControl, delay_seconds: float, kind: Delay) -> TimeControl:
    return TimeControl(
        periods=control.periods,
        per_move=control.per_move,
        delay=seconds(delay_seconds),
        delay_kind=kind,
        increment_from_move=control.increment_from_move,
        sandclock=control.sandclock,
    )


DEFAULT_MINUTES_PER_POINT = 2
DEFAULT_BACKGAMMON_DELAY = 12


def backgammon_match_clock(
    match_length: int,
    minutes_per_point: float = DEFAULT_MINUTES_PER_POINT,
    delay_seconds: float = DEFAULT_BACKGAMMON_DELAY,
) -> TimeControl:
    """A reserve of ``minutes_per_point`` × the match length for the whole match, and a
    simple delay per move that never accumulates (SPEC §3.2)."""
    if not isinstance(match_length, int) or isinstance(match_length, bool) or match_length < 1:
        raise ClockError(gettext_noop("The match length is a whole number of points from 1."))
    reserve = TimeControl(periods=(Period(seconds(minutes_per_point * 60 * match_length)),))
    return with_delay(reserve, delay_seconds, Delay.SIMPLE) if delay_seconds else reserve


# --- Validation ------------------------------------------------------------------------
def _duration(value: object, what: str, allow_zero: bool = True) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < (0 if allow_zero else 1):
        raise ClockError(gettext_noop("%(what)s must be a whole number of milliseconds."), what=what)
    if value > MAX_DURATION:
        raise ClockError(gettext_noop("%(what)s is longer than a day."), what=what)


def validate(control: TimeControl) -> None:
    _duration(control.per_move, "per_move")
    _duration(control.delay, "delay")
    if not isinstance(control.delay_kind, Delay):
        raise ClockError(gettext_noop("The delay is none, simple or bronstein."))
    if control.delay and control.delay_kind is Delay.NONE:
        raise ClockError(gettext_noop("A delay needs its kind: simple or Bronstein."))
    if control.delay_kind is not Delay.NONE and not control.delay:
        raise ClockError(gettext_noop("A simple or Bronstein delay needs its length."))
    if (
        isinstance(control.increment_from_move, bool)
        or not isinstance(control.increment_from_move, int)
        or not 1 <= control.increment_from_move <= MAX_MOVES
    ):
        raise ClockError(gettext_noop("The increment starts at a move number from 1."))
    if control.per_move:
        if control.periods or control.sandclock:
            raise ClockError(gettext_noop("A per-move countdown has no periods."))
        return
    if not control.periods:
        raise ClockError(gettext_noop("A time control needs a time per move or at least one period."))
    if len(control.periods) > 10:
        raise ClockError(gettext_noop("A time control has at most 10 periods."))
    for index, period in enumerate(control.periods):
        _duration(period.time, "time", allow_zero=False)
        _duration(period.increment, "increment")
        last = index == len(control.periods) - 1
        if period.moves is None and not last:
            raise ClockError(gettext_noop("Only the last period may be for the rest of the game."))
        if period.moves is not None and (
            isinstance(period.moves, bool) or not isinstance(period.moves, int) or not 1 <= period.moves <= MAX_MOVES
        ):
            raise ClockError(gettext_noop("A period's number of moves is a whole number from 1."))
    if control.sandclock and (
        len(control.periods) > 1 or control.delay or any(p.increment or p.moves for p in control.periods)
    ):
        raise ClockError(gettext_noop("A sandclock has one time and nothing else."))


# --- PGN TimeControl tag ----------------------------------------------------------------
_DESCRIPTOR = re.compile(r"(?:(\d{1,3})/)?(\d{1,6})(?:\+(\d{1,5}(?:\.\d{1,3})?))?", re.ASCII)


def parse_pgn(text: str) -> TimeControl | None:
    """A PGN ``TimeControl`` tag -> a control; ``"-"`` (no control) and ``"?"``
    (unknown) -> None. Forms: ``300``, ``5400+30``, ``40/5400:1800+30``, ``*180``.
    The PGN tag has no delay: give it separately (``with_delay``)."""
    text = str(text).strip()
    if text in ("-", "?"):
        return None
    if text.startswith("*"):
        if not (text[1:].isascii() and text[1:].isdecimal()) or len(text) > 7:
            raise ClockError(gettext_noop("%(text)r is not a sandclock time such as *180."), text=text)
        return TimeControl(periods=(Period(int(text[1:]) * SECOND),), sandclock=True)
    periods = []
    for part in text.split(":"):
        found = _DESCRIPTOR.fullmatch(part)
        if not found:
            raise ClockError(
                gettext_noop("%(text)r is not a PGN time control such as 5400+30 or 40/5400:1800+30."),
                text=text[:60],
            )
        moves, time, increment = found.groups()
        periods.append(
            Period(
                int(time) * SECOND,
                moves=int(moves) if moves else None,
                increment=round(float(increment) * SECOND) if increment else 0,
            )
        )
    try:
        return TimeControl(periods=tuple(periods))
    except ClockError as error:
        raise ClockError(
            gettext_noop("%(text)r is not a usable time control: %(problem)s"), text=text[:60], problem=error
        ) from None


def _seconds_text(ms: int) -> str:
    whole, fraction = divmod(ms, SECOND)  # exact: "%g" would round to 6 digits
    return str(whole) if not fraction else f"{whole}.{fraction:03d}".rstrip("0")


def format_pgn(control: TimeControl) -> str | None:
    """The PGN ``TimeControl`` tag of a control, or None when the tag cannot express it
    (a per-move countdown, an increment from a later move, a period time that is not
    whole seconds). The delay is left out."""
    if control.per_move or control.increment_from_move != 1:
        return None
    if any(period.time % SECOND for period in control.periods):
        return None
    if control.sandclock:
        return f"*{_seconds_text(control.periods[0].time)}"
    parts = []
    for period in control.periods:
        text = _seconds_text(period.time)
        if period.moves is not None:
            text = f"{period.moves}/{text}"
        if period.increment:
            text += f"+{_seconds_text(period.increment)}"
        parts.append(text)
    return ":".join(parts)


# --- Storage ------------------------------------------------------------------------------
def to_data(control: TimeControl) -> dict:
    """A control as JSON-ready data (what a clock row stores)."""
    return {
        "periods": [{"time": p.time, "moves": p.moves, "increment": p.increment} for p in control.periods],
        "per_move": control.per_move,
        "delay": control.delay,
        "delay_kind": control.delay_kind.value,
        "increment_from_move": control.increment_from_move,
        "sandclock": control.sandclock,
    }


def from_data(data: dict) -> TimeControl:
    try:
        return TimeControl(
            periods=tuple(Period(p["time"], p.get("moves"), p.get("increment", 0)) for p in data.get("periods", ())),
            per_move=data.get("per_move", 0),
            delay=data.get("delay", 0),
            delay_kind=Delay(data.get("delay_kind", "none")),
            increment_from_move=data.get("increment_from_move", 1),
            sandclock=data.get("sandclock", False),
        )
    except (KeyError, TypeError, ValueError, AttributeError) as error:
        if isinstance(error, ClockError):
            raise
        raise ClockError(gettext_noop("This is not a time control: %(data).80r."), data=data) from None
