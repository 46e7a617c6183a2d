"""The clock through the API: input shapes (unknown fields refused) and the clock's view."""

from rest_framework import serializers

from tournaments.api.serializers import StrictSerializer

SIDE_HELP = 'The side: "a" (the match\'s first player) or "b".'


class StartInputSerializer(StrictSerializer):
    side = serializers.ChoiceField(choices=["a", "b"], help_text="Whose time starts to run. " + SIDE_HELP)
    version = serializers.IntegerField(
        required=False, min_value=0, help_text="The clock's version you saw (optional for a start)."
    )


class PressInputSerializer(StrictSerializer):
    side = serializers.ChoiceField(choices=["a", "b"], help_text="The running side, whose move ends. " + SIDE_HELP)
    version = serializers.IntegerField(
        min_value=0,
        help_text="The clock's version you saw: a press on a clock that changed since is refused (409), "
        "so a double tap presses once.",
    )


class ReasonInputSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=300, default="")


class AdjustInputSerializer(StrictSerializer):
    side = serializers.ChoiceField(choices=["a", "b"], help_text="Whose time is set. " + SIDE_HELP)
    seconds = serializers.FloatField(help_text="The side's time from now on, in seconds (more than 0, at most a day).")
    reason = serializers.CharField(
        required=False, allow_blank=True, max_length=300, default="", help_text="Why (required; kept in the log)."
    )


class SidesIntSerializer(serializers.Serializer):
    a = serializers.IntegerField()
    b = serializers.IntegerField()


class ControlSerializer(serializers.Serializer):
    periods = serializers.ListField(child=serializers.DictField(), help_text="time, moves, increment (ms)")
    per_move = serializers.IntegerField()
    delay = serializers.IntegerField()
    delay_kind = serializers.CharField()
    increment_from_move = serializers.IntegerField()
    sandclock = serializers.BooleanField()
    initial_ms = serializers.IntegerField()


class ControlsSerializer(serializers.Serializer):
    a = ControlSerializer()
    b = ControlSerializer()


class ClockSerializer(serializers.Serializer):
    """A match's clock at ``server_time``: a page counts down locally from it."""

    match = serializers.IntegerField()
    version = serializers.IntegerField(help_text="A press carries it.")
    server_time = serializers.CharField(help_text="The server's time of this view (ISO 8601).")
    phase = serializers.ChoiceField(choices=["ready", "running", "paused", "flagged"])
    running = serializers.CharField(allow_null=True, help_text='"a", "b" or null: whose move it is.')
    flagged = serializers.CharField(allow_null=True, help_text="The side whose flag fell, if any.")
    time_ms = SidesIntSerializer(help_text="Each side's time at server_time, in ms.")
    delay_left_ms = serializers.IntegerField(help_text="What is left of the running side's simple delay.")
    delay_kind = serializers.CharField(allow_null=True)
    sandclock = serializers.BooleanField()
    deadline = serializers.CharField(allow_null=True, help_text="When the running side's flag falls (ISO 8601).")
    moves = SidesIntSerializer()
    game_number = serializers.IntegerField()
    presses_from_sheet = serializers.BooleanField(help_text="The score sheet presses this clock, not the players.")
    controls = ControlsSerializer()
    pgn_time_control = serializers.CharField(allow_null=True)
