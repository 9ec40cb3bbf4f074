"""PostgreSQL: a full recompute outside a transaction marks its pending events processed on a
connection of its own while it rebuilds the pool (``bulk.Beside``), committed right after the
pool; an event's task that waited for the pool meanwhile finds nothing left to do."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, connections, transaction
from django.utils import timezone

from ratings import bulk
from ratings import services as ratings
from ratings.models import RatingEvent, RatingPool
from tests.ratings.test_services import snapshot

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="a connection of its own beside"),
    pytest.mark.django_db(transaction=True),
]


def _pending() -> int:
    return RatingEvent.objects.filter(processed_at__isnull=True).count()


def _mark_first_event() -> None:
    RatingEvent.objects.filter(pk=RatingEvent.objects.order_by("id").values("id")[:1]).update(
        kind="marked-beside"
    )


def test_a_recompute_outside_a_transaction_marks_its_events_beside_and_rates_as_the_events_do(play):
    play([0, 1], [10, 3])
    play([1, 2, 3], [2, 10, 5])
    play([3, 0], [4, 10])
    ratings.rating_events_process_all()
    incremental = snapshot()
    RatingEvent.objects.update(processed_at=None)  # as a freshly stored pool's: every event pending
    assert _pending() == 3

    outcome = ratings.rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))

    assert outcome == {"pool": "tally", "replayed": 3}
    assert _pending() == 0
    assert snapshot() == incremental


def test_the_writes_beside_commit_after_the_callers_transaction_and_not_before(play):
    play([0, 1], [10, 3])
    seen_before_commit = []
    with transaction.atomic():
        beside = bulk.Beside(_mark_first_event, name="test-beside")
        beside.written()
        seen_before_commit.append(RatingEvent.objects.get().kind)  # this connection: not yet
    beside.finish()

    assert seen_before_commit == ["finish"]
    assert beside.error is None
    assert RatingEvent.objects.get().kind == "marked-beside"


def test_the_writes_beside_roll_back_with_the_callers_transaction(play):
    play([0, 1], [10, 3])

    with pytest.raises(RuntimeError, match="the rebuild failed"):
        try:
            with transaction.atomic():
                beside = bulk.Beside(_mark_first_event, name="test-beside")
                beside.written()
                raise RuntimeError("the rebuild failed")
        finally:
            beside.finish()

    assert beside.error is None
    assert RatingEvent.objects.get().kind == "finish"


def test_a_failure_beside_is_reported_and_leaves_the_callers_transaction_alone(play):
    play([0, 1], [10, 3])

    def fail() -> None:
        raise ValueError("no such column")

    with transaction.atomic():
        beside = bulk.Beside(fail, name="test-beside")
        beside.written()
        RatingEvent.objects.update(kind="the caller's")
    beside.finish()

    assert isinstance(beside.error, ValueError)
    assert RatingEvent.objects.get().kind == "the caller's"


def test_an_events_task_waiting_meanwhile_finds_the_events_processed_and_replays_nothing(play):
    play([0, 1], [10, 3])
    play([1, 2], [4, 10])
    ratings.rating_events_process_all()
    RatingEvent.objects.update(processed_at=None)
    first = RatingEvent.objects.order_by("id").values_list("id", flat=True).first()
    # The marks are written and locked; the pool's transaction has not committed yet: a task of
    # one of those events starts now and waits for the pool's lock.
    task: dict = {}
    pool = RatingPool.objects.get(game="tally")

    def event_task() -> None:
        try:
            task["outcome"] = ratings.rating_event_process(event=first)
        finally:
            connections.close_all()

    with transaction.atomic():
        RatingPool.objects.select_for_update().get(pk=pool.pk)
        pending = list(RatingEvent.objects.values_list("id", flat=True))
        beside = bulk.Beside(lambda: ratings._mark_processed(pending, timezone.now()), name="test-beside")
        beside.written()
        waiting = threading.Thread(target=event_task)
        waiting.start()
        time.sleep(0.3)  # the task is past its first look (pending) and waits for the pool
        assert waiting.is_alive()
    beside.finish()
    waiting.join(timeout=30)

    assert task["outcome"] == {"event": first, "events": 0, "replayed": 0}
    assert _pending() == 0
