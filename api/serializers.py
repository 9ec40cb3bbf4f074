"""Read serializers for the first endpoints; issue 5 adds the write side."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper.matches.models import Match, Player, Seat
from scorekeeper.matches.selectors import match_score_sheet


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "created_at"]


class SeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "player", "name", "team"]


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)

    class Meta:
        model = Match
        fields = [
            "id",
            "game",
            "preset",
            "options",
            "title",
            "status",
            "version",
            "seats",
            "result",
            "created_at",
            "updated_at",
        ]


class ScoreSheetHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    declared = serializers.JSONField(allow_null=True)
    computed = serializers.JSONField(allow_null=True)
    running = serializers.JSONField(allow_null=True, help_text="totals (cul: banks) after the hand")
    accepted_declared = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    errors = serializers.JSONField()
    mismatches = serializers.JSONField()
    warnings = serializers.JSONField()
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField()


class MatchDetailSerializer(MatchSerializer):
    hands = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()
    state = serializers.JSONField(read_only=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "state", "totals", "hands"]

    def _sheet(self, match) -> dict:
        # One score sheet per match serves both the hands and the totals fields.
        cache = self.context.setdefault("score_sheets", {})
        if match.pk not in cache:
            cache[match.pk] = match_score_sheet(match=match)
        return cache[match.pk]

    @extend_schema_field(ScoreSheetHandSerializer(many=True))
    def get_hands(self, match):
        return ScoreSheetHandSerializer(self._sheet(match)["hands"], many=True).data

    def get_totals(self, match) -> list | None:
        return self._sheet(match)["totals"]
