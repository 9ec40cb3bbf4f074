"""One error body for every 4xx: ``{"code", "message", "field", ...details}``.

Domain errors map by class to a status; DRF's own errors (validation, parse, auth, 404,
405, 406, 415, throttling) are flattened to the same shape: a validation error keeps every
field's messages under ``errors``. URLs under /api/ that match no view get the same body
from ``api_unknown_url`` (the API's last URL pattern), and a crash there a JSON 500.
A database that is down or dropped the connection (Django's ``OperationalError`` or
``InterfaceError``, wherever it is raised: a middleware, the view, the commit) is a 503
``database_unavailable`` with ``Retry-After``, in the API and on the pages.

Every ``message`` is in the request's language (Accept-Language, which LocaleMiddleware
activates and answers with ``Content-Language``); the ``code`` never is: clients branch on it.
"""

from __future__ import annotations

import math
import sys
from typing import Any

from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied, RequestDataTooBig
from django.db import InterfaceError, OperationalError
from django.http import Http404, HttpResponsePermanentRedirect, JsonResponse
from django.shortcuts import render
from django.urls import resolve
from django.utils.translation import gettext as _
from django.views import defaults
from django.views.decorators.csrf import csrf_exempt
from rest_framework import exceptions as drf
from rest_framework import status
from rest_framework.response import Response
from rest_framework.views import exception_handler as drf_exception_handler

from scorekeeper.idempotency.errors import IdempotencyKeyReused
from scorekeeper.matches import errors, i18n

#: The first class an error is an instance of gives its status (a subclass before its base).
STATUS_BY_ERROR: list[tuple[type[errors.DomainError], int]] = [
    (errors.Invalid, status.HTTP_400_BAD_REQUEST),
    # A write by an anonymous caller that reached the service: same answer as DRF's.
    (errors.NotSignedIn, status.HTTP_401_UNAUTHORIZED),
    (errors.NotAllowed, status.HTTP_403_FORBIDDEN),
    (errors.NotFound, status.HTTP_404_NOT_FOUND),
    (errors.Conflict, status.HTTP_409_CONFLICT),
    (errors.TooManyAttempts, status.HTTP_429_TOO_MANY_REQUESTS),
    (IdempotencyKeyReused, status.HTTP_422_UNPROCESSABLE_ENTITY),
]


def exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, errors.DomainError):
        code = next((s for cls, s in STATUS_BY_ERROR if isinstance(exc, cls)), status.HTTP_400_BAD_REQUEST)
        headers = {"WWW-Authenticate": "Token"} if code == status.HTTP_401_UNAUTHORIZED else {}
        if "retry_after" in exc.extra:  # as the throttles say it (429)
            headers["Retry-After"] = str(exc.extra["retry_after"])
        return Response(i18n.error_body(exc.to_dict()), status=code, headers=headers)
    if isinstance(exc, RequestDataTooBig):  # over DATA_UPLOAD_MAX_MEMORY_SIZE (Django's check)
        body = {"code": "body_too_large", "message": _("the request body is too large"), "field": ""}
        return Response(body, status=status.HTTP_413_REQUEST_ENTITY_TOO_LARGE)
    if isinstance(exc, Http404):
        exc = drf.NotFound()
    elif isinstance(exc, PermissionDenied):
        exc = drf.PermissionDenied()
    response = drf_exception_handler(exc, context)
    if response is None or not isinstance(exc, drf.APIException):
        return response
    response.data = _body(exc)
    return response


def _body(exc: drf.APIException) -> dict[str, Any]:
    if isinstance(exc, drf.ValidationError):
        flat = list(_flatten(exc.detail, ""))
        field, first = flat[0] if flat else ("", drf.ErrorDetail(_("invalid input"), "invalid"))
        return {
            "code": getattr(first, "code", "invalid") or "invalid",
            "message": str(first),
            "field": field,
            "errors": [
                {"field": f, "code": getattr(d, "code", "invalid"), "message": str(d)} for f, d in flat
            ],
        }
    detail = exc.detail
    if isinstance(detail, dict | list):
        first = next((d for _, d in _flatten(detail, "")), drf.ErrorDetail(str(exc.default_detail)))
        return {"code": getattr(first, "code", None) or exc.default_code, "message": str(first), "field": ""}
    code = getattr(detail, "code", None) or exc.default_code
    body = {"code": code, "message": str(detail), "field": getattr(exc, "field", "")}
    if isinstance(exc, drf.Throttled):
        wait: float | None = exc.wait  # type: ignore[attr-defined]  # DRF sets it; its stubs omit it
        if wait is not None:  # also in the Retry-After header
            body["retry_after"] = math.ceil(wait)
    errors = getattr(exc, "errors", None)
    if errors:  # a body beyond the limits (api/parsers.py): every place
        body["errors"] = errors
    return body


def _flatten(detail: Any, path: str):
    """(field path, ErrorDetail) pairs of a nested DRF validation error."""
    if isinstance(detail, dict):
        for key, value in detail.items():
            if isinstance(key, int):  # ListField / many=True errors are keyed by index
                yield from _flatten(value, f"{path}[{key}]")
                continue
            name = "" if key == "non_field_errors" else str(key)
            yield from _flatten(value, f"{path}.{name}" if path and name else path or name)
    elif isinstance(detail, list):
        nested = any(isinstance(item, dict | list) for item in detail)
        for i, item in enumerate(detail):
            yield from _flatten(item, f"{path}[{i}]" if nested else path)
    else:
        yield path, detail


def _is_api(request) -> bool:
    return request.path.startswith("/api/")


def api_not_found(request, exception=None):
    """``handler404``: the common error body under /api/, Django's page elsewhere."""
    if _is_api(request):
        message = _("no endpoint at %(path)s") % {"path": request.path}
        return JsonResponse({"code": "not_found", "message": message, "field": ""}, status=404)
    return defaults.page_not_found(request, exception)


@csrf_exempt  # as the API's views are: a POST to a wrong URL is a 404, not a CSRF failure
def api_unknown_url(request):
    """The view of every URL under /api/ that no other pattern matches: the API's 404, in
    debug mode too (Django calls ``handler404`` only when debug is off).

    A URL that is an API page but for its last slash (``/api/v1``) is redirected to it, as
    ``CommonMiddleware`` (APPEND_SLASH) does with URLs that match no pattern at all.
    """
    if settings.APPEND_SLASH and not request.path_info.endswith("/"):
        found = resolve(request.path_info + "/", getattr(request, "urlconf", None))
        if found.func is not api_unknown_url:
            return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
    return api_not_found(request)


#: Seconds a client is asked to wait before it retries after a database outage (``Retry-After``):
#: PostgreSQL restarts in a few, and the first request after its return gets a fresh connection.
DATABASE_RETRY_AFTER = 2


def database_unavailable(exc: BaseException | None) -> bool:
    """Whether ``exc`` says the database cannot serve the request just now: the server is down,
    shutting down or unreachable, the connection broke (psycopg's errors, which Django raises as
    its own ``OperationalError`` and ``InterfaceError``). The same class holds the other passing
    refusals, each worth the same retry: too many connections, a statement cancelled by
    DATABASE_STATEMENT_TIMEOUT, a deadlock. The request's transaction is rolled back with it, so
    a retry is safe."""
    return isinstance(exc, OperationalError | InterfaceError)


def database_unavailable_response(request):
    """503 with ``Retry-After``: the error body under /api/, a page elsewhere. Neither touches the
    database: the page is given an anonymous ``user`` and no ``messages``, which would otherwise
    read the session (a query) to show the header."""
    if _is_api(request):
        message = _("the database is unavailable; try again in a few seconds")
        body = {
            "code": "database_unavailable",
            "message": message,
            "field": "",
            "retry_after": DATABASE_RETRY_AFTER,
        }
        response = JsonResponse(body, status=503)
    else:
        context = {"user": AnonymousUser(), "messages": ()}
        response = render(request, "503.html", context, status=503)
    response["Retry-After"] = str(DATABASE_RETRY_AFTER)
    return response


def api_server_error(request):
    """``handler500``: a JSON body under /api/ (still a 5xx: a bug, never bad input).

    Django calls it for any exception nothing else handled, inside its ``except`` block: the
    exception is ``sys.exc_info()``'s (asgiref re-raises it in the thread that runs this under
    ASGI). A database outage is not a bug: that is a 503, whose body says to retry. (In debug
    mode Django shows its traceback page instead, as for any other exception.)
    """
    if database_unavailable(sys.exc_info()[1]):
        return database_unavailable_response(request)
    if _is_api(request):
        return JsonResponse(
            {"code": "server_error", "message": _("an unexpected error; it has been logged"), "field": ""},
            status=500,
        )
    return defaults.server_error(request)
