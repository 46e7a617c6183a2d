"""Every change to a tournament goes through these functions (and only these).

Each use case is one function: it checks who is acting (``tournaments.access``), takes
the tournament's row lock so that two writers queue instead of overwriting each
other, checks the rules, writes the facts and what follows from them, and records the
change in the audit log. Failures raise ``DomainError`` (400), ``ConflictError``
(409) or ``PermissionDenied`` (403) with a message a person can act on; nothing is
written then.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from contextvars import ContextVar
from datetime import datetime, timedelta
from typing import Any, TypeVar

from django.contrib.auth import get_user_model
from django.db import connection, transaction
from django.db.models import Max, QuerySet, Subquery
from django.utils import timezone
from django.utils.translation import gettext as _

from games import registry
from games.registry import RuleError
from tournaments import access, audit, bracket_store, cleaning, draws, edge_cache, scheduling
from tournaments.access import Actor
from tournaments.bracket import Bracket, BracketError, DecidedBy
from tournaments.csv_import import CsvError, parse_entries_csv
from tournaments.draws import DrawEntry, DrawError, MatchKey, SeedingMethod
from tournaments.errors import ConflictError, DomainError, readable
from tournaments.models import Entry, Match, PageVersion, ResultSubmission, Round, Tournament

OPEN = ResultSubmission.OPEN
T = TypeVar("T")


# --- Tournaments ---------------------------------------------------------------------
SETTINGS_FIXED_BY_THE_DRAW = (
    "game_type",
    "seeding_method",
    "seeded_count",
    "third_place_match",
    "consolation",
    "round_plan",
    "settings",
)


def create_tournament(actor: Actor, **fields: Any) -> Tournament:
    """A new tournament in draft; the creating user becomes its director."""
    access.require_signed_in(actor)
    fields.setdefault("game_type", registry.SCORED.key)
    clean = cleaning.clean_tournament_fields(fields, game_type=fields["game_type"])
    if not clean.get("name"):
        raise DomainError(_("Give the tournament a name."), field="name")
    with transaction.atomic():
        tournament = Tournament(**clean)
        tournament.slug = cleaning.unique_slug(clean["name"])
        tournament.save()
        tournament.directors.add(actor.user)
        audit.record(tournament, actor, "tournament.created", after=audit.tournament_state(tournament))
    return tournament


def update_tournament(actor: Actor, tournament_id: int, **fields: Any) -> Tournament:
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        if tournament.status == Tournament.Status.FINISHED:
            raise DomainError(_("The tournament has finished; its settings can no longer change."))
        game_type = fields.get("game_type", tournament.game_type)
        clean = cleaning.clean_tournament_fields(fields, game_type=game_type)
        if tournament.is_drawn:
            fixed = [
                name
                for name in SETTINGS_FIXED_BY_THE_DRAW
                if name in clean and clean[name] != getattr(tournament, name)
            ]
            if fixed:
                raise DomainError(
                    _("The draw has been made: %(fields)s can no longer change. Cancel the draw first.")
                    % {"fields": ", ".join(fixed)},
                    field=fixed[0],
                )
        if "name" in clean and not clean["name"]:
            raise DomainError(_("Give the tournament a name."), field="name")
        before = audit.tournament_state(tournament)
        for name, value in clean.items():
            setattr(tournament, name, value)
        tournament.save()
        after = audit.tournament_state(tournament)
        if before != after:
            audit.record(tournament, actor, "tournament.updated", before=before, after=after)
    return tournament


def open_registration(actor: Actor, tournament_id: int) -> Tournament:
    """Draft -> registration: the tournament becomes public."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        if tournament.status != Tournament.Status.DRAFT:
            raise DomainError(
                _("Registration can be opened only for a draft tournament; this one is %(status)s.")
                % {"status": tournament.get_status_display()}
            )
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save(update_fields=["status", "updated_at"])
        audit.record(
            tournament,
            actor,
            "tournament.registration_opened",
            before={"status": "draft"},
            after={"status": tournament.status},
        )
    return tournament


def add_director(actor: Actor, tournament_id: int, username: str) -> Tournament:
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        user = get_user_model().objects.filter(username=str(username).strip()).first()
        if user is None:
            raise DomainError(_("There is no user %(name)s.") % {"name": username}, field="username")
        tournament.directors.add(user)
        audit.record(tournament, actor, "tournament.director_added", after={"director": user.username})
    return tournament


# --- Entries -------------------------------------------------------------------------
def add_entry(actor: Actor, tournament_id: int, **fields: Any) -> Entry:
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        _require_registration_open(tournament)
        clean = cleaning.clean_entry_fields(tournament, fields)
        entry = Entry.objects.create(tournament=tournament, **clean)
        audit.record(tournament, actor, "entry.added", after=audit.entry_state(entry))
    return entry


def update_entry(actor: Actor, entry_id: int, **fields: Any) -> Entry:
    with transaction.atomic():
        entry = _locked_entry(entry_id)
        tournament = entry.tournament
        access.require_director(actor, tournament)
        clean = cleaning.clean_entry_fields(tournament, fields, entry)
        fixed = [name for name in ("seed", "rating") if name in clean and clean[name] != getattr(entry, name)]
        if tournament.is_drawn and fixed:
            raise DomainError(_("The draw has been made: seeds and ratings can no longer change."), field=fixed[0])
        before = audit.entry_state(entry)
        for name, value in clean.items():
            setattr(entry, name, value)
        entry.save()
        audit.record(tournament, actor, "entry.updated", before=before, after=audit.entry_state(entry))
    return entry


def set_seeds(actor: Actor, tournament_id: int, seeds: Mapping[int, Any]) -> list[Entry]:
    """Give many players their seed numbers at once (None or "" clears a seed).

    Checked as a whole: the new numbers must not repeat, whatever order they are given in.
    """
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        _require_registration_open(tournament)
        entries = {e.pk: e for e in tournament.entries.all()}
        unknown = [str(pk) for pk in seeds if cleaning.as_int(pk) not in entries]
        if unknown:
            raise DomainError(
                _("Not players of this tournament: %(ids)s.") % {"ids": ", ".join(unknown)}, field="seeds"
            )
        new = {e.pk: e.seed for e in entries.values()}
        for pk, value in seeds.items():
            new[cleaning.as_int(pk)] = cleaning.optional_int(value, "seed", minimum=1, maximum=cleaning.MAX_SEED)
        holders: dict[int, str] = {}
        for pk, seed in sorted(new.items(), key=lambda item: entries[item[0]].name):
            if seed is None:
                continue
            if seed in holders:
                raise DomainError(
                    _("Seed %(seed)d is given to both %(first)s and %(second)s.")
                    % {"seed": seed, "first": holders[seed], "second": entries[pk].name},
                    field="seeds",
                )
            holders[seed] = entries[pk].name
        changed = [e for pk, e in entries.items() if e.seed != new[pk]]
        before = {e.name: e.seed for e in changed}
        for entry in changed:
            entry.seed = None
        Entry.objects.bulk_update(changed, ["seed"])  # clear first: the unique index sees no clash
        for entry in changed:
            entry.seed = new[entry.pk]
        Entry.objects.bulk_update(changed, ["seed"])
        if changed:
            audit.record(tournament, actor, "entry.seeded", before=before, after={e.name: e.seed for e in changed})
    return sorted(entries.values(), key=lambda e: (e.seed is None, e.seed or 0, e.name))


def remove_entry(actor: Actor, entry_id: int) -> None:
    """Take a player off the list before the draw (after it, withdraw them)."""
    with transaction.atomic():
        entry = _locked_entry(entry_id)
        tournament = entry.tournament
        access.require_director(actor, tournament)
        if tournament.is_drawn:
            raise DomainError(_("The draw has been made: withdraw the player instead of removing them."))
        before = audit.entry_state(entry)
        entry.delete()
        audit.record(tournament, actor, "entry.removed", before=before)


def import_entries(actor: Actor, tournament_id: int, csv_text: str) -> list[Entry]:
    """Add every player of a CSV file, or none of them if any line is wrong."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        _require_registration_open(tournament)
        try:
            rows = parse_entries_csv(csv_text)
        except CsvError as error:
            raise DomainError(readable(error), field="file") from None
        problems: list[str] = []
        cleaned: list[dict[str, Any]] = []
        names_in_file: dict[str, int] = {}
        seeds_in_file: dict[int, int] = {}
        taken = cleaning.TakenNames.of(tournament)
        for row in rows:
            try:
                clean = cleaning.clean_entry_fields(tournament, dict(row.values), taken=taken)
            except DomainError as error:
                problems.append(_("Line %(line)d: %(problem)s") % {"line": row.line, "problem": error.message})
                continue
            folded = cleaning.fold_name(clean["name"])
            if folded in names_in_file:
                problems.append(
                    _("Line %(line)d: %(name)s is already on line %(other)d.")
                    % {"line": row.line, "name": clean["name"], "other": names_in_file[folded]}
                )
                continue
            if clean.get("seed") is not None and clean["seed"] in seeds_in_file:
                problems.append(
                    _("Line %(line)d: seed %(seed)d is already given on line %(other)d.")
                    % {"line": row.line, "seed": clean["seed"], "other": seeds_in_file[clean["seed"]]}
                )
                continue
            names_in_file[folded] = row.line
            if clean.get("seed") is not None:
                seeds_in_file[clean["seed"]] = row.line
            cleaned.append(clean)
        if problems:
            raise DomainError(
                _("Nothing was imported. Fix these lines and upload the file again:") + "\n" + "\n".join(problems),
                field="file",
            )
        entries = Entry.objects.bulk_create(Entry(tournament=tournament, **c) for c in cleaned)
        audit.record(
            tournament,
            actor,
            "entry.imported",
            after={"count": len(entries), "names": [e.name for e in entries]},
        )
    return entries


def withdraw_entry(actor: Actor, entry_id: int, reason: str = "") -> Entry:
    """A player leaves a running event: wherever they wait, the opponent advances."""
    with transaction.atomic():
        entry = _locked_entry(entry_id)
        tournament = entry.tournament
        access.require_director(actor, tournament)
        if not tournament.is_drawn:
            raise DomainError(_("The draw has not been made yet: remove the player instead."))
        if tournament.status == Tournament.Status.FINISHED:
            raise DomainError(_("The tournament has finished."))
        if entry.withdrawn:
            raise DomainError(_("%(name)s has already withdrawn.") % {"name": entry.name})
        entry.withdrawn_at = timezone.now()
        entry.save(update_fields=["withdrawn_at"])
        bracket, rows = bracket_store.load(tournament)
        changed = bracket.withdraw(entry.pk)
        _save_bracket(tournament, bracket, rows, changed)
        audit.record(
            tournament,
            actor,
            "entry.withdrawn",
            after={"entry": entry.name, "walkovers": [rows[k].pk for k in changed if bracket[k].decided]},
            message=reason,
        )
        _finish_if_complete(tournament, bracket, actor)
    return entry


# --- The draw ------------------------------------------------------------------------
def make_draw(actor: Actor, tournament_id: int, random_seed: int | None = None) -> Tournament:
    """Seed the players, draw the rest, and create every round and match."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        if tournament.is_drawn:
            raise DomainError(_("The draw has already been made. Cancel it first to draw again."))
        if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
            raise DomainError(_("The draw can be made only before the tournament starts."))
        if random_seed is None:
            random_seed = secrets.randbits(63)
        elif not isinstance(random_seed, int) or isinstance(random_seed, bool) or not 0 <= random_seed < 2**63:
            raise DomainError(_("The random seed must be a whole number from 0 to 2^63 − 1."), field="random_seed")
        entries = list(tournament.entries.filter(withdrawn_at__isnull=True))
        try:
            draw = draws.make_draw(
                [DrawEntry(id=e.pk, rating=e.rating, seed=e.seed) for e in entries],
                method=SeedingMethod(tournament.seeding_method),
                random_seed=random_seed,
                seeded_count=tournament.seeded_count,
                third_place=tournament.third_place_match,
                consolation=tournament.consolation,
            )
        except DrawError as error:
            raise DomainError(readable(error)) from None

        game = tournament.game
        rounds: dict[tuple[str, int], Round] = {}
        main_rounds = draw.flight_rounds("main")
        for spec in draw.matches:
            flight, number = spec.key.flight, spec.key.round
            if (flight, number) not in rounds:
                plan_round = main_rounds if flight == "third_place" else number
                rounds[(flight, number)] = Round(
                    tournament=tournament,
                    flight=flight,
                    number=number,
                    settings=game.round_settings(tournament.round_plan, plan_round, tournament.settings),
                )
        Round.objects.bulk_create(rounds.values())

        # Byes are settled before anything is stored, and every match is created
        # after the matches its players go on to, so that no row needs a second write.
        bracket = Bracket.from_draw(draw.matches)
        bracket.settle()
        specs = {spec.key: spec for spec in draw.matches}
        rows: dict[MatchKey, Match] = {}
        for group in _creation_order(draw.matches):
            batch = [_match_row(tournament, rounds, specs[key], bracket[key], rows) for key in group]
            Match.objects.bulk_create(batch)
            rows.update(zip(group, batch, strict=True))
        for entry in entries:
            entry.bracket_seed = draw.seed_of[entry.pk]
        _store_bracket_seeds(draw.seed_of)

        tournament.draw_random_seed = random_seed
        tournament.bracket_size = draw.bracket_size
        tournament.drawn_at = timezone.now()
        tournament.status = Tournament.Status.RUNNING
        tournament.save()
        by_seed = sorted(entries, key=lambda e: e.bracket_seed)
        audit.record(
            tournament,
            actor,
            "draw.made",
            after={
                "random_seed": str(random_seed),
                "bracket_size": draw.bracket_size,
                "seeding": tournament.seeding_method,
                "seeds": [[e.bracket_seed, e.name] for e in by_seed],
            },
        )
    return tournament


def _creation_order(specs) -> list[list[MatchKey]]:
    """Groups of matches (one round each) such that every match's winner and loser go
    to matches of earlier groups: third place, then the consolation and the main
    flight from their finals back."""
    flight_order = {"third_place": 0, "consolation": 1, "main": 2}
    groups: dict[tuple[int, int], list[MatchKey]] = {}
    for spec in specs:
        groups.setdefault((flight_order[spec.key.flight], -spec.key.round), []).append(spec.key)
    return [sorted(groups[g]) for g in sorted(groups)]


def _match_row(tournament, rounds, spec, state, rows: Mapping[MatchKey, Match]) -> Match:
    return Match(
        tournament=tournament,
        round=rounds[(spec.key.flight, spec.key.round)],
        flight=spec.key.flight,
        round_number=spec.key.round,
        position=spec.key.position,
        entry_a_id=state.a.entry,
        entry_b_id=state.b.entry,
        bye_a=state.a.bye,
        bye_b=state.b.bye,
        winner_to=rows[spec.winner_to.to] if spec.winner_to else None,
        winner_to_slot=spec.winner_to.slot if spec.winner_to else "",
        loser_to=rows[spec.loser_to.to] if spec.loser_to else None,
        loser_to_slot=spec.loser_to.slot if spec.loser_to else "",
        loser_only_from=spec.loser_only_from or "",
        winner_side=state.winner or "",
        winner_id=state.winner_entry,
        decided_by=state.decided_by.value if state.decided_by else "",
        decided_at=timezone.now() if state.decided else None,
        status=bracket_store.derived_status(state),
    )


def _store_bracket_seeds(seed_of: Mapping[int, int], batch: int = 400) -> None:
    """Write every entry's seed in the draw with one UPDATE per batch (an ORM
    bulk_update builds one expression per row and takes a second for 1024 players)."""
    table = connection.ops.quote_name(Entry._meta.db_table)
    items = sorted(seed_of.items())
    with connection.cursor() as cursor:
        for start in range(0, len(items), batch):
            chunk = items[start : start + batch]
            cases = " ".join("WHEN %s THEN %s" for _ in chunk)
            ids = ", ".join("%s" for _ in chunk)
            params = [value for pair in chunk for value in pair] + [entry_id for entry_id, _ in chunk]
            cursor.execute(
                f"UPDATE {table} SET bracket_seed = CASE id {cases} END WHERE id IN ({ids})",  # noqa: S608
                params,
            )


def cancel_draw(actor: Actor, tournament_id: int) -> Tournament:
    """Take the draw back while no match has started."""
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        access.require_director(actor, tournament)
        if not tournament.is_drawn:
            raise DomainError(_("There is no draw to cancel."))
        played = (
            tournament.matches.filter(started_at__isnull=False).exists()
            or tournament.matches.filter(decided_by__in=[Match.DecidedBy.RESULT, Match.DecidedBy.WALKOVER]).exists()
        )
        if played:
            raise DomainError(_("Matches have already been played; the draw can no longer be cancelled."))
        before = {"random_seed": str(tournament.draw_random_seed), "bracket_size": tournament.bracket_size}
        tournament.matches.all().delete()
        tournament.rounds.all().delete()
        tournament.entries.update(bracket_seed=None)
        tournament.draw_random_seed = None
        tournament.bracket_size = None
        tournament.drawn_at = None
        tournament.status = Tournament.Status.REGISTRATION
        tournament.save()
        audit.record(tournament, actor, "draw.cancelled", before=before)
    return tournament


def update_round_settings(actor: Actor, round_id: int, settings: Mapping[str, Any]) -> Round:
    with transaction.atomic():
        round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
        if round_ is None:
            raise DomainError(_("There is no such round."))
        tournament = _lock_tournament(round_.tournament_id)
        access.require_director(actor, tournament)
        if round_.matches.filter(started_at__isnull=False).exists():
            raise DomainError(_("This round has started; its settings can no longer change."))
        try:
            clean = tournament.game.clean_round_settings({**round_.settings, **dict(settings)})
        except RuleError as error:
            raise DomainError(readable(error), field="settings") from None
        before = round_.settings
        round_.settings = clean
        round_.save(update_fields=["settings"])
        audit.record(
            tournament,
            actor,
            "round.updated",
            before={"round": round_.number, "settings": before},
            after={"round": round_.number, "settings": clean},
        )
    return round_


# --- Results -------------------------------------------------------------------------
def submit_result(
    actor: Actor,
    match_id: int,
    result: Mapping[str, Any],
    winner_entry_id: int | None = None,
    note: str = "",
) -> ResultSubmission:
    """A player's result is provisional until confirmed; a director's is final at once.

    A director entering a result for a decided match corrects it: allowed while the
    next match has not started when the winner changes.
    """
    tournament = None
    try:
        with transaction.atomic():
            match, tournament = _lock_match(match_id)
            director = access.is_director(actor, tournament)
            entry = None if director else access.require_player_of(actor, match)
            _require_running(tournament)
            _require_playable(match)
            decision = _decide(tournament, match, result, winner_entry_id)
            open_submission, confirmed = _standing_submissions(match)
            if director:
                return _director_result(actor, tournament, match, decision, open_submission, confirmed, note)
            if match.decided_by:
                raise ConflictError(_("This match already has a confirmed result."))
            if open_submission is not None:
                if (
                    open_submission.submitted_by_entry_id == entry.pk
                    and open_submission.status == ResultSubmission.Status.PROVISIONAL
                ):
                    _supersede(open_submission)
                elif open_submission.status == ResultSubmission.Status.DISPUTED:
                    raise ConflictError(_("The result of this match is disputed and waits for the director."))
                else:
                    raise ConflictError(
                        _("Your opponent has already entered a result (%(summary)s): confirm or dispute it.")
                        % {"summary": open_submission.summary}
                    )
            now = timezone.now()
            timeout = tournament.confirmation_timeout_seconds
            submission = _create_submission(
                match,
                decision,
                status=ResultSubmission.Status.PROVISIONAL,
                submitted_by_entry=entry,
                confirm_deadline=now + timedelta(seconds=timeout) if timeout else None,
                note=note,
            )
            match.status = Match.Status.PROVISIONAL
            match.started_at = match.started_at or now
            match.save(update_fields=["status", "started_at"])
            audit.record(tournament, actor, "result.submitted", match=match, after=audit.submission_state(submission))
            if submission.confirm_deadline:
                _schedule_confirmation(submission)
            return submission
    except ConflictError as error:
        if tournament is not None:
            # The refused attempt is kept too: nothing a player sent is lost.
            _record_refused(tournament, actor, match_id, result, error)
        raise


def confirm_result(actor: Actor, submission_id: int) -> ResultSubmission:
    """The opponent (or a director) confirms a provisional result; a director may also
    confirm a disputed one."""
    with transaction.atomic():
        submission, match, tournament = _lock_submission(submission_id)
        director = access.is_director(actor, tournament)
        if not director:
            entry = access.require_player_of(actor, match)
            if submission.submitted_by_entry_id == entry.pk:
                raise DomainError(_("You entered this result; your opponent must confirm it."))
        if submission.status == ResultSubmission.Status.DISPUTED and not director:
            raise ConflictError(_("This result is disputed; the director decides it."))
        if submission.status not in OPEN:
            raise ConflictError(
                _("This result is no longer waiting for confirmation (it is %(status)s).")
                % {"status": submission.get_status_display().lower()}
            )
        _require_running(tournament)
        _confirm(actor, tournament, match, submission)
    return submission


def dispute_result(actor: Actor, submission_id: int, reason: str = "") -> ResultSubmission:
    """The opponent says the result is wrong: the director decides."""
    with transaction.atomic():
        submission, match, tournament = _lock_submission(submission_id)
        entry = access.require_player_of(actor, match)
        if submission.submitted_by_entry_id == entry.pk:
            raise DomainError(_("You entered this result; enter the right one instead of disputing your own."))
        if submission.status != ResultSubmission.Status.PROVISIONAL:
            raise ConflictError(
                _("This result is no longer waiting for confirmation (it is %(status)s).")
                % {"status": submission.get_status_display().lower()}
            )
        reason = str(reason or "").strip()
        if len(reason) > 1000:
            raise DomainError(_("Keep the reason under 1000 characters."), field="reason")
        submission.status = ResultSubmission.Status.DISPUTED
        submission.disputed_by_entry = entry
        submission.disputed_at = timezone.now()
        submission.dispute_reason = reason
        submission.save(update_fields=["status", "disputed_by_entry", "disputed_at", "dispute_reason"])
        match.status = Match.Status.DISPUTED
        match.save(update_fields=["status"])
        audit.record(
            tournament,
            actor,
            "result.disputed",
            match=match,
            after=audit.submission_state(submission),
            message=reason,
        )
    return submission


def record_walkover(actor: Actor, match_id: int, winner_entry_id: int, note: str = "") -> ResultSubmission:
    """The director awards a match (a no-show, a late withdrawal)."""
    with transaction.atomic():
        match, tournament = _lock_match(match_id)
        access.require_director(actor, tournament)
        _require_running(tournament)
        _require_playable(match)
        if match.decided_by:
            raise ConflictError(_("This match is already decided; undo it first."))
        side = _side_of_entry(match, winner_entry_id)
        decision = registry.MatchDecision(winner=side, score_a=None, score_b=None, summary=_("walkover"), result={})
        open_submission = _open_submission(match)
        if open_submission is not None:
            _supersede(open_submission)
        submission = _create_submission(
            match,
            decision,
            status=ResultSubmission.Status.CONFIRMED,
            kind=ResultSubmission.Kind.WALKOVER,
            submitted_by_user=actor.user,
            confirmed_by_user=actor.user,
            confirmed=True,
            note=note,
        )
        _apply_decision(actor, tournament, match, submission, DecidedBy.WALKOVER)
        audit.record(
            tournament,
            actor,
            "result.walkover",
            match=match,
            after=audit.submission_state(submission),
            message=note,
        )
    return submission


def undo_result(actor: Actor, match_id: int, reason: str = "") -> Match:
    """The director takes a result back; refused while a match it fed has started."""
    with transaction.atomic():
        match, tournament = _lock_match(match_id)
        access.require_director(actor, tournament)
        if match.decided_by in (Match.DecidedBy.BYE, Match.DecidedBy.VOID):
            raise DomainError(_("A bye is not a result; there is nothing to undo."))
        if match.decided_by == Match.DecidedBy.WITHDRAWAL:
            raise DomainError(_("This match was decided by a withdrawal; there is nothing to undo."))
        if not match.decided_by:
            raise DomainError(_("This match has no result to undo."))
        if match.decided_by == Match.DecidedBy.RESULT and tournament.game.sheet is not None:
            raise DomainError(_("This match was decided on its score sheet: undo its last game there."))
        before = audit.match_state(match)
        retract_decision(tournament, match)
        audit.record(
            tournament,
            actor,
            "result.undone",
            match=match,
            before=before,
            after=audit.match_state(match),
            message=reason,
        )
    return match


# --- For games that keep their own score sheet ---------------------------------------
# A game's services (e.g. games.backgammon.services) lock the match with lock_match,
# record their own facts, and tell the tournament what those facts decide. These
# functions expect the caller to hold the tournament's lock (lock_match) and to run
# inside its transaction.
def lock_tournament(tournament_id: int) -> Tournament:
    """Take the tournament's lock (every writer takes it first) and read the tournament."""
    return _lock_tournament(tournament_id)


def lock_match(match_id: int, changes_pages: bool = True) -> tuple[Match, Tournament]:
    """Lock the match's tournament (the one lock every writer takes) and read the match.

    ``changes_pages=False``: a writer whose change no public page shows (a clock's press:
    clocks are shown live from their own state) takes the lock without a new version;
    it calls ``pages_changed`` if it does change something shown (a flag's consequence)."""
    return _lock_match(match_id, changes_pages)


class NeedsExclusiveLock(Exception):  # noqa: N818 - a signal, not an error
    """A writer holding the tournament's lock shared (``with_match_lock``) reached a
    change beyond its match (the bracket, a result, another lock): it starts again with
    the tournament's exclusive lock."""


# The tournaments this context holds shared (``with_match_lock``), each with whether
# its pages changed (their version is bumped as the transaction's last step).
_SHARED: ContextVar[dict[int, bool] | None] = ContextVar("shared_tournament_locks", default=None)


class MatchBusy(Exception):  # noqa: N818 - a signal, not an error
    """``with_match_lock(..., skip_locked=True)``: another transaction holds the match."""


def with_match_lock(
    match_id: int,
    work: Callable[[Match, Tournament], T],
    tournament_id: int | None = None,
    skip_locked: bool = False,
) -> T:
    """Run ``work(match, tournament)`` in a transaction that holds the match's lock.

    First with the tournament's lock *shared* (``FOR KEY SHARE`` on PostgreSQL) and the
    match's row locked: the writers of other matches of the tournament (a clock's
    enforcement) run at the same time, every writer that takes the tournament's
    exclusive lock (``lock_match``) waits for them, and they for it. If ``work`` reaches
    a change beyond its match (deciding it, another lock: ``NeedsExclusiveLock``), all of
    it is rolled back and run again from the start with the exclusive lock. ``work``
    must therefore only write through these services, and do nothing outside the
    database before its transaction commits (``transaction.on_commit`` is fine).
    ``tournament_id``: the match's tournament, when the caller has read it already.
    ``skip_locked``: raise ``MatchBusy`` rather than wait while another transaction
    holds the match (PostgreSQL; SQLite has one writer at a time anyway)."""
    if tournament_id is None:
        tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise DomainError(_("There is no such match."))
    _refuse_nested_shared_lock(tournament_id)
    try:
        with _shared_tournament_lock(tournament_id) as tournament:
            locked = Match.objects.select_for_update(of=("self",), skip_locked=skip_locked)
            match = locked.select_related("entry_a", "entry_b", "round").filter(pk=match_id).first()
            if match is None:
                raise MatchBusy if skip_locked else Match.DoesNotExist
            match.tournament = tournament
            return work(match, tournament)
    except NeedsExclusiveLock:
        pass
    with transaction.atomic():
        match, tournament = _lock_match(match_id, changes_pages=False)
        return work(match, tournament)


def with_free_matches_lock(
    tournament_id: int, matches: QuerySet[Match], limit: int, work: Callable[[list[Match], Tournament], T]
) -> T:
    """Run ``work(locked, tournament)`` in one transaction that holds the tournament's
    lock shared (as ``with_match_lock``) and the locks of up to ``limit`` of the
    tournament's ``matches`` (in their order) that no other transaction holds: the
    others are passed over (``SKIP LOCKED``), so several processes share out the same
    work. ``locked`` may be empty. A ``NeedsExclusiveLock`` from ``work`` rolls all of
    it back and reaches the caller, who takes the matches one by one
    (``with_match_lock``)."""
    _refuse_nested_shared_lock(tournament_id)
    with _shared_tournament_lock(tournament_id) as tournament:
        locked = matches.filter(tournament_id=tournament_id).select_for_update(of=("self",), skip_locked=True)
        found = list(locked.select_related("entry_a", "entry_b", "round")[:limit])
        for match in found:
            match.tournament = tournament
        return work(found, tournament)


def _refuse_nested_shared_lock(tournament_id: int) -> None:
    held = _SHARED.get()
    if held is not None and tournament_id in held:  # another match, or the same again
        raise NeedsExclusiveLock


@contextmanager
def _shared_tournament_lock(tournament_id: int) -> Iterator[Tournament]:
    """A transaction holding the tournament's lock shared; its pages' version moves as
    the transaction's last step if a writer inside said they changed (``pages_changed``)."""
    token = _SHARED.set({**(_SHARED.get() or {}), tournament_id: False})
    try:
        with transaction.atomic():
            tournament = _lock_tournament_shared(tournament_id)
            yield tournament
            if _SHARED.get()[tournament_id]:
                _bump_page_version(tournament)
    finally:
        _SHARED.reset(token)


def _lock_tournament_shared(tournament_id: int) -> Tournament:
    if connection.vendor != "postgresql":  # SQLite: one writer at a time anyway
        return Tournament.objects.get(pk=tournament_id)
    table = Tournament._meta.db_table
    return Tournament.objects.raw(f'SELECT * FROM "{table}" WHERE "id" = %s FOR KEY SHARE', [tournament_id])[0]  # noqa: S608


def require_exclusive_lock(tournament: Tournament) -> None:
    """A change beyond one match is about to be written: refused under a shared lock
    (``with_match_lock`` runs it again with the exclusive one)."""
    held = _SHARED.get()
    if held is not None and tournament.pk in held:
        raise NeedsExclusiveLock


def pages_changed(tournament: Tournament) -> None:
    """What the tournament's public pages show changes in this transaction: a new
    version, the key of their cache (``tournaments.page_cache``). Under a shared lock
    the version moves as the transaction's last step (``with_match_lock``)."""
    held = _SHARED.get()
    if held is not None and tournament.pk in held:
        held[tournament.pk] = True
        return
    _bump_page_version(tournament)


def _bump_page_version(tournament: Tournament) -> None:
    table = PageVersion._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f'INSERT INTO "{table}" ("tournament_id", "value") VALUES (%s, 1) '  # noqa: S608
            f'ON CONFLICT ("tournament_id") DO UPDATE SET "value" = "{table}"."value" + 1 RETURNING "value"',
            [tournament.pk],
        )
        value = cursor.fetchone()[0]
    tournament.page_version = PageVersion(tournament=tournament, value=value)
    edge_cache.note_new_version(tournament, value)  # a web writer renders the new pages


def require_running(tournament: Tournament) -> None:
    _require_running(tournament)


def require_playable(match: Match) -> None:
    _require_playable(match)


def note_started(match: Match) -> None:
    """The first fact of a match has been recorded: the match has started."""
    if match.started_at is None:
        match.started_at = timezone.now()
        Match.objects.filter(pk=match.pk).update(started_at=match.started_at)


def decide_by_sheet(actor: Actor, tournament: Tournament, match: Match, decision: registry.MatchDecision) -> None:
    """The game's facts decide the match: a confirmed result, and the winner moves on."""
    note_started(match)
    submission = _create_submission(
        match,
        decision,
        status=ResultSubmission.Status.CONFIRMED,
        submitted_by_user=actor.user,
        submitted_by_entry=actor.entry,
    )
    submission.confirmed_at = submission.submitted_at
    submission.save(update_fields=["confirmed_at"])
    _apply_decision(actor, tournament, match, submission, DecidedBy.RESULT)
    audit.record(tournament, actor, "result.decided_by_sheet", match=match, after=audit.submission_state(submission))


def retract_decision(tournament: Tournament, match: Match) -> None:
    """Take a match's decision back (refused with a ConflictError while a match it fed
    has started): the winner leaves the next match, the result is marked undone."""
    require_exclusive_lock(tournament)
    bracket, rows = bracket_store.load(tournament)
    try:
        changed = bracket.retract(match.key)
    except BracketError as error:
        raise ConflictError(readable(error)) from None
    match.submissions.filter(status=ResultSubmission.Status.CONFIRMED).update(status=ResultSubmission.Status.UNDONE)
    _save_bracket(tournament, bracket, rows, changed)
    Match.objects.filter(pk=match.pk).update(score_a=None, score_b=None, summary="")
    match.refresh_from_db()
    if tournament.status == Tournament.Status.FINISHED:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status", "updated_at"])


def confirm_if_due(submission_id: int, now: datetime | None = None) -> bool:
    """Confirm a provisional result whose confirmation timeout has passed (Celery).

    Safe to run any number of times: it acts only on a result that is still
    provisional and overdue, re-read under the tournament's lock.
    """
    now = now or timezone.now()
    tournament_id = (
        ResultSubmission.objects.filter(pk=submission_id).values_list("match__tournament_id", flat=True).first()
    )
    if tournament_id is None:
        return False
    with transaction.atomic():
        tournament = _lock_tournament(tournament_id)
        submission = ResultSubmission.objects.select_related("match").filter(pk=submission_id).first()
        if (
            submission is None
            or submission.status != ResultSubmission.Status.PROVISIONAL
            or submission.confirm_deadline is None
            or submission.confirm_deadline > now
            or tournament.status != Tournament.Status.RUNNING
        ):
            return False
        match = Match.objects.select_related("entry_a", "entry_b", "round").get(pk=submission.match_id)
        _confirm(access.SYSTEM, tournament, match, submission, automatic=True)
    return True


def confirm_overdue_results(now: datetime | None = None) -> int:
    """The safety net behind the scheduled tasks: confirm every overdue result."""
    now = now or timezone.now()
    due = ResultSubmission.objects.filter(
        status=ResultSubmission.Status.PROVISIONAL, confirm_deadline__lte=now
    ).values_list("pk", flat=True)
    return sum(confirm_if_due(pk, now) for pk in list(due))


# --- Internals -----------------------------------------------------------------------
def _lock_tournament(tournament_id: int, changes_pages: bool = True) -> Tournament:
    """The row lock every writer takes. Taking it bumps the tournament's version in the
    writer's transaction (a refused change rolls the bump back with everything else), so
    a page cached under the old version is never served after a change commits."""
    held = _SHARED.get()
    if held is not None and tournament_id in held:  # a shared lock is never upgraded in place
        raise NeedsExclusiveLock
    tournament = _locked(Tournament.objects.filter(pk=tournament_id), changes_pages)
    if tournament is None:
        raise DomainError(_("There is no such tournament."))
    return tournament


def _locked(tournaments: QuerySet[Tournament], changes_pages: bool) -> Tournament | None:
    """The tournament of ``tournaments`` (one at most), its row locked; its version bumped
    if the writer changes its pages."""
    tournament = tournaments.select_for_update().first()
    if tournament is not None and changes_pages:
        pages_changed(tournament)
    return tournament


def _locked_entry(entry_id: int) -> Entry:
    tournament_id = Entry.objects.filter(pk=entry_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise DomainError(_("There is no such player."))
    tournament = _lock_tournament(tournament_id)
    entry = Entry.objects.get(pk=entry_id)
    entry.tournament = tournament
    return entry


def _lock_match(match_id: int, changes_pages: bool = True) -> tuple[Match, Tournament]:
    if _SHARED.get():  # which tournament, before locking it: is its lock held shared?
        tournament_id = Match.objects.filter(pk=match_id).values_list("tournament_id", flat=True).first()
        if tournament_id is None:
            raise DomainError(_("There is no such match."))
        tournament = _lock_tournament(tournament_id, changes_pages)
    else:  # the match's tournament, locked in one query
        of_match = Match.objects.filter(pk=match_id).values("tournament_id")
        tournament = _locked(Tournament.objects.filter(pk=Subquery(of_match)), changes_pages)
        if tournament is None:
            raise DomainError(_("There is no such match."))
    match = Match.objects.select_related("entry_a", "entry_b", "round").get(pk=match_id)
    match.tournament = tournament
    return match, tournament


def _lock_submission(submission_id: int) -> tuple[ResultSubmission, Match, Tournament]:
    match_id = ResultSubmission.objects.filter(pk=submission_id).values_list("match_id", flat=True).first()
    if match_id is None:
        raise DomainError(_("There is no such result."))
    match, tournament = _lock_match(match_id)
    submission = ResultSubmission.objects.get(pk=submission_id)
    submission.match = match
    return submission, match, tournament


def _require_registration_open(tournament: Tournament) -> None:
    if tournament.is_drawn:
        raise DomainError(_("The draw has been made; players can no longer be added."))
    if tournament.status not in (Tournament.Status.DRAFT, Tournament.Status.REGISTRATION):
        raise DomainError(_("Players can be added only before the tournament starts."))


def _require_running(tournament: Tournament) -> None:
    if tournament.status == Tournament.Status.FINISHED:
        raise DomainError(_("The tournament has finished; results can no longer be entered."))
    if tournament.status != Tournament.Status.RUNNING:
        raise DomainError(_("The tournament has not started yet: make the draw first."))


def _require_playable(match: Match) -> None:
    if match.is_bye:
        raise DomainError(_("This match is a bye: there is no result to enter."))
    if match.entry_a_id is None or match.entry_b_id is None:
        raise DomainError(_("The players of this match are not known yet."))


def _side_of_entry(match: Match, entry_id: Any) -> str:
    side = match.side_of_id(entry_id)
    if side is None:
        raise DomainError(
            _("Player %(entry)s is not playing in this match; the winner must be %(a)s or %(b)s.")
            % {"entry": entry_id, "a": match.entry_a, "b": match.entry_b},
            field="winner",
        )
    return side


def _decide(
    tournament: Tournament, match: Match, result: Mapping[str, Any], winner_entry_id: Any
) -> registry.MatchDecision:
    game = tournament.game
    if game.decide_match is None:
        raise DomainError(_("Results of this game are entered on its score sheet."))
    if not isinstance(result, Mapping):
        raise DomainError(_('The result must be an object such as {"games": [[21, 15]]}.'), field="result")
    try:
        decision = game.decide_match(result, match.round.settings)
    except RuleError as error:
        raise DomainError(readable(error), field="result") from None
    if winner_entry_id not in (None, ""):
        side = _side_of_entry(match, winner_entry_id)
        if side != decision.winner:
            raise DomainError(
                _("The scores say %(winner)s won, not %(named)s.")
                % {"winner": match.entry_on(decision.winner), "named": match.entry_on(side)},
                field="winner",
            )
    return decision


def _open_submission(match: Match) -> ResultSubmission | None:
    return match.submissions.filter(status__in=OPEN).first()


def _standing_submissions(match: Match) -> tuple[ResultSubmission | None, ResultSubmission | None]:
    """The match's result waiting for confirmation (or disputed) and its confirmed one,
    each if any (one query)."""
    standing = list(match.submissions.filter(status__in=(*OPEN, ResultSubmission.Status.CONFIRMED)).order_by("pk"))
    open_ = next((s for s in standing if s.status in OPEN), None)
    confirmed = next((s for s in standing if s.status == ResultSubmission.Status.CONFIRMED), None)
    return open_, confirmed


def _supersede(submission: ResultSubmission) -> None:
    submission.status = ResultSubmission.Status.SUPERSEDED
    submission.save(update_fields=["status"])


def _create_submission(
    match: Match, decision: registry.MatchDecision, *, status: str, confirmed: bool = False, **fields: Any
) -> ResultSubmission:
    """A new version of the match's result; ``confirmed``: confirmed as it is entered
    (a director's), at the same moment."""
    require_exclusive_lock(match.tournament)
    if confirmed:
        fields["submitted_at"] = fields["confirmed_at"] = timezone.now()
    version = (match.submissions.aggregate(v=Max("version"))["v"] or 0) + 1
    return ResultSubmission.objects.create(
        match=match,
        version=version,
        result=decision.result,
        winner_side=decision.winner,
        score_a=decision.score_a,
        score_b=decision.score_b,
        summary=decision.summary,
        status=status,
        **fields,
    )


def _director_result(
    actor: Actor,
    tournament: Tournament,
    match: Match,
    decision: registry.MatchDecision,
    open_submission: ResultSubmission | None,
    previous: ResultSubmission | None,
    note: str,
) -> ResultSubmission:
    before = audit.match_state(match)
    if match.decided_by and match.decided_by not in (Match.DecidedBy.RESULT, Match.DecidedBy.WALKOVER):
        raise DomainError(_("This match was decided without being played; there is no result to correct."))
    if match.decided_by and match.winner_side != decision.winner:
        bracket, rows = bracket_store.load(tournament)
        try:
            changed = bracket.retract(match.key)
        except BracketError as error:
            raise ConflictError(_("The winner cannot change: %(reason)s") % {"reason": readable(error)}) from None
        _save_bracket(tournament, bracket, rows, changed)
        match.refresh_from_db()
        match.tournament = tournament
    if previous is not None:
        _supersede(previous)
    if open_submission is not None:
        _supersede(open_submission)
    submission = _create_submission(
        match,
        decision,
        status=ResultSubmission.Status.CONFIRMED,
        submitted_by_user=actor.user,
        confirmed_by_user=actor.user,
        confirmed=True,
        note=note,
    )
    if match.decided_by:
        # Same winner: only the score changes.
        match.score_a, match.score_b, match.summary = decision.score_a, decision.score_b, decision.summary
        match.save(update_fields=["score_a", "score_b", "summary"])
    else:
        _apply_decision(actor, tournament, match, submission, DecidedBy.RESULT)  # it marks the match started
    audit.record(
        tournament,
        actor,
        "result.corrected" if previous is not None else "result.entered_by_director",
        match=match,
        before=before,
        after=audit.match_state(match),
        message=note,
    )
    return submission


def _confirm(
    actor: Actor,
    tournament: Tournament,
    match: Match,
    submission: ResultSubmission,
    automatic: bool = False,
) -> None:
    submission.status = ResultSubmission.Status.CONFIRMED
    submission.confirmed_at = timezone.now()
    submission.auto_confirmed = automatic
    submission.confirmed_by_user = actor.user
    submission.confirmed_by_entry = None if automatic else access.playing_entry(actor, match)
    submission.save(
        update_fields=["status", "confirmed_at", "auto_confirmed", "confirmed_by_user", "confirmed_by_entry"]
    )
    _apply_decision(actor, tournament, match, submission, DecidedBy.RESULT)
    audit.record(
        tournament,
        actor,
        "result.auto_confirmed" if automatic else "result.confirmed",
        match=match,
        after=audit.submission_state(submission),
    )


def _apply_decision(
    actor: Actor, tournament: Tournament, match: Match, submission: ResultSubmission, how: DecidedBy
) -> None:
    bracket, rows = bracket_store.load(tournament)
    try:
        changed = bracket.decide(match.key, submission.winner_side, how)
    except BracketError as error:
        raise ConflictError(readable(error)) from None
    result = {
        "score_a": submission.score_a,
        "score_b": submission.score_b,
        "summary": submission.summary,
        "started_at": rows[match.key].started_at or timezone.now(),
    }
    _save_bracket(tournament, bracket, rows, changed, extra={match.key: result})
    match.refresh_from_db()
    _finish_if_complete(tournament, bracket, actor)


def _finish_if_complete(tournament: Tournament, bracket: Bracket, actor: Actor) -> None:
    if tournament.status == Tournament.Status.RUNNING and bracket.is_complete():
        tournament.status = Tournament.Status.FINISHED
        tournament.save(update_fields=["status", "updated_at"])
        audit.record(
            tournament, actor, "tournament.finished", before={"status": "running"}, after={"status": "finished"}
        )


def _save_bracket(
    tournament: Tournament,
    bracket: Bracket,
    rows: Mapping[MatchKey, bracket_store.BracketRow],
    changed: Iterable[MatchKey],
    extra: Mapping[MatchKey, Mapping[str, Any]] | None = None,
) -> None:
    """Write what the bracket derived into the changed rows (the tournament's exclusive
    lock held)."""
    require_exclusive_lock(tournament)
    bracket_store.save(bracket, rows, changed, extra)


def _schedule_confirmation(submission: ResultSubmission) -> None:
    from tournaments.tasks import confirm_result_when_due

    scheduling.run_at(confirm_result_when_due, (submission.pk,), submission.confirm_deadline, f"result {submission.pk}")


def _record_refused(tournament: Tournament, actor: Actor, match_id: int, result: Any, error: DomainError) -> None:
    with transaction.atomic():
        audit.record(
            tournament,
            actor,
            "result.refused",
            match=Match.objects.filter(pk=match_id).first(),
            after={"result": audit.jsonable(result)},
            message=error.message,
        )


__all__ = [
    "add_director",
    "add_entry",
    "cancel_draw",
    "confirm_if_due",
    "confirm_overdue_results",
    "confirm_result",
    "create_tournament",
    "dispute_result",
    "import_entries",
    "make_draw",
    "open_registration",
    "record_walkover",
    "remove_entry",
    "submit_result",
    "undo_result",
    "update_entry",
    "update_round_settings",
    "update_tournament",
    "withdraw_entry",
]
