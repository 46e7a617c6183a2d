"""Writing chouette sessions: the line, the games, players joining and leaving, the
close and the settlement (the only writers of the chouette models).

Who may write: the session's director (the signed-in user who created it, or a
superuser) always; anyone holding the table's link (``table_key``) for what happens at
the table — the opening rolls, a game, a player joining or leaving. Setting the line by
order, undoing a game and closing the session are the director's.

Every function locks the session row, replays its events through the pure engine
(``games.backgammon.chouette``) with the new fact to check it, then stores the fact and
the cached line. Bad input is a ``DomainError`` (400) naming what is wrong, and nothing
is stored.
"""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.backgammon import chouette as engine
from games.backgammon.models import ChouetteEvent, ChouettePlayer, ChouetteSession
from games.backgammon.scoring import Kind
from games.registry import RuleError
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError, readable

MAX_PLAYERS = 12
MAX_STAKE_CENTS = 100_000_00


@dataclass
class SessionState:
    """A session replayed from its events."""

    line: engine.Line = ()
    players: dict[str, str] = field(default_factory=dict)  # id -> name, everyone who ever played
    games: list[tuple[ChouetteEvent, engine.GameScore, engine.Line]] = field(default_factory=list)  # with the line
    ledger: list[dict[str, int]] = field(default_factory=list)

    @property
    def totals(self) -> dict[str, int]:
        totals = {player: 0 for player in self.players}
        if self.ledger:
            totals.update(self.ledger[-1])
        return totals


# --- Reading ---------------------------------------------------------------------------
def settings_of(session: ChouetteSession) -> engine.Settings:
    return engine.Settings(**session.settings)


def replay(session: ChouetteSession, events: list[ChouetteEvent] | None = None) -> SessionState:
    """The line, every game's score and the ledger, from the session's live events."""
    rows = events if events is not None else list(session.events.filter(status="live").order_by("number"))
    settings = settings_of(session)
    state = SessionState(players={str(p.pk): p.name for p in session.players.all()})
    for row in rows:
        if row.kind == ChouetteEvent.Kind.LINE:
            state.line = engine.check_line(row.data["line"])
        elif row.kind == ChouetteEvent.Kind.JOIN:
            if state.line:  # before the line is set, a new player simply waits to roll
                state.line = engine.join(state.line, row.data["player"])
        elif row.kind == ChouetteEvent.Kind.LEAVE:
            state.line = engine.leave(state.line, row.data["player"], settings)
        elif row.kind == ChouetteEvent.Kind.GAME:
            score = engine.score_game(state.line, settings, game_from_data(row.data))
            state.games.append((row, score, state.line))
            state.line = score.next_line
    state.ledger = engine.ledger(score for _row, score, _line in state.games)
    return state


def settlement(session: ChouetteSession, state: SessionState | None = None) -> list[engine.Payment]:
    state = state or replay(session)
    return engine.settle(state.totals, session.stake_cents)


# --- Writing ---------------------------------------------------------------------------
def create_session(
    actor: Actor,
    name: str,
    players: Sequence[str],
    stake_cents: Any = 100,
    currency: str = "CZK",
    settings: Mapping[str, Any] | None = None,
    public: bool = True,
) -> ChouetteSession:
    """A signed-in user opens a session with three or more players (the line comes next)."""
    if actor.user is None:
        raise PermissionDenied(_("Sign in to open a chouette session."))
    name = str(name or "").strip()
    if not name:
        raise DomainError(_("Give the session a name."), field="name")
    names = _clean_names(players)
    if len(names) < engine.MIN_PLAYERS:
        raise DomainError(_("A chouette needs at least 3 players."), field="players")
    stake = _whole(stake_cents, "stake_cents", 1, MAX_STAKE_CENTS)
    rules = _clean_settings(settings or {}, len(names))
    currency = str(currency or "CZK").strip().upper()
    if not (len(currency) == 3 and currency.isascii() and currency.isalpha()):
        raise DomainError(_("The currency is a three-letter code such as CZK or EUR."), field="currency")
    with transaction.atomic():
        session = ChouetteSession.objects.create(
            name=name[:200],
            created_by=actor.user,
            stake_cents=stake,
            currency=currency,
            settings=asdict(rules),
            public=bool(public),
        )
        for player in names:
            ChouettePlayer.objects.create(session=session, name=player)
    return session


def set_line(
    actor: Actor,
    session_id: int,
    key: str | None = None,
    *,
    order: Sequence[Any] | None = None,
    rolls: Sequence[Mapping[str, Any]] | None = None,
    roll: bool = False,
) -> ChouetteSession:
    """Set the line before the first game: from the opening rolls the table entered
    (``rolls``: rounds of {player id: die}, ties re-rolled among the tied only), rolled
    fairly by the server (``roll``), or in the director's ``order``."""
    with transaction.atomic():
        session = _lock(session_id)
        director = _require_table(actor, session, key)
        state = replay(session)
        if state.games:
            raise ConflictError(_("The line is set by the games now; it can only be set before the first game."))
        present = _present(session, state)
        if sum(x is not None and x is not False for x in (order, rolls, roll or None)) != 1:
            raise DomainError(_("Set the line one way: the rolls, a fair roll by the server, or an order."))
        try:
            if order is not None:
                if not director:
                    raise PermissionDenied(_("Only the session's director sets the line by order."))
                line = engine.line_from_order([str(p) for p in order])
                data: dict[str, Any] = {"method": "order"}
            elif rolls is not None:
                clean_rolls = _clean_rolls(rolls)
                line = engine.line_from_rolls(clean_rolls, present)
                data = {"method": "rolls", "rolls": clean_rolls}
            else:
                rolled = engine.roll_line(present, secrets.SystemRandom())
                line = rolled.line
                data = {"method": "server", "rolls": [dict(r) for r in rolled.rolls]}
        except RuleError as error:
            raise DomainError(_named(error, state.players), field="line") from None
        if sorted(line) != sorted(present):
            raise DomainError(
                _("The line must hold exactly the players at the table: %(names)s.")
                % {"names": ", ".join(state.players[p] for p in present)},
                field="line",
            )
        session.events.filter(kind=ChouetteEvent.Kind.LINE, status="live").update(status="undone")
        _store(session, actor, key, ChouetteEvent.Kind.LINE, {**data, "line": list(line)})
    return session


def record_game(actor: Actor, session_id: int, data: Mapping[str, Any], key: str | None = None) -> ChouetteEvent:
    """One game: every member's cube (or drop), the board result, who took over."""
    with transaction.atomic():
        session = _lock(session_id)
        _require_table(actor, session, key)
        state = replay(session)
        if len(state.line) < engine.MIN_PLAYERS:
            raise DomainError(_("Set the line first (the opening rolls)."))
        game = _parse_game(data, state)
        try:
            score = engine.score_game(state.line, settings_of(session), game)
        except RuleError as error:
            raise DomainError(_named(error, state.players), field="game") from None
        return _store(session, actor, key, ChouetteEvent.Kind.GAME, game_to_data(game), points=score.points)


def undo_last_game(actor: Actor, session_id: int) -> ChouetteEvent:
    with transaction.atomic():
        session = _lock(session_id)
        _require_director(actor, session)
        last = session.events.filter(status="live").order_by("-number").first()
        if last is None or last.kind != ChouetteEvent.Kind.GAME:
            raise DomainError(_("The last thing recorded is not a game; only the last game can be undone."))
        last.status = ChouetteEvent.Status.UNDONE
        last.save(update_fields=["status"])
        _refresh(session)
    return last


def add_player(actor: Actor, session_id: int, name: str, key: str | None = None) -> ChouettePlayer:
    """A player joins the end of the line (between games)."""
    with transaction.atomic():
        session = _lock(session_id)
        _require_table(actor, session, key)
        state = replay(session)
        (clean,) = _clean_names([name])
        if len(_present(session, state)) >= MAX_PLAYERS:
            raise DomainError(_("A chouette has at most %(max)d players.") % {"max": MAX_PLAYERS})
        player = session.players.filter(name__iexact=clean).first()
        if player is not None and str(player.pk) in _present(session, state):
            raise DomainError(_("%(name)s is at the table already.") % {"name": clean}, field="name")
        if player is None:
            player = ChouettePlayer.objects.create(session=session, name=clean)
        _store(session, actor, key, ChouetteEvent.Kind.JOIN, {"player": str(player.pk)})
    return player


def remove_player(actor: Actor, session_id: int, player_id: Any, key: str | None = None) -> ChouetteSession:
    """A player leaves between games (their total stays in the ledger)."""
    with transaction.atomic():
        session = _lock(session_id)
        _require_table(actor, session, key)
        state = replay(session)
        player = str(player_id)
        if player not in _present(session, state):
            raise DomainError(_("This player is not at the table."), field="player")
        if not state.line:
            raise DomainError(_("Set the line first; before it, correct the players in the session's settings."))
        try:
            engine.leave(state.line, player, settings_of(session))
        except RuleError as error:
            raise DomainError(_named(error, state.players), field="player") from None
        _store(session, actor, key, ChouetteEvent.Kind.LEAVE, {"player": player})
    return session


def close_session(actor: Actor, session_id: int) -> ChouetteSession:
    """The director closes the session; its ledger is settled (who pays whom)."""
    with transaction.atomic():
        session = _lock(session_id)
        _require_director(actor, session)
        session.status = ChouetteSession.Status.CLOSED
        session.closed_at = timezone.now()
        session.save(update_fields=["status", "closed_at"])
    return session


# --- Game data -------------------------------------------------------------------------------
def game_from_data(data: Mapping[str, Any]) -> engine.ChouetteGame:
    board = data.get("board")
    return engine.ChouetteGame(
        cubes={
            player: engine.MemberCube(value=c["value"], owner=c.get("owner"), dropped_by=c.get("dropped_by"))
            for player, c in (data.get("cubes") or {}).items()
        },
        board=engine.Board(winner=board["winner"], kind=Kind(board["kind"]), resigned=board.get("resigned", False))
        if board
        else None,
        takeover=data.get("takeover"),
        automatic_doubles=data.get("automatic_doubles", 0),
        box=data.get("box"),
        captain=data.get("captain"),
    )


def game_to_data(game: engine.ChouetteGame) -> dict[str, Any]:
    return {
        "cubes": {
            player: {"value": c.value, "owner": c.owner, "dropped_by": c.dropped_by} for player, c in game.cubes.items()
        },
        "board": {"winner": game.board.winner, "kind": game.board.kind.value, "resigned": game.board.resigned}
        if game.board
        else None,
        "takeover": game.takeover,
        "automatic_doubles": game.automatic_doubles,
        "box": game.box,
        "captain": game.captain,
    }


def _parse_game(data: Any, state: SessionState) -> engine.ChouetteGame:
    """A game as sent by a page or the API; every value checked, with a message."""
    if not isinstance(data, Mapping):
        raise DomainError(_('A game is an object such as {"board": {"winner": "box", "kind": "single"}}.'))
    unknown = set(data) - {"cubes", "board", "takeover", "automatic_doubles", "box", "captain"}
    if unknown:
        raise DomainError(_("Unknown game field(s): %(names)s.") % {"names": ", ".join(sorted(map(str, unknown)))})
    names = state.players
    cubes_in = data.get("cubes") or {}
    if not isinstance(cubes_in, Mapping):
        raise DomainError(_("The cubes are an object from player id to cube."), field="cubes")
    cubes = {}
    for player, cube in cubes_in.items():
        player = str(player)
        label = names.get(player, player)
        if player not in state.line:
            raise DomainError(_("%(name)s is not in the line.") % {"name": label}, field="cubes")
        if not isinstance(cube, Mapping) or set(cube) - {"value", "owner", "dropped_by"}:
            raise DomainError(
                _('The cube of %(name)s is an object such as {"value": 2, "owner": "member", "dropped_by": null}.')
                % {"name": label},
                field="cubes",
            )
        value = cube.get("value", 1)
        if isinstance(value, str) and value.strip().isdecimal():
            value = int(value.strip())
        owner = cube.get("owner") or None
        dropped_by = cube.get("dropped_by") or None
        if owner not in (None, "box", "member") or dropped_by not in (None, "box", "member"):
            raise DomainError(
                _('The cube owner and who dropped are "box", "member" or empty (cube of %(name)s).') % {"name": label},
                field="cubes",
            )
        cubes[player] = engine.MemberCube(value=value, owner=owner, dropped_by=dropped_by)
    board_in = data.get("board")
    board = None
    if board_in not in (None, ""):
        if not isinstance(board_in, Mapping) or board_in.get("winner") not in ("box", "team"):
            raise DomainError(_('The board result names the winner: "box" or "team".'), field="board")
        try:
            kind = Kind(board_in.get("kind", "single"))
        except ValueError:
            raise DomainError(_("The kind is single, gammon or backgammon."), field="board") from None
        board = engine.Board(winner=board_in["winner"], kind=kind, resigned=bool(board_in.get("resigned", False)))
    takeover = data.get("takeover") or None
    if takeover is not None and str(takeover) not in state.line:
        raise DomainError(_("The player who took over the board is not in the line."), field="takeover")
    automatic = data.get("automatic_doubles", 0) or 0
    if isinstance(automatic, str) and automatic.strip().isdecimal():
        automatic = int(automatic.strip())
    seats = {}
    for seat in ("box", "captain"):  # optional: who the table thinks sat there (checked)
        if data.get(seat) not in (None, ""):
            if str(data[seat]) not in state.line:
                raise DomainError(
                    _("The %(seat)s named (%(name)s) is not in the line.")
                    % {"seat": seat, "name": names.get(str(data[seat]), data[seat])},
                    field=seat,
                )
            seats[seat] = str(data[seat])
    return engine.ChouetteGame(
        cubes=cubes,
        board=board,
        takeover=str(takeover) if takeover is not None else None,
        automatic_doubles=automatic,
        **seats,
    )


# --- Internals ---------------------------------------------------------------------------------
PLAYER_VALUES = ("player", "partner", "other", "captain", "box", "expected")


def _named(error: RuleError, names: Mapping[str, str]) -> str:
    """The engine's message with the players' names in place of their ids."""
    values = error.text.values
    for key in PLAYER_VALUES:
        if isinstance(values.get(key), str) and values[key] in names:
            values[key] = names[values[key]]
    if isinstance(values.get("players"), str):  # "2, 3, 4", or tied groups "2, 3; 4, 5"
        values["players"] = "; ".join(
            ", ".join(names.get(p, p) for p in group.split(", ")) for group in values["players"].split("; ")
        )
    return readable(error)


def _lock(session_id: int) -> ChouetteSession:
    session = ChouetteSession.objects.select_for_update().filter(pk=session_id).first()
    if session is None:
        raise DomainError(_("There is no such chouette session."))
    if session.status == ChouetteSession.Status.CLOSED:
        raise ConflictError(_("This session is closed."))
    return session


def is_session_director(actor: Actor, session: ChouetteSession) -> bool:
    user = actor.user
    return bool(
        actor.system
        or (user is not None and user.is_active and (user.is_superuser or user.pk == session.created_by_id))
    )


def holds_table_key(session: ChouetteSession, key: str | None) -> bool:
    return bool(key) and hmac.compare_digest(str(key), session.table_key)


def _require_table(actor: Actor, session: ChouetteSession, key: str | None) -> bool:
    """The director, or whoever holds the table's link. Returns whether a director acts."""
    if is_session_director(actor, session):
        return True
    if holds_table_key(session, key):
        return False
    raise PermissionDenied(_("Only the players at this table (with its link) or its director can do this."))


def _require_director(actor: Actor, session: ChouetteSession) -> None:
    if not is_session_director(actor, session):
        raise PermissionDenied(_("Only the session's director can do this."))


def _present(session: ChouetteSession, state: SessionState) -> list[str]:
    """The players at the table now: the line, or before it is set every player."""
    return list(state.line) if state.line else list(state.players)


def _store(
    session: ChouetteSession,
    actor: Actor,
    key: str | None,
    kind: str,
    data: dict[str, Any],
    points: dict[str, int] | None = None,
) -> ChouetteEvent:
    number = (session.events.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    event = ChouetteEvent.objects.create(
        session=session,
        number=number,
        kind=kind,
        data=data,
        points=points,
        entered_by_user=actor.user,
        entered_at_table=not is_session_director(actor, session),
    )
    _refresh(session)
    return event


def _refresh(session: ChouetteSession) -> None:
    try:
        state = replay(session)
    except RuleError as error:  # the new fact does not hold together with the rest
        raise DomainError(readable(error)) from None
    session.line = list(state.line)
    session.games_played = len(state.games)
    session.save(update_fields=["line", "games_played"])


def _clean_names(players: Any) -> list[str]:
    if isinstance(players, str):
        players = [line for line in players.replace(",", "\n").splitlines()]
    if not isinstance(players, Sequence):
        raise DomainError(_("The players are a list of names."), field="players")
    names: list[str] = []
    for raw in players:
        name = " ".join(str(raw or "").split())[:100]
        if not name:
            continue
        if name.casefold() in (n.casefold() for n in names):
            raise DomainError(_("%(name)s is named twice.") % {"name": name}, field="players")
        names.append(name)
    if not names:
        raise DomainError(_("Name the player."), field="players")
    if len(names) > MAX_PLAYERS:
        raise DomainError(_("A chouette has at most %(max)d players.") % {"max": MAX_PLAYERS}, field="players")
    return names


def _clean_settings(raw: Mapping[str, Any], players: int) -> engine.Settings:
    if not isinstance(raw, Mapping):
        raise DomainError(_('The settings are an object such as {"cubes": "many"}.'), field="settings")
    known = {"cubes", "jacoby", "beavers", "automatic_doubles_limit", "advice", "box_partner"}
    unknown = set(raw) - known
    if unknown:
        raise DomainError(
            _("Unknown setting(s): %(names)s.") % {"names": ", ".join(sorted(map(str, unknown)))}, field="settings"
        )
    try:
        settings = engine.Settings(**dict(raw))
        if settings.box_partner and players < engine.BOX_PARTNER_MIN_PLAYERS:
            raise DomainError(_("A box partner needs at least 6 players."), field="settings")
        return settings
    except RuleError as error:
        raise DomainError(readable(error), field="settings") from None


def _clean_rolls(rolls: Any) -> list[dict[str, int]]:
    if not isinstance(rolls, Sequence) or isinstance(rolls, str):
        raise DomainError(_('The rolls are a list of rounds such as [{"1": 6, "2": 3, "3": 6}, {"1": 2, "3": 5}].'))
    clean = []
    for round_ in rolls:
        if not isinstance(round_, Mapping):
            raise DomainError(_("Each round of rolls maps a player id to the die they rolled."), field="rolls")
        clean.append({str(player): _die(value) for player, value in round_.items()})
    return clean


def _die(value: Any) -> Any:
    if isinstance(value, str) and value.strip().isdecimal():
        return int(value.strip())
    return value


def _whole(value: Any, field: str, low: int, high: int) -> int:
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 10:
        value = int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DomainError(
            _("%(field)s is a whole number from %(low)d to %(high)d.") % {"field": field, "low": low, "high": high},
            field=field,
        )
    return value
