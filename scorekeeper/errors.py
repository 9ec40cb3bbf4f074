"""The service errors' common classes, with stable machine codes: below every app that raises
them, so that an app beneath the matches (the idempotency keys) raises them too.

Interfaces map them by class (the API: ``api/exceptions.py``): ``Invalid`` → 400,
``NotAllowed`` → 403, ``NotFound`` → 404, ``Conflict`` → 409; a ``DomainError`` of no such class
has its own status (the idempotency app's ``IdempotencyKeyReused`` → 422). The matches' errors
(``scorekeeper.matches.errors``) are subclasses of these.
``code`` never changes once published; ``field`` is a path into the request
("options.target", "record.tricks[3]").
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    code = "domain_error"

    def __init__(self, message: str, *, field: str = "", code: str | None = None, **extra: Any):
        super().__init__(message)
        self.message = message
        self.field = field
        if code is not None:
            self.code = code
        #: Further machine-readable details for the error body (mismatches, versions …).
        self.extra = extra

    def to_dict(self) -> dict[str, Any]:
        return {"code": self.code, "message": self.message, "field": self.field, **self.extra}


# -- 400: the request cannot be accepted as it is -----------------------------------------
class Invalid(DomainError):
    code = "invalid"


# -- 403 (401 for a caller not signed in) ---------------------------------------------
class NotAllowed(DomainError):
    # The code of the first refusal there was (a match's scorers only); the clubs' refusals
    # have codes of their own (``club_role_required``).
    code = "not_a_scorer"


class NotSignedIn(NotAllowed):
    """A write by a caller who is not signed in: not allowed either, but the answer is to sign
    in (the API's 401, as for its own authentication checks)."""

    code = "not_authenticated"


# -- 404 ------------------------------------------------------------------------------
class NotFound(DomainError):
    code = "not_found"


# -- 409: the request is fine but what it names is not in a state that accepts it -------
class Conflict(DomainError):
    code = "conflict"
