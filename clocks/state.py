"""A game clock derived from its events (SPEC §6). Pure Python: no Django.

The events are the facts: **start** (a side's time begins to run), **press** (the
running side ends its move; the other side's time runs), **pause** and **resume** (the
director), **adjust** (the director sets a side's time, with a reason), **flag** (the
running side's time ran out; recorded by the enforcement when the deadline has
passed), **halt** (the game is over or between games; nothing runs) and **new game**
(a match's next game begins: both sides back to the initial times of the controls the
event carries — a chess tie-break has faster controls than the games before it, and
Armageddon unequal ones; a flag of the game before no longer stops the clock). The
state at any moment — each side's time, who is running, the deadline — is computed
from them.

Times are whole milliseconds: event times on one trusted clock (the server's), and
durations. Sides are 0 and 1.

What a flag does depends on the game: ``flag_passes_turn`` (Scrabble) records the
timeout as the end of that side's turn and starts the other side; otherwise the flag
is final and the clock stops for good (backgammon, chess).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from enum import StrEnum

from clocks.controls import MAX_DURATION, ClockError, TimeControl
from games.text import gettext_noop


class EventKind(StrEnum):
    START = "start"
    PRESS = "press"
    PAUSE = "pause"
    RESUME = "resume"
    ADJUST = "adjust"
    FLAG = "flag"
    HALT = "halt"
    NEW_GAME = "new_game"


class Phase(StrEnum):
    READY = "ready"  # not started yet, or halted between games
    RUNNING = "running"
    PAUSED = "paused"
    FLAGGED = "flagged"  # a side's time ran out; final


@dataclass(frozen=True)
class Event:
    kind: EventKind
    at: int  # ms on the server's clock
    side: int | None = None  # start: who runs; press/flag: the running side; adjust: whose time
    value: int | None = None  # adjust: that side's time from now on (ms)
    reset: bool = False  # start: both sides begin again from the control's initial time
    controls: tuple[TimeControl, TimeControl] | None = None  # new game: the controls from now on


@dataclass(frozen=True)
class Side:
    time: int  # ms left when this side's current turn began (or now, if not running)
    moves: int = 0  # moves completed (a timeout pass counts as one)


@dataclass(frozen=True)
class ClockState:
    controls: tuple[TimeControl, TimeControl]
    flag_passes_turn: bool = False
    sides: tuple[Side, Side] = (Side(0), Side(0))
    phase: Phase = Phase.READY
    running: int | None = None  # whose move it is (also while paused)
    since: int = 0  # when the current stretch of running began
    used: int = 0  # ms of the current turn used before ``since`` (pauses split a turn)
    flagged: int | None = None  # the side whose flag fell (final)
    last_at: int | None = None  # the time of the last event
    events: int = 0

    # --- reading ------------------------------------------------------------------------
    def used_at(self, now: int) -> int:
        """Thinking time of the running side's current turn at ``now``."""
        if self.phase is Phase.RUNNING:
            return self.used + max(0, now - self.since)
        return self.used

    def time_at(self, now: int) -> tuple[int, int]:
        """Each side's time as a clock face shows it at ``now`` (never below 0).

        With a simple delay the running side's time stands still for the delay; with
        Bronstein it counts down at once (the give-back comes after the move)."""
        shown = [side.time for side in self.sides]
        if self.running is not None and self.phase in (Phase.RUNNING, Phase.PAUSED):
            control = self.controls[self.running]
            used = self.used_at(now)
            shown[self.running] = max(0, shown[self.running] - control.charged(used))
            if control.sandclock:
                other = 1 - self.running
                shown[other] = shown[other] + min(used, self.sides[self.running].time)
        return shown[0], shown[1]

    def delay_left_at(self, now: int) -> int:
        """What is left of the running side's simple delay at ``now`` (0 without one)."""
        if self.running is None or self.phase not in (Phase.RUNNING, Phase.PAUSED):
            return 0
        control = self.controls[self.running]
        if control.delay_kind.value != "simple":
            return 0
        return max(0, control.delay - self.used_at(now))

    @property
    def deadline(self) -> int | None:
        """When the running side's flag falls (None unless a side's time runs)."""
        if self.phase is not Phase.RUNNING or self.running is None:
            return None
        allowance = self.controls[self.running].allowance(self.sides[self.running].time)
        return self.since + max(0, allowance - self.used)

    def is_due(self, now: int) -> bool:
        deadline = self.deadline
        return deadline is not None and now >= deadline


def new_clock(controls: tuple[TimeControl, TimeControl], flag_passes_turn: bool = False) -> ClockState:
    """A clock before its first start: each side on its control's initial time."""
    return ClockState(
        controls=controls,
        flag_passes_turn=flag_passes_turn,
        sides=(Side(controls[0].initial), Side(controls[1].initial)),
    )


def replay(state: ClockState, events: list[Event] | tuple[Event, ...]) -> ClockState:
    for event in events:
        state = apply(state, event)
    return state


def apply(state: ClockState, event: Event) -> ClockState:
    """The clock after ``event``, or a ``ClockError`` saying why it cannot happen."""
    if state.last_at is not None and event.at < state.last_at:
        raise ClockError(gettext_noop("A clock event cannot be earlier than the one before it."))
    if state.phase is Phase.FLAGGED and event.kind is not EventKind.NEW_GAME:
        raise ClockError(gettext_noop("A flag has fallen: this clock is stopped until the next game."))
    handler = _HANDLERS.get(event.kind)
    if handler is None:
        raise ClockError(gettext_noop("Unknown clock event %(kind)r."), kind=event.kind)
    after = handler(state, event)
    return replace(after, last_at=event.at, events=state.events + 1)


# --- events ------------------------------------------------------------------------------
def _side(event: Event) -> int:
    if event.side not in (0, 1):
        raise ClockError(gettext_noop("A clock event names side 0 or 1."))
    return event.side


def _start(state: ClockState, event: Event) -> ClockState:
    side = _side(event)
    if state.phase is not Phase.READY:
        raise ClockError(gettext_noop("The clock is already running."))
    sides = new_clock(state.controls).sides if event.reset else state.sides
    return replace(state, sides=sides, phase=Phase.RUNNING, running=side, since=event.at, used=0)


def _require_running_side(state: ClockState, event: Event) -> int:
    side = _side(event)
    if state.phase not in (Phase.RUNNING, Phase.PAUSED) or state.running is None:
        raise ClockError(gettext_noop("The clock is not running."))
    if side != state.running:
        raise ClockError(gettext_noop("It is not this side's time that runs."))
    return side


def _end_turn(state: ClockState, at: int, used: int, flagged: bool) -> tuple[Side, Side]:
    """Each side's time once the running side's turn ends after ``used`` ms."""
    assert state.running is not None
    side = state.running
    control = state.controls[side]
    before = state.sides[side]
    moves = before.moves + 1
    if control.per_move:
        time = control.per_move
    elif flagged:
        time = 0
    else:
        time = before.time - control.charged(used) + control.given_back(used)
        time += control.increment_after(moves) + control.time_added_after(moves)
    sides = list(state.sides)
    sides[side] = Side(time, moves)
    if control.sandclock:
        other = 1 - side
        sides[other] = replace(sides[other], time=sides[other].time + min(used, before.time))
    return sides[0], sides[1]


def _press(state: ClockState, event: Event) -> ClockState:
    side = _require_running_side(state, event)
    used = state.used_at(event.at)
    if used >= state.controls[side].allowance(state.sides[side].time):
        raise ClockError(gettext_noop("Time ran out before the press: the flag has fallen."))
    sides = _end_turn(state, event.at, used, flagged=False)
    return replace(state, sides=sides, running=1 - side, since=event.at, used=0)


def _flag(state: ClockState, event: Event) -> ClockState:
    side = _require_running_side(state, event)
    if state.phase is not Phase.RUNNING or not state.is_due(event.at):
        raise ClockError(gettext_noop("The flag falls only when the running side's time is up."))
    if state.flag_passes_turn:
        sides = _end_turn(state, event.at, state.used_at(event.at), flagged=True)
        return replace(state, sides=sides, running=1 - side, since=event.at, used=0)
    sides = list(state.sides)
    sides[side] = replace(sides[side], time=0)
    if state.controls[side].sandclock:  # all of the flagged side's sand has flowed
        other = 1 - side
        sides[other] = replace(sides[other], time=sides[other].time + state.sides[side].time)
    return replace(state, sides=(sides[0], sides[1]), phase=Phase.FLAGGED, flagged=side, used=0)


def _pause(state: ClockState, event: Event) -> ClockState:
    if state.phase is not Phase.RUNNING:
        raise ClockError(gettext_noop("Only a running clock can be paused."))
    return replace(state, phase=Phase.PAUSED, used=state.used_at(event.at), since=event.at)


def _resume(state: ClockState, event: Event) -> ClockState:
    if state.phase is not Phase.PAUSED:
        raise ClockError(gettext_noop("Only a paused clock can be resumed."))
    return replace(state, phase=Phase.RUNNING, since=event.at)


def _adjust(state: ClockState, event: Event) -> ClockState:
    side = _side(event)
    value = event.value
    if isinstance(value, bool) or not isinstance(value, int) or not 0 < value <= MAX_DURATION:
        raise ClockError(gettext_noop("A side's time is set to more than 0 and at most a day."))
    sides = list(state.sides)
    if side == state.running and state.phase in (Phase.RUNNING, Phase.PAUSED):
        # The face shows ``value`` from now on; the turn's thinking so far stays counted
        # (a simple delay already spent is not given again).
        used = state.used_at(event.at)
        sides[side] = replace(sides[side], time=value + state.controls[side].charged(used))
        return replace(state, sides=(sides[0], sides[1]), used=used, since=event.at)
    running = state.running
    if running is not None and state.phase in (Phase.RUNNING, Phase.PAUSED) and state.controls[running].sandclock:
        # The face of the waiting side shows the sand flowed this turn on top of its time.
        value -= min(state.used_at(event.at), state.sides[running].time)
    sides[side] = replace(sides[side], time=value)
    return replace(state, sides=(sides[0], sides[1]))


def _halt(state: ClockState, event: Event) -> ClockState:
    """The game is over (or between games): the running side's thinking is charged,
    without an increment or a move, and nothing runs."""
    if state.phase is Phase.READY:
        return state
    sides = list(state.sides)
    if state.running is not None:
        control = state.controls[state.running]
        used = state.used_at(event.at)
        before = sides[state.running]
        if not control.per_move:
            sides[state.running] = replace(before, time=max(0, before.time - control.charged(used)))
        if control.sandclock:
            other = 1 - state.running
            sides[other] = replace(sides[other], time=sides[other].time + min(used, before.time))
    return replace(state, sides=(sides[0], sides[1]), phase=Phase.READY, running=None, used=0, since=event.at)


def _new_game(state: ClockState, event: Event) -> ClockState:
    """The next game of the match: whatever this game's clock did (ran, paused, flagged),
    both sides start again from the initial times of the new controls; nothing runs."""
    if event.controls is None:
        raise ClockError(gettext_noop("A new game names the time controls of both sides."))
    return new_clock(event.controls, state.flag_passes_turn)


_HANDLERS = {
    EventKind.START: _start,
    EventKind.PRESS: _press,
    EventKind.FLAG: _flag,
    EventKind.PAUSE: _pause,
    EventKind.RESUME: _resume,
    EventKind.ADJUST: _adjust,
    EventKind.HALT: _halt,
    EventKind.NEW_GAME: _new_game,
}
