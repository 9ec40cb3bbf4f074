"""The games' vocabulary the engine owns: where a record holds the declared scores, cul's
required keys, the bounds of an auction contract and the words of each option."""

from __future__ import annotations

import dataclasses

import pytest

from scorekeeper.rules import RULESETS, GameOptions, OptionsInvalid, Ruleset, find_ruleset
from scorekeeper.rules.cul import RECORD_SCHEMA, REQUIRED_KEYS
from scorekeeper.rules.messages import Term, pgettext_lazy
from scorekeeper.rules.options import option
from scorekeeper.rules.piquet.two_hand import CONTRACT_PARTS, contract_part_allows

GAMES = sorted(RULESETS)


# -- the declared scores ---------------------------------------------------------------------------


def test_every_ruleset_says_which_record_keys_hold_the_declared_scores():
    assert {key: cls.declared_keys for key, cls in RULESETS.items()} == {
        "piquet": ("declared",),
        "piquet-au-cent": ("declared",),
        "piquet-auction": ("declared",),
        "piquet-voleur": ("declared",),
        "piquet-normand": ("declared",),
        "cul": ("declared_banks",),
        "bank": ("declared",),
        "bastard": ("declared",),
    }
    assert Ruleset.declared_keys == ("declared",)  # the spec's own key (spec 1.3)


@pytest.mark.parametrize("game", GAMES)
def test_the_declared_keys_are_required_per_seat_lists_of_the_record(game):
    cls = find_ruleset(game)
    for key in cls.declared_keys:
        assert key in cls.record_schema["required"]
        assert cls.record_schema["properties"][key]["type"] == "array"
        ev = cls.create("classic", seats=cls.seat_counts[0]).evaluate(None, {})
        assert ("field_missing", key) in [(e.code, e.path) for e in ev.errors]


# -- cul's required keys ---------------------------------------------------------------------------


def test_culs_required_keys_are_the_schemas_and_the_readings():
    assert RECORD_SCHEMA["required"] == list(REQUIRED_KEYS)
    cul = find_ruleset("cul").create("classic", seats=2)
    full = {"dealer": 0, "bets": ["go", "go"], "points": [40, 50], "declared_banks": [4, 2]}
    assert cul.evaluate(None, full).valid
    for key in REQUIRED_KEYS:
        record = {k: v for k, v in full.items() if k != key}
        assert [(e.code, e.path) for e in cul.evaluate(None, record).errors] == [("field_missing", key)]


# -- an auction contract's bounds ------------------------------------------------------------------

AUCTION = find_ruleset("piquet-auction")
HAND = {
    "dealer": 1, "carte_blanche": None, "point": {"scorer": 0, "cards": 5, "pips": 49}, "sequences": None,
    "sets": {"scorer": 1, "sets": [{"rank": "K", "count": 3}]},
    "tricks": [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0], "declared": [34, 6],
    "contract": {"declarer": 0, "tricks": 8, "sign": "plus", "multiplier": 1},
}  # fmt: skip


def test_the_contract_schema_is_the_table_of_bounds():
    schema = AUCTION.record_schema["properties"]["contract"]
    assert schema["required"] == list(CONTRACT_PARTS)
    assert schema["properties"] == {part: bounds for part, (bounds, _) in CONTRACT_PARTS.items()}
    assert "contract" in AUCTION.record_schema["required"]


def _outside(bounds):
    if "enum" in bounds:
        return [*(True for v in bounds["enum"] if v == 1), "x", 3]
    return [bounds["minimum"] - 1, bounds["maximum"] + 1, float(bounds["minimum"]), True]


def _inside(bounds):
    return list(bounds["enum"]) if "enum" in bounds else [bounds["minimum"], bounds["maximum"]]


@pytest.mark.parametrize("part", CONTRACT_PARTS)
def test_the_reading_of_a_contract_checks_the_tables_bounds(part):
    bounds, code = CONTRACT_PARTS[part]
    game = AUCTION.create("classic", seats=2)
    for value in _inside(bounds):
        assert contract_part_allows(part, value), value
        ev = game.evaluate(None, {**HAND, "contract": {**HAND["contract"], part: value}})
        assert [e for e in ev.errors if e.path == f"contract.{part}"] == [], value
    for value in _outside(bounds):
        assert not contract_part_allows(part, value), value
        ev = game.evaluate(None, {**HAND, "contract": {**HAND["contract"], part: value}})
        assert [(e.code, e.message_code) for e in ev.errors if e.path == f"contract.{part}"] == [
            ("contract_invalid", code)
        ], value


# -- the options' words ----------------------------------------------------------------------------


@pytest.mark.parametrize("game", GAMES)
def test_every_option_is_described_with_its_label_and_its_choices_words(game):
    for spec in find_ruleset(game).Options.specs():
        assert spec["label"] and spec["help"], spec["name"]
        if "choices" in spec:
            assert len(spec["choice_labels"]) == len(spec["choices"]), spec["name"]
            for choice, words in zip(spec["choices"], spec["choice_labels"], strict=True):
                assert words, (spec["name"], choice)
                if isinstance(choice, int):
                    assert words == str(choice)  # a number stands for itself
        else:
            assert "choice_labels" not in spec


def test_the_catalog_keeps_its_key_order_with_the_words_last():
    spec = next(s for s in find_ruleset("bank").describe()["options"] if s["name"] == "leftover_rule")
    assert list(spec) == ["name", "type", "effect", "help", "defaults", "choices", "label", "choice_labels"]
    assert spec["label"] == "Cards left in hand"
    assert spec["choice_labels"] == ["penalty (rule B)", "no penalty (rule A)"]


def test_the_words_are_rendered_in_the_language_of_the_functions_given():
    said = []

    def gettext(text):
        said.append((None, text))
        return text.upper()

    def pgettext(context, text):
        said.append((context, text))
        return f"{context}:{text}"

    entry = find_ruleset("piquet-auction").describe(gettext=gettext, pgettext=pgettext)

    assert entry["title"] == "AUCTION PIQUET"
    exchange = next(s for s in entry["options"] if s["name"] == "exchange")
    assert exchange["label"] == "EXCHANGE" and exchange["help"] == "WHETHER PLAYERS EXCHANGE"
    assert exchange["choice_labels"] == ["ALLOWED", "exchange:none"]  # a word with its context
    assert exchange["choices"] == ["allowed", "none"]  # the values stay as they are
    assert ("exchange", "none") in said


def test_an_option_declared_without_words_is_named_by_its_name_and_values():
    @dataclasses.dataclass(frozen=True)
    class Plain(GameOptions):
        dealer_check: bool = option(True, effect="check", help="warn")
        speed: str = option("slow_pace", effect="recorded", choices=("slow_pace", "fast"), help="how fast")
        order: str = option(
            "up", effect="recorded", choices={"up": pgettext_lazy("order", "up"), "down": "down"}, help="h"
        )

    specs = {spec["name"]: spec for spec in Plain.specs()}
    assert specs["dealer_check"]["label"] == "Dealer check"
    assert specs["speed"]["choice_labels"] == ["slow pace", "fast"]
    assert specs["order"]["choices"] == ["up", "down"] and specs["order"]["choice_labels"] == ["up", "down"]
    meta = dataclasses.fields(Plain)[2].metadata
    assert meta["choice_labels"]["up"] == Term("order", "up")
    with pytest.raises(OptionsInvalid):  # the values are the mapping's keys
        Plain.resolve("classic", {"order": "sideways"})
    assert Plain.resolve("classic", {"order": "down"}).order == "down"
