from django.contrib import admin

from games.backgammon.models import BackgammonGame, ChouetteEvent, ChouettePlayer, ChouetteSession
from tournaments.admin import ReadOnlyAdmin


@admin.register(BackgammonGame)
class BackgammonGameAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "winner_side", "kind", "cube", "ending", "points", "status", "entered_at"]
    list_filter = ["status", "kind", "ending"]
    list_select_related = ["match", "match__entry_a", "match__entry_b"]


class ChouettePlayerInline(admin.TabularInline):
    model = ChouettePlayer
    extra = 0
    fields = ["name"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(ChouetteSession)
class ChouetteSessionAdmin(ReadOnlyAdmin):
    list_display = ["name", "status", "stake_cents", "currency", "games_played", "created_at", "closed_at"]
    list_filter = ["status"]
    search_fields = ["name"]
    inlines = [ChouettePlayerInline]


@admin.register(ChouetteEvent)
class ChouetteEventAdmin(ReadOnlyAdmin):
    list_display = ["session", "number", "kind", "status", "entered_at_table", "created_at"]
    list_filter = ["kind", "status"]
    list_select_related = ["session"]
