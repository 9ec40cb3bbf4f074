"""Typed reading of JSON input that records problems instead of raising.

Every accessor returns the value when it is acceptable and ``None`` after
recording an error otherwise, so one pass over a record reports every fault.
"""

from __future__ import annotations

from collections.abc import Iterable
from math import inf
from typing import Any

from .cards import Card
from .errors import CardInvalid
from .result import Evaluation

MISSING: Any = object()


def is_int(value: object) -> bool:
    """Booleans are not integers here (spec 1.7)."""
    return isinstance(value, int) and not isinstance(value, bool)


def join(path: str, key: str | int) -> str:
    if isinstance(key, int):
        return f"{path}[{key}]"
    return f"{path}.{key}" if path else key


class Fields:
    def __init__(self, evaluation: Evaluation, seats: int):
        self.ev = evaluation
        self.seats = seats

    def error(self, code: str, path: str, message: str) -> None:
        self.ev.error(code, path, message)

    # -- presence --------------------------------------------------------
    def get(self, obj: dict, key: str, path: str = "", *, required: bool = True) -> Any:
        """The value of ``obj[key]``; ``MISSING`` when absent (an error if required).

        A required field that is present but ``null`` is also ``field_missing``; an
        optional one that is ``null`` reads as ``MISSING``.
        """
        where = join(path, key)
        value = obj.get(key, MISSING)
        if value is None:
            value = MISSING
        if value is MISSING and required:
            self.error("field_missing", where, f"{where} is required")
        return value

    def obj(self, value: Any, path: str, what: str = "an object") -> dict | None:
        if isinstance(value, dict):
            return value
        self.error("field_invalid", path, f"{path or 'the record'} must be {what}")
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
            self.error("field_invalid", path, f"{path} must be an integer, not {describe(value)}")
            return None
        if (minimum is not None and value < minimum) or (maximum is not None and value > maximum):
            bounds = f"{'' if minimum is None else minimum}…{'' if maximum is None else maximum}"
            self.error(code, path, f"{path} is {value}, outside {bounds}")
            return None
        return value

    def boolean(self, value: Any, path: str) -> bool | None:
        if isinstance(value, bool):
            return value
        self.error("field_invalid", path, f"{path} must be true or false, not {describe(value)}")
        return None

    def choice(self, value: Any, path: str, choices: Iterable[str], code: str = "field_invalid"):
        choices = tuple(choices)
        if isinstance(value, str) and value in choices:
            return value
        allowed = ", ".join(choices)
        self.error(code, path, f"{path} must be one of {allowed}, not {describe(value)}")
        return None

    def seat(self, value: Any, path: str, seats: int | None = None) -> int | None:
        n = self.seats if seats is None else seats
        if is_int(value) and 0 <= value < n:
            return value
        self.error("seat_out_of_range", path, f"{path} must be a seat 0…{n - 1}, not {describe(value)}")
        return None

    # -- lists -----------------------------------------------------------
    def array(self, value: Any, path: str) -> list | None:
        if isinstance(value, list):
            return value
        self.error("field_invalid", path, f"{path} must be a list, not {describe(value)}")
        return None

    def per_seat(self, value: Any, path: str) -> list | None:
        """A list with exactly one entry per seat."""
        items = self.array(value, path)
        if items is None:
            return None
        if len(items) != self.seats:
            self.error("array_length", path, f"{path} must have {self.seats} entries, not {len(items)}")
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
        out = []
        for i, item in enumerate(items):
            # Every hand declares its scores: a plain in-range int is taken without a call.
            if type(item) is int and low <= item <= high:
                out.append(item)
            else:
                out.append(self.integer(item, join(path, i), minimum=minimum, maximum=maximum, code=code))
        return None if None in out else out

    # -- cards -----------------------------------------------------------
    def card(self, value: Any, path: str, pack: frozenset[Card]) -> Card | None:
        try:
            card = Card.parse(value)
        except CardInvalid as exc:
            self.error("card_invalid", path, f"{path}: {exc}")
            return None
        if card not in pack:
            self.error("card_invalid", path, f"{path}: {card} is not in this game's pack")
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
                self.error("card_duplicate", where, f"{where}: {card} also appears at {seen[card]}")
                ok = False
                continue
            seen[card] = where
            result.append(card)
        return result if ok else None


def describe(value: Any) -> str:
    if value is MISSING:
        return "nothing"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return repr(value) if len(value) <= 20 else repr(value[:20] + "…")
    return {dict: "an object", list: "a list"}.get(type(value), type(value).__name__)
