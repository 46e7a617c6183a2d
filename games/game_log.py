"""Games recorded one at a time and confirmed by the opponent: the flow that
backgammon matches and chess mini-matches share (SPEC §2, "Results and confirmation").

A player enters each game as it ends; it is *provisional* until the opponent confirms
it, or disputes it (the director decides), or the tournament's confirmation timeout
passes without a dispute (a Celery task confirms it then). A director's game is final
at once. The director can correct or undo the last game. The games are facts; each
game's services derive the match from them and report a decided match to
``tournaments.services``.

``GameRow`` holds the fields every such game has; ``GameLog`` is the flow, configured
by each game with its model, its audit names and what to do after a change (decide
the match, move the clock on). Every writer takes the tournament's lock first.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.conf import settings
from django.db import models, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments import access, audit, scheduling
from tournaments import services as tournament_services
from tournaments.access import Actor
from tournaments.errors import ConflictError, DomainError
from tournaments.models import Entry, Match, Tournament


class GameRow(models.Model):
    """One game of a match as it was entered and confirmed (abstract)."""

    class Status(models.TextChoices):
        PROVISIONAL = "provisional", gettext_lazy("Waiting for confirmation")
        DISPUTED = "disputed", gettext_lazy("Disputed")
        HELD = "held", gettext_lazy("Needs the director's decision")
        CONFIRMED = "confirmed", gettext_lazy("Confirmed")
        SUPERSEDED = "superseded", gettext_lazy("Replaced")
        UNDONE = "undone", gettext_lazy("Undone by the director")

    # The games that count (waiting or confirmed), and those still waiting for someone.
    LIVE = (Status.PROVISIONAL, Status.DISPUTED, Status.HELD, Status.CONFIRMED)
    OPEN = (Status.PROVISIONAL, Status.DISPUTED, Status.HELD)

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="%(app_label)s_games")
    number = models.PositiveSmallIntegerField()
    status = models.CharField(max_length=12, choices=Status, default=Status.PROVISIONAL)
    entered_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    confirm_deadline = models.DateTimeField(null=True, blank=True)
    confirmed_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    confirmed_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    confirmed_at = models.DateTimeField(null=True, blank=True)
    auto_confirmed = models.BooleanField(default=False)
    disputed_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    disputed_at = models.DateTimeField(null=True, blank=True)
    dispute_reason = models.TextField(blank=True)
    note = models.TextField(blank=True)

    class Meta:
        abstract = True
        ordering = ["match", "number", "id"]

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN

    @property
    def entered_by_label(self) -> str:
        """Who entered the game, as the API shows it."""
        if self.entered_by_entry is not None:
            return self.entered_by_entry.name
        if self.entered_by_user is not None:
            return f"director {self.entered_by_user.get_username()}"
        return ""


@dataclass(frozen=True)
class PendingGame:
    """A game waiting for the opponent or the director, as the director's dashboard
    lists it; each game's sheet adds its ``summary``."""

    match: Match
    game: GameRow

    @property
    def status(self) -> str:
        return self.game.status

    @property
    def status_label(self) -> str:
        return self.game.get_status_display()

    @property
    def reason(self) -> str:
        return self.game.dispute_reason


def open_rows(model: type[GameRow], tournament: Tournament):
    """The tournament's games waiting for someone, disputed first, oldest first (one query)."""
    return (
        model.objects.filter(match__tournament=tournament, status__in=GameRow.OPEN)
        .select_related("match", "match__entry_a", "match__entry_b")
        .order_by("status", "entered_at")
    )


def waiting_for(entry: Any, games: list[GameRow]) -> list[GameRow]:
    """The opponent's games that ``entry`` (a player; None: nobody) is to confirm."""
    return [
        g
        for g in games
        if entry is not None and g.status == GameRow.Status.PROVISIONAL and g.entered_by_entry_id != entry.pk
    ]


@dataclass(frozen=True)
class GameLog:
    """The confirmation flow of one game's rows.

    ``describe(row)`` is what the audit log keeps of a game; ``after_change(actor,
    tournament, match)`` runs after every change of the games (in the transaction, the
    tournament locked): decide the match when it is over, move the clock on.
    ``not_this_game`` is the message for a match of another game.
    """

    model: type[GameRow]
    game_type: str
    describe: Callable[[Any], dict[str, Any]]
    after_change: Callable[[Actor, Tournament, Match], None]
    not_this_game: str

    # --- Reading -------------------------------------------------------------------------
    def live_games(self, match: Match) -> list[Any]:
        """The games that count (confirmed or waiting), in order."""
        return list(self.model.objects.filter(match=match, status__in=GameRow.LIVE).order_by("number"))

    # --- Locks ----------------------------------------------------------------------------
    def lock(self, match_id: int) -> tuple[Match, Tournament]:
        match, tournament = tournament_services.lock_match(match_id)
        if tournament.game_type != self.game_type:
            raise DomainError(self.not_this_game)
        return match, tournament

    def lock_game(self, game_id: int) -> tuple[Any, Match, Tournament]:
        match_id = self.model.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
        if match_id is None:
            raise DomainError(_("There is no such game."))
        match, tournament = self.lock(match_id)
        return self.model.objects.get(pk=game_id), match, tournament

    # --- Writing (each in the caller's transaction, the tournament locked) ---------------
    def new_row(
        self,
        actor: Actor,
        tournament: Tournament,
        match: Match,
        number: int,
        *,
        final: bool,
        entry: Entry | None = None,
        note: str = "",
        status: str | None = None,
        **fields: Any,
    ) -> Any:
        """Store a game: final at once (a director's, or the system's), else provisional
        with the tournament's confirmation deadline (a task is scheduled for it)."""
        now = timezone.now()
        timeout = tournament.confirmation_timeout_seconds
        if status is None:
            status = GameRow.Status.CONFIRMED if final else GameRow.Status.PROVISIONAL
        provisional = status == GameRow.Status.PROVISIONAL
        row = self.model.objects.create(
            match=match,
            number=number,
            status=status,
            entered_by_entry=entry,
            entered_by_user=actor.user,
            confirm_deadline=now + timedelta(seconds=timeout) if provisional and timeout else None,
            confirmed_by_user=actor.user if final else None,
            confirmed_at=now if final else None,
            note=str(note or "")[:1000],
            **fields,
        )
        if row.confirm_deadline:
            self._schedule_confirmation(row)
        return row

    def mark_confirmed(self, row: Any, actor: Actor, entry: Entry | None, automatic: bool = False) -> None:
        row.status = GameRow.Status.CONFIRMED
        row.confirmed_at = timezone.now()
        row.confirmed_by_entry = entry
        row.confirmed_by_user = actor.user
        row.auto_confirmed = automatic
        row.save(update_fields=["status", "confirmed_at", "confirmed_by_entry", "confirmed_by_user", "auto_confirmed"])

    def audit(self, tournament: Tournament, actor: Actor, what: str, match: Match, **kwargs: Any) -> None:
        audit.record(tournament, actor, f"{self.game_type}.{what}", match=match, **kwargs)

    # --- The flow --------------------------------------------------------------------------
    def confirm(self, actor: Actor, game_id: int) -> Any:
        """The opponent confirms a game (and every earlier game the same player entered
        that still waits); a director may confirm any open game, a disputed one too."""
        with transaction.atomic():
            row, match, tournament = self.lock_game(game_id)
            director = access.is_director(actor, tournament)
            entry = None
            if not director:
                entry = access.require_player_of(actor, match)
                if row.entered_by_entry_id == entry.pk:
                    raise DomainError(_("You entered this game; your opponent must confirm it."))
                if row.status == GameRow.Status.DISPUTED:
                    raise ConflictError(_("This game is disputed; the director decides it."))
                if row.status == GameRow.Status.HELD:
                    raise ConflictError(_("This game waits for the director's decision."))
            if row.status not in GameRow.OPEN:
                raise ConflictError(
                    _("This game is no longer waiting for confirmation (it is %(status)s).")
                    % {"status": row.get_status_display().lower()}
                )
            tournament_services.require_running(tournament)
            earlier = self.model.objects.filter(match=match, status=GameRow.Status.PROVISIONAL, number__lt=row.number)
            if entry is not None:
                earlier = earlier.exclude(entered_by_entry=entry)
            for game in [*earlier, row]:
                self.mark_confirmed(game, actor, entry)
                self.audit(tournament, actor, "game_confirmed", match, after=self.describe(game))
            self.after_change(actor, tournament, match)
        return row

    def dispute(self, actor: Actor, game_id: int, reason: str = "") -> Any:
        with transaction.atomic():
            row, match, tournament = self.lock_game(game_id)
            entry = access.require_player_of(actor, match)
            if row.entered_by_entry_id == entry.pk:
                raise DomainError(_("You entered this game; correct it instead of disputing it (ask the director)."))
            if row.status != GameRow.Status.PROVISIONAL:
                raise ConflictError(
                    _("This game is no longer waiting for confirmation (it is %(status)s).")
                    % {"status": row.get_status_display().lower()}
                )
            reason = str(reason or "").strip()
            if len(reason) > 1000:
                raise DomainError(_("Keep the reason under 1000 characters."), field="reason")
            row.status = GameRow.Status.DISPUTED
            row.disputed_by_entry = entry
            row.disputed_at = timezone.now()
            row.dispute_reason = reason
            row.save(update_fields=["status", "disputed_by_entry", "disputed_at", "dispute_reason"])
            self.audit(tournament, actor, "game_disputed", match, after=self.describe(row), message=reason)
        return row

    def supersede_last(self, actor: Actor, tournament: Tournament, match: Match, games: list[Any]) -> Any:
        """Before the director's correction of the last game is stored: the last game
        is replaced (and a decision it made retracted). Returns the replaced row."""
        if not games:
            raise DomainError(_("No game has been entered in this match yet."))
        if match.decided_by:
            tournament_services.retract_decision(tournament, match)
        last = games[-1]
        last.status = GameRow.Status.SUPERSEDED
        last.save(update_fields=["status"])
        return last

    def undo_last(self, actor: Actor, match_id: int, reason: str = "") -> Any:
        """The director takes the last game back; if it had decided the match, the
        match is reopened (refused while the next match has started)."""
        with transaction.atomic():
            match, tournament = self.lock(match_id)
            access.require_director(actor, tournament)
            games = self.live_games(match)
            if not games:
                raise DomainError(_("No game has been entered in this match yet."))
            if match.decided_by and match.decided_by != Match.DecidedBy.RESULT:
                raise DomainError(_("This match was not decided by its games; undo its result instead."))
            if match.decided_by:
                tournament_services.retract_decision(tournament, match)
            last = games[-1]
            before = self.describe(last)
            last.status = GameRow.Status.UNDONE
            last.save(update_fields=["status"])
            self.audit(
                tournament, actor, "game_undone", match, before=before, after=self.describe(last), message=reason
            )
            self.after_change(actor, tournament, match)
        return last

    def confirm_if_due(self, game_id: int, now: datetime | None = None) -> bool:
        """Confirm a provisional game whose confirmation timeout has passed (Celery);
        acts only if the game is still provisional and overdue, so it is safe to repeat."""
        now = now or timezone.now()
        match_id = self.model.objects.filter(pk=game_id).values_list("match_id", flat=True).first()
        if match_id is None:
            return False
        with transaction.atomic():
            match, tournament = self.lock(match_id)
            row = self.model.objects.filter(pk=game_id).first()
            if (
                row is None
                or row.status != GameRow.Status.PROVISIONAL
                or row.confirm_deadline is None
                or row.confirm_deadline > now
                or tournament.status != Tournament.Status.RUNNING
            ):
                return False
            self.mark_confirmed(row, access.SYSTEM, None, automatic=True)
            self.audit(tournament, access.SYSTEM, "game_auto_confirmed", match, after=self.describe(row))
            self.after_change(access.SYSTEM, tournament, match)
        return True

    def confirm_overdue(self, now: datetime | None = None) -> int:
        now = now or timezone.now()
        due = self.model.objects.filter(status=GameRow.Status.PROVISIONAL, confirm_deadline__lte=now)
        return sum(self.confirm_if_due(pk, now) for pk in list(due.values_list("pk", flat=True)))

    def _schedule_confirmation(self, row: Any) -> None:
        from games.tasks import confirm_game_when_due

        scheduling.run_at(
            confirm_game_when_due, (self.game_type, row.pk), row.confirm_deadline, f"{self.game_type} game {row.pk}"
        )


LOGS: dict[str, GameLog] = {}


def register(log: GameLog) -> GameLog:
    LOGS[log.game_type] = log
    return log
