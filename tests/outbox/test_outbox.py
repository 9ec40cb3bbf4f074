"""The outbox: messages commit with their write, are handed to Celery after the commit, stay
pending when the broker is down (without making the caller wait), and the sweep hands them over
again; a task marks its message done only when it ran to the end."""

from __future__ import annotations

import time
from datetime import timedelta

import pytest
from celery import Celery
from django.db import transaction
from django.utils import timezone

from scorekeeper.matches.models import AuditEntry
from scorekeeper.matches.tasks import match_recompute
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_dispatch, outbox_enqueue, outbox_sweep

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tasks_in_process():
    """Tasks run in this process, as on `./run` without Redis (CI sets REDIS_URL: the real
    worker's round trip is tests/integration/test_outbox.py's)."""
    from scorekeeper.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


def test_a_message_is_dispatched_after_the_commit_and_done_when_its_task_ran(
    tally_match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        message = outbox_enqueue(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
        assert not AuditEntry.objects.filter(action="match_recompute").exists()  # not before the commit
    message.refresh_from_db()
    assert message.attempts == 1 and message.dispatched_at is not None and message.done_at is not None
    assert AuditEntry.objects.filter(action="match_recompute", match=tally_match).count() == 1


def test_a_message_rolls_back_with_its_write(tally_match, django_capture_on_commit_callbacks):
    with (
        django_capture_on_commit_callbacks(execute=True) as callbacks,
        pytest.raises(RuntimeError),
        transaction.atomic(),
    ):
        outbox_enqueue(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
        raise RuntimeError("the write failed")
    assert callbacks == [] and not OutboxMessage.objects.exists()


def test_a_broker_that_is_down_leaves_the_message_pending_and_answers_at_once(
    tally_match, django_capture_on_commit_callbacks
):
    def refuse(*args, **kwargs):
        raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with pytest.MonkeyPatch.context() as broker_down:
        broker_down.setattr(match_recompute, "apply_async", refuse)
        with django_capture_on_commit_callbacks(execute=True):
            message = outbox_enqueue(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
    message.refresh_from_db()
    assert message.pending and message.dispatched_at is None and message.attempts == 1
    assert "Connection refused" in message.last_error

    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=1))
    assert outbox_sweep() == {"due": 1, "dispatched": 1}
    message.refresh_from_db()
    assert message.done_at is not None and message.attempts == 2
    assert outbox_sweep() == {"due": 0, "dispatched": 0}


def test_the_sweep_leaves_young_and_recently_dispatched_messages_alone(tally_match, settings):
    now = timezone.now()
    young = OutboxMessage.objects.create(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
    in_flight = OutboxMessage.objects.create(
        task=match_recompute.name,
        kwargs={"match_id": tally_match.pk},
        created_at=now - timedelta(hours=1),
        dispatched_at=now - timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER - 30),
        attempts=1,
    )
    stale = OutboxMessage.objects.create(
        task=match_recompute.name,
        kwargs={"match_id": tally_match.pk},
        created_at=now - timedelta(hours=1),
        dispatched_at=now - timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER + 30),
        attempts=1,
    )
    assert outbox_sweep() == {"due": 1, "dispatched": 1}
    young.refresh_from_db()
    in_flight.refresh_from_db()
    stale.refresh_from_db()
    assert young.pending and in_flight.pending and not stale.pending


def test_a_task_that_fails_leaves_its_message_pending(tally_match, monkeypatch):
    from scorekeeper.matches import services

    def broken(**kwargs):
        raise ValueError("engine bug")

    monkeypatch.setattr(services, "match_recompute", broken)
    message = OutboxMessage.objects.create(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
    assert outbox_dispatch(messages=[message]) == 0
    message.refresh_from_db()
    assert message.pending and "engine bug" in message.last_error


def test_an_enqueue_with_the_broker_unreachable_fails_in_well_under_a_second():
    """The settings' short timeouts (no retries while a request waits), against a closed port."""
    probe = Celery("probe", set_as_current=False)
    probe.config_from_object("django.conf:settings", namespace="CELERY")
    probe.conf.update(
        broker_url="redis://127.0.0.1:1/0", result_backend="redis://127.0.0.1:1/0", task_always_eager=False
    )
    task = probe.task(name="probe.noop")(lambda: None)
    started = time.perf_counter()
    with pytest.raises(Exception):  # noqa: B017  kombu's OperationalError or Celery's RuntimeError
        task.apply_async(retry=False)
    assert time.perf_counter() - started < 1.0


def test_beat_sweeps_every_interval_and_drops_a_sweep_that_waited_longer(settings):
    assert settings.CELERY_BEAT_SCHEDULE["outbox-sweep"] == {
        "task": "outbox.sweep",
        "schedule": float(settings.OUTBOX_SWEEP_INTERVAL),
        "options": {"expires": float(settings.OUTBOX_SWEEP_INTERVAL)},
    }
