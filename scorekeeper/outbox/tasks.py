"""The outbox's Celery pieces: the task base class that marks a message done, the sweep, and the
delivery of the site's email (``mail.py``)."""

from __future__ import annotations

import contextlib
import logging
import time

from celery import Task, shared_task
from django.conf import settings

from . import mail, services

log = logging.getLogger(__name__)


class OutboxTask(Task):
    """Base of tasks dispatched through the outbox: takes the ``outbox_id`` keyword and marks
    that message done once the task body returned (not when it started: with ``acks_late``, a
    task cut short is run again). In a worker it beats while it runs (``outbox_heartbeat``), so
    that the sweep hands over again only a task that died or froze; a run longer than
    ``OUTBOX_TASK_BUDGET`` is logged, since the recovery bound counts on it (docs/ratings.md,
    "Recovery")."""

    #: Celery checks the call against the task function's signature, which has no ``outbox_id``.
    typing = False

    def __call__(self, *args, outbox_id: int | None = None, **kwargs):
        request = self.request
        if request.called_directly:  # task(...) in this process: Celery's own call pushes a request
            result = super().__call__(*args, **kwargs)
        else:
            # A worker's run (or apply()'s): the request is the message's. Celery's __call__ would
            # push a copy of it without ``outbox_id``, and a retry (``autoretry_for``), sent from
            # that copy, would lose the message's id: ``run`` keeps the message's own.
            beating = outbox_id is not None and not request.is_eager
            heartbeat = (
                services.outbox_heartbeat(message_id=outbox_id, every=settings.OUTBOX_HEARTBEAT)
                if beating and outbox_id is not None  # beating says it; mypy reads this one
                else contextlib.nullcontext()
            )
            started = time.monotonic()
            with heartbeat:
                result = self.run(*args, **kwargs)
            took = time.monotonic() - started
            if took > settings.OUTBOX_TASK_BUDGET:
                log.warning(
                    "%s (outbox message %s) took %.1f s, over OUTBOX_TASK_BUDGET (%s s): the recovery "
                    "bound of docs/ratings.md counts on less",
                    self.name, outbox_id, took, settings.OUTBOX_TASK_BUDGET,
                )  # fmt: skip
        if outbox_id is not None:
            services.outbox_done(message_id=outbox_id)
        return result


@shared_task(name="outbox.sweep", ignore_result=True)
def sweep() -> dict[str, int]:
    """Run by beat every ``OUTBOX_SWEEP_INTERVAL`` seconds (settings.CELERY_BEAT_SCHEDULE)."""
    return services.outbox_sweep()


@shared_task(name=mail.MAIL_TASK, base=OutboxTask, acks_late=True, ignore_result=True)
def mail_send(message: dict) -> bool:
    """Deliver one email stored by ``OutboxEmailBackend``. While the mail server is down this
    raises: the message stays pending and the sweep hands it over again."""
    return mail.mail_deliver(message)
