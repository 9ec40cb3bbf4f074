"""Every rating event is processed within the recovery bound of any single fault (issue 23;
docs/ratings.md, "Recovery"), with real processes: the test database on PostgreSQL, a Redis of
the test's own, celery workers (solo pool) and a separate ``celery beat`` that sends the sweeps.

- Redis restarted with its queue lost, while one event's message waits in the queue behind a
  busy worker and another's could not be handed over at all;
- a worker SIGKILLed in the middle of the event's replay (its pool's row locked), a new worker
  started;
- a worker frozen (SIGSTOP) in the middle of the replay, then killed, a new worker started;
- a message handed over again while its first delivery still lives: the sweep leaves the task
  alone while it beats, hands it over once its worker freezes, and the two runs, serialised by
  the pool's lock, give one result.

Each measures the time from the fault to the event's processing and checks it against the bound
of the intervals in force (scorekeeper/outbox/checks.py), then checks that the ratings are those a
recompute from nothing gives, with no history row twice: nothing lost, nothing processed twice
to a different result. Redis's own redelivery (``CELERY_VISIBILITY_TIMEOUT``, 900 s) never comes
into it: the outbox does the recovering.

The workers and beat run with short intervals, so that CI waits seconds. With
``RECOVERY_PRODUCTION_INTERVALS=1`` they run with production's defaults instead (about six
minutes in all; run once by hand, the figures are in docs/ratings.md).
"""

from __future__ import annotations

import os
import time

import pytest
import redis as redis_client
from django.db import transaction
from django.test import override_settings
from django.utils import timezone

import tests.integration.slow_tasks  # noqa: F401  the test-only slow task, known here to be enqueued
from ratings.backtest import synthetic_db
from ratings.models import PlayerRating, RatingEvent, RatingHistory, RatingPool
from ratings.services import EVENT_TASK, rating_events_process_all, rating_pool_recompute
from scorekeeper.outbox import checks
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_enqueue
from tests.conftest import other_connection
from tests.integration import support as integration
from tests.integration.support import BeatProcess, WorkerProcess, celery_app_on, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
private_redis = integration.private_redis  # the fixture

PRODUCTION = os.environ.get("RECOVERY_PRODUCTION_INTERVALS") == "1"
#: The outbox's intervals in the workers and beat (the environment they read them from).
INTERVALS = (
    {}
    if PRODUCTION
    else {
        "OUTBOX_SWEEP_INTERVAL": 2, "OUTBOX_GRACE": 1, "OUTBOX_HEARTBEAT": 1,
        "OUTBOX_REDELIVER_AFTER": 4, "OUTBOX_TASK_BUDGET": 5,
    }
)  # fmt: skip


def bound() -> dict[str, float]:
    """The bound's terms for the intervals the workers run with."""
    with override_settings(**INTERVALS):
        return checks.recovery_bound()


LIMITS = bound()
#: After a worker's death the next sweep after the redelivery window hands the message over.
WORKER_FAULT_BOUND = LIMITS["redeliver_after"] + LIMITS["sweep_interval"] + LIMITS["task_budget"]
#: How long Redis stays down in its restart: the workers and beat try to reach it meanwhile.
OUTAGE = 5.0
#: Long enough for any of these tests' waits, short enough to fail rather than hang.
PATIENCE = LIMITS["bound"] + 60


@pytest.fixture
def redis(private_redis):
    with celery_app_on(private_redis.url):
        yield private_redis


@pytest.fixture
def processes(tmp_path, redis):
    """Start workers and beat on the test's Redis, with the test's intervals; all ended after."""
    started: list[WorkerProcess] = []
    env = {name: str(value) for name, value in INTERVALS.items()}

    def worker(name: str, **extra) -> WorkerProcess:
        process = WorkerProcess(
            tmp_path / f"{name}.log", broker_url=redis.url, queue="celery", env={**env, **extra}
        )
        process.start()
        started.append(process)
        return process

    def beat() -> BeatProcess:
        process = BeatProcess(tmp_path / "beat.log", broker_url=redis.url, queue="celery", env=env)
        process.start()
        started.append(process)
        return process

    yield worker, beat
    for process in started:
        if process.process is not None:
            process.resume()  # a frozen one takes no SIGTERM
            process.stop()


def snapshot():
    ratings = sorted(
        PlayerRating.objects.values_list(
            "pool__game", "player_id", "mu", "sigma", "conservative", "matches", "wins", "last_played_at"
        )
    )
    history = sorted(
        RatingHistory.objects.values_list(
            "pool__game", "player_id", "match_id", "played_at", "side", "place", "mu_before",
            "sigma_before", "mu_after", "sigma_after", "win_probability",
        )
    )  # fmt: skip
    return ratings, history


def assert_as_a_recompute_gives(*stopped: WorkerProcess) -> None:
    """With the workers stopped: every event processed, every message done, one history row per
    player and rated match, and the ratings a recompute from nothing gives."""
    for process in stopped:
        process.stop()
    assert not RatingEvent.objects.filter(processed_at__isnull=True).exists()
    assert not OutboxMessage.objects.filter(task=EVENT_TASK, done_at__isnull=True).exists()
    recovered = snapshot()
    rows = [(game, player, match) for game, player, match, *_ in recovered[1]]
    assert len(rows) == len(set(rows)), "a history row written twice"
    for pool in RatingPool.objects.all():
        rating_pool_recompute(pool=pool.pk)
    assert snapshot() == recovered


def baseline(play) -> None:
    """A pool with a few rated matches (rated here; their messages reach the worker as no-ops)."""
    play([0, 1], [10, 3])
    play([1, 2, 3], [2, 10, 5])
    play([3, 0], [10, 9])
    rating_events_process_all()


def pool_locked() -> bool:
    """The tally pool's row is locked: a worker is inside its replay's transaction."""
    import psycopg

    with other_connection() as probe:
        try:
            probe.execute(
                f'SELECT 1 FROM "{RatingPool._meta.db_table}" WHERE "game" = %s FOR UPDATE NOWAIT', ["tally"]
            )
        except psycopg.errors.LockNotAvailable:
            return True
    return False


def wait_replay(worker: WorkerProcess) -> None:
    wait_until(
        pool_locked, timeout=PATIENCE, interval=0.2, what=lambda: f"the replay to start\n{worker.log()}"
    )


def message_of(event: RatingEvent) -> OutboxMessage:
    return OutboxMessage.objects.get(task=EVENT_TASK, kwargs={"event_id": event.pk})


def waiting_on_a_lock() -> int:
    with other_connection() as probe:
        row = probe.execute(
            "SELECT count(*) FROM pg_stat_activity"
            " WHERE datname = current_database() AND wait_event_type = 'Lock'"
        ).fetchone()
    return row[0]


def processed(*events: RatingEvent) -> float | None:
    """The (wall clock) time by which all ``events`` were processed, or None."""
    times = RatingEvent.objects.filter(pk__in=[e.pk for e in events]).values_list("processed_at", flat=True)
    done = [t for t in times if t is not None]
    return max(t.timestamp() for t in done) if len(done) == len(times) else None


def wait_processed(*events: RatingEvent, what: str, logs) -> float:
    return wait_until(
        lambda: processed(*events), timeout=PATIENCE, interval=0.1,
        what=lambda: f"{what}\n" + "\n".join(p.log() for p in logs),
    )  # fmt: skip


def report(fault: str, took: float, allowed: float, **more: float) -> None:
    extra = "".join(f", {name.replace('_', ' ')} {value:.1f} s" for name, value in more.items())
    intervals = "production's intervals" if PRODUCTION else "the test's short intervals"
    print(f"\n{fault}: processed {took:.1f} s after (bound {allowed:.0f} s{extra}; {intervals})")


def test_redis_restarted_with_its_queue_lost_every_pending_event_is_processed_within_the_bound(
    redis, processes, play, tmp_path
):
    worker, beat = processes
    baseline(play)
    # A second pool (of piquet), so that each event's recovery is its own: two pending events
    # of one pool would be processed by whichever run comes first.
    piquet = synthetic_db.players(2)
    synthetic_db.store(game="piquet", tables=[([0, 1], [1, 2]), ([1, 0], [1, 2])], player_ids=piquet)
    rating_events_process_all()
    sweeper, first = beat(), worker("worker")
    first.wait_ready()
    # Busy with a slow task, the worker leaves the next message waiting in Redis's queue.
    busy = play([0, 2], [10, 0])
    marker = tmp_path / "busy.txt"
    slow = {"match_id": busy.pk, "marker": str(marker), "seconds": 5}
    outbox_enqueue(task="tests.slow_recompute", kwargs=slow)
    rating_events_process_all()
    wait_until(marker.exists, timeout=PATIENCE, what=lambda: f"the slow task to start\n{first.log()}")
    queued = RatingEvent.objects.get(match=play([1, 3], [10, 4]))
    assert message_of(queued).dispatched_at is not None
    assert redis_client.Redis.from_url(redis.url).llen("celery") >= 1

    redis.stop()  # and with it the queue: the server keeps nothing on disk
    down = time.time()
    # A piquet match finishes meanwhile: its event's message cannot be handed over.
    [later] = synthetic_db.store(
        game="piquet", tables=[([0, 1], [2, 1])], player_ids=piquet, start=timezone.now()
    )
    # The stored match's finish event is pending: its message, as rating_event_record enqueues it
    # (a second event of the same finish would leave this one to a task it never gets).
    unsent = RatingEvent.objects.get(match_id=later)
    with transaction.atomic():
        outbox_enqueue(task=EVENT_TASK, kwargs={"event_id": unsent.pk})
    message = message_of(unsent)
    assert message.dispatched_at is None and message.last_error
    time.sleep(OUTAGE)
    redis.start()
    back = time.time()

    done = wait_processed(queued, unsent, what="the events after Redis's restart", logs=[first, sweeper])
    took = done - back
    each = {"lost_from_the_queue": processed(queued) - back, "never_handed_over": processed(unsent) - back}
    report("Redis restarted", took, LIMITS["bound"], Redis_down=back - down, **each)
    assert took <= LIMITS["bound"]
    # Both handed over again by the sweep: the one from the lost queue, the one never sent.
    assert message_of(queued).attempts >= 2 and message_of(unsent).attempts >= 2
    wait_until(lambda: not OutboxMessage.objects.filter(done_at__isnull=True).exists(), timeout=PATIENCE,
               what=lambda: f"every message done\n{first.log()}")  # fmt: skip
    assert_as_a_recompute_gives(first, sweeper)


def test_a_worker_killed_in_the_middle_of_the_replay_the_event_is_processed_within_the_bound(processes, play):
    worker, beat = processes
    baseline(play)
    sweeper, first = beat(), worker("first", RATINGS_SLOW_REPLAY="600")
    event = RatingEvent.objects.get(match=play([0, 2], [10, 0]))
    wait_replay(first)

    first.kill()  # SIGKILL: its transaction rolls back, its message stays unacknowledged in Redis
    killed = time.time()
    second = worker("second")
    startup = second.wait_ready()

    took = wait_processed(event, what="the event after the kill", logs=[second, sweeper]) - killed
    report("worker SIGKILLed", took, WORKER_FAULT_BOUND, new_worker_ready=startup)
    assert took <= WORKER_FAULT_BOUND + startup
    assert message_of(event).attempts >= 2  # handed over again by the sweep
    assert_as_a_recompute_gives(second, sweeper)


def test_a_worker_frozen_then_killed_in_the_middle_of_the_replay_the_event_is_processed_within_the_bound(
    processes, play
):
    worker, beat = processes
    baseline(play)
    sweeper, first = beat(), worker("first", RATINGS_SLOW_REPLAY="600")
    event = RatingEvent.objects.get(match=play([0, 2], [10, 0]))
    wait_replay(first)

    first.freeze()
    frozen = time.time()
    time.sleep(LIMITS["redeliver_after"] / 2)  # stuck a while: no heartbeat, the pool still locked
    assert pool_locked()
    first.kill()
    killed = time.time()
    second = worker("second")
    startup = second.wait_ready()

    done = wait_processed(event, what="the event after the freeze and the kill", logs=[second, sweeper])
    took = done - killed
    report("worker frozen, then SIGKILLed", took, WORKER_FAULT_BOUND, from_the_freeze=done - frozen,
           new_worker_ready=startup)  # fmt: skip
    assert took <= WORKER_FAULT_BOUND + startup
    assert_as_a_recompute_gives(second, sweeper)


def test_a_message_handed_over_again_while_its_task_lives_gives_one_result(processes, play, tmp_path):
    worker, beat = processes
    baseline(play)
    release = tmp_path / "release"
    sweeper = beat()
    first = worker("first", RATINGS_SLOW_REPLAY="600", RATINGS_SLOW_REPLAY_UNTIL=str(release))
    event = RatingEvent.objects.get(match=play([0, 2], [10, 0]))
    message = message_of(event)
    wait_replay(first)
    second = worker("second")
    second.wait_ready()

    # Alive: however long the task runs, it beats, and the sweep leaves it alone.
    time.sleep(2 * LIMITS["redeliver_after"] + LIMITS["sweep_interval"])
    message.refresh_from_db()
    assert message.attempts == 1 and message.alive_at is not None and message.done_at is None

    # Frozen: the beats stop, the sweep hands the message over, and the second worker's run
    # waits on the pool's lock, which the frozen one holds.
    first.freeze()
    wait_until(lambda: OutboxMessage.objects.get(pk=message.pk).attempts == 2, timeout=PATIENCE,
               what=lambda: f"the sweep to hand it over\n{second.log()}\n{sweeper.log()}")  # fmt: skip
    wait_until(waiting_on_a_lock, timeout=PATIENCE, what=lambda: f"the second run to wait\n{second.log()}")
    assert processed(event) is None

    # Thawed: the first run commits, and the second finds the event processed.
    release.touch()
    first.resume()
    wait_processed(event, what="the first run to commit", logs=[first])
    wait_until(lambda: "'events': 0" in second.log(), timeout=PATIENCE,
               what=lambda: f"the second run to end\n{second.log()}")  # fmt: skip
    assert "'events': 1, 'replayed': 1" in first.log()
    assert_as_a_recompute_gives(first, second, sweeper)
