"""The result shape of spec 1.5 and the collector games fill while evaluating a hand.

Errors, warnings, mismatch explanations and breakdown notes hold a message code and its
parameters (see ``messages``); their English text is rendered when it is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from .messages import MESSAGES, Message, params_to_json, render


def _with_text(out: dict[str, Any], key: str, code: str, params: Mapping[str, Any] | None) -> dict[str, Any]:
    """``out`` with the English text under ``key``, and its ``key_code`` and ``key_params`` (the
    stable form, for storage); a plain text (a test's fake game writes one) has no code."""
    out[key] = render(code, params)
    if code in MESSAGES:
        out[f"{key}_code"] = code
        out[f"{key}_params"] = params_to_json(params)
    return out


@dataclass(frozen=True, slots=True)
class Problem:
    """An error or a warning: a stable ``code``, a ``path`` into the input, and its message
    (``message_code`` with ``message_params``; ``message`` is the English text)."""

    code: str
    path: str
    message_code: str
    message_params: Mapping[str, Any] | None = None

    #: The English text, rendered when it is read.
    message = property(lambda self: render(self.message_code, self.message_params))

    def to_dict(self) -> dict[str, Any]:
        out = {"code": self.code, "path": self.path}
        return _with_text(out, "message", self.message_code, self.message_params)


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A seat's declared value differs from the computed one; ``explanation`` says why."""

    seat: int
    declared: Any
    computed: Any
    explanation_code: str
    explanation_params: Mapping[str, Any] | None = None

    explanation = property(lambda self: render(self.explanation_code, self.explanation_params))

    def to_dict(self) -> dict[str, Any]:
        out = {"seat": self.seat, "declared": self.declared, "computed": self.computed}
        return _with_text(out, "explanation", self.explanation_code, self.explanation_params)

    def as_problem(self) -> Problem:
        params = {
            "seat": self.seat,
            "declared": self.declared,
            "computed": self.computed,
            "explanation": text_of(self),
        }
        return Problem("score_mismatch", f"declared[{self.seat}]", "result.score_mismatch", params)


@dataclass(frozen=True, slots=True)
class Line:
    """One breakdown line: ``points`` earned by ``seat`` for ``item``; ``note`` says how."""

    seat: int
    item: str
    points: int
    note_code: str
    note_params: Mapping[str, Any] | None = None

    note = property(lambda self: render(self.note_code, self.note_params))

    def to_dict(self) -> dict[str, Any]:
        out = {"seat": self.seat, "item": self.item, "points": self.points}
        return _with_text(out, "note", self.note_code, self.note_params)


def text_of(item: Problem | Mismatch) -> Message:
    """The message of a problem or a mismatch, to render in any language or nest in another."""
    if isinstance(item, Problem):
        return Message(item.message_code, item.message_params or {})
    return Message(item.explanation_code, item.explanation_params or {})


@dataclass(slots=True)
class Evaluation:
    """Everything the engine says about one hand (spec 1.5)."""

    scores: list[int] | None = None
    breakdown: list[Line] = field(default_factory=list)
    state_after: dict[str, Any] | None = None
    match_over: bool | None = None
    result: dict[str, Any] | None = None
    errors: list[Problem] = field(default_factory=list)
    mismatches: list[Mismatch] = field(default_factory=list)
    warnings: list[Problem] = field(default_factory=list)

    @property
    def valid(self) -> bool:
        return not self.errors and not self.mismatches

    # -- filling ---------------------------------------------------------
    # ``message`` is a catalog code and ``params`` its parameters, or a ``Message``; a text the
    # catalog does not know is shown as it is (a test's fake game writes plain English).
    def error(self, code: str, path: str, message: str | Message, /, **params: Any) -> None:
        self.errors.append(Problem(code, path, *_code_and_params(message, params)))

    def warn(self, code: str, path: str, message: str | Message, /, **params: Any) -> None:
        self.warnings.append(Problem(code, path, *_code_and_params(message, params)))

    def line(self, seat: int, item: str, points: int, note: str | Message, /, **params: Any) -> None:
        self.breakdown.append(Line(seat, item, points, *_code_and_params(note, params)))

    def mismatch(
        self, seat: int, declared: Any, computed: Any, explanation: str | Message, /, **params: Any
    ) -> None:
        self.mismatches.append(Mismatch(seat, declared, computed, *_code_and_params(explanation, params)))

    def discard_scoring(self) -> None:
        """Errors stop the evaluation: nothing is scored (spec 1.5)."""
        self.scores = None
        self.breakdown = []
        self.state_after = None
        self.match_over = None
        self.result = None
        self.mismatches = []
        self.warnings = []

    def to_dict(self) -> dict[str, Any]:
        return {
            "valid": self.valid,
            "scores": self.scores,
            "breakdown": [line.to_dict() for line in self.breakdown],
            "state_after": self.state_after,
            "match_over": self.match_over,
            "result": self.result,
            "errors": [p.to_dict() for p in self.errors],
            "mismatches": [m.to_dict() for m in self.mismatches],
            "warnings": [p.to_dict() for p in self.warnings],
        }


def _code_and_params(message: str | Message, params: Mapping[str, Any]) -> tuple[str, Mapping[str, Any]]:
    """A message given as a code and keyword parameters, or as a ``Message`` (its own parameters)."""
    if isinstance(message, Message):
        return message
    return message, params


def competition_ranking(values: list[int], *, lower_is_better: bool = False) -> list[int]:
    """Spec 1.1 placements: 1 + the number of players with a strictly better value (1, 1, 3)."""
    if lower_is_better:
        return [1 + sum(other < v for other in values) for v in values]
    return [1 + sum(other > v for other in values) for v in values]
