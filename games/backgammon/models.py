"""Backgammon facts: each game of a match as it was entered and confirmed.

The match's score, the Crawford state and its winner are derived from the confirmed
and pending games by ``games.backgammon.match``; nothing derived is stored here.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from games.backgammon.scoring import CubeAction, Ending, Game, Kind
from games.game_log import GameRow
from tournaments.models import Match, new_private_key

KINDS = [(k.value, k.value) for k in Kind]
ENDINGS = [(e.value, e.value) for e in Ending]


class BackgammonGame(GameRow):
    """A game of a match: its winner, kind, cube and ending (who entered and confirmed
    it, and when, come from ``GameRow``)."""

    winner_side = models.CharField(max_length=1, choices=Match.Side)
    kind = models.CharField(max_length=12, choices=KINDS, default=Kind.SINGLE)
    cube = models.PositiveSmallIntegerField(default=1)
    ending = models.CharField(max_length=10, choices=ENDINGS, default=Ending.PLAYED)
    cube_history = models.JSONField(null=True, blank=True)
    points = models.PositiveSmallIntegerField()

    class Meta(GameRow.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(status__in=["provisional", "disputed", "confirmed"]),
                name="one_live_backgammon_game_per_number",
            )
        ]
        indexes = [
            models.Index(
                fields=["confirm_deadline"], condition=Q(status="provisional"), name="bg_provisional_by_deadline"
            )
        ]
        verbose_name = _("backgammon game")
        verbose_name_plural = _("backgammon games")

    def __str__(self) -> str:
        return f"{self.match} game {self.number}: {self.winner_side} +{self.points} ({self.status})"

    @property
    def game(self) -> Game:
        history = None
        if self.cube_history is not None:
            history = tuple((player, CubeAction(action)) for player, action in self.cube_history)
        return Game(
            winner=self.winner_side,
            kind=Kind(self.kind),
            cube=self.cube,
            ending=Ending(self.ending),
            cube_history=history,
        )


# --- Chouette sessions (SPEC §3.3) ------------------------------------------------------
class ChouetteSession(models.Model):
    """A chouette at a club table: its players, stake and rules; the line, the games and
    the ledger are derived from its events by ``games.backgammon.chouette``."""

    class Status(models.TextChoices):
        OPEN = "open", pgettext_lazy("a chouette session", "Open")
        CLOSED = "closed", pgettext_lazy("a chouette session", "Closed")

    name = models.CharField(max_length=200)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="chouette_sessions"
    )
    stake_cents = models.PositiveIntegerField(default=100)  # per point
    currency = models.CharField(max_length=3, default="CZK")
    settings = models.JSONField(default=dict)  # chouette.Settings as data
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    # The table's link: whoever holds it records the rolls, the games, who joins and leaves.
    table_key = models.CharField(max_length=64, unique=True, default=new_private_key, editable=False)
    public = models.BooleanField(default=True)
    # Cached from the events by the services (rebuilt and compared in the tests).
    line = models.JSONField(default=list)  # player ids (text) in line order; [] before the line is set
    games_played = models.PositiveIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    closed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name


class ChouettePlayer(models.Model):
    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="players")
    name = models.CharField(max_length=100)

    class Meta:
        ordering = ["pk"]
        constraints = [models.UniqueConstraint(fields=["session", "name"], name="chouette_player_name_unique")]

    def __str__(self) -> str:
        return self.name


class ChouetteEvent(models.Model):
    """A fact of a session: the line set (from rolls or an order), a player joining or
    leaving between games, a game recorded (its cubes and board result)."""

    class Kind(models.TextChoices):
        LINE = "line", _("Line set")
        JOIN = "join", _("Player joined")
        LEAVE = "leave", _("Player left")
        GAME = "game", _("Game")

    class Status(models.TextChoices):
        LIVE = "live", _("Live")
        UNDONE = "undone", _("Undone")

    session = models.ForeignKey(ChouetteSession, on_delete=models.CASCADE, related_name="events")
    number = models.PositiveIntegerField()
    kind = models.CharField(max_length=10, choices=Kind.choices)
    data = models.JSONField(default=dict)
    points = models.JSONField(null=True, blank=True)  # a game's points per player id (cached)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.LIVE)
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at_table = models.BooleanField(default=False)  # with the table's link
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["session", "number"]
        constraints = [models.UniqueConstraint(fields=["session", "number"], name="chouette_event_number_unique")]

    def __str__(self) -> str:
        return f"{self.session} #{self.number} {self.kind}"
