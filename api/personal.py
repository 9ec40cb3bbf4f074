"""A person's own data under /api/v1/: ``GET me/data``, everything the site holds about the
caller (a download), and ``POST players/<pk>/anonymise``, forgetting a player who asked to be
(``scorekeeper.matches.personal_data``; his ratings added here, from the ratings' reads)."""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.response import Response
from rest_framework.views import APIView

from ratings.reads.player_history import player_ratings
from scorekeeper.matches.models import Player
from scorekeeper.matches.personal_data import personal_data, player_anonymise

from . import schema
from .bodies import BodySerializer, _valid
from .idempotency import idempotent
from .ratings import PlayerGameRatingSerializer


class MyData(APIView):
    """Everything the site holds about you, as one JSON file: your account and preferences,
    your club memberships (ended ones too), your player with his clubs, matches and ratings,
    what you scored, recorded, confirmed, and your entries in the audit log."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        summary=gettext_lazy("Download everything the site holds about you"),
        responses={200: OpenApiResponse(OpenApiTypes.OBJECT), **schema.errors(401)},
    )
    def get(self, request):
        data = {"exported_at": timezone.now().isoformat(), **personal_data(request.user)}
        player = Player.objects.filter(user=request.user).first()
        if data["player"] is not None and player is not None:
            data["player"]["ratings"] = PlayerGameRatingSerializer(
                player_ratings(player=player), many=True
            ).data
        filename = f"scorekeeper-{request.user.get_username()}.json"
        return Response(data, headers={"Content-Disposition": f'attachment; filename="{filename}"'})


class AnonymiseRequestSerializer(BodySerializer):
    reason = serializers.CharField(
        max_length=500,
        required=False,
        allow_blank=True,
        default="",
        help_text=gettext_lazy("why (kept in the audit log)"),
    )


class AnonymisedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField(help_text=gettext_lazy("the name that replaced his"))


class PlayerAnonymise(APIView):
    """Forget a player who asked to be (an admin of a club he plays in, or staff): his name is
    replaced everywhere, his account unlinked; his matches, hands and ratings stay, so nobody
    else's record changes. Audited. Refused while he sits in a match in progress (409
    `player_in_open_match`); 403 `club_role_required` for anyone else; 404 `player_not_found`."""

    @extend_schema(
        summary=gettext_lazy("Anonymise a player who asked to be forgotten"),
        request=AnonymiseRequestSerializer,
        responses={200: AnonymisedPlayerSerializer, **schema.errors(*schema.WRITE_ERRORS, 404, 409)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        data = _valid(AnonymiseRequestSerializer, request.data)
        player = player_anonymise(player=pk, by=request.user, reason=data["reason"])
        return Response(AnonymisedPlayerSerializer(player).data)
