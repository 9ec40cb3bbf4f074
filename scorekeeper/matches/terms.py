"""The games' words for people, in their language: games and options, presets, results.

A game's title and its options' labels, help and choices' words are the engine's own text,
declared with each option and translated from the engine's catalog (``describe_game``); what
the engine does not name for people is named here: the presets, the entries of a result, the
items of a breakdown. The pages (the new-match form, a match's options) and the API's game
catalog (``GET /api/v1/games``) both read ``describe_game``. Every option and choice the engine
ships has its words (tests/test_i18n_terms.py); an option a game registered on the fly (a test
game) declares without them is named by its name.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext, pgettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scorekeeper.rules import RULESETS, Ruleset
from scorekeeper.rules.messages import MESSAGES
from scorekeeper.rules.options import choice_words, name_label

from . import i18n

PRESET_LABELS = {
    "classic": _("classic (the authorities)"),
    "seed": _("seed (the literal house text)"),
}

#: The presets' short names ("classic preset, 5 options"; "classic: yes, seed: no").
PRESET_NAMES = {"classic": pgettext_lazy("preset", "classic"), "seed": pgettext_lazy("preset", "seed")}


def show_value(spec: dict[str, Any] | None, value: Any) -> str:
    """An option's value in words: yes or no, a choice's words (``spec``, the option's entry
    of ``describe_game``), a number as it is."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    choices = spec.get("choices", []) if spec else []
    label = dict(zip(choices, spec["choice_labels"], strict=True)).get(value) if spec and choices else None
    return label if label is not None else choice_words(value)


def option_rows(game: str, options: dict[str, Any]) -> list[dict[str, str]]:
    """The resolved options of a match of ``game`` (a key) as (label, value) rows for the match
    page; an option the game no longer declares is named by its name."""
    ruleset_class = RULESETS.get(game)
    specs = {spec["name"]: spec for spec in describe_game(ruleset_class)["options"]} if ruleset_class else {}
    return [
        {
            "label": specs[name]["label"] if name in specs else gettext(name_label(name)),
            "value": show_value(specs.get(name), value),
        }
        for name, value in options.items()
    ]


def game_title(game: str) -> str:
    """The title of the game ``game`` (a key) in the active language; the key if unknown."""
    ruleset_class = RULESETS.get(game)
    return gettext(ruleset_class.title) if ruleset_class else game


def describe_game(ruleset_class: type[Ruleset]) -> dict[str, Any]:
    """The game's catalog entry (``Ruleset.describe()``) in the active language.

    The machine parts (key, option names, types, values) stay as the engine gives them; the
    title and each option's ``label``, ``help`` and, for a choice, ``choice_labels`` (its
    words, in the order of ``choices``) are translated from the engine's catalog.
    """
    return ruleset_class.describe(gettext=gettext, pgettext=pgettext)


#: The entries of a match's result (spec 1.5 ``result``) as the result table names them.
RESULT_LABELS = {
    "placements": _("Place"),
    "totals": _("Total"),
    "banks": _("Banks"),
    "rating_pct": _("Rating (%)"),
    "settlement": _("Settlement"),
    "winner": _("Winner"),
    "winning_team": _("Winning team"),
    "finish_order": _("Order of going out"),
    "points_won": _("Points won"),
    "rubiconed": _("Rubiconed"),
    "double": _("Double game"),
}


def result_label(key: str) -> str:
    label = RESULT_LABELS.get(key)
    return str(label) if label is not None else key.replace("_", " ")


#: The items of a hand's breakdown (``Line.item``) the engine has no term for; piquet's are
#: the engine's own terms (``piquet.item.<item>``).
BREAKDOWN_ITEMS = {
    "captured": pgettext_lazy("breakdown", "cards taken"),
    "finish": pgettext_lazy("breakdown", "going out"),
    "finish_king": pgettext_lazy("breakdown", "going out with a king"),
    "four_of_kind": pgettext_lazy("breakdown", "four of a kind"),
    "four_run": pgettext_lazy("breakdown", "run of four"),
    "penalty": pgettext_lazy("breakdown", "penalty"),
    "tricks": pgettext_lazy("breakdown", "tricks"),
    "jacks": pgettext_lazy("breakdown", "jacks"),
    "charm_bonus": pgettext_lazy("breakdown", "the Charm"),
    "ugly_bonus": pgettext_lazy("breakdown", "the Ugly card"),
    "bank_change": pgettext_lazy("breakdown", "banks"),
}


def breakdown_item(game: str, item: str) -> str:
    """What a breakdown line counts ("point", "tricks") in the active language."""
    code = f"piquet.item.{item}"
    if game.startswith("piquet") and code in MESSAGES:
        return i18n.render(code)
    label = BREAKDOWN_ITEMS.get(item)
    return str(label) if label is not None else item.replace("_", " ")
