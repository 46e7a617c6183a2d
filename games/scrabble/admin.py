"""Scrabble facts in the Django admin, read only: the services are the only writers."""

from django.contrib import admin

from games.scrabble.models import ScrabbleGame, ScrabbleProtest, ScrabbleTurn, WordList
from tournaments.admin import ReadOnlyAdmin


@admin.register(ScrabbleGame)
class ScrabbleGameAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "starter", "score_a", "score_b", "ended", "finished", "created_at"]
    list_filter = ["ended", "finished"]
    list_select_related = ["match", "match__entry_a", "match__entry_b"]


@admin.register(ScrabbleTurn)
class ScrabbleTurnAdmin(ReadOnlyAdmin):
    list_display = ["game", "number", "player", "kind", "position", "word", "announced", "status", "entered_at"]
    list_filter = ["kind", "status"]
    list_select_related = ["game", "game__match"]


@admin.register(ScrabbleProtest)
class ScrabbleProtestAdmin(ReadOnlyAdmin):
    list_display = ["turn", "kind", "protester", "word", "verdict", "decided_by", "raised_at", "decided_at"]
    list_filter = ["kind", "verdict", "decided_by"]
    list_select_related = ["turn", "turn__game"]


@admin.register(WordList)
class WordListAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "name", "word_count", "uploaded_at"]
