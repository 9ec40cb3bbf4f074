"""The ratings under /api/v1/: leaderboards, a player's ratings and history, predictions, and
the full recompute (staff). Reads through ``ratings.reads``, the recompute through
``ratings.services``; errors in the common shape (api/exceptions.py)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field, extend_schema_serializer
from rest_framework import generics, serializers, status
from rest_framework.exceptions import APIException
from rest_framework.pagination import PageNumberPagination
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from ratings import display, services
from ratings.models import RecomputeJob
from ratings.reads import boards, changes, player_history, predictions, seasons, visibility
from scorekeeper.clubs.selectors import is_site_wide
from scorekeeper.matches import errors
from scorekeeper.matches.selectors import players_seen_by
from scorekeeper.rules import UnknownGame, find_ruleset

from . import schema
from .bodies import BodySerializer, GameField, PlayerIdsField, _fail
from .idempotency import idempotent

# -- serializers ---------------------------------------------------------------------------
DISPLAYED = gettext_lazy(
    "the displayed rating, whole points: 1500 for a newcomer, 400 points of difference are odds "
    "of 10 to 1 (docs/ratings.md)"
)
DEVIATION = gettext_lazy("the displayed rating's uncertainty, whole points: one standard deviation (sigma)")


class DisplayedFieldsMixin(serializers.Serializer):
    """``rating`` and ``rating_deviation`` of a row's ``mu`` and ``sigma`` (ratings.display)."""

    rating = serializers.SerializerMethodField(help_text=DISPLAYED)
    rating_deviation = serializers.SerializerMethodField(help_text=DEVIATION)

    def get_rating(self, row) -> int:
        return display.displayed(row.mu, row.sigma).rating

    def get_rating_deviation(self, row) -> int:
        return display.displayed(row.mu, row.sigma).deviation


class RatedPlayerSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()


class LeaderboardEntrySerializer(DisplayedFieldsMixin):
    rank = serializers.IntegerField(
        help_text=gettext_lazy("the rank on this list, 1 for the best; equal displayed ratings share a rank")
    )
    player = RatedPlayerSerializer()
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField(help_text=gettext_lazy("rated matches in the game"))
    matches_needed = serializers.SerializerMethodField(
        help_text=gettext_lazy("rated matches the board needs to list a player (`min_matches`)")
    )
    wins = serializers.IntegerField(help_text=gettext_lazy("first places (a shared first place counts)"))
    last_played_at = serializers.DateTimeField()
    provisional = serializers.SerializerMethodField(
        help_text=gettext_lazy("fewer rated matches than the board needs: on the provisional list")
    )

    def get_matches_needed(self, row) -> int:
        return self.context["board"].min_matches

    def get_provisional(self, row) -> bool:
        return row.matches < self.context["board"].min_matches

    def to_representation(self, row):
        # A board row's answer built at once, in the declared fields' order and as they give it
        # (the fields stay what the schema is made of): DRF's field-by-field path (a look-up and
        # a conversion a field, the player's own serializer, the displayed rating worked out
        # twice) was a third of a board page's Python calls. tests/api/test_boards.py holds the
        # two equal.
        shown = display.displayed(row.mu, row.sigma)
        needed = self.context["board"].min_matches
        return {
            "rating": shown.rating,
            "rating_deviation": shown.deviation,
            "rank": row.rank,
            "player": {"id": row.player.pk, "name": row.player.name},
            "mu": float(row.mu),
            "sigma": float(row.sigma),
            "matches": row.matches,
            "matches_needed": needed,
            "wins": row.wins,
            "last_played_at": self.fields["last_played_at"].to_representation(row.last_played_at),
            "provisional": row.matches < needed,
        }


class BoardQuerySerializer(serializers.Serializer):
    """The query of a leaderboard: which list, and who is listed."""

    provisional = serializers.BooleanField(
        required=False,
        default=False,
        help_text=gettext_lazy("true: the provisional list (fewer rated matches than `min_matches`)"),
    )
    min_matches = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=10_000,
        help_text=gettext_lazy("rated matches in the game to be listed; default the setting (5)"),
    )
    active_days = serializers.IntegerField(
        required=False,
        min_value=0,
        max_value=36_500,
        help_text=gettext_lazy(
            "list only players whose last match is at most this many days old; 0: everybody; "
            "default the setting (0)"
        ),
    )

    def to_internal_value(self, data):
        # A query's integer in ASCII digits only, as the schema's `integer`.
        for name in ("min_matches", "active_days"):
            raw = data.get(name) if isinstance(data, Mapping) else None
            if isinstance(raw, str) and not (raw.isascii() and raw.isdigit()):
                raise serializers.ValidationError({name: _fail(self.fields[name], "invalid")})
        return super().to_internal_value(data)

    def board(self) -> boards.BoardFilter:
        default = boards.BoardFilter.default()
        data = self.validated_data
        days = data.get("active_days", default.active_days or 0)
        return boards.BoardFilter(data.get("min_matches", default.min_matches), days or None)


class SeasonQuerySerializer(serializers.Serializer):
    """A season's period: ISO days (UTC), both included; by default this month up to today."""

    # "from" is a Python keyword: the fields are named in ``get_fields``.
    def get_fields(self):
        return {
            "from": serializers.DateField(
                required=False,
                input_formats=["iso-8601"],
                help_text=gettext_lazy("the first day of the period (UTC), default the first of this month"),
            ),
            "to": serializers.DateField(
                required=False,
                input_formats=["iso-8601"],
                help_text=gettext_lazy("the last day of the period (UTC), included; default today"),
            ),
        }

    def to_internal_value(self, data):
        # An empty "?to=" is no day (DRF's DateField would take it for none given).
        for name in ("from", "to"):
            raw = data.get(name) if isinstance(data, Mapping) else None
            if raw is not None and not str(raw).strip():
                raise serializers.ValidationError(
                    {name: _fail(self.fields[name], "invalid", format="YYYY-MM-DD")}
                )
        return super().to_internal_value(data)

    def validate(self, data):
        today = seasons.today_in(dt.UTC)
        last = data.get("to") or today
        first = data.get("from") or last.replace(day=1)
        seasons.check_period(first, last, error=_period_error)
        return {"period": seasons.Period(first, last)}


def _period_error(message, code):
    return serializers.ValidationError({"to": [serializers.ErrorDetail(str(message), code=code)]})


class SeasonEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField(
        help_text=gettext_lazy("the rank on the season's board; equal ratings at the end share a rank")
    )
    player = serializers.SerializerMethodField()
    rating = serializers.IntegerField(help_text=gettext_lazy("the displayed rating at the period's end"))
    rating_deviation = serializers.IntegerField(help_text=DEVIATION)
    mu = serializers.FloatField(help_text=gettext_lazy("at the period's end"))
    sigma = serializers.FloatField(help_text=gettext_lazy("at the period's end"))
    matches = serializers.IntegerField(help_text=gettext_lazy("his rated matches in the period"))
    wins = serializers.IntegerField(help_text=gettext_lazy("his first places in the period"))
    change = serializers.IntegerField(
        help_text=gettext_lazy(
            "the displayed rating at the period's end less the one before his first match in it"
        )
    )

    @extend_schema_field(RatedPlayerSerializer)
    def get_player(self, row) -> dict[str, Any]:
        return {"id": row.player_id, "name": row.player_name}


class CulOverallSerializer(serializers.Serializer):
    matches = serializers.IntegerField(help_text=gettext_lazy("finished cul matches counted"))
    literal = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("percent, spec 8's literal scale")
    )
    normalised = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("percent, spec 8's normalised scale")
    )


class PlayerGameRatingSerializer(DisplayedFieldsMixin):
    game = serializers.CharField(source="pool.game")
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    matches = serializers.IntegerField()
    wins = serializers.IntegerField()
    last_played_at = serializers.DateTimeField()
    provisional = serializers.SerializerMethodField(
        help_text=gettext_lazy("fewer rated matches than the leaderboard needs")
    )
    rank = serializers.IntegerField(
        allow_null=True, help_text=gettext_lazy("his rank on the game's leaderboard; null: not listed")
    )
    overall_cul_rating = CulOverallSerializer(
        allow_null=True, help_text=gettext_lazy("cul only: RULES.md 8 on the sums over all his cul matches")
    )
    history = serializers.SerializerMethodField(
        help_text=gettext_lazy("his rated matches in this game, paginated")
    )

    def get_provisional(self, row) -> bool:
        return row.matches < boards.BoardFilter.default().min_matches

    def get_history(self, row) -> str:
        request = self.context.get("request")
        return reverse("api:player-rating-history", args=[row.player_id, row.pool.game], request=request)


class PlayerRatingsSerializer(serializers.Serializer):
    player = RatedPlayerSerializer()
    ratings = PlayerGameRatingSerializer(many=True)


class RatingValueSerializer(serializers.Serializer):
    mu = serializers.FloatField()
    sigma = serializers.FloatField()
    rating = serializers.IntegerField(help_text=DISPLAYED)
    rating_deviation = serializers.IntegerField(help_text=DEVIATION)


class HistoryEntrySerializer(serializers.Serializer):
    match = serializers.IntegerField(source="match_id")
    played_at = serializers.DateTimeField(
        help_text=gettext_lazy(
            "when the match was played: its place in the order the pool rates its matches in"
        )
    )
    side = serializers.IntegerField(help_text=gettext_lazy("his side, 0-based (piquet-voleur: his team)"))
    place = serializers.IntegerField(
        help_text=gettext_lazy("his side's finishing place in the match, from 1 (a tie shares it)")
    )
    sides = serializers.SerializerMethodField(help_text=gettext_lazy("the number of sides in the match"))
    win_probability = serializers.FloatField(
        help_text=gettext_lazy("his side's chance of the first place, before the match")
    )
    expected_place = serializers.SerializerMethodField(
        help_text=gettext_lazy("the finishing place the model expected of his side, before the match")
    )
    before = serializers.SerializerMethodField()
    after = serializers.SerializerMethodField()
    change = serializers.SerializerMethodField(
        help_text=gettext_lazy("the displayed rating after less the displayed rating before")
    )
    explanation = serializers.SerializerMethodField(
        help_text=gettext_lazy('the change in words, e.g. "46 % to win, won: +23" (the request\'s language)')
    )

    def _change(self, row):
        return self.context["changes"][row.match_id, row.player_id]

    def get_sides(self, row) -> int:
        return self._change(row).sides

    def get_expected_place(self, row) -> float:
        return self._change(row).expected_place

    @extend_schema_field(RatingValueSerializer)
    def get_before(self, row) -> dict[str, Any]:
        return _value(row.mu_before, row.sigma_before)

    @extend_schema_field(RatingValueSerializer)
    def get_after(self, row) -> dict[str, Any]:
        return _value(row.mu_after, row.sigma_after)

    def get_change(self, row) -> int:
        return self._change(row).delta

    def get_explanation(self, row) -> str:
        return self._change(row).explanation


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
    rating = serializers.SerializerMethodField(help_text=DISPLAYED)
    rating_deviation = serializers.SerializerMethodField(help_text=DEVIATION)
    matches = serializers.IntegerField()
    provisional = serializers.SerializerMethodField(
        help_text=gettext_lazy("fewer rated matches than the leaderboard needs")
    )

    def get_rating(self, player) -> int:
        return display.displayed(player["mu"], player["sigma"]).rating

    def get_rating_deviation(self, player) -> int:
        return display.displayed(player["mu"], player["sigma"]).deviation

    def get_provisional(self, player) -> bool:
        return player["matches"] < boards.BoardFilter.default().min_matches


@extend_schema_serializer(deprecate_fields=["win_probability"])
class PredictedSideSerializer(serializers.Serializer):
    players = PredictedPlayerSerializer(many=True)
    win = serializers.FloatField(
        allow_null=True,
        help_text=gettext_lazy("two sides: the chance to win; win + draw + loss = 1. Null for more sides"),
    )
    draw = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("two sides: the chance of a draw; null for more sides")
    )
    loss = serializers.FloatField(
        allow_null=True, help_text=gettext_lazy("two sides: the chance to lose; null for more sides")
    )
    place_probabilities = serializers.ListField(
        child=serializers.FloatField(),
        help_text=gettext_lazy(
            "the chance of each place, first to last (ties broken); sums to 1, as does each place's "
            "over the sides"
        ),
    )
    expected_score = serializers.FloatField(
        source="win_probability",
        help_text=gettext_lazy("chance of the first place, a draw counted half; the sides' sum to 1"),
    )
    win_probability = serializers.FloatField(
        help_text=gettext_lazy("deprecated: the same as expected_score (a draw counted half, not a win)")
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


def _value(mu: float, sigma: float) -> dict:
    shown = display.displayed(mu, sigma)
    return {"mu": mu, "sigma": sigma, "rating": shown.rating, "rating_deviation": shown.deviation}


def _game(game: str, *, status_code: int = 404):
    try:
        return find_ruleset(game)
    except UnknownGame as exc:
        raise errors.game_unknown(exc, not_found=status_code == 404) from None


# -- views --------------------------------------------------------------------------------
class Leaderboard(generics.GenericAPIView):
    """A game's leaderboard: its established players, the highest displayed rating first.

    A player is listed from `min_matches` rated matches in the game on (the setting
    `RATINGS_LEADERBOARD_MIN_MATCHES`, 5) and, with `active_days`, while his last match is at
    most that many days old (`RATINGS_LEADERBOARD_ACTIVE_DAYS`, off); `provisional=true` gives
    the newcomers with fewer matches instead, in the same order. Void matches count for nothing.
    """

    permission_classes = [AllowAny]
    serializer_class = LeaderboardEntrySerializer

    @extend_schema(
        parameters=[BoardQuerySerializer],
        responses={200: LeaderboardEntrySerializer(many=True), **schema.errors(400, 404)},
    )
    def get(self, request, game: str):
        _game(game)
        query = BoardQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        # The federation's board (no private-only player) for anyone but staff (issue 33).
        board = boards.board_filter_for(request.user, game, query.board())
        provisional = query.validated_data["provisional"]
        rows = boards.leaderboard(game=game, board=board, provisional=provisional)
        ids = self.paginate_queryset(rows.values_list("pk", flat=True))
        paginator = self.paginator  # the API pages every list (api/pagination.py)
        assert ids is not None and isinstance(paginator, PageNumberPagination) and paginator.page is not None
        page = boards.leaderboard_page(
            ids, game=game, board=board, provisional=provisional,
            offset=paginator.page.start_index() - 1,
        )  # fmt: skip
        return self.get_paginated_response(
            LeaderboardEntrySerializer(page, many=True, context={"board": board}).data
        )


class SeasonLeaderboard(generics.GenericAPIView):
    """A game's board of a period (`from`–`to`, ISO days in UTC, both included; by default this
    month): everyone who played a rated match in it, by his displayed rating at its end, with
    his matches and wins in it and the change of his rating over it. An inverted range, or one
    of more than ten years, is a 400."""

    permission_classes = [AllowAny]
    serializer_class = SeasonEntrySerializer

    @extend_schema(
        parameters=[SeasonQuerySerializer],
        responses={200: SeasonEntrySerializer(many=True), **schema.errors(400, 404)},
    )
    def get(self, request, game: str):
        _game(game)
        query = SeasonQuerySerializer(data=request.query_params)
        query.is_valid(raise_exception=True)
        start, end = query.validated_data["period"].bounds(dt.UTC)
        clubs = visibility.clubs_of_viewer(request.user)  # issue 33: what the viewer's clubs hold
        page = self.paginate_queryset(seasons.season_board(game=game, start=start, end=end, clubs=clubs))
        return self.get_paginated_response(SeasonEntrySerializer(page, many=True).data)


class PlayerRatings(APIView):
    """A player's rating in every game he is rated in, his rank on its leaderboard, a link to
    his history there; the cul entry carries his overall cul rating."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: PlayerRatingsSerializer, **schema.errors(404)})
    def get(self, request, pk: int):
        player = visibility.player_seen(pk, request.user)  # issue 33: a private-only player is a 404
        clubs = visibility.clubs_for_player(player, visibility.clubs_of_viewer(request.user))
        federation = not is_site_wide(request.user)
        ratings = player_history.player_ratings(player=player, clubs=clubs, federation=federation)
        body = {"player": player, "ratings": ratings}
        return Response(PlayerRatingsSerializer(body, context={"request": request}).data)


class PlayerRatingHistory(generics.GenericAPIView):
    """A player's rated matches in a game, newest first: his rating before and after, his
    finishing place, the chance the model gave his side of winning and the place it expected,
    before the match, and the change explained in words."""

    permission_classes = [AllowAny]
    serializer_class = HistoryEntrySerializer

    @extend_schema(responses={200: HistoryEntrySerializer(many=True), **schema.errors(404)})
    def get(self, request, pk: int, game: str):
        # The player's 404 comes before any other answer, but a page with rows has its player
        # (they are his): only a refusal or an empty page reads him. The night's apps poll this
        # for the first row while a match's rating is pending: one statement of five fewer.
        # Issue 33: the rows of the matches of the clubs the viewer sees; a player he does not see
        # is a 404 (a row of a match he sees has a player he sees: a match seats its club's).
        clubs = visibility.clubs_of_viewer(request.user)  # joined in the page's statement: no probe
        try:
            _game(game)
            page = self.paginate_queryset(
                player_history.player_rating_history(player=pk, game=game, clubs=clubs)
            )
        except (errors.DomainError, APIException):
            visibility.player_seen(pk, request.user)
            raise
        assert page is not None  # the API pages every list (api/pagination.py)
        if not page:
            visibility.player_seen(pk, request.user)
        explained = changes.explain(
            changes.rows_of_matches(page),
            changes.match_results(row.match_id for row in page),
            players={pk},
        )
        return self.get_paginated_response(
            HistoryEntrySerializer(page, many=True, context={"changes": explained}).data
        )


class Predict(APIView):
    """Predict a match: for two sides each side's chances to win, draw and lose (summing to 1);
    for any table each side's chance of each place, its expected score (the first place, a draw
    counted half; `win_probability`, deprecated, is the same) and its expected rank; for two
    sides the chance of a draw. Players not rated in the game start from the prior;
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
        found = players_seen_by(request.user).in_bulk(ids)  # issue 33: unseen players are unknown
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
        prediction = predictions.predict(game=data["game"], sides=sides)
        return Response(PredictionSerializer(prediction).data)


class RecomputeList(generics.GenericAPIView):
    """Full recomputes of the ratings (staff only): the jobs, newest first; start one."""

    permission_classes = [IsAdminUser]
    serializer_class = RecomputeJobSerializer

    @extend_schema(responses={200: RecomputeJobSerializer(many=True), **schema.errors(401, 403)})
    def get(self, request):
        page = self.paginate_queryset(boards.recompute_jobs())
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
        job = get_object_or_404(boards.recompute_jobs(), pk=pk)
        return Response(RecomputeJobSerializer(job, context={"request": request}).data)
