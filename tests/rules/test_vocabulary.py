"""The games' vocabulary the engine owns: where a record holds the declared scores, cul's
required keys."""

from __future__ import annotations

import pytest

from scorekeeper.rules import RULESETS, Ruleset, find_ruleset
from scorekeeper.rules.cul import RECORD_SCHEMA, REQUIRED_KEYS

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
