"""Tournaments, entries, rounds, matches, result submissions and the audit log.

Rows store facts; what follows from them (the bracket's progress, standings) is
derived by the pure modules ``draws``, ``bracket`` and ``standings``. The few
derived values cached on a match (its slots, winner and status) are written only by
``tournaments.services``, in the same transaction as the fact that changes them.
"""

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from tournaments.draws import CONSOLATION, MAIN, THIRD_PLACE, MatchKey

PRIVATE_KEY_BYTES = 24  # 192 random bits, 32 URL-safe characters


def new_private_key() -> str:
    return secrets.token_urlsafe(PRIVATE_KEY_BYTES)


class Tournament(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class Format(models.TextChoices):
        KNOCKOUT = "knockout", _("Knockout")

    class Seeding(models.TextChoices):
        RATING = "rating", _("By rating")
        MANUAL = "manual", _("Director's order (seed numbers)")
        RANDOM = "random", _("Random draw")

    name = models.CharField(_("name"), max_length=200)
    slug = models.SlugField(_("address"), max_length=80, unique=True)
    game_type = models.CharField(_("game"), max_length=30)
    format = models.CharField(_("format"), max_length=20, choices=Format, default=Format.KNOCKOUT)
    status = models.CharField(_("status"), max_length=20, choices=Status, default=Status.DRAFT)
    venue = models.CharField(_("venue"), max_length=200, blank=True)
    starts_on = models.DateField(_("date"), null=True, blank=True)
    directors = models.ManyToManyField(
        settings.AUTH_USER_MODEL, related_name="directed_tournaments", verbose_name=_("directors")
    )

    seeding_method = models.CharField(_("seeding"), max_length=20, choices=Seeding, default=Seeding.RATING)
    # None: seed everybody by the method; k: seed the top k, draw the rest by lot.
    seeded_count = models.PositiveIntegerField(_("seeded players"), null=True, blank=True)
    third_place_match = models.BooleanField(_("match for third place"), default=False)
    consolation = models.BooleanField(_("consolation flight"), default=False)
    # A player's result is confirmed automatically this long after it was entered
    # unless the opponent disputes it; 0 switches automatic confirmation off.
    confirmation_timeout_seconds = models.PositiveIntegerField(_("confirmation timeout (seconds)"), default=600)
    # One settings dict per round from round 1 (the last repeats), as the game reads it.
    round_plan = models.JSONField(_("round plan"), default=list, blank=True)
    settings = models.JSONField(_("game settings"), default=dict, blank=True)

    draw_random_seed = models.BigIntegerField(_("random seed of the draw"), null=True, blank=True)
    bracket_size = models.PositiveIntegerField(_("bracket size"), null=True, blank=True)
    drawn_at = models.DateTimeField(_("drawn at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-starts_on", "-created_at"]
        verbose_name = _("tournament")
        verbose_name_plural = _("tournaments")

    @property
    def version(self) -> int:
        """The version of the public pages (``PageVersion``): the key of their cache, and
        what live pages watch for a change. Load it with ``select_related("page_version")``."""
        try:
            return self.page_version.value
        except PageVersion.DoesNotExist:
            return 0

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("public:tournament", args=[self.slug])

    @property
    def is_drawn(self) -> bool:
        return self.drawn_at is not None

    @property
    def game(self):
        from games import registry

        return registry.get(self.game_type)


class Entry(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entries")
    name = models.CharField(_("name"), max_length=120)
    rating = models.IntegerField(_("rating"), null=True, blank=True)
    club = models.CharField(_("club"), max_length=120, blank=True)
    country = models.CharField(_("country"), max_length=3, blank=True)
    # The director's seed number (used by manual seeding).
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    # The seed number the draw gave this entry (1 = top); set by the draw.
    bracket_seed = models.PositiveIntegerField(_("seed in the draw"), null=True, blank=True)
    private_key = models.CharField(max_length=64, unique=True, default=new_private_key, editable=False)
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="entries",
        verbose_name=_("player's account"),
    )
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "bracket_seed", "seed", "name"]
        verbose_name = _("entry")
        verbose_name_plural = _("entries")
        constraints = [
            models.UniqueConstraint("tournament", Lower("name"), name="entry_name_unique_in_tournament"),
            models.UniqueConstraint(
                fields=["tournament", "seed"],
                condition=Q(seed__isnull=False),
                name="entry_seed_unique_in_tournament",
            ),
        ]

    def __str__(self) -> str:
        return self.name

    def get_private_url(self) -> str:
        return reverse("player:home", args=[self.private_key])

    @property
    def withdrawn(self) -> bool:
        return self.withdrawn_at is not None


class Round(models.Model):
    class Flight(models.TextChoices):
        MAIN = MAIN, _("Main")
        THIRD_PLACE = THIRD_PLACE, _("Third place")
        CONSOLATION = CONSOLATION, _("Consolation")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    flight = models.CharField(max_length=20, choices=Flight, default=Flight.MAIN)
    number = models.PositiveSmallIntegerField()
    settings = models.JSONField(default=dict, blank=True)

    class Meta:
        ordering = ["tournament", "flight", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "flight", "number"], name="round_unique_in_flight")
        ]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.tournament} · {self.flight} {self.number}"


class Match(models.Model):
    class Status(models.TextChoices):
        WAITING = "waiting", _("Waiting for players")
        READY = "ready", _("Ready to play")
        PROVISIONAL = "provisional", _("Result waiting for confirmation")
        DISPUTED = "disputed", _("Result disputed")
        DECIDED = "decided", _("Decided")

    class DecidedBy(models.TextChoices):
        RESULT = "result", _("Result")
        WALKOVER = "walkover", _("Walkover")
        BYE = "bye", _("Bye")
        WITHDRAWAL = "withdrawal", _("Opponent withdrew")
        VOID = "void", _("Not played")

    class Side(models.TextChoices):
        A = "a", "a"
        B = "b", "b"

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="matches")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    flight = models.CharField(max_length=20, choices=Round.Flight, default=MAIN)
    round_number = models.PositiveSmallIntegerField()
    position = models.PositiveIntegerField()
    table = models.CharField(_("table"), max_length=20, blank=True)

    entry_a = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    entry_b = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    bye_a = models.BooleanField(default=False)
    bye_b = models.BooleanField(default=False)

    winner_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    winner_to_slot = models.CharField(max_length=1, choices=Side, blank=True)
    loser_to = models.ForeignKey("self", null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    loser_to_slot = models.CharField(max_length=1, choices=Side, blank=True)
    loser_only_from = models.CharField(max_length=1, choices=Side, blank=True)

    status = models.CharField(max_length=20, choices=Status, default=Status.WAITING)
    winner_side = models.CharField(max_length=1, choices=Side, blank=True)
    winner = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.RESTRICT, related_name="+")
    decided_by = models.CharField(max_length=20, choices=DecidedBy, blank=True)
    score_a = models.FloatField(null=True, blank=True)
    score_b = models.FloatField(null=True, blank=True)
    summary = models.CharField(max_length=300, blank=True)
    started_at = models.DateTimeField(null=True, blank=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "flight", "round_number", "position"]
        constraints = [
            models.UniqueConstraint(
                fields=["tournament", "flight", "round_number", "position"],
                name="match_unique_in_bracket",
            )
        ]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        a = self.entry_a.name if self.entry_a else ("bye" if self.bye_a else "?")
        b = self.entry_b.name if self.entry_b else ("bye" if self.bye_b else "?")
        return f"{self.key.flight} R{self.round_number} #{self.position + 1}: {a} – {b}"

    def get_absolute_url(self) -> str:
        return reverse("public:match", args=[self.tournament.slug, self.pk])

    @property
    def key(self) -> MatchKey:
        return MatchKey(self.flight, self.round_number, self.position)

    @property
    def number(self) -> int:
        """The match's number within its round, from 1, top of the bracket first."""
        return self.position + 1

    @property
    def is_bye(self) -> bool:
        return self.bye_a or self.bye_b

    @property
    def entries(self) -> list[Entry]:
        return [e for e in (self.entry_a, self.entry_b) if e is not None]

    def side_of(self, entry: Entry) -> str | None:
        if self.entry_a_id == entry.pk:
            return "a"
        if self.entry_b_id == entry.pk:
            return "b"
        return None

    def side_of_id(self, entry_id: object) -> str | None:
        """The slot of the entry with this id (given as a number or its text), if it plays here."""
        for side, candidate in (("a", self.entry_a_id), ("b", self.entry_b_id)):
            if candidate is not None and str(candidate) == str(entry_id).strip():
                return side
        return None

    def entry_on(self, side: str) -> Entry | None:
        return self.entry_a if side == "a" else self.entry_b if side == "b" else None

    def opponent_of(self, entry: Entry) -> Entry | None:
        side = self.side_of(entry)
        return self.entry_on("b" if side == "a" else "a") if side else None


class ResultSubmission(models.Model):
    """One version of a match's result: who entered it, who confirmed it, when."""

    class Status(models.TextChoices):
        PROVISIONAL = "provisional", _("Waiting for confirmation")
        DISPUTED = "disputed", _("Disputed")
        CONFIRMED = "confirmed", _("Confirmed")
        SUPERSEDED = "superseded", _("Replaced")
        UNDONE = "undone", _("Undone by the director")

    class Kind(models.TextChoices):
        RESULT = "result", _("Result")
        WALKOVER = "walkover", _("Walkover")

    OPEN = (Status.PROVISIONAL, Status.DISPUTED)

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="submissions")
    version = models.PositiveIntegerField()
    kind = models.CharField(max_length=20, choices=Kind, default=Kind.RESULT)
    result = models.JSONField(default=dict, blank=True)
    winner_side = models.CharField(max_length=1, choices=Match.Side)
    score_a = models.FloatField(null=True, blank=True)
    score_b = models.FloatField(null=True, blank=True)
    summary = models.CharField(max_length=300, blank=True)
    status = models.CharField(max_length=20, choices=Status, default=Status.PROVISIONAL)

    submitted_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    submitted_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_at = models.DateTimeField(default=timezone.now)
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
        ordering = ["match", "version"]
        constraints = [
            models.UniqueConstraint(fields=["match", "version"], name="submission_version_unique"),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status="confirmed"),
                name="one_confirmed_result_per_match",
            ),
            models.UniqueConstraint(
                fields=["match"],
                condition=Q(status__in=["provisional", "disputed"]),
                name="one_open_result_per_match",
            ),
        ]
        indexes = [
            models.Index(
                fields=["confirm_deadline"],
                condition=Q(status="provisional"),
                name="provisional_by_deadline",
            )
        ]
        verbose_name = _("result submission")
        verbose_name_plural = _("result submissions")

    def __str__(self) -> str:
        return f"{self.match} v{self.version}: {self.summary} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status in self.OPEN


class AuditEntry(models.Model):
    """Who changed what, when, with the state before and after."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    match = models.ForeignKey(Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    actor_label = models.CharField(max_length=200)
    action = models.CharField(max_length=60)
    before = models.JSONField(null=True, blank=True)
    after = models.JSONField(null=True, blank=True)
    message = models.TextField(blank=True)

    class Meta:
        ordering = ["-at", "-id"]
        indexes = [models.Index(fields=["tournament", "-at"], name="audit_by_tournament")]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M:%S} {self.actor_label}: {self.action}"


class PageVersion(models.Model):
    """The version of a tournament's public pages, bumped by every writer that changes
    what they show, in its own transaction (``services.pages_changed``): the key of the
    pages' cache, so a page cached under an older version is never served after a change
    commits.

    A row of its own rather than a column of the tournament: the writers of different
    matches that hold the tournament's lock shared (clock enforcement) bump it as the last
    step of their transactions, one after another, while the tournament's row stays
    locked shared by all of them."""

    tournament = models.OneToOneField(
        Tournament, primary_key=True, on_delete=models.CASCADE, related_name="page_version"
    )
    value = models.PositiveBigIntegerField(default=0)

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.value}"
