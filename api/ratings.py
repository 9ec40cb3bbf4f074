"""The ratings under /api/v1/: leaderboards, a player's ratings and history, predictions, and
the full recompute (staff). Reads through ``ratings.selectors``, the recompute through
``ratings.services``; errors in the common shape (api/exceptions.py)."""

from __future__ import annotations

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers, status
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from ratings import selectors, services
from ratings.models import RecomputeJob
from scorekeeper.idempotency.decorators import idempotent
from scorekeeper.matches import errors
from scorekeeper.matches.models import Player
from scorekeeper.rules import UnknownGame, find_ruleset

from . import schema
from .serializers import BodySerializer, GameField, PlayerIdsField

# -- serializers ---------------------------------------------------------------------------
DISPLAYED = gettext_lazy("the displayed (conservative) rating, mu − z·sigma (docs/ratings.md)")


class RatedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LeaderboardEntrySerializer(serializers.Serializer):
    place = serializers.IntegerField(help_text=gettext_lazy("1 for the best; equal ratings share a place"))
    player = RatedPlayerSerializer()
    rating = serializers.FloatField(source="conservative", help_text=DISPLAYED)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField(help_text=gettext_lazy("first places (a shared first place counts)"))
    last_played_at = serializers.DateTimeField()
    provisional = serializers.SerializerMethodField(
        help_text=gettext_lazy("too few matches (or too uncertain) to rank")
    )

    def get_provisional(self, row) -> bool:
        return _provisional(row)


class CulOverallSerializer(serializers.Serializer):
    matches = serializers.IntegerField(help_text=gettext_lazy("finished cul matches counted"))
    literal = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("percent, spec 8's literal scale")
    )
    normalised = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("percent, spec 8's normalised scale")
    )


class PlayerGameRatingSerializer(serializers.Serializer):
    game = serializers.CharField(source="pool.game")
    rating = serializers.FloatField(source="conservative", help_text=DISPLAYED)
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    last_played_at = serializers.DateTimeField()
    provisional = serializers.SerializerMethodField()
    place = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("on the game's leaderboard; null: not listed")
    )
    overall_cul_rating = CulOverallSerializer(
        allow_null=True, help_text=gettext_lazy("cul only: RULES.md 8 on the sums over all his cul matches")
    )
    history = serializers.SerializerMethodField(
        help_text=gettext_lazy("his rated matches in this game, paginated")
    )

    def get_provisional(self, row) -> bool:
        return _provisional(row)

    def get_history(self, row) -> str:
        request = self.context.get("request")
        return reverse("api:player-rating-history", args=[row.player_id, row.pool.game], request=request)


class PlayerRatingsSerializer(serializers.Serializer):
    player = RatedPlayerSerializer()
    ratings = PlayerGameRatingSerializer(many=True)


class RatingValueSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(help_text=gettext_lazy("the displayed rating, mu − z·sigma"))


class HistoryEntrySerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    played_at = serializers.DateTimeField(
        help_text=gettext_lazy(
            "when the match was played: its place in the order the pool rates its matches in"
        )
    )
    side = serializers.IntegerField(help_text=gettext_lazy("his side, 0-based (piquet-voleur: his team)"))
    place = serializers.IntegerField()
    win_probability = serializers.FloatField(
        help_text=gettext_lazy("his side's chance of the first place, before the match")
    )
    before = serializers.SerializerMethodField()
    after = serializers.SerializerMethodField()

    def get_before(self, row) -> RatingValueSerializer:
        return _value(row.mu_before, row.sigma_before)

    def get_after(self, row) -> RatingValueSerializer:
        return _value(row.mu_after, row.sigma_after)


class PredictRequestSerializer(BodySerializer):
    game = GameField()
    players = PlayerIdsField(min_length=2)
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=15),
        required=False,
        allow_null=True,
        max_length=16,
        help_text=gettext_lazy(
            "a team number per seat: seats with the same number play as one side. Default: "
            "piquet-voleur's partnerships (0+2 against 1+3), every seat its own side otherwise"
        ),
    )


class PredictedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.FloatField(source="conservative")
    matches = serializers.IntegerField()
    provisional = serializers.BooleanField()


class PredictedSideSerializer(serializers.Serializer):
    players = PredictedPlayerSerializer(many=True)
    win_probability = serializers.FloatField(
        help_text=gettext_lazy("chance of the first place; the sides' sum to 1")
    )
    expected_rank = serializers.FloatField(help_text=gettext_lazy("1 … number of sides"))


class PredictionSerializer(serializers.Serializer):
    game = serializers.CharField()
    sides = PredictedSideSerializer(many=True)
    draw_probability = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("two sides only; null otherwise")
    )


class RecomputeRequestSerializer(BodySerializer):
    games = serializers.ListField(
        child=GameField(help_text=None),
        required=False,
        max_length=64,
        help_text=gettext_lazy("the pools to rebuild; default every pool"),
    )


class RecomputeJobSerializer(serializers.ModelSerializer):
    requested_by = serializers.SerializerMethodField()
    url = serializers.SerializerMethodField()

    class Meta:
        model = RecomputeJob
        fields = ["id", "status", "done", "total", "requested_by", "created_at", "finished_at", "url"]

    def get_requested_by(self, job) -> str | None:
        return job.requested_by.get_username() if job.requested_by else None

    def get_url(self, job) -> str:
        return reverse("api:rating-recompute-detail", args=[job.pk], request=self.context.get("request"))


def _provisional(row) -> bool:
    from ratings.engine import Rating

    return services.rater().is_provisional(Rating(row.mu, row.sigma), row.matches)


def _value(mu: float, sigma: float) -> dict:
    from ratings.engine import Rating

    return {"mu": mu, "sigma": sigma, "rating": services.rater().conservative(Rating(mu, sigma))}


def _game(game: str, *, status_code: int = 404):
    try:
        return find_ruleset(game)
    except UnknownGame as exc:
        raise errors.game_unknown(exc, not_found=status_code == 404) from None


# -- views --------------------------------------------------------------------------------
class Leaderboard(generics.GenericAPIView):
    """A game's leaderboard: the best conservative rating first.

    A player is listed from `RATINGS_LEADERBOARD_MIN_MATCHES` rated matches on; `provisional`
    marks those the model still knows too little of. Void matches count for nothing.
    """

    permission_classes = [AllowAny]
    serializer_class = LeaderboardEntrySerializer

    @extend_schema(responses={200: LeaderboardEntrySerializer(many=True), **schema.errors(404)})
    def get(self, request, game: str):
        _game(game)
        page = selectors.leaderboard_places(self.paginate_queryset(selectors.leaderboard(game=game)))
        return self.get_paginated_response(LeaderboardEntrySerializer(page, many=True).data)


class PlayerRatings(APIView):
    """A player's rating in every game he is rated in, his place on its leaderboard, a link to
    his history there; the cul entry carries his overall cul rating."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerRatingsSerializer, **schema.errors(404)})
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        body = {"player": player, "ratings": selectors.player_ratings(player=player)}
        return Response(PlayerRatingsSerializer(body, context={"request": request}).data)


class PlayerRatingHistory(generics.GenericAPIView):
    """A player's rated matches in a game, newest first: his rating before and after, his place
    and the chance the model gave his side of winning, before the match."""

    permission_classes = [AllowAny]
    serializer_class = HistoryEntrySerializer

    @extend_schema(responses={200: HistoryEntrySerializer(many=True), **schema.errors(404)})
    def get(self, request, pk: int, game: str):
        player = get_object_or_404(Player, pk=pk)
        _game(game)
        page = self.paginate_queryset(selectors.player_rating_history(player=player, game=game))
        return self.get_paginated_response(HistoryEntrySerializer(page, many=True).data)


class Predict(APIView):
    """Predict a match: each side's chance of the first place (summing to 1), its expected rank
    and, for two sides, the chance of a draw. Players not rated in the game start from the prior;
    ids that are no player are a 400 `player_unknown`. Stores nothing."""

    permission_classes = [AllowAny]

    @extend_schema(
        request=PredictRequestSerializer,
        responses={200: PredictionSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        if not isinstance(request.data, dict):
            raise errors.Invalid(_("the body must be a JSON object"), code="body_not_object")
        serializer = PredictRequestSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        ruleset = _game(data["game"], status_code=400)
        ids = data["players"]
        if len(ids) not in ruleset.seat_counts:
            allowed = ", ".join(map(str, ruleset.seat_counts))
            raise errors.SeatsInvalid(
                f"{data['game']} is played by {allowed} players, not {len(ids)}",
                field="players",
                code="seat_count",
            )
        found = Player.objects.in_bulk(ids)
        for i, pk in enumerate(ids):
            if pk not in found:
                raise errors.Invalid(f"there is no player {pk}", field=f"players[{i}]", code="player_unknown")
            if pk in ids[:i]:
                raise errors.SeatsInvalid(
                    f"player {pk} is seated twice", field=f"players[{i}]", code="player_twice"
                )
        teams = data.get("teams")
        if teams is None:
            teams = list(ruleset.partnerships) if ruleset.partnerships else list(range(len(ids)))
        elif len(teams) != len(ids):
            raise errors.SeatsInvalid(
                f"{len(teams)} teams for {len(ids)} players", field="teams", code="teams_length"
            )
        sides = [
            [found[pk] for pk, t in zip(ids, teams, strict=True) if t == team] for team in sorted(set(teams))
        ]
        if len(sides) < 2:
            raise errors.SeatsInvalid(
                "a match needs at least two sides", field="teams", code="teams_one_side"
            )
        prediction = selectors.predict(game=data["game"], sides=sides)
        return Response(PredictionSerializer(prediction).data)


class RecomputeList(generics.GenericAPIView):
    """Full recomputes of the ratings (staff only): the jobs, newest first; start one."""

    permission_classes = [IsAdminUser]
    serializer_class = RecomputeJobSerializer

    @extend_schema(responses={200: RecomputeJobSerializer(many=True), **schema.errors(401, 403)})
    def get(self, request):
        page = self.paginate_queryset(selectors.recompute_jobs())
        return self.get_paginated_response(
            RecomputeJobSerializer(page, many=True, context={"request": request}).data
        )

    @extend_schema(
        summary=gettext_lazy("Start a full recompute (staff only)"),
        description=gettext_lazy(
            "Rebuilds every pool (or those of `games`) from the recorded matches, one Celery task "
            "per pool; answers 202 with the job, whose `done` / `total` (pools) show its progress."
        ),
        request=RecomputeRequestSerializer,
        responses={202: RecomputeJobSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = request.data  # {} for no body at all: every pool; a JSON null is no object
        if not isinstance(data, dict):
            raise errors.Invalid(_("the body must be a JSON object"), code="body_not_object")
        serializer = RecomputeRequestSerializer(data=data)
        serializer.is_valid(raise_exception=True)
        games = serializer.validated_data.get("games")
        for i, game in enumerate(games or ()):
            try:
                find_ruleset(game)
            except UnknownGame as exc:
                raise errors.game_unknown(exc, field=f"games[{i}]") from None
        job = services.rating_recompute_request(by=request.user, games=games)
        location = reverse("api:rating-recompute-detail", args=[job.pk], request=request)
        return Response(
            RecomputeJobSerializer(job, context={"request": request}).data,
            status=status.HTTP_202_ACCEPTED,
            headers={"Location": location},
        )


class RecomputeDetail(APIView):
    """A full recompute's progress (staff only): `done` of `total` pools."""

    permission_classes = [IsAdminUser]

    @extend_schema(responses={200: RecomputeJobSerializer, **schema.errors(401, 403, 404)})
    def get(self, request, pk: int):
        job = get_object_or_404(selectors.recompute_jobs(), pk=pk)
        return Response(RecomputeJobSerializer(job, context={"request": request}).data)
