"""The piquet ruleset and the reckoning-order engine: bad input, explanations, match end."""

from __future__ import annotations

import pytest

from scorekeeper.rules import HandRejected, OptionsInvalid, find_ruleset
from scorekeeper.rules.fields import Fields
from scorekeeper.rules.piquet.declarations import (
    NORMAND_DECLARATIONS,
    TWO_HAND_DECLARATIONS,
    VOLEUR_DECLARATIONS,
    parse_declarations,
)
from scorekeeper.rules.piquet.play import PlaySummary, summary_winners
from scorekeeper.rules.piquet.reckoning import (
    first_leader_of,
    normand_params,
    piquet_params,
    reckon,
    voleur_params,
)
from scorekeeper.rules.result import Evaluation

from .records import P11, changed


def piquet(**options):
    return find_ruleset("piquet").create("classic", options, 2)


def record(**changes):
    """P11 with some fields replaced (``DROP`` removes a field)."""
    return changed(P11, changes, drop=DROP)


DROP = object()


def codes_and_paths(ev):
    return {(e.code, e.path) for e in ev.errors}


# -- bad input: exact code and path -------------------------------------------------------------------

BAD = [
    ("no dealer", {"dealer": DROP}, "field_missing", "dealer"),
    ("dealer out of range", {"dealer": 2}, "seat_out_of_range", "dealer"),
    ("dealer is a bool", {"dealer": True}, "seat_out_of_range", "dealer"),
    ("dealer is a string", {"dealer": "0"}, "seat_out_of_range", "dealer"),
    ("no carte_blanche field", {"carte_blanche": DROP}, "field_missing", "carte_blanche"),
    ("carte blanche list in two-hand", {"carte_blanche": [0]}, "field_invalid", "carte_blanche"),
    ("carte blanche holder out of range", {"carte_blanche": 5}, "seat_out_of_range", "carte_blanche"),
    ("no point field", {"point": DROP}, "field_missing", "point"),
    ("point not an object", {"point": 6}, "field_invalid", "point"),
    (
        "point of two in two-hand",
        {"point": {"scorer": 0, "cards": 2, "pips": 21}},
        "point_invalid",
        "point.cards",
    ),
    ("point of nine", {"point": {"scorer": 0, "cards": 9, "pips": 75}}, "point_invalid", "point.cards"),
    (
        "five cards at 60 pips",
        {"point": {"scorer": 0, "cards": 5, "pips": 60}},
        "point_invalid",
        "point.pips",
    ),
    ("pips as a bool", {"point": {"scorer": 0, "cards": 5, "pips": True}}, "point_invalid", "point.pips"),
    ("cards as a float", {"point": {"scorer": 0, "cards": 5.0, "pips": 49}}, "point_invalid", "point.cards"),
    ("point without pips", {"point": {"scorer": 0, "cards": 5}}, "field_missing", "point.pips"),
    ("point without scorer", {"point": {"cards": 5, "pips": 49}}, "field_missing", "point.scorer"),
    (
        "point scorer out of range",
        {"point": {"scorer": 3, "cards": 5, "pips": 49}},
        "seat_out_of_range",
        "point.scorer",
    ),
    (
        "quint to the nine",
        {"sequences": {"scorer": 0, "runs": [{"length": 5, "top": "9"}]}},
        "sequence_invalid",
        "sequences.runs[0]",
    ),
    (
        "run of nine",
        {"sequences": {"scorer": 0, "runs": [{"length": 9, "top": "A"}]}},
        "sequence_invalid",
        "sequences.runs[0].length",
    ),
    (
        "run topped by a six",
        {"sequences": {"scorer": 0, "runs": [{"length": 3, "top": "6"}]}},
        "sequence_invalid",
        "sequences.runs[0].top",
    ),
    (
        "run topped by nonsense",
        {"sequences": {"scorer": 0, "runs": [{"length": 3, "top": "X"}]}},
        "sequence_invalid",
        "sequences.runs[0].top",
    ),
    (
        "runs over twelve cards",
        {"sequences": {"scorer": 0, "runs": [{"length": 8, "top": "A"}, {"length": 5, "top": "A"}]}},
        "sequence_invalid",
        "sequences.runs",
    ),
    ("scorer with no runs", {"sequences": {"scorer": 0, "runs": []}}, "category_empty", "sequences.runs"),
    ("runs not a list", {"sequences": {"scorer": 0, "runs": "quint"}}, "field_invalid", "sequences.runs"),
    (
        "second run broken",
        {"sequences": {"scorer": 0, "runs": [{"length": 3, "top": "A"}, 4]}},
        "field_invalid",
        "sequences.runs[1]",
    ),
    (
        "sets tie",
        {"sets": {"scorer": None, "sets": [{"rank": "K", "count": 3}]}},
        "sets_cannot_tie",
        "sets.scorer",
    ),
    (
        "set of two",
        {"sets": {"scorer": 1, "sets": [{"rank": "K", "count": 2}]}},
        "set_invalid",
        "sets.sets[0].count",
    ),
    (
        "set of nines",
        {"sets": {"scorer": 1, "sets": [{"rank": "9", "count": 3}]}},
        "set_rank_not_allowed",
        "sets.sets[0].rank",
    ),
    (
        "same rank twice",
        {"sets": {"scorer": 1, "sets": [{"rank": "K", "count": 3}, {"rank": "k", "count": 3}]}},
        "set_invalid",
        "sets.sets[1].rank",
    ),
    ("scorer with no sets", {"sets": {"scorer": 1, "sets": []}}, "category_empty", "sets.sets"),
    ("eleven tricks", {"tricks": [0] * 11}, "tricks_count", "tricks"),
    ("thirteen tricks", {"tricks": [0] * 13}, "tricks_count", "tricks"),
    ("a winner out of range", {"tricks": [0] * 11 + [2]}, "seat_out_of_range", "tricks[11]"),
    ("a winner as a bool", {"tricks": [True] + [0] * 11}, "seat_out_of_range", "tricks[0]"),
    ("tricks not a list", {"tricks": "000000111111"}, "field_invalid", "tricks"),
    ("no play at all", {"tricks": DROP}, "play_missing", "tricks"),
    (
        "summary and tricks",
        {"play": {"tricks_won": [7, 5], "play_points": [9, 5], "last_trick": 0, "pique": False}},
        "play_conflict",
        "play",
    ),
    ("summary not an object", {"tricks": DROP, "play": [7, 5]}, "field_invalid", "play"),
    (
        "summary with three seats",
        {
            "tricks": DROP,
            "play": {"tricks_won": [4, 4, 4], "play_points": [9, 5], "last_trick": 0, "pique": False},
        },
        "array_length",
        "play.tricks_won",
    ),
    (
        "summary pique not a bool",
        {"tricks": DROP, "play": {"tricks_won": [7, 5], "play_points": [9, 5], "last_trick": 0, "pique": 0}},
        "field_invalid",
        "play.pique",
    ),
    ("no declared", {"declared": DROP}, "field_missing", "declared"),
    ("declared for three", {"declared": [1, 2, 3]}, "array_length", "declared"),
    ("declared as bools", {"declared": [True, 23]}, "field_invalid", "declared[0]"),
    ("declared as text", {"declared": [43, "23"]}, "field_invalid", "declared[1]"),
]


@pytest.mark.parametrize(("changes", "code", "path"), [pytest.param(*b[1:], id=b[0]) for b in BAD])
def test_it_rejects_bad_input_with_the_exact_code_and_path(changes, code, path):
    ev = piquet().evaluate(None, record(**changes))
    assert (code, path) in codes_and_paths(ev), ev.errors
    assert ev.scores is None and ev.breakdown == [] and ev.state_after is None


def test_it_reports_every_fault_of_a_record_in_one_pass():
    bad_point = {"scorer": 0, "cards": 5, "pips": 60}
    ev = piquet().evaluate(None, record(dealer=7, point=bad_point, tricks=[0] * 11))
    assert {"seat_out_of_range", "point_invalid", "tricks_count"} <= {e.code for e in ev.errors}


def test_an_infeasible_summary_is_rejected():
    summary = {"tricks_won": [6, 6], "play_points": [9, 7], "last_trick": 1, "pique": False}
    ev = piquet().evaluate(None, record(tricks=DROP, play=summary))
    assert ("play_summary_infeasible", "play") in codes_and_paths(ev)


@pytest.mark.parametrize(
    ("state", "code"),
    [
        ({"deals_played": 1, "totals": [1], "last_dealer": 0, "over": False}, "state_invalid"),
        ({"deals_played": -1, "totals": [0, 0], "last_dealer": None, "over": False}, "state_invalid"),
        ({"deals_played": 1, "totals": [0, 0], "last_dealer": 2, "over": False}, "state_invalid"),
        ({"totals": [0, 0], "last_dealer": 0, "over": False}, "state_invalid"),
        ([0, 0], "state_invalid"),
        ({"deals_played": 6, "totals": [120, 110], "last_dealer": 0, "over": True}, "match_already_over"),
    ],
)
def test_it_rejects_a_bad_or_finished_state(state, code):
    ev = piquet().evaluate(state, P11)
    assert [e.code for e in ev.errors] == [code]


def test_three_seats_is_a_seat_count_error():
    ev = find_ruleset("piquet").create(seats=3).evaluate(None, P11)
    assert [e.code for e in ev.errors] == ["seat_count"]


def test_it_accepts_lenient_rank_notation():
    ev = piquet().evaluate(
        None,
        record(
            sequences={"scorer": 0, "runs": [{"length": 5, "top": " j "}, {"length": 3, "top": "j"}]},
            sets={"scorer": 1, "sets": [{"rank": "q", "count": 4}, {"rank": "K", "count": 3}]},
        ),
    )
    assert ev.valid and ev.scores == [43, 23]


def test_ten_may_be_written_t():
    ev = piquet().evaluate(
        None,
        record(
            sets={"scorer": 1, "sets": [{"rank": "T", "count": 4}, {"rank": "K", "count": 3}]},
        ),
    )
    assert ev.valid


def test_sets_of_aces_are_refused_under_sets_exclude_aces():
    aces = {"scorer": 1, "sets": [{"rank": "A", "count": 3}]}
    ev = piquet(sets_exclude_aces=True).evaluate(None, record(sets=aces))
    assert ("set_rank_not_allowed", "sets.sets[0].rank") in codes_and_paths(ev)


# -- scoring and explanations --------------------------------------------------------------------------


def test_it_scores_hoffmanns_deal_with_a_breakdown_that_adds_up():
    ev = piquet().evaluate(None, P11)
    assert ev.valid and ev.scores == [43, 23]
    by_seat = [sum(line.points for line in ev.breakdown if line.seat == s) for s in (0, 1)]
    assert by_seat == [43, 23]
    assert {"point", "sequences", "sets", "lead", "capture", "last_trick", "cards"} == {
        line.item for line in ev.breakdown
    }


def test_a_claimed_pique_barred_by_younger_trio_is_explained():
    hand = {
        "dealer": 1,
        "carte_blanche": None,
        "point": {"scorer": 0, "cards": 8, "pips": 75},
        "sequences": {"scorer": 0, "runs": [{"length": 8, "top": "A"}, {"length": 3, "top": "Q"}]},
        "sets": {"scorer": 1, "sets": [{"rank": "10", "count": 3}]},
        "tricks": [0] * 6 + [1] * 6,
        "declared": [66, 10],
    }
    ev = piquet().evaluate(None, hand)
    assert ev.scores == [36, 10]
    [mismatch] = ev.mismatches
    assert mismatch.seat == 0
    assert mismatch.explanation == "younger's trio of tens reckons before elder's play: no pique"


def test_capot_counted_with_the_cards_is_explained():
    hand = record(
        point={"scorer": 0, "cards": 6, "pips": 56},
        sequences={"scorer": 0, "runs": [{"length": 4, "top": "A"}]},
        sets={"scorer": 0, "sets": [{"rank": "A", "count": 3}]},
        tricks=[0] * 12,
        declared=[76, 0],
    )
    ev = piquet().evaluate(None, hand)
    assert ev.scores == [66, 0]
    assert "capot counts 40 in all" in ev.mismatches[0].explanation


def test_score_raises_hand_rejected_with_the_evaluation():
    with pytest.raises(HandRejected) as info:
        piquet().score(None, record(declared=[44, 23]))
    assert info.value.evaluation.scores == [43, 23]
    assert [p.code for p in piquet().check(None, record(declared=[44, 23]))] == ["score_mismatch"]


def test_a_repique_is_scored_at_the_step_that_earns_it():
    # Elder: point 6, sixième 16, quatorze 14 = 36 in hand, younger nothing: repique (+60).
    hand = record(
        sequences={"scorer": 0, "runs": [{"length": 6, "top": "A"}]},
        sets={"scorer": 0, "sets": [{"rank": "K", "count": 4}]},
        declared=[0, 0],
    )
    ev = piquet().evaluate(None, hand)
    repique = [line for line in ev.breakdown if line.item == "repique"]
    assert [(line.seat, line.points) for line in repique] == [(0, 60)]
    assert not [line for line in ev.breakdown if line.item == "pique"]


def test_an_equal_point_bars_nothing():
    hand = record(
        point={"scorer": None, "cards": 5, "pips": 49},
        sequences={"scorer": 0, "runs": [{"length": 6, "top": "A"}]},
        sets={"scorer": 0, "sets": [{"rank": "K", "count": 4}]},
    )
    ev = piquet().evaluate(None, hand)
    assert any(line.item == "repique" for line in ev.breakdown)


def test_younger_cannot_pique_in_lead_capture_play():
    # Younger holds 29 after the hand phase, elder nothing; elder's first lead scores before
    # younger's 30th point, so there is no pique for younger.
    hand = record(
        point={"scorer": 1, "cards": 6, "pips": 56},
        sequences={"scorer": 1, "runs": [{"length": 5, "top": "A"}]},
        sets={"scorer": 1, "sets": [{"rank": "K", "count": 3}, {"rank": "Q", "count": 3}]},
        tricks=[1] * 12,
        declared=[0, 0],
    )
    ev = piquet().evaluate(None, hand)
    assert not [line for line in ev.breakdown if line.item in ("pique", "repique")]


def test_carte_blanche_scores_ten_first():
    ev = piquet().evaluate(None, record(carte_blanche=1, declared=[43, 33]))
    assert ev.valid
    assert ev.breakdown[0].item == "carte_blanche" and ev.breakdown[0].seat == 1


def test_it_warns_when_the_same_seat_deals_twice():
    state = {"deals_played": 1, "totals": [10, 10], "last_dealer": 1, "over": False}
    ev = piquet().evaluate(state, P11)
    assert ev.valid and [w.code for w in ev.warnings] == ["dealer_rotation"]


# -- match end and disputes ----------------------------------------------------------------------------


def state(deals, totals, last_dealer=0):
    return {"deals_played": deals, "totals": list(totals), "last_dealer": last_dealer, "over": False}


def test_the_partie_ends_after_six_deals_with_the_rubicon_rule():
    ev = piquet().evaluate(state(5, [80, 50]), P11)
    assert ev.match_over and ev.state_after["over"]
    assert ev.state_after["totals"] == [123, 73]
    assert ev.result == {
        "placements": [1, 2],
        "totals": [123, 73],
        "winner": 0,
        "rubiconed": True,
        "points_won": 123 + 73 + 100,
        "settlement": [296, -296],
    }


def test_a_tie_after_six_deals_plays_two_more_then_draws():
    tied = piquet().evaluate(state(5, [80, 100]), P11)
    assert tied.state_after["totals"] == [123, 123] and not tied.match_over
    seventh = piquet().evaluate(state(6, [123, 123]), record(dealer=0, tricks=[1] * 12, declared=[0, 0]))
    assert not seventh.match_over
    drawn = piquet().evaluate(state(7, [100, 120]), P11)
    assert drawn.match_over
    assert drawn.result["winner"] is None and drawn.result["settlement"] == [0, 0]


def test_a_disputed_hand_builds_the_state_from_the_declared_scores():
    ev = piquet().evaluate(state(5, [80, 50]), record(declared=[40, 26]), accept_declared=True)
    assert ev.scores == [43, 23] and ev.mismatches
    assert ev.state_after["totals"] == [120, 76]
    assert ev.result["points_won"] == 120 + 76 + 100


def test_without_accept_declared_the_state_follows_the_computed_scores():
    ev = piquet().evaluate(None, record(declared=[40, 26]))
    assert ev.state_after["totals"] == [43, 23]


def test_presets_and_overrides():
    seed = find_ruleset("piquet").create("seed")
    assert seed.options.sets_exclude_aces and seed.options.capot_additive
    assert seed.options.exchange_order == "dealer_first"
    with pytest.raises(OptionsInvalid):
        find_ruleset("piquet").create("classic", {"deals": 0})
    with pytest.raises(OptionsInvalid):
        find_ruleset("piquet").create("classic", {"exchange_order": "younger_first"})


def test_the_catalog_describes_the_record():
    entry = find_ruleset("piquet").describe()
    assert entry["record_schema"]["$schema"].endswith("2020-12/schema")
    assert set(entry["record_schema"]["required"]) >= {"dealer", "point", "sequences", "sets", "declared"}
    assert [o["name"] for o in entry["options"]] == [
        "sets_exclude_aces",
        "capot_additive",
        "exchange_order",
        "deals",
        "rubicon",
    ]


# -- the engine as the partnership and three-hand variants use it ----------------------------------------


NOTHING = {"carte_blanche": None, "point": None, "sequences": None, "sets": None}


def decl(rec, rules, seats, **kw):
    ev = Evaluation()
    out = parse_declarations(rec, Fields(ev, seats), rules, **kw)
    return out, ev


def test_voleur_admits_a_point_of_two_and_several_blanches():
    d, ev = decl(
        {
            "carte_blanche": [1, 3],
            "point": {"scorer": 0, "cards": 2, "pips": 21},
            "sequences": None,
            "sets": None,
        },
        VOLEUR_DECLARATIONS,
        4,
    )
    assert not ev.errors and d.carte_blanche == (1, 3)


def test_normand_refuses_a_finished_scorer():
    d, ev = decl(
        {
            "carte_blanche": None,
            "point": {"scorer": 2, "cards": 4, "pips": 38},
            "sequences": None,
            "sets": None,
        },
        NORMAND_DECLARATIONS,
        3,
        finished=(2,),
    )
    assert d is None and [(e.code, e.path) for e in ev.errors] == [("seat_finished", "point.scorer")]


def test_normand_caps_runs_at_ten_cards():
    _, ev = decl(
        {
            "carte_blanche": None,
            "point": None,
            "sets": None,
            "sequences": {"scorer": 0, "runs": [{"length": 8, "top": "A"}, {"length": 3, "top": "9"}]},
        },
        NORMAND_DECLARATIONS,
        3,
    )
    assert [(e.code, e.path) for e in ev.errors] == [("sequence_invalid", "sequences.runs")]


def test_voleur_partners_share_a_side_and_a_partners_win_is_no_capture():
    params = voleur_params()
    d, _ = decl(NOTHING, VOLEUR_DECLARATIONS, 4)
    leader = first_leader_of(params, 0)
    assert leader == 3
    r = reckon(params, first_leader=leader, declarations=d, winners=(1, 3, 3, 1, 1, 3, 1, 1))
    # Team 1 leads and wins every trick: 8 leads, no capture, the last trick, capot 40.
    assert r.points == [0, 8 + 1 + 40]
    assert not [line for line in r.lines if line[1] == "capture"]


def test_normand_cards_go_only_to_a_unique_most_tricks():
    params = normand_params()
    d, _ = decl(NOTHING, NORMAND_DECLARATIONS, 3)
    tie = reckon(params, first_leader=2, declarations=d, winners=(0, 0, 0, 0, 1, 1, 1, 1, 2, 2))
    assert tie.cards_side is None
    most = reckon(params, first_leader=2, declarations=d, winners=(0, 0, 0, 0, 1, 1, 1, 2, 2, 2))
    assert most.cards_side == 0


def test_normand_repique_counts_its_total():
    params = normand_params(repique_total=80)
    d, _ = decl(
        {
            "carte_blanche": None,
            "point": {"scorer": 1, "cards": 6, "pips": 56},
            "sequences": {"scorer": 1, "runs": [{"length": 5, "top": "A"}]},
            "sets": None,
        },
        NORMAND_DECLARATIONS,
        3,
    )
    r = reckon(params, first_leader=2, declarations=d, winners=(1,) * 10)
    assert r.repique is not None and r.repique.seat == 1
    assert r.hand_points[1] == 6 + 15 + 60


def test_the_target_stop_ends_the_deal_at_the_step_that_reaches_it():
    params = piquet_params()
    d, _ = decl(
        {
            "carte_blanche": None,
            "point": {"scorer": 0, "cards": 3, "pips": 29},
            "sequences": None,
            "sets": None,
        },
        TWO_HAND_DECLARATIONS,
        2,
    )
    r = reckon(params, first_leader=0, declarations=d, winners=(0,), before=[95, 40], target=100)
    assert r.stop_side == 0 and r.stop_step == "lead to trick 2" and r.points == [5, 0] and not r.short
    short = reckon(params, first_leader=0, declarations=d, winners=(0,), before=[0, 0], target=100)
    assert short.short


def test_summary_winners_finds_a_witness_sequence():
    d, _ = decl(
        {
            "carte_blanche": None,
            "point": {"scorer": 0, "cards": 5, "pips": 51},
            "sequences": {"scorer": 0, "runs": [{"length": 5, "top": "A"}]},
            "sets": {"scorer": 0, "sets": [{"rank": "A", "count": 3}]},
        },
        TWO_HAND_DECLARATIONS,
        2,
    )
    params = piquet_params()
    witness = summary_winners(params, 0, d, PlaySummary((6, 6), (7, 7), 1, True))
    assert witness is not None and len(witness) == 12
    assert summary_winners(params, 0, d, PlaySummary((6, 6), (9, 7), 1, True)) is None


@pytest.mark.parametrize(
    "state",
    [
        {"deals_played": 6, "totals": [120, 100], "last_dealer": 0, "over": False},
        {"deals_played": 8, "totals": [120, 120], "last_dealer": 0, "over": False},
    ],
)
def test_a_state_that_should_already_be_over_is_invalid(state):
    assert [e.code for e in piquet().evaluate(state, P11).errors] == ["state_invalid"]


def test_the_tie_break_deals_may_leave_the_totals_unequal_in_between():
    ev = piquet().evaluate(
        {"deals_played": 7, "totals": [120, 110], "last_dealer": 1, "over": False},
        record(dealer=0, tricks=[1] * 12, declared=[0, 0]),
    )
    assert not ev.errors
