"""Chess facts in the Django admin, read only: the services are the only writers."""

from django.contrib import admin

from games.chess.models import ChessGame, ColourLot
from tournaments.admin import ReadOnlyAdmin


@admin.register(ChessGame)
class ChessGameAdmin(ReadOnlyAdmin):
    list_display = ["match", "number", "white_side", "result", "termination", "status", "entered_at"]
    list_filter = ["status", "result", "termination"]
    list_select_related = ["match", "match__entry_a", "match__entry_b"]


@admin.register(ColourLot)
class ColourLotAdmin(ReadOnlyAdmin):
    list_display = ["match", "purpose", "white_side", "drawn_by", "drawn_at"]
    list_select_related = ["match", "drawn_by"]
