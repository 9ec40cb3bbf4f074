"""The idempotency app's own refusal. It is a domain error like the matches' (``DomainError``),
so that the interfaces show it as they show those: the API maps it to 422."""

from __future__ import annotations

from scorekeeper.errors import DomainError


class IdempotencyKeyReused(DomainError):
    """An ``Idempotency-Key`` already used for another request (method, path or body)."""

    code = "idempotency_key_reused"
