"""The site's settings, its tasks on a queue of this run's own and its static files in a
folder of the run's own, for ``benchmarks/club_night.py``.

The gunicorn workers hand the outbox's messages to that queue and the benchmark's celery
worker takes only it: a worker of someone else's on the same Redis cannot take them, and
messages an earlier, interrupted run left in Redis (naming rows of a database since dropped)
do not reach this run's worker.
"""

import os
from pathlib import Path

from scorekeeper.settings import *  # noqa: F403

CELERY_TASK_DEFAULT_QUEUE = os.environ["CLUB_NIGHT_QUEUE"]
# The pages name their hashed files from collectstatic's manifest (production mode): the
# benchmark collects them into a temporary folder, not into the checkout's staticfiles/.
STATIC_ROOT = Path(os.environ["CLUB_NIGHT_STATIC"])
