"""The games' words for people, in their language: option labels, choices, presets, results.

A game's title and its options' help are the engine's own text, translated from its catalog
(``scorekeeper.matches.i18n.game``); what the engine does not name for people is named here:
each option's label, the words for its choices, the presets, the entries of a result. The
pages (the new-match form, a match's options) and the API's game catalog
(``GET /api/v1/games``) both read ``describe_game``. Every option and choice the engine ships
has its words here (tests/test_i18n_terms.py); one a game registered on the fly (a test game)
lacks falls back to its name.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from scorekeeper.rules import RULESETS
from scorekeeper.rules.messages import MESSAGES

from . import i18n

PRESET_LABELS = {
    "classic": _("classic (the authorities)"),
    "seed": _("seed (the literal house text)"),
}

#: The label of each option (the same in every game that has it).
OPTION_LABELS = {
    "sets_exclude_aces": _("No sets of aces"),
    "capot_additive": _("Capot on top of the cards"),
    "exchange_order": _("Exchange order"),
    "exchange": _("Exchange"),
    "deals": _("Deals"),
    "rubicon": _("Rubicon"),
    "target": _("Target"),
    "finish_hand": _("Play the deal out"),
    "double_when": _("Double game"),
    "repique_total": _("Repique total"),
    "first_leader": _("First lead"),
    "leftover_rule": _("Cards left in hand"),
    "penalty_option": _("Penalty"),
    "penalty_reading": _("Reading of the penalty"),
    "penalty_flat": _("Fixed penalty"),
    "penalty_per_card": _("Penalty per card"),
    "king_bonus": _("Going-out bonus with a king"),
    "tiebreak_players": _("Tie-break party"),
    "trump_scheme": _("Trumps"),
    "seven_rule": _("After a seven"),
    "next_dealer_rule": _("Next dealer"),
    "charm_alone_quadruples": _("Charm alone scores four"),
    "removed_card_3p": _("Card removed with 3 players"),
    "hands": _("Hands"),
    "passing": _("Passing"),
    "not_go_target_6p": _("Not-go target with 6 players"),
    "rating_scale": _("Rating formula"),
    "dealer_rule": _("Next dealer"),
}

#: The words for an option's choices, by option and value; a number stands for itself.
CHOICE_LABELS: dict[tuple[str, Any], Any] = {
    ("exchange_order", "elder_first"): _("elder first"),
    ("exchange_order", "dealer_first"): _("dealer first"),
    ("exchange", "allowed"): _("allowed"),
    ("exchange", "none"): pgettext_lazy("exchange", "none"),
    ("double_when", "loser_below_half"): _("the loser below half the target"),
    ("double_when", "loser_at_least_half"): _("the loser at half the target or more"),
    ("first_leader", "dealer_right"): _("the dealer's right"),
    ("first_leader", "dealer_left"): _("the dealer's left"),
    ("leftover_rule", "penalty"): _("penalty (rule B)"),
    ("leftover_rule", "none"): _("no penalty (rule A)"),
    ("penalty_option", "cards"): _("the cards' points (1)"),
    ("penalty_option", "flat"): _("a fixed amount (2a)"),
    ("penalty_option", "per_card"): _("an amount per card (2b)"),
    ("penalty_reading", "additive"): _("added to the cards' points"),
    ("penalty_reading", "replace"): _("instead of the cards' points"),
    ("penalty_reading", "pointless_only"): _("only for cards worth nothing"),
    ("king_bonus", "additive"): _("added"),
    ("king_bonus", "replace"): _("replaces the going-out bonus"),
    ("tiebreak_players", "tied_only"): _("the tied players only"),
    ("tiebreak_players", "all"): _("everybody"),
    ("next_dealer_rule", "free"): _("anybody"),
    ("next_dealer_rule", "loser"): _("the loser"),
    ("next_dealer_rule", "finisher"): _("the first to go out"),
    ("next_dealer_rule", "starter"): _("the one who started"),
    ("next_dealer_rule", "most_points"): _("the most points"),
    ("next_dealer_rule", "fewest_points"): _("the fewest points"),
    ("removed_card_3p", "2S"): _("the two of spades"),
    ("removed_card_3p", "QS"): _("the queen of spades"),
    ("passing", "increasing"): _("1, 3, 5 … cards (pagat)"),
    ("passing", "none"): pgettext_lazy("passing", "none"),
    ("rating_scale", "literal"): _("literal"),
    ("rating_scale", "normalised"): _("normalised"),
    ("dealer_rule", "previous_first_leader"): _("the previous party's first leader"),
    ("dealer_rule", "free"): _("anybody"),
}


#: The presets' short names ("classic preset, 5 options"; "classic: yes, seed: no").
PRESET_NAMES = {"classic": pgettext_lazy("preset", "classic"), "seed": pgettext_lazy("preset", "seed")}


def show_value(option: str, value: Any) -> str:
    """An option's value in words: yes or no, a choice's label, a number as it is."""
    if isinstance(value, bool):
        return str(_("yes") if value else _("no"))
    return choice_label(option, value)


def option_rows(options: dict[str, Any]) -> list[dict[str, str]]:
    """A match's resolved options as (label, value) rows for the match page."""
    return [
        {"label": option_label(name), "value": show_value(name, value)} for name, value in options.items()
    ]


def game_title(game: str) -> str:
    """The title of the game ``game`` (a key) in the active language; the key if unknown."""
    ruleset = RULESETS.get(game)
    return i18n.game({"title": ruleset.title})["title"] if ruleset else game


def option_label(name: str) -> str:
    return str(OPTION_LABELS.get(name) or name.replace("_", " ").capitalize())


def choice_label(option: str, value: Any) -> str:
    label = CHOICE_LABELS.get((option, value))
    return str(label) if label is not None else str(value).replace("_", " ")


def describe_game(catalog: dict[str, Any]) -> dict[str, Any]:
    """A ``Ruleset.describe()`` entry with its words in the active language.

    The machine parts (key, option names, types, values) stay as the engine gives them; the
    title and each option's help are translated (the engine's catalog), and each option gains
    a ``label`` and, for a choice, ``choice_labels`` (its words, in the order of ``choices``).
    """
    described = i18n.game(catalog)
    options = []
    for spec in described["options"]:
        spec = {**spec, "label": option_label(spec["name"])}
        if "choices" in spec:
            spec["choice_labels"] = [choice_label(spec["name"], c) for c in spec["choices"]]
        options.append(spec)
    return {**described, "options": options}


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
