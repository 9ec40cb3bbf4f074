"""Reads of the ratings: leaderboards, a player's ratings and history, predictions."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Subquery
from django.utils import timezone

from scorekeeper.matches.models import Match, Player, Seat

from .cul import figures_from_state, overall_cul_rating_pct
from .engine import Rating
from .models import PlayerRating, RatingHistory, RatingPool, RecomputeJob
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


def _board_rows(game: str, board: BoardFilter, *, provisional: bool) -> QuerySet[PlayerRating]:
    # The pool by its id (a subquery run first), not through a join on its game: the planner
    # then reads the pool's rows from the boards' index, whose first column it is, instead of
    # guessing a few rows per game and joining every row of the table.
    pool = RatingPool.objects.filter(game=game).values("pk")[:1]
    rows = PlayerRating.objects.filter(pool_id=Subquery(pool))
    if provisional:
        rows = rows.filter(matches__lt=board.min_matches)
    else:
        rows = rows.filter(matches__gte=board.min_matches)
    since = board.active_since()
    if since is not None:
        rows = rows.filter(last_played_at__gte=since)
    return rows


#: The boards' order: the highest displayed rating first, then the surer one, then by id.
BOARD_ORDER = ("-rating", "sigma", "player_id")


def leaderboard(*, game: str, board: BoardFilter | None = None, provisional: bool = False
                ) -> QuerySet[PlayerRating]:  # fmt: skip
    """A pool's board: its established players (``provisional``: its newcomers instead), in
    ``BOARD_ORDER`` (the stored displayed rating, read through the boards' index). A page is
    best taken as ids (``.values_list("pk", flat=True)``, read from the index alone) and given
    to ``leaderboard_page``; ``leaderboard_ranks`` ranks rows taken otherwise."""
    board = board or BoardFilter.default()
    return _board_rows(game, board, provisional=provisional).order_by(*BOARD_ORDER)


def leaderboard_page(
    ids: Iterable[int],
    *,
    game: str,
    board: BoardFilter | None = None,
    provisional: bool = False,
    offset: int | None = None,
) -> list[PlayerRating]:
    """The rows of ``ids`` (a page of ``leaderboard(…).values_list("pk", flat=True)``) in that
    order, with their players and ranks: two queries, one on the board's first page (``offset``:
    the rows listed before the page when the caller knows it; see ``leaderboard_ranks``).
    The rows before the page are skipped in the index, never read nor joined to their players
    (a deep page of a large board read its whole top so)."""
    ids = list(ids)
    # Unordered: put in the page's order below (the model's order would join and sort by name).
    found = PlayerRating.objects.select_related("player").order_by().in_bulk(ids)
    rows = [found[pk] for pk in ids if pk in found]  # a row gone since (a merged player) is left out
    return leaderboard_ranks(rows, game=game, board=board, provisional=provisional, offset=offset)


def leaderboard_ranks(
    rows: Iterable[PlayerRating],
    *,
    game: str,
    board: BoardFilter | None = None,
    provisional: bool = False,
    offset: int | None = None,
) -> list[PlayerRating]:
    """``rows`` (a run of ``leaderboard``'s rows in its order: a page) with each one's ``rank``
    on that list: one more than the players listed with a higher displayed rating, so that
    equal ratings share a rank, on a page as across pages. One query, whatever the page's size
    or place: the rows listed before the first one, and those of them rated higher, counted
    from the boards' index (a rank over the whole board would rate and sort all of it). With
    ``offset``, the rows listed before these as their paginator knows it, only those rated
    higher are counted, and at the board's top (``offset`` 0) nothing is."""
    rows = list(rows)
    if not rows:
        return rows
    board = board or BoardFilter.default()
    first = rows[0]
    if offset == 0:  # nobody listed before the first row, nor rated higher
        counts = {"higher": 0, "before": 0}
    elif offset is not None:
        higher = _board_rows(game, board, provisional=provisional).filter(rating__gt=first.rating).count()
        counts = {"higher": higher, "before": offset}
    else:
        tied_before = Q(rating=first.rating) & (
            Q(sigma__lt=first.sigma) | Q(sigma=first.sigma, player_id__lt=first.player_id)
        )
        counts = (
            _board_rows(game, board, provisional=provisional)
            .filter(rating__gte=first.rating)
            .aggregate(  # counted on a column of the index (not the id): no row read beside it
                higher=Count("rating", filter=Q(rating__gt=first.rating)),
                before=Count("rating", filter=Q(rating__gt=first.rating) | tied_before),
            )
        )
    previous = None
    for position, row in enumerate(rows, start=counts["before"] + 1):
        if previous is None:
            row.rank = counts["higher"] + 1
        elif row.rating != previous.rating:
            row.rank = position
        else:
            row.rank = previous.rank
        previous = row
    return rows


def leaderboard_rank(*, rating: PlayerRating, board: BoardFilter | None = None) -> int | None:
    """The player's rank on the pool's board, or None when he is not listed (yet, or no more)."""
    board = board or BoardFilter.default()
    since = board.active_since()
    if rating.matches < board.min_matches or (since is not None and rating.last_played_at < since):
        return None
    better = _board_rows(rating.pool.game, board, provisional=False).filter(rating__gt=rating.rating).count()
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
