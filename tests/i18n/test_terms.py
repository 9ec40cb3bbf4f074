"""The games' words (each option's, declared in the engine; scorekeeper/matches/terms.py the
rest) cover every option the engine ships, in every language."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polib
import pytest
from django.conf import settings
from django.utils import translation

from scorekeeper.matches import terms
from scorekeeper.rules import RULESETS
from scorekeeper.rules.messages import Term

GAMES = sorted(RULESETS)
TRANSLATED = [code for code, _ in settings.LANGUAGES if code != settings.LANGUAGE_CODE]


@pytest.mark.parametrize("game", GAMES)
def test_every_option_and_choice_has_its_words(game):
    """Declared with the option, not made up from its name (as a test game's are)."""
    for field in dataclasses.fields(RULESETS[game].Options):
        assert field.metadata["label"], field.name
        for choice in field.metadata["choices"] or ():
            if not isinstance(choice, int):
                assert choice in field.metadata["choice_labels"], (field.name, choice)


@pytest.mark.parametrize("language", TRANSLATED)
@pytest.mark.parametrize("game", GAMES)
def test_every_label_and_choice_word_is_translated_in_the_engines_catalog(game, language):
    """The engine's words are the engine's catalog's (scorekeeper/rules/locale), not the site's."""
    po = Path(settings.BASE_DIR) / "scorekeeper" / "rules" / "locale" / language / "LC_MESSAGES" / "django.po"
    translated = {(e.msgctxt, e.msgid) for e in polib.pofile(str(po)).translated_entries()}
    for field in dataclasses.fields(RULESETS[game].Options):
        words = [field.metadata["label"], *field.metadata["choice_labels"].values()]
        for text in words:
            key = (text.context, text.message) if isinstance(text, Term) else (None, text)
            assert key in translated, (field.name, key)


def test_the_described_game_keeps_the_machine_parts_and_translates_the_words():
    catalog = RULESETS["bank"].describe()
    with translation.override("ru"):
        described = terms.describe_game(RULESETS["bank"])
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
        english = terms.describe_game(RULESETS[game])
    with translation.override(language):
        described = terms.describe_game(RULESETS[game])
    for ours, theirs in zip(described["options"], english["options"], strict=True):
        assert ours["help"] != theirs["help"], (game, ours["name"])
        assert ours["label"] != theirs["label"] or ours["label"] in ("Rubicon", "Points"), ours["name"]


def test_a_game_without_words_falls_back_to_the_engines_english(tally):
    with translation.override("en"):
        described = terms.describe_game(tally)
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
