"""The API's housekeeping, run by beat (settings.CELERY_BEAT_SCHEDULE)."""

from __future__ import annotations

from celery import shared_task

from .tokens import tokens_expire as _tokens_expire


@shared_task(name="api.tokens_expire", ignore_result=True)
def tokens_expire() -> int:
    """Hourly: delete expired API tokens (a request checks only the one it presents)."""
    return _tokens_expire()
