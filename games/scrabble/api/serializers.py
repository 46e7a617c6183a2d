from rest_framework import serializers

from games.scrabble.models import ScrabbleGame, ScrabbleProtest, ScrabbleTurn
from tournaments.api.serializers import StrictSerializer

TURN_HELP = (
    "kind: place, exchange, pass, timeout or forced_pass. A placement gives position (GCG: 8D across from row 8 "
    "column D, D8 down), word (upper-case letters are tiles, lower-case a blank standing for that letter, '.' a "
    "tile already on the board) and the announced score; an exchange gives exchanged (how many tiles). "
    "as_played: true records an exchange with fewer than 7 tiles in the bag, or a first word off the centre / a "
    "word not connected, as it happened at the table (it stands unless the opponent protests). A director may "
    'name the player ("a" or "b"); a player enters their own turns.'
)


class TurnInputSerializer(StrictSerializer):
    kind = serializers.CharField(default="place")
    position = serializers.CharField(required=False, allow_blank=True, default="")
    word = serializers.CharField(required=False, allow_blank=True, default="")
    announced = serializers.IntegerField(required=False, default=0, min_value=0)
    exchanged = serializers.IntegerField(required=False, default=0, min_value=0)
    as_played = serializers.BooleanField(required=False, default=False)
    player = serializers.ChoiceField(choices=["a", "b"], required=False)


class ProtestInputSerializer(StrictSerializer):
    kind = serializers.ChoiceField(choices=["word", "overscore", "exchange", "placement"])
    word = serializers.CharField(required=False, allow_blank=True, default="")
    protester = serializers.ChoiceField(choices=["a", "b"], required=False, help_text="Directors only.")


class VerdictSerializer(StrictSerializer):
    verdict = serializers.ChoiceField(choices=["upheld", "rejected"])


class EndRacksSerializer(StrictSerializer):
    racks = serializers.ListField(
        child=serializers.CharField(allow_blank=True, max_length=20),
        help_text='The tiles left on the racks of players a and b ("?" for a blank), e.g. ["AEK?", ""].',
    )


class ProtestSerializer(serializers.ModelSerializer):
    class Meta:
        model = ScrabbleProtest
        fields = ["id", "kind", "protester", "word", "verdict", "decided_by", "decided_at", "raised_at"]


class TurnSerializer(serializers.ModelSerializer):
    protests = ProtestSerializer(many=True, read_only=True)

    class Meta:
        model = ScrabbleTurn
        fields = [
            "id",
            "number",
            "player",
            "kind",
            "position",
            "word",
            "announced",
            "exchanged",
            "as_played",
            "entered_at",
            "accepted_at",
            "protests",
        ]


class GameSerializer(serializers.ModelSerializer):
    class Meta:
        model = ScrabbleGame
        fields = ["id", "number", "starter", "score_a", "score_b", "ended", "finished", "end_rack_a", "end_rack_b"]
