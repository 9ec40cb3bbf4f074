"""A JSON parser that turns every malformed body into a 400, never a 500."""

from __future__ import annotations

import json
import math

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


def _finite(text: str) -> float:
    value = float(text)
    if not math.isfinite(value):
        # 1e400 parses to inf, which no JSON column can store: refuse it at the door.
        raise ValueError(f"number {text} is out of range")
    return value


def _no_constants(name: str):
    raise ValueError(f"{name} is not valid JSON")


def _has_nul(data) -> bool:
    stack = [data]
    while stack:  # iterative: the parsed document may be nested as deep as the parser allowed
        item = stack.pop()
        if isinstance(item, str):
            if "\x00" in item:
                return True
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class StrictJSONParser(JSONParser):
    """JSON bodies only: no NaN/Infinity, no numbers out of float range, no U+0000, bounded nesting.

    Python's own limits (4300-digit integers, the recursion limit on deep nesting) become
    ``parse_error`` 400s like any other malformed body.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", "utf-8")
        try:
            text = stream.read().decode(encoding) if stream is not None else ""
            data = json.loads(text, parse_float=_finite, parse_constant=_no_constants)
        except (ValueError, LookupError, RecursionError) as exc:
            raise ParseError(f"JSON parse error - {exc}"[:500]) from None
        # json.loads refuses raw control characters, so a U+0000 can only come from the escape
        # \u0000: without one in the text, no need to walk the document.
        if "\\u0000" in text and _has_nul(data):
            # PostgreSQL cannot store U+0000 in text or jsonb: refuse it here, not with a 500 there.
            raise ParseError("JSON parse error - strings may not contain the character U+0000")
        return data
