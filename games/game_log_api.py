"""The API's shape of a game entered one by one (``games.game_log``), shared by the games
that keep such a log (backgammon, chess): the game's own fields come first, then who
entered it and where it stands in the confirmation flow."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.api.serializers import StrictSerializer

LOG_FIELDS = (
    "status",
    "entered_by",
    "entered_at",
    "confirm_deadline",
    "confirmed_at",
    "auto_confirmed",
    "disputed_at",
    "dispute_reason",
    "note",
)


# A game row; subclasses name the model and ``fields`` = the game's own + ``LOG_FIELDS``
# (no docstring: the schema would show it as each game's description).
class GameRowSerializer(serializers.ModelSerializer):
    entered_by = serializers.SerializerMethodField()

    def get_entered_by(self, obj) -> str:
        return obj.entered_by_label


def sheet_serializer(game_serializer: type[serializers.Serializer], ref_name: str | None = None) -> type:
    """A match's sheet: its derived state and its games."""

    class SheetSerializer(serializers.Serializer):
        state = serializers.SerializerMethodField()
        games = game_serializer(many=True)

        @extend_schema_field(serializers.DictField())
        def get_state(self, obj) -> dict:
            return obj["state"]

    if ref_name:
        SheetSerializer.Meta = type("Meta", (), {"ref_name": ref_name})
    return SheetSerializer


def reason_serializer(ref_name: str) -> type:
    """An optional reason (undo, dispute)."""

    class ReasonSerializer(StrictSerializer):
        reason = serializers.CharField(required=False, allow_blank=True, max_length=1000)

        class Meta:
            pass

    ReasonSerializer.Meta.ref_name = ref_name
    return ReasonSerializer
