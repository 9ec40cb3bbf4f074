"""Hypothesis properties of piquet-voleur: partners always score alike, the engine never raises."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.rules import find_ruleset

from .partnerships_strategies import json_values, mutated, records

FAST = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def voleur(**options):
    return find_ruleset("piquet-voleur").create("classic", options, 4)


@FAST
@given(records(seats=4))
def test_partners_always_score_the_same_and_lines_add_up_per_team(record):
    ev = voleur(target=10_000).evaluate(None, record)
    assert not ev.errors, ev.errors
    a, b, c, d = ev.scores
    assert (a, b) == (c, d)
    for team in (0, 1):
        assert sum(line.points for line in ev.breakdown if line.seat % 2 == team) == ev.scores[team]


@FAST
@given(records(seats=4))
def test_play_points_are_eight_leads_plus_captures_plus_one_for_the_last(record):
    ev = voleur(target=10_000).evaluate(None, record)
    play = [line for line in ev.breakdown if line.item in ("lead", "capture", "last_trick")]
    leads = sum(line.points for line in play if line.item == "lead")
    last = sum(line.points for line in play if line.item == "last_trick")
    assert (leads, last) == (8, 1)


@FAST
@given(records(seats=4))
def test_declaring_the_computed_scores_makes_any_hand_valid(record):
    game = voleur(target=10_000)
    scores = game.evaluate(None, record).scores
    ev = game.evaluate(None, dict(record, declared=scores))
    assert ev.valid and not ev.mismatches


@settings(FAST, max_examples=60)
@given(st.lists(records(seats=4), min_size=1, max_size=12))
def test_a_match_keeps_team_totals_equal_and_ends_exactly_when_a_team_reaches_the_target(hands):
    game = voleur(target=150)
    state = None
    for record in hands:
        ev = game.evaluate(state, record)
        assert not ev.errors, ev.errors
        totals = ev.state_after["totals"]
        assert totals[0] == totals[2] and totals[1] == totals[3]
        assert ev.match_over == (max(totals) >= 150) == ev.state_after["over"]
        if ev.match_over:
            winner = ev.result["winning_team"]
            assert totals[winner] >= 150 > totals[1 - winner]
            assert ev.result["settlement"][winner] == totals[winner] - totals[1 - winner]
            assert sum(ev.result["settlement"]) == 0
            break
        state = ev.state_after


@FAST
@given(json_values)
def test_arbitrary_json_never_raises(record):
    ev = voleur().evaluate(None, record)
    assert ev.valid or ev.errors or ev.mismatches
    ev.to_dict()


@FAST
@given(mutated(records(seats=4)))
def test_a_valid_record_with_one_field_replaced_by_arbitrary_json_never_raises(record):
    ev = voleur().evaluate(None, record)
    if ev.errors:
        assert ev.scores is None and ev.state_after is None
    ev.to_dict()


@FAST
@given(json_values, records(seats=4))
def test_an_arbitrary_state_never_raises(state, record):
    ev = voleur().evaluate(state, record)
    ev.to_dict()


@FAST
@given(records(seats=4), st.integers(0, 99), st.integers(0, 99), st.integers(0, 150), st.integers(0, 150))
def test_a_disputed_hand_with_agreeing_partners_always_leaves_a_valid_state(record, a, b, x, y):
    game = voleur()
    state = {"deals_played": 3, "totals": [a, b, a, b], "last_dealer": None, "over": False}
    ev = game.evaluate(state, dict(record, declared=[x, y, x, y]), accept_declared=True)
    assert not ev.errors, ev.errors
    assert game.state_problems(ev.state_after) == []
    totals = ev.state_after["totals"]
    assert ev.match_over == ev.state_after["over"] == (ev.result is not None)
    if ev.mismatches:
        assert totals == [a + x, b + y, a + x, b + y]
        assert ev.match_over == (max(totals) >= 100)


@settings(FAST, max_examples=80)
@given(
    st.fixed_dictionaries(
        {"deals_played": json_values, "totals": json_values, "last_dealer": json_values, "over": json_values}
    ),
    records(seats=4),
)
def test_a_state_with_every_key_but_any_values_never_raises(state, record):
    voleur().evaluate(state, record).to_dict()
