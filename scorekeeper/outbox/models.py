from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _


class OutboxMessage(models.Model):
    """One piece of background work: a Celery task name and its keyword arguments."""

    task = models.CharField(_("task"), max_length=200)
    kwargs = models.JSONField(_("arguments"), default=dict, blank=True)
    created_at = models.DateTimeField(_("created at"), default=timezone.now)
    #: The last time it was handed to the broker (None: never, e.g. Redis was down).
    dispatched_at = models.DateTimeField(
        _("handed over at"),
        null=True,
        blank=True,
        help_text=_("The last time it was handed to the task queue; empty: never (e.g. Redis was down)."),
    )
    #: How many times it was handed to the broker.
    attempts = models.PositiveIntegerField(
        _("attempts"), default=0, help_text=_("How many times it was handed to the task queue.")
    )
    #: The last time its task, running, said it was still at work (every OUTBOX_HEARTBEAT
    #: seconds): the sweep leaves a task that is alive alone, however long it runs.
    alive_at = models.DateTimeField(
        _("still running at"),
        null=True,
        blank=True,
        help_text=_("The last time its task said it was still running; empty: it never ran that long."),
    )
    #: When its task ran to the end; pending until then.
    done_at = models.DateTimeField(
        _("done at"), null=True, blank=True, help_text=_("When its task ran to the end; pending until then.")
    )
    #: Why the last hand-over or run failed, for the admin.
    last_error = models.TextField(
        _("last error"), blank=True, help_text=_("Why the last hand-over or run failed.")
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("outbox message")
        verbose_name_plural = _("outbox messages")
        indexes = [
            models.Index(fields=["created_at"], condition=Q(done_at__isnull=True), name="outbox_pending_idx")
        ]

    def __str__(self) -> str:
        return f"{self.task}({self.kwargs}) #{self.pk}"

    @property
    def pending(self) -> bool:
        return self.done_at is None
