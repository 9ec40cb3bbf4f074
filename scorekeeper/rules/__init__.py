"""The rules engine: plain Python, no Django (a test checks it).

>>> from scorekeeper.rules import find_ruleset
>>> game = find_ruleset("piquet").create("classic", seats=2)
>>> evaluation = game.evaluate(None, record)  # never raises on bad input
"""

from .cards import Card
from .errors import CardInvalid, HandRejected, OptionsInvalid, RulesError, UnknownGame
from .options import GameOptions
from .result import Evaluation, Line, Mismatch, Problem
from .ruleset import RULESETS, Ruleset, find_ruleset, register

# Game modules register their rulesets on import.
from . import piquet, cul, bank, bastard  # noqa: F401  isort: skip

__all__ = [
    "RULESETS",
    "Card",
    "CardInvalid",
    "Evaluation",
    "GameOptions",
    "HandRejected",
    "Line",
    "Mismatch",
    "OptionsInvalid",
    "Problem",
    "RulesError",
    "Ruleset",
    "UnknownGame",
    "find_ruleset",
    "register",
]
