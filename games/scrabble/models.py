"""Scrabble facts: the games of a match, their turns as entered, the protests raised
and their verdicts, the racks left at the end, and a tournament's word list.

Everything else — the board, true scores, crosses, bag, racks, the end and the
winner — is derived by ``games.scrabble.game``. The few totals cached on a game for
fast lists (``score_a``, ``score_b``, ``ended``, ``finished``) are written by
``games.scrabble.services`` in the same transaction as the facts they follow from.
"""

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.scrabble.game import ProtestKind, TurnKind, Verdict
from tournaments.models import Entry, Match, Tournament

SIDES = Match.Side.choices
TURN_KINDS = [(k.value, k.value) for k in TurnKind]
PROTEST_KINDS = [(k.value, k.value) for k in ProtestKind]
VERDICTS = [(v.value, v.value) for v in Verdict]


class ScrabbleGame(models.Model):
    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="scrabble_games")
    number = models.PositiveSmallIntegerField()
    starter = models.CharField(max_length=1, choices=SIDES)
    end_rack_a = models.CharField(max_length=20, null=True, blank=True)  # None: not entered yet
    end_rack_b = models.CharField(max_length=20, null=True, blank=True)
    end_racks_entered_by_entry = models.ForeignKey(
        Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    end_racks_entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # Cached from the engine by the services (rebuilt and compared in the tests).
    score_a = models.IntegerField(default=0)
    score_b = models.IntegerField(default=0)
    ended = models.BooleanField(default=False)
    finished = models.BooleanField(default=False)  # ended and the end racks are in
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "number"]
        constraints = [models.UniqueConstraint(fields=["match", "number"], name="scrabble_game_number_unique")]
        verbose_name = _("Scrabble game")
        verbose_name_plural = _("Scrabble games")

    def __str__(self) -> str:
        return f"{self.match} · game {self.number}"

    @property
    def end_racks(self) -> tuple[str, str] | None:
        if self.end_rack_a is None or self.end_rack_b is None:
            return None
        return (self.end_rack_a, self.end_rack_b)


class ScrabbleTurn(models.Model):
    class Status(models.TextChoices):
        LIVE = "live", _("Counts")
        UNDONE = "undone", _("Undone by the director")

    game = models.ForeignKey(ScrabbleGame, on_delete=models.CASCADE, related_name="turns")
    number = models.PositiveSmallIntegerField()
    player = models.CharField(max_length=1, choices=SIDES)
    kind = models.CharField(max_length=12, choices=TURN_KINDS)
    position = models.CharField(max_length=10, blank=True)
    word = models.CharField(max_length=20, blank=True)
    announced = models.PositiveSmallIntegerField(default=0)
    exchanged = models.PositiveSmallIntegerField(default=0)
    as_played = models.BooleanField(default=False)
    status = models.CharField(max_length=8, choices=Status, default=Status.LIVE)
    entered_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    entered_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    entered_at = models.DateTimeField(auto_now_add=True)
    accepted_at = models.DateTimeField(null=True, blank=True)
    note = models.TextField(blank=True)

    class Meta:
        ordering = ["game", "number", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["game", "number"], condition=Q(status="live"), name="one_live_scrabble_turn_per_number"
            )
        ]
        verbose_name = _("Scrabble turn")
        verbose_name_plural = _("Scrabble turns")

    def __str__(self) -> str:
        return f"{self.game} · turn {self.number}: {self.kind} {self.position} {self.word}"


class ScrabbleProtest(models.Model):
    class DecidedBy(models.TextChoices):
        SYSTEM = "system", _("the board")
        WORD_LIST = "word_list", _("the word list")
        DIRECTOR = "director", _("the director")

    turn = models.ForeignKey(ScrabbleTurn, on_delete=models.CASCADE, related_name="protests")
    kind = models.CharField(max_length=12, choices=PROTEST_KINDS)
    protester = models.CharField(max_length=1, choices=SIDES)
    word = models.CharField(max_length=20, blank=True)
    verdict = models.CharField(
        max_length=10, choices=VERDICTS, default=Verdict.PENDING.value
    )  # word protests: the judge's verdict; the others are decided (and shown) from the board
    decided_by = models.CharField(max_length=10, choices=DecidedBy, blank=True)
    decided_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_at = models.DateTimeField(null=True, blank=True)
    raised_by_entry = models.ForeignKey(Entry, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    raised_by_user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    raised_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["turn", "id"]
        verbose_name = _("Scrabble protest")
        verbose_name_plural = _("Scrabble protests")

    def __str__(self) -> str:
        return f"{self.turn} · {self.kind} {self.word} ({self.verdict})"


class WordList(models.Model):
    """The valid words a tournament's word protests are judged by (the director may overrule)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="scrabble_word_list")
    name = models.CharField(max_length=200)
    word_count = models.PositiveIntegerField(default=0)
    uploaded_at = models.DateTimeField(auto_now=True)

    class Meta:
        verbose_name = _("word list")
        verbose_name_plural = _("word lists")

    def __str__(self) -> str:
        return f"{self.name} ({self.word_count})"


class Word(models.Model):
    word_list = models.ForeignKey(WordList, on_delete=models.CASCADE, related_name="words")
    word = models.CharField(max_length=20)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["word_list", "word"], name="word_unique_in_list")]

    def __str__(self) -> str:
        return self.word
