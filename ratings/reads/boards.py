"""The leaderboards: a pool's board of established players and of newcomers, paged through
the boards' index with each row's rank; every rated game's board at a glance; a row's
displayed rating and provisional mark; the recompute jobs behind the boards."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.conf import settings
from django.db.models import Count, Q, QuerySet, Subquery
from django.utils import timezone

from .. import display
from ..models import PlayerRating, RatingPool, RecomputeJob


class Ranked(TypedDict):
    """Not columns: what ``leaderboard_ranks`` sets on each row of a board's page."""

    rank: int


if TYPE_CHECKING:  # the stubs' helper, not needed at run time
    from django_stubs_ext import WithAnnotations

    #: A board's row with its ``rank`` on the board (``leaderboard_ranks``).
    RankedRating = WithAnnotations[PlayerRating, Ranked]


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
) -> list[RankedRating]:
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
) -> list[RankedRating]:
    """``rows`` (a run of ``leaderboard``'s rows in its order: a page) with each one's ``rank``
    on that list: one more than the players listed with a higher displayed rating, so that
    equal ratings share a rank, on a page as across pages. One query, whatever the page's size
    or place: the rows listed before the first one, and those of them rated higher, counted
    from the boards' index (a rank over the whole board would rate and sort all of it). With
    ``offset``, the rows listed before these as their paginator knows it, only those rated
    higher are counted, and at the board's top (``offset`` 0) nothing is."""
    rows = cast("list[RankedRating]", list(rows))  # each gets its rank below
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


def shown(row) -> display.Displayed:
    """The displayed rating of a belief (a PlayerRating, a history row's after: ``mu``/``sigma``)."""
    return display.displayed(row.mu, row.sigma)


def mark(rows, board: BoardFilter | None = None) -> None:
    """Give each board row its displayed ``shown`` rating and whether it is ``provisional``
    (fewer rated matches than the board asks: ``matches_needed``)."""
    board = board or BoardFilter.default()
    for row in rows:
        row.shown = shown(row)
        row.matches_needed = board.min_matches
        row.provisional = row.matches < board.min_matches


def leaderboards_overview(*, top: int = 5) -> list[dict[str, Any]]:
    """Every rated game with its ``top`` established players, how many are listed and how many
    are provisional: one query for the pools, one for the counts, one per pool (its leaders with their
    players: a handful of games, not of players)."""
    board = BoardFilter.default()
    pools = list(RatingPool.objects.order_by("game"))
    rows = PlayerRating.objects.all()
    since = board.active_since()
    if since is not None:
        rows = rows.filter(last_played_at__gte=since)
    counts = {
        pool: (listed, provisional)
        for pool, listed, provisional in rows.values("pool")
        .annotate(
            listed=Count("id", filter=Q(matches__gte=board.min_matches)),
            provisional=Count("id", filter=Q(matches__lt=board.min_matches)),
        )
        .values_list("pool", "listed", "provisional")
    }
    out = []
    for pool in pools:
        listed, provisional = counts.get(pool.pk, (0, 0))
        # The top read at once with its players: no row before it to skip (a page further down
        # is read as ids from the index first: leaderboard_page), ranked from 1 without a count.
        top_rows = leaderboard(game=pool.game, board=board).select_related("player")[:top]
        leaders = leaderboard_ranks(top_rows, game=pool.game, board=board, offset=0)
        mark(leaders, board)
        out.append({"game": pool.game, "pool": pool, "listed": listed, "provisional": provisional,
                    "top": leaders})  # fmt: skip
    return out


def recompute_jobs() -> QuerySet[RecomputeJob]:
    return RecomputeJob.objects.select_related("requested_by")
