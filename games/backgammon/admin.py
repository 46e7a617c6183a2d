from django.contrib import admin

from games.backgammon.models import BackgammonGame
from tournaments.admin import ReadOnlyAdmin


@admin.register(BackgammonGame)
class BackgammonGameAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "winner_side", "kind", "cube", "ending", "points", "status", "entered_at"]
    list_filter = ["status", "kind", "ending"]
    list_select_related = ["match", "match__entry_a", "match__entry_b"]
