"""piquet-voleur (spec 6): behaviour and bad-input tables (conformance: test_conformance.py)."""

from __future__ import annotations

import copy

import pytest

from scorekeeper.rules import find_ruleset

from .conformance import load_cases

CASES = {case["id"]: case for case in load_cases("piquet-voleur")}


def voleur(preset: str = "classic", **options):
    return find_ruleset("piquet-voleur").create(preset, options, 4)


def hand(case_id: str = "no-pique", **changes) -> dict:
    record = copy.deepcopy(CASES[case_id]["hand"])
    record.update(changes)
    return record


def problems(ev) -> set[tuple[str, str]]:
    return {(p.code, p.path) for p in ev.errors}


# -- the ruleset -------------------------------------------------------------------------


def test_it_is_registered_for_four_seats_with_the_options_of_section_6():
    cls = find_ruleset("piquet-voleur")
    assert cls.seat_counts == (4,)
    specs = {spec["name"]: spec for spec in cls.Options.specs()}
    assert set(specs) == {"sets_exclude_aces", "capot_additive", "target", "first_leader"}
    assert specs["sets_exclude_aces"]["defaults"] == {"classic": False, "seed": True}
    assert specs["capot_additive"]["defaults"] == {"classic": False, "seed": True}
    assert specs["target"]["defaults"] == {"classic": 100, "seed": 100}
    assert specs["first_leader"]["choices"] == ["dealer_right", "dealer_left"]
    assert cls.record_schema["type"] == "object"
    assert {"dealer", "declared"} <= set(cls.record_schema["required"])
    assert "tricks" not in cls.record_schema["required"]  # optional under the target stop (spec 2.5)


def test_it_refuses_three_seats():
    ev = find_ruleset("piquet-voleur").create("classic", {}, 3).evaluate(None, hand())
    assert problems(ev) == {("seat_count", "seats")}


def test_the_initial_state_has_four_equal_totals():
    assert voleur().initial_state() == {
        "deals_played": 0,
        "totals": [0, 0, 0, 0],
        "last_dealer": None,
        "over": False,
    }


# -- scoring -------------------------------------------------------------------------------


def test_partners_always_receive_the_team_score_and_lines_belong_to_the_seat_that_earned_them():
    ev = voleur().evaluate(None, hand("repique-20"))
    assert ev.scores == [108, 3, 108, 3]
    point = [line for line in ev.breakdown if line.item == "point"]
    sequences = [line for line in ev.breakdown if line.item == "sequences"]
    assert [(line.seat, line.points) for line in point] == [(0, 5)]
    assert [(line.seat, line.points) for line in sequences] == [(2, 15)]
    assert sum(line.points for line in ev.breakdown if line.seat in (0, 2)) == 108


def test_a_trick_won_by_the_leaders_partner_gives_no_capture_point():
    # Seat 0 leads (dealer 1); seat 2 wins trick 1 and leads trick 2 (won by seat 0): no capture at all.
    record = hand(tricks=[2, 0, 0, 0, 0, 0, 0, 0], declared=[0, 0, 0, 0])
    ev = voleur(target=1000).evaluate(None, record)
    assert not [line for line in ev.breakdown if line.item == "capture"]
    assert [line for line in ev.breakdown if line.item == "capot"]


def test_the_opponents_capture_bars_the_pique():
    ev = voleur().evaluate(None, hand("no-pique"))
    assert ev.scores == [30, 4, 30, 4]
    assert not [line for line in ev.breakdown if line.item == "pique"]


def test_the_first_leader_option_orders_carte_blanche_holders_for_the_target_stop():
    # Dealer 1: the right is seat 0, the left seat 2. Both leaders are of team 0, so the play scores
    # the same; what changes is which carte blanche (seats 1 and 2) reckons first (spec 2.4).
    state = {"deals_played": 3, "totals": [95, 95, 95, 95], "last_dealer": 0, "over": False}
    record = hand(carte_blanche=[1, 2], point=None, sequences=None, sets=None)
    del record["tricks"]
    by_right = voleur().evaluate(state, dict(record, declared=[0, 10, 0, 10]))
    by_left = voleur(first_leader="dealer_left").evaluate(state, dict(record, declared=[10, 0, 10, 0]))
    assert (by_right.valid, by_right.scores, by_right.result["winning_team"]) == (True, [0, 10, 0, 10], 1)
    assert (by_left.valid, by_left.scores, by_left.result["winning_team"]) == (True, [10, 0, 10, 0], 0)


def test_two_carte_blanche_holders_each_score_ten_for_their_team():
    ev = voleur().evaluate(None, hand("two-blanches"))
    blanches = sorted((line.seat, line.points) for line in ev.breakdown if line.item == "carte_blanche")
    assert blanches == [(0, 10), (3, 10)]


def test_a_point_of_two_cards_is_valid_in_voleur():
    record = hand(point={"scorer": 1, "cards": 2, "pips": 21}, sequences=None, sets=None)
    ev = voleur().evaluate(None, record)
    assert not ev.errors
    assert [(line.seat, line.points) for line in ev.breakdown if line.item == "point"] == [(1, 2)]


def test_capot_counts_forty_instead_of_ten_and_fifty_when_additive():
    classic = voleur().evaluate(None, hand("pique-20"))
    seed = voleur(capot_additive=True).evaluate(None, hand("pique-20"))
    assert seed.scores[0] - classic.scores[0] == 10


# -- the target stop (spec 2.5) -----------------------------------------------------------


def test_the_deal_stops_at_the_step_where_a_team_reaches_the_target():
    ev = voleur().evaluate(CASES["stop-at-100"]["state"], hand("stop-at-100"))
    assert ev.scores == [15, 0, 15, 0]
    assert ev.match_over
    # Seat 2's lead to trick 3 is the last line: the engine scored the lead to the unfinished trick.
    assert (ev.breakdown[-1].seat, ev.breakdown[-1].item) == (2, "lead")


def test_tricks_listed_after_the_stop_are_not_scored():
    full = hand("stop-at-100", tricks=[0, 2, 2, 2, 1, 1, 1, 1])
    ev = voleur().evaluate(CASES["stop-at-100"]["state"], full)
    assert ev.scores == [15, 0, 15, 0]
    assert ev.valid


def test_the_play_may_be_omitted_when_the_stop_happens_in_the_hand_phase():
    state = {"deals_played": 3, "totals": [90, 10, 90, 10], "last_dealer": 2, "over": False}
    record = hand("repique-20", dealer=3, point=None, declared=[15, 0, 15, 0])
    del record["tricks"]
    ev = voleur().evaluate(state, record)
    assert ev.valid, ev.to_dict()
    assert ev.scores == [15, 0, 15, 0]
    assert ev.result["winning_team"] == 0


def test_a_short_trick_list_without_a_stop_is_tricks_count():
    ev = voleur().evaluate(None, hand(tricks=[2, 2, 0]))
    assert ("tricks_count", "tricks") in problems(ev)


def test_no_play_at_all_without_a_stop_is_play_missing():
    record = hand()
    del record["tricks"]
    ev = voleur().evaluate(None, record)
    assert {p.code for p in ev.errors} == {"play_missing"}


def test_the_result_settles_the_team_difference_on_every_seat():
    ev = voleur().evaluate(None, hand("repique-20"))
    assert ev.result == {
        "placements": [1, 2, 1, 2],
        "totals": [108, 3, 108, 3],
        "winning_team": 0,
        "points_won": 105,
        "settlement": [105, -105, 105, -105],
    }


def test_team_one_can_win():
    state = {"deals_played": 2, "totals": [10, 95, 10, 95], "last_dealer": 0, "over": False}
    record = hand(
        "repique-20", point={"scorer": 3, "cards": 5, "pips": 49}, sequences=None, declared=[0, 5, 0, 5]
    )
    del record["tricks"]
    ev = voleur().evaluate(state, record)
    assert ev.valid, ev.to_dict()
    assert ev.result == {
        "placements": [2, 1, 2, 1],
        "totals": [10, 100, 10, 100],
        "winning_team": 1,
        "points_won": 90,
        "settlement": [-90, 90, -90, 90],
    }


# -- mismatches and warnings --------------------------------------------------------------


def test_partners_are_checked_separately_and_the_explanation_names_the_item():
    ev = voleur().evaluate(None, hand("mismatch-partner"))
    assert [m.seat for m in ev.mismatches] == [2]
    mismatch = ev.mismatches[0]
    assert (mismatch.declared, mismatch.computed) == (38, 108)
    assert "repique" in mismatch.explanation


def test_a_claimed_pique_that_the_opponents_capture_bars_is_explained():
    ev = voleur().evaluate(None, hand("no-pique", declared=[70, 4, 30, 4]))
    assert [m.seat for m in ev.mismatches] == [0]
    assert "pique" in ev.mismatches[0].explanation


def test_the_dealer_rotation_warning_never_blocks():
    ev = voleur().evaluate(CASES["warn-dealer"]["state"], hand("warn-dealer"))
    assert ev.valid
    assert [(w.code, w.path) for w in ev.warnings] == [("dealer_rotation", "dealer")]


# -- disputed hands (spec 1.6) -------------------------------------------------------------


def test_a_disputed_hand_builds_the_state_from_the_declared_scores():
    record = hand("no-pique", declared=[40, 4, 40, 4])
    ev = voleur().evaluate(None, record, accept_declared=True)
    assert ev.scores == [30, 4, 30, 4]
    assert [m.seat for m in ev.mismatches] == [0, 2]
    assert ev.state_after["totals"] == [40, 4, 40, 4]
    assert ev.match_over is False


def test_a_disputed_hand_ends_the_match_when_a_declared_total_reaches_the_target():
    state = {"deals_played": 3, "totals": [80, 60, 80, 60], "last_dealer": 0, "over": False}
    record = hand("no-pique", declared=[30, 44, 30, 44])
    ev = voleur().evaluate(state, record, accept_declared=True)
    assert ev.state_after == {
        "deals_played": 4,
        "totals": [110, 104, 110, 104],
        "last_dealer": 1,
        "over": True,
    }
    assert ev.result["winning_team"] == 0
    assert ev.result["points_won"] == 6


def test_a_disputed_hand_needs_partners_to_claim_the_same_score():
    ev = voleur().evaluate(None, hand("mismatch-partner"), accept_declared=True)
    assert ("declared_partners_differ", "declared") in problems(ev)
    assert ev.scores is None


def test_without_mismatches_accept_declared_changes_nothing():
    plain = voleur().evaluate(None, hand("repique-20"))
    accepted = voleur().evaluate(None, hand("repique-20"), accept_declared=True)
    assert accepted.to_dict() == plain.to_dict()


# -- bad input -------------------------------------------------------------------------------

BAD_RECORDS = [
    (
        "play summary",
        {"play": {"tricks_won": [4, 4], "play_points": [5, 5], "last_trick": 0, "pique": False}},
        ("field_invalid", "play"),
    ),
    ("dealt cards", {"dealt": [["7S"] * 8] * 4}, ("field_invalid", "dealt")),
    ("hands", {"hands": [[]] * 4}, ("field_invalid", "hands")),
    ("trick cards", {"trick_cards": []}, ("field_invalid", "trick_cards")),
    ("dealer out of range", {"dealer": 4}, ("seat_out_of_range", "dealer")),
    ("dealer is a boolean", {"dealer": True}, ("seat_out_of_range", "dealer")),
    ("dealer missing", {"dealer": None}, ("field_missing", "dealer")),
    ("declared for two", {"declared": [30, 4]}, ("array_length", "declared")),
    ("declared not a list", {"declared": 30}, ("field_invalid", "declared")),
    ("declared text", {"declared": [30, "4", 30, 4]}, ("field_invalid", "declared[1]")),
    ("twelve tricks", {"tricks": [0] * 12}, ("tricks_count", "tricks")),
    ("trick winner 4", {"tricks": [2, 2, 0, 0, 1, 1, 1, 4]}, ("seat_out_of_range", "tricks[7]")),
    ("trick winner -1", {"tricks": [2, 2, 0, 0, 1, 1, 1, -1]}, ("seat_out_of_range", "tricks[7]")),
    ("tricks not a list", {"tricks": "22001110"}, ("field_invalid", "tricks")),
    (
        "scorer out of range",
        {"point": {"scorer": 5, "cards": 5, "pips": 49}},
        ("seat_out_of_range", "point.scorer"),
    ),
    ("carte blanche seat 4", {"carte_blanche": [0, 4]}, ("seat_out_of_range", "carte_blanche[1]")),
    ("point of one card", {"point": {"scorer": 0, "cards": 1, "pips": 11}}, ("point_invalid", "point.cards")),
    (
        "sequences beyond sixteen cards",
        {
            "sequences": {
                "scorer": 0,
                "runs": [{"length": 8, "top": "A"}, {"length": 8, "top": "A"}, {"length": 3, "top": "A"}],
            }
        },
        ("sequence_invalid", "sequences.runs"),
    ),
]


@pytest.mark.parametrize(("changes", "expected"), [pytest.param(c, e, id=i) for i, c, e in BAD_RECORDS])
def test_it_rejects_bad_records_with_a_code_and_a_path(changes, expected):
    ev = voleur().evaluate(None, hand(**changes))
    assert expected in problems(ev), ev.errors
    assert ev.scores is None and ev.state_after is None and ev.breakdown == []


BAD_STATES = [
    ("partners differ", {"deals_played": 1, "totals": [10, 4, 12, 4], "last_dealer": 1, "over": False}),
    ("three totals", {"deals_played": 1, "totals": [10, 4, 10], "last_dealer": 1, "over": False}),
    ("dealer out of range", {"deals_played": 1, "totals": [10, 4, 10, 4], "last_dealer": 4, "over": False}),
    ("missing over", {"deals_played": 1, "totals": [10, 4, 10, 4], "last_dealer": 1}),
    ("boolean total", {"deals_played": 1, "totals": [True, 4, True, 4], "last_dealer": 1, "over": False}),
    ("negative deals", {"deals_played": -1, "totals": [0, 0, 0, 0], "last_dealer": None, "over": False}),
    (
        "past the target and not over",
        {"deals_played": 5, "totals": [120, 4, 120, 4], "last_dealer": 1, "over": False},
    ),
    ("a list", [0, 0, 0, 0]),
]


@pytest.mark.parametrize("state", [pytest.param(s, id=i) for i, s in BAD_STATES])
def test_it_rejects_a_bad_state(state):
    assert problems(voleur().evaluate(state, hand())) == {("state_invalid", "state")}


def test_it_refuses_a_hand_after_the_match_is_over():
    state = {"deals_played": 5, "totals": [100, 60, 100, 60], "last_dealer": 1, "over": True}
    assert problems(voleur().evaluate(state, hand())) == {("match_already_over", "state")}


@pytest.mark.parametrize("record", [None, [], "hand", 3, True])
def test_a_record_that_is_not_an_object_is_field_invalid(record):
    assert problems(voleur().evaluate(None, record)) == {("field_invalid", "")}


def test_every_missing_field_is_reported_at_once():
    ev = voleur().evaluate(None, {})
    codes = problems(ev)
    for field in ("dealer", "carte_blanche", "point", "sequences", "sets", "declared"):
        assert ("field_missing", field) in codes


def test_an_explanation_of_a_team_score_names_both_partners():
    ev = voleur().evaluate(None, hand("no-pique", declared=[30, 4, 30, 5]))
    assert [m.seat for m in ev.mismatches] == [3]
    assert ev.mismatches[0].explanation.startswith("the rules give seats 1 and 3 4:")
