"""The games' words (scorekeeper/matches/terms.py) cover every option the engine ships."""

from __future__ import annotations

import pytest
from django.utils import translation

from scorekeeper.matches import terms
from scorekeeper.rules import RULESETS

GAMES = sorted(RULESETS)


@pytest.mark.parametrize("game", GAMES)
def test_every_option_and_choice_has_its_words(game):
    catalog = RULESETS[game].describe()
    for spec in catalog["options"]:
        assert spec["name"] in terms.OPTION_LABELS, spec["name"]
        for choice in spec.get("choices", []):
            if not isinstance(choice, int):
                assert (spec["name"], choice) in terms.CHOICE_LABELS, (spec["name"], choice)


def test_the_described_game_keeps_the_machine_parts_and_translates_the_words():
    catalog = RULESETS["bank"].describe()
    with translation.override("ru"):
        described = terms.describe_game(catalog)
    assert described["key"] == "bank" and described["title"] == "Банк"
    target = next(spec for spec in described["options"] if spec["name"] == "leftover_rule")
    assert target["choices"] == ["penalty", "none"]  # values stay as the engine has them
    assert target["choice_labels"] == ["штраф (правило B)", "без штрафа (правило A)"]
    assert target["label"] == "Карты, оставшиеся на руках"
    assert (
        target["defaults"] == next(s for s in catalog["options"] if s["name"] == "leftover_rule")["defaults"]
    )


@pytest.mark.parametrize("language", ["fr", "de", "ru"])
@pytest.mark.parametrize("game", GAMES)
def test_every_help_and_label_is_translated(game, language):
    with translation.override("en"):
        english = terms.describe_game(RULESETS[game].describe())
    with translation.override(language):
        described = terms.describe_game(RULESETS[game].describe())
    for ours, theirs in zip(described["options"], english["options"], strict=True):
        assert ours["help"] != theirs["help"], (game, ours["name"])
        assert ours["label"] != theirs["label"] or ours["label"] in ("Rubicon", "Points"), ours["name"]


def test_a_game_without_words_falls_back_to_the_engines_english(tally):
    with translation.override("en"):
        described = terms.describe_game(tally.describe())
    assert described["title"] == tally.title
    assert [spec["label"] for spec in described["options"]] == ["Target", "Dealer check"]


@pytest.mark.parametrize(
    ("game", "item", "french"),
    [
        ("piquet", "point", "point"),
        ("piquet", "sets", "quatorzes et brelans"),
        ("bastard", "jacks", "valets"),
        ("cul", "bank_change", "banques"),
    ],
)
def test_a_breakdown_item_is_named_in_the_language(game, item, french):
    with translation.override("fr"):
        label = terms.breakdown_item(game, item)
    assert label == french
    assert terms.breakdown_item("tally", "points") == "points"  # a test game's own item
