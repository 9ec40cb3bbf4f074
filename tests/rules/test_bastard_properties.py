"""Properties of Bastard (spec 10), checked with Hypothesis."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset

from .json_strategies import arbitrary_json, assert_well_formed, with_field_replaced

Bastard = find_ruleset("bastard")
JACKS = {"JS": 1, "JC": 2, "JD": 3, "JH": 4}
SPECIALS = [*JACKS, "7D", "7C"]

json_values = arbitrary_json()


@st.composite
def valid_hand(draw, seats: int) -> dict:
    """Tricks adding up to the deal and the six special cards in piles big enough to hold them."""
    total = 13 if seats == 4 else 17
    cuts = sorted(draw(st.lists(st.integers(0, total), min_size=seats - 1, max_size=seats - 1)))
    tricks = [b - a for a, b in zip([0, *cuts], [*cuts, total], strict=True)]
    room = [seats * t for t in tricks]  # a trick holds one card of each player
    specials: list[list[str]] = [[] for _ in range(seats)]
    for card in SPECIALS:
        seat = draw(st.sampled_from([p for p in range(seats) if room[p] > 0]))
        room[seat] -= 1
        specials[seat].append(card)
    return {
        "dealer": draw(st.integers(0, seats - 1)),
        "trump": draw(st.sampled_from(["S", "H", "D", "C", "NT"])),
        "tricks": tricks,
        "specials": specials,
    }


def spec_sum(record: dict, quadruple: bool) -> int:
    """Σ scores = (Σ tricks − 10) + Δ, written from the self-check paragraph of spec 10."""
    delta = 0
    for t, cards in zip(record["tricks"], record["specials"], strict=True):
        jacks = sum(JACKS.get(c, 0) for c in cards)
        if "7D" in cards:
            if jacks and "7C" not in cards:
                delta -= jacks
            elif not jacks and "7C" not in cards:
                delta += t
            elif not jacks:
                delta += 3 * t
        elif "7C" in cards and not jacks and quadruple:
            delta += 3 * t
    return sum(record["tricks"]) - 10 + delta


@settings(max_examples=300, deadline=None)
@given(data=st.data(), seats=st.sampled_from([3, 4]), quadruple=st.booleans())
def test_every_hand_that_passes_validation_satisfies_the_sum_invariant(data, seats, quadruple):
    record = data.draw(valid_hand(seats))
    game = Bastard.create("classic", {"charm_alone_quadruples": quadruple}, seats)
    first = game.evaluate(None, {**record, "declared": [0] * seats})
    assert not first.errors, first.errors
    assert sum(first.scores) == spec_sum(record, quadruple)
    ev = game.evaluate(None, {**record, "declared": first.scores})
    assert ev.valid and not ev.warnings
    for seat in range(seats):
        assert sum(line.points for line in ev.breakdown if line.seat == seat) == ev.scores[seat]


@settings(max_examples=40, deadline=None)
@given(data=st.data(), seats=st.sampled_from([3, 4]), hands=st.integers(1, 10))
def test_a_match_adds_up_the_hands_and_ends_after_the_agreed_number(data, seats, hands):
    game = Bastard.create("classic", {"hands": hands}, seats)
    state, running = None, [0] * seats
    for h in range(1, hands + 1):
        record = data.draw(valid_hand(seats))
        record["dealer"] = (h - 1) % seats
        record["declared"] = game.evaluate(state, {**record, "declared": [0] * seats}).scores
        ev = game.evaluate(state, record)
        assert ev.valid and not ev.warnings
        running = [a + b for a, b in zip(running, ev.scores, strict=True)]
        assert ev.state_after["totals"] == running and ev.state_after["hands_played"] == h
        assert ev.match_over is (h == hands)
        state = ev.state_after
    assert ev.result["totals"] == running
    best = max(running)
    assert [p == 1 for p in ev.result["placements"]] == [t == best for t in running]


GOOD = {
    "dealer": 0,
    "trump": "H",
    "tricks": [5, 4, 3, 1],
    "pass_count": 1,
    "specials": [["JH"], ["JS", "JC"], ["7D"], ["JD", "7C"]],
    "declared": [1, 1, 6, -2],
}


@settings(max_examples=300, deadline=None)
@given(record=json_values, state=st.none() | json_values, seats=st.integers(-1, 6))
def test_arbitrary_json_never_raises(record, state, seats):
    assert_well_formed(Bastard(seats=seats).evaluate(state, record), "totals")


@settings(max_examples=300, deadline=None)
@given(field=st.sampled_from(list(GOOD)), value=json_values, inner=st.booleans(), accept=st.booleans())
def test_a_good_record_with_one_field_replaced_by_any_json_never_raises(field, value, inner, accept):
    record = with_field_replaced(GOOD, field, value, inner)
    assert_well_formed(Bastard(seats=4).evaluate(None, record, accept_declared=accept), "totals")


@settings(max_examples=200, deadline=None)
@given(key=st.sampled_from(["hands_played", "totals", "last_dealer", "over"]), value=json_values)
def test_a_state_with_one_field_replaced_by_any_json_never_raises(key, value):
    state = {"hands_played": 1, "totals": [0, 0, 0, 0], "last_dealer": 0, "over": False, key: value}
    assert_well_formed(Bastard(seats=4).evaluate(state, GOOD), "totals")
