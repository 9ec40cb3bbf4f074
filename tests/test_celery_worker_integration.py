"""A real `celery worker` process on Redis does work through a service against the test database.

Needs PostgreSQL (the worker is another process, so it cannot see SQLite's in-memory test
database) and Redis: skipped with the reason otherwise, failed when REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path
from urllib.parse import quote

import pytest
from django.db import connection

from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import hand_record
from scorekeeper.matches.tasks import match_recompute
from tests.conftest import require_services
from tests.fakes import hand

ROOT = Path(__file__).resolve().parent.parent

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_database_url() -> str:
    """A DATABASE_URL for the test database pytest-django created (test_<name>)."""
    s = connection.settings_dict
    auth = quote(s["USER"] or "", safe="")
    if s["PASSWORD"]:
        auth += ":" + quote(s["PASSWORD"], safe="")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


test_database_url.__test__ = False  # a helper, not a test


@pytest.fixture
def worker(tmp_path):
    """A celery worker on its own queue, so no other worker on the same Redis takes the task."""
    require_services()
    queue = f"it-{uuid.uuid4().hex[:12]}"
    env = {
        **os.environ,
        "DATABASE_URL": test_database_url(),
        "DJANGO_SETTINGS_MODULE": "scorekeeper.settings",
        "PYTHONPATH": str(ROOT),
    }
    log = open(tmp_path / "worker.log", "w+")  # noqa: SIM115  closed below
    process = subprocess.Popen(
        [
            sys.executable, "-m", "celery", "-A", "scorekeeper", "worker",
            "--include", "tests.worker_setup",  # registers the tally test game in the worker
            "--pool", "solo", "--queues", queue, "--hostname", f"{queue}@%h",
            "--without-gossip", "--without-mingle", "--loglevel", "INFO",
        ],
        cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
    )  # fmt: skip
    try:
        yield queue, process, log
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


def worker_log(log) -> str:
    log.flush()
    log.seek(0)
    return log.read()[-3000:]


def test_a_worker_recomputes_a_match_through_the_service_and_reports_back(worker, tally_match, user):
    queue, process, log = worker
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)
    # As if an older engine had stored a wrong state: the recompute must replace it.
    Hand.objects.filter(pk=stored.pk).update(
        state_after={"hands": 1, "totals": [9, 9], "last_dealer": 0, "over": False}
    )

    result = match_recompute.apply_async(args=[tally_match.pk], queue=queue)
    try:
        outcome = result.get(timeout=90)
    except Exception as exc:
        pytest.fail(f"no answer from the worker ({exc!r}); exit={process.poll()}\n{worker_log(log)}")

    assert outcome["match"] == tally_match.pk and outcome["changed"] == 1
    first = Hand.objects.get(match=tally_match, number=1, status="valid")
    assert first.version == 2 and first.state_after["totals"] == [3, 1]
    match = Match.objects.get(pk=tally_match.pk)
    assert match.version == outcome["version"] and match.state["totals"] == [5, 3]
    entry = AuditEntry.objects.get(match=tally_match, action="match_recompute")
    assert entry.actor is None and entry.payload == {"changed": 1}
