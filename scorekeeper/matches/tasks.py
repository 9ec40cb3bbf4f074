"""Celery tasks: another interface to the services. They take ids and re-read the database."""

from __future__ import annotations

from celery import shared_task
from django.db import OperationalError

from scorekeeper.outbox.tasks import OutboxTask

from . import services


@shared_task(
    base=OutboxTask,
    acks_late=True,
    autoretry_for=(OperationalError,),
    retry_backoff=True,
    retry_kwargs={"max_retries": 5},
)
def match_recompute(match_id: int) -> dict[str, int]:
    """Re-evaluate a match's hands with the current rules engine (idempotent, so safe to redeliver)."""
    return services.match_recompute(match=match_id)
