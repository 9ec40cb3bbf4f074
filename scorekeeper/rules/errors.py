"""Errors of the rules engine: ``ValueError`` subclasses with stable codes.

An error's text is a ``Message`` (code and parameters, see ``messages``): ``str(exc)`` and
``exc.message`` are English, ``exc.text`` renders in any language.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from .messages import Message
from .result import text_of

if TYPE_CHECKING:
    from .result import Evaluation, Problem


class RulesError(ValueError):
    """Base of every error the engine raises on purpose. ``code`` is stable."""

    code = "rules_error"

    def __init__(self, message: str | Message, *, code: str | None = None, path: str = ""):
        text = message if isinstance(message, Message) else Message(message)
        super().__init__(text)
        if code is not None:
            self.code = code
        self.path = path
        self.text = text

    @property
    def message(self) -> str:
        return str(self.text)

    def __str__(self) -> str:
        return str(self.text)


class CardInvalid(RulesError):
    code = "card_invalid"


class UnknownGame(RulesError):
    code = "game_unknown"


class OptionsInvalid(RulesError):
    """Raised when a preset name or an option override is not acceptable."""

    code = "options_invalid"

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        at: list[Any] = [Message("result.at_path", {"path": p.path, "message": text_of(p)}) for p in problems]
        super().__init__(Message("result.problems", {"problems": at}))


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
        super().__init__(text_of(first), code=code)
