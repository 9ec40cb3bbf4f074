"""The games' words for people, in their language: titles, option labels and help, choices.

The rules engine names its games and options in English for its own catalog
(``Ruleset.describe()``); what a person reads at the table is translated here, at the Django
boundary, so that the engine stays plain Python. The pages (the new-match form) and the API's
game catalog (``GET /api/v1/games``) both read ``describe_game``. Every game and option the
engine ships has its entry here (tests/test_i18n_terms.py); an entry missing for a game
registered on the fly (a test game) falls back to the engine's own English.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

GAME_TITLES = {
    "piquet": _("Piquet (Rubicon, six-deal partie)"),
    "piquet-au-cent": _("Piquet au cent (to a hundred)"),
    "piquet-auction": _("Auction piquet"),
    "piquet-voleur": _("Piquet voleur (four-hand partnership piquet)"),
    "piquet-normand": _("Piquet normand (three-hand piquet)"),
    "cul": _("cul («Жопа»)"),
    "bank": _("Bank («Банк»)"),
    "bastard": _("Bastard (Ugly)"),
}

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

_PIQUET_SETS = _("aces form no trio or quatorze")
_PIQUET_CAPOT = _("capot = 10 for the cards + 40 instead of 40 in all")
_PIQUET_EXCHANGE_ORDER = _("who exchanges first")
_PIQUET_RUBICON = _("the Rubicon line and the game bonus")
_PIQUET_TARGET = _("points for game")
_FIRST_LEADER = _("who leads trick 1 of a deal of three or four hands")
_TRUMPS_BANK = _(
    "1 each a different trump; 2 no trumps; 3 one common; 4 two common; 5 junior and senior trumps"
)

#: The help of each option, per game (the same option may mean a little more in another game).
OPTION_HELP = {
    "piquet": {
        "sets_exclude_aces": _PIQUET_SETS,
        "capot_additive": _PIQUET_CAPOT,
        "exchange_order": _PIQUET_EXCHANGE_ORDER,
        "deals": _("deals in a partie before the tie rule"),
        "rubicon": _PIQUET_RUBICON,
    },
    "piquet-au-cent": {
        "sets_exclude_aces": _PIQUET_SETS,
        "capot_additive": _PIQUET_CAPOT,
        "exchange_order": _PIQUET_EXCHANGE_ORDER,
        "target": _PIQUET_TARGET,
        "finish_hand": _(
            "false: the game ends the moment a player reaches the target; "
            "true: the deal is played out and the higher total wins"
        ),
        "double_when": _("when the game counts double (half = target / 2)"),
    },
    "piquet-auction": {
        "sets_exclude_aces": _PIQUET_SETS,
        "capot_additive": _PIQUET_CAPOT,
        "exchange": _("whether players exchange"),
        "deals": _("deals in a partie"),
        "rubicon": _PIQUET_RUBICON,
    },
    "piquet-normand": {
        "sets_exclude_aces": _PIQUET_SETS,
        "capot_additive": _("capot is added to the 10 for the cards (three hands: 30)"),
        "repique_total": _("a three-hand repique at 20 counts this total (bonus = total − 20)"),
        "target": _PIQUET_TARGET,
        "first_leader": _FIRST_LEADER,
    },
    "piquet-voleur": {
        "sets_exclude_aces": _PIQUET_SETS,
        "capot_additive": _("capot = 10 for the cards + 40"),
        "target": _PIQUET_TARGET,
        "first_leader": _FIRST_LEADER,
    },
    "bank": {
        "target": _("points to win (≥ target, spec 1.9)"),
        "leftover_rule": _(
            "rule B: the cards left in a loser's hand cost points; rule A (none): they cost nothing"
        ),
        "penalty_option": _(
            "option 1: the left cards' points; 2a: a fixed amount; 2b: an amount per left card"
        ),
        "penalty_reading": _(
            "options 2a/2b: added to the cards' points, instead of them, or only for cards worth nothing"
        ),
        "penalty_flat": _("option 2a amount"),
        "penalty_per_card": _("option 2b amount per card"),
        "king_bonus": _("the bonus for going out with a king is added to the going-out bonus or replaces it"),
        "tiebreak_players": _(
            "who plays the party that breaks a tie on top: the tied players only, or everybody"
        ),
        "trump_scheme": _TRUMPS_BANK,
        "seven_rule": _("what the next player does after a seven"),
        "next_dealer_rule": _("who deals the next party (loser, most_points and fewest_points are checked)"),
    },
    "bastard": {
        "charm_alone_quadruples": _(
            "7♣ without 7♦ and without jacks scores 4 per trick (seed reading); classic: no effect."
        ),
        "removed_card_3p": _("Card removed from the pack with 3 players."),
        "hands": _(
            'Hands per match; "auto" = 7 with 4 players, 9 with 3 (passing then covers the whole hand).'
        ),
        "passing": _(
            "Cards passed before each hand: 1, 3, 5 … (pagat), or none (seed); checked as a warning."
        ),
    },
    "cul": {
        "not_go_target_6p": _(
            "Not-go target with 6 players (the seed's 128 breaks the table's 24-point gap)."
        ),
        "rating_scale": _("Rating formula: literal S(D−G)/(KT) + 50 %, or normalised 50 % + half of it."),
        "trump_scheme": _(
            "1 each a different trump; 2 no trumps; 3 one common; 4 two common; 5 ♦ junior, ♠ senior."
        ),
        "dealer_rule": _("Who deals the next party: the previous party's first leader (warned), or anybody."),
    },
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


def game_title(game: str, default: str | None = None) -> str:
    """The game's title in the active language (the engine's own, or the key, if unknown)."""
    title = GAME_TITLES.get(game)
    return str(title) if title is not None else default or game


def option_label(name: str) -> str:
    return str(OPTION_LABELS.get(name) or name.replace("_", " ").capitalize())


def option_help(game: str, name: str, default: str = "") -> str:
    text = OPTION_HELP.get(game, {}).get(name)
    return str(text) if text is not None else default


def choice_label(option: str, value: Any) -> str:
    label = CHOICE_LABELS.get((option, value))
    return str(label) if label is not None else str(value).replace("_", " ")


def describe_game(catalog: dict[str, Any]) -> dict[str, Any]:
    """A ``Ruleset.describe()`` entry with its words in the active language.

    The machine parts (key, option names, types, values) stay as the engine gives them; the
    title and each option's help are translated, and each option gains a ``label`` and, for
    a choice, ``choice_labels`` (value → words, in the order of ``choices``).
    """
    game = catalog["key"]
    options = []
    for spec in catalog["options"]:
        spec = {
            **spec,
            "label": option_label(spec["name"]),
            "help": option_help(game, spec["name"], spec["help"]),
        }
        if "choices" in spec:
            spec["choice_labels"] = [choice_label(spec["name"], c) for c in spec["choices"]]
        options.append(spec)
    return {**catalog, "title": game_title(game, catalog["title"]), "options": options}


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
