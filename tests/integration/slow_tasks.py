"""Test-only Celery tasks, registered in the worker by tests/integration/worker_setup.py and in the
test process by importing this module (which, unlike worker_setup, leaves the games' registry
alone): one slow enough to kill its worker mid-way (tests/integration/test_outbox.py), one that
names the PostgreSQL backend serving the worker (tests/integration/test_celery_worker.py)."""

import time
from pathlib import Path

from celery import shared_task
from django.db import connection

from scorekeeper.matches import services
from scorekeeper.outbox.tasks import OutboxTask


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


@shared_task(name="tests.database_backend")
def database_backend() -> int:
    """The process id of the PostgreSQL backend that serves the worker's database connection."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_backend_pid()")
        return cursor.fetchone()[0]
