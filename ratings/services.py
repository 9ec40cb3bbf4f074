"""Every write to the ratings (HackSoft style: keyword-only ``rating_<action>``).

How ratings follow the matches (docs/ratings.md, same heading):

- The match services announce each write that changes what a pool rates (a match finished; a
  hand of a finished match corrected; a finished match voided; a match reopened as finished)
  with ``scorekeeper.matches.signals.match_changed``, sent inside their own transaction. The
  ratings' receiver (ratings/receivers.py, connected in ``RatingsConfig.ready``) calls
  ``rating_event_record``, which stores a ``RatingEvent`` and its outbox message in that
  transaction, so recording never waits on Redis and nothing is lost; a failure rolls the write
  back with it.
- ``rating_pool_update`` (the task ``ratings.event_process``) locks the pool row (one writer per
  pool), takes the pending events of the pool from its own on at once (triggers that came in
  meanwhile collapse into this run; an older one still pending has its own task) and replays
  the pool from the earliest place one of their matches had or now has, in the pool's order:
  when each match was played (``Match.played_at``, the time its scorer gave for a sheet entered
  afterwards, else the time of its first rating event: when it first finished), then its id.
  A finished match at the end of that order is simply rated; an older one (entered late, or its
  date played corrected) deletes the history from its place on and rates again from the ratings
  its players had just before it. Void matches are not in the pool at all: no rating, no
  history, no leaderboard line.
- ``rating_recompute_request`` starts a full recompute: one ``ratings.pool_recompute`` task per
  pool, fanned out as a Celery group through the outbox; each rebuilds its pool from nothing,
  which must give the very floats the incremental path gave (the engine's ``replay_arrays``
  gives a match the same floats however the matches are split between calls, and both start
  from the same stored floats).

The bulk plumbing a replay runs on (the reader thread, the paused garbage collector, the
history's binary COPY) is in ratings/bulk.py; the swap of a pool's history partition in
ratings/history_table.py.
"""

from __future__ import annotations

import contextlib
import functools
import itertools
import json
import logging
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, NamedTuple

from django.conf import settings
from django.db import connection, transaction
from django.db.models import Count, F, Max, Min, Q
from django.utils import timezone

from scorekeeper.matches.models import Match, Seat
from scorekeeper.outbox.services import outbox_enqueue, outbox_enqueue_group
from scorekeeper.rules import UnknownGame, find_ruleset

from . import bulk, fitting, history_table
from .engine import MatchOutcome, Rater, Rating, Replayed, replay_arrays
from .models import HeadToHead, PlayerRating, RatingEvent, RatingHistory, RatingPool, RecomputeJob

log = logging.getLogger(__name__)

EVENT_TASK = "ratings.event_process"
POOL_RECOMPUTE_TASK = "ratings.pool_recompute"
#: Matches read per query; matches rated at once (in waves: docs/ratings.md, "The interface").
CHUNK = 2000
RATE_CHUNK = 25_000
#: How many matches a full recompute's reader may hold ahead of the rating (about 50 MB).
READ_AHEAD = 128_000


def rater(game: str | None = None) -> Rater:
    """The rating model of ``game``'s pool: the default (chosen by the back-test:
    docs/ratings.md) with the parameters fitted to the pool's own matches, if any
    (``rating_pool_fit``); the default itself for ``None`` or a pool not fitted. Every number
    of a pool comes from it: the replay, its history's win probabilities, ``/predict``."""
    if game is None:
        return Rater.default()
    parameters = RatingPool.objects.filter(game=game).values_list("parameters", flat=True).first()
    return _rater_with(game, parameters)


def _rater_with(game: str, parameters) -> Rater:
    """``rater(game)`` from the pool's ``parameters`` as read (a replay has its pool's row)."""
    default = Rater.default()
    if not parameters:
        return default
    try:
        return default.with_parameters(parameters, name=f"{default.name}:{game}")
    except (TypeError, ValueError):
        log.warning("pool %s: stored parameters %r are not the model's; the defaults serve", game, parameters)
        return default


def rating_pool_fit(*, game: str, min_matches: int | None = None) -> dict[str, Any]:
    """Fit the model's parameters to the pool's own matches (``ratings.fitting.fit``: a few
    candidates, the best by Brier score on the later matches, and the pool's draw share),
    store them with the pool, and rebuild the pool with them (a full recompute of it). A pool
    too small keeps the defaults. Returns what the fit found."""
    pool = _pool(game)
    outcomes = [
        MatchOutcome(m.match_id, m.sides, m.places, getattr(m, "day", None)) for m in pool_matches(game)
    ]
    floor = fitting.MIN_MATCHES if min_matches is None else min_matches
    found = fitting.fit(outcomes, min_matches=floor)
    report = {
        "fitted_at": timezone.now().isoformat(),
        "matches": found.matches,
        "scored": found.scored,
        "reason": found.reason,
        "candidates": [{"parameters": params, "brier": brier} for params, brier in found.briers],
    }
    with transaction.atomic():
        RatingPool.objects.filter(pk=pool.pk).update(parameters=found.parameters, fit_report=report)
    job = rating_recompute_request(games=[game])
    return {**report, "parameters": found.parameters, "recompute_job": job.pk}


# -- events (the receiver of scorekeeper.matches.signals.match_changed, in its transaction)
def rating_event_record(*, match: Match, kind: str) -> RatingEvent:
    """Store "pool of ``match.game``: look at ``match`` again" with its outbox message, in the
    caller's transaction. The task runs after the commit (or, with Redis down, after the sweep)."""
    event = RatingEvent.objects.create(match_id=match.pk, game=match.game, kind=kind, at=timezone.now())
    outbox_enqueue(task=EVENT_TASK, kwargs={"event_id": event.pk})
    return event


# -- processing ------------------------------------------------------------------------
def rating_event_process(*, event: int) -> dict[str, Any]:
    """The task's service: bring the pool of ``event`` up to date (nothing if already done)."""
    row = RatingEvent.objects.filter(pk=event).order_by().values_list("game", "processed_at").first()
    if row is None or row[1] is not None:
        return {"event": event, "events": 0}  # processed by a run that took it with others
    return {"event": event, **rating_pool_update(game=row[0], from_event=event)}


def rating_pool_update(*, game: str, from_event: int | None = None) -> dict[str, Any]:
    """Process the pending events of the pool of ``game`` in one replay, from the earliest
    place in the pool's order that one of their matches had or now has: every one, or those
    from the event ``from_event`` on (the task of an event). An older event still pending (its
    transaction committed late, its task not run yet) is left to its own task, which every
    event has (its outbox message), and which replays the pool from that event's place."""
    pool = _pool(game)
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool.pk)
        # By id, through the pending events' partial index (the model's order, newest first,
        # would lead the planner to the index of every event of the pool). From the task's
        # event on: the index keeps an entry for every event processed since the table was
        # last vacuumed, a million after a large recompute, and a search of all of them took
        # longer as the pool grew (13 ms at 1,000,000 matches, autovacuum off); from the
        # task's own event on it reads the few entries of the events since.
        pending = RatingEvent.objects.filter(game=game, processed_at__isnull=True)
        if from_event is not None:
            pending = pending.filter(id__gte=from_event)
        pending = list(pending.order_by("id").values_list("id", "match_id"))
        if not pending:
            return {"events": 0, "replayed": 0}
        matches = {match for _, match in pending}
        places = [*_places_rated(pool, matches), *_places_now(game, matches).items()]
        start = min((at, match) for match, at in places) if places else None
        replayed = _pool_rate_from(pool, start=start, changed=matches) if start else 0
        _head_to_head_recount(game, matches)
        _mark_processed([pk for pk, _ in pending], timezone.now())
    return {"events": len(pending), "replayed": replayed}


def rating_events_process_all() -> int:
    """Process every pending event of every pool, here and now (the demo, a management shell)."""
    games = RatingEvent.objects.filter(processed_at__isnull=True).values_list("game", flat=True).distinct()
    return sum(rating_pool_update(game=game)["events"] for game in sorted(set(games)))


# -- full recompute ----------------------------------------------------------------------
def rating_recompute_request(*, by=None, games: Sequence[str] | None = None) -> RecomputeJob:
    """Start a full recompute of ``games`` (default: every pool and every game with rated
    matches): a job with its progress, one pool task per pool fanned out as a Celery group."""
    if games is None:
        games = set(RatingEvent.objects.values_list("game", flat=True).distinct())
        games |= set(RatingPool.objects.values_list("game", flat=True))
    pools = [_pool(game) for game in sorted(set(games))]
    with transaction.atomic():
        job = RecomputeJob.objects.create(requested_by=by, total=len(pools), pools=[p.pk for p in pools])
        if not pools:
            job.status, job.finished_at = RecomputeJob.Status.DONE, timezone.now()
            job.save(update_fields=["status", "finished_at"])
        outbox_enqueue_group(
            task=POOL_RECOMPUTE_TASK, kwargs_list=[{"job_id": job.pk, "pool_id": p.pk} for p in pools]
        )
    return job


def rating_pool_recompute(*, pool: RatingPool | int, job: RecomputeJob | int | None = None) -> dict[str, Any]:
    """Rebuild a pool from nothing: every rated match of its game, in the pool's order.

    Idempotent per job: a redelivered task (its worker died after the commit) changes nothing.
    """
    pool_pk = pool.pk if isinstance(pool, RatingPool) else pool
    job_pk = job.pk if isinstance(job, RecomputeJob) else job
    # The matches are read on a connection of their own while this one writes, unless the
    # caller's transaction is open around this one (a test's): a second connection would not
    # see what it has not committed.
    read_aside = connection.vendor == "postgresql" and not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        pool = RatingPool.objects.select_for_update().get(pk=pool_pk)
        if job_pk is not None and pool.recomputed_by_id == job_pk:
            return {"pool": pool.game, "skipped": True}
        pending = list(
            RatingEvent.objects.filter(game=pool.game, processed_at__isnull=True).values_list(
                "id", "match_id"
            )
        )
        replayed = _pool_rate_from(pool, start=None, read_aside=read_aside)
        # The records come from the seats, not the model: only the matches of the events
        # taken here (their own tasks will find them done) are counted again.
        _head_to_head_recount(pool.game, [match for _, match in pending])
        now = timezone.now()
        _mark_processed([pk for pk, _ in pending], now)
        pool.recomputed_by_id, pool.recomputed_at = job_pk, now
        pool.save(update_fields=["recomputed_by", "recomputed_at"])
        if job_pk is not None:
            RecomputeJob.objects.filter(pk=job_pk).update(done=F("done") + 1)
            RecomputeJob.objects.filter(
                pk=job_pk, done__gte=F("total"), status=RecomputeJob.Status.RUNNING
            ).update(status=RecomputeJob.Status.DONE, finished_at=now)
    if read_aside:  # PostgreSQL, outside a caller's transaction (VACUUM cannot run in one)
        # The boards read a page's ids and counts from their index alone only where the
        # table's pages are marked all-visible, which a vacuum does, and the recompute has just
        # rewritten every row of the pool (autovacuum may be off, or far behind): a deep page
        # of a 20,000-player board then fetched 10,000 rows. 20,000 rows take about 30 ms.
        with connection.cursor() as cursor:
            cursor.execute(f'VACUUM (ANALYZE) "{PlayerRating._meta.db_table}"')
    return {"pool": pool.game, "replayed": replayed}


#: Events marked processed at once from which the events' statistics are taken again.
ANALYZE_AFTER = 10_000


def _mark_processed(ids: list[int], now) -> None:
    if connection.vendor == "postgresql":  # one array parameter, however many
        table = RatingEvent._meta.db_table
        with connection.cursor() as cursor:
            cursor.execute(f'UPDATE "{table}" SET "processed_at" = %s WHERE "id" = ANY(%s)', [now, ids])
            if len(ids) >= ANALYZE_AFTER:
                # The planner's count of pending events must follow, or the next update's
                # search for them (a handful, through their partial index) is planned as a walk
                # over every event of the pool: 0.3 s at 1,000,000 matches, where autovacuum is
                # off or behind. ANALYZE samples a few thousand rows (0.2 s at a million).
                cursor.execute(f'ANALYZE "{table}"')
        return
    for i in range(0, len(ids), 10_000):  # a statement takes at most 65,535 parameters
        RatingEvent.objects.filter(pk__in=ids[i : i + 10_000]).update(processed_at=now)


# -- the replay --------------------------------------------------------------------------
class PoolMatch(NamedTuple):
    """One rated match of a pool: its players side by side and each side's place (a named
    tuple: a recompute makes one per match, and a frozen dataclass took three times as long)."""

    match_id: int
    #: Its place in the pool's order (with its id): when it was played.
    played_at: datetime
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    #: When it was played, in days since 1970-01-01 UTC: the time the engine's decay counts.
    day: float


def played_day(moment: datetime) -> float:
    """``moment`` in days since 1970-01-01 UTC, from its whole microseconds (the same float
    whether the time came from the database's integer or from a ``datetime``)."""
    delta = moment - _UNIX_EPOCH
    return ((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds) / 86_400_000_000


def _pool(game: str) -> RatingPool:
    pool, _ = RatingPool.objects.get_or_create(game=game)
    return pool


def _places_now(game: str, matches: Iterable[int]) -> dict[int, datetime]:
    """match id → its place in the pool's order now, for those of ``matches`` that have rating
    events: when it was played, the time its scorer gave, else the time of its first rating
    event (when it first finished, in the transaction of the hand that finished it; a match
    reopened or corrected keeps it)."""
    out: dict[int, datetime] = {}
    ids = sorted(set(matches))
    for i in range(0, len(ids), CHUNK):
        rows = (
            Match.objects.filter(pk__in=ids[i : i + CHUNK], rating_events__game=game)
            .order_by()
            .values("pk")
            .annotate(first=Min("rating_events__at"))
            .values_list("pk", "played_at", "first")
        )
        out.update((match, played or first) for match, played, first in rows)
    return out


def _places_rated(pool: RatingPool, matches: Iterable[int]) -> Iterator[tuple[int, datetime]]:
    """(match id, place) of those of ``matches`` the pool's history has: the place each had
    when it was last rated. Read through the players' index (the history has none by match,
    which each of a full recompute's rows would pay for): each player's rows, not the pool's."""
    ids = sorted(set(matches))
    # In chunks, as _places_now: a backlog of many events (a worker back after a long outage)
    # would otherwise put more ids and players in one statement than PostgreSQL takes (65,535).
    for i in range(0, len(ids), CHUNK):
        chunk = ids[i : i + CHUNK]
        players = set(Seat.objects.filter(match_id__in=chunk).order_by().values_list("player_id", flat=True))
        yield from (
            RatingHistory.objects.filter(pool=pool, player_id__in=players, match_id__in=chunk)
            .order_by()
            .values_list("match_id", "played_at")
            .distinct()
        )


def pool_matches(
    game: str, start: tuple[datetime, int] | None = None, matches: Iterable[int] = ()
) -> Iterator[PoolMatch]:
    """The rated matches of a pool (finished, not void) in the pool's order, read in chunks:
    all of them (``start`` None), or ``matches`` from ``start`` on. Ranks come from the match
    result's ``placements`` (ties share a place); piquet-voleur's teams (``partnerships``) are
    sides, every other game is free for all."""
    try:
        partnerships = find_ruleset(game).partnerships
    except UnknownGame:
        partnerships = None
    if start is None and connection.vendor == "postgresql":
        yield from _pool_matches_postgresql(game, partnerships)
        return
    if start is None:
        matches = RatingEvent.objects.filter(game=game).values_list("match_id", flat=True).distinct()
    order = sorted((at, match) for match, at in _places_now(game, matches).items())
    if start is not None:
        order = [place for place in order if place >= start]
    for i in range(0, len(order), CHUNK):
        chunk = order[i : i + CHUNK]
        ids = [match for _, match in chunk]
        # Unordered (the models' orderings would sort, and join the match for the seats', to no
        # end): the rows go into dicts, and each match's seats are sorted below.
        placements = dict(
            _rated(Match.objects.filter(pk__in=ids)).order_by().values_list("pk", "result__placements")
        )
        seats: dict[int, list[tuple[int, int]]] = {}
        for match, position, player in (
            Seat.objects.filter(match_id__in=list(placements))
            .order_by()
            .values_list("match_id", "position", "player_id")
        ):
            seats.setdefault(match, []).append((position, player))
        for at, match in chunk:
            if match not in placements:
                continue  # void, or no longer finished after a correction
            players = [player for _, player in sorted(seats.get(match, ()))]
            outcome = _outcome(match, at, placements[match], players, partnerships)
            if outcome is not None:
                yield outcome


def _rated(matches):
    """The matches a pool rates: the finished ones, and while RATINGS_WAIT_FOR_CONFIRMATION is
    on only those the other side confirmed (every current hand: ``Match.confirmed_at``)."""
    matches = matches.filter(status=Match.Status.FINISHED)
    if settings.RATINGS_WAIT_FOR_CONFIRMATION:
        matches = matches.filter(confirmed_at__isnull=False)
    return matches


def _column(model, field: str) -> str:
    """The column of ``model``'s ``field``, quoted, as the model names it."""
    return f'"{model._meta.get_field(field).column}"'


#: A whole pool in its order, in one statement streamed from a server-side cursor: each match
#: with its place in the order, when it was played (µs since 1970: Django's time-zone-aware
#: loader of timestamps cost more than the rest of the read), its placements (as text, parsed here)
#: and its players in seat order (gathered per match before the sort, which then sorts one row
#: a match instead of one a seat). Tables and columns are named by the models.
_POOL_SQL = """
SELECT m.{match_id}, (EXTRACT(EPOCH FROM COALESCE(m.{played}, f.first)) * 1000000)::int8,
       m.{result} ->> 'placements', s.players
FROM (
    SELECT {event_match} AS match_id, min({event_at}) AS first
    FROM {event} WHERE {event_game} = %(game)s GROUP BY {event_match}
) f
JOIN {match} m ON m.{match_id} = f.match_id AND m.{status} = {finished}
    AND (NOT %(wait)s OR m.{confirmed_at} IS NOT NULL)
JOIN (
    SELECT s.{seat_match} AS match_id, array_agg(s.{seat_player} ORDER BY s.{seat_position}) AS players
    FROM {seat} s
    JOIN {match} sm ON sm.{match_id} = s.{seat_match} AND sm.{game} = %(game)s AND sm.{status} = {finished}
        AND (NOT %(wait)s OR sm.{confirmed_at} IS NOT NULL)
    GROUP BY s.{seat_match}
) s ON s.match_id = m.{match_id}
ORDER BY COALESCE(m.{played}, f.first), m.{match_id}
""".format(
    event=f'"{RatingEvent._meta.db_table}"',
    event_match=_column(RatingEvent, "match"),
    event_at=_column(RatingEvent, "at"),
    event_game=_column(RatingEvent, "game"),
    match=f'"{Match._meta.db_table}"',
    match_id=f'"{Match._meta.pk.column}"',
    result=_column(Match, "result"),
    played=_column(Match, "played_at"),
    status=_column(Match, "status"),
    confirmed_at=_column(Match, "confirmed_at"),
    game=_column(Match, "game"),
    seat=f'"{Seat._meta.db_table}"',
    seat_match=_column(Seat, "match"),
    seat_player=_column(Seat, "player"),
    seat_position=_column(Seat, "position"),
    # A constant, written into the statement as before (not a parameter): planned as before.
    finished=f"'{Match.Status.FINISHED.value}'",
)
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _pool_matches_postgresql(game: str, partnerships) -> Iterator[PoolMatch]:
    with connection.chunked_cursor() as cursor:
        cursor.execute(_POOL_SQL, {"game": game, "wait": settings.RATINGS_WAIT_FOR_CONFIRMATION})
        while rows := cursor.fetchmany(CHUNK):
            for (match, micros, _, players), placements in zip(rows, _placements(rows), strict=True):
                at = _UNIX_EPOCH + timedelta(microseconds=micros)
                outcome = _outcome(match, at, placements, players, partnerships)
                if outcome is not None:
                    yield outcome


def _placements(rows: list[tuple]) -> list:
    """The rows' placements, parsed from JSON: all in one call (a call per row cost a quarter of
    the read), else row by row (None for a row that is not JSON, or has none)."""
    texts = [row[2] for row in rows]
    if None not in texts:
        with contextlib.suppress(ValueError):
            parsed = json.loads(f"[{','.join(texts)}]")
            if len(parsed) == len(texts):
                return parsed
    out = []
    for text in texts:
        try:
            out.append(json.loads(text) if text is not None else None)
        except ValueError:
            out.append(None)
    return out


_INT = {int}


def _outcome(match, at, placements, players, partnerships) -> PoolMatch | None:
    if (
        type(placements) is not list
        or len(placements) != len(players)
        or len(players) < 2
        or set(map(type, placements)) != _INT  # bools are not places
        or min(placements) < 1
    ):
        log.warning(
            "match %s: placements %r do not fit its %d seats; not rated", match, placements, len(players)
        )
        return None
    if partnerships and len(partnerships) == len(players):
        teams = sorted(set(partnerships))
        sides = tuple(
            tuple(p for p, t in zip(players, partnerships, strict=True) if t == team) for team in teams
        )
        places = tuple(placements[partnerships.index(team)] for team in teams)
        return PoolMatch(match, at, sides, places, played_day(at))
    return PoolMatch(match, at, tuple(zip(players)), tuple(placements), played_day(at))  # one-player sides


def _pool_rate_from(
    pool: RatingPool,
    *,
    start: tuple[datetime, int] | None,
    changed: Iterable[int] = (),
    read_aside: bool = False,
) -> int:
    """Rate the pool's matches from ``start`` on (None: all, from nothing): those the history
    has from there and the ``changed`` ones (their events pending), at their places now. The
    caller holds the pool's lock. Returns how many matches were rated. ``read_aside``: a full
    recompute reads its matches in a thread on a connection of its own, as it rates and writes."""
    r = _rater_with(pool.game, pool.parameters)  # the row the caller locked, not a read again
    history = RatingHistory.objects.filter(pool=pool)
    ratings: dict[int, Rating] = {}
    #: Player → the day of his last rated match before those rated here (the engine's decay).
    last_day: dict[int, float] = {}
    #: Players whose rating may change: their PlayerRating row is rewritten (or deleted).
    affected: set[int] = set()
    removed: set[int] = set()  # matches whose history rows were deleted
    full = start is None
    fresh = None  # PostgreSQL, full: the table the history is written to (history_table)
    with contextlib.ExitStack() as stack:  # the reader aside, if any
        stack.enter_context(bulk.collector_paused())
        if full:
            # Streamed from another connection, whose query starts now, while this one deletes
            # the pool's rows and then runs the history's COPY, so that the server reads and
            # stores while the rating goes on; else read whole first (compact: 100,000 matches
            # take about 40 MB), before the COPY takes the connection.
            if read_aside:
                reading = bulk.read_aside(
                    functools.partial(pool_matches, pool.game),
                    name=f"ratings-read-{pool.game}",
                    chunk=CHUNK,
                    ahead=READ_AHEAD,
                )
                matches: Iterable[PoolMatch] = stack.enter_context(reading)
            else:
                matches = list(pool_matches(pool.game))
            if connection.vendor == "postgresql":
                # Written into a fresh partition, swapped in for the old one below.
                fresh = history_table.fresh_partition(pool.pk)
            else:
                history.delete()  # one DELETE: nothing refers to these rows
            PlayerRating.objects.filter(pool=pool).delete()
        else:
            matches = _replay_from(pool, start, changed, ratings, removed)
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
        tally = _Tally() if full else None
        with bulk.HistoryWriter(pool.pk, table=fresh) as writer:
            rated, last = _rate(r, matches, ratings, last_day, writer, tally, affected)
    if fresh is not None:
        history_table.swap_partition(pool.pk, fresh)
    if full:
        rows = [(p, ratings[p], n, tally.wins[p], tally.last[p]) for p, n in tally.matches.items()]
        _write_ratings(pool, r, rows, replace=True)
        pool.matches = rated
    else:
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
    if last is None:
        last_row = history.order_by("-played_at", "-match_id").values_list("match_id", "played_at").first()
        pool.last_match_id, pool.last_finished_at = last_row or (None, None)
    else:
        pool.last_match_id, pool.last_finished_at = last.match_id, last.played_at
    pool.updated_at = timezone.now()
    pool.save(update_fields=["matches", "last_match", "last_finished_at", "updated_at"])
    return rated


def _replay_from(
    pool: RatingPool, start: tuple[datetime, int], changed: Iterable[int], ratings: dict, removed: set
) -> list[PoolMatch]:
    """Delete the pool's history from ``start`` on; ``ratings`` gets each player's rating just
    before it (the "before" of his first deleted row), ``removed`` the deleted rows' matches.
    Returns the matches to rate again: those and the ``changed`` ones, from ``start`` on at
    their places now."""
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
    return list(pool_matches(pool.game, start, removed | set(changed)))


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

    def add(self, done: Replayed) -> None:
        self.matches.update(done.players)
        self.wins.update(itertools.compress(done.players, (done.place == 1).tolist()))
        # A dict keeps the last value of a key: each player's last match of the chunk.
        last = dict(zip(done.players, done.match_index.tolist(), strict=True))
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
    from .display import displayed  # it reads the default model through this module

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


# -- head-to-head records (HeadToHead) ------------------------------------------------------
#: Matches (or their players) of a batch of events beyond which their game's records are
#: rebuilt whole: a backlog (a synthetic store, a worker back after an outage) holds most of
#: the game's pairs anyway, in statements too long for a list of ids.
RECOUNT_MATCHES = 2000
RECOUNT_PLAYERS = 1000


def _head_to_head_recount(game: str, matches: Iterable[int]) -> None:
    """Count again, from the seats, the records of every two players of ``matches`` (in
    ``game``): whatever these matches are now (finished, corrected, void, reopened), the pairs
    they can change are counted anew over all their finished matches, so a repeat changes
    nothing. The matches where two of them sat are found from their seats alone (a few
    thousand index entries), then read with their results."""
    ids = sorted(set(matches))
    if len(ids) > RECOUNT_MATCHES:
        _head_to_head_rebuild(game)
        return
    players = set(Seat.objects.filter(match_id__in=ids).order_by().values_list("player_id", flat=True))
    if len(players) > RECOUNT_PLAYERS:
        _head_to_head_rebuild(game)
        return
    if len(players) < 2:
        return
    shared = (
        Seat.objects.filter(player_id__in=players)
        .order_by()
        .values("match_id")
        .annotate(n=Count("id"))
        .filter(n__gte=2)
        .values_list("match_id", flat=True)
    )
    seats = Seat.objects.filter(
        match_id__in=list(shared),
        player_id__in=players,
        match__game=game,
        match__status=Match.Status.FINISHED,
    ).order_by()
    _head_to_head_write(
        game,
        seats.values_list("match_id", "match__result__placements", "player_id", "position", "team"),
        replace=HeadToHead.objects.filter(game=game, player_id__in=players, opponent_id__in=players),
    )


def _head_to_head_recount_players(game: str, players: Sequence[int]) -> None:
    """Count again every record of ``players`` in ``game`` (against anyone), from the seats of
    their finished matches (a merge: the duplicate's records are the other's now)."""
    finished = Seat.objects.filter(
        player_id__in=players, match__game=game, match__status=Match.Status.FINISHED
    )
    seats = Seat.objects.filter(match_id__in=finished.values("match_id")).order_by()
    _head_to_head_write(
        game,
        seats.values_list("match_id", "match__result__placements", "player_id", "position", "team"),
        replace=HeadToHead.objects.filter(Q(player_id__in=players) | Q(opponent_id__in=players), game=game),
        only=set(players),
    )


def rating_head_to_head_rebuild(*, game: str) -> int:
    """Every head-to-head record of ``game`` again, from the seats of its finished matches (a
    backlog of events; a restore, whose events come processed). Returns how many were written."""
    with transaction.atomic():
        return _head_to_head_rebuild(game)


def _head_to_head_rebuild(game: str) -> int:
    from .head_to_head import merge_pair_counts, pair_counts  # it reads the ratings through this module

    finished = Match.objects.filter(game=game, status=Match.Status.FINISHED)
    ids = list(finished.order_by("pk").values_list("pk", flat=True))
    parts = []
    # A range of match ids at a time (a million matches: four million seats; a range, not a
    # list of ids, in two parameters), each range's pairs added up before the next is read.
    for i in range(0, len(ids), CHUNK * 10):
        first, last = ids[i], ids[min(i + CHUNK * 10, len(ids)) - 1]
        matches = finished.filter(pk__gte=first, pk__lte=last)
        placements = dict(matches.order_by().values_list("pk", "result__placements"))
        seats = Seat.objects.filter(
            match__game=game, match__status=Match.Status.FINISHED, match_id__gte=first, match_id__lte=last
        ).order_by()
        parts.append(
            pair_counts(
                (match, placements.get(match), player, position, team)
                for match, player, position, team in seats.values_list(
                    "match_id", "player_id", "position", "team"
                )
            )
        )
    players, opponents, counts = merge_pair_counts(parts)
    del parts
    HeadToHead.objects.filter(game=game).delete()
    for i in range(0, len(players), 50_000):  # rows as Python objects a slice at a time
        _head_to_head_insert(
            game,
            zip(players[i : i + 50_000].tolist(), opponents[i : i + 50_000].tolist(),
                *counts[i : i + 50_000].T.tolist(), strict=True),
        )  # fmt: skip
    return len(players)


def _head_to_head_write(game: str, seats: Iterable[tuple], *, replace, only: set[int] | None = None) -> None:
    """Replace the rows of ``replace`` by the records of ``seats`` (those of the ``only``
    players, if given: the other pairs of their matches were not read whole)."""
    from .head_to_head import pair_records  # it reads the ratings through this module

    rows = [row for row in pair_records(seats) if only is None or row[0] in only or row[1] in only]
    replace.delete()
    _head_to_head_insert(game, rows)


def _head_to_head_insert(game: str, rows: Iterable[tuple]) -> None:
    """Store ``rows`` (player, opponent, met, wins, losses, draws) of ``game``."""
    if connection.vendor == "postgresql":
        # A rebuild writes 250,000 rows for 500 players: a COPY, not bulk_create.
        columns = ", ".join(
            _column(HeadToHead, name)
            for name in ("player", "opponent", "game", "met", "wins", "losses", "draws")
        )
        with (
            connection.cursor() as cursor,
            cursor.copy(f'COPY "{HeadToHead._meta.db_table}" ({columns}) FROM STDIN') as copy,
        ):
            for player, other, *counts in rows:
                copy.write_row((player, other, game, *counts))
        return
    HeadToHead.objects.bulk_create(
        (
            HeadToHead(
                player_id=player, opponent_id=other, game=game, met=met, wins=wins, losses=losses, draws=draws
            )
            for player, other, met, wins, losses, draws in rows
        ),
        batch_size=1000,
    )


# -- a player merged (scorekeeper.matches.services.player_merge) ----------------------------
def rating_player_merged(*, player, into, games: Sequence[str], by=None) -> RecomputeJob | None:
    """The duplicate ``player``'s seats are ``into``'s now: his ratings go at once (he is listed
    nowhere), the head-to-head records of both in ``games`` are counted again at once, and the
    pools of ``games`` are rebuilt from nothing by a full recompute of them (a job, one pool
    task each, after the merge commits), as a staff recompute is."""
    PlayerRating.objects.filter(player=player).delete()
    for game in sorted(games):  # his records are the other's now
        # Under the pool's lock, as its event processing counts them (one writer of a game's).
        list(RatingPool.objects.select_for_update().filter(game=game).values_list("pk", flat=True))
        _head_to_head_recount_players(game, [player.pk, into.pk])
    if not games:
        return None
    return rating_recompute_request(by=by, games=games)
