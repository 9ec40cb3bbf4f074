"""Hypothesis properties of piquet-normand: the two phases, finishing order, never raising."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset

from .partnerships_strategies import json_values, mutated, records

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Whole matches: fewer examples, each plays up to 40 deals.
MATCHES = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def normand(**options):
    return find_ruleset("piquet-normand").create("classic", options, 3)


@st.composite
def phase_two(draw):
    """A phase-2 state (one seat finished) and a record of the other two seats."""
    out = draw(st.sampled_from((0, 1, 2)))
    players = [seat for seat in range(3) if seat != out]
    totals = [0, 0, 0]
    totals[out] = draw(st.integers(100, 200))
    for seat in players:
        totals[seat] = draw(st.integers(0, 99))
    state = {
        "deals_played": draw(st.integers(1, 20)),
        "totals": totals,
        "last_dealer": None,
        "finished": [out],
        "over": False,
    }
    return state, draw(records(3, players=players))


@FAST
@given(records(seats=3))
def test_phase_one_lines_add_up_per_seat_and_the_play_has_ten_leads_and_one_last_trick(record):
    ev = normand(target=10_000).evaluate(None, record)
    assert not ev.errors, ev.errors
    for seat in range(3):
        assert sum(line.points for line in ev.breakdown if line.seat == seat) == ev.scores[seat]
    assert sum(line.points for line in ev.breakdown if line.item == "lead") == 10
    assert sum(line.points for line in ev.breakdown if line.item == "last_trick") == 1


@FAST
@given(phase_two())
def test_a_finished_seat_never_scores_in_phase_two(state_and_record):
    state, record = state_and_record
    ev = normand().evaluate(state, record)
    assert not ev.errors, ev.errors
    out = state["finished"][0]
    assert ev.scores[out] == 0
    assert not [line for line in ev.breakdown if line.seat == out]
    if ev.match_over:
        assert ev.state_after["finished"][0] == out
        assert len(ev.state_after["finished"]) == 3


@FAST
@given(phase_two())
def test_a_phase_two_deal_without_a_stop_has_twelve_leads(state_and_record):
    state, record = state_and_record
    ev = normand(target=10_000).evaluate(
        dict(state, totals=[10_000 if s in state["finished"] else 0 for s in range(3)]), record
    )
    assert not ev.errors, ev.errors
    assert sum(line.points for line in ev.breakdown if line.item == "lead") == 12


@FAST
@given(records(seats=3))
def test_declaring_the_computed_scores_makes_any_hand_valid(record):
    game = normand()
    scores = game.evaluate(None, record).scores
    assert game.evaluate(None, dict(record, declared=scores)).valid


@MATCHES
@given(st.data())
def test_a_match_finishes_every_seat_once_and_the_last_pays_the_differences(data):
    game = normand(target=120)
    state = game.initial_state()
    for _ in range(40):
        players = [seat for seat in range(3) if seat not in state["finished"]]
        record = data.draw(records(3, players=players))
        ev = game.evaluate(state, record)
        assert not ev.errors, ev.errors
        after = ev.state_after
        assert all(a >= b for a, b in zip(after["totals"], state["totals"], strict=True))
        assert game.state_problems(after) == []
        state = after
        if ev.match_over:
            result = ev.result
            first, second, last = result["finish_order"]
            assert sorted(result["finish_order"]) == [0, 1, 2]
            totals = result["totals"]
            assert totals[first] >= 120 and totals[second] >= 120 > totals[last]
            assert result["settlement"][first] == totals[first] - totals[last]
            assert result["settlement"][second] == totals[second] - totals[last]
            assert sum(result["settlement"]) == 0
            assert [result["placements"][seat] for seat in result["finish_order"]] == [1, 2, 3]
            break


@FAST
@given(st.data())
def test_a_disputed_hand_always_leaves_a_valid_state(data):
    game = normand()
    if data.draw(st.booleans()):
        state, record = data.draw(phase_two())
    else:
        state, record = game.initial_state(), data.draw(records(3))
        state["totals"] = data.draw(st.lists(st.integers(0, 99), min_size=3, max_size=3))
    declared = data.draw(st.lists(st.integers(0, 150), min_size=3, max_size=3))
    for seat in state["finished"]:
        declared[seat] = 0
    ev = game.evaluate(state, dict(record, declared=declared), accept_declared=True)
    assert not ev.errors, ev.errors
    assert game.state_problems(ev.state_after) == []
    assert ev.match_over == ev.state_after["over"] == (ev.result is not None)


@FAST
@given(json_values)
def test_arbitrary_json_never_raises(record):
    normand().evaluate(None, record).to_dict()


@FAST
@given(mutated(records(seats=3)))
def test_a_valid_record_with_one_field_replaced_by_arbitrary_json_never_raises(record):
    ev = normand().evaluate(None, record)
    if ev.errors:
        assert ev.scores is None and ev.state_after is None
    ev.to_dict()


@FAST
@given(phase_two(), json_values, st.sampled_from(["dealer", "tricks", "declared", "point", "carte_blanche"]))
def test_a_phase_two_record_with_one_field_replaced_never_raises(state_and_record, value, key):
    state, record = state_and_record
    normand().evaluate(state, dict(record, **{key: value})).to_dict()


@FAST
@given(json_values, records(seats=3))
def test_an_arbitrary_state_never_raises(state, record):
    normand().evaluate(state, record).to_dict()


@settings(FAST, max_examples=80)
@given(
    st.fixed_dictionaries(
        {
            "deals_played": json_values,
            "totals": json_values,
            "last_dealer": json_values,
            "finished": json_values,
            "over": json_values,
        }
    ),
    records(seats=3),
)
def test_a_state_with_every_key_but_any_values_never_raises(state, record):
    normand().evaluate(state, record).to_dict()
