"""Every model in the Django admin, for looking things up. Changes that matter
(results, draws) belong to the director's pages, which go through the services and
the audit log; the admin marks those models read-only where a direct edit would
bypass them."""

from django.contrib import admin

from tournaments.models import AuditEntry, Entry, Match, PageVersion, ResultSubmission, Round, Tournament


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    fields = ["name", "rating", "club", "country", "seed", "bracket_seed", "withdrawn_at"]
    readonly_fields = fields
    can_delete = False
    show_change_link = True

    def has_add_permission(self, request, obj=None):
        return False


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = ["name", "game_type", "status", "starts_on", "venue", "bracket_size"]
    list_filter = ["status", "game_type"]
    search_fields = ["name", "slug", "venue"]
    inlines = [EntryInline]


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ["name", "tournament", "rating", "club", "country", "seed", "bracket_seed", "withdrawn_at"]
    list_filter = ["tournament"]
    search_fields = ["name", "club"]
    exclude = ["private_key"]


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "flight", "number", "settings"]
    list_filter = ["tournament", "flight"]


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = ["__str__", "tournament", "status", "decided_by", "summary"]
    list_filter = ["tournament", "status", "flight"]
    list_select_related = ["entry_a", "entry_b", "tournament"]


@admin.register(ResultSubmission)
class ResultSubmissionAdmin(ReadOnlyAdmin):
    list_display = ["match", "version", "kind", "status", "summary", "submitted_at", "auto_confirmed"]
    list_filter = ["status", "kind"]


@admin.register(AuditEntry)
class AuditEntryAdmin(ReadOnlyAdmin):
    list_display = ["at", "tournament", "actor_label", "action", "message"]
    list_filter = ["tournament", "action"]
    search_fields = ["actor_label", "action", "message"]


@admin.register(PageVersion)
class PageVersionAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "value"]
    list_select_related = ["tournament"]
