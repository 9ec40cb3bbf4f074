"""Reads of the ratings that the club's web pages need beyond ``ratings.selectors``: every
leaderboard at a glance, a player's whole history in one query, the displayed ratings and
the provisional mark, the explained rating changes of the score sheet and the profile.

Kept apart from ``ratings.selectors`` (the API's), on which they build; each returns a bounded
number of queries whatever the number of players or matches shown.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.db.models import Count, DateField, Q, Subquery
from django.db.models.functions import Cast, TruncDate
from django.utils import timezone

from scorekeeper.matches.models import Match, Player
from scorekeeper.rules import RULESETS

from . import changes, display
from .changes import Change
from .models import PlayerRating, RatingEvent, RatingHistory, RatingPool
from .selectors import BoardFilter, leaderboard, leaderboard_ranks, predict


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


#: What a profile reads of each of the player's history rows (``player_histories``), beside
#: ``day``: the day it was played on in the current time zone.
HISTORY_FIELDS = ("pool_id", "match_id", "place", "mu_before", "sigma_before", "mu_after", "sigma_after")


def player_histories(*, player: Player | int) -> dict[str, list]:
    """The player's rated matches per game, oldest first (rows of ``HISTORY_FIELDS`` and
    ``day``), in two queries."""
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
    # As named rows of what ``explain`` reads (in the model's order, as before), not models.
    explained = changes.explain(
        RatingHistory.objects.filter(condition).values_list(*EXPLAINED_FIELDS, named=True)
    )
    return {match: explained[match, pk] for ids in by_pool.values() for match in ids}


def match_rating_changes(*, match: Match) -> list[dict[str, Any]]:
    """Each player's explained rating change in a rated match, in seat order (empty while the
    match is not rated: in progress, void, or its event not processed yet)."""
    if match.status != Match.Status.FINISHED:
        return []  # a pool rates finished matches only (services._rated): no statement to run
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
    explained = changes.explain(rows)
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


def table_prediction(*, game: str, seats: list[tuple[str, Any]]) -> dict[str, Any]:
    """The win probabilities of a table about to start (the new-match page): ``seats`` in seat
    order as the match form gives them, ``("id", pk)`` of a player or ``("new", name)`` of one
    not created yet (he has the prior rating). Partnership games predict per team."""
    ids = [value for kind, value in seats if kind == "id"]
    known = Player.objects.in_bulk(ids)
    players = [known[value] if kind == "id" else Player(name=value) for kind, value in seats]
    ruleset = RULESETS.get(game)
    teams = getattr(ruleset, "partnerships", None)
    if teams and len(teams) == len(players):
        sides = [[p for p, team in zip(players, teams, strict=True) if team == t] for t in sorted(set(teams))]
    else:
        sides = [[p] for p in players]
    prediction = predict(game=game, sides=sides)
    needed = BoardFilter.default().min_matches
    return {
        "sides": [
            {
                "names": [p["name"] for p in side.players],
                "win": side.win_probability,
                "provisional": any(p["matches"] < needed for p in side.players),
                "unrated": [p["name"] for p in side.players if not p["matches"]],
            }
            for side in prediction.sides
        ],
        "draw": prediction.draw_probability,
    }
