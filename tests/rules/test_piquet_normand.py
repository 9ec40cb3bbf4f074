"""piquet-normand (spec 7): the two phases, disputes and bad input (conformance: test_conformance.py)."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.rules import OptionsInvalid, find_ruleset

from .conformance import load_cases

CASES = {case["id"]: case for case in load_cases("piquet-normand")}
PHASE_TWO = {"deals_played": 6, "totals": [100, 70, 55], "last_dealer": 0, "finished": [0], "over": False}


def normand(preset: str = "classic", **options):
    return find_ruleset("piquet-normand").create(preset, options, 3)


def hand(case_id: str = "pique-60", **changes) -> dict:
    record = copy.deepcopy(CASES[case_id]["hand"])
    record.update(changes)
    return record


def problems(ev) -> set[tuple[str, str]]:
    return {(p.code, p.path) for p in ev.errors}


# -- the ruleset -------------------------------------------------------------------------


def test_it_is_registered_for_three_seats_with_the_options_of_section_7():
    cls = find_ruleset("piquet-normand")
    assert cls.seat_counts == (3,)
    specs = {spec["name"]: spec for spec in cls.Options.specs()}
    assert set(specs) == {"sets_exclude_aces", "capot_additive", "repique_total", "target", "first_leader"}
    assert specs["repique_total"]["defaults"] == {"classic": 90, "seed": 80}
    assert specs["repique_total"]["choices"] == [80, 90]
    assert cls.record_schema["type"] == "object"


def test_the_repique_total_is_eighty_or_ninety_only():
    with pytest.raises(OptionsInvalid):
        normand(repique_total=85)


def test_the_seed_preset_counts_a_repique_as_eighty():
    ev = normand("seed").evaluate(None, hand("repique-80-seed"))
    assert ev.valid and ev.scores == [99, 5, 2]


def test_the_initial_state_is_phase_one_with_nobody_finished():
    assert normand().initial_state() == {
        "deals_played": 0,
        "totals": [0, 0, 0],
        "last_dealer": None,
        "finished": [],
        "over": False,
    }


# -- phase 1: three hands --------------------------------------------------------------------


def test_a_tie_for_most_tricks_scores_nothing_for_the_cards():
    ev = normand().evaluate(None, hand("most-tricks-tie"))
    assert not [line for line in ev.breakdown if line.item in ("cards", "capot")]


def test_the_unique_most_tricks_scores_ten():
    ev = normand().evaluate(None, hand("pique-60"))
    assert [(line.seat, line.points) for line in ev.breakdown if line.item == "cards"] == [(0, 10)]


def test_a_point_of_two_cards_is_invalid_in_normand():
    ev = normand().evaluate(None, hand(point={"scorer": 0, "cards": 2, "pips": 21}))
    assert ("point_invalid", "point.cards") in problems(ev)


def test_the_first_finisher_leaves_phase_one_and_the_deal_stops_at_his_step():
    case = CASES["first-finisher"]
    ev = normand().evaluate(case["state"], case["hand"])
    assert ev.state_after["finished"] == [0]
    assert (ev.breakdown[-1].seat, ev.breakdown[-1].item) == (0, "lead")
    assert ev.match_over is False and ev.result is None


def test_a_short_trick_list_without_a_stop_is_tricks_count():
    ev = normand().evaluate(None, hand(tricks=[0, 0, 0]))
    assert ("tricks_count", "tricks") in problems(ev)


# -- phase 2: two-hand piquet between the remaining players ---------------------------------


def phase_two_hand(**changes) -> dict:
    return hand("second-finisher", **changes)


def test_phase_two_plays_twelve_tricks_with_the_thresholds_of_two_hand_piquet():
    # Seat 2 (elder) counts 24 in hand: a repique in the three-hand phase (20), but not at two hands
    # (30); his sixth lead makes 30 before seat 1 scores: a pique.
    record = phase_two_hand(
        point={"scorer": 2, "cards": 6, "pips": 57},
        sequences={"scorer": 2, "runs": [{"length": 5, "top": "A"}]},
        sets={"scorer": 2, "sets": [{"rank": "A", "count": 3}]},
        tricks=[2] * 12,
        declared=[0, 0, 0],
    )
    state = dict(PHASE_TWO, totals=[100, 10, 5])
    ev = normand().evaluate(state, record)
    assert [line.item for line in ev.breakdown if line.item in ("pique", "repique")] == ["pique"]
    assert ev.scores[0] == 0 and ev.scores[1] == 0


def test_eleven_tricks_in_phase_two_is_tricks_count():
    state = dict(PHASE_TWO, totals=[100, 10, 5])
    ev = normand().evaluate(state, phase_two_hand(tricks=[1] * 11))
    assert ("tricks_count", "tricks") in problems(ev)


def test_ten_tricks_in_phase_two_without_a_stop_is_tricks_count():
    state = dict(PHASE_TWO, totals=[100, 10, 5])
    ev = normand().evaluate(state, phase_two_hand(tricks=[1, 2] * 5))
    assert ("tricks_count", "tricks") in problems(ev)


def test_the_elder_of_phase_two_is_the_non_dealer_of_the_two():
    state = dict(PHASE_TWO, totals=[100, 10, 5])
    record = phase_two_hand(point=None, sequences=None, sets=None, tricks=[1] * 12)
    ev = normand().evaluate(state, record)  # dealer 1: seat 2 leads trick 1, seat 1 captures it
    leads = [(line.seat, line.points) for line in ev.breakdown if line.item == "lead"]
    captures = [(line.seat, line.points) for line in ev.breakdown if line.item == "capture"]
    assert sum(p for s, p in leads if s == 2) == 1
    assert sum(p for s, p in captures if s == 1) == 1


FINISHED_SEAT = [
    ("dealer", {"dealer": 0}, "dealer"),
    ("point scorer", {"point": {"scorer": 0, "cards": 6, "pips": 57}}, "point.scorer"),
    (
        "sequence scorer",
        {"sequences": {"scorer": 0, "runs": [{"length": 5, "top": "A"}]}},
        "sequences.scorer",
    ),
    ("set scorer", {"sets": {"scorer": 0, "sets": [{"rank": "K", "count": 3}]}}, "sets.scorer"),
    ("carte blanche", {"carte_blanche": 0}, "carte_blanche"),
    ("trick winner", {"tricks": [1, 1, 0, 1, 1]}, "tricks[2]"),
    ("declared score", {"declared": [3, 30, 1]}, "declared[0]"),
]


@pytest.mark.parametrize(("changes", "path"), [pytest.param(c, p, id=i) for i, c, p in FINISHED_SEAT])
def test_a_finished_seat_takes_no_part_in_phase_two(changes, path):
    ev = normand().evaluate(PHASE_TWO, phase_two_hand(**changes))
    assert ("seat_finished", path) in problems(ev), ev.errors


def test_carte_blanche_is_a_single_seat_in_phase_two():
    ev = normand().evaluate(PHASE_TWO, phase_two_hand(carte_blanche=[1, 2]))
    assert "carte_blanche" in {p.path for p in ev.errors}


def test_the_second_finisher_ends_the_match_and_the_last_pays_both_winners():
    case = CASES["second-finisher"]
    ev = normand().evaluate(case["state"], case["hand"])
    assert ev.result["finish_order"] == [0, 1, 2]
    assert ev.result["settlement"] == [44, 44, -88]
    assert sum(ev.result["settlement"]) == 0


def test_the_dealer_rotation_warning_applies_in_phase_two():
    state = dict(PHASE_TWO, totals=[100, 10, 5], last_dealer=1)
    record = phase_two_hand(declared=[0, 77, 1], tricks=[1] * 12)  # 24 + capture + 11 leads + last + capot
    ev = normand().evaluate(state, record)
    assert [(w.code, w.path) for w in ev.warnings] == [("dealer_rotation", "dealer")]


# -- disputed hands (spec 1.6) ----------------------------------------------------------------


def test_a_disputed_hand_in_phase_one_builds_the_state_from_the_declared_scores():
    ev = normand().evaluate(None, hand("mismatch-pique"), accept_declared=True)
    assert [m.seat for m in ev.mismatches] == [0]
    assert ev.scores == [31, 3, 4]
    assert ev.state_after["totals"] == [71, 3, 4]
    assert ev.state_after["finished"] == []


def test_a_disputed_hand_finishes_every_player_at_the_target_in_decreasing_order_of_total():
    state = {"deals_played": 4, "totals": [80, 90, 20], "last_dealer": 0, "finished": [], "over": False}
    record = hand("pique-60", declared=[30, 15, 4])  # computed: seat 0 stops the deal at 100
    ev = normand().evaluate(state, record, accept_declared=True)
    assert ev.mismatches
    assert ev.state_after["totals"] == [110, 105, 24]
    assert ev.state_after["finished"] == [0, 1, 2]
    assert ev.state_after["over"] is True and ev.match_over is True
    assert ev.result == {
        "placements": [1, 2, 3],
        "totals": [110, 105, 24],
        "finish_order": [0, 1, 2],
        "settlement": [86, 81, -167],
    }


def test_a_disputed_hand_with_one_player_at_the_target_moves_to_phase_two():
    state = {"deals_played": 4, "totals": [50, 90, 20], "last_dealer": 0, "finished": [], "over": False}
    record = hand("pique-60", declared=[31, 13, 4])
    ev = normand().evaluate(state, record, accept_declared=True)
    assert ev.state_after["finished"] == [1]
    assert ev.match_over is False


def test_a_finished_seat_may_not_claim_points_even_in_a_dispute():
    ev = normand().evaluate(PHASE_TWO, phase_two_hand(declared=[5, 30, 1]), accept_declared=True)
    assert ("seat_finished", "declared[0]") in problems(ev)


# -- bad input ---------------------------------------------------------------------------------

BAD_RECORDS = [
    ("play summary", {"play": {}}, ("field_invalid", "play")),
    ("dealt cards", {"dealt": []}, ("field_invalid", "dealt")),
    ("hands", {"hands": []}, ("field_invalid", "hands")),
    ("trick cards", {"trick_cards": []}, ("field_invalid", "trick_cards")),
    ("dealer 3", {"dealer": 3}, ("seat_out_of_range", "dealer")),
    ("declared for four", {"declared": [0, 0, 0, 0]}, ("array_length", "declared")),
    ("twelve tricks in phase one", {"tricks": [0] * 12}, ("tricks_count", "tricks")),
    ("trick winner 3", {"tricks": [0, 0, 0, 0, 0, 2, 1, 1, 0, 3]}, ("seat_out_of_range", "tricks[9]")),
    ("three carte blanche holders", {"carte_blanche": [0, 1, 2]}, ("field_invalid", "carte_blanche")),
    ("a carte blanche holder twice", {"carte_blanche": [1, 1]}, ("field_invalid", "carte_blanche[1]")),
    (
        "sequences beyond ten cards",
        {"sequences": {"scorer": 0, "runs": [{"length": 8, "top": "A"}, {"length": 3, "top": "A"}]}},
        ("sequence_invalid", "sequences.runs"),
    ),
]


@pytest.mark.parametrize(("changes", "expected"), [pytest.param(c, e, id=i) for i, c, e in BAD_RECORDS])
def test_it_rejects_bad_records_with_a_code_and_a_path(changes, expected):
    ev = normand().evaluate(None, hand(**changes))
    assert expected in problems(ev), ev.errors
    assert ev.scores is None and ev.state_after is None


BAD_STATES = [
    ("no finished list", {"deals_played": 1, "totals": [1, 2, 3], "last_dealer": 1, "over": False}),
    (
        "two finished",
        {"deals_played": 1, "totals": [100, 100, 3], "last_dealer": 1, "finished": [0, 1], "over": False},
    ),
    (
        "finished twice",
        {"deals_played": 1, "totals": [100, 100, 3], "last_dealer": 1, "finished": [0, 0, 2], "over": True},
    ),
    (
        "finished seat 3",
        {"deals_played": 1, "totals": [100, 1, 3], "last_dealer": 1, "finished": [3], "over": False},
    ),
    (
        "finisher below the target",
        {"deals_played": 1, "totals": [90, 1, 3], "last_dealer": 1, "finished": [0], "over": False},
    ),
    (
        "player at the target not finished",
        {"deals_played": 1, "totals": [100, 1, 3], "last_dealer": 1, "finished": [], "over": False},
    ),
    (
        "all finished but not over",
        {"deals_played": 1, "totals": [100, 100, 3], "last_dealer": 1, "finished": [0, 1, 2], "over": False},
    ),
    (
        "four totals",
        {"deals_played": 1, "totals": [1, 2, 3, 4], "last_dealer": 1, "finished": [], "over": False},
    ),
]


@pytest.mark.parametrize("state", [pytest.param(s, id=i) for i, s in BAD_STATES])
def test_it_rejects_a_bad_state(state):
    assert problems(normand().evaluate(state, hand())) == {("state_invalid", "state")}


def test_it_refuses_a_hand_after_the_match_is_over():
    state = {
        "deals_played": 9,
        "totals": [100, 100, 3],
        "last_dealer": 1,
        "finished": [0, 1, 2],
        "over": True,
    }
    assert problems(normand().evaluate(state, hand())) == {("match_already_over", "state")}


def test_it_refuses_four_seats():
    ev = find_ruleset("piquet-normand").create("classic", {}, 4).evaluate(None, hand())
    assert problems(ev) == {("seat_count", "seats")}
