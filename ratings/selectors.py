"""Reads of the ratings: leaderboards, a player's ratings and history, predictions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import F, QuerySet, Value, Window
from django.db.models.functions import Rank, Round
from django.utils import timezone

from scorekeeper.matches.models import Match, Player, Seat

from . import display
from .cul import figures_from_state, overall_cul_rating_pct
from .engine import Rating
from .models import PlayerRating, RatingHistory, RecomputeJob
from .services import rater


def min_matches() -> int:
    """Rated matches a player needs to be listed on a leaderboard (a setting)."""
    return settings.RATINGS_LEADERBOARD_MIN_MATCHES


@dataclass(frozen=True)
class BoardFilter:
    """Who a leaderboard lists: players with ``min_matches`` rated matches in the game, and,
    when ``active_days`` is set, who played within that many days; the others with fewer
    matches (and active) are the board's *provisional* list."""

    min_matches: int
    active_days: int | None = None

    @classmethod
    def default(cls) -> BoardFilter:
        """The settings' board: ``RATINGS_LEADERBOARD_MIN_MATCHES``,
        ``RATINGS_LEADERBOARD_ACTIVE_DAYS`` (0: everybody, however long ago he played)."""
        return cls(min_matches(), settings.RATINGS_LEADERBOARD_ACTIVE_DAYS or None)

    def active_since(self):
        """The earliest last match of a listed player, or None when the activity filter is off."""
        return None if self.active_days is None else timezone.now() - timedelta(days=self.active_days)


def _shown_rating():
    """The displayed rating in SQL (ratings.display's mapping, rounded): the boards' sort key."""
    model = rater()
    k = display.points_per_mu(model)
    return Round(Value(float(display.NEWCOMER)) + Value(k) * (F("mu") - Value(model.mu)))


def _board_rows(game: str, board: BoardFilter, *, provisional: bool) -> QuerySet[PlayerRating]:
    rows = PlayerRating.objects.filter(pool__game=game)
    if provisional:
        rows = rows.filter(matches__lt=board.min_matches)
    else:
        rows = rows.filter(matches__gte=board.min_matches)
    since = board.active_since()
    if since is not None:
        rows = rows.filter(last_played_at__gte=since)
    return rows


def leaderboard(*, game: str, board: BoardFilter | None = None, provisional: bool = False
                ) -> QuerySet[PlayerRating]:  # fmt: skip
    """A pool's board: its established players (``provisional``: its newcomers instead), the
    highest displayed rating first (then the surer one, then by id), each with his ``rank``
    (equal displayed ratings share a rank)."""
    board = board or BoardFilter.default()
    shown = _shown_rating()
    return (
        _board_rows(game, board, provisional=provisional)
        .select_related("player")
        .annotate(shown_rating=shown, rank=Window(Rank(), order_by=shown.desc()))
        .order_by("-shown_rating", "sigma", "player_id")
    )


def leaderboard_rank(*, rating: PlayerRating, board: BoardFilter | None = None) -> int | None:
    """The player's rank on the pool's board, or None when he is not listed (yet, or no more)."""
    board = board or BoardFilter.default()
    since = board.active_since()
    if rating.matches < board.min_matches or (since is not None and rating.last_played_at < since):
        return None
    own = display.rating(rating.mu, rating.sigma)
    better = (
        _board_rows(rating.pool.game, board, provisional=False)
        .annotate(shown_rating=_shown_rating())
        .filter(shown_rating__gt=own)
        .count()
    )
    return better + 1


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """The player's rating in every pool he is rated in (game order), with his board ``rank`` and, in
    the cul entry, ``overall_cul_rating`` (RULES.md 8 on the sums over his cul matches)."""
    ratings = list(PlayerRating.objects.filter(player=player).select_related("pool").order_by("pool__game"))
    for rating in ratings:
        rating.rank = leaderboard_rank(rating=rating)
        rating.overall_cul_rating = cul_overall(player=player) if rating.pool.game == "cul" else None
    return ratings


def cul_overall(*, player: Player) -> dict[str, float | None]:
    """The overall cul rating in percent, on both of spec 8's scales, over the player's finished
    (not void) cul matches; None on a scale where it is undefined (no party played)."""
    figures = [
        figures_from_state(state, position)
        for position, state in Seat.objects.filter(
            player=player, match__game="cul", match__status=Match.Status.FINISHED
        ).values_list("position", "match__state")
        if isinstance(state, dict)
    ]
    return {
        "matches": len(figures),
        "literal": overall_cul_rating_pct(figures, "literal"),
        "normalised": overall_cul_rating_pct(figures, "normalised"),
    }


def player_rating_history(*, player: Player | int, game: str) -> QuerySet[RatingHistory]:
    """The player's rated matches in a pool, newest first."""
    return RatingHistory.objects.filter(pool__game=game, player=player).order_by("-played_at", "-match_id")


def recompute_jobs() -> QuerySet[RecomputeJob]:
    return RecomputeJob.objects.select_related("requested_by")


@dataclass(frozen=True)
class SidePrediction:
    players: list[dict]
    win_probability: float
    expected_rank: float


@dataclass(frozen=True)
class Prediction:
    game: str
    sides: list[SidePrediction]
    draw_probability: float | None


def predict(*, game: str, sides: Sequence[Sequence[Player]], at: datetime | None = None) -> Prediction:
    """Each side's probability of the first place (a draw counted half), its expected rank
    and, for two sides, the chance of a draw, from the players' current ratings (the prior
    for a player not rated yet), each aged by the days since his last rated match to ``at``
    (default now), as the pool's next match would rate them: the pool's rater
    (``ratings.services.rater(game)``), the one model behind every number shown."""
    r = rater(game)
    at = at or timezone.now()
    ids = [p.pk for side in sides for p in side]
    current = {row.player_id: row for row in PlayerRating.objects.filter(pool__game=game, player_id__in=ids)}
    prior = r.prior()
    shown = [
        [Rating(current[p.pk].mu, current[p.pk].sigma) if p.pk in current else prior for p in side]
        for side in sides
    ]
    beliefs = [
        [r.aged(belief, _days_away(current.get(p.pk), at)) for p, belief in zip(side, row, strict=True)]
        for side, row in zip(sides, shown, strict=True)
    ]
    wins = r.win_probabilities(beliefs)
    ranks = r.expected_ranks(beliefs)
    out = []
    for side, side_beliefs, win, rank in zip(sides, shown, wins, ranks, strict=True):
        players = []
        for player, belief in zip(side, side_beliefs, strict=True):
            row = current.get(player.pk)
            matches = row.matches if row else 0
            players.append({
                "id": player.pk,
                "name": player.name,
                "mu": belief.mu,
                "sigma": belief.sigma,
                "conservative": r.conservative(belief),
                "matches": matches,
                "provisional": r.is_provisional(belief, matches),
            })  # fmt: skip
        out.append(SidePrediction(players, win, rank))
    return Prediction(game, out, r.draw_probability(beliefs))


def _days_away(row: PlayerRating | None, at: datetime) -> float:
    """Days from the player's last rated match to ``at`` (0 for a player not rated)."""
    if row is None or row.last_played_at is None:
        return 0.0
    return max(0.0, (at - row.last_played_at).total_seconds() / 86400)
