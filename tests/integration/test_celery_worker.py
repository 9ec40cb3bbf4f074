"""A real `celery worker` process on Redis does work through a service against the test database.

Needs PostgreSQL (the worker is another process, so it cannot see SQLite's in-memory test
database) and Redis: skipped with the reason otherwise, failed when REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import pytest
from django.db import connection

from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import hand_record
from scorekeeper.matches.tasks import match_recompute
from tests.conftest import require_services
from tests.fakes import hand
from tests.integration.slow_tasks import database_backend
from tests.integration.support import WorkerProcess, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def worker(tmp_path):
    require_services()
    process = WorkerProcess(tmp_path / "worker.log")
    process.start()
    try:
        yield process
    finally:
        process.stop()


def test_a_worker_recomputes_a_match_through_the_service_and_reports_back(worker, tally_match, user):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)
    # As if an older engine had stored a wrong state: the recompute must replace it.
    Hand.objects.filter(pk=stored.pk).update(
        state_after={"hands": 1, "totals": [9, 9], "last_dealer": 0, "over": False}
    )

    result = match_recompute.apply_async(args=[tally_match.pk], queue=worker.queue)
    try:
        outcome = result.get(timeout=90)
    except Exception as exc:
        pytest.fail(f"no answer from the worker ({exc!r})\n{worker.log()}")

    assert outcome["match"] == tally_match.pk and outcome["changed"] == 1
    first = Hand.objects.get(match=tally_match, number=1, status="valid")
    assert first.version == 2 and first.state_after["totals"] == [3, 1]
    match = Match.objects.get(pk=tally_match.pk)
    assert match.version == outcome["version"] and match.state["totals"] == [5, 3]
    entry = AuditEntry.objects.get(match=tally_match, action="match_recompute")
    assert entry.actor is None and entry.payload == {"changed": 1}


def test_the_worker_keeps_its_database_connection_between_tasks_and_drops_one_that_broke(worker):
    def backend() -> int:
        result = database_backend.apply_async(queue=worker.queue)
        try:
            return result.get(timeout=90)
        except Exception as exc:
            pytest.fail(f"no answer from the worker ({exc!r})\n{worker.log()}")

    first = backend()
    # Celery's own default would close it after each task: a new PostgreSQL session a rating.
    assert backend() == first == backend()

    # PostgreSQL ends that session (a restart, an administrator): the next task must not fail on
    # the dead connection, but get a new one, as a request would (settings.CONN_HEALTH_CHECKS).
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [first])

    def gone() -> bool:
        with connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [first])
            return cursor.fetchone()[0] == 0

    wait_until(gone, timeout=10, what=f"backend {first} to end")
    second = backend()
    assert second != first
    assert backend() == second
