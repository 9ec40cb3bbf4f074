"""The forms of the web pages: one hand form per game family, and the match forms.

``base`` holds what every hand form shares (see there how a form becomes a record and the
engine's errors come back onto its fields); ``piquet``, ``cul``, ``bank`` and ``bastard``
one family each; ``match`` a new match, a void or reopen, another scorer.
"""

from .bank import BankForm
from .base import HandForm, JsonOnlyForm
from .bastard import BastardForm
from .cul import CulForm
from .match import MatchCreateForm, PlayerClaimForm, ReasonForm, ScorerAddForm
from .piquet import PiquetForm

#: The form of each game the engine ships; another game (a test game) is typed as JSON.
HAND_FORMS: dict[str, type[HandForm]] = {
    game: form for form in (PiquetForm, CulForm, BankForm, BastardForm) for game in form.games
}


def hand_form_class(game: str) -> type[HandForm]:
    return HAND_FORMS.get(game, JsonOnlyForm)


__all__ = [
    "HAND_FORMS",
    "BankForm",
    "BastardForm",
    "CulForm",
    "HandForm",
    "JsonOnlyForm",
    "MatchCreateForm",
    "PiquetForm",
    "PlayerClaimForm",
    "ReasonForm",
    "ScorerAddForm",
    "hand_form_class",
]
