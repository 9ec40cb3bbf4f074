"""Bastard (spec 10): the jacks and the two sevens, match end, disputes, warnings, bad input."""

from __future__ import annotations

import pytest

from scorekeeper.rules import OptionsInvalid, find_ruleset
from scorekeeper.rules.bastard import Pile, expected_sum, hand_score

from .records import changed

Bastard = find_ruleset("bastard")


def game(seats=4, preset="classic", **options):
    return Bastard.create(preset, options, seats)


GOOD = {
    "dealer": 0,
    "trump": "H",
    "tricks": [5, 4, 3, 1],
    "specials": [["JH"], ["JS", "JC"], ["7D"], ["JD", "7C"]],
    "pass_count": 1,
    "declared": [1, 1, 6, -2],
}


def with_(base=GOOD, **changes):
    """``base`` with some fields replaced (``...`` removes a field)."""
    return changed(base, changes)


def score(pile, quadruple=False):
    return sum(points for _, points, _ in hand_score(pile, quadruple))


# -- one player's score ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("pile", "expected", "items"),
    [
        (Pile(5, 0, False, False), 5, ["tricks"]),
        (Pile(5, 4, False, False), 1, ["tricks", "jacks"]),
        (Pile(5, 4, True, False), -3, ["tricks", "jacks"]),  # the Ugly card doubles the jacks
        (Pile(5, 0, True, False), 10, ["tricks", "ugly_bonus"]),  # … or the tricks of a clean taker
        (Pile(5, 4, True, True), 1, ["tricks", "jacks"]),  # the Charm cancels the doubling
        (Pile(5, 0, True, True), 20, ["tricks", "charm_bonus"]),  # both sevens, no jack: 4 per trick
        (Pile(5, 0, False, True), 5, ["tricks"]),  # the Charm alone: no effect (classic)
        (Pile(5, 3, False, True), 2, ["tricks", "jacks"]),
        (Pile(0, 0, True, False), 0, ["tricks", "ugly_bonus"]),
    ],
)
def test_a_players_score_follows_spec_10(pile, expected, items):
    assert score(pile) == expected
    assert [item for item, _, _ in hand_score(pile)] == items


def test_the_charm_alone_quadruples_only_under_the_seed_option_and_only_without_jacks():
    assert score(Pile(5, 0, False, True), quadruple=True) == 20
    assert score(Pile(5, 1, False, True), quadruple=True) == 4
    assert game(3, "seed").options.charm_alone_quadruples is True


def test_the_self_check_of_the_worked_example():
    piles = [
        Pile(5, 4, False, False),
        Pile(4, 3, False, False),
        Pile(3, 0, True, False),
        Pile(1, 3, False, True),
    ]
    assert expected_sum(piles) == 6 == sum(map(score, piles))


# -- whole hands --------------------------------------------------------------------


def test_trump_and_special_cards_are_read_in_any_notation():
    record = with_(trump=" nt ", specials=[["j♥"], ["js", "J♣"], ["7♦"], ["jd", "7c"]])
    assert game().evaluate(None, record).valid
    assert game().evaluate(None, with_(trump="♥")).valid


def test_the_card_removed_with_three_players_changes_no_score():
    record = {
        "dealer": 0,
        "trump": "C",
        "tricks": [9, 5, 3],
        "specials": [["JS"], ["7C"], ["JC", "JD", "JH", "7D"]],
        "declared": [8, 5, -15],
    }
    assert (
        game(3).evaluate(None, record).to_dict()
        == game(3, removed_card_3p="QS").evaluate(None, record).to_dict()
    )


@pytest.mark.parametrize("seats", [2, 5, 0])
def test_it_rejects_a_seat_count_other_than_three_or_four(seats):
    assert [e.code for e in Bastard(seats=seats).evaluate(None, GOOD).errors] == ["seat_count"]


def test_a_mismatch_explains_the_score_and_the_sum_check():
    ev = game().evaluate(None, with_(declared=[1, 1, 6, 4]))
    (m,) = ev.mismatches
    assert (m.seat, m.declared, m.computed) == (3, 4, -2)
    assert "jacks 3" in m.explanation
    assert "add up to 6" in m.explanation and "declared ones to 12" in m.explanation


def test_an_accepted_dispute_adds_the_declared_scores():
    ev = game().evaluate(None, with_(declared=[1, 1, 6, 4]), accept_declared=True)
    assert ev.scores == [1, 1, 6, -2]
    assert ev.state_after["totals"] == [1, 1, 6, 4]
    assert Bastard(seats=4).state_problems(ev.state_after) == []


def test_accept_declared_changes_nothing_without_a_mismatch():
    assert (
        game().evaluate(None, GOOD, accept_declared=True).to_dict() == game().evaluate(None, GOOD).to_dict()
    )


@pytest.mark.parametrize(("seats", "hands"), [(4, 7), (3, 9)])
def test_auto_hands_per_match_depend_on_the_player_count(seats, hands):
    assert game(seats).hands_per_match == hands


def test_an_agreed_number_of_hands_ends_the_match():
    g = game(hands=2)
    first = g.evaluate(None, GOOD)
    assert not first.match_over
    second = g.evaluate(first.state_after, with_(dealer=1, pass_count=3))
    assert second.valid and not second.warnings
    assert second.match_over and second.state_after["over"]
    assert second.result == {"placements": [2, 2, 1, 4], "totals": [2, 2, 12, -4]}


def test_tied_totals_share_a_place():
    g = game(hands=1)
    record = with_(
        tricks=[4, 4, 4, 1], specials=[["JH"], ["JD", "JS"], ["7C"], ["JC", "7D"]], declared=[0, 0, 4, -3]
    )
    ev = g.evaluate(None, record)
    assert ev.valid, ev.mismatches
    assert ev.result["placements"] == [2, 2, 1, 4]


def test_a_finished_match_takes_no_more_hands():
    ev = game().evaluate({"hands_played": 7, "totals": [0, 0, 0, 0], "last_dealer": 2, "over": True}, GOOD)
    assert [e.code for e in ev.errors] == ["match_already_over"]


# -- warnings ------------------------------------------------------------------------

AFTER_SEAT_3 = {"hands_played": 1, "totals": [0, 0, 0, 0], "last_dealer": 3, "over": False}


def test_the_deal_rotates_clockwise_and_wraps_around():
    assert game().evaluate(AFTER_SEAT_3, with_(dealer=0, pass_count=3)).warnings == []
    ev = game().evaluate(AFTER_SEAT_3, with_(dealer=3, pass_count=3))
    assert [(w.code, w.path) for w in ev.warnings] == [("dealer_rotation", "dealer")]


def test_the_first_hand_may_be_dealt_by_anybody():
    assert game().evaluate(None, with_(dealer=2)).warnings == []


@pytest.mark.parametrize(
    ("passing", "hand", "count", "warned"),
    [
        ("increasing", 1, 1, False),
        ("increasing", 1, 0, True),
        ("increasing", 4, 7, False),
        ("increasing", 4, 5, True),
        ("none", 1, 0, False),
        ("none", 3, 5, True),
        ("increasing", 2, None, False),  # not given: not checked
    ],
)
def test_the_pass_count_is_checked_against_the_schedule(passing, hand, count, warned):
    state = {
        "hands_played": hand - 1,
        "totals": [0, 0, 0, 0],
        "last_dealer": None if hand == 1 else 3,
        "over": False,
    }
    record = with_(pass_count=... if count is None else count)
    ev = game(passing=passing).evaluate(state, record)
    assert ev.valid
    assert [w.code for w in ev.warnings] == (["pass_count_schedule"] if warned else [])


# -- bad input: exact codes and paths ----------------------------------------------------

BAD = [
    (with_(dealer=...), "field_missing", "dealer"),
    (with_(dealer=4), "seat_out_of_range", "dealer"),
    (with_(dealer=True), "seat_out_of_range", "dealer"),
    (with_(trump=...), "field_missing", "trump"),
    (with_(trump="X"), "trump_invalid", "trump"),
    (with_(trump="NO"), "trump_invalid", "trump"),
    (with_(trump=1), "trump_invalid", "trump"),
    (with_(pass_count=-1), "field_invalid", "pass_count"),
    (with_(pass_count="1"), "field_invalid", "pass_count"),
    (with_(tricks=...), "field_missing", "tricks"),
    (with_(tricks=[5, 4, 3]), "array_length", "tricks"),
    (with_(tricks=[6, 4, 4, -1]), "tricks_invalid", "tricks[3]"),
    (with_(tricks=[5, 4, 3, 1.0]), "field_invalid", "tricks[3]"),
    (with_(tricks=[5, 4, 3, True]), "field_invalid", "tricks[3]"),
    (with_(tricks=[5, 4, 3, 0]), "tricks_sum", "tricks"),
    (with_(tricks=[5, 4, 3, 2]), "tricks_sum", "tricks"),
    (with_(specials=...), "field_missing", "specials"),
    (with_(specials={"0": ["JH"]}), "field_invalid", "specials"),
    (with_(specials=[["JH"], ["JS", "JC"], ["7D"]]), "array_length", "specials"),
    (with_(specials=[["JH"], "JS JC", ["7D"], ["JD", "7C"]]), "field_invalid", "specials[1]"),
    (with_(specials=[["JH", "QS"], ["JS", "JC"], ["7D"], ["JD", "7C"]]), "special_invalid", "specials[0][1]"),
    (with_(specials=[["JH", "1X"], ["JS", "JC"], ["7D"], ["JD", "7C"]]), "card_invalid", "specials[0][1]"),
    (with_(specials=[["JH", None], ["JS", "JC"], ["7D"], ["JD", "7C"]]), "card_invalid", "specials[0][1]"),
    (
        with_(specials=[["JH"], ["JS", "JC"], ["7D", "JH"], ["JD", "7C"]]),
        "special_duplicate",
        "specials[2][1]",
    ),
    (
        with_(specials=[["JH", "jh"], ["JS", "JC"], ["7D"], ["JD", "7C"]]),
        "special_duplicate",
        "specials[0][1]",
    ),
    (with_(specials=[["JH"], ["JS", "JC"], [], ["JD", "7C"]]), "special_missing", "specials"),
    (with_(tricks=[5, 4, 4, 0]), "specials_without_tricks", "specials[3]"),
    (
        with_(tricks=[1, 0, 0, 12], specials=[["JH", "JS", "JC", "7D", "JD"], [], [], ["7C"]]),
        "specials_without_tricks",
        "specials[0]",
    ),
    (with_(declared=...), "field_missing", "declared"),
    (with_(declared=[1, 1, 6]), "array_length", "declared"),
    (with_(declared=[1, 1, 6, "-2"]), "field_invalid", "declared[3]"),
]


@pytest.mark.parametrize(("record", "code", "path"), BAD, ids=[f"{c}@{p}" for _, c, p in BAD])
def test_bad_input_is_reported_with_its_code_and_path(record, code, path):
    ev = game().evaluate(None, record)
    assert (code, path) in [(e.code, e.path) for e in ev.errors], ev.errors
    assert ev.scores is None and ev.state_after is None and ev.breakdown == []


def test_four_special_cards_fit_in_one_trick_of_four_cards():
    record = with_(
        tricks=[1, 0, 0, 12],
        specials=[["JH", "JS", "JC", "7D"], [], [], ["JD", "7C"]],
        declared=[-13, 0, 0, 9],
    )
    assert game().evaluate(None, record).valid


def test_every_missing_field_is_reported_at_once():
    ev = game().evaluate(None, {})
    assert sorted(e.path for e in ev.errors) == ["dealer", "declared", "specials", "tricks", "trump"]


@pytest.mark.parametrize("record", [None, [], "hand", 3])
def test_a_record_that_is_not_an_object_is_field_invalid(record):
    assert [e.code for e in game().evaluate(None, record).errors] == ["field_invalid"]


def state(**changes):
    return {"hands_played": 1, "totals": [1, 1, 6, -2], "last_dealer": 0, "over": False} | changes


BAD_STATES = [
    [],
    {},
    state(hands_played=-1),
    state(hands_played="1"),
    state(totals=[1, 1, 6]),
    state(totals=[1, 1, 6, None]),
    state(last_dealer=4),
    state(last_dealer=None),  # a hand was played, so somebody dealt it
    state(hands_played=0),  # nobody dealt yet, yet a last dealer
    state(hands_played=7),  # a 7-hand match is over after hand 7
    state(hands_played=8, over=True),
    state(over=0),
    state(extra=True),
]


@pytest.mark.parametrize("bad", BAD_STATES)
def test_a_malformed_state_is_state_invalid(bad):
    ev = game().evaluate(bad, GOOD)
    assert [(e.code, e.path) for e in ev.errors] == [("state_invalid", "state")]


def test_options_outside_their_choices_are_refused():
    for bad in (
        {"hands": 0},
        {"hands": "seven"},
        {"hands": True},
        {"passing": "decreasing"},
        {"removed_card_3p": "2C"},
        {"charm_alone_quadruples": 1},
    ):
        with pytest.raises(OptionsInvalid):
            game(**bad)
    assert game(hands=12).hands_per_match == 12


def test_the_catalog_lists_every_option_with_both_presets():
    entry = Bastard.describe()
    assert entry["seats"] == [3, 4]
    options = {o["name"]: o for o in entry["options"]}
    assert options["hands"]["type"] == "auto_int"
    assert options["charm_alone_quadruples"]["defaults"] == {"classic": False, "seed": True}
    assert options["removed_card_3p"]["defaults"] == {"classic": "2S", "seed": "QS"}
    assert options["passing"]["effect"] == "check"
