"""Writing a Scrabble match's score sheets (partiář): turns, protests, verdicts, end
racks; the only writers of the Scrabble models.

Every function takes the tournament's lock (``lock_match``), checks who is acting,
replays the game through the engine with the new fact to check it, then stores the
fact and refreshes the game's cached totals. A match whose games are decided moves
its winner on through ``tournaments.services``.

The flow at the table: the player on turn enters their move; the opponent accepts it
by entering their own turn (or explicitly) and may protest it before that. Word
protests are judged by the tournament's word list when it has one, else by a
director; the other protests are decided from the board at once.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from clocks import services as clock_services
from games.registry import MatchDecision, RuleError
from games.scrabble import game as engine
from games.scrabble import match as match_engine
from games.scrabble.models import ScrabbleGame, ScrabbleProtest, ScrabbleTurn, Word, WordList
from games.scrabble.tiles import CZECH
from tournaments import access, audit
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError, readable
from tournaments.models import Match, Tournament

GAME_TYPE = "scrabble"
SIDE_INDEX = {"a": 0, "b": 1}
INDEX_SIDE = ("a", "b")
MAX_WORD_LIST_WORDS = 5_000_000


# --- Turns ---------------------------------------------------------------------------
def record_turn(actor: Actor, match_id: int, data: Mapping[str, Any]) -> ScrabbleTurn:
    """The player on turn (or a director for them) records a move, exchange or pass.

    With a move clock, recording presses it; a move that comes after the deadline is
    refused, and the timeout pass stands instead."""
    if not actor.system:
        flagged = clock_services.enforce_due_for_match(match_id)
        if flagged is not None:
            raise ConflictError(_("Time ran out for this turn: a timeout pass has been recorded."))
    with transaction.atomic():
        match, tournament = _lock(match_id)
        return _record_turn_locked(actor, match, tournament, data)


def _record_turn_locked(actor: Actor, match: Match, tournament: Tournament, data: Mapping[str, Any]) -> ScrabbleTurn:
    director = access.is_director(actor, tournament)
    entry = None if director else access.require_player_of(actor, match)
    tournament_services.require_running(tournament)
    tournament_services.require_playable(match)
    if match.decided_by:
        raise ConflictError(_("This match is decided; no turn can be added."))
    game, created = _game_for_turn(match)
    turns, open_players = ([], set()) if created else _live_facts(game)
    state = _replay(tournament, game, turns)
    if state.ended:
        raise ConflictError(_("This game is over: enter the racks left to finish it."))
    side = _side_of_actor(match, entry, data.get("player"), state)
    # The opponent moving on takes any turn the player on turn lost to a penalty.
    while state.on_turn != SIDE_INDEX[side] and state.forced_passes_due[state.on_turn]:
        forced = engine.Turn(player=state.on_turn, kind=engine.TurnKind.FORCED_PASS)
        state = _check(state, forced)
        _store_turn(game, state, forced, access.SYSTEM, None, open_players)
    turn = _turn_from(data, SIDE_INDEX[side])
    state = _check(state, turn)
    row = _store_turn(game, state, turn, actor, entry, open_players)
    tournament_services.note_started(match)
    audit.record(tournament, actor, "scrabble.turn_entered", match=match, after=turn_state(row))
    _refresh(tournament, match, game, actor, state)
    return row


def preview_turn(actor: Actor, match_id: int, data: Mapping[str, Any]) -> engine.TurnLine:
    """What a move would score and which words it forms, without recording it."""
    match, tournament = _read(match_id)
    if not access.is_director(actor, tournament):
        access.require_player_of(actor, match)
    game = _current_game(match)
    if game is None or game.finished:  # the next game starts with this turn
        number = game.number + 1 if game is not None else 1
        state = engine.start(_settings(tournament), starter=SIDE_INDEX[starter_of(number)])
    else:
        state = _state(tournament, match, game)
    side = data.get("player") or INDEX_SIDE[state.on_turn]
    if side not in SIDE_INDEX:
        raise DomainError(_('The player is "a" or "b".'), field="player")
    return _check(state, _turn_from(data, SIDE_INDEX[side])).lines[-1]


def accept_turn(actor: Actor, turn_id: int) -> ScrabbleTurn:
    """The opponent accepts the last turn explicitly (it can no longer be protested)."""
    with transaction.atomic():
        row, game, match, tournament = _lock_turn(turn_id)
        if not access.is_director(actor, tournament):
            entry = access.require_player_of(actor, match)
            if match.side_of(entry) == row.player:
                raise DomainError(_("Your opponent accepts your turn, not you."))
        _require_last_open_turn(game, row)
        row.accepted_at = timezone.now()
        row.save(update_fields=["accepted_at"])
        audit.record(tournament, actor, "scrabble.turn_accepted", match=match, after=turn_state(row))
    return row


def raise_protest(
    actor: Actor, turn_id: int, kind: str, word: str = "", protester: str | None = None
) -> ScrabbleProtest:
    """The opponent protests the last turn before accepting it (SPEC §4.3)."""
    with transaction.atomic():
        row, game, match, tournament = _lock_turn(turn_id)
        director = access.is_director(actor, tournament)
        entry = None if director else access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        _require_last_open_turn(game, row)
        side = match.side_of(entry) if entry is not None else (protester or _other(row.player))
        if side not in SIDE_INDEX:
            raise DomainError(_('The protester is "a" or "b".'), field="protester")
        try:
            protest_kind = engine.ProtestKind(kind)
        except ValueError:
            raise DomainError(
                _("A protest is about a word, an overscore, an exchange or a placement, not %(kind)s.")
                % {"kind": kind},
                field="kind",
            ) from None
        verdict, decided_by = engine.Verdict.PENDING, ""
        word = str(word or "").strip()
        word_list = WordList.objects.filter(tournament=tournament).first()
        if protest_kind == engine.ProtestKind.WORD and word_list is not None:
            listed = Word.objects.filter(word_list=word_list, word=word.upper()).exists()
            verdict = engine.Verdict.REJECTED if listed else engine.Verdict.UPHELD
            decided_by = ScrabbleProtest.DecidedBy.WORD_LIST
        protest = engine.Protest(kind=protest_kind, protester=SIDE_INDEX[side], word=word, verdict=verdict)
        state = _state(tournament, match, game, extra_protest=(row, protest))
        line = state.lines[row.number - 1]
        decided = line.protests[-1].verdict
        if protest_kind != engine.ProtestKind.WORD:
            decided_by = ScrabbleProtest.DecidedBy.SYSTEM
        saved = ScrabbleProtest.objects.create(
            turn=row,
            kind=protest_kind.value,
            protester=side,
            word=word.upper() if protest_kind == engine.ProtestKind.WORD else "",
            verdict=decided.value,
            decided_by=decided_by,
            decided_at=timezone.now() if decided != engine.Verdict.PENDING else None,
            raised_by_entry=entry,
            raised_by_user=actor.user,
        )
        audit.record(tournament, actor, "scrabble.protest_raised", match=match, after=protest_state(saved))
        _refresh(tournament, match, game, actor)
    return saved


def decide_protest(actor: Actor, protest_id: int, verdict: str) -> ScrabbleProtest:
    """A director judges a word protest (or overrules the word list's verdict)."""
    with transaction.atomic():
        protest = ScrabbleProtest.objects.filter(pk=protest_id).select_related("turn__game").first()
        if protest is None:
            raise DomainError(_("There is no such protest."))
        match, tournament = _lock(protest.turn.game.match_id)
        access.require_director(actor, tournament)
        protest.refresh_from_db()
        if protest.kind != engine.ProtestKind.WORD:
            raise DomainError(_("Only a word protest takes a verdict; the others are decided from the board."))
        if verdict not in (engine.Verdict.UPHELD, engine.Verdict.REJECTED):
            raise DomainError(_('The verdict is "upheld" or "rejected".'), field="verdict")
        game = protest.turn.game
        if (
            ScrabbleTurn.objects.filter(game=game, status="live", number__gt=protest.turn.number)
            .exclude(kind=engine.TurnKind.FORCED_PASS)
            .exists()
        ):
            raise ConflictError(_("Turns have been played after this one: undo them first to change the verdict."))
        before = protest_state(protest)
        protest.verdict = verdict
        protest.decided_by = ScrabbleProtest.DecidedBy.DIRECTOR
        protest.decided_by_user = actor.user
        protest.decided_at = timezone.now()
        # Forced passes recorded after the protested turn depend on the verdicts: they
        # are re-derived, so any recorded one goes with the old verdict.
        ScrabbleTurn.objects.filter(
            game=game, status="live", number__gt=protest.turn.number, kind=engine.TurnKind.FORCED_PASS
        ).update(status=ScrabbleTurn.Status.UNDONE)
        protest.save()
        _state(tournament, match, game)  # the sheet still holds together
        audit.record(
            tournament, actor, "scrabble.protest_decided", match=match, before=before, after=protest_state(protest)
        )
        _refresh(tournament, match, game, actor)
    return protest


def undo_last_turn(actor: Actor, match_id: int, reason: str = "") -> ScrabbleTurn:
    """The director takes the last turn back (with its protests); a finished game or
    match is reopened (refused while the next match has started)."""
    with transaction.atomic():
        match, tournament = _lock(match_id)
        access.require_director(actor, tournament)
        game = _current_game(match, including_empty=False)
        if game is None:
            raise DomainError(_("No turn has been entered in this match yet."))
        last = game.turns.filter(status="live").order_by("-number").first()
        if match.decided_by:
            if match.decided_by != Match.DecidedBy.RESULT:
                raise DomainError(_("This match was not decided by its games; undo its result instead."))
            tournament_services.retract_decision(tournament, match)
        last.status = ScrabbleTurn.Status.UNDONE
        last.save(update_fields=["status"])
        if game.end_racks is not None:
            game.end_rack_a = game.end_rack_b = None
            game.save(update_fields=["end_rack_a", "end_rack_b"])
        audit.record(tournament, actor, "scrabble.turn_undone", match=match, before=turn_state(last), message=reason)
        _refresh(tournament, match, game, actor)
    return last


def enter_end_racks(actor: Actor, game_id: int, racks: Sequence[str]) -> ScrabbleGame:
    """The tiles left on each rack when the game ended ("" for the player who went out)."""
    with transaction.atomic():
        game = ScrabbleGame.objects.filter(pk=game_id).first()
        if game is None:
            raise DomainError(_("There is no such game."))
        match, tournament = _lock(game.match_id)
        director = access.is_director(actor, tournament)
        entry = None if director else access.require_player_of(actor, match)
        tournament_services.require_running(tournament)
        game.refresh_from_db()
        if game.finished and not director:
            raise ConflictError(_("The racks of this game are entered; ask the director to correct them."))
        if not isinstance(racks, (list, tuple)) or len(racks) != 2 or not all(isinstance(r, str) for r in racks):
            raise DomainError(_('Enter the racks left as two texts, e.g. ["AEK?", ""].'), field="racks")
        state = _state(tournament, match, game)
        try:
            finished = engine.finish(state, racks)
        except RuleError as error:
            raise DomainError(readable(error), field="racks") from None
        before = {"racks": list(game.end_racks) if game.end_racks else None}
        game.end_rack_a, game.end_rack_b = finished.end_racks
        game.end_racks_entered_by_entry = entry
        game.end_racks_entered_by_user = actor.user
        game.save()
        audit.record(
            tournament,
            actor,
            "scrabble.end_racks",
            match=match,
            before=before,
            after={"racks": list(finished.end_racks)},
        )
        _refresh(tournament, match, game, actor)
    return game


# --- Word lists ----------------------------------------------------------------------
def upload_word_list(actor: Actor, tournament_id: int, name: str, text: str) -> WordList:
    """A plain text file of valid words, one per line (replaces the previous list)."""
    with transaction.atomic():
        tournament = tournament_services.lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        if tournament.game_type != GAME_TYPE:
            raise DomainError(_("Only a Scrabble tournament has a word list."))
        words = {line.strip().upper() for line in str(text).splitlines() if line.strip() and not line.startswith("#")}
        if not words:
            raise DomainError(_("The word list is empty: one valid word per line."), field="file")
        bad = sorted(w for w in words if len(w) > 15 or not all(c in CZECH.letters for c in w))
        if bad:
            raise DomainError(
                _("These lines are not words of the Czech set (letters only, at most 15): %(words)s.")
                % {"words": ", ".join(bad[:10]) + (" …" if len(bad) > 10 else "")},
                field="file",
            )
        if len(words) > MAX_WORD_LIST_WORDS:
            raise DomainError(_("The word list is too long."), field="file")
        word_list, _created = WordList.objects.update_or_create(
            tournament=tournament, defaults={"name": str(name or "")[:200] or "words.txt", "word_count": len(words)}
        )
        word_list.words.all().delete()
        Word.objects.bulk_create((Word(word_list=word_list, word=w) for w in words), batch_size=5000)
        audit.record(
            tournament, actor, "scrabble.word_list", after={"name": word_list.name, "words": word_list.word_count}
        )
    return word_list


# --- Reading (shared with the sheet) ---------------------------------------------------
def game_facts(game: ScrabbleGame) -> tuple[list[ScrabbleTurn], list[engine.Turn]]:
    rows = list(game.turns.filter(status="live").prefetch_related("protests").order_by("number"))
    return rows, [_turn_fact(row) for row in rows]


def _live_facts(game: ScrabbleGame) -> tuple[list[engine.Turn], set[str]]:
    """The facts of ``game_facts`` in one query (the live turns joined with their
    protests), and the players who have a live turn not accepted yet: what recording a
    turn needs."""
    rows = game.turns.filter(status="live").order_by("number", "protests__id")
    rows = rows.values_list(
        "pk",
        "player",
        "kind",
        "position",
        "word",
        "announced",
        "exchanged",
        "as_played",
        "accepted_at",
        "protests__id",
        "protests__kind",
        "protests__protester",
        "protests__word",
        "protests__verdict",
    )
    turns: dict[int, tuple[list, list[engine.Protest]]] = {}
    open_players = set()
    for pk, *fields, accepted_at, protest_id, kind, protester, word, verdict in rows:
        if pk not in turns:
            turns[pk] = (fields, [])
            if accepted_at is None:
                open_players.add(fields[0])
        if protest_id is not None:
            turns[pk][1].append(_protest_fact(kind, protester, word, verdict))
    facts = [_turn_of(*fields, protests=tuple(protests)) for fields, protests in turns.values()]
    return facts, open_players


def replay_game(settings: engine.Settings, game: ScrabbleGame, turns: list[engine.Turn]) -> engine.GameState:
    return engine.replay(settings, SIDE_INDEX[game.starter], turns, game.end_racks)


def engine_settings(tournament: Tournament) -> engine.Settings:
    return _settings(tournament)


def turn_state(row: ScrabbleTurn) -> dict[str, Any]:
    return {
        "turn": row.pk,
        "number": row.number,
        "player": row.player,
        "kind": row.kind,
        "position": row.position,
        "word": row.word,
        "announced": row.announced,
        "exchanged": row.exchanged,
        "as_played": row.as_played,
        "status": row.status,
    }


def protest_state(protest: ScrabbleProtest) -> dict[str, Any]:
    return {
        "protest": protest.pk,
        "turn": protest.turn_id,
        "kind": protest.kind,
        "protester": protest.protester,
        "word": protest.word,
        "verdict": protest.verdict,
        "decided_by": protest.decided_by,
    }


# --- Internals -----------------------------------------------------------------------
def _lock(match_id: int) -> tuple[Match, Tournament]:
    match, tournament = tournament_services.lock_match(match_id)
    if tournament.game_type != GAME_TYPE:
        raise DomainError(_("This is not a Scrabble match."))
    return match, tournament


def _read(match_id: int) -> tuple[Match, Tournament]:
    match = Match.objects.select_related("tournament", "round", "entry_a", "entry_b").filter(pk=match_id).first()
    if match is None:
        raise DomainError(_("There is no such match."))
    if match.tournament.game_type != GAME_TYPE:
        raise DomainError(_("This is not a Scrabble match."))
    return match, match.tournament


def _lock_turn(turn_id: int) -> tuple[ScrabbleTurn, ScrabbleGame, Match, Tournament]:
    found = ScrabbleTurn.objects.filter(pk=turn_id).values_list("game__match_id", flat=True).first()
    if found is None:
        raise DomainError(_("There is no such turn."))
    match, tournament = _lock(found)
    row = ScrabbleTurn.objects.select_related("game").get(pk=turn_id)
    return row, row.game, match, tournament


def _settings(tournament: Tournament) -> engine.Settings:
    settings = tournament.game.clean_settings(tournament.settings)
    return engine.Settings(
        scoreless_turns_to_end=settings["scoreless_turns"],
        word_penalty=engine.WordPenalty(settings["word_penalty"]),
        penalty_points=settings["penalty_points"],
        end_rule=engine.EndRule(settings["end_rule"]),
    )


def starter_of(number: int) -> str:
    """Players take turns to start: slot a starts the odd games."""
    return "a" if number % 2 == 1 else "b"


def _current_game(match: Match, including_empty: bool = True) -> ScrabbleGame | None:
    """The match's last game (``including_empty``: also one without a live turn), or None."""
    games = list(match.scrabble_games.order_by("number"))
    if not including_empty:
        games = [g for g in games if g.turns.filter(status="live").exists()]
    return games[-1] if games else None


def _game_for_turn(match: Match) -> tuple[ScrabbleGame, bool]:
    """The game a new turn goes to: the last one until it is finished, then the next one
    (created now: True)."""
    games = list(match.scrabble_games.order_by("number"))
    if games and not games[-1].finished:
        return games[-1], False
    number = len(games) + 1
    return ScrabbleGame.objects.create(match=match, number=number, starter=starter_of(number)), True


def _state(
    tournament: Tournament,
    match: Match,
    game: ScrabbleGame,
    extra_protest: tuple[ScrabbleTurn, engine.Protest] | None = None,
) -> engine.GameState:
    _rows, turns = game_facts(game)
    if extra_protest is not None:
        row, protest = extra_protest
        index = next(i for i, t in enumerate(_rows) if t.pk == row.pk)
        turns[index] = replace(turns[index], protests=(*turns[index].protests, protest))
    return _replay(tournament, game, turns)


def _replay(tournament: Tournament, game: ScrabbleGame, turns: list[engine.Turn]) -> engine.GameState:
    try:
        return replay_game(_settings(tournament), game, turns)
    except RuleError as error:
        raise DomainError(readable(error)) from None


def _check(state: engine.GameState, turn: engine.Turn) -> engine.GameState:
    try:
        return engine.add_turn(state, turn)
    except RuleError as error:
        raise DomainError(readable(error), field="turn") from None


def _side_of_actor(match: Match, entry, requested: Any, state: engine.GameState) -> str:
    on_turn = INDEX_SIDE[state.on_turn]
    if entry is None:  # a director enters for the player named, by default the one on turn
        side = requested or on_turn
        if side not in SIDE_INDEX:
            raise DomainError(_('The player is "a" or "b".'), field="player")
        return side
    side = match.side_of(entry)
    if side != on_turn and not state.forced_passes_due[state.on_turn]:
        raise DomainError(_("It is your opponent's turn."), field="player")
    return side


def _turn_from(data: Mapping[str, Any], player: int) -> engine.Turn:
    if not isinstance(data, Mapping):
        raise DomainError(_('A turn is an object such as {"kind": "place", "position": "8D", ...}.'))
    unknown = set(data) - {"kind", "position", "word", "announced", "exchanged", "as_played", "player"}
    if unknown:
        raise DomainError(_("Unknown turn field(s): %(names)s.") % {"names": ", ".join(sorted(map(str, unknown)))})
    try:
        kind = engine.TurnKind(data.get("kind", "place"))
    except ValueError:
        raise DomainError(
            _("A turn is a place, exchange, pass, timeout or forced_pass, not %(kind)s.") % {"kind": data.get("kind")},
            field="kind",
        ) from None
    return engine.Turn(
        player=player,
        kind=kind,
        position=str(data.get("position") or "").strip(),
        word=str(data.get("word") or "").strip(),
        announced=_whole(data.get("announced", 0), "announced"),
        exchanged=_whole(data.get("exchanged", 0), "exchanged"),
        as_played=bool(data.get("as_played", False)),
    )


def _whole(value: Any, field: str) -> int:
    if value in (None, ""):
        return 0
    if isinstance(value, str) and value.strip().isdecimal() and len(value.strip()) < 6:
        return int(value.strip())
    if isinstance(value, bool) or not isinstance(value, int):
        raise DomainError(_("%(field)s must be a whole number.") % {"field": field}, field=field)
    return value


def _turn_fact(row: ScrabbleTurn) -> engine.Turn:
    protests = tuple(
        _protest_fact(p.kind, p.protester, p.word, p.verdict) for p in sorted(row.protests.all(), key=lambda p: p.pk)
    )
    return _turn_of(
        row.player, row.kind, row.position, row.word, row.announced, row.exchanged, row.as_played, protests=protests
    )


def _turn_of(
    player: str,
    kind: str,
    position: str,
    word: str,
    announced: int,
    exchanged: int,
    as_played: bool,
    protests: tuple[engine.Protest, ...],
) -> engine.Turn:
    return engine.Turn(
        player=SIDE_INDEX[player],
        kind=engine.TurnKind(kind),
        position=position,
        word=word,
        announced=announced,
        exchanged=exchanged,
        as_played=as_played,
        protests=protests,
    )


def _protest_fact(kind: str, protester: str, word: str, verdict: str) -> engine.Protest:
    return engine.Protest(
        kind=engine.ProtestKind(kind),
        protester=SIDE_INDEX[protester],
        word=word,
        verdict=engine.Verdict(verdict) if kind == engine.ProtestKind.WORD else engine.Verdict.PENDING,
    )


def _store_turn(
    game, state: engine.GameState, turn: engine.Turn, actor: Actor, entry, open_players: set[str]
) -> ScrabbleTurn:
    """Store ``turn``; it accepts the opponent's turns not accepted yet (``open_players``:
    whose turns those are, kept up to date here)."""
    line = state.lines[-1]
    now = timezone.now()
    player = INDEX_SIDE[turn.player]
    if open_players - {player}:
        game.turns.filter(status="live", accepted_at__isnull=True).exclude(player=player).update(accepted_at=now)
    open_players.clear()
    open_players.add(player)  # the turn stored now waits for the opponent's acceptance
    return ScrabbleTurn.objects.create(
        game=game,
        number=line.number,
        player=player,
        kind=turn.kind.value,
        position=line.placement.position.gcg if line.placement else "",
        word=line.placement.notation if line.placement else "",
        announced=turn.announced,
        exchanged=turn.exchanged,
        as_played=turn.as_played,
        entered_by_entry=entry,
        entered_by_user=actor.user,
    )


def _require_last_open_turn(game: ScrabbleGame, row: ScrabbleTurn) -> None:
    if row.status != ScrabbleTurn.Status.LIVE:
        raise ConflictError(_("This turn has been undone."))
    last = game.turns.filter(status="live").order_by("-number").first()
    if last is None or last.pk != row.pk or row.accepted_at is not None:
        raise ConflictError(
            _("This turn has been accepted already (a later turn was entered): it can no longer be protested.")
        )


def _to_move(state: engine.GameState) -> str:
    """Who moves next: the player on turn, or their opponent while a penalty takes the
    player's turn away (forced pass)."""
    if state.forced_passes_due[state.on_turn]:
        return INDEX_SIDE[1 - state.on_turn]
    return INDEX_SIDE[state.on_turn]


def record_timeout(match: Match, side: str) -> ScrabbleTurn:
    """The move clock ran out for ``side`` (called by the clock's enforcement, with the
    match locked): a timeout pass is recorded and the opponent's time runs."""
    return _record_turn_locked(
        access.SYSTEM, match, match.tournament, {"kind": engine.TurnKind.TIMEOUT.value, "player": side}
    )


def _other(side: str) -> str:
    return "b" if side == "a" else "a"


def _refresh(
    tournament: Tournament, match: Match, game: ScrabbleGame, actor: Actor, state: engine.GameState | None = None
) -> None:
    """Cache the game's totals and decide the match when its games decide it (``state``:
    the game's state from its stored facts, when the caller has it already)."""
    state = state or _state(tournament, match, game)
    final = state.final_scores
    totals = (*(final if final is not None else state.scores), state.ended, state.finished)
    # ``game`` is the row as read (or created) under this transaction's lock: unchanged
    # totals (most passes, a timeout) are not written again.
    if totals != (game.score_a, game.score_b, game.ended, game.finished):
        game.score_a, game.score_b, game.ended, game.finished = totals
        game.save(update_fields=["score_a", "score_b", "ended", "finished"])
    clock_services.follow_sheet(match, None if state.ended or match.decided_by else _to_move(state), game.number)
    if match.decided_by or not game.finished:  # only a finished game can decide the match
        return
    settings = match_engine.clean_round_settings(match.round.settings)
    results = [
        match_engine.GameResult(g.score_a, g.score_b) for g in match.scrabble_games.order_by("number") if g.finished
    ]
    decided = match_engine.match_state(settings["best_of"], results, settings["spread_cap"])
    if not decided.over:
        return
    summary = f"{_wins(decided.wins_a)}–{_wins(decided.wins_b)}"
    if decided.decided_by_spread:
        summary += f" ({decided.spread:+d})"
    tournament_services.decide_by_sheet(
        actor,
        tournament,
        match,
        MatchDecision(
            winner=decided.winner,
            score_a=decided.wins_a,
            score_b=decided.wins_b,
            summary=summary,
            result={"games": [[r.score_a, r.score_b] for r in results], "spread": decided.spread},
        ),
    )


def _wins(value: float) -> str:
    whole = int(value)
    return f"{whole}½" if value - whole else str(whole)
