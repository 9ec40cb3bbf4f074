"""Celery tasks of the ratings: another interface to ``ratings.services`` (ids in, services called).

``event_process`` and ``pool_recompute`` come through the outbox (``OutboxTask``): their message
is done only once they ran to the end, so a worker killed mid-replay loses nothing (the replay's
transaction rolls back and the message is handed over again). Both are idempotent.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from celery import shared_task
from django.db import OperationalError

from scorekeeper.outbox.tasks import OutboxTask

from . import services


class _RetryOptions(TypedDict):
    acks_late: bool
    autoretry_for: Sequence[type[BaseException]]
    retry_backoff: bool
    retry_kwargs: dict[str, Any]
    ignore_result: bool


_RETRY: _RetryOptions = {
    "acks_late": True,
    "autoretry_for": (OperationalError,),
    "retry_backoff": True,
    "retry_kwargs": {"max_retries": 5},
    "ignore_result": True,
}


@shared_task(name=services.EVENT_TASK, base=OutboxTask, **_RETRY)
def event_process(event_id: int) -> dict:
    """Bring the pool of a rating event up to date (with every other pending event of it)."""
    return services.rating_event_process(event=event_id)


@shared_task(name=services.POOL_RECOMPUTE_TASK, base=OutboxTask, **_RETRY)
def pool_recompute(job_id: int, pool_id: int) -> dict:
    """One pool of a full recompute (a member of the job's group)."""
    return services.rating_pool_recompute(pool=pool_id, job=job_id)


@shared_task(name="ratings.recompute_all", ignore_result=True)
def recompute_all() -> int:
    """Beat, nightly (settings.CELERY_BEAT_SCHEDULE): a full recompute of every pool."""
    return services.rating_recompute_request(by=None).pk
