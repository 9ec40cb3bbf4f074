"""Celery that loses nothing, with a real worker on a private Redis (tests/integration/support.py):

- Redis stopped: the admin's recompute action answers at once with its message, the work waits
  in the outbox, and once Redis is back the sweep hands it over and the worker runs it;
- a worker killed with SIGKILL mid-task: the task, acknowledged only when it ends, goes back to
  Redis (after the broker's visibility timeout, short here) and another worker runs it to the end.

Needs PostgreSQL (the worker is another process) and redis-server: skipped with the reason
otherwise, failed when REQUIRE_SERVICES=1 (CI).
"""

from __future__ import annotations

import time

import pytest
from django.urls import reverse

import tests.integration.slow_tasks  # noqa: F401  the test-only task, known here too to be enqueued
from scorekeeper.matches.models import AuditEntry
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_enqueue, outbox_sweep
from tests.integration import support as integration
from tests.integration.support import WorkerProcess, celery_app_on, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


private_redis = integration.private_redis  # the fixture


@pytest.fixture
def redis(private_redis):
    """A Redis of the test's own, which it may stop and start, and this process's Celery on it."""
    with celery_app_on(private_redis.url):
        yield private_redis


@pytest.fixture
def workers(tmp_path, redis):
    started = []

    def start(name: str, **env) -> WorkerProcess:
        worker = WorkerProcess(tmp_path / f"{name}.log", broker_url=redis.url, queue="celery", env=env)
        worker.start()
        started.append(worker)
        return worker

    yield start
    for worker in started:
        worker.stop()


def wait_for(condition, timeout: float, what: str, *workers: WorkerProcess):
    return wait_until(
        condition,
        timeout=timeout,
        interval=0.25,
        what=lambda: f"{what}\n" + "\n".join(w.log() for w in workers),
    )


def test_a_recompute_queued_while_redis_is_down_runs_once_it_is_back(
    redis, workers, admin_client, tally_match, settings
):
    changelist = reverse("admin:matches_match_changelist")
    admin_client.get(changelist)  # the page once, so that the timings below are the action's
    redis.stop()
    timings = []
    for _ in range(2):  # the first enqueue also loads the broker's transport
        started = time.perf_counter()
        action = {"action": "recompute", "_selected_action": [tally_match.pk]}
        response = admin_client.post(changelist, action)
        timings.append(time.perf_counter() - started)
        assert response.status_code == 302
        assert "1 recompute task queued." in admin_client.get(changelist).content.decode()
    print(f"the recompute action answered in {timings[0] * 1000:.0f} ms, then {timings[1] * 1000:.0f} ms")
    assert timings[1] < 1, f"the admin waited {timings[1]:.2f} s on a Redis that is down"
    OutboxMessage.objects.order_by("pk").last().delete()  # the second one: the test follows one

    message = OutboxMessage.objects.get()
    assert message.pending and message.dispatched_at is None and message.attempts == 1
    assert "Connection refused" in message.last_error or "Error" in message.last_error

    redis.start()
    worker = workers("worker")
    settings.OUTBOX_GRACE = 0
    assert outbox_sweep() == {"due": 1, "dispatched": 1}

    wait_for(
        lambda: OutboxMessage.objects.filter(pk=message.pk, done_at__isnull=False).exists(),
        120,
        "the recompute did not run",
        worker,
    )
    assert AuditEntry.objects.filter(action="match_recompute", match=tally_match).count() == 1
    assert outbox_sweep() == {"due": 0, "dispatched": 0}


def test_a_task_whose_worker_is_killed_mid_way_is_redelivered_and_run_to_the_end(
    redis, workers, tally_match, tmp_path
):
    marker = tmp_path / "runs.txt"
    short = {"CELERY_VISIBILITY_TIMEOUT": "3"}  # Redis hands an unacknowledged task on after 3 s
    first = workers("first", **short)
    kwargs = {"match_id": tally_match.pk, "marker": str(marker)}
    message = outbox_enqueue(task="tests.slow_recompute", kwargs=kwargs)
    wait_for(marker.exists, 120, "the first worker did not start the task", first)

    first.kill()  # SIGKILL, mid-task: nothing acknowledged, nothing marked done
    message.refresh_from_db()
    assert message.pending and not AuditEntry.objects.filter(action="match_recompute").exists()

    second = workers("second", **short)
    wait_for(
        lambda: OutboxMessage.objects.filter(pk=message.pk, done_at__isnull=False).exists(),
        120,
        "the task was not redelivered and run to the end",
        second,
    )
    assert marker.read_text().split() == ["started", "again"]
    assert AuditEntry.objects.filter(action="match_recompute", match=tally_match).count() == 1
