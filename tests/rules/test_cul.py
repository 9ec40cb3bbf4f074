"""cul (spec 8): targets, bank accounting, match end, disputes, warnings, the rating, bad input."""

from __future__ import annotations

import copy
from fractions import Fraction

import pytest

from scorekeeper.rules import HandRejected, OptionsInvalid, find_ruleset
from scorekeeper.rules.cards import SHORT_PACK
from scorekeeper.rules.cul import (
    card_value,
    cul_rating,
    cul_rating_pct,
    go_target,
    match_is_over,
    not_go_target,
    round_rating_pct,
)

from .records import changed

Cul = find_ruleset("cul")


def game(seats=2, preset="classic", **options):
    return Cul.create(preset, options, seats)


def state(**changes):
    base = {
        "parties": 0,
        "banks": [3, 3],
        "points_total": [0, 0],
        "dropped": [0, 0],
        "gained": [0, 0],
        "required_total": [0, 0],
        "last_first_leader": None,
        "over": False,
    }
    return base | changes


CAPTURED = {
    "dealer": 0,
    "bets": ["not_go", "go"],
    "points": [70, 53],
    "captured": [["AS", "10S", "KS", "QS", "8H", "6D"], ["AH", "10H", "8S", "7C", "9D"]],
    "bonuses": [[{"item": "queen_king"}], [{"item": "diamonds_spades"}]],
    "declared_banks": [2, 2],
}


# -- targets and card values -----------------------------------------------------


@pytest.mark.parametrize(
    ("seats", "go", "not_go"), [(2, 44, 68), (3, 56, 80), (4, 68, 92), (5, 80, 104), (6, 92, 116)]
)
def test_the_targets_follow_the_table_of_spec_8(seats, go, not_go):
    assert (go_target(seats), not_go_target(seats)) == (go, not_go)
    assert game(seats).targets() == {"go": go, "not_go": not_go}


def test_the_seed_preset_reads_128_for_not_go_with_six_players():
    assert game(6, "seed").targets() == {"go": 92, "not_go": 128}
    assert game(5, "seed").targets()["not_go"] == 104  # the option only concerns six players


def test_the_36_card_pack_is_worth_184_points():
    assert len(SHORT_PACK) == 36
    assert sum(card_value(card) for card in SHORT_PACK) == 184


@pytest.mark.parametrize("seats", [1, 7, 0])
def test_it_rejects_a_seat_count_outside_two_to_six(seats):
    ev = Cul(seats=seats).evaluate(None, {"dealer": 0})
    assert [e.code for e in ev.errors] == ["seat_count"]


def test_options_outside_their_choices_are_refused():
    with pytest.raises(OptionsInvalid):
        game(6, not_go_target_6p=120)
    with pytest.raises(OptionsInvalid):
        game(2, trump_scheme=6)
    with pytest.raises(OptionsInvalid):
        game(2, rating_scale="bounded")


# -- one party -------------------------------------------------------------------


def test_reaching_the_target_exactly_drops_a_bank():
    ev = game().evaluate(
        None, {"dealer": 0, "bets": ["go", "not_go"], "points": [44, 68], "declared_banks": [2, 2]}
    )
    assert ev.valid and ev.scores == [-1, -1]


def test_a_failed_go_gains_a_bank_and_a_failed_not_go_changes_nothing():
    ev = game().evaluate(
        None, {"dealer": 0, "bets": ["go", "not_go"], "points": [43, 67], "declared_banks": [4, 3]}
    )
    assert ev.valid and ev.scores == [1, 0]
    assert [(line.item, line.points) for line in ev.breakdown] == [("bank_change", 1), ("bank_change", 0)]
    assert ev.breakdown[0].note == "bet go, made 43 of 44: a failed go gains a bank"
    assert ev.breakdown[1].note == "bet not go, made 67 of 68: a failed not go changes nothing"


def test_a_banks_mismatch_names_the_bet_the_points_and_the_target():
    ev = game().evaluate(
        None, {"dealer": 0, "bets": ["go", "go"], "points": [40, 50], "declared_banks": [3, 2]}
    )
    assert not ev.valid and ev.scores == [1, -1]
    (m,) = ev.mismatches
    assert (m.seat, m.declared, m.computed) == (0, 3, 4)
    assert m.explanation.startswith("bet go, made 40 of 44: a failed go gains a bank")
    with pytest.raises(HandRejected):
        game().score(None, {"dealer": 0, "bets": ["go", "go"], "points": [40, 50], "declared_banks": [3, 2]})


def test_the_state_records_the_first_leader_for_the_next_dealer():
    ev = game().evaluate(
        None,
        {"dealer": 0, "first_leader": 1, "bets": ["go", "go"], "points": [50, 50], "declared_banks": [2, 2]},
    )
    assert ev.state_after["last_first_leader"] == 1
    ev = game().evaluate(
        ev.state_after, {"dealer": 1, "bets": ["go", "go"], "points": [50, 50], "declared_banks": [1, 1]}
    )
    assert ev.valid and not ev.warnings
    assert ev.state_after["last_first_leader"] is None


def test_dealer_rule_free_never_warns():
    record = {"dealer": 0, "bets": ["go", "go"], "points": [50, 50], "declared_banks": [1, 1]}
    before = state(parties=1, banks=[2, 2], dropped=[1, 1], last_first_leader=1)
    assert [w.code for w in game().evaluate(before, record).warnings] == ["dealer_rule"]
    assert game(dealer_rule="free").evaluate(before, record).warnings == []


@pytest.mark.parametrize(
    ("cards", "item", "supported"),
    [
        (["QS", "KH"], "queen_king", True),
        (["QS", "QH"], "queen_king", False),
        (["6D", "7S"], "diamonds_spades", True),
        (["6D", "7D"], "diamonds_spades", False),
        (["6H", "7H", "9H", "JH"], "four_of_suit", True),
        (["6H", "7H", "9H", "JS"], "four_of_suit", False),
    ],
)
def test_a_claimed_bonus_without_the_cards_is_a_warning_only(cards, item, supported):
    from scorekeeper.rules.cul import BONUS_VALUES

    points = sum(card_value(find_card(c)) for c in cards) + BONUS_VALUES[item]
    record = {
        "dealer": 0,
        "bets": ["go", "go"],
        "points": [points, 0],
        "captured": [cards, []],
        "bonuses": [[{"item": item}], []],
        "declared_banks": [4, 4],
    }
    record["declared_banks"][0] = 2 if points >= 44 else 4
    ev = game().evaluate(None, record)
    assert ev.valid, ev.to_dict()
    assert [w.code for w in ev.warnings] == ([] if supported else ["bonus_unsupported"])
    if not supported:
        assert ev.warnings[0].path == "bonuses[0][0].item"


def find_card(text):
    from scorekeeper.rules import Card

    return Card.parse(text)


def test_captured_cards_are_accepted_in_any_notation():
    record = copy.deepcopy(CAPTURED)
    record["captured"][0] = ["a♠", "t♠", " ks ", "Q♠", "8h", "6♦"]
    assert game().evaluate(None, record).valid


def test_bonuses_without_captured_cards_are_not_checked():
    record = {k: v for k, v in CAPTURED.items() if k != "captured"}
    record["points"] = [100, 44]
    record["declared_banks"] = [2, 2]
    ev = game().evaluate(None, record)
    assert ev.valid and not ev.warnings


# -- match end -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "after", "over"),
    [
        ([3, 3], [2, 4], False),
        ([1, 3], [0, 3], True),  # dropped every bank
        ([5, 3], [6, 3], True),  # six banks lose
        ([1, 5], [0, 6], True),
        ([5, 5], [6, 6], False),  # all at six: the continuation begins
        ([1, 1, 5], [0, 0, 6], True),
        ([6, 6], [7, 7], False),  # continuation: still tied
        ([6, 6], [5, 7], True),
        ([6, 6, 7], [5, 5, 8], False),  # two players share the fewest
        ([6, 6, 7], [5, 7, 8], True),
    ],
)
def test_the_match_ends_as_spec_8_says(before, after, over):
    assert match_is_over(before, after) is over


def test_two_players_dropping_their_last_bank_together_share_first_place():
    before = state(parties=2, banks=[1, 1], dropped=[2, 2], points_total=[100, 100], required_total=[88, 88])
    ev = game().evaluate(
        before, {"dealer": 0, "bets": ["go", "go"], "points": [50, 60], "declared_banks": [0, 0]}
    )
    assert ev.match_over and ev.result["placements"] == [1, 1]


def test_in_the_continuation_banks_pass_six():
    before = state(parties=6, banks=[6, 6], gained=[3, 3], required_total=[264, 264])
    ev = game().evaluate(
        before, {"dealer": 0, "bets": ["go", "go"], "points": [10, 10], "declared_banks": [7, 7]}
    )
    assert ev.valid and ev.state_after["banks"] == [7, 7] and not ev.match_over


def test_a_finished_match_takes_no_more_parties():
    ev = game().evaluate(state(over=True), {"dealer": 0})
    assert [e.code for e in ev.errors] == ["match_already_over"]


# -- disputed parties (spec 1.6) ---------------------------------------------------


def test_an_accepted_dispute_builds_the_state_from_the_declared_banks():
    record = {"dealer": 0, "bets": ["go", "not_go"], "points": [40, 60], "declared_banks": [1, 4]}
    ev = game().evaluate(None, record, accept_declared=True)
    assert ev.scores == [1, 0] and [m.seat for m in ev.mismatches] == [0, 1]
    after = ev.state_after
    assert after["banks"] == [1, 4]
    assert after["dropped"] == [2, 0] and after["gained"] == [0, 1]
    assert after["points_total"] == [40, 60] and after["required_total"] == [44, 68]
    assert Cul(seats=2).state_problems(after) == []


def test_an_accepted_dispute_can_end_the_match_on_the_declared_banks():
    before = state(
        parties=3, banks=[1, 3], dropped=[2, 0], points_total=[150, 150], required_total=[132, 156]
    )
    record = {"dealer": 0, "bets": ["go", "go"], "points": [40, 40], "declared_banks": [0, 4]}
    plain = game().evaluate(before, record)
    assert not plain.match_over and plain.state_after["banks"] == [2, 4]
    disputed = game().evaluate(before, record, accept_declared=True)
    assert disputed.match_over and disputed.result["banks"] == [0, 4]
    assert disputed.result["placements"] == [1, 2]


def test_accept_declared_changes_nothing_without_a_mismatch():
    record = {"dealer": 0, "bets": ["go", "go"], "points": [40, 50], "declared_banks": [4, 2]}
    assert (
        game().evaluate(None, record, accept_declared=True).to_dict()
        == game().evaluate(None, record).to_dict()
    )


# -- the rating ---------------------------------------------------------------------


def test_the_rating_of_the_worked_example():
    assert cul_rating_pct(161, 3, 0, 3, 156) == 153.2
    assert cul_rating_pct(150, 0, 1, 3, 180) == 22.2
    assert cul_rating(161, 3, 0, 3, 156) == pytest.approx(161 * 3 / (3 * 156) + 0.5)


def test_the_normalised_scale_halves_the_distance_from_fifty_percent():
    assert cul_rating_pct(256, 3, 1, 5, 268, "normalised") == 69.1
    assert cul_rating_pct(100, 2, 2, 4, 200) == 50.0


@pytest.mark.parametrize(("parties", "required"), [(0, 0), (0, 100), (3, 0)])
def test_there_is_no_rating_without_parties_or_a_required_total(parties, required):
    assert cul_rating(10, 1, 0, parties, required) is None
    assert cul_rating_pct(10, 1, 0, parties, required, "normalised") is None


@pytest.mark.parametrize(
    ("value", "rounded"),
    [
        (Fraction(1001, 20), 50.1),  # 50.05: halves go away from zero
        (Fraction(-1001, 20), -50.1),
        (Fraction(1999, 40), 50.0),  # 49.975
        (Fraction(-3, 100), 0.0),
        (153.1623931, 153.2),
        (0, 0.0),
    ],
)
def test_the_rating_is_rounded_to_one_decimal_halves_away_from_zero(value, rounded):
    assert round_rating_pct(value) == rounded


@pytest.mark.parametrize(
    "args",
    [
        (10, -1, 0, 1, 44),
        (10, 0, -1, 1, 44),
        (10, 0, 0, -1, 44),
        (10, 0, 0, 1, -44),
        (True, 0, 0, 1, 44),
        (10.5, 0, 0, 1, 44),
        (10, 0, 0, "1", 44),
    ],
)
def test_the_rating_refuses_impossible_sums(args):
    with pytest.raises(ValueError):
        cul_rating(*args)


def test_the_rating_refuses_an_unknown_scale():
    with pytest.raises(ValueError):
        cul_rating(10, 1, 0, 1, 44, scale="bounded")


def test_a_result_without_parties_has_no_rating():
    assert game().result(state())["rating_pct"] == [None, None]


# -- bad input: exact codes and paths -------------------------------------------------

GOOD = {
    "dealer": 0,
    "first_leader": 1,
    "bets": ["go", "not_go"],
    "points": [47, 60],
    "declared_banks": [2, 3],
}


def with_(base=GOOD, **changes):
    """``base`` with some fields replaced (``...`` removes a field)."""
    return changed(base, changes)


BAD = [
    (with_(dealer=...), "field_missing", "dealer"),
    (with_(dealer=None), "field_missing", "dealer"),
    (with_(dealer=2), "seat_out_of_range", "dealer"),
    (with_(dealer=True), "seat_out_of_range", "dealer"),
    (with_(first_leader=-1), "seat_out_of_range", "first_leader"),
    (with_(first_leader="1"), "seat_out_of_range", "first_leader"),
    (with_(bets=...), "field_missing", "bets"),
    (with_(bets="go"), "field_invalid", "bets"),
    (with_(bets=["go"]), "array_length", "bets"),
    (with_(bets=["go", "pass"]), "bet_invalid", "bets[1]"),
    (with_(bets=["GO", "not_go"]), "bet_invalid", "bets[0]"),
    (with_(bets=[None, "go"]), "bet_invalid", "bets[0]"),
    (with_(points=...), "field_missing", "points"),
    (with_(points=[47, 60, 1]), "array_length", "points"),
    (with_(points=[47, -5]), "points_out_of_range", "points[1]"),
    (with_(points=[239, 60]), "points_out_of_range", "points[0]"),
    (with_(points=[47.0, 60]), "field_invalid", "points[0]"),
    (with_(points=[47, False]), "field_invalid", "points[1]"),
    (with_(declared_banks=...), "field_missing", "declared_banks"),
    (with_(declared_banks=[2, -1]), "field_invalid", "declared_banks[1]"),
    (with_(declared_banks=[2, "3"]), "field_invalid", "declared_banks[1]"),
    (with_(CAPTURED, captured={"0": []}), "field_invalid", "captured"),
    (with_(CAPTURED, captured=[[]]), "array_length", "captured"),
    (with_(CAPTURED, captured=["AS", []]), "field_invalid", "captured[0]"),
    (with_(CAPTURED, captured=[["AS", "5D"], []]), "card_invalid", "captured[0][1]"),
    (with_(CAPTURED, captured=[["AS", "ZZ"], []]), "card_invalid", "captured[0][1]"),
    (with_(CAPTURED, captured=[["AS", 12], []]), "card_invalid", "captured[0][1]"),
    (with_(CAPTURED, captured=[["AS"], ["a♠"]]), "card_duplicate", "captured[1][0]"),
    (with_(CAPTURED, points=[70, 60]), "points_cards_mismatch", "points[1]"),
    (with_(CAPTURED, bonuses=[[], [{"item": "diamonds_spades"}]]), "points_cards_mismatch", "points[0]"),
    (with_(CAPTURED, bonuses=[[{"item": "queen"}], []]), "bonus_invalid", "bonuses[0][0].item"),
    (
        with_(CAPTURED, bonuses=[[{"item": "queen_king"}, {"item": "queen_king"}], []]),
        "bonus_invalid",
        "bonuses[0][1].item",
    ),
    (with_(CAPTURED, bonuses=[[{"what": "queen_king"}], []]), "field_missing", "bonuses[0][0].item"),
    (with_(CAPTURED, bonuses=[["queen_king"], []]), "field_invalid", "bonuses[0][0]"),
    (with_(CAPTURED, bonuses=[[], {}]), "field_invalid", "bonuses[1]"),
    (with_(CAPTURED, bonuses=[[]]), "array_length", "bonuses"),
]


@pytest.mark.parametrize(("record", "code", "path"), BAD, ids=[f"{c}@{p}" for _, c, p in BAD])
def test_bad_input_is_reported_with_its_code_and_path(record, code, path):
    ev = game().evaluate(None, record)
    assert (code, path) in [(e.code, e.path) for e in ev.errors], ev.errors
    assert ev.scores is None and ev.state_after is None and ev.breakdown == []


def test_every_missing_field_is_reported_at_once():
    ev = game().evaluate(None, {})
    assert sorted(e.path for e in ev.errors) == ["bets", "dealer", "declared_banks", "points"]
    assert {e.code for e in ev.errors} == {"field_missing"}


@pytest.mark.parametrize("record", [None, [], "party", 3, True])
def test_a_record_that_is_not_an_object_is_field_invalid(record):
    assert [e.code for e in game().evaluate(None, record).errors] == ["field_invalid"]


BAD_STATES = [
    [],
    {},
    state(parties=-1),
    state(parties=True),
    state(banks=[3, 3, 3]),
    state(banks=[3, "3"]),
    state(banks=[2, 3]),  # 3 − dropped + gained says 3
    state(banks=[-1, 3], dropped=[4, 0]),
    state(dropped=[-1, 0], banks=[4, 3]),
    state(gained=None),
    state(last_first_leader=2),
    state(last_first_leader=False),
    state(over="no"),
    state(extra=1),
    {k: v for k, v in state().items() if k != "required_total"},
]


@pytest.mark.parametrize("bad", BAD_STATES)
def test_a_malformed_state_is_state_invalid(bad):
    ev = game().evaluate(bad, GOOD)
    assert [(e.code, e.path) for e in ev.errors] == [("state_invalid", "state")]


def test_the_catalog_lists_every_option_with_both_presets():
    entry = Cul.describe()
    assert entry["seats"] == [2, 3, 4, 5, 6]
    options = {o["name"]: o for o in entry["options"]}
    assert set(options) == {"not_go_target_6p", "rating_scale", "trump_scheme", "dealer_rule"}
    assert options["not_go_target_6p"]["defaults"] == {"classic": 116, "seed": 128}
    assert options["trump_scheme"]["effect"] == "recorded"
    assert options["dealer_rule"]["effect"] == "check"
