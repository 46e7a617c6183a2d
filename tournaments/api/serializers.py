"""API shapes. Serializers only read rows and check input types; the rules live in
``tournaments.services`` and the game engines."""

from __future__ import annotations

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from tournaments.labels import match_label, round_name
from tournaments.models import AuditEntry, Entry, Match, ResultSubmission, Round, Tournament


class StrictSerializer(serializers.Serializer):
    """An input serializer that refuses fields it does not know (a typo is not ignored)."""

    def validate(self, attrs):
        known = set(self.fields)
        unknown = (
            sorted(set(getattr(self, "initial_data", {}) or {}) - known) if hasattr(self.initial_data, "keys") else []
        )
        if unknown:
            raise serializers.ValidationError(
                {
                    name: [_("Unknown field; the fields are: %(fields)s.") % {"fields": ", ".join(sorted(known))}]
                    for name in unknown
                }
            )
        return attrs


class TournamentSerializer(serializers.ModelSerializer):
    entry_count = serializers.SerializerMethodField()
    draw_random_seed = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "slug",
            "name",
            "game_type",
            "format",
            "status",
            "venue",
            "starts_on",
            "seeding_method",
            "seeded_count",
            "third_place_match",
            "consolation",
            "confirmation_timeout_seconds",
            "round_plan",
            "settings",
            "bracket_size",
            "draw_random_seed",
            "drawn_at",
            "entry_count",
            "url",
        ]

    def get_entry_count(self, obj: Tournament) -> int:
        count = getattr(obj, "entry_count", None)
        return count if count is not None else obj.entries.filter(withdrawn_at__isnull=True).count()

    def get_draw_random_seed(self, obj: Tournament) -> str | None:
        """The random seed of the draw, as a string (it may exceed JavaScript's integers)."""
        return None if obj.draw_random_seed is None else str(obj.draw_random_seed)

    def get_url(self, obj: Tournament) -> str:
        return obj.get_absolute_url()


class TournamentWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    game_type = serializers.CharField(max_length=30, required=False, help_text="'scored' for now.")
    venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
    starts_on = serializers.DateField(required=False, allow_null=True)
    seeding_method = serializers.ChoiceField(choices=Tournament.Seeding.choices, required=False)
    seeded_count = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, help_text="Seed only the top k; null seeds everybody."
    )
    third_place_match = serializers.BooleanField(required=False)
    consolation = serializers.BooleanField(required=False)
    confirmation_timeout_seconds = serializers.IntegerField(
        required=False, min_value=0, help_text="0 switches automatic confirmation off."
    )
    round_plan = serializers.JSONField(
        required=False,
        help_text='Per round from round 1 (the last repeats): "3, 3, 5", [3, 3, 5] or [{"best_of": 3}, ...]; '
        "for backgammon, the match lengths.",
    )
    settings = serializers.JSONField(
        required=False, help_text='The game\'s own settings, e.g. {"crawford": true} for backgammon.'
    )


class EntryBriefSerializer(serializers.ModelSerializer):
    class Meta:
        model = Entry
        fields = ["id", "name", "bracket_seed", "club", "country"]


class EntrySerializer(serializers.ModelSerializer):
    withdrawn = serializers.BooleanField(read_only=True)

    class Meta:
        model = Entry
        fields = ["id", "name", "rating", "club", "country", "seed", "bracket_seed", "withdrawn"]


class EntryPrivateSerializer(EntrySerializer):
    """What the directors see: also the private key and link of each player."""

    private_url = serializers.SerializerMethodField()

    class Meta(EntrySerializer.Meta):
        fields = [*EntrySerializer.Meta.fields, "private_key", "private_url"]

    def get_private_url(self, obj: Entry) -> str:
        request = self.context.get("request")
        path = obj.get_private_url()
        return request.build_absolute_uri(path) if request else path


class EntryWriteSerializer(StrictSerializer):
    name = serializers.CharField(max_length=200, required=False, allow_blank=True)
    rating = serializers.IntegerField(required=False, allow_null=True)
    club = serializers.CharField(max_length=200, required=False, allow_blank=True)
    country = serializers.CharField(max_length=10, required=False, allow_blank=True)
    seed = serializers.IntegerField(required=False, allow_null=True)


class SeedsSerializer(StrictSerializer):
    seeds = serializers.DictField(
        child=serializers.IntegerField(allow_null=True, min_value=1),
        help_text='Entry id -> seed number (null clears it), e.g. {"12": 1, "15": 2}; checked as a whole.',
    )


class EntryImportSerializer(StrictSerializer):
    csv = serializers.CharField(
        required=False,
        allow_blank=True,
        trim_whitespace=False,
        help_text="The file's text: a header row (name, rating, club, country, seed) and one player per line.",
    )
    file = serializers.FileField(required=False, help_text="Or upload the file itself (multipart).")


class SubmissionSerializer(serializers.ModelSerializer):
    submitted_by = serializers.SerializerMethodField()
    confirmed_by = serializers.SerializerMethodField()

    class Meta:
        model = ResultSubmission
        fields = [
            "id",
            "match",
            "version",
            "kind",
            "status",
            "result",
            "winner_side",
            "score_a",
            "score_b",
            "summary",
            "submitted_by",
            "submitted_at",
            "confirm_deadline",
            "confirmed_by",
            "confirmed_at",
            "auto_confirmed",
            "disputed_at",
            "dispute_reason",
            "note",
        ]

    def get_submitted_by(self, obj: ResultSubmission) -> str:
        return _who(obj.submitted_by_entry, obj.submitted_by_user)

    def get_confirmed_by(self, obj: ResultSubmission) -> str:
        if obj.auto_confirmed:
            return "system (confirmation timeout)"
        return _who(obj.confirmed_by_entry, obj.confirmed_by_user)


def _who(entry, user) -> str:
    if entry is not None:
        return entry.name
    if user is not None:
        return f"director {user.get_username()}"
    return ""


class OpenResultSerializer(serializers.ModelSerializer):
    class Meta:
        model = ResultSubmission
        fields = ["id", "status", "summary", "winner_side", "submitted_at", "confirm_deadline"]


class MatchSerializer(serializers.ModelSerializer):
    entry_a = EntryBriefSerializer(read_only=True)
    entry_b = EntryBriefSerializer(read_only=True)
    round_name = serializers.SerializerMethodField()
    label = serializers.SerializerMethodField()
    round_settings = serializers.SerializerMethodField()
    open_result = serializers.SerializerMethodField()
    sheet_state = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "flight",
            "round_number",
            "position",
            "round_name",
            "label",
            "round_settings",
            "entry_a",
            "entry_b",
            "bye_a",
            "bye_b",
            "status",
            "winner",
            "winner_side",
            "decided_by",
            "score_a",
            "score_b",
            "summary",
            "open_result",
            "sheet_state",
            "started_at",
            "decided_at",
            "url",
        ]

    def get_round_name(self, obj: Match) -> str:
        return round_name(obj.flight, obj.round_number, obj.tournament.bracket_size)

    def get_label(self, obj: Match) -> str:
        return match_label(obj.flight, obj.round_number, obj.position, obj.tournament.bracket_size)

    @extend_schema_field(serializers.DictField())
    def get_round_settings(self, obj: Match) -> dict:
        return obj.round.settings

    @extend_schema_field(OpenResultSerializer(allow_null=True))
    def get_open_result(self, obj: Match):
        open_results = self.context.get("open_results")
        if open_results is not None:
            submission = open_results.get(obj.pk)
        elif hasattr(obj, "open_results"):  # prefetched by selectors.matches_of_entry
            submission = obj.open_results[0] if obj.open_results else None
        else:
            submission = obj.submissions.filter(status__in=ResultSubmission.OPEN).first()
        return OpenResultSerializer(submission).data if submission else None

    @extend_schema_field(serializers.DictField(allow_null=True))
    def get_sheet_state(self, obj: Match) -> dict | None:
        """For games with a score sheet (backgammon): the state derived from its games,
        e.g. score, away, next_game_is_crawford, post_crawford, over, winner."""
        states = self.context.get("live_states")
        if states is not None:
            live = states.get(obj.pk)
            return live.data if live else None
        sheet = obj.tournament.game.sheet
        if sheet is None or not (obj.entry_a_id and obj.entry_b_id):
            return None
        live = sheet.live_states(obj.tournament, [obj]).get(obj.pk)
        return live.data if live else None

    def get_url(self, obj: Match) -> str:
        return obj.get_absolute_url()


class RoundSerializer(serializers.ModelSerializer):
    name = serializers.SerializerMethodField()
    matches = serializers.SerializerMethodField()

    class Meta:
        model = Round
        fields = ["id", "flight", "number", "name", "settings", "matches"]

    def get_name(self, obj: Round) -> str:
        return round_name(obj.flight, obj.number, obj.tournament.bracket_size)

    @extend_schema_field(MatchSerializer(many=True))
    def get_matches(self, obj: Round):
        matches = self.context["matches_by_round"].get(obj.pk, [])
        return MatchSerializer(matches, many=True, context=self.context).data


class RoundWriteSerializer(StrictSerializer):
    settings = serializers.DictField(help_text='The round\'s settings, e.g. {"best_of": 5}.')


class ResultInputSerializer(StrictSerializer):
    result = serializers.JSONField(
        help_text='The match result as the game reads it; scored game: {"games": [[21, 15], [18, 21], [21, 10]]} '
        "with the score of the player in slot a first."
    )
    winner = serializers.IntegerField(
        required=False, allow_null=True, help_text="Optional: the winner's entry id, checked against the scores."
    )
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class WalkoverSerializer(StrictSerializer):
    winner = serializers.IntegerField(help_text="The entry id of the player who advances.")
    note = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class ReasonSerializer(StrictSerializer):
    reason = serializers.CharField(required=False, allow_blank=True, max_length=1000)


class DrawSerializer(StrictSerializer):
    random_seed = serializers.IntegerField(
        required=False, allow_null=True, min_value=0, help_text="Replay a draw from its recorded seed."
    )


class AuditEntrySerializer(serializers.ModelSerializer):
    class Meta:
        model = AuditEntry
        fields = ["id", "at", "actor_label", "action", "match", "before", "after", "message"]


class StandingRowSerializer(serializers.Serializer):
    place = serializers.CharField()
    entry = EntryBriefSerializer()
    finished_in = serializers.CharField()
    won_last_match = serializers.BooleanField()


class StandingsSerializer(serializers.Serializer):
    final = serializers.BooleanField()
    rows = StandingRowSerializer(many=True)
    still_playing = EntryBriefSerializer(many=True)
    consolation_winner = EntryBriefSerializer(allow_null=True)


class MeSerializer(serializers.Serializer):
    entry = EntrySerializer()
    tournament = TournamentSerializer()
    matches = MatchSerializer(many=True)
