"""The limits every game shares (docs/rules/README.md, "Limits"): 32-bit integers, real text,
64 levels of nesting, anywhere in a record or a state, and totals that stay 32-bit."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.rules import OptionsInvalid, find_ruleset
from scorekeeper.rules.fields import INT_MAX, INT_MIN, MAX_DEPTH, limit_problems
from tests.rules.conformance import GAMES, load_cases


def first_valid_case(game: str) -> dict:
    return next(c for c in load_cases(game) if c.get("expect", {}).get("valid"))


def ruleset_of(case: dict):
    return find_ruleset(case["game"]).create("classic", case["options"], case["seats"])


def declared_key(record: dict) -> str:
    return "declared_banks" if "declared_banks" in record else "declared"


def first_declared(record: dict, value: int) -> None:
    record[declared_key(record)][0] = value


def nested(depth: int):
    value: object = 1
    for _ in range(depth):
        value = [value]
    return value


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize(
    ("change", "code", "path"),
    [
        (lambda r: first_declared(r, INT_MAX + 1),
         "number_out_of_range", "{declared}[0]"),
        (lambda r: first_declared(r, -(10**4000)),
         "number_out_of_range", "{declared}[0]"),
        (lambda r: r.__setitem__("note", {"big": 2**63}), "number_out_of_range", "note.big"),
        (lambda r: r.__setitem__("note", "caf\udce9"), "string_invalid", "note"),
        (lambda r: r.__setitem__("\ud800", 1), "string_invalid", "\\ud800"),
        (lambda r: r.__setitem__("note", "a\x00b"), "string_invalid", "note"),
        (lambda r: r.__setitem__("note", nested(MAX_DEPTH + 5)),
         "too_deep", "note" + "[0]" * (MAX_DEPTH - 1)),
    ],
    ids=["declared-past-32-bits", "declared-4000-digits", "unknown-key-int", "surrogate", "surrogate-key",
         "nul", "deep"],
)  # fmt: skip
def test_it_refuses_what_breaks_the_limits_anywhere_in_a_record(game, change, code, path):
    case = first_valid_case(game)
    record = copy.deepcopy(case["hand"])
    change(record)

    ev = ruleset_of(case).evaluate(case["state"], record, accept_declared=True)

    assert not ev.valid and ev.scores is None and ev.state_after is None
    assert (code, path.format(declared=declared_key(record))) in [(p.code, p.path) for p in ev.errors]
    str(ev.to_dict())  # every message can be written out
    assert all(p.message.encode("utf-8") for p in ev.errors)


@pytest.mark.parametrize("game", GAMES)
def test_a_record_within_the_limits_is_scored_as_before(game):
    case = first_valid_case(game)
    record = {
        **copy.deepcopy(case["hand"]),
        "note": {"n": INT_MAX, "m": INT_MIN, "deep": nested(MAX_DEPTH - 2)},
    }

    assert ruleset_of(case).evaluate(case["state"], record).scores == case["expect"]["scores"]


@pytest.mark.parametrize("game", GAMES)
def test_a_state_with_a_number_past_32_bits_is_refused_at_its_path(game):
    case = first_valid_case(game)
    ruleset = ruleset_of(case)
    state = ruleset.initial_state()
    key = next(k for k, v in state.items() if isinstance(v, list) and v and type(v[0]) is int)
    state[key][0] = 10**4000

    ev = ruleset.evaluate(state, case["hand"])

    assert [(p.code, p.path) for p in ev.errors] == [("number_out_of_range", f"state.{key}[0]")]


def test_declared_scores_accepted_at_the_limit_cannot_carry_a_total_past_it():
    piquet = find_ruleset("piquet").create()
    record = copy.deepcopy(first_valid_case("piquet")["hand"])
    record["declared"] = [INT_MAX, 0]
    first = piquet.evaluate(first_valid_case("piquet")["state"], record, accept_declared=True)
    assert first.mismatches and first.state_after["totals"][0] == INT_MAX

    again = piquet.evaluate(
        first.state_after, {**record, "dealer": 1 - record["dealer"]}, accept_declared=True
    )

    assert [p.code for p in again.errors] == ["total_out_of_range"] and again.state_after is None


def int_option(game: str) -> dict | None:
    return next((s for s in find_ruleset(game).Options.specs() if s["type"] == "int"), None)


@pytest.mark.parametrize("game", [g for g in GAMES if int_option(g)])
def test_an_integer_option_is_at_most_32_bits(game):
    ruleset_class = find_ruleset(game)
    spec = int_option(game)
    assert spec["maximum"] == INT_MAX

    assert ruleset_class.create("classic", {spec["name"]: INT_MAX}).options
    with pytest.raises(OptionsInvalid) as refused:
        ruleset_class.create("classic", {spec["name"]: 10**4000})
    assert [(p.code, p.path) for p in refused.value.problems] == [
        ("option_invalid", f"options.{spec['name']}")
    ]
    assert "larger" in str(refused.value)


def test_an_unknown_option_name_with_a_surrogate_is_named_printably():
    with pytest.raises(OptionsInvalid) as refused:
        find_ruleset("piquet").create("classic", {"\ud800x": 1})
    assert refused.value.problems[0].path == "options.\\ud800x"
    str(refused.value).encode("utf-8")


def test_limit_problems_lists_them_in_document_order_with_their_paths():
    document = {"a": [1, 2**40, "ok"], "b": {"c": "\udc00", "d": -(2**40)}}

    assert [(p.code, p.path) for p in limit_problems(document, "state")] == [
        ("number_out_of_range", "state.a[1]"),
        ("string_invalid", "state.b.c"),
        ("number_out_of_range", "state.b.d"),
    ]
    assert limit_problems({"a": 2**40}, minimum=-(2**63), maximum=2**63 - 1) == []
