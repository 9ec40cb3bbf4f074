"""What the idempotency app stores: one row per key claimed, with the outcome to replay."""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _


class IdempotencyKey(models.Model):
    """The stored outcome of a POST sent with an ``Idempotency-Key`` header.

    Written in the same transaction as the write it guards: a retry (or a concurrent twin
    that waited on the unique index) finds this row and gets the same status and body back,
    so a request is carried out at most once per user and key.
    """

    #: Keys are scoped per user; null for anonymous requests (dry runs, token requests).
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.CASCADE, related_name="+"
    )
    key = models.CharField(max_length=255)
    #: A hash of method, path, If-Match and parsed body: another request under the key is refused.
    fingerprint = models.CharField(max_length=64)
    method = models.CharField(max_length=8)
    path = models.CharField(max_length=255)
    status_code = models.PositiveSmallIntegerField()
    response = models.JSONField(null=True, blank=True)
    #: The response headers a replay repeats (ETag, Location).
    headers = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        verbose_name = _("idempotency key")
        verbose_name_plural = _("idempotency keys")
        constraints = [
            models.UniqueConstraint(
                fields=["user", "key"],
                condition=Q(user__isnull=False),
                name="idempotency_key_unique_per_user",
            ),
            models.UniqueConstraint(
                fields=["key"], condition=Q(user__isnull=True), name="idempotency_key_unique_anonymous"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.method} {self.path} [{self.key}] → {self.status_code}"
