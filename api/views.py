"""First read endpoints of /api/v1/; issue 5 builds the recording workflow on the services."""

from __future__ import annotations

from collections import OrderedDict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework import generics
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.matches import selectors

from .serializers import MatchDetailSerializer, MatchSerializer, PlayerSerializer


class ApiRoot(APIView):
    """The endpoints of API v1."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        def link(name):
            return reverse(name, request=request, format=format)

        return Response(
            OrderedDict(
                players=link("api:player-list"),
                matches=link("api:match-list"),
                token=link("api:token"),
                schema=link("schema"),
                docs=link("docs"),
            )
        )


class PlayerList(generics.ListAPIView):
    """Players, by name; ``?search=`` filters by part of the name."""

    serializer_class = PlayerSerializer

    def get_queryset(self):
        return selectors.player_list(search=self.request.query_params.get("search", ""))


class PlayerDetail(generics.RetrieveAPIView):
    serializer_class = PlayerSerializer

    def get_queryset(self):
        return selectors.player_list()


class MatchList(generics.ListAPIView):
    """Matches, newest first; filters ``?game=``, ``?status=``, ``?player=<id>``."""

    serializer_class = MatchSerializer

    def get_queryset(self):
        params = self.request.query_params
        player = params.get("player")
        return selectors.match_list(
            game=params.get("game") or None,
            status=params.get("status") or None,
            player=int(player) if player and player.isdigit() else None,
        )


class MatchDetail(generics.RetrieveAPIView):
    """A match with its score sheet: every current hand, running totals, the result when over."""

    serializer_class = MatchDetailSerializer

    def get_queryset(self):
        return selectors.match_list()
