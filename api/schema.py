"""OpenAPI pieces shared by the views: the error responses, the write headers, a hook."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse

from .serializers import ErrorSerializer

ERROR_DESCRIPTIONS = {
    400: gettext_lazy(
        "Malformed or invalid request (validation, parse error, rule rejection: `hand_invalid`, "
        "`score_mismatch` with each seat's declared vs computed score)"
    ),
    401: gettext_lazy("Not signed in: send `Authorization: Token <key>` (POST /api/v1/auth/token)"),
    403: gettext_lazy(
        "Signed in but not allowed (only a match's scorers may write to it), or a CSRF failure"
    ),
    404: gettext_lazy("No such object"),
    409: gettext_lazy(
        "The match is not in a state that accepts this: `version_conflict` (stale version; the body "
        "says what is current), `match_over`, `match_void`, `status_conflict`"
    ),
    413: gettext_lazy("`body_too_large`: the body is over the cap (64 KiB; an import 4 MiB)"),
    422: gettext_lazy("`idempotency_key_reused`: the Idempotency-Key was used for another request"),
    429: gettext_lazy("`throttled`: too many requests; `Retry-After` says how many seconds to wait"),
}


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code]) for code in codes}


READ_ERRORS = (400, 404)
#: Every POST: validation, auth, the idempotency key.
WRITE_ERRORS = (400, 401, 403, 422)

IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    type={"type": "string", "minLength": 1, "maxLength": 255, "pattern": "^[ -~]+$"},
    location=OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        "A unique key per logical request (a UUID). A retry with the same key and body gets the "
        "original response (header `Idempotent-Replayed: true`) and never writes twice; the same key "
        "with another request is a 422. Keys are kept per user for 24 hours."
    ),
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    type={"type": "string", "maxLength": 40},
    location=OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        'The match version last seen, as the ETag `"3"` (instead of `version` in the body).'
    ),
)


def add_error_range(result, generator, request, public):
    """Postprocessing hook: every operation answers any other 4xx with the same error body."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault(
                    "4XX",
                    {
                        "description": gettext_lazy(
                            "Any other client error (405, 406, 415 …), in the common shape"
                        ),
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                )
    return result
