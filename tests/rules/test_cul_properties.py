"""Properties of cul (spec 8), checked with Hypothesis."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.cards import SHORT_PACK
from scorekeeper.rules.cul import MAX_POINTS, MIN_POINTS, card_value, cul_rating

from .json_strategies import arbitrary_json, assert_well_formed, with_field_replaced

Cul = find_ruleset("cul")
SORTED_PACK = sorted(SHORT_PACK, key=str)

json_values = arbitrary_json()


@st.composite
def party(draw, seats: int) -> dict:
    return {
        "dealer": draw(st.integers(0, seats - 1)),
        "first_leader": draw(st.none() | st.integers(0, seats - 1)),
        "bets": draw(st.lists(st.sampled_from(["go", "not_go"]), min_size=seats, max_size=seats)),
        "points": draw(st.lists(st.integers(MIN_POINTS, MAX_POINTS), min_size=seats, max_size=seats)),
    }


def declare_computed(game, state, record) -> dict:
    """The record with the banks the players should declare."""
    ev = game.evaluate(state, {**record, "declared_banks": [0] * game.seats})
    return {**record, "declared_banks": [b + d for b, d in zip(state["banks"], ev.scores, strict=True)]}


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seats=st.integers(2, 6))
def test_banks_stay_within_zero_and_six_outside_the_continuation(data, seats):
    game = Cul(seats=seats)
    state = game.initial_state()
    for _ in range(40):
        record = declare_computed(game, state, data.draw(party(seats)))
        ev = game.evaluate(state, record)
        assert ev.valid, ev.to_dict()
        after = ev.state_after
        assert game.state_problems(after) == []
        continuation = all(b >= 6 for b in state["banks"])
        if not continuation:
            assert all(0 <= b <= 6 for b in after["banks"]), (state["banks"], after["banks"])
        else:
            assert all(b >= 5 for b in after["banks"])
        assert ev.match_over == after["over"]
        assert (ev.result is not None) == ev.match_over
        if ev.match_over:
            placements = ev.result["placements"]
            fewest = min(after["banks"])
            assert [p == 1 for p in placements] == [b == fewest for b in after["banks"]]
            break
        state = after


@settings(max_examples=150, deadline=None)
@given(data=st.data(), seats=st.integers(2, 6))
def test_from_any_running_match_one_party_keeps_banks_within_zero_and_six(data, seats):
    # A running match outside the continuation has every player on 1…5 banks.
    banks = data.draw(st.lists(st.integers(1, 5), min_size=seats, max_size=seats))
    state = {
        **Cul(seats=seats).initial_state(),
        "parties": 9,
        "banks": banks,
        "dropped": [max(0, 3 - b) for b in banks],
        "gained": [max(0, b - 3) for b in banks],
    }
    game = Cul(seats=seats)
    ev = game.evaluate(state, declare_computed(game, state, data.draw(party(seats))))
    assert ev.valid
    assert all(0 <= b <= 6 for b in ev.state_after["banks"])
    assert all(abs(a - b) <= 1 for a, b in zip(banks, ev.state_after["banks"], strict=True))


@settings(max_examples=60, deadline=None)
@given(data=st.data(), seats=st.integers(2, 6))
def test_a_disputed_party_always_leaves_a_sound_state(data, seats):
    game = Cul(seats=seats)
    record = data.draw(party(seats))
    record["declared_banks"] = data.draw(st.lists(st.integers(0, 9), min_size=seats, max_size=seats))
    ev = game.evaluate(None, record, accept_declared=True)
    assert not ev.errors
    assert ev.state_after["banks"] == record["declared_banks"]
    assert game.state_problems(ev.state_after) == []


counts = st.integers(0, 10**6)


@given(s=st.integers(-(10**6), 10**6), d=counts, g=counts, k=counts, t=counts)
def test_there_is_a_rating_iff_parties_and_the_required_total_are_positive(s, d, g, k, t):
    for scale in ("literal", "normalised"):
        assert (cul_rating(s, d, g, k, t, scale) is None) == (k == 0 or t == 0)


@given(s=st.integers(-(10**6), 10**6), d=counts, g=counts, k=st.integers(1, 10**6), t=st.integers(1, 10**6))
def test_the_normalised_rating_is_half_the_literal_distance_from_fifty_percent(s, d, g, k, t):
    x = Fraction(s * (d - g), k * t)
    assert cul_rating(s, d, g, k, t) == pytest.approx(float(x + Fraction(1, 2)), rel=1e-12)
    assert cul_rating(s, d, g, k, t, "normalised") == pytest.approx(float(Fraction(1, 2) + x / 2), rel=1e-12)


@settings(max_examples=80, deadline=None)
@given(data=st.data(), seats=st.integers(2, 6))
def test_points_that_match_the_captured_cards_are_accepted(data, seats):
    cards = data.draw(st.permutations(SORTED_PACK))
    cuts = sorted(data.draw(st.lists(st.integers(0, 36), min_size=seats - 1, max_size=seats - 1)))
    piles = [cards[a:b] for a, b in zip([0, *cuts], [*cuts, 36], strict=True)]
    record = {
        "dealer": 0,
        "bets": data.draw(st.lists(st.sampled_from(["go", "not_go"]), min_size=seats, max_size=seats)),
        "points": [sum(card_value(c) for c in pile) for pile in piles],
        "captured": [[str(c) for c in pile] for pile in piles],
    }
    game = Cul(seats=seats)
    ev = game.evaluate(None, declare_computed(game, game.initial_state(), record))
    assert ev.valid, ev.to_dict()["errors"]
    assert sum(ev.state_after["points_total"]) == 184


FIELDS = ["dealer", "first_leader", "bets", "points", "captured", "bonuses", "declared_banks"]
GOOD = {
    "dealer": 0,
    "first_leader": 1,
    "bets": ["not_go", "go"],
    "points": [70, 53],
    "captured": [["AS", "10S", "KS", "QS", "8H", "6D"], ["AH", "10H", "8S", "7C", "9D"]],
    "bonuses": [[{"item": "queen_king"}], [{"item": "diamonds_spades"}]],
    "declared_banks": [2, 2],
}


@settings(max_examples=300, deadline=None)
@given(record=json_values, state=st.none() | json_values, seats=st.integers(-1, 8))
def test_arbitrary_json_never_raises(record, state, seats):
    assert_well_formed(Cul(seats=seats).evaluate(state, record), "banks")


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(FIELDS), value=json_values, inner=st.booleans(), accept=st.booleans())
def test_a_good_record_with_one_field_replaced_by_any_json_never_raises(field, value, inner, accept):
    record = with_field_replaced(GOOD, field, value, inner)
    assert_well_formed(Cul(seats=2).evaluate(None, record, accept_declared=accept), "banks")


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(list(Cul(seats=2).initial_state())), value=json_values)
def test_a_state_with_one_field_replaced_by_any_json_never_raises(key, value):
    state = {**Cul(seats=2).initial_state(), key: value}
    assert_well_formed(Cul(seats=2).evaluate(state, GOOD), "banks")
