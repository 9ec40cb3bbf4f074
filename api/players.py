"""``/api/v1/players``: the players (list, search, add, one with their matches) and the link of a
player to his account: the one-time claim code a scorer gives him, and his claim with it."""

from __future__ import annotations

from typing import TYPE_CHECKING, TypedDict, cast

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.clubs.selectors import club_seen
from scorekeeper.matches import player_accounts, selectors, services
from scorekeeper.matches.models import Match, Player

from . import schema
from .bodies import BodySerializer, _valid
from .idempotency import idempotent
from .matches import MatchSerializer
from .schema import ErrorSerializer

if TYPE_CHECKING:  # the stubs' helper, not needed at run time
    from django_stubs_ext import WithAnnotations


class _PlayerDetail(TypedDict):
    """Not columns: what ``PlayerDetail`` sets on the player for its serializer."""

    match_count: int
    matches: list[Match]
    matches_url: str


class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "created_at"]


class PlayerCreateSerializer(BodySerializer):
    name = serializers.CharField(max_length=100)
    club = serializers.SlugField(
        required=False,
        help_text=gettext_lazy("the club whose roster he joins (its scorer role); left out, the home club"),
    )


class PlayerDetailSerializer(PlayerSerializer):
    match_count = serializers.IntegerField(read_only=True)
    matches = MatchSerializer(many=True, read_only=True, help_text=gettext_lazy("the 20 most recent"))
    matches_url = serializers.CharField(read_only=True, help_text=gettext_lazy("all of them, paginated"))
    merged_into = serializers.IntegerField(
        source="merged_into_id",
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy(
            "a duplicate merged into another player: that player's id (his matches are there)"
        ),
    )

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "match_count", "matches", "matches_url", "merged_into"]


class ClaimCodeSerializer(serializers.Serializer):
    """201 of a new account code: read it out to the player (shown only this once)."""

    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    code = serializers.CharField(help_text=gettext_lazy("shown only this once"))
    expires_at = serializers.DateTimeField()


#: What ``scorekeeper.matches.player_accounts.player_claim`` reads: eight letters or digits,
#: spaces and dashes anywhere (it normalises the rest: case, O for 0, I and L for 1).
CLAIM_CODE_PATTERN = r"^[ -]*(?:[0-9A-Za-z][ -]*){8}$"


class PlayerClaimSerializer(BodySerializer):
    code = serializers.RegexField(
        CLAIM_CODE_PATTERN,
        max_length=40,
        trim_whitespace=False,
        help_text=gettext_lazy("the code a scorer of your match gave you, e.g. 7KQ2-M9XD"),
    )


class PlayerList(generics.GenericAPIView):
    serializer_class = PlayerSerializer

    @extend_schema(
        summary=gettext_lazy("Players by name"),
        parameters=[
            OpenApiParameter("search", str, description=gettext_lazy("part of the name, any case")),
            OpenApiParameter(
                "club", str, description=gettext_lazy("a club's slug: its roster and its guests")
            ),
        ],
        responses={200: PlayerSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request):
        search = request.query_params.get("search", "")[:100].replace("\x00", "")
        slug = request.query_params.get("club", "")[:50]
        club = club_seen(slug, request.user) if slug else None
        players = selectors.player_list(search=search, viewer=request.user, club=club)
        page = self.paginate_queryset(players)
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Add a player (signed in)"),
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(PlayerCreateSerializer, request.data)
        club = club_seen(data["club"], request.user) if data.get("club") else None
        player = services.player_create(name=data["name"], by=request.user, club=club)
        location = reverse("api:player-detail", args=[player.pk], request=request)
        return Response(
            PlayerSerializer(player).data, status=status.HTTP_201_CREATED, headers={"Location": location}
        )


class PlayerDetail(APIView):
    @extend_schema(
        summary=gettext_lazy("A player with their matches"),
        responses={200: PlayerDetailSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int):
        # A private club's player is not there for those outside it.
        seen = selectors.players_seen_by(request.user)
        player = cast("WithAnnotations[Player, _PlayerDetail]", get_object_or_404(seen, pk=pk))
        matches = selectors.match_list(player=player)
        player.match_count = matches.count()
        player.matches = list(matches[:20])
        player.matches_url = reverse("api:match-list", request=request) + f"?player={player.pk}"
        return Response(PlayerDetailSerializer(player).data)


class PlayerClaimCodeCreate(APIView):
    @extend_schema(
        summary=gettext_lazy("A one-time code with which a player links his account (scorers only)"),
        description=gettext_lazy(
            "For a player seated in the match who has no account linked yet. Read the code out to "
            "him; he sends it to POST /api/v1/players/claim signed in as himself. It serves once "
            "and expires (`expires_at`); only its digest is stored."
        ),
        request=None,
        responses={
            201: ClaimCodeSerializer,
            403: OpenApiResponse(
                ErrorSerializer, description=gettext_lazy("`not_a_scorer` of this match, or a CSRF failure")
            ),
            404: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy("`not_found`, `match_not_found`, `player_not_seated` in this match"),
            ),
            409: OpenApiResponse(
                ErrorSerializer, description=gettext_lazy("`player_already_linked` to an account")
            ),
            **schema.errors(400, 401),
        },
    )
    # Not @idempotent, and so no Idempotency-Key in its schema (as the token endpoint): no stored
    # answer may hold a code (a replay would show it again); a retry gives a new code.
    def post(self, request, pk: int, player: int):
        row = player_accounts.player_claim_code_create(match=pk, player=player, by=request.user)
        return Response(ClaimCodeSerializer(row).data, status=status.HTTP_201_CREATED)


class PlayerClaim(APIView):
    @extend_schema(
        summary=gettext_lazy("Link your account to a player, with the code a scorer gave you"),
        request=PlayerClaimSerializer,
        responses={
            200: PlayerSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "A malformed body, `claim_code_invalid` (no such code), `claim_code_expired`"
                ),
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "`claim_code_used`, `player_already_linked` (the player has an account), "
                    "`user_already_linked` (your account is another player's)"
                ),
            ),
            429: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "`claim_throttled`: too many wrong or expired codes (PLAYER_CLAIM_ATTEMPTS an hour), "
                    "or `throttled`; `Retry-After` says how many seconds to wait"
                ),
            ),
            **schema.errors(401, 403, 422),
        },
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(PlayerClaimSerializer, request.data)
        player = player_accounts.player_claim(code=data["code"], by=request.user)
        return Response(PlayerSerializer(player).data)
