"""A match's clock: its time controls and its events (the facts).

The state — each side's time, who runs, the deadline — is derived by
``clocks.state`` from the events. A few values of it are kept on the clock row for the
enforcement and for fast pages (``deadline``, ``phase``, ``running``, the faces at
``as_of``); ``clocks.services`` writes them in the same transaction as each event, and
``version`` goes up with every event (a press carries the version the player saw; a
scheduled timeout acts only if the version is unchanged).
"""

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from clocks.state import EventKind, Phase
from tournaments.models import Entry, Match

SIDES = [("a", "a"), ("b", "b")]


class Clock(models.Model):
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="clock")
    control_a = models.JSONField()
    control_b = models.JSONField()
    flag_passes_turn = models.BooleanField(default=False)
    presses_from_sheet = models.BooleanField(default=False)  # Scrabble: recording a move presses it
    game_number = models.PositiveSmallIntegerField(default=1)  # the game its times belong to
    # The number of the last "new game" event (0: none): the state is replayed from it,
    # on the controls it set (``control_a``/``control_b`` are the current game's).
    game_first_event = models.PositiveIntegerField(default=0)
    version = models.PositiveIntegerField(default=0)
    # Derived from the events, kept with each event by the services:
    deadline = models.DateTimeField(null=True, blank=True, db_index=True)
    phase = models.CharField(max_length=10, default=Phase.READY.value)
    running = models.CharField(max_length=1, blank=True)
    flagged = models.CharField(max_length=1, blank=True)
    time_a_ms = models.BigIntegerField(default=0)  # the faces at ``as_of``
    time_b_ms = models.BigIntegerField(default=0)
    delay_left_ms = models.BigIntegerField(default=0)
    as_of = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        verbose_name = _("clock")

    def __str__(self) -> str:
        return f"clock of match {self.match_id}"


class ClockEvent(models.Model):
    KINDS = [(k.value, k.value) for k in EventKind]

    clock = models.ForeignKey(Clock, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=KINDS)
    side = models.CharField(max_length=1, choices=SIDES, blank=True)
    at = models.DateTimeField()  # the server's time, to the millisecond
    value_ms = models.BigIntegerField(null=True, blank=True)  # adjust: the side's new time
    reset = models.BooleanField(default=False)  # start: both sides from the initial time
    reason = models.CharField(max_length=300, blank=True)
    by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    by_system = models.BooleanField(default=False)
    version = models.PositiveIntegerField()  # the clock's version after this event
    deadline = models.DateTimeField(null=True, blank=True)  # the deadline this event ended (flag: lateness)
    controls = models.JSONField(null=True, blank=True)  # new game: {"a": control, "b": control}

    class Meta:
        ordering = ["clock", "number"]
        constraints = [models.UniqueConstraint(fields=["clock", "number"], name="clock_event_number_unique")]

    def __str__(self) -> str:
        return f"{self.kind} {self.side} at {self.at:%H:%M:%S}"
