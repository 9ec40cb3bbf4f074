"""The API's parsers: every body that is malformed, too large or beyond the limits is a 4xx.

JSON bodies are refused, before any view reads them, when they

- are larger than the view's cap: 413 ``body_too_large`` (``API_MAX_BODY``, 64 KiB, for every
  body but an import's, ``API_IMPORT_MAX_BODY``);
- do not parse, hold NaN/Infinity or a number beyond float range, or an integer of more than
  4300 digits (Python's own limit): 400 ``parse_error``;
- nest deeper than 64 levels: 400 ``too_deep``;
- hold a string or an object key with U+0000 (PostgreSQL cannot store it) or an unpaired
  surrogate (``"\\ud800"``: valid JSON, but no UTF-8 can encode it): 400 ``string_invalid``;
- hold an integer outside the 64-bit range (no database column nor orjson takes it):
  400 ``number_out_of_range``.

Each of the last three names the place in ``field`` (``options.target``, ``record.note[2]``).
The engine has its own, narrower limits for records, states and options (32-bit integers,
docs/rules/README.md "Limits").
"""

from __future__ import annotations

import io
import json
import math
import re

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import FormParser, JSONParser, MultiPartParser

from scorekeeper.rules.fields import MAX_DEPTH, limit_problems

#: Integers the API takes anywhere in a body: PostgreSQL's bigint, orjson's range.
BODY_INT_MIN, BODY_INT_MAX = -(2**63), 2**63 - 1
#: What in a JSON text may break a limit: the escape of a U+0000 or of a surrogate (the text
#: itself is UTF-8, which has neither), or a run of 19 digits (an integer of 64 bits or more).
#: Without any, and with no more brackets than the depth allows, the document needs no walk.
_SUSPECT = re.compile(r"\\u(?:0000|[dD][89abcdefABCDEF])|[0-9]{19}")


class BodyTooLarge(APIException):
    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "body_too_large"
    default_detail = gettext_lazy("the request body is too large")


class BodyInvalid(ParseError):
    """A body that parsed but breaks a limit; ``field`` and ``errors`` say where."""

    def __init__(self, problems):
        first = problems[0]
        super().__init__(first.message, code=first.code)
        self.field = first.path
        self.errors = [{"field": p.path, "code": p.code, "message": p.message} for p in problems]


def body_limit(parser_context) -> int:
    """The cap on this request's body: the view's ``body_limit_setting``, else ``API_MAX_BODY``."""
    view = (parser_context or {}).get("view")
    return getattr(settings, getattr(view, "body_limit_setting", "API_MAX_BODY"))


def check_length(parser_context) -> int:
    """The cap on this body; a 413 at once when its Content-Length is over it."""
    limit = body_limit(parser_context)
    request = (parser_context or {}).get("request")
    try:
        declared = int(request.META.get("CONTENT_LENGTH") or 0) if request is not None else 0
    except ValueError:
        declared = 0
    if declared > limit:
        raise BodyTooLarge(_("the request body is larger than %(limit)s bytes") % {"limit": limit})
    return limit


def read_capped(stream, parser_context) -> bytes:
    """The body, or a 413 when it is over the cap (told by Content-Length or found reading)."""
    limit = check_length(parser_context)
    raw = stream.read(limit + 1) if stream is not None else b""
    if len(raw) > limit:
        raise BodyTooLarge(_("the request body is larger than %(limit)s bytes") % {"limit": limit})
    return raw


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        # 1e400 parses to inf, which no JSON column can store: refuse it at the door.
        raise ValueError(_("number %(number)s is out of range") % {"number": text})
    return value


def _no_constants(name: str):
    raise ValueError(_("%(name)s is not valid JSON") % {"name": name})


def check_limits(data, text: str) -> None:
    """Raise ``BodyInvalid`` if the parsed ``data`` (of JSON ``text``) breaks a limit."""
    if not _SUSPECT.search(text) and text.count("[") + text.count("{") <= MAX_DEPTH:
        return
    problems = limit_problems(data, minimum=BODY_INT_MIN, maximum=BODY_INT_MAX)
    if problems:
        raise BodyInvalid(problems)


class StrictJSONParser(JSONParser):
    """JSON bodies only, strictly (the module's docstring lists what is refused).

    Python's own limits (4300-digit integers, the recursion limit on deep nesting) become
    ``parse_error`` 400s like any other malformed body.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", "utf-8")
        raw = read_capped(stream, parser_context)
        try:
            text = raw.decode(encoding)
            data = json.loads(text, parse_float=_finite, parse_constant=_no_constants)
        except (ValueError, LookupError, RecursionError) as exc:
            raise ParseError((_("JSON parse error - %(detail)s") % {"detail": exc})[:500]) from None
        check_limits(data, text)
        return data


class CappedFormParser(FormParser):
    """Django's form parsing, within the same cap as JSON bodies (the token endpoint)."""

    def parse(self, stream, media_type=None, parser_context=None):
        raw = read_capped(stream, parser_context)
        return super().parse(io.BytesIO(raw), media_type, parser_context)


class CappedMultiPartParser(MultiPartParser):
    """A multipart form within the cap (by its Content-Length; Django's parser bounds the rest)."""

    def parse(self, stream, media_type=None, parser_context=None):
        check_length(parser_context)
        return super().parse(stream, media_type, parser_context)
