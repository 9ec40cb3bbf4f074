"""People under /api/v1/ (issue 21): head-to-head records and the staff merge of a duplicate
player. Reads through ``ratings.reads.head_to_head``; the merge through
``scorekeeper.matches.services.player_merge`` (the ratings follow it by its signal); errors in
the common shape (api/exceptions.py)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.reverse import reverse

from ratings.models import RecomputeJob
from ratings.reads import head_to_head, visibility
from scorekeeper.matches import services
from scorekeeper.rules import RULESETS

from . import schema
from .bodies import MAX_ID, BodySerializer, GameField, _valid
from .idempotency import idempotent
from .ratings import RatedPlayerSerializer


# -- serializers ---------------------------------------------------------------------------
class RecordSerializer(serializers.Serializer):
    met = serializers.IntegerField(
        source="played", help_text=gettext_lazy("finished matches on opposite sides")
    )
    wins = serializers.IntegerField(help_text=gettext_lazy("the player placed above the opponent"))
    losses = serializers.IntegerField(help_text=gettext_lazy("the opponent placed above the player"))
    draws = serializers.IntegerField(help_text=gettext_lazy("equal places"))


def _record(record) -> dict[str, int]:
    """``RecordSerializer``'s body, made directly: a list holds one per row, and a serializer
    a row cost more than the rest of the answer."""
    return {"met": record.played, "wins": record.wins, "losses": record.losses, "draws": record.draws}


class GameRecordSerializer(RecordSerializer):
    game = serializers.CharField()


class ChancesSerializer(serializers.Serializer):
    game = serializers.CharField()
    win = serializers.FloatField(
        help_text=gettext_lazy("the player's chance to beat the opponent alone, today")
    )
    loss = serializers.FloatField(
        help_text=gettext_lazy("the opponent's chance to win; win + draw + loss = 1")
    )
    draw = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("the chance of a draw; null if none")
    )
    rated = serializers.BooleanField(
        help_text=gettext_lazy("both are rated in the game (else a newcomer counts with the prior)")
    )


class OpponentSerializer(serializers.Serializer):
    player = RatedPlayerSerializer()
    record = serializers.SerializerMethodField()
    games = serializers.SerializerMethodField(help_text=gettext_lazy("meetings per game, most first"))
    chances = ChancesSerializer(
        allow_null=True,
        help_text=gettext_lazy("today, in the game they met in most"),
    )

    @extend_schema_field(RecordSerializer)
    def get_record(self, rival) -> dict[str, int]:
        return _record(rival.record)

    def get_games(self, rival) -> dict[str, int]:
        return dict(rival.games.most_common())


class HeadToHeadSerializer(serializers.Serializer):
    player = RatedPlayerSerializer()
    opponent = RatedPlayerSerializer()
    game = serializers.CharField(allow_null=True, help_text=gettext_lazy("the game asked for; null: all"))
    record = serializers.SerializerMethodField(help_text=gettext_lazy("the player's, in the game or in all"))
    by_game = serializers.SerializerMethodField(help_text=gettext_lazy("the record in each game they met in"))
    chances = ChancesSerializer(many=True, help_text=gettext_lazy("today, in each game shown"))
    matches = serializers.SerializerMethodField(help_text=gettext_lazy("their meetings, paginated"))

    @extend_schema_field(RecordSerializer)
    def get_record(self, both) -> dict[str, int]:
        return _record(both.record)

    @extend_schema_field(GameRecordSerializer(many=True))
    def get_by_game(self, both) -> list[dict[str, Any]]:
        return [{"game": game, **_record(record)} for game, record in both.by_game.items()]

    def get_matches(self, both) -> str:
        url = self.context["matches_url"]
        return f"{url}?game={both.game}" if both.game else url


class MeetingSerializer(serializers.Serializer):
    match = serializers.IntegerField(source="meeting.match_id")
    game = serializers.CharField(source="meeting.game")
    played_at = serializers.DateTimeField(
        source="meeting.played_at", help_text=gettext_lazy("when the match was started")
    )
    outcome = serializers.ChoiceField(
        [head_to_head.WIN, head_to_head.LOSS, head_to_head.DRAW], source="meeting.outcome",
        help_text=gettext_lazy("the player's"),
    )  # fmt: skip
    place = serializers.IntegerField(source="meeting.place")
    opponent_place = serializers.IntegerField(source="meeting.opponent_place")
    record = serializers.SerializerMethodField(help_text=gettext_lazy("the player's record after this match"))

    @extend_schema_field(RecordSerializer)
    def get_record(self, row) -> dict[str, int]:
        return _record(row["record"])


class HeadToHeadFilterSerializer(serializers.Serializer):
    game = GameField(required=False, help_text=gettext_lazy("one game only (a key of GET /api/v1/games)"))

    def validate_game(self, value):
        if value not in RULESETS:
            raise serializers.ValidationError(
                _('"%(value)s" is not a valid choice; the games are %(games)s')
                % {"value": value[:40], "games": ", ".join(sorted(RULESETS))},
                code="invalid_choice",
            )
        return value


def _filters(request) -> dict:
    data = request.query_params.dict()
    return _valid(HeadToHeadFilterSerializer, data) if isinstance(data, Mapping) else {}


def _pair(request, pk: int, other: int, game: str | None):
    # Issue 33: the players the viewer sees (else a 404), their meetings in his clubs only.
    player = visibility.player_seen(pk, request.user)
    opponent = visibility.player_seen(other, request.user)
    clubs = visibility.clubs_for_player(player, visibility.clubs_of_viewer(request.user))
    return head_to_head.pair(player=player, opponent=opponent, game=game, clubs=clubs)


# -- views --------------------------------------------------------------------------------
class Opponents(generics.GenericAPIView):
    """Everyone the player met in a finished match on opposite sides, most meetings first: the
    record against each (a win: he placed above the other), the games, and the model's chance
    today of beating him alone in the game they met in most."""

    serializer_class = OpponentSerializer

    @extend_schema(responses={200: OpponentSerializer(many=True), **schema.errors(404)})
    def get(self, request, pk: int):
        player = visibility.player_seen(pk, request.user)  # issue 33: his matches in the viewer's clubs
        # Ranked whole by their meeting counts; the records made for the page's opponents only.
        met = head_to_head.opposed(
            player=player, clubs=visibility.clubs_for_player(player, visibility.clubs_of_viewer(request.user))
        )
        page = self.paginate_queryset(met.ranked)
        assert page is not None  # the API pages every list (api/pagination.py)
        rivals = met.rivals([m.player for m in page])
        head_to_head.with_chances(player=player, rivals=rivals)
        return self.get_paginated_response(OpponentSerializer(rivals, many=True).data)


class HeadToHead(generics.GenericAPIView):
    """Two players' head-to-head, in one game (`?game=`) or in all: the record of the first
    against the second, per game, and the model's chances today; their matches at `matches`."""

    serializer_class = HeadToHeadSerializer

    @extend_schema(
        parameters=[HeadToHeadFilterSerializer],
        responses={200: HeadToHeadSerializer, **schema.errors(400, 404)},
    )
    def get(self, request, pk: int, other: int):
        game = _filters(request).get("game")
        both = _pair(request, pk, other, game)
        matches_url = reverse(
            "api:player-head-to-head-matches", args=[both.player.pk, both.opponent.pk], request=request
        )
        return Response(HeadToHeadSerializer(both, context={"matches_url": matches_url}).data)


class HeadToHeadMatches(generics.GenericAPIView):
    """Two players' meetings, newest first, each with the first player's outcome, both places and
    his running record after it; in one game (`?game=`) or in all."""

    serializer_class = MeetingSerializer

    @extend_schema(
        parameters=[HeadToHeadFilterSerializer],
        responses={200: MeetingSerializer(many=True), **schema.errors(400, 404)},
    )
    def get(self, request, pk: int, other: int):
        game = _filters(request).get("game")
        both = _pair(request, pk, other, game)
        rows = [{"meeting": m, "record": r} for m, r in zip(both.meetings, both.running, strict=True)][::-1]
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(MeetingSerializer(page, many=True).data)


class PlayerMergeRequestSerializer(BodySerializer):
    into = serializers.IntegerField(
        min_value=1,
        max_value=MAX_ID,
        help_text=gettext_lazy("the id of the real player to merge this one into"),
    )


class MergedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    merged_into = serializers.IntegerField(source="merged_into_id", allow_null=True)


class PlayerMergeSerializer(serializers.Serializer):
    player = MergedPlayerSerializer(help_text=gettext_lazy("the duplicate, now merged"))
    into = RatedPlayerSerializer(help_text=gettext_lazy("the real player, who has his matches now"))
    matches = serializers.ListField(
        child=serializers.IntegerField(), help_text=gettext_lazy("the matches whose seat moved")
    )
    games = serializers.ListField(
        child=serializers.CharField(), help_text=gettext_lazy("the games whose ratings are recomputed")
    )
    recompute = serializers.CharField(
        allow_null=True, help_text=gettext_lazy("the recompute job of those games (its progress); null: none")
    )


class PlayerMerge(generics.GenericAPIView):
    """Merge a duplicate player into the real one (staff, or the admin of every club the two
    play in: 403 `club_role_required` otherwise). His seats become the real
    player's, and so does his account link; he stays, marked `merged_into`, and his pages
    redirect; the games he played are recomputed (`recompute`, the job). Refused with nothing
    written: into himself (400 `merge_into_self`), an `into` that is no player (400
    `player_unknown`), a player already merged (409 `player_merged`) or into one (409
    `merge_chain`), two players who sat at the same match (409 `players_met`), two players who
    both have an account (409 `user_link_conflict`)."""

    permission_classes = [IsAuthenticated]
    serializer_class = PlayerMergeSerializer

    @extend_schema(
        summary=gettext_lazy("Merge a duplicate player into another (staff or the clubs' admin)"),
        request=PlayerMergeRequestSerializer,
        responses={200: PlayerMergeSerializer, **schema.errors(*schema.WRITE_ERRORS, 404, 409)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        data = _valid(PlayerMergeRequestSerializer, request.data)
        done = services.player_merge(player=pk, into=data["into"], by=request.user)
        job = next((answer for answer in done["followed"] if isinstance(answer, RecomputeJob)), None)
        body = {
            **done,
            "recompute": reverse("api:rating-recompute-detail", args=[job.pk], request=request)
            if job
            else None,
        }
        return Response(PlayerMergeSerializer(body).data)
