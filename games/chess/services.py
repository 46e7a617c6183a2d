"""Writing a chess mini-match: each game entered, confirmed, disputed, corrected or
undone, a flag fall from the clock, the final position that settles it, the colour
lots and the director's decision of a match level after every stage (the only
writers of ``ChessGame`` and ``ColourLot``).

The flow of a game is the one backgammon has (``games.game_log``): a player's game is
provisional until the opponent confirms it; a director's is final. The mini-match is
derived by ``minimatch`` from the games; when the confirmed games decide it, the winner
moves on through ``tournaments.services``. A flag that the server's clock records
becomes a game *held* for its final position or the director (SPEC §5). After every
change the table clock follows the mini-match: the next game starts afresh on its own
time controls (a tie-break, Armageddon). Every function takes the tournament's lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from clocks import services as clock_services
from games.chess import adjudication, lots, minimatch
from games.chess import plan as round_plan
from games.chess.models import ChessGame, ColourLot
from games.chess.position import Position
from games.chess.results import GameResult, Result, Termination, parse_game_result
from games.game_log import GameLog, GameRow, register
from games.registry import MatchDecision
from games.text import RuleError
from tournaments import access
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError, readable
from tournaments.models import Match, Tournament

GAME_TYPE = "chess"
Status = GameRow.Status
EVIDENCE_FIELDS = ("fen", "moves", "flagged", "both_flags", "white")


# --- Reading ---------------------------------------------------------------------------
def live_games(match: Match) -> list[ChessGame]:
    return LOG.live_games(match)


def colour_lots(match: Match, rows: list[ColourLot] | None = None) -> dict[str, str]:
    """White of game 1 and of Armageddon: the director's lot at the board if drawn,
    else the system's, from the draw's recorded random seed."""
    if rows is None:
        rows = list(match.chess_lots.all())
    drawn = {row.purpose: row.white_side for row in rows}
    seed = match.tournament.draw_random_seed or 0
    return {
        purpose: drawn.get(purpose) or lots.colour_lot(seed, match.flight, match.round_number, match.position, purpose)
        for purpose in lots.PURPOSES
    }


def state_of(
    match: Match, games: list[ChessGame] | None = None, lot_rows: list[ColourLot] | None = None
) -> minimatch.MiniMatchState:
    """The mini-match from its live games (confirmed and waiting)."""
    if games is None:
        games = live_games(match)
    drawn = colour_lots(match, lot_rows)
    return minimatch.replay(
        round_plan.plan_of(match.round.settings),
        drawn["first_game"],
        [minimatch.MatchGame(g.white_side, g.game_result) for g in games],
        drawn["armageddon"],
    )


def score_summary(state: minimatch.MiniMatchState) -> str:
    """The score of each stage played, in any language: "1–1, 1½–½"."""
    return ", ".join(f"{minimatch.half_text(a)}–{minimatch.half_text(b)}" for a, b in state.stage_scores) or "0–0"


def game_state(row: ChessGame) -> dict[str, Any]:
    """A game as the audit log and the API keep it."""
    return {
        "game": row.pk,
        "number": row.number,
        "status": row.status,
        "white": row.white_side,
        "result": row.result,
        "termination": row.termination,
        "flagged": row.flagged or None,
        "both_flags": row.both_flags,
        "fen": row.fen or None,
        "moves": row.moves or None,
    }


# --- The players' and the director's games ---------------------------------------------------
def record_game(actor: Actor, match_id: int, data: Mapping[str, Any], note: str = "") -> ChessGame:
    """A game has ended: its result and how it ended (``results``), optionally the final
    position or the moves, which the result must agree with (``adjudication``).

    With a clock, a game recorded after the running side's time ran out is refused: the
    flag fall is recorded instead."""
    if clock_services.enforce_due_for_match(match_id) is not None:
        raise ConflictError(
            _("The clock ran out before this game was recorded: the flag fall is recorded; enter the final position.")
        )
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        director = access.is_director(actor, tournament)
        entry = None if director else access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        tournament_services.require_playable(match)
        if match.decided_by:
            raise ConflictError(_("This match is decided; no game can be added."))
        if not director:
            clock_services.require_clock_running_if_required(match)
        games = live_games(match)
        _require_nothing_open(games)
        state = state_of(match, games)
        upcoming = _next_game(state)
        fields, needs_director = _judged_fields(match, state, upcoming, data)
        row = LOG.new_row(
            actor,
            tournament,
            match,
            upcoming.number,
            final=director,
            entry=entry,
            note=note,
            status=Status.HELD if needs_director and not director else None,
            **fields,
        )
        tournament_services.note_started(match)
        LOG.audit(tournament, actor, "game_entered", match, after=game_state(row))
        _after_change(actor, tournament, match)
    return row


def correct_last_game(actor: Actor, match_id: int, data: Mapping[str, Any], note: str = "") -> ChessGame:
    """The director replaces the last game (settles a dispute, decides a held game);
    final at once."""
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        access.require_director(actor, tournament)
        tournament_services.require_running(tournament)
        games = live_games(match)
        if not games:
            raise DomainError(_("No game has been entered in this match yet."))
        last = games[-1]
        state = state_of(match, games[:-1])
        fields, _needs_director = _judged_fields(match, state, _next_game(state), data)
        before = game_state(last)
        LOG.supersede_last(actor, tournament, match, games)
        row = LOG.new_row(actor, tournament, match, last.number, final=True, note=note, **fields)
        LOG.audit(tournament, actor, "game_corrected", match, before=before, after=game_state(row), message=note)
        _after_change(actor, tournament, match)
    return row


def enter_final_position(actor: Actor, game_id: int, fen: Any) -> ChessGame:
    """A game lost on the clock waits for its final position: the flagged player loses
    unless the opponent cannot checkmate in it, then it is a draw. A player's position is
    confirmed by the opponent; a director's is final."""
    with transaction.atomic():
        row, match, tournament = LOG.lock_game(game_id)
        director = access.is_director(actor, tournament)
        entry = None if director else access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        if row.status != Status.HELD or row.termination != Termination.FLAG or not row.flagged:
            raise ConflictError(_("This game does not wait for its final position."))
        if not isinstance(fen, str) or not fen.strip():
            raise DomainError(
                _("Enter the final position as a FEN, e.g. 8/8/8/4k3/8/8/8/4K2R w - - 0 60."), field="fen"
            )
        try:
            position = Position.from_fen(fen)
        except RuleError as error:
            raise DomainError(readable(error), field="fen") from None
        result = adjudication.flag_result(row.flagged, position)
        before = game_state(row)
        row.status = Status.SUPERSEDED
        row.save(update_fields=["status"])
        settled = LOG.new_row(
            actor,
            tournament,
            match,
            row.number,
            final=director,
            entry=entry,
            white_side=row.white_side,
            result=result.value,
            termination=Termination.FLAG.value,
            flagged=row.flagged,
            fen=position.fen(),
        )
        LOG.audit(tournament, actor, "final_position", match, before=before, after=game_state(settled))
        _after_change(actor, tournament, match)
    return settled


def flag_fall(match: Match, side: str) -> None:
    """The clock's flag fell for ``side`` (called by the clock's enforcement, the
    tournament locked): the game is recorded as lost on time for that side and held
    for its final position (the opponent may be unable to checkmate) or the director."""
    if match.decided_by:
        return
    games = live_games(match)
    if any(g.status == Status.HELD for g in games):
        return
    state = state_of(match, games)
    upcoming = state.next_game
    if upcoming is None:
        return
    flagged = "white" if side == upcoming.white else "black"
    row = LOG.new_row(
        access.SYSTEM,
        match.tournament,
        match,
        upcoming.number,
        final=False,
        status=Status.HELD,
        white_side=upcoming.white,
        result=(Result.BLACK_WINS if flagged == "white" else Result.WHITE_WINS).value,
        termination=Termination.FLAG.value,
        flagged=flagged,
    )
    tournament_services.note_started(match)
    LOG.audit(match.tournament, access.SYSTEM, "flag_fall", match, after=game_state(row))


def draw_colours(actor: Actor, match_id: int, purpose: Any, white: Any) -> ColourLot:
    """The director records White drawn by lot at the board (for game 1 or for
    Armageddon), before that game is played; it replaces the system's lot."""
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        access.require_director(actor, tournament)
        tournament_services.require_playable(match)
        if purpose not in lots.PURPOSES:
            raise DomainError(_('The lot is for "first_game" or "armageddon".'), field="purpose")
        side = white if white in ("a", "b") else match.side_of_id(white)
        if side is None:
            raise DomainError(_("White is a player of this match (side a or b, or the entry's id)."), field="white")
        games = live_games(match)
        state = state_of(match, games)
        if purpose == "first_game" and games:
            raise ConflictError(_("Game 1 has been played; its colours stand."))
        armageddon = len(state.plan.stages) - 1 if state.plan.has_armageddon else None
        if purpose == "armageddon":
            if armageddon is None:
                raise DomainError(_("This round has no Armageddon game."), field="purpose")
            if any(line.stage == armageddon for line in state.games):
                raise ConflictError(_("The Armageddon game has been played; its colours stand."))
        before = colour_lots(match)
        lot, _created = ColourLot.objects.update_or_create(
            match=match, purpose=purpose, defaults={"white_side": side, "drawn_by": actor.user}
        )
        LOG.audit(
            tournament,
            actor,
            "colours_drawn",
            match,
            before={"purpose": purpose, "white": before[purpose]},
            after={"purpose": purpose, "white": side},
        )
        _after_change(actor, tournament, match)
    return lot


def decide_level_match(actor: Actor, match_id: int, winner: Any, reason: Any = "") -> Match:
    """A match level after every stage (no Armageddon): the director decides who goes
    through (e.g. by lot), with the reason kept in the log."""
    with transaction.atomic():
        match, tournament = LOG.lock(match_id)
        access.require_director(actor, tournament)
        tournament_services.require_running(tournament)
        games = live_games(match)
        state = state_of(match, games)
        if match.decided_by or not state.undecided or any(g.is_open for g in games):
            raise ConflictError(_("Only a match level after every stage, with every game confirmed, is decided so."))
        side = winner if winner in ("a", "b") else match.side_of_id(winner)
        if side is None:
            raise DomainError(
                _("The winner is a player of this match (side a or b, or the entry's id)."), field="winner"
            )
        reason = str(reason or "").strip()
        if not reason:
            raise DomainError(
                _("Say how the level match was decided (e.g. by lot); it is kept in the log."), field="reason"
            )
        how = _("level after every stage; decided by the director: %(reason)s") % {"reason": reason[:200]}
        decision = _decision(state, games, side, f"{score_summary(state)}; {how}")
        tournament_services.decide_by_sheet(actor, tournament, match, decision)
    return match


# --- Internals -----------------------------------------------------------------------
def _require_nothing_open(games: list[ChessGame]) -> None:
    for game in games:
        if game.status == Status.DISPUTED:
            raise ConflictError(
                _("Game %(number)d is disputed: the director decides it before the next game is entered.")
                % {"number": game.number}
            )
        if game.status == Status.HELD:
            raise ConflictError(
                _("Game %(number)d waits for its final position or the director's decision.") % {"number": game.number}
            )


def _next_game(state: minimatch.MiniMatchState) -> minimatch.NextGame:
    if state.next_game is None:
        if state.undecided:
            raise ConflictError(_("The match is level after every stage: the director decides it."))
        raise ConflictError(_("This match is over; no game can be added."))
    return state.next_game


def _judged_fields(
    match: Match, state: minimatch.MiniMatchState, upcoming: minimatch.NextGame, data: Mapping[str, Any]
) -> tuple[dict[str, Any], bool]:
    """A game's data read, checked against the board and the mini-match: the model's
    fields, and whether the rules leave its result to the director."""
    if not isinstance(data, Mapping):
        raise DomainError(_('A game is an object such as {"result": "1-0", "termination": "resignation"}.'))
    data = dict(data)
    evidence_data = {name: data.pop(name) for name in EVIDENCE_FIELDS if name in data}
    try:
        game = parse_game_result(data)
        white = evidence_data.get("white")
        if white not in (None, "") and _side(match, white) != upcoming.white:
            raise DomainError(
                _("Game %(number)d: %(name)s is scheduled to play White.")
                % {"number": upcoming.number, "name": match.entry_on(upcoming.white)},
                field="white",
            )
        evidence = adjudication.Evidence(
            fen=_text(evidence_data.get("fen"), "fen"),
            moves=adjudication.moves_from_text(_text(evidence_data.get("moves"), "moves", 20000)),
            flagged=_colour(match, upcoming, evidence_data.get("flagged")),
            both_flags=_flag(evidence_data.get("both_flags")),
        )
        control = upcoming.control_a
        judgement = adjudication.judge(game, evidence, bool(control.periods and control.periods[-1].increment))
        minimatch.add_game(state, minimatch.MatchGame(upcoming.white, GameResult(judgement.result, game.termination)))
    except RuleError as error:
        raise DomainError(readable(error), field="game") from None
    fields = {
        "white_side": upcoming.white,
        "result": judgement.result.value,
        "termination": game.termination.value,
        "flagged": judgement.flagged or "",
        "both_flags": evidence.both_flags,
        "fen": judgement.final_fen,
        "moves": " ".join(judgement.moves),
    }
    return fields, judgement.needs_director


def _side(match: Match, value: Any) -> str | None:
    return value if value in ("a", "b") else match.side_of_id(value)


def _colour(match: Match, upcoming: minimatch.NextGame, value: Any) -> str | None:
    """Whose flag fell: "white"/"black", or the player (side or entry id)."""
    if value in (None, ""):
        return None
    if value in ("white", "black"):
        return value
    side = _side(match, value)
    if side is None:
        raise DomainError(_('Whose flag fell: "white", "black", or a player of this match.'), field="flagged")
    return "white" if side == upcoming.white else "black"


def _text(value: Any, field: str, limit: int = 100) -> str:
    if value in (None, ""):
        return ""
    if isinstance(value, list | tuple) and field == "moves":
        value = " ".join(str(v) for v in value)
    if not isinstance(value, str) or len(value) > limit:
        raise DomainError(_("%(field)s is a text of at most %(limit)d characters.") % {"field": field, "limit": limit})
    return value.strip()


def _flag(value: Any) -> bool:
    if value in (None, "", False, "false", "0", "off"):
        return False
    if value in (True, "true", "1", "on"):
        return True
    raise DomainError(_("both_flags is true or false."), field="both_flags")


def _after_change(actor: Actor, tournament: Tournament, match: Match) -> None:
    """After every change of the games: decide the match if it is over, and move the
    clock on to the next game (not while a flag waits for its final position)."""
    games = live_games(match)
    state = state_of(match, games)
    if games and not match.decided_by and state.over and all(g.status == Status.CONFIRMED for g in games):
        decision = _decision(state, games, state.winner, score_summary(state))
        tournament_services.decide_by_sheet(actor, tournament, match, decision)
    if clock_services.clock_of(match) is None or any(g.status == Status.HELD for g in games):
        return
    upcoming = state.next_game
    if upcoming is None:
        clock_services.halt(match)
    else:
        clock_services.new_game(match, upcoming.number, upcoming.control_a, upcoming.control_b)


def _decision(state: minimatch.MiniMatchState, games: list[ChessGame], winner: str, summary: str) -> MatchDecision:
    return MatchDecision(
        winner=winner,
        score_a=state.score_a,
        score_b=state.score_b,
        summary=summary,
        result={"games": [game_state(g) for g in games], "summary": state.summary},
    )


LOG = register(
    GameLog(
        model=ChessGame,
        game_type=GAME_TYPE,
        describe=game_state,
        after_change=_after_change,
        not_this_game=gettext_lazy("This is not a chess match."),
    )
)
confirm_game = LOG.confirm
dispute_game = LOG.dispute
undo_last_game = LOG.undo_last
confirm_if_due = LOG.confirm_if_due
