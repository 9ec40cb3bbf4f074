"""Imported by the integration test's celery worker (``-I tests.integration.worker_setup``): registers the
test game there too, so the worker re-evaluates the same matches the test recorded, and a
test-only task slow enough to be killed mid-way.

``RATINGS_SLOW_REPLAY=<seconds>``: every ratings replay waits that long before its commit, so
that a test can kill the worker in the middle of a full recompute. With
``RATINGS_SLOW_REPLAY_UNTIL=<path>`` too, it waits only until that file exists (at most as long),
so that a test decides when the replay commits."""

import os
import time

import tests.integration.slow_tasks  # noqa: F401  the test-only task, registered in the worker
from tests.fakes import install

install()


if os.environ.get("RATINGS_SLOW_REPLAY"):
    from ratings import replay

    _pause = float(os.environ["RATINGS_SLOW_REPLAY"])

    _release = os.environ.get("RATINGS_SLOW_REPLAY_UNTIL")

    def _slowed(replay_function):
        def slow_replay(pool, **kwargs):
            rated = replay_function(pool, **kwargs)
            # Inside the pool's transaction, its row locked: a kill now rolls it all back.
            deadline = time.monotonic() + _pause
            while time.monotonic() < deadline and not (_release and os.path.exists(_release)):
                time.sleep(0.05 if _release else max(0.0, deadline - time.monotonic()))
            return rated

        return slow_replay

    # Both replays (a full rebuild and one from an event on), as ratings.services calls them.
    replay.rebuild = _slowed(replay.rebuild)
    replay.replay_from = _slowed(replay.replay_from)
