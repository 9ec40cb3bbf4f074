"""A club's leaderboard (issue 33): ``GET /api/v1/clubs/<slug>/leaderboards/<game>``, the players
who played rated matches of the game in the club by their federation ratings. Read through
``ratings.reads.boards.club_board``; a private club is a 404 ``club_not_found`` to outsiders."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny

from ratings.reads import boards
from scorekeeper.clubs.selectors import club_seen

from . import schema
from .ratings import BoardQuerySerializer, LeaderboardEntrySerializer, _game


class ClubLeaderboardEntrySerializer(LeaderboardEntrySerializer):
    """A board's entry, with the player's rated matches of the game in the club and the change
    of his rating this season (the year, in the club's time zone)."""

    club_matches = serializers.IntegerField(
        help_text=gettext_lazy("his rated matches of the game in this club")
    )
    season_change = serializers.IntegerField(
        help_text=gettext_lazy(
            "the change of his displayed rating since before his first rated match this year"
        )
    )

    def to_representation(self, row: Any):
        row.rating.rank = row.rank  # his rank on the club's board, not on the federation's
        data = super().to_representation(row.rating)
        data["club_matches"] = row.club_matches
        data["season_change"] = row.season_change
        return data


class ClubLeaderboard(generics.GenericAPIView):
    """A club's leaderboard of a game: the players who played rated matches of the game in the
    club, the highest federation rating first (one rating a player and game across the site),
    with their matches in the club and the change this season; `provisional=true` gives the
    newcomers (fewer rated matches than the board needs). A private club is a 404
    `club_not_found` to anyone not in it."""

    permission_classes = [AllowAny]
    serializer_class = ClubLeaderboardEntrySerializer

    @extend_schema(
        parameters=[BoardQuerySerializer],
        responses={200: ClubLeaderboardEntrySerializer(many=True), **schema.errors(400, 404)},
    )
    def get(self, request, slug: str, game: str):
        club = club_seen(slug, request.user)
        _game(game)
        query = BoardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        board = query.board()
        rows = boards.club_board(club, game, board=board, provisional=query.validated_data["provisional"])
        page = self.paginate_queryset(rows)
        return self.get_paginated_response(
            ClubLeaderboardEntrySerializer(page, many=True, context={"board": board}).data
        )
