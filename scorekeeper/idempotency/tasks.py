"""Celery tasks of the idempotency app."""

from __future__ import annotations

from celery import shared_task

from . import services


@shared_task(name="matches.idempotency_expire", ignore_result=True)
def idempotency_expire() -> int:
    """Run by beat every hour (settings.CELERY_BEAT_SCHEDULE): forget expired Idempotency-Keys."""
    return services.idempotency_expire()

