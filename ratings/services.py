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

Each entry point orchestrates the stages, one module each: ``raters`` (the model served per
pool), ``pool_reading`` (the pool's matches in its order), ``replay`` (``rebuild`` a pool,
``replay_from`` a place on, on the plumbing of ``bulk`` and ``history_table``). The reads
are in ``ratings/reads/`` (a profile's head-to-head among them, read from the seats).
"""

from __future__ import annotations

import functools
import logging
from collections.abc import Sequence
from typing import Any

from django.db import connection, transaction
from django.db.models import F
from django.utils import timezone

from scorekeeper.matches.models import Match
from scorekeeper.outbox.services import outbox_enqueue, outbox_enqueue_group

from . import bulk, fitting, replay
from .engine import MatchOutcome
from .models import PlayerRating, RatingEvent, RatingPool, RecomputeJob
from .pool_reading import places_now, places_rated, pool_matches

log = logging.getLogger(__name__)

EVENT_TASK = "ratings.event_process"
POOL_RECOMPUTE_TASK = "ratings.pool_recompute"


def rating_pool_fit(*, game: str, min_matches: int | None = None) -> dict[str, Any]:
    """Fit the model's parameters to the pool's own matches (``ratings.fitting.fit``: a few
    candidates, the best by Brier score on the later matches, and the pool's draw share),
    store them with the pool, and rebuild the pool with them (a full recompute of it). A pool
    too small keeps the defaults. Returns what the fit found."""
    pool = _pool(game)
    outcomes = [
        MatchOutcome(m.match_id, m.sides, m.places, getattr(m, "day", None), getattr(m, "scores", None))
        for m in pool_matches(game)
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
        events = RatingEvent.objects.filter(game=game, processed_at__isnull=True)
        if from_event is not None:
            events = events.filter(id__gte=from_event)
        # Locked: a full recompute marks its events processed on a connection of its own and
        # commits them just after the pool (``rating_pool_recompute``); locking waits for that
        # commit and then leaves them out, where a plain read saw them pending and replayed
        # the pool from the first of them for nothing.
        pending = list(events.order_by("id").select_for_update().values_list("id", "match_id"))
        if not pending:
            return {"events": 0, "replayed": 0}
        matches = {match for _, match in pending}
        places = [*places_rated(pool, matches), *places_now(game, matches).items()]
        start = min((at, match) for match, at in places) if places else None
        replayed = replay.replay_from(pool, start=start, changed=matches) if start else 0
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
        games = [
            *RatingEvent.objects.values_list("game", flat=True).distinct(),
            *RatingPool.objects.values_list("game", flat=True),
        ]
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
    marking: bulk.Beside | None = None
    try:
        with transaction.atomic():
            pool = RatingPool.objects.select_for_update().get(pk=pool_pk)
            if job_pk is not None and pool.recomputed_by_id == job_pk:
                return {"pool": pool.game, "skipped": True}
            # Their ids only: a freshly stored pool's million events as pairs took 120 MB, as ids 40.
            pending = list(
                RatingEvent.objects.filter(game=pool.game, processed_at__isnull=True).values_list(
                    "id", flat=True
                )
            )
            if read_aside and pending:
                # Marked processed on a connection of their own while the pool is rebuilt, and
                # committed right after it: a freshly stored pool's million events took 10 s to
                # mark after the rebuild, a fifth of the import's recompute (issue 32). Until
                # then they stay locked, so that an event's task waiting for the pool finds
                # them processed (``rating_pool_update`` locks what it reads as pending).
                marking = bulk.Beside(
                    functools.partial(_mark_processed, pending, timezone.now()),
                    name=f"ratings-mark-{pool.game}",
                )
            replayed = replay.rebuild(pool, read_aside=read_aside)
            now = timezone.now()
            if marking is None:
                _mark_processed(pending, now)
            else:
                marking.written()
            pool.recomputed_by_id, pool.recomputed_at = job_pk, now
            pool.save(update_fields=["recomputed_by", "recomputed_at"])
            if job_pk is not None:
                RecomputeJob.objects.filter(pk=job_pk).update(done=F("done") + 1)
                RecomputeJob.objects.filter(
                    pk=job_pk, done__gte=F("total"), status=RecomputeJob.Status.RUNNING
                ).update(status=RecomputeJob.Status.DONE, finished_at=now)
    finally:
        if marking is not None:
            marking.finish()
    if marking is not None and marking.error is not None:
        # The ratings stand; the events stay pending and their tasks (or the sweep) find
        # nothing left to change but their mark.
        log.error("pool %s: its events were not marked processed: %r", pool.game, marking.error)
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


def _pool(game: str) -> RatingPool:
    pool, _ = RatingPool.objects.get_or_create(game=game)
    return pool


# -- a player merged (scorekeeper.matches.services.player_merge) ----------------------------
def rating_player_merged(*, player, into, games: Sequence[str], by=None) -> RecomputeJob | None:
    """The duplicate ``player``'s seats are ``into``'s now: his ratings go at once (he is listed
    nowhere), and the pools of ``games`` are rebuilt from nothing by a full recompute of them (a
    job, one pool task each, after the merge commits), as a staff recompute is."""
    PlayerRating.objects.filter(player=player).delete()
    if not games:
        return None
    return rating_recompute_request(by=by, games=games)
