"""Writing clocks: start, press, pause, resume, adjust, and the enforcement of every
deadline (the only writers of ``Clock`` and ``ClockEvent``).

Every function takes the tournament's lock first (``lock_match``, the one lock every
writer takes; without a new version of the public pages — a press shows on no page but
the clocks' own, which read the clock — except when a flag's consequence is applied;
the enforcement holds it shared with the match's own lock, ``with_match_lock``),
then the clock's row lock, reads the time from the one trusted clock
(``server_now``: the database server's on PostgreSQL), replays the clock's events
through ``clocks.state`` with the new event to check it, and stores the event with
the derived values the enforcement needs (``deadline``, ``version``).

**Enforcement.** Each event that leaves a side's time running makes sure a task
enforces the new deadline: deadlines share ``clocks.tasks.enforce_due_clocks`` by the
``BUCKET_MS`` bucket they fall in (``_schedule``; at most ``CLOCK_SCHEDULE_HORIZON``
ahead, a task that wakes early sends itself again, so no countdown ever outlives Redis's
visibility timeout). The task enforces every due deadline in batches (``enforce_due``):
per batch one transaction re-reads the clocks under the locks and acts on each whose
deadline has passed, so running it twice, or late, or after a newer event, does
nothing. Beat's sweep (``enforce_overdue``) does the same for any deadline whose task
was lost. They pass over a match that another transaction holds (``SKIP LOCKED``) rather
than queue behind each other on the same deadlines. A flag is applied through the game's
own services (``GameType.clock.on_flag``) in the same transaction.
"""

from __future__ import annotations

import logging
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import connection, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import controls
from clocks.models import Clock, ClockEvent
from clocks.state import ClockState, Event, EventKind, Phase, apply, new_clock, replay
from games.registry import ClockSetup
from tournaments import access, audit, deferred_inserts
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError, readable
from tournaments.models import Match, Tournament

logger = logging.getLogger(__name__)

SIDE_INDEX = {"a": 0, "b": 1}
INDEX_SIDE = ("a", "b")
EPOCH = datetime(1970, 1, 1, tzinfo=UTC)
MAX_ADJUST_SECONDS = 24 * 3600
BUSY_RETRY_SECONDS, BUSY_RETRIES = 0.1, 20
# Deadlines share their task by the bucket they fall in (one task per 50 ms of
# deadlines); the key that says a bucket's task was sent outlives its countdown by a minute.
BUCKET_MS, BUCKET_KEY_SECONDS = 50, 60
# The buckets whose task this process knows to be sent (the latest, in order).
_SENT_HERE: dict[int, None] = {}
SENT_HERE_KEPT = 1000
# A batch of the enforcement: how many clocks one transaction takes, and how many
# batches one task or sweep runs at most before it leaves the rest to the next.
BATCH_CLOCKS, MAX_BATCHES = 25, 200
# What every event changes on the clock's row: its version and the derived values.
EVENT_FIELDS = (
    "version",
    "phase",
    "running",
    "flagged",
    "time_a_ms",
    "time_b_ms",
    "delay_left_ms",
    "as_of",
    "deadline",
)


# --- Time ----------------------------------------------------------------------------
def server_now() -> datetime:
    """The one trusted clock, to the millisecond: the database server's clock on
    PostgreSQL (every web and worker process agrees), else this machine's."""
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT clock_timestamp()")
            now = cursor.fetchone()[0]
    else:
        now = timezone.now()
    return now.astimezone(UTC).replace(microsecond=now.microsecond - now.microsecond % 1000)


def to_ms(moment: datetime) -> int:
    delta = moment - EPOCH
    return (delta.days * 86400 + delta.seconds) * 1000 + delta.microseconds // 1000


def from_ms(ms: int) -> datetime:
    return EPOCH + timedelta(milliseconds=ms)


# --- Reading ---------------------------------------------------------------------------
def controls_of(clock: Clock) -> tuple[controls.TimeControl, controls.TimeControl]:
    return controls.from_data(clock.control_a), controls.from_data(clock.control_b)


# What replaying needs of an event row, in the order ``_event`` takes it.
EVENT_FACTS = ("kind", "at", "side", "value_ms", "reset", "controls")


def event_of(row: ClockEvent) -> Event:
    return _event(*(getattr(row, name) for name in EVENT_FACTS))


def _event(kind: str, at: datetime, side: str, value_ms: int | None, reset: bool, data: dict | None) -> Event:
    return Event(
        kind=EventKind(kind),
        at=to_ms(at),
        side=SIDE_INDEX.get(side),
        value=value_ms,
        reset=reset,
        controls=(controls.from_data(data["a"]), controls.from_data(data["b"])) if data else None,
    )


def clock_state(clock: Clock, events: list[ClockEvent] | None = None) -> ClockState:
    """The clock's state, replayed from its events since the current game's "new game"
    event (a new game starts both sides afresh: nothing before it counts). A clock this
    transaction has just written remembers its state (``record_event``): no replay."""
    known = getattr(clock, "known_state", None)
    if events is None and known is not None and known[0] == clock.version:
        return known[1]
    if events is None:  # read as plain values: only the facts the replay needs
        deferred_inserts.flush()  # a batch's events kept for its end
        rows = clock.events.filter(number__gte=clock.game_first_event).order_by("number").values_list(*EVENT_FACTS)
        return _replayed(clock, [_event(*row) for row in rows])
    return _replayed(clock, [event_of(row) for row in events if row.number >= clock.game_first_event])


def remember_states(clocks: list[Clock]) -> None:
    """Replay many clocks from one query; each remembers its state (``clock_state``)."""
    facts: dict[int, list[Event]] = {clock.pk: [] for clock in clocks}
    first = {clock.pk: clock.game_first_event for clock in clocks}
    deferred_inserts.flush()  # a batch's events kept for its end
    rows = ClockEvent.objects.filter(clock__in=clocks).order_by("clock_id", "number")
    for clock_id, number, *row in rows.values_list("clock_id", "number", *EVENT_FACTS):
        if number >= first[clock_id]:
            facts[clock_id].append(_event(*row))
    for clock in clocks:
        clock.known_state = (clock.version, _replayed(clock, facts[clock.pk]))


def _replayed(clock: Clock, facts: list[Event]) -> ClockState:
    start = new_clock(controls_of(clock), clock.flag_passes_turn)
    if clock.game_first_event:  # the log before the new game: only its count matters (event numbers go on)
        start = replace(start, events=clock.game_first_event - 1)
    return replay(start, facts)


def clock_view(clock: Clock, now: datetime | None = None) -> dict[str, Any]:
    """The clock for pages and the API: each side's time at the server's ``now``, who
    runs, the deadline and the version a press must carry. A page counts down locally
    from these values until its next refresh."""
    now = now or server_now()
    state = clock_state(clock)
    at = to_ms(now)
    time_a, time_b = state.time_at(at)
    running_control = state.controls[state.running] if state.running is not None else None
    return {
        "match": clock.match_id,
        "version": clock.version,
        "server_time": now.isoformat(),
        "phase": state.phase.value,
        "running": INDEX_SIDE[state.running] if state.running is not None else None,
        "flagged": INDEX_SIDE[state.flagged] if state.flagged is not None else None,
        "time_ms": {"a": time_a, "b": time_b},
        "delay_left_ms": state.delay_left_at(at),
        "delay_kind": running_control.delay_kind.value if running_control else None,
        "sandclock": bool(running_control and running_control.sandclock),
        "deadline": from_ms(state.deadline).isoformat() if state.deadline is not None else None,
        "moves": {"a": state.sides[0].moves, "b": state.sides[1].moves},
        "game_number": clock.game_number,
        "presses_from_sheet": clock.presses_from_sheet,
        "controls": {"a": describe_data(clock.control_a), "b": describe_data(clock.control_b)},
        "pgn_time_control": controls.format_pgn(controls_of(clock)[0]),
    }


def describe_data(data: dict) -> dict[str, Any]:
    control = controls.from_data(data)
    return {**data, "initial_ms": control.initial}


def clock_of(match: Match) -> Clock | None:
    return Clock.objects.filter(match=match).first()


# --- The players' and the director's events ------------------------------------------------
def start_clock(actor: Actor, match_id: int, side: Any, version: Any = None) -> Clock:
    """Start ``side``'s time (a clock that is ready: never started, or between games)."""
    return _act(actor, match_id, EventKind.START, side=side, version=version)


def press_clock(actor: Actor, match_id: int, side: Any, version: Any) -> Clock:
    """The running side ends its move; the other side's time runs. The press carries
    the clock's version the player saw, so a double tap cannot press twice."""
    return _act(actor, match_id, EventKind.PRESS, side=side, version=version)


def pause_clock(actor: Actor, match_id: int, reason: str = "") -> Clock:
    return _act(actor, match_id, EventKind.PAUSE, reason=reason, director_only=True)


def resume_clock(actor: Actor, match_id: int, reason: str = "") -> Clock:
    return _act(actor, match_id, EventKind.RESUME, reason=reason, director_only=True)


def adjust_clock(actor: Actor, match_id: int, side: Any, seconds: Any, reason: Any) -> Clock:
    """The director sets a side's time (logged with the reason)."""
    if isinstance(seconds, str):
        try:
            seconds = float(seconds.strip().replace(",", "."))
        except ValueError:
            raise DomainError(_("The time is a number of seconds, e.g. 90."), field="seconds") from None
    if isinstance(seconds, bool) or not isinstance(seconds, int | float) or not 0 < seconds <= MAX_ADJUST_SECONDS:
        raise DomainError(_("The time is a number of seconds, more than 0 and at most a day."), field="seconds")
    if not str(reason or "").strip():
        raise DomainError(_("Say why the time is adjusted; the reason is kept in the log."), field="reason")
    return _act(
        actor,
        match_id,
        EventKind.ADJUST,
        side=side,
        value=round(seconds * 1000),
        reason=str(reason).strip(),
        director_only=True,
    )


def _act(
    actor: Actor,
    match_id: int,
    kind: EventKind,
    *,
    side: Any = None,
    version: Any = None,
    value: int | None = None,
    reason: str = "",
    director_only: bool = False,
) -> Clock:
    def work(match: Match, tournament: Tournament) -> tuple[Clock, str | None, Match]:
        flagged = None
        director = access.is_director(actor, tournament)
        if director_only:
            access.require_director(actor, tournament)
        elif not director:
            access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        if match.decided_by:
            raise ConflictError(_("This match is decided; its clock is stopped."))
        tournament_services.require_playable(match)
        clock = ensure_clock(match)
        if clock is None:
            raise DomainError(_("This match has no clock (the tournament's settings give it none)."))
        if kind in (EventKind.START, EventKind.PRESS) and clock.presses_from_sheet and not director:
            raise DomainError(_("The score sheet runs this clock: record your move and the clock is pressed."))
        if side is not None and (not isinstance(side, str) or side not in SIDE_INDEX):
            raise DomainError(_('The side is "a" or "b".'), field="side")
        if kind in (EventKind.START, EventKind.PRESS) and side is None:
            raise DomainError(_('Say which side: "a" or "b".'), field="side")
        if kind is EventKind.PRESS or version not in (None, ""):
            _require_version(clock, version)
        now = server_now()
        state = clock_state(clock)
        if state.is_due(to_ms(now)) and kind is not EventKind.RESUME:
            flagged = INDEX_SIDE[state.running]
            apply_flag(clock, state, match, tournament, now)
        else:
            event = Event(kind, to_ms(now), side=SIDE_INDEX.get(side), value=value)
            record_event(clock, state, event, actor, match, tournament, reason=reason)
            if kind is not EventKind.PRESS:
                audit.record(
                    tournament,
                    actor,
                    f"clock.{kind.value}",
                    match=match,
                    after={"side": side, "value_ms": value, "version": clock.version},
                    message=reason,
                )
        return clock, flagged, match

    clock, flagged, match = tournament_services.with_match_lock(match_id, work)
    if flagged is not None:
        raise ConflictError(
            _("Time ran out for %(name)s before this; the flag has fallen.") % {"name": match.entry_on(flagged)}
        )
    return clock


def _require_version(clock: Clock, version: Any) -> None:
    if isinstance(version, str) and version.strip().isdecimal():
        version = int(version.strip())
    if isinstance(version, bool) or not isinstance(version, int):
        raise DomainError(_("A press carries the clock's version that you saw (a whole number)."), field="version")
    if version != clock.version:
        raise ConflictError(_("The clock has changed since you saw it (it was pressed already); look again."))


# --- Game services' hooks (called with the tournament locked) ------------------------------
def ensure_clock(match: Match) -> Clock | None:
    """The match's clock, locked; created from its game's ``ClockSetup`` the first time
    (None if the game gives this match no clock). The clock this transaction locked
    already (``match.locked_clock``: the one whose flag fell) is not read again."""
    clock = getattr(match, "locked_clock", None)
    if clock is not None:
        return clock
    clock = Clock.objects.select_for_update().filter(match=match).first()
    if clock is not None:
        return clock
    rules = match.tournament.game.clock
    setup: ClockSetup | None = rules.setup(match) if rules is not None else None
    if setup is None:
        return None
    first, second = setup.controls
    return Clock.objects.create(
        match=match,
        control_a=controls.to_data(first),
        control_b=controls.to_data(second),
        flag_passes_turn=setup.flag_passes_turn,
        presses_from_sheet=setup.presses_from_sheet,
        game_number=setup.game_number,
        time_a_ms=first.initial,
        time_b_ms=second.initial,
    )


def follow_sheet(match: Match, on_turn: str | None, game_number: int = 1) -> None:
    """A score sheet has changed: the side on turn (None: the game is over) should be the
    side whose time runs. Recording a move presses the clock; the first move of a game
    starts it for the opponent, with fresh times. A press after the deadline is refused
    (ConflictError): the sheet's change rolls back and the flag stands."""
    clock = ensure_clock(match)
    if clock is None or clock.phase == Phase.FLAGGED:
        return
    state = clock_state(clock)
    next_game = on_turn is None or clock.game_number != game_number
    if next_game and on_turn is None and state.phase is Phase.READY:
        return  # over, and halted already
    if not next_game and state.phase is not Phase.READY and state.running == SIDE_INDEX[on_turn]:
        return  # already so (a timeout pass: the flag started the opponent's time)
    # The flag's consequence happens at the flag's moment; else the server's time, read
    # only when an event is recorded.
    at = to_ms(getattr(match, "flag_time", None) or server_now())
    system = access.SYSTEM
    tournament = match.tournament
    if next_game:
        if state.phase is not Phase.READY:
            state = record_event(clock, state, Event(EventKind.HALT, at), system, match, tournament)
        if on_turn is None:
            return
        clock.game_number = game_number
        event = Event(EventKind.START, at, SIDE_INDEX[on_turn], reset=True)
        record_event(clock, state, event, system, match, tournament, changed=("game_number",))
        return
    if state.phase is Phase.READY:
        record_event(clock, state, Event(EventKind.START, at, SIDE_INDEX[on_turn]), system, match, tournament)
    elif state.running != SIDE_INDEX[on_turn]:
        if state.is_due(at):
            raise ConflictError(_("Time ran out before this move: the timeout is being recorded."))
        record_event(clock, state, Event(EventKind.PRESS, at, state.running), system, match, tournament)


def new_game(match: Match, game_number: int, control_a: controls.TimeControl, control_b: controls.TimeControl) -> None:
    """A match's next game begins (chess: the next game of a mini-match, perhaps a
    tie-break on faster controls): whatever the clock did in the game before — ran,
    flagged — both sides start again from the new controls' initial times, and nothing
    runs until a player starts it. Nothing happens if the clock is already there."""
    clock = ensure_clock(match)
    if clock is None:
        return
    current = (controls.to_data(control_a), controls.to_data(control_b))
    if clock.game_number == game_number and (clock.control_a, clock.control_b) == current:
        return
    now = to_ms(server_now())
    state = clock_state(clock)
    system, tournament = access.SYSTEM, match.tournament
    if state.phase in (Phase.RUNNING, Phase.PAUSED):
        state = record_event(clock, state, Event(EventKind.HALT, now), system, match, tournament)
    event = Event(EventKind.NEW_GAME, now, controls=(control_a, control_b))
    clock.control_a, clock.control_b = current
    clock.game_number = game_number
    clock.game_first_event = state.events + 1
    game_fields = ("control_a", "control_b", "game_number", "game_first_event")
    record_event(clock, state, event, system, match, tournament, changed=game_fields)


def require_clock_running_if_required(match: Match) -> None:
    """A round that requires the clock records a player's game only while it runs."""
    rules = match.tournament.game.clock
    setup = rules.setup(match) if rules is not None else None
    if setup is None or not setup.required:
        return
    clock = ensure_clock(match)
    if clock is None or clock.phase not in (Phase.RUNNING, Phase.PAUSED):
        raise DomainError(_("This round requires the match clock: start it, play the game, then record it."))


def halt(match: Match) -> None:
    """Nothing runs (a game is over, or between games); times are kept."""
    clock = Clock.objects.select_for_update().filter(match=match).first()
    if clock is None or clock.phase not in (Phase.RUNNING, Phase.PAUSED):
        return
    state = clock_state(clock)
    record_event(clock, state, Event(EventKind.HALT, to_ms(server_now())), access.SYSTEM, match, match.tournament)


def enforce_due_for_match(match_id: int) -> str | None:
    """Before a sheet records a move: apply a deadline that has passed (in its own
    transaction, so the timeout stands whatever happens next). The side that flagged, or None."""
    clock_id = Clock.objects.filter(match_id=match_id, deadline__isnull=False).values_list("pk", flat=True).first()
    if clock_id is None:
        return None
    outcome = enforce(clock_id)
    return outcome if outcome in SIDE_INDEX else None


# --- Enforcement -------------------------------------------------------------------------------
def enforce(clock_id: int, version: int | None = None, skip_busy: bool = False) -> str:
    """Act on the clock's deadline if it has passed and (when given) the version is
    unchanged. Returns the side that flagged, or what happened instead: "stale" (a
    newer event), "early" (not due yet: a task re-schedules itself), "idle" (nothing
    runs), "gone", or with ``skip_busy`` "busy" (another transaction holds the match:
    nothing is done, nothing waited for).

    It holds the match's lock with the tournament's shared (``with_match_lock``): the
    clocks of different matches are enforced at the same time, and a flag whose
    consequence decides the match runs again with the tournament's exclusive lock."""
    found = Clock.objects.filter(pk=clock_id).values_list("match_id", "version", "match__tournament_id").first()
    if found is None:
        return "gone"
    match_id, current, tournament_id = found
    if version is not None and current != version:  # versions only grow: stale for good
        return "stale"

    def work(match: Match, tournament: Tournament) -> str:
        clock = Clock.objects.select_for_update().filter(pk=clock_id, match=match).first()
        if clock is None:
            return "gone"
        if version is not None and clock.version != version:
            return "stale"
        return _act_on_deadline(clock, match, tournament, server_now(), reschedule=version is not None)

    try:
        return tournament_services.with_match_lock(match_id, work, tournament_id=tournament_id, skip_locked=skip_busy)
    except tournament_services.MatchBusy:
        return "busy"


def enforce_scheduled(clock_id: int, version: int, attempt: int = 0) -> str:
    """A clock's own task (a deadline beyond the schedule's horizon hops with it, and
    tasks sent before deadlines were shared out in buckets). While another transaction
    holds the match — most often a batch enforcing this very deadline; else a move
    being recorded — it does not queue behind it: it looks again in
    ``BUSY_RETRY_SECONDS`` (and finds the version moved on, or acts),
    ``BUSY_RETRIES`` times at most; after that the sweep acts on the deadline."""
    outcome = enforce(clock_id, version, skip_busy=True)
    if outcome == "busy" and attempt < BUSY_RETRIES:
        from clocks.tasks import enforce_clock

        _send(enforce_clock, (clock_id, version, attempt + 1), countdown=BUSY_RETRY_SECONDS)
    return outcome


def _act_on_deadline(clock: Clock, match: Match, tournament: Tournament, now: datetime, reschedule: bool) -> str:
    """With the match and the clock locked: the flag falls if the deadline has passed.
    ``reschedule``: a clock's own task that woke early sends the deadline's task again
    (the sweep's and a sheet's callers find it in place)."""
    state = clock_state(clock)
    if state.deadline is None:
        return "idle"
    if not state.is_due(to_ms(now)):
        if reschedule:
            _schedule(clock, state, now)
        return "early"
    side = INDEX_SIDE[state.running]
    if match.decided_by:  # decided some other way (a walkover, a director's result)
        record_event(clock, state, Event(EventKind.HALT, to_ms(now)), access.SYSTEM, match, tournament)
        return "idle"
    apply_flag(clock, state, match, tournament, now)
    return side


# --- Enforcement in batches: the deadlines' buckets and the sweep ---------------------------------
def enforce_due(grace_seconds: float = 0.0, max_batches: int = MAX_BATCHES) -> int:
    """Act on every deadline that passed ``grace_seconds`` ago or more. Returns how many
    flags fell.

    A tournament's due clocks are taken in batches: one transaction holds the
    tournament's lock shared and the locks of up to ``BATCH_CLOCKS`` of its matches
    whose deadline has passed (earliest first) that no other transaction holds, reads
    their clocks and events in two queries, and applies every flag at one moment. The
    pages' version moves once per batch. Processes running this at the same time share
    the due clocks out (``SKIP LOCKED``); a clock held by someone else is theirs.
    A batch in which a flag decides its match (backgammon, chess), or one that fails, is
    rolled back whole and its clocks are enforced one by one (``enforce``): one broken
    clock never holds up the others."""
    flagged = batches = 0
    failed: set[int] = set()
    while batches < max_batches:
        cutoff = server_now() - timedelta(seconds=grace_seconds)
        due = Clock.objects.filter(deadline__lte=cutoff).exclude(pk__in=failed)
        tournaments = list(due.values_list("match__tournament_id", flat=True).distinct())
        progressed = False
        for tournament_id in tournaments:
            matches = Match.objects.filter(tournament_id=tournament_id, clock__in=due).order_by("clock__deadline")
            acted, fell, broken = _enforce_batch(tournament_id, matches)
            batches += 1
            flagged += fell
            failed |= broken
            progressed |= acted > 0
        if not progressed:
            break
    return flagged


def _enforce_batch(tournament_id: int, matches: Any) -> tuple[int, int, set[int]]:
    """One batch of ``enforce_due``: (clocks acted on, flags fallen, clocks that failed)."""

    def work(locked: list[Match], tournament: Tournament) -> tuple[list[Match], int]:
        clocks = {c.match_id: c for c in Clock.objects.select_for_update().filter(match__in=locked)}
        remember_states(list(clocks.values()))
        now, fell = server_now(), 0
        with deferred_inserts.inserts_at_end():  # the flags' events and audit entries: one INSERT each
            for match in locked:
                clock = clocks.get(match.pk)
                if clock is not None:
                    fell += _act_on_deadline(clock, match, tournament, now, reschedule=False) in SIDE_INDEX
        return locked, fell

    try:
        locked, fell = tournament_services.with_free_matches_lock(tournament_id, matches, BATCH_CLOCKS, work)
        return len(locked), fell, set()
    except tournament_services.NeedsExclusiveLock:
        pass  # a flag decides its match: each clock of the batch on its own
    except Exception:
        logger.exception("A batch of clocks could not be enforced; they are taken one by one")
    acted, fell, broken = 0, 0, set()
    for clock_id in Clock.objects.filter(match__in=matches[:BATCH_CLOCKS]).values_list("pk", flat=True):
        try:
            outcome = enforce(clock_id, skip_busy=True)
        except Exception:
            logger.exception("Could not enforce clock %s", clock_id)
            broken.add(clock_id)
            continue
        acted += outcome != "busy"
        fell += outcome in SIDE_INDEX
    return acted, fell, broken


def enforce_bucket(due_ms: int, attempt: int = 0) -> int:
    """The task of the deadlines due by ``due_ms`` (ms on the server's clock; one task per
    ``BUCKET_MS`` of deadlines, not one per clock): enforce every due deadline, then
    look again for any of the bucket's own deadlines that is left — held by a
    transaction that outlasted the batches, not due yet because the worker's clock runs
    ahead of the server's, or beyond the horizon. Returns how many flags fell."""
    flagged = enforce_due()
    bucket = Clock.objects.filter(deadline__gt=from_ms(due_ms - BUCKET_MS), deadline__lte=from_ms(due_ms))
    earliest = bucket.order_by("deadline").values_list("deadline", flat=True).first()
    if earliest is not None:
        from clocks.tasks import enforce_due_clocks

        wait = (earliest - server_now()).total_seconds()
        if wait > 0:  # woke early: at the deadline (or the horizon) then
            _send(enforce_due_clocks, (due_ms, attempt), countdown=min(wait, _horizon().total_seconds()))
        elif attempt < BUSY_RETRIES:  # busy: soon; after that the sweep acts
            _send(enforce_due_clocks, (due_ms, attempt + 1), countdown=BUSY_RETRY_SECONDS)
    return flagged


def enforce_overdue() -> int:
    """Beat's sweep: act on every deadline that passed more than
    ``CLOCK_SWEEP_GRACE_SECONDS`` ago (its task was lost with a worker or a broker
    restart; a deadline that has only just passed is left to its own task, which is on
    its way). Returns how many flags fell."""
    return enforce_due(grace_seconds=getattr(settings, "CLOCK_SWEEP_GRACE_SECONDS", 1.0))


def apply_flag(clock: Clock, state: ClockState, match: Match, tournament: Tournament, now: datetime) -> None:
    """The running side's time is up: record the flag, then its consequence through the
    game's services (in this transaction)."""
    side = INDEX_SIDE[state.running]
    deadline = from_ms(state.deadline)
    tournament_services.pages_changed(tournament)  # the flag's consequence shows on the pages
    record_event(
        clock,
        state,
        Event(EventKind.FLAG, to_ms(now), state.running),
        access.SYSTEM,
        match,
        tournament,
        deadline=deadline,
    )
    audit.record(
        tournament,
        access.SYSTEM,
        "clock.flag",
        match=match,
        after={"side": side, "deadline": deadline.isoformat(), "at": now.isoformat(), "version": clock.version},
    )
    rules = tournament.game.clock
    if rules is not None:
        # The consequence (through ``follow_sheet``) reuses the clock locked here and
        # happens at the flag's moment.
        match.locked_clock, match.flag_time = clock, now
        rules.on_flag(match, side)
    transaction.on_commit(
        lambda: logger.info(
            "Clock of match %s: the flag fell for %s at %s (%d ms after the deadline)",
            match.pk,
            match.entry_on(side),
            now.isoformat(),
            to_ms(now) - to_ms(deadline),
        )
    )


# --- Storing an event ------------------------------------------------------------------------
def record_event(
    clock: Clock,
    state: ClockState,
    event: Event,
    actor: Actor,
    match: Match,
    tournament: Tournament,
    reason: str = "",
    deadline: datetime | None = None,
    changed: tuple[str, ...] = (),
) -> ClockState:
    """Check ``event`` against the clock, store it and the derived values, and schedule
    the enforcement of the new deadline. ``changed``: the clock's other fields the
    caller has set for this event (stored with it)."""
    try:
        after = apply(state, event)
    except controls.ClockError as error:
        raise DomainError(readable(error)) from None
    clock.version += 1
    row = ClockEvent(
        clock=clock,
        number=after.events,
        kind=event.kind.value,
        side=INDEX_SIDE[event.side] if event.side is not None else "",
        at=from_ms(event.at),
        value_ms=event.value,
        reset=event.reset,
        controls=(
            {"a": controls.to_data(event.controls[0]), "b": controls.to_data(event.controls[1])}
            if event.controls
            else None
        ),
        reason=str(reason or "")[:300],
        by_user=actor.user,
        by_entry=actor.entry,
        by_system=actor.system,
        version=clock.version,
        deadline=deadline,
    )
    deferred_inserts.insert(row)  # in a batch of flags, with the batch's others
    now = from_ms(event.at)
    time_a, time_b = after.time_at(event.at)
    clock.phase = after.phase.value
    clock.running = INDEX_SIDE[after.running] if after.running is not None else ""
    clock.flagged = INDEX_SIDE[after.flagged] if after.flagged is not None else ""
    clock.time_a_ms, clock.time_b_ms = time_a, time_b
    clock.delay_left_ms = after.delay_left_at(event.at)
    clock.as_of = now
    clock.deadline = from_ms(after.deadline) if after.deadline is not None else None
    clock.save(update_fields=[*EVENT_FIELDS, *changed])
    clock.known_state = (clock.version, after)
    _schedule(clock, after, now)
    return after


def _schedule(clock: Clock, state: ClockState, now: datetime) -> None:
    """Make sure a task enforces the new deadline, once this transaction commits.

    Deadlines share tasks: the one of the deadline's bucket (``BUCKET_MS`` wide, due at
    the bucket's end), sent by the first writer whose deadline falls in it (a key in the
    cache says it was sent). A deadline beyond the horizon gets a task at the horizon,
    which looks again then (no countdown ever outlives Redis's visibility timeout)."""
    if state.deadline is None:
        return
    from director.celery import app

    if app.conf.task_always_eager:  # tests without a worker call ``enforce`` themselves
        return
    due_ms = bucket_of(state.deadline)
    wait = min(from_ms(due_ms) - now, _horizon())
    transaction.on_commit(lambda: send_bucket(due_ms, max(wait.total_seconds(), 0.0)))


def bucket_of(deadline_ms: int) -> int:
    """The bucket a deadline falls in: its end, when its task is due (ms)."""
    return -(-deadline_ms // BUCKET_MS) * BUCKET_MS


def send_bucket(due_ms: int, countdown: float) -> None:
    """Send the task of the deadlines due by ``due_ms`` unless a process has sent it."""
    from django.core.cache import cache

    from clocks.tasks import enforce_due_clocks

    if due_ms in _SENT_HERE:  # a batch of flags gives many deadlines one bucket
        return
    _SENT_HERE[due_ms] = None
    while len(_SENT_HERE) > SENT_HERE_KEPT:
        del _SENT_HERE[next(iter(_SENT_HERE))]
    try:
        if not cache.add(f"clocks:bucket:{due_ms}", 1, timeout=countdown + BUCKET_KEY_SECONDS):
            return
    except Exception:  # no cache: one task per deadline is still right
        logger.exception("Could not note the clocks' bucket %s", due_ms)
    _send(enforce_due_clocks, (due_ms,), countdown=countdown)


def _send(task: Any, args: tuple, countdown: float) -> None:
    try:
        task.apply_async(args, countdown=countdown)
    except Exception:  # the sweep acts on the deadline anyway
        logger.exception("Could not send %s%s", task.name, args)


def _horizon() -> timedelta:
    return timedelta(seconds=getattr(settings, "CLOCK_SCHEDULE_HORIZON", 300))
