from rest_framework import serializers

from games.chess.models import ChessGame
from games.game_log_api import LOG_FIELDS, GameRowSerializer, reason_serializer, sheet_serializer
from tournaments.api.serializers import StrictSerializer

GAME_HELP = (
    "A finished game of the mini-match; White is the player the schedule gives (the lot, then alternating). "
    'result: "1-0", "1/2-1/2" or "0-1" (White\'s score first); termination: checkmate, resignation, flag, '
    "agreed_draw, stalemate, threefold_repetition, fifty_move_rule, insufficient_material, forfeit or arbiter "
    "(default: resignation for a win, agreed_draw for a draw). Optional: fen (the final position), moves (SAN from "
    'the initial position, "1. e4 e5 2. Nf3" or a list) — the result must agree with them (a checkmate on the '
    "board, a flag fall that is a draw when the opponent cannot checkmate); flagged (whose flag fell: white, black "
    'or a player) and both_flags; white ("a", "b" or an entry id) is checked against the schedule.'
)


class GameInputSerializer(StrictSerializer):
    result = serializers.CharField()
    termination = serializers.CharField(required=False)
    fen = serializers.CharField(required=False, allow_blank=True, max_length=100)
    moves = serializers.JSONField(required=False)
    flagged = serializers.JSONField(required=False)
    both_flags = serializers.BooleanField(required=False)
    white = serializers.JSONField(required=False)
    forfeit = serializers.BooleanField(required=False)
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)

    class Meta:
        ref_name = "ChessGameInput"


class GameSerializer(GameRowSerializer):
    class Meta:
        model = ChessGame
        ref_name = "ChessGame"
        fields = [
            "id",
            "match",
            "number",
            "white_side",
            "result",
            "termination",
            "flagged",
            "both_flags",
            "fen",
            "moves",
            *LOG_FIELDS,
        ]


SheetSerializer = sheet_serializer(GameSerializer, "ChessSheet")


ReasonSerializer = reason_serializer("ChessReason")


class PositionSerializer(StrictSerializer):
    class Meta:
        ref_name = "ChessPosition"

    fen = serializers.CharField(max_length=100, help_text="The final position (FEN) of a game lost on time.")


class ColoursSerializer(StrictSerializer):
    class Meta:
        ref_name = "ChessColours"

    purpose = serializers.ChoiceField(choices=["first_game", "armageddon"])
    white = serializers.JSONField(help_text='"a", "b" or the entry id of the player drawn to have White.')


class DecideSerializer(StrictSerializer):
    class Meta:
        ref_name = "ChessDecide"

    winner = serializers.JSONField(help_text='"a", "b" or the winner\'s entry id.')
    reason = serializers.CharField(max_length=1000, help_text="How it was decided (e.g. by lot).")
