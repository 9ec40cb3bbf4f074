"""The forms of the web pages (see ``base``)."""

from .base import (
    HAND_FORMS,
    BankForm,
    BastardForm,
    CulForm,
    HandForm,
    JsonOnlyForm,
    MatchCreateForm,
    PiquetForm,
    ReasonForm,
    ScorerAddForm,
    hand_form_class,
)

__all__ = [
    "HAND_FORMS",
    "BankForm",
    "BastardForm",
    "CulForm",
    "HandForm",
    "JsonOnlyForm",
    "MatchCreateForm",
    "PiquetForm",
    "ReasonForm",
    "ScorerAddForm",
    "hand_form_class",
]
