from rest_framework import serializers

from games.backgammon.models import BackgammonGame
from games.game_log_api import LOG_FIELDS, GameRowSerializer, reason_serializer, sheet_serializer
from tournaments.api.serializers import StrictSerializer

GAME_HELP = (
    'A finished game. winner: "a" or "b" (the match\'s slots) or the winner\'s entry id; '
    "kind: single, gammon or backgammon (for a resignation, what was resigned); "
    "cube: 1, 2, 4, 8, 16, 32 or 64 — for a game played out or resigned, the cube's final value; "
    "**for a dropped double, the value offered** (a double to 4 dropped is cube 4 and scores 2; "
    "cube 1 with a drop is refused); ending: played, dropped or resigned; "
    "cube_history (optional): [[player, action], ...] with action double, take, drop, beaver or raccoon, "
    "checked against cube ownership."
)


class GameInputSerializer(StrictSerializer):
    winner = serializers.JSONField(help_text='"a", "b" or the winner\'s entry id.')
    kind = serializers.CharField(required=False, default="single")
    cube = serializers.JSONField(required=False, default=1)
    ending = serializers.CharField(required=False, default="played")
    cube_history = serializers.JSONField(required=False, allow_null=True, default=None)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)

    class Meta:
        ref_name = "BackgammonGameInput"


class GameSerializer(GameRowSerializer):
    class Meta:
        model = BackgammonGame
        ref_name = "BackgammonGame"
        fields = [
            "id",
            "match",
            "number",
            "winner_side",
            "kind",
            "cube",
            "ending",
            "cube_history",
            "points",
            *LOG_FIELDS,
        ]


SheetSerializer = sheet_serializer(GameSerializer)


ReasonSerializer = reason_serializer("BackgammonReason")
