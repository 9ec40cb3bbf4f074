"""Celery tasks of the idempotency app."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="idempotency.expire", ignore_result=True)
def idempotency_expire() -> int:
    """Run by beat every hour (settings.CELERY_BEAT_SCHEDULE): forget expired Idempotency-Keys."""
    return services.idempotency_expire()


@shared_task(name="matches.idempotency_expire", ignore_result=True)
def idempotency_expire_under_its_old_name() -> int:
    """The same sweep under the name it had in the matches app: a message that a beat from
    before the move put in the queue still runs instead of being refused as unregistered."""
    return services.idempotency_expire()
