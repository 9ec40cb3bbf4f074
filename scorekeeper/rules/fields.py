"""Typed reading of JSON input that records problems instead of raising.

Every accessor returns the value when it is acceptable and ``None`` after
recording an error otherwise, so one pass over a record reports every fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import inf
from typing import Any, TypeAlias, TypeGuard, TypeVar

from .cards import Card
from .errors import CardInvalid
from .messages import Message, term
from .result import Evaluation, Problem

MISSING: Any = object()

T = TypeVar("T")

#: Every integer in a hand record, a state or an option is a signed 32-bit value: a score, a
#: total or a target fits in one (docs/rules/README.md, "Limits"). A larger one is refused
#: with ``number_out_of_range`` before a game reads the record, so no total can grow past what
#: a client, a JSON column or a spreadsheet holds.
INT_MIN, INT_MAX = -(2**31), 2**31 - 1
#: How deeply objects and lists may nest in a record or a state (a real record nests four).
MAX_DEPTH = 64
#: At most this many limit problems are listed for one document.
MAX_LIMIT_PROBLEMS = 20


def is_int(value: object) -> TypeGuard[int]:
    """Booleans are not integers here (spec 1.7)."""
    return isinstance(value, int) and not isinstance(value, bool)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


def printable_key(key: str) -> str:
    """A key as it may appear in a path: an unpaired surrogate written as its ``\\udXXX`` escape,
    so that the message naming the bad key can itself be encoded."""
    return key.encode("utf-8", "backslashreplace").decode("utf-8")


def _bad_string(text: str) -> str | None:
    """The message code of why ``text`` cannot be stored or sent: a U+0000 (PostgreSQL refuses
    it) or an unpaired surrogate (``"\\ud800"`` is valid JSON, but no UTF-8)."""
    if "\x00" in text:
        return "limit.string_nul"
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            return "limit.string_surrogate"
    return None


#: The message of a key that is not text, by the message of such a string.
_KEY_MESSAGES = {
    "limit.string_nul": "limit.string_nul_key",
    "limit.string_surrogate": "limit.string_surrogate_key",
}


#: Where a container is: the document's own path, or its parent's place and its key there.
_Where: TypeAlias = "str | tuple[_Where, str | int]"


def limit_problems(
    value: Any,
    path: str = "",
    *,
    minimum: int = INT_MIN,
    maximum: int = INT_MAX,
    max_depth: int = MAX_DEPTH,
) -> list[Problem]:
    """What in a JSON document breaks the limits every input shares, whatever the game:
    an integer outside ``minimum…maximum`` (``number_out_of_range``), a string or key with a
    U+0000 or an unpaired surrogate (``string_invalid``), objects and lists nested deeper than
    ``max_depth`` (``too_deep``). At most ``MAX_LIMIT_PROBLEMS``; paths as the engine writes them.

    Every record and every hand's totals go through it, so it is written for speed: one pass
    without recursion, scalars checked in their container's loop, and a path written out only
    for what is reported (a container carries its parent's path and its key until then).
    """
    problems: list[Problem] = []
    kind = type(value)
    if kind is not dict and kind is not list:
        if (kind is int and not minimum <= value <= maximum) or kind is str:
            _add_scalar_problem(problems, value, path, minimum, maximum)
        return problems
    containers: list[tuple[Any, _Where, int]] = [(value, path, 0)]
    while containers:
        item, where, depth = containers.pop()
        if depth >= max_depth:
            here = _path(where)
            params = {"path": here or term("limit.the_document"), "depth": max_depth}
            problems.append(Problem("too_deep", here, "limit.too_deep", params))
        else:
            inner = None
            for key, child in enumerate(item) if type(item) is list else item.items():
                # No call for what is fine: small ints, ASCII text without U+0000, str or int keys.
                if type(key) is str and (not key.isascii() or "\x00" in key) and (reason := _bad_string(key)):
                    at = join(_path(where), printable_key(key))
                    message = _KEY_MESSAGES[reason]
                    problems.append(Problem("string_invalid", at, message, {"path": at}))
                    continue
                kind = type(child)
                if kind is int:
                    if not minimum <= child <= maximum:
                        _add_scalar_problem(problems, child, join(_path(where), key), minimum, maximum)
                elif kind is str:
                    if not child.isascii() or "\x00" in child:
                        _add_scalar_problem(problems, child, join(_path(where), key), minimum, maximum)
                elif kind is dict or kind is list:
                    if inner is None:
                        inner = []
                    inner.append((child, (where, key), depth + 1))
            if inner is not None:
                inner.reverse()  # popped in the document's order
                containers += inner
        if problems and len(problems) >= MAX_LIMIT_PROBLEMS:
            break
    return problems


def _path(where: _Where) -> str:
    """The path of the place ``where``, written as the engine writes paths."""
    keys = []
    while not isinstance(where, str):
        where, key = where
        keys.append(key)
    path = where
    for key in reversed(keys):
        path = join(path, key)
    return path


def _add_scalar_problem(problems: list[Problem], item: Any, where: str, minimum: int, maximum: int) -> None:
    """Report an integer outside ``minimum…maximum`` or a string that cannot be stored."""
    shown = where or term("limit.the_value")
    if type(item) is int:
        params = {"path": shown, "minimum": minimum, "maximum": maximum}
        problems.append(Problem("number_out_of_range", where, "limit.number_out_of_range", params))
    else:
        why = _bad_string(item)
        if why:
            problems.append(Problem("string_invalid", where, why, {"path": shown}))


class Fields:
    def __init__(self, evaluation: Evaluation, seats: int):
        self.ev = evaluation
        self.seats = seats

    def error(self, code: str, path: str, message: str | Message, /, **params: Any) -> None:
        self.ev.error(code, path, message, **params)

    # -- presence --------------------------------------------------------
    def get(self, obj: dict[str, Any], key: str, path: str = "", *, required: bool = True) -> Any:
        """The value of ``obj[key]``; ``MISSING`` when absent (an error if required).

        A required field that is present but ``null`` is also ``field_missing``; an
        optional one that is ``null`` reads as ``MISSING``.
        """
        where = join(path, key)
        value = obj.get(key, MISSING)
        if value is None:
            value = MISSING
        if value is MISSING and required:
            self.error("field_missing", where, "field.required", path=where)
        return value

    def obj(self, value: Any, path: str, what: str = "field.must_be_object") -> dict[str, Any] | None:
        """``value`` if it is an object; ``what`` is the message saying what it must be."""
        if isinstance(value, dict):
            return value
        self.error("field_invalid", path, what, path=path or term("field.the_record"))
        return None

    # -- scalars ---------------------------------------------------------
    def integer(
        self,
        value: Any,
        path: str,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        code: str = "field_invalid",
    ) -> int | None:
        """An integer within the bounds; ``code`` is the game's code for one outside them
        (a non-integer is always ``field_invalid``, spec 1.7)."""
        if not is_int(value):
            self.error("field_invalid", path, "field.not_integer", path=path, value=describe(value))
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            bounds = f"{'' if minimum is None else minimum}…{'' if maximum is None else maximum}"
            self.error(code, path, "field.out_of_bounds", path=path, value=value, bounds=bounds)
            return None
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        if isinstance(value, bool):
            return value
        self.error("field_invalid", path, "field.not_boolean", path=path, value=describe(value))
        return None

    def choice(
        self, value: Any, path: str, choices: Iterable[str], code: str = "field_invalid"
    ) -> str | None:
        choices = tuple(choices)
        if isinstance(value, str) and value in choices:
            return value
        allowed = ", ".join(choices)
        self.error(code, path, "field.not_a_choice", path=path, allowed=allowed, value=describe(value))
        return None

    def seat(self, value: Any, path: str, seats: int | None = None) -> int | None:
        n = self.seats if seats is None else seats
        if is_int(value) and 0 <= value < n:
            return value
        self.error(
            "seat_out_of_range", path, "field.not_a_seat", path=path, last=n - 1, value=describe(value)
        )
        return None

    # -- lists -----------------------------------------------------------
    def array(self, value: Any, path: str) -> list[Any] | None:
        if isinstance(value, list):
            return value
        self.error("field_invalid", path, "field.not_a_list", path=path, value=describe(value))
        return None

    def per_seat(self, value: Any, path: str) -> list[Any] | None:
        """A list with exactly one entry per seat."""
        items = self.array(value, path)
        if items is None:
            return None
        if len(items) != self.seats:
            self.error(
                "array_length", path, "field.per_seat_length", path=path, seats=self.seats, length=len(items)
            )
            return None
        return items

    def integers(
        self,
        value: Any,
        path: str,
        *,
        minimum: int | None = None,
        maximum: int | None = None,
        code: str = "field_invalid",
    ) -> list[int] | None:
        """One integer per seat, each read as by ``integer``; every bad entry is reported."""
        items = self.per_seat(value, path)
        if items is None:
            return None
        low = -inf if minimum is None else minimum
        high = inf if maximum is None else maximum
        out: list[int | None] = []
        for i, item in enumerate(items):
            # Every hand declares its scores: a plain in-range int is taken without a call.
            if type(item) is int and low <= item <= high:
                out.append(item)
            else:
                out.append(self.integer(item, join(path, i), minimum=minimum, maximum=maximum, code=code))
        return all_read(out)

    # -- cards -----------------------------------------------------------
    def card(self, value: Any, path: str, pack: frozenset[Card]) -> Card | None:
        try:
            card = Card.parse(value)
        except CardInvalid as exc:
            self.error("card_invalid", path, "field.card_invalid", path=path, reason=exc.text)
            return None
        if card not in pack:
            self.error("card_invalid", path, "field.card_not_in_pack", path=path, card=str(card))
            return None
        return card

    def cards(
        self, value: Any, path: str, pack: frozenset[Card], seen: dict[Card, str] | None = None
    ) -> list[Card] | None:
        """A list of distinct cards; ``seen`` carries cards met elsewhere in the same check."""
        items = self.array(value, path)
        if items is None:
            return None
        seen = {} if seen is None else seen
        result: list[Card] = []
        ok = True
        for i, raw in enumerate(items):
            where = join(path, i)
            card = self.card(raw, where, pack)
            if card is None:
                ok = False
                continue
            if card in seen:
                self.error(
                    "card_duplicate",
                    where,
                    "field.card_duplicate",
                    path=where,
                    card=str(card),
                    other=seen[card],
                )
                ok = False
                continue
            seen[card] = where
            result.append(card)
        return result if ok else None


def all_read(values: list[T | None]) -> list[T] | None:
    """``values`` when every one was read, None when one was rejected (its error is reported)."""
    read = [value for value in values if value is not None]
    return read if len(read) == len(values) else None


def describe(value: Any) -> str | Message:
    """The value as a message shows it: a JSON literal as written, or what kind of thing it is
    (a ``Message``, so that "an object" is read in the reader's language)."""
    if value is MISSING:
        return _NOTHING
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int) and not INT_MIN <= value <= INT_MAX:
        return "a number out of range"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 20 else repr(value[:20] + "…")
    kind = _KINDS.get(type(value))
    return type(value).__name__ if kind is None else kind


_NOTHING = term("value.nothing")
_KINDS: dict[type, Message] = {dict: term("value.an_object"), list: term("value.a_list")}
