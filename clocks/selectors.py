"""Reading clocks for pages and the API, without writing anything.

A match's clock row is created by the first event (``services.ensure_clock``, under
the tournament's lock). Until then a GET shows the clock the match *would* have: ready,
each side on the initial time of the control its game gives it.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from clocks import controls, services
from clocks.models import Clock, ClockEvent
from clocks.state import Phase
from tournaments.models import Match


def clock_setup(match: Match):
    """The clock the match's game gives it (a ``ClockSetup``), or None."""
    rules = match.tournament.game.clock
    return rules.setup(match) if rules is not None else None


def clock_view_of(match: Match, now: datetime | None = None) -> dict[str, Any] | None:
    """The clock of a match as pages and the API show it (``services.clock_view``), or a
    ready clock from its game's settings if none was started yet; None if the match has
    no clock."""
    clock = services.clock_of(match)
    if clock is not None:
        return services.clock_view(clock, now)
    if match.decided_by or not (match.entry_a_id and match.entry_b_id):
        return None
    setup = clock_setup(match)
    if setup is None:
        return None
    return ready_view(match, setup, now)


def clock_views(tournament_id: int, match_ids: list[int], now: datetime | None = None) -> dict[int, dict[str, Any]]:
    """The views of the clocks these matches of the tournament have (``services.clock_view``),
    by match id, all at one ``now``: two queries however many. A match whose clock was
    never started has none here (its page shows the ready clock from ``clock_view_of``)."""
    clocks = list(Clock.objects.filter(match_id__in=match_ids, match__tournament_id=tournament_id))
    if not clocks:
        return {}
    services.remember_states(clocks)
    now = now or services.server_now()
    return {clock.match_id: services.clock_view(clock, now) for clock in clocks}


def ready_view(match: Match, setup, now: datetime | None = None) -> dict[str, Any]:
    """What ``services.clock_view`` shows for the clock ``ensure_clock`` would create."""
    now = now or services.server_now()
    first, second = setup.controls
    data_a, data_b = controls.to_data(first), controls.to_data(second)
    return {
        "match": match.pk,
        "version": 0,
        "server_time": now.isoformat(),
        "phase": Phase.READY.value,
        "running": None,
        "flagged": None,
        "time_ms": {"a": first.initial, "b": second.initial},
        "delay_left_ms": 0,
        "delay_kind": None,
        "sandclock": False,
        "deadline": None,
        "moves": {"a": 0, "b": 0},
        "game_number": setup.game_number,
        "presses_from_sheet": setup.presses_from_sheet,
        "controls": {"a": services.describe_data(data_a), "b": services.describe_data(data_b)},
        "pgn_time_control": controls.format_pgn(first),
    }


def sides_of(match: Match, view: dict[str, Any]) -> list[dict[str, Any]]:
    """The two halves of a clock face for a template: side, player's name, time."""
    return [
        {"side": side, "name": entry.name if entry else "?", "time_ms": view["time_ms"][side]}
        for side, entry in (("a", match.entry_a), ("b", match.entry_b))
    ]


def phase_key(view: dict[str, Any]) -> str:
    """What a clock's status line says: ready, running-a, paused, flagged-b, ..."""
    phase = view["phase"]
    if phase == Phase.RUNNING.value and view["running"]:
        return f"running-{view['running']}"
    if phase == Phase.FLAGGED.value and view["flagged"]:
        return f"flagged-{view['flagged']}"
    return phase


def events_of(clock: Clock | None, limit: int = 50) -> list[ClockEvent]:
    """The clock's latest events, newest first, with who made them (for the director)."""
    if clock is None:
        return []
    return list(clock.events.select_related("by_user", "by_entry").order_by("-number")[:limit])
