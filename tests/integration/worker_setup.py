"""Imported by the integration test's celery worker (``-I tests.integration.worker_setup``): registers the
test game there too, so the worker re-evaluates the same matches the test recorded, and a
test-only task slow enough to be killed mid-way.

``RATINGS_SLOW_REPLAY=<seconds>``: every ratings replay waits that long before its commit, so
that a test can kill the worker in the middle of a full recompute."""

import os
import time

import tests.integration.slow_tasks  # noqa: F401  the test-only task, registered in the worker
from tests.fakes import install

install()


if os.environ.get("RATINGS_SLOW_REPLAY"):
    from ratings import services as ratings_services

    _pool_rate_from = ratings_services._pool_rate_from
    _pause = float(os.environ["RATINGS_SLOW_REPLAY"])

    def _slow_replay(pool, **kwargs):
        rated = _pool_rate_from(pool, **kwargs)
        time.sleep(_pause)  # inside the pool's transaction: a kill now rolls it all back
        return rated

    ratings_services._pool_rate_from = _slow_replay
