"""The replay: a pool's matches rated in the pool's order, their history and ratings written.

Two functions, each run by a service that holds the pool's lock (``ratings/services.py``):

- ``rebuild``: the pool from nothing (a full recompute): every rated match read
  (``pool_reading.pool_matches``, on PostgreSQL outside a caller's transaction by a reader
  thread on a connection of its own: ``bulk.read_aside``), rated from the prior, its history
  written into a fresh partition swapped in afterwards (``history_table``; a DELETE elsewhere)
  and the players' ratings written anew, counted as it rates;
- ``replay_from``: the pool from a place in its order on (its events): the history from there
  on deleted, each player's rating just before it taken back, those matches and the changed
  ones rated again at their places now, and the ratings of every player they touch rewritten
  from his history.

Both give the same floats (the engine's ``replay_arrays`` gives a match the same floats however
the matches are split between calls, and both start from the same stored floats), rate in
waves of ``RATE_CHUNK`` matches with the garbage collector paused and write the history
through ``bulk.HistoryWriter``.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
from collections import Counter
from collections.abc import Iterable
from datetime import datetime
from typing import cast

from django.db import connection
from django.db.models import Count, Max, Q
from django.utils import timezone

from . import bulk, history_table
from .display import displayed
from .engine import Rater, Rating, Replayed, replay_arrays
from .models import PlayerRating, RatingHistory, RatingPool
from .pool_reading import CHUNK, PoolMatch, played_day, pool_matches
from .raters import rater, rater_with

#: Matches rated at once (in waves: docs/ratings.md, "The interface").
RATE_CHUNK = 25_000
#: How many matches a full recompute's reader may hold ahead of the rating (about 50 MB).
READ_AHEAD = 128_000


def rebuild(pool: RatingPool, *, read_aside: bool = False) -> int:
    """Rate every rated match of the pool from nothing, in the pool's order: its history and
    its players' ratings replaced. The caller holds the pool's lock. Returns how many matches
    were rated. ``read_aside``: the matches are read in a thread on a connection of its own,
    as it rates and writes (PostgreSQL, outside a caller's transaction)."""
    r = rater_with(pool.game, pool.parameters)  # the row the caller locked, not a read again
    history = RatingHistory.objects.filter(pool=pool)
    ratings: dict[int, Rating] = {}
    #: Player → the day of his last rated match before those rated here (the engine's decay).
    last_day: dict[int, float] = {}
    fresh = None  # PostgreSQL: the table the history is written to (history_table)
    with contextlib.ExitStack() as stack:  # the reader aside, if any
        stack.enter_context(bulk.collector_paused())
        # Streamed from another connection, whose query starts now, while this one deletes
        # the pool's rows and then runs the history's COPY, so that the server reads and
        # stores while the rating goes on; else read whole first (compact: 100,000 matches
        # take about 40 MB), before the COPY takes the connection.
        if read_aside:
            reading = bulk.read_aside(
                functools.partial(pool_matches, pool.game, points=r.uses_margins),
                name=f"ratings-read-{pool.game}",
                chunk=CHUNK,
                ahead=READ_AHEAD,
            )
            matches: Iterable[PoolMatch] = stack.enter_context(reading)
        else:
            matches = list(pool_matches(pool.game, points=r.uses_margins))
        if connection.vendor == "postgresql":
            # Written into a fresh partition, swapped in for the old one below.
            fresh = history_table.fresh_partition(pool.pk)
        else:
            history.delete()  # one DELETE: nothing refers to these rows
        PlayerRating.objects.filter(pool=pool).delete()
        tally = _Tally()
        with bulk.HistoryWriter(pool.pk, table=fresh) as writer:
            rated, last = _rate(r, matches, ratings, last_day, writer, tally, set())
    if fresh is not None:
        history_table.swap_partition(pool.pk, fresh)
    rows = [(p, ratings[p], n, tally.wins[p], tally.last[p]) for p, n in tally.matches.items()]
    _write_ratings(pool, r, rows, replace=True)
    pool.matches = rated
    _save_last_match(pool, history, last)
    return rated


def replay_from(pool: RatingPool, *, start: tuple[datetime, int], changed: Iterable[int] = ()) -> int:
    """Rate the pool's matches from ``start`` (a place in the pool's order) on: those the
    history has from there and the ``changed`` ones (their events pending), at their places
    now, from the ratings their players had just before ``start``. The caller holds the pool's
    lock. Returns how many matches were rated."""
    r = rater_with(pool.game, pool.parameters)  # the row the caller locked, not a read again
    history = RatingHistory.objects.filter(pool=pool)
    ratings: dict[int, Rating] = {}
    #: Player → the day of his last rated match before those rated here (the engine's decay).
    last_day: dict[int, float] = {}
    #: Players whose rating may change: their PlayerRating row is rewritten (or deleted).
    affected: set[int] = set()
    removed: set[int] = set()  # matches whose history rows were deleted
    with bulk.collector_paused():
        matches = _cut_history(pool, start, changed, ratings, removed, points=r.uses_margins)
        affected.update(ratings)
        last_day.update(_last_days_before(pool, start, ratings))
        # The others have no history from ``start`` on: their ratings are the current ones.
        newcomers = {p for m in matches for side in m.sides for p in side} - ratings.keys()
        for player, mu, sigma, last_played in (
            PlayerRating.objects.filter(pool=pool, player_id__in=newcomers)
            .order_by()
            .values_list("player_id", "mu", "sigma", "last_played_at")
        ):
            ratings[player] = Rating(mu, sigma)
            last_day[player] = played_day(last_played)
        with bulk.HistoryWriter(pool.pk) as writer:
            rated, last = _rate(r, matches, ratings, last_day, writer, None, affected)
    summary = (
        RatingHistory.objects.filter(pool=pool, player_id__in=affected)
        .order_by()
        .values("player_id")
        .annotate(n=Count("id"), wins=Count("id", filter=Q(place=1)), last=Max("played_at"))
        .values_list("player_id", "n", "wins", "last")
    )
    kept = [(p, ratings[p], n, wins, last_at) for p, n, wins, last_at in summary]
    gone = affected - {row[0] for row in kept}
    PlayerRating.objects.filter(pool=pool, player_id__in=gone).delete()
    _write_ratings(pool, r, kept, replace=False)
    pool.matches = pool.matches - len(removed) + rated
    _save_last_match(pool, history, last)
    return rated


def _save_last_match(pool: RatingPool, history, last: PoolMatch | None) -> None:
    """Store the pool's count of matches (set by the caller), its last rated match (``last``,
    else the last of its ``history``: nothing rated after it) and the time of the update."""
    if last is None:
        last_row = history.order_by("-played_at", "-match_id").values_list("match_id", "played_at").first()
        pool.last_match_id, pool.last_finished_at = last_row or (None, None)
    else:
        pool.last_match_id, pool.last_finished_at = last.match_id, last.played_at
    pool.updated_at = timezone.now()
    pool.save(update_fields=["matches", "last_match", "last_finished_at", "updated_at"])


def _cut_history(
    pool: RatingPool,
    start: tuple[datetime, int],
    changed: Iterable[int],
    ratings: dict,
    removed: set,
    *,
    points: bool = True,
) -> list[PoolMatch]:
    """Delete the pool's history from ``start`` on; ``ratings`` gets each player's rating just
    before it (the "before" of his first deleted row), ``removed`` the deleted rows' matches.
    Returns the matches to rate again: those and the ``changed`` ones, from ``start`` on at
    their places now (with their points when ``points``: the pool's rater weighs them)."""
    at, match = start
    # (played_at, match) ≥ start, as a range of the order index and one exclusion (an OR of
    # the two cases is no range, and may be planned as a scan of the pool).
    suffix = (
        RatingHistory.objects.filter(pool=pool, played_at__gte=at)
        .exclude(played_at=at, match_id__lt=match)
        .order_by("played_at", "match_id")
    )
    for player, match_id, mu, sigma in suffix.values_list(
        "player_id", "match_id", "mu_before", "sigma_before"
    ):
        removed.add(match_id)
        if player not in ratings:
            ratings[player] = Rating(mu, sigma)
    suffix.order_by().delete()
    return list(pool_matches(pool.game, start, removed | set(changed), points=points))


def _last_days_before(pool: RatingPool, start: tuple[datetime, int], players: Iterable[int]) -> dict:
    """player → the day of his last rated match before ``start``, for those of ``players``
    who have one (read through the players' index: each one's earlier rows)."""
    at, match = start
    rows = (
        RatingHistory.objects.filter(pool=pool, player_id__in=list(players), played_at__lte=at)
        .exclude(played_at=at, match_id__gte=match)
        .order_by()
        .values("player_id")
        .annotate(last=Max("played_at"))
        .values_list("player_id", "last")
    )
    return {player: played_day(last) for player, last in rows}


class _Tally:
    """A full recompute's count per player: matches, wins (a shared first place counts) and
    the last one played, counted a chunk of rated matches at a time."""

    def __init__(self) -> None:
        self.matches: Counter[int] = Counter()
        self.wins: Counter[int] = Counter()
        self.last: dict[int, datetime] = {}

    def add(self, done: Replayed[PoolMatch]) -> None:
        # The engine keeps any hashable player; a PoolMatch's sides hold player ids.
        players = cast(list[int], done.players)
        self.matches.update(players)
        self.wins.update(itertools.compress(players, (done.place == 1).tolist()))
        # A dict keeps the last value of a key: each player's last match of the chunk.
        last = dict(zip(players, done.match_index.tolist(), strict=True))
        self.last.update((player, done.matches[i].played_at) for player, i in last.items())


def _rate(
    r: Rater,
    matches: Iterable[PoolMatch],
    ratings: dict,
    last_day: dict,
    writer,
    tally: _Tally | None,
    affected: set,
):
    """The loop of a replay: the engine's ``replay_arrays`` rates the matches a chunk at a
    time from ``ratings`` and each player's ``last_day`` (both updated), and their history
    rows are written; ``tally`` (a full
    recompute) counts each player's matches, wins and last match, else ``affected`` gets
    every player rated. Returns how many matches it rated and the last one."""
    rated = 0
    last = None
    matches = iter(matches)
    while chunk := list(itertools.islice(matches, RATE_CHUNK)):
        done = replay_arrays(r, chunk, ratings, last_day)
        writer.add(done)
        rated += len(chunk)
        last = chunk[-1]
        if tally is None:
            affected.update(done.players)
        else:
            tally.add(done)
    return rated, last


def _write_ratings(pool: RatingPool, r: Rater, rows: list[tuple], *, replace: bool) -> None:
    """``rows``: (player, Rating, matches, wins, last played)."""
    scale = rater()  # the displayed rating's scale is the default model's, whatever the pool's
    objects = [
        PlayerRating(pool=pool, player_id=player, mu=rating.mu, sigma=rating.sigma,
                     rating=displayed(rating.mu, rating.sigma, model=scale).rating,
                     conservative=r.conservative(rating), matches=n, wins=wins, last_played_at=last_at)
        for player, rating, n, wins, last_at in rows
    ]  # fmt: skip
    if replace:
        PlayerRating.objects.bulk_create(objects, batch_size=1000)
    else:
        PlayerRating.objects.bulk_create(
            objects,
            batch_size=1000,
            update_conflicts=True,
            unique_fields=["pool", "player"],
            update_fields=["mu", "sigma", "rating", "conservative", "matches", "wins", "last_played_at"],
        )
