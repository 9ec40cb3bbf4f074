"""``outbox_enqueue_group``: messages stored with the write, handed to Celery as one group after
the commit; with the broker down they stay pending for the sweep, which hands them over one by one."""

from __future__ import annotations

from datetime import timedelta

import pytest
from celery import group
from django.utils import timezone

from ratings.models import RatingPool, RecomputeJob
from ratings.services import rating_recompute_request
from scorekeeper.matches.services import hand_record
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_sweep
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def tasks_in_process():
    """Tasks run in this process, as on `./run` without Redis."""
    from scorekeeper.celery import app

    before = app.conf.task_always_eager, app.conf.task_eager_propagates
    app.conf.task_always_eager = app.conf.task_eager_propagates = True
    yield
    app.conf.task_always_eager, app.conf.task_eager_propagates = before


@pytest.fixture
def finished(tally_match, user):
    hand_record(match=tally_match, record=hand([10, 2]), by=user)
    return tally_match


def test_a_recompute_group_runs_after_the_commit_and_marks_each_message_done(
    finished, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        job = rating_recompute_request(by=None)
    job.refresh_from_db()
    assert (job.status, job.done, job.total) == ("done", 1, 1)
    [message] = OutboxMessage.objects.filter(task="ratings.pool_recompute")
    assert message.done_at is not None and message.attempts == 1
    assert RatingPool.objects.get(game="tally").matches == 1


def test_with_the_broker_down_the_group_stays_pending_and_the_sweep_hands_it_over(
    finished, django_capture_on_commit_callbacks, monkeypatch
):
    def refuse(self, *args, **kwargs):
        raise ConnectionRefusedError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    with monkeypatch.context() as broker_down:
        broker_down.setattr(group, "apply_async", refuse)
        with django_capture_on_commit_callbacks(execute=True):
            job = rating_recompute_request(by=None)
    [message] = OutboxMessage.objects.filter(task="ratings.pool_recompute")
    assert message.pending and message.dispatched_at is None and "Connection refused" in message.last_error
    assert RecomputeJob.objects.get(pk=job.pk).done == 0

    OutboxMessage.objects.filter(pk=message.pk).update(created_at=timezone.now() - timedelta(minutes=1))
    outbox_sweep()
    message.refresh_from_db()
    assert message.done_at is not None
    assert RecomputeJob.objects.get(pk=job.pk).status == "done"
