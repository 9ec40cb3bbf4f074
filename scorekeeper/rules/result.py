"""The result shape of spec 1.5 and the collector games fill while evaluating a hand."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True, slots=True)
class Problem:
    """An error or a warning: a stable ``code``, a ``path`` into the input, a human ``message``."""

    code: str
    path: str
    message: str

    def to_dict(self) -> dict[str, str]:
        return {"code": self.code, "path": self.path, "message": self.message}


@dataclass(frozen=True, slots=True)
class Mismatch:
    """A seat's declared value differs from the computed one."""

    seat: int
    declared: Any
    computed: Any
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "declared": self.declared,
            "computed": self.computed,
            "explanation": self.explanation,
        }

    def as_problem(self) -> Problem:
        return Problem(
            "score_mismatch",
            f"declared[{self.seat}]",
            f"seat {self.seat} declared {self.declared}, the rules give {self.computed}: "
            f"{self.explanation}",
        )


@dataclass(frozen=True, slots=True)
class Line:
    """One breakdown line: ``points`` earned by ``seat`` for ``item``."""

    seat: int
    item: str
    points: int
    note: str

    def to_dict(self) -> dict[str, Any]:
        return {"seat": self.seat, "item": self.item, "points": self.points, "note": self.note}


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
    def error(self, code: str, path: str, message: str) -> None:
        self.errors.append(Problem(code, path, message))

    def warn(self, code: str, path: str, message: str) -> None:
        self.warnings.append(Problem(code, path, message))

    def line(self, seat: int, item: str, points: int, note: str) -> None:
        self.breakdown.append(Line(seat, item, points, note))

    def mismatch(self, seat: int, declared: Any, computed: Any, explanation: str) -> None:
        self.mismatches.append(Mismatch(seat, declared, computed, explanation))

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


def competition_ranking(values: list[int], *, lower_is_better: bool = False) -> list[int]:
    """Spec 1.1 placements: 1 + the number of players with a strictly better value (1, 1, 3)."""
    if lower_is_better:
        return [1 + sum(other < v for other in values) for v in values]
    return [1 + sum(other > v for other in values) for v in values]
