"""Chess facts: each game of a mini-match as it was entered and confirmed, and the
colour lots a director drew at the board.

The mini-match — its score, stage, the next game's colours and time controls, the
winner — is derived from these by ``games.chess.minimatch``; nothing derived is stored.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.chess.lots import PURPOSES
from games.chess.results import GameResult, Result, Termination
from games.game_log import GameRow
from tournaments.models import Match

RESULTS = [(r.value, r.value) for r in Result]
TERMINATIONS = [(t.value, t.value) for t in Termination]
COLOURS = [("white", _("White")), ("black", _("Black"))]


class ChessGame(GameRow):
    """A game of a mini-match: who had White (from the schedule), the result and how the
    game ended, and what the players entered of the board (the final position, moves)."""

    white_side = models.CharField(max_length=1, choices=Match.Side)
    result = models.CharField(max_length=8, choices=RESULTS)
    termination = models.CharField(max_length=24, choices=TERMINATIONS)
    flagged = models.CharField(max_length=5, choices=COLOURS, blank=True)  # a flag fall: whose flag fell
    both_flags = models.BooleanField(default=False)
    fen = models.CharField(max_length=100, blank=True)  # the final position, if entered
    moves = models.TextField(blank=True)  # SAN from the initial position, space separated

    class Meta(GameRow.Meta):
        constraints = [
            models.UniqueConstraint(
                fields=["match", "number"],
                condition=Q(status__in=["provisional", "disputed", "held", "confirmed"]),
                name="one_live_chess_game_per_number",
            )
        ]
        indexes = [
            models.Index(
                fields=["confirm_deadline"], condition=Q(status="provisional"), name="chess_provisional_by_deadline"
            )
        ]
        verbose_name = _("chess game")
        verbose_name_plural = _("chess games")

    def __str__(self) -> str:
        return f"{self.match} game {self.number}: {self.result} ({self.status})"

    @property
    def game_result(self) -> GameResult:
        return GameResult(Result(self.result), Termination(self.termination))

    @property
    def move_list(self) -> tuple[str, ...]:
        return tuple(self.moves.split())

    @property
    def entered_by_label(self) -> str:
        """A game lost on time is entered by the clock."""
        if super().entered_by_label:
            return super().entered_by_label
        return "the clock" if self.status == self.Status.HELD or self.termination == "flag" else ""


class ColourLot(models.Model):
    """White drawn by lot at the board by a director, for game 1 or for Armageddon;
    without it the system's lot from the draw's random seed counts (``lots``)."""

    PURPOSE_CHOICES = [(p, p) for p in PURPOSES]

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="chess_lots")
    purpose = models.CharField(max_length=12, choices=PURPOSE_CHOICES)
    white_side = models.CharField(max_length=1, choices=Match.Side)
    drawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    drawn_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["match", "purpose"], name="one_chess_lot_per_purpose")]
        verbose_name = _("colour lot")
        verbose_name_plural = _("colour lots")

    def __str__(self) -> str:
        return f"{self.match}: {self.purpose} White {self.white_side}"
