"""Idempotency keys (keyword-only ``idempotency_<action>``, as the matches' services): a key is
claimed inside the transaction of the write it guards and its outcome stored before the commit;
after ``IDEMPOTENCY_KEY_TTL`` it is forgotten."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.errors import Conflict

from .errors import IdempotencyKeyReused
from .models import IdempotencyKey


def idempotency_claim(
    *, user, key: str, fingerprint: str, method: str, path: str
) -> tuple[IdempotencyKey, bool]:
    """Claim ``key`` for a request, inside the caller's transaction (which holds the write).

    Returns ``(entry, True)`` when this request is the first with the key: the caller runs
    it and stores its outcome with ``idempotency_store`` before committing. Returns the
    committed ``(entry, False)`` of an earlier identical request, whose outcome is to be
    replayed. On PostgreSQL a concurrent twin blocks on the unique index until the first
    commits (then it replays) or rolls back (then it goes ahead). Raises
    ``IdempotencyKeyReused`` when the key was used for a different request.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("idempotency_claim must run inside the transaction of the write it guards")
    owner = user if getattr(user, "is_authenticated", False) else None
    claim = IdempotencyKey(
        user=owner, key=key, fingerprint=fingerprint, method=method, path=path[:255], status_code=0
    )
    for _attempt in range(3):
        if _insert_unless_taken(claim):
            return claim, True
        entry = IdempotencyKey.objects.filter(user=owner, key=key).first()
        if entry is None:  # the first holder rolled back in between: claim again
            continue
        if entry.created_at < idempotency_cutoff():
            # Past the window a key is forgotten, swept or not: this is a new request.
            IdempotencyKey.objects.filter(pk=entry.pk).delete()
            continue
        if entry.fingerprint != fingerprint:
            raise IdempotencyKeyReused(
                _(
                    "the Idempotency-Key was already used for another request (%(method)s %(path)s "
                    "with another body); use a new key for a new request"
                )
                % {"method": entry.method, "path": entry.path},
                field="Idempotency-Key",
            )
        return entry, False
    raise Conflict(_("the Idempotency-Key is in use by a concurrent request; retry"), field="Idempotency-Key")


def _insert_unless_taken(entry: IdempotencyKey) -> bool:
    """INSERT ``entry`` unless a unique index already holds its user and key; whether it did.

    In a savepoint, because a unique violation aborts a PostgreSQL transaction: the caller's
    goes on. A key held by a concurrent transaction makes the INSERT wait for that
    transaction's end, then fail if it committed or go ahead if it rolled back.
    """
    try:
        with transaction.atomic():
            entry.save(force_insert=True)
    except IntegrityError:
        return False
    return True


def idempotency_cutoff():
    """Keys claimed before this moment are expired (``IDEMPOTENCY_KEY_TTL`` seconds ago)."""
    return timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL)


def idempotency_expire(*, batch: int = 1000) -> int:
    """Delete the expired keys, ``batch`` rows per statement and transaction (short, so that
    the sweep never holds up the writes); how many were deleted. Run hourly by beat."""
    cutoff = idempotency_cutoff()
    deleted = 0
    while True:
        ids = list(
            IdempotencyKey.objects.filter(created_at__lt=cutoff)
            .order_by("created_at")
            .values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return deleted
        with transaction.atomic():
            deleted += IdempotencyKey.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            return deleted


def idempotency_store(
    *, entry: IdempotencyKey, status_code: int, response: Any, headers: dict[str, str] | None = None
) -> IdempotencyKey:
    """Record the outcome of the request that claimed ``entry`` (same transaction)."""
    entry.status_code = status_code
    entry.response = response
    entry.headers = headers or {}
    entry.save(update_fields=["status_code", "response", "headers"])
    return entry
