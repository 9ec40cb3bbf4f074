"""Reads of the ratings: leaderboards, a player's ratings and history, predictions."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import Count, Q, QuerySet
from django.utils import timezone

from scorekeeper.matches.models import Match, Player, Seat

from .cul import figures_from_state, overall_cul_rating_pct
from .engine import Rating
from .models import PlayerRating, RatingHistory, RatingPool, RecomputeJob
from .services import rater


def min_matches() -> int:
    """Rated matches a player needs to be listed on a leaderboard (a setting)."""
    return settings.RATINGS_LEADERBOARD_MIN_MATCHES


def leaderboard(*, game: str) -> QuerySet[PlayerRating]:
    """The listed players of a pool, best conservative rating first (a page of it through the
    leaderboard index); ``leaderboard_places`` gives a page's rows their places."""
    # The pool's id as a value: joined by its game, the planner cannot tell the pool's rows
    # from the others', and sorted every listed player (64 ms at 20,000) for a page of them
    # instead of reading them off the leaderboard index (1 ms).
    pool = RatingPool.objects.filter(game=game).values_list("pk", flat=True).first()
    return (
        PlayerRating.objects.filter(pool_id=pool, matches__gte=min_matches())
        .select_related("player")
        .order_by("-conservative", "player_id")
    )


def leaderboard_places(rows: Sequence[PlayerRating]) -> list[PlayerRating]:
    """``rows``, consecutive rows of a ``leaderboard`` (a page), each with his ``place``
    (competition ranking: players with equal ratings share a place). One count, of the rows
    before the first: a rank over the whole pool (a window) read every listed player of the
    pool for a page of them, 170 ms at 20,000 players."""
    rows = list(rows)
    if not rows:
        return rows
    first = rows[0]
    before = Q(conservative__gt=first.conservative) | Q(
        conservative=first.conservative, player_id__lt=first.player_id
    )
    counts = PlayerRating.objects.filter(before, pool_id=first.pool_id, matches__gte=min_matches()).aggregate(
        before=Count("id"), better=Count("id", filter=Q(conservative__gt=first.conservative))
    )
    first.place = counts["better"] + 1
    for offset, (above, row) in enumerate(itertools.pairwise(rows), start=counts["before"] + 1):
        row.place = above.place if row.conservative == above.conservative else offset + 1
    return rows


def leaderboard_place(*, rating: PlayerRating) -> int | None:
    """The player's place on the pool's leaderboard, or None when he is not listed (yet)."""
    if rating.matches < min_matches():
        return None
    better = PlayerRating.objects.filter(
        pool_id=rating.pool_id, matches__gte=min_matches(), conservative__gt=rating.conservative
    ).count()
    return better + 1


def player_ratings(*, player: Player) -> list[PlayerRating]:
    """The player's rating in every pool he is rated in (game order), with ``place`` and, in
    the cul entry, ``overall_cul_rating`` (RULES.md 8 on the sums over his cul matches)."""
    ratings = list(PlayerRating.objects.filter(player=player).select_related("pool").order_by("pool__game"))
    for rating in ratings:
        rating.place = leaderboard_place(rating=rating)
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
