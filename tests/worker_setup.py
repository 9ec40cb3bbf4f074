"""Imported by the integration test's celery worker (``-I tests.worker_setup``): registers the
test game there too, so the worker re-evaluates the same matches the test recorded, and a
test-only task slow enough to be killed mid-way.

``RATINGS_SLOW_REPLAY=<seconds>``: every ratings replay waits that long before its commit, so
that a test can kill the worker in the middle of a full recompute."""

import os
import time
from pathlib import Path

from celery import shared_task

from scorekeeper.matches import services
from scorekeeper.outbox.tasks import OutboxTask
from tests.fakes import install

install()


@shared_task(name="tests.slow_recompute", base=OutboxTask, acks_late=True)
def slow_recompute(match_id: int, marker: str, seconds: float = 120) -> dict:
    """A match recompute through the service that, on its first run, notes in ``marker`` that
    it started and then takes ``seconds`` (long enough for a test to kill its worker); a run
    again (the task redelivered) notes that too and goes straight on to the end."""
    path = Path(marker)
    first = not path.exists()
    with path.open("a") as notes:
        notes.write("started\n" if first else "again\n")
    if first:
        time.sleep(seconds)
    return services.match_recompute(match=match_id)


if os.environ.get("RATINGS_SLOW_REPLAY"):
    from ratings import services as ratings_services

    _replay = ratings_services._replay
    _pause = float(os.environ["RATINGS_SLOW_REPLAY"])

    def _slow_replay(pool, **kwargs):
        rated = _replay(pool, **kwargs)
        time.sleep(_pause)  # inside the pool's transaction: a kill now rolls it all back
        return rated

    ratings_services._replay = _slow_replay
