"""Clocks and their event logs in the Django admin, read only: the services are the
only writers (a director adjusts a clock on its page, with a reason that is logged)."""

from django.contrib import admin

from clocks.models import Clock, ClockEvent
from tournaments.admin import ReadOnlyAdmin


class ClockEventInline(admin.TabularInline):
    model = ClockEvent
    extra = 0
    fields = ["number", "kind", "side", "at", "value_ms", "reason", "by_user", "by_entry", "by_system", "version"]
    readonly_fields = fields
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Clock)
class ClockAdmin(ReadOnlyAdmin):
    list_display = ["match", "phase", "running", "flagged", "deadline", "version", "game_number"]
    list_filter = ["phase"]
    list_select_related = ["match"]
    inlines = [ClockEventInline]
