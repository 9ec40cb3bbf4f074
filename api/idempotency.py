"""``Idempotency-Key`` on every POST: a retry gets the original response, never a second write.

The key row is inserted first, in the same transaction as the write, and the response is
stored in it before the commit. A retry after the commit finds the row and replays the
stored status, body and headers; a concurrent twin blocks on the row's unique index until
the first request commits and then replays too, so 20 identical POSTs store one hand. The
same key with another request (method, path, If-Match or parsed body) is a 422.
Responses are stored whatever their status (a 400 or a 409 is replayed as such); only
errors raised before the view runs (authentication, permissions) are not, and a 5xx
rolls the whole transaction back, key included, so a retry runs again.

A view that refuses the request (an exception: 400, 403, 409 …) has its transaction rolled
back whole, key included, so that nothing it wrote stays; the refusal is then stored under
the key in a transaction of its own. (A savepoint around the view would keep the key, but
cost every request two round trips for the sake of the few that fail.) Should a twin claim
the key in between and commit, its outcome is the key's: both answer with it.
"""

from __future__ import annotations

import functools
import hashlib
import hmac
import json
from typing import Any

from django.conf import settings
from django.db import transaction
from django.utils.translation import gettext as _
from rest_framework.response import Response
from rest_framework.utils.encoders import JSONEncoder

from scorekeeper import errors
from scorekeeper.idempotency import services
from scorekeeper.idempotency.keys import HEADER, KEY, MAX_LENGTH

#: Response headers a replay repeats.
REPLAYED_HEADERS = ("ETag", "Location")


def idempotent(post):
    """Decorate a view's ``post`` method (after authentication and permissions ran)."""

    @functools.wraps(post)
    def wrapper(view, request, *args, **kwargs):
        key = request.headers.get(HEADER)
        if key is None:
            return post(view, request, *args, **kwargs)
        key = key.strip(" \t")  # HTTP's optional whitespace, as the schema's pattern allows
        if not KEY.fullmatch(key):
            raise errors.Invalid(
                _("%(header)s must be 1 to %(most)s printable ASCII characters (a UUID, say)")
                % {"header": HEADER, "most": MAX_LENGTH},
                field=HEADER,
                code="idempotency_key_invalid",
            )
        fingerprint = _fingerprint(request)

        def claim():
            return services.idempotency_claim(
                user=request.user, key=key, fingerprint=fingerprint, method=request.method, path=request.path
            )

        refused = None
        try:
            with transaction.atomic():
                entry, first = claim()
                if not first:
                    return _stored_response(entry)
                try:
                    response = post(view, request, *args, **kwargs)
                except Exception as exc:
                    refused = exc
                    raise  # out of the transaction: rolled back, key included
                if response.status_code >= 500:
                    transaction.set_rollback(True)
                    return response
                _store(entry, response)
            return response
        except Exception:
            if refused is None:  # the key's own refusal (reused, busy) or a failed store
                raise
        refusal = view.handle_exception(refused)
        if refusal.status_code >= 500:
            return refusal
        with transaction.atomic():
            entry, first = claim()
            if not first:
                return _stored_response(entry)
            _store(entry, refusal)
        return refusal

    return wrapper


def _store(entry, response) -> None:
    services.idempotency_store(
        entry=entry,
        status_code=response.status_code,
        response=_jsonable(response.data),
        headers={h: response[h] for h in REPLAYED_HEADERS if response.has_header(h)},
    )


def _fingerprint(request) -> str:
    data = request.data  # a ParseError here is a plain 400 (nothing to replay)
    if hasattr(data, "lists"):  # a form body (QueryDict)
        data = dict(data.lists())
    payload = {
        "method": request.method,
        "path": request.path,
        "if_match": request.headers.get("If-Match"),
        "body": data,
    }
    text = json.dumps(payload, sort_keys=True, cls=JSONEncoder, separators=(",", ":"))
    # Keyed, because a token request's body holds a password.
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


def _jsonable(data: Any) -> Any:
    return json.loads(json.dumps(data, cls=JSONEncoder))


def _stored_response(entry) -> Response:
    response = Response(entry.response, status=entry.status_code, headers=entry.headers or None)
    response["Idempotent-Replayed"] = "true"
    return response
