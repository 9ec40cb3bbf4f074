"""Writes to the outbox (HackSoft style: keyword-only ``outbox_<action>``)."""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Iterable, Iterator, Sequence
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import DatabaseError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone

from .models import OutboxMessage

log = logging.getLogger(__name__)


def outbox_enqueue(*, task: str, kwargs: dict[str, Any] | None = None) -> OutboxMessage:
    """Store a message for ``task`` in the caller's transaction; hand it to Celery after the commit.

    The hand-over never raises: when the broker cannot take it, the message stays pending for
    ``outbox_sweep``.
    """
    message = OutboxMessage.objects.create(task=task, kwargs=kwargs or {})
    transaction.on_commit(lambda: outbox_dispatch(messages=[message]))
    return message


def outbox_enqueue_group(*, task: str, kwargs_list: Sequence[dict[str, Any]]) -> list[OutboxMessage]:
    """One message per ``kwargs_list`` entry, stored in the caller's transaction; after the commit
    they are handed to Celery together as one ``group`` (a fan-out that spreads over the workers).

    Each member marks its own message done; a member lost with its worker stays pending and the
    sweep hands it over again on its own.
    """
    messages = OutboxMessage.objects.bulk_create([OutboxMessage(task=task, kwargs=kw) for kw in kwargs_list])
    if messages:
        transaction.on_commit(lambda: outbox_dispatch_group(messages=messages))
    return messages


def outbox_dispatch_group(*, messages: Sequence[OutboxMessage]) -> int:
    """Hand ``messages`` to the broker as one Celery group; how many it took (all or none)."""
    from celery import group

    from scorekeeper.celery import app

    ids = [m.pk for m in messages]
    try:
        fan_out = group(app.tasks[m.task].s(**m.kwargs, outbox_id=m.pk) for m in messages)
        fan_out.apply_async(retry=False)
    except Exception as exc:  # the broker is down: the sweep hands them over one by one later
        log.warning("outbox messages %s not dispatched as a group: %r", ids, exc)
        OutboxMessage.objects.filter(pk__in=ids).update(
            attempts=F("attempts") + 1, last_error=repr(exc)[:2000]
        )
        return 0
    OutboxMessage.objects.filter(pk__in=ids).update(dispatched_at=timezone.now(), attempts=F("attempts") + 1)
    return len(ids)


def outbox_dispatch(*, messages: Iterable[OutboxMessage]) -> int:
    """Hand ``messages`` to the broker; how many it took. Failures are logged and kept on the row."""
    from scorekeeper.celery import app

    sent = 0
    for message in messages:
        now = timezone.now()
        try:
            task = app.tasks[message.task]
            # retry=False: with Redis down, fail at once (short connect timeouts in settings)
            # instead of retrying while the request waits; the sweep retries later.
            # ignore_result: the outbox row says when the task is done, and nobody waits for its
            # result: without it the result store subscribes first, and with Redis down that
            # retries and leaves the app's result consumer broken ("must be restarted").
            task.apply_async(
                kwargs={**message.kwargs, "outbox_id": message.pk}, retry=False, ignore_result=True
            )
        except Exception as exc:  # the broker is down, or an eager task failed: both wait for the sweep
            log.warning("outbox message %s (%s) not dispatched: %r", message.pk, message.task, exc)
            OutboxMessage.objects.filter(pk=message.pk).update(
                attempts=F("attempts") + 1, last_error=repr(exc)[:2000]
            )
            continue
        # Not conditional on done_at: an eager task (no Redis) has already run and marked it.
        OutboxMessage.objects.filter(pk=message.pk).update(dispatched_at=now, attempts=F("attempts") + 1)
        sent += 1
    return sent


def outbox_done(*, message_id: int) -> None:
    """Mark a message done: its task ran to the end."""
    OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(done_at=timezone.now())


@contextlib.contextmanager
def outbox_heartbeat(*, message_id: int, every: float) -> Iterator[None]:
    """While the block runs (a task's body, in its worker), note on the message every ``every``
    seconds that its task is still at work, so that the sweep does not hand a long task (a
    full recompute) over again while it runs. A worker that dies or freezes stops beating, and
    the sweep hands its message over once the last beat is ``OUTBOX_REDELIVER_AFTER`` old.

    The first beat comes after ``every`` seconds: a task done sooner (nearly all) writes nothing.
    The beats run on a thread with its own database connection, closed when the block ends.
    """
    stop = threading.Event()

    def beat() -> None:
        try:
            while not stop.wait(every):
                try:
                    OutboxMessage.objects.filter(pk=message_id, done_at__isnull=True).update(
                        alive_at=timezone.now()
                    )
                except DatabaseError as exc:  # the database is away: the next beat tries again
                    log.warning("outbox message %s: heartbeat not written: %r", message_id, exc)
                    connection.close()
        finally:
            connection.close()  # this thread's own

    thread = threading.Thread(target=beat, name=f"outbox-heartbeat-{message_id}", daemon=True)
    thread.start()
    try:
        yield
    finally:
        stop.set()
        # A beat in flight only ever writes to a pending message: no need to wait long for it.
        thread.join(timeout=1)


def outbox_sweep(*, batch: int = 500) -> dict[str, int]:
    """Hand over again what is still pending: never dispatched (the broker was down), or whose
    last sign of life (its hand-over, its running task's last heartbeat) is older than
    ``OUTBOX_REDELIVER_AFTER`` seconds (the worker died or froze, Redis lost its queue).
    Messages younger than ``OUTBOX_GRACE`` seconds are left to the dispatch after their own
    commit. A message handed over while its first delivery still lives is run twice: the tasks
    behind the outbox are idempotent (docs/ratings.md, "Recovery")."""
    now = timezone.now()
    grace = now - timedelta(seconds=settings.OUTBOX_GRACE)
    stale = now - timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER)
    silent = Q(dispatched_at__lt=stale) & (Q(alive_at__isnull=True) | Q(alive_at__lt=stale))
    due = list(
        OutboxMessage.objects.filter(done_at__isnull=True, created_at__lt=grace)
        .filter(Q(dispatched_at__isnull=True) | silent)
        .order_by("created_at", "id")[:batch]
    )
    return {"due": len(due), "dispatched": outbox_dispatch(messages=due)}
