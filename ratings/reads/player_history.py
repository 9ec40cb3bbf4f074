"""A player's history: his rating in every pool with his board rank and, in cul, the overall
cul rating (RULES.md 8); his rated matches per game (the profile's chart and places); the
explained rating changes of a page of his matches and of a score sheet's match
(``changes.explain``)."""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import TYPE_CHECKING, Any, TypedDict, cast

from django.db.models import Count, DateField, Q, QuerySet, Subquery
from django.db.models.functions import Cast, TruncDate
from django.utils import timezone

from scorekeeper.matches.models import Match, Player, Seat

from ..cul import figures_from_state, overall_cul_rating_pct
from ..models import PlayerRating, RatingEvent, RatingHistory, RatingPool
from . import changes
from .boards import BoardFilter, federation_filter, leaderboard_rank
from .changes import Change
from .visibility import Clubs, in_clubs


class PoolStanding(TypedDict):
    """Not columns: what ``player_ratings`` sets on each of a player's ratings."""

    rank: int | None
    overall_cul_rating: dict[str, float | None] | None


if TYPE_CHECKING:  # the stubs' helper, not needed at run time
    from django_stubs_ext import WithAnnotations

    StandingRating = WithAnnotations[PlayerRating, PoolStanding]


def player_ratings(*, player: Player, clubs: Clubs = None, federation: bool = False) -> list[StandingRating]:
    """The player's rating in every pool he is rated in (game order), with his board ``rank`` and, in
    the cul entry, ``overall_cul_rating`` (RULES.md 8 on the sums over his cul matches).

    ``clubs`` (a viewer's, ``visibility``): not the pools where he played in other clubs only,
    ``matches`` and ``wins`` without those of the other clubs' matches (one grouped query
    more); the rating is his one rating (the federation's). ``federation``: his rank on
    the federation's board (``boards.board_filter_for``: the site's board of a non-staff viewer)."""
    rows = PlayerRating.objects.filter(player=player).select_related("pool").order_by("pool__game")
    ratings = cast("list[StandingRating]", list(rows))  # each gets its standing below
    hidden: dict[int, tuple[int, int]] = {}
    if clubs is not None and ratings:
        # His rows in the clubs the viewer does not see, per pool: taken off his counts, and a
        # pool where he played in such clubs only is not shown.
        seen_here = Q(match__club_id__in=clubs)
        for pool, total, seen, hidden_wins in (
            RatingHistory.objects.filter(player=player, pool_id__in=[r.pool_id for r in ratings])
            .order_by()
            .values("pool_id")
            .annotate(
                n=Count("match_id"),
                s=Count("match_id", filter=seen_here),
                w=Count("match_id", filter=Q(place=1) & ~seen_here),
            )
            .values_list("pool_id", "n", "s", "w")
        ):
            if total > seen:
                hidden[pool] = (total - seen, hidden_wins)
            if total and not seen:
                hidden[pool] = (-1, 0)
        ratings = [rating for rating in ratings if hidden.get(rating.pool_id, (0, 0))[0] >= 0]
    for rating in ratings:
        board = federation_filter(rating.pool.game) if federation else BoardFilter.default()
        rating.rank = leaderboard_rank(rating=rating, board=board)
        if rating.pool_id in hidden:  # the counts of what the viewer sees; the rank was the board's
            off, off_wins = hidden[rating.pool_id]
            rating.matches, rating.wins = rating.matches - off, rating.wins - off_wins
        rating.overall_cul_rating = (
            cul_overall(player=player, clubs=clubs) if rating.pool.game == "cul" else None
        )
    return ratings


def cul_overall(*, player: Player, clubs: Clubs = None) -> dict[str, float | None]:
    """The overall cul rating in percent, on both of spec 8's scales, over the player's finished
    (not void) cul matches; None on a scale where it is undefined (no party played)."""
    figures = [
        figures_from_state(state, position)
        for position, state in in_clubs(
            Seat.objects.filter(player=player, match__game="cul", match__status=Match.Status.FINISHED), clubs
        ).values_list("position", "match__state")
        if isinstance(state, dict)
    ]
    return {
        "matches": len(figures),
        "literal": overall_cul_rating_pct(figures, "literal"),
        "normalised": overall_cul_rating_pct(figures, "normalised"),
    }


def player_rating_history(*, player: Player | int, game: str, clubs: Clubs = None) -> QuerySet[RatingHistory]:
    """The player's rated matches in a pool, newest first (in ``clubs`` only, when given)."""
    rows = RatingHistory.objects.filter(pool__game=game, player=player)
    return in_clubs(rows, clubs).order_by("-played_at", "-match_id")


#: What a profile reads of each of the player's history rows (``player_histories``), beside
#: ``day``: the day it was played on in the current time zone.
HISTORY_FIELDS = ("pool_id", "match_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after")


def player_histories(*, player: Player | int, clubs: Clubs = None) -> dict[str, list]:
    """The player's rated matches per game, oldest first (rows of ``HISTORY_FIELDS`` and
    ``day``), in two queries; in ``clubs`` only, when given (issue 33: one join more)."""
    # The pools' games from a query of their own: a joined pool per row would be built for
    # each of the player's (possibly thousands of) rows.
    games = dict(RatingPool.objects.values_list("pk", "game"))
    # Every pool named, so that the player's rows are found through the (pool, player, …) index
    # instead of a scan of every pool's history.
    # As named rows of the fields the profile shows, not model instances: a busy player has
    # hundreds, and building a model instance each was two thirds of this read's time. The
    # day in the page's time zone (the chart's labels) from the database: an aware timestamp
    # loaded and converted per row was half of what was left.
    rows = (
        RatingHistory.objects.filter(pool_id__in=list(games), player=player)
        # Cast to a date: TruncDate's own converter, run on every row, has nothing to do here.
        .annotate(day=Cast(TruncDate("played_at", tzinfo=timezone.get_current_timezone()), DateField()))
        .order_by("pool_id", "played_at", "match_id")
        .values_list(*HISTORY_FIELDS, "day", named=True)
    )
    rows = in_clubs(rows, clubs)  # issue 33: a viewer's clubs only
    out: dict[str, list] = defaultdict(list)
    for row in rows:
        out[games[row.pool_id]].append(row)
    return dict(sorted(out.items()))


#: What ``changes.explain`` reads of a history row.
EXPLAINED_FIELDS = (
    "match_id", "player_id", "side", "place", "mu_before", "sigma_before", "mu_after", "sigma_after",
    "win_probability",
)  # fmt: skip


def rating_changes(histories: dict[str, list], *, player: Player | int, match_ids) -> dict[int, Change]:
    """The explained rating change of each of the player's rated matches among ``match_ids``
    (a page of his matches), by match id: one query for every row of those matches, found by
    their places in the pool's order (``changes.rows_of_matches``' index) as his rows give them."""
    wanted = set(match_ids)
    by_pool: dict[int, set[int]] = defaultdict(set)
    for history in histories.values():
        for row in history:
            if row.match_id in wanted:
                by_pool[row.pool_id].add(row.match_id)
    if not by_pool:
        return {}
    pk = player.pk if isinstance(player, Player) else player
    condition = Q()
    for pool, ids in by_pool.items():
        placed = RatingHistory.objects.filter(pool_id=pool, player_id=pk, match_id__in=ids).values(
            "played_at"
        )
        condition |= Q(pool_id=pool, played_at__in=placed, match_id__in=ids)
    # As named rows of what ``explain`` reads, not models; ordered by match, side and player as
    # ``changes.rows_of_matches`` orders them, not in the model's order, which sorts by the
    # pool's game and the player's name and so joined three tables for nothing ``explain`` needs.
    explained = changes.explain(
        RatingHistory.objects.filter(condition)
        .order_by("match_id", "side", "player_id")
        .values_list(*EXPLAINED_FIELDS, named=True),
        changes.match_results(wanted),
        players={pk},
    )
    return {match: explained[match, pk] for ids in by_pool.values() for match in ids}


def match_rating_changes(*, match: Match) -> list[dict[str, Any]]:
    """Each player's explained rating change in a rated match, in seat order (empty while the
    match is not rated: in progress, void, or its event not processed yet)."""
    if match.status != Match.Status.FINISHED:
        return []  # a pool rates finished matches only (pool_reading._rated): no statement to run
    # The match's place in the pool's order (when it was played: the time its scorer gave, else
    # its first rating event) leads to its rows through the history's order index, instead of a
    # scan of the pool's rows for the match.
    played = match.played_at or Subquery(
        RatingEvent.objects.filter(match=match).order_by("at").values("at")[:1]
    )
    rows = list(
        RatingHistory.objects.filter(match=match, pool__game=match.game, played_at=played)
        .select_related("player")
        .order_by("side", "player_id")
    )
    explained = changes.explain(rows, changes.match_results([match.pk]))
    seat_of = {seat.player_id: seat.position for seat in match.seats.all()}
    out = []
    for row in rows:
        change = explained[row.match_id, row.player_id]
        out.append({"player": row.player, "place": row.place, "before": change.before, "after": change.after,
                    "delta": change.delta, "change": change})  # fmt: skip
    return sorted(out, key=lambda entry: seat_of.get(entry["player"].pk, 0))


def places_count(history: list[RatingHistory]) -> list[tuple[int, int]]:
    """(place, how many times) over a player's rated matches of one game, best place first."""
    return sorted(Counter(row.place for row in history).items())
