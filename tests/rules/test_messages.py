"""The engine's message catalog: codes with parameters, rendered only when read, in any language."""

from __future__ import annotations

import json
import re
import string
from pathlib import Path

import pytest

from scorekeeper.rules import cards, find_ruleset, messages, result
from scorekeeper.rules.messages import MESSAGES, Message, Plural, Term, render
from scorekeeper.rules.piquet import declarations, reckoning
from tests.rules.conformance import GAMES

ENGINE = Path(__file__).resolve().parents[2] / "scorekeeper" / "rules"
CONFORMANCE = Path(__file__).resolve().parents[1] / "data" / "conformance"
#: A message code in the engine's source: "<area>.<what>" in quotes.
AREAS = "|".join(sorted({code.split(".")[0] for code in MESSAGES}))
CODE = re.compile(rf"\"((?:{AREAS})\.[a-z0-9_.]+)\"")


def _engine_source() -> str:
    files = [p for p in sorted(ENGINE.rglob("*.py")) if p.name != "messages.py"]
    return "\n".join(p.read_text(encoding="utf-8") for p in files)


def _placeholders(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _cases():
    for path in sorted(CONFORMANCE.glob("*.json")):
        yield from json.loads(path.read_text(encoding="utf-8"))


def _evaluations():
    """Every conformance hand's evaluation: valid hands, mismatches, errors, warnings."""
    for case in _cases():
        game = find_ruleset(case["game"]).create("classic", case.get("options") or {}, case["seats"])
        state = case["state"]
        for record in case.get("hands") or [case["hand"]]:
            ev = game.evaluate(state, record)
            yield case["id"], ev
            state = ev.state_after


def test_every_message_code_the_engine_uses_is_in_the_catalog():
    used = set(CODE.findall(_engine_source()))
    assert used, "the pattern still finds codes"
    assert used - set(MESSAGES) == set()


#: Terms the engine looks up by key in a table (a run by length and top card …), not by name.
TABLES = {
    "piquet.run.": declarations.RUN_NAMES,
    "piquet.set.": declarations.SET_NAMES,
    "piquet.top.": declarations.RANK_NAMES,
    "piquet.ranks.": declarations.RANK_PLURALS,
    "piquet.item.": reckoning.ITEM_NAMES,
    "card.rank.": cards.RANK_NAMES,
    "card.suit.": cards.SUIT_NAMES,
}


def test_every_catalog_entry_is_used_by_the_engine():
    """No dead entry: each one is a sentence a translator must write."""
    django_side = ENGINE.parent / "matches" / "i18n.py"  # the API's message for rejected hands
    source = _engine_source() + django_side.read_text(encoding="utf-8")
    unused = {code for code in MESSAGES if f'"{code}"' not in source}
    assert {code for code in unused if not code.startswith(tuple(TABLES))} == set()


@pytest.mark.parametrize("prefix", TABLES)
def test_each_table_of_terms_is_exactly_its_catalog_family(prefix):
    family = {code for code in MESSAGES if code.startswith(prefix)}
    assert {m.code for m in TABLES[prefix].values()} == family
    assert all(type(MESSAGES[m.code]) is Term for m in TABLES[prefix].values())


def test_every_legal_run_and_set_has_a_name():
    ranks = declarations.PIQUET_RANKS
    runs = {(length, top) for length in range(3, 9) for top in ranks if ranks.index(top) >= length - 1}
    assert set(declarations.RUN_NAMES) == runs
    sets = {(count, rank) for count in (3, 4) for rank in declarations.SET_RANKS}
    assert set(declarations.SET_NAMES) == sets


def test_a_plural_entry_names_a_placeholder_of_both_forms_as_its_count():
    for code, entry in MESSAGES.items():
        if type(entry) is Plural:
            assert entry.number in _placeholders(entry.singular) & _placeholders(entry.plural), code
            assert _placeholders(entry.singular) == _placeholders(entry.plural), code


def test_a_term_has_no_placeholders():
    for code, entry in MESSAGES.items():
        if type(entry) is Term:
            assert _placeholders(entry.message) == set(), code


def test_every_problem_mismatch_and_note_of_the_conformance_cases_has_a_catalog_code():
    seen = set()
    for where, ev in _evaluations():
        items = [(p.message_code, p.message_params) for p in ev.errors + ev.warnings]
        items += [(m.explanation_code, m.explanation_params) for m in ev.mismatches]
        items += [(line.note_code, line.note_params) for line in ev.breakdown]
        for code, params in items:
            assert code in MESSAGES, (where, code)
            entry = MESSAGES[code]
            template = entry if type(entry) is str else getattr(entry, "plural", "")
            assert _placeholders(template) <= set(params or {}), (where, code)
            seen.add(code)
    assert len(seen) > 30


def test_the_stored_codes_and_params_render_the_same_text_after_a_json_round_trip():
    for where, ev in _evaluations():
        stored = json.loads(json.dumps(ev.to_dict()))
        for p in stored["errors"] + stored["warnings"]:
            assert render(p["message_code"], p["message_params"]) == p["message"], where
        for m in stored["mismatches"]:
            assert render(m["explanation_code"], m["explanation_params"]) == m["explanation"], where
        for line in stored["breakdown"]:
            assert render(line["note_code"], line["note_params"]) == line["note"], where


def test_messages_are_not_rendered_while_a_hand_is_evaluated(monkeypatch):
    """Validation costs no more than before the catalog: the text is made when it is read."""
    evaluations = list(_evaluations())  # warm the engine's caches first
    calls = []
    for module in (messages, result):
        monkeypatch.setattr(module, "render", lambda *a, **k: calls.append(a) or "")
    for case in _cases():
        game = find_ruleset(case["game"]).create("classic", case.get("options") or {}, case["seats"])
        game.evaluate(case["state"], case.get("hand") or case["hands"][0])
    assert calls == []
    assert evaluations


def test_render_uses_the_translation_functions_it_is_given():
    french = {
        "gettext": lambda m: m.replace("is required", "est obligatoire").replace("bet {bet}", "pari {bet}"),
        "ngettext": lambda s, p, n: (s if n == 1 else p).replace(" trick", " pli"),
        "pgettext": lambda context, m: f"<{context}: {m}>",
    }
    assert render("field.required", {"path": "dealer"}, **french) == "dealer est obligatoire"
    assert render("bastard.note.tricks", {"tricks": 2}, **french) == "2 plis"
    params = {"bet": Message("cul.bet.not_go"), "points": 1, "target": 68}
    note = render("cul.note.unchanged", params, **french)
    assert note.startswith("pari <cul bet: not go>, made 1 of 68")


def test_plural_templates_choose_their_form_by_the_counting_parameter():
    assert render("bastard.note.tricks", {"tricks": 1}) == "1 trick"
    assert render("bastard.note.tricks", {"tricks": 0}) == "0 tricks"
    assert render("bastard.note.tricks", {"tricks": 7}) == "7 tricks"


def test_a_nested_message_in_stored_params_renders_as_in_memory():
    inner = Message("cul.bet.go")
    params = {"bet": inner, "points": 43, "target": 44}
    stored = json.loads(json.dumps(messages.params_to_json(params)))
    assert stored["bet"] == {"code": "cul.bet.go", "params": {}}
    assert render("cul.note.gained", stored) == render("cul.note.gained", params)


def test_a_text_the_catalog_does_not_know_is_shown_as_it_is():
    assert render("seat 0 scored 3, not 4", {}) == "seat 0 scored 3, not 4"


def test_a_placeholder_a_translation_gets_wrong_is_left_visible_rather_than_raising():
    broken = {"gettext": lambda m: "{pth} est obligatoire"}
    assert render("field.required", {"path": "dealer"}, **broken) == "{pth} est obligatoire"


def test_engine_errors_carry_their_message_code():
    with pytest.raises(ValueError) as caught:
        find_ruleset("no-such-game")
    assert caught.value.text.code == "game.unknown"
    assert str(caught.value).startswith("unknown game 'no-such-game'; known: ")


@pytest.mark.parametrize("game", GAMES)
def test_option_problems_carry_codes(game):
    from scorekeeper.rules import OptionsInvalid

    with pytest.raises(OptionsInvalid) as caught:
        find_ruleset(game).create("classic", {"no_such_option": 1})
    (problem,) = caught.value.problems
    assert problem.message_code == "option.unknown"
    assert problem.to_dict()["message"] == "no_such_option is not an option of this game"
    assert str(caught.value) == "options.no_such_option: no_such_option is not an option of this game"


def test_a_card_is_named_in_words_for_people():
    assert str(cards.card_name(cards.Card.parse("QS"))) == "queen of spades"
    assert str(cards.card_name(cards.Card.parse("10h"))) == "ten of hearts"
