from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils import timezone


class OutboxMessage(models.Model):
    """One piece of background work: a Celery task name and its keyword arguments."""

    task = models.CharField(max_length=200)
    kwargs = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(default=timezone.now)
    #: The last time it was handed to the broker (None: never, e.g. Redis was down).
    dispatched_at = models.DateTimeField(null=True, blank=True)
    #: How many times it was handed to the broker.
    attempts = models.PositiveIntegerField(default=0)
    #: When its task ran to the end; pending until then.
    done_at = models.DateTimeField(null=True, blank=True)
    #: Why the last hand-over or run failed, for the admin.
    last_error = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        indexes = [
            models.Index(fields=["created_at"], condition=Q(done_at__isnull=True), name="outbox_pending_idx")
        ]

    def __str__(self) -> str:
        return f"{self.task}({self.kwargs}) #{self.pk}"

    @property
    def pending(self) -> bool:
        return self.done_at is None
