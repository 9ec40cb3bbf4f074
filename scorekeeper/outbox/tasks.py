"""The outbox's Celery pieces: the task base class that marks a message done, and the sweep."""

from __future__ import annotations

from celery import Task, shared_task

from . import services


class OutboxTask(Task):
    """Base of tasks dispatched through the outbox: takes the ``outbox_id`` keyword and marks
    that message done once the task body returned (not when it started: with ``acks_late``, a
    task cut short is run again)."""

    #: Celery checks the call against the task function's signature, which has no ``outbox_id``.
    typing = False

    def __call__(self, *args, outbox_id: int | None = None, **kwargs):
        result = super().__call__(*args, **kwargs)
        if outbox_id is not None:
            services.outbox_done(message_id=outbox_id)
        return result


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Run by beat every minute (settings.CELERY_BEAT_SCHEDULE)."""
    return services.outbox_sweep()
