"""The leaderboards: a pool's board of established players and of newcomers, paged through
the boards' index with each row's rank; every rated game's board at a glance; a row's
displayed rating and provisional mark; the recompute jobs behind the boards."""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from datetime import timedelta
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.conf import settings
from django.db.models import Count, Exists, OuterRef, Q, QuerySet, Subquery
from django.utils import timezone

from scorekeeper.clubs.scoping import site_wide
from scorekeeper.clubs.selectors import is_site_wide
from scorekeeper.matches.models import ClubPlayer, Match, Seat

from .. import display
from ..models import PlayerRating, RatingHistory, RatingPool, RecomputeJob


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
    #: Players left off the board whatever their rating (the federation board's private-only
    #: players: ``federation_filter``).
    hidden: frozenset[int] = frozenset()

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
    if board.hidden:
        rows = rows.exclude(player_id__in=sorted(board.hidden))
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
    if rating.player_id in board.hidden:
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


def leaderboards_overview(*, top: int = 5, federation: bool = False) -> list[dict[str, Any]]:
    """Every rated game with its ``top`` established players, how many are listed and how many
    are provisional: one query for the pools, one for the counts, one per pool (its leaders with their
    players: a handful of games, not of players). ``federation``: the federation's boards
    (``federation_filter``: no private-only player listed nor counted), two queries more a pool."""
    board = BoardFilter.default()
    pools = list(RatingPool.objects.order_by("game"))
    if federation:
        return [_overview_of(pool, federation_filter(pool.game, board), top) for pool in pools]
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


def _overview_of(pool: RatingPool, board: BoardFilter, top: int) -> dict[str, Any]:
    """One pool's entry of ``leaderboards_overview`` on ``board``."""
    rows = PlayerRating.objects.filter(pool=pool)
    since = board.active_since()
    if since is not None:
        rows = rows.filter(last_played_at__gte=since)
    if board.hidden:
        rows = rows.exclude(player_id__in=sorted(board.hidden))
    counts = rows.aggregate(
        listed=Count("id", filter=Q(matches__gte=board.min_matches)),
        provisional=Count("id", filter=Q(matches__lt=board.min_matches)),
    )
    top_rows = leaderboard(game=pool.game, board=board).select_related("player")[:top]
    leaders = leaderboard_ranks(top_rows, game=pool.game, board=board, offset=0)
    mark(leaders, board)
    return {"game": pool.game, "pool": pool, "listed": counts["listed"],
            "provisional": counts["provisional"], "top": leaders}  # fmt: skip


# -- the boards by club (issue 33) ---------------------------------------------------------------
def private_only_players(game: str) -> frozenset[int]:
    """The players with no rated match of ``game`` in a public club (they played it in private
    clubs only): the federation board leaves them off. A match seats only its club's players
    (its roster and its guests: ``scorekeeper.matches.services.match_create``), so only the
    private clubs' players can be such, and of them, one in no public club's roster or guests
    is one for certain; of the others (a player shared with a public club), those with no
    finished match of the game in a public club, a probe of his seats through their player
    index that stops at the first public one. Three small reads whatever the pool."""
    with site_wide():  # which players to hide is the system's question, not the viewer's
        entries = list(
            ClubPlayer.objects.filter(
                player_id__in=ClubPlayer.objects.filter(club__public=False).values("player_id")
            )
            .order_by()
            .values_list("player_id", "club__public")
        )
    if not entries:
        return frozenset()
    shared = {player for player, public in entries if public}
    only_private = {player for player, _public in entries} - shared
    pool = RatingPool.objects.filter(game=game).values("pk")[:1]
    rated = PlayerRating.objects.filter(pool_id=Subquery(pool)).order_by()
    hidden = set(rated.filter(player_id__in=sorted(only_private)).values_list("player_id", flat=True))
    if shared:
        public_seat = Seat.objects.filter(
            player_id=OuterRef("player_id"),
            match__game=game,
            match__status=Match.Status.FINISHED,
            match__club__public=True,
        )
        hidden |= set(
            rated.filter(player_id__in=sorted(shared))
            .exclude(Exists(public_seat))
            .values_list("player_id", flat=True)
        )
    return frozenset(hidden)


def federation_filter(game: str, board: BoardFilter | None = None) -> BoardFilter:
    """``board`` (the settings' by default) as the federation's: every player with a rated
    match of ``game`` in a public club, the private-only players left off."""
    board = board or BoardFilter.default()
    return replace(board, hidden=board.hidden | private_only_players(game))


def federation_board(*, game: str, board: BoardFilter | None = None, provisional: bool = False
                     ) -> tuple[QuerySet[PlayerRating], BoardFilter]:  # fmt: skip
    """The federation's board of ``game``: ``leaderboard`` over the public clubs' players (a
    player rated in public and private clubs is listed with his one rating), and the filter it
    was read with, for ``leaderboard_page`` and ``leaderboard_ranks``."""
    board = federation_filter(game, board)
    return leaderboard(game=game, board=board, provisional=provisional), board


def board_filter_for(viewer: Any, game: str, board: BoardFilter | None = None) -> BoardFilter:
    """The site's board of ``game`` as ``viewer`` sees it: staff the whole pool, anyone else
    (signed in or not, a private club's member too) the federation's (``federation_filter``):
    the site's board never lists a private-only player to an outsider, and is one board for
    everyone who is not staff (a private club's own board is its club board)."""
    board = board or BoardFilter.default()
    return board if is_site_wide(viewer) else federation_filter(game, board)


def season_start(zone: dt.tzinfo, today: dt.date | None = None) -> dt.datetime:
    """The start of this season: the first of January of this year in ``zone``."""
    today = today or timezone.localtime(timezone.now(), zone).date()
    return dt.datetime.combine(today.replace(month=1, day=1), dt.time.min, tzinfo=zone)


@dataclass
class ClubRow:
    """One player of a club board: his federation rating (``rating``, his ``PlayerRating``:
    one a player and game across the site), his ``rank`` on the club's board, his rated
    matches of the game in the club (``club_matches``), and the change of his rating this
    season (``season_change``: from before his first rated match of the year, anywhere; 0 if
    he has not played this year), set when the row is taken from its ``ClubBoard``."""

    rank: int
    rating: PlayerRating
    club_matches: int
    season_change: int | None = None

    @property
    def player(self):
        return self.rating.player


class ClubBoard(Sequence):
    """A club's board (or its provisional list), ranked whole; the rows of a slice (a page) get
    their season's change when taken (one query a slice), as ``seasons.SeasonBoard`` does."""

    def __init__(self, game: str, rows: list[ClubRow], start: dt.datetime, board: BoardFilter):
        self.game, self._rows, self._start, self.board = game, rows, start, board

    def __len__(self) -> int:
        return len(self._rows)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._complete(self._rows[index])
        return self._complete([self._rows[index]])[0]

    def __iter__(self):
        return iter(self._complete(self._rows))

    def _complete(self, rows: list[ClubRow]) -> list[ClubRow]:
        todo = [row for row in rows if row.season_change is None]
        if todo:
            first = RatingHistory.objects.filter(
                pool_id=OuterRef("pool_id"), player_id=OuterRef("player_id"), played_at__gte=self._start
            ).order_by("played_at", "match_id")
            starts = {
                pk: (mu, sigma)
                for pk, mu, sigma in PlayerRating.objects.filter(pk__in=[row.rating.pk for row in todo])
                .annotate(
                    mu0=Subquery(first.values("mu_before")[:1]),
                    sigma0=Subquery(first.values("sigma_before")[:1]),
                )
                .order_by()
                .values_list("pk", "mu0", "sigma0")
            }
            for row in todo:
                mu, sigma = starts.get(row.rating.pk, (None, None))
                before = row.rating.rating if mu is None else display.rating(mu, sigma)
                row.season_change = row.rating.rating - before
        return rows


def club_board(
    club: Any,
    game: str,
    *,
    board: BoardFilter | None = None,
    provisional: bool = False,
    today: dt.date | None = None,
) -> ClubBoard:
    """A club's board of ``game``: the players who played rated (finished, not void) matches
    of the game in ``club``, in ``BOARD_ORDER`` of their federation ratings, each with his
    rank among them (equal displayed ratings share one), his matches in the club and, as a page
    is taken, his change this season (the year, in the club's time zone). Established and
    provisional as on every board: by his rated matches in the game (all of them: the rating's
    own count, which is what makes it established). Two queries, then one a page: the club's
    seats of the game counted per player (the club's matches through the matches' club index),
    their ratings."""
    board = board or BoardFilter.default()
    played = dict(
        Seat.objects.filter(match__club=club, match__game=game, match__status=Match.Status.FINISHED)
        .order_by()
        .values("player_id")
        .annotate(n=Count("match_id"))
        .values_list("player_id", "n")
    )
    zone = _zone_of(club)
    start = season_start(zone, today)
    if not played:
        return ClubBoard(game, [], start, board)
    rows = PlayerRating.objects.filter(pool__game=game, player_id__in=list(played)).select_related("player")
    rows = (
        rows.filter(matches__lt=board.min_matches)
        if provisional
        else rows.filter(matches__gte=board.min_matches)
    )
    since = board.active_since()
    if since is not None:
        rows = rows.filter(last_played_at__gte=since)
    if board.hidden:
        rows = rows.exclude(player_id__in=sorted(board.hidden))
    ordered = sorted(rows.order_by(), key=lambda r: (-r.rating, r.sigma, r.player_id))
    out: list[ClubRow] = []
    for position, rating in enumerate(ordered, start=1):
        rank = out[-1].rank if out and out[-1].rating.rating == rating.rating else position
        out.append(ClubRow(rank, rating, played[rating.player_id]))
    mark([row.rating for row in out], board)
    return ClubBoard(game, out, start, board)


def _zone_of(club: Any) -> dt.tzinfo:
    try:
        return zoneinfo.ZoneInfo(club.time_zone) if getattr(club, "time_zone", "") else dt.UTC
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return dt.UTC


def recompute_jobs() -> QuerySet[RecomputeJob]:
    return RecomputeJob.objects.select_related("requested_by")
