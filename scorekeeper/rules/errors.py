"""Errors of the rules engine: ``ValueError`` subclasses with stable codes."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .result import Evaluation, Problem


class RulesError(ValueError):
    """Base of every error the engine raises on purpose. ``code`` is stable."""

    code = "rules_error"

    def __init__(self, message: str, *, code: str | None = None, path: str = ""):
        super().__init__(message)
        if code is not None:
            self.code = code
        self.path = path
        self.message = message


class CardInvalid(RulesError):
    code = "card_invalid"


class UnknownGame(RulesError):
    code = "game_unknown"


class OptionsInvalid(RulesError):
    """Raised when a preset name or an option override is not acceptable."""

    code = "options_invalid"

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        super().__init__("; ".join(f"{p.path}: {p.message}" for p in problems))


class HandRejected(RulesError):
    """Raised by ``Ruleset.score`` when the hand has errors or mismatches.

    ``evaluation`` is the full result: errors, mismatches and (for mismatches)
    the computed scores, so a caller can explain the rejection.
    """

    code = "hand_rejected"

    def __init__(self, evaluation: Evaluation):
        self.evaluation = evaluation
        first = (evaluation.errors or evaluation.mismatches)[0]
        code = getattr(first, "code", "score_mismatch")
        message = getattr(first, "message", None) or getattr(first, "explanation", "")
        super().__init__(message, code=code)
