"""piquet-au-cent: the target stop (spec 2.5), the double, finish_hand, disputes."""

from __future__ import annotations

import pytest

from scorekeeper.rules import find_ruleset

# Elder (95) scores his point (98), leads and wins trick 1 (99), reaches 100 leading to trick 2.
STOP_IN_PLAY = {
    "dealer": 1,
    "carte_blanche": None,
    "point": {"scorer": 0, "cards": 3, "pips": 29},
    "sequences": None,
    "sets": None,
    "tricks": [0],
    "declared": [5, 0],
}


def au_cent(**options):
    return find_ruleset("piquet-au-cent").create("classic", options, 2)


def state(totals, deals=3, last_dealer=0):
    return {"deals_played": deals, "totals": list(totals), "last_dealer": last_dealer, "over": False}


def test_the_deal_stops_at_the_lead_that_reaches_the_target():
    ev = au_cent().evaluate(state([95, 40]), STOP_IN_PLAY)
    assert ev.valid and ev.scores == [5, 0]
    assert ev.match_over and ev.result["winner"] == 0
    assert ev.result["double"] and ev.result["points_won"] == 120


def test_tricks_listed_after_the_stop_are_not_scored():
    full = dict(STOP_IN_PLAY, tricks=[0] * 6 + [1] * 6)
    assert au_cent().evaluate(state([95, 40]), full).scores == [5, 0]


def test_a_short_list_without_a_stop_is_tricks_count():
    ev = au_cent().evaluate(state([10, 40]), STOP_IN_PLAY)
    assert [(e.code, e.path) for e in ev.errors] == [("tricks_count", "tricks")]


def test_no_play_without_a_stop_is_play_missing():
    record = {k: v for k, v in STOP_IN_PLAY.items() if k != "tricks"}
    ev = au_cent().evaluate(state([10, 40]), record)
    assert [(e.code, e.path) for e in ev.errors] == [("play_missing", "tricks")]


def test_no_play_is_fine_when_the_hand_phase_reaches_the_target():
    record = {k: v for k, v in STOP_IN_PLAY.items() if k != "tricks"}
    ev = au_cent().evaluate(state([97, 40]), dict(record, declared=[3, 0]))
    assert ev.valid and ev.match_over and ev.scores == [3, 0]


def test_a_summary_cannot_say_when_the_target_was_reached_in_play():
    record = {k: v for k, v in STOP_IN_PLAY.items() if k != "tricks"}
    summary = {"tricks_won": [6, 6], "play_points": [7, 7], "last_trick": 1, "pique": False}
    ev = au_cent().evaluate(state([95, 40]), dict(record, play=summary))
    assert [(e.code, e.path) for e in ev.errors] == [("tricks_required", "play")]


def test_a_summary_is_accepted_when_nobody_reaches_the_target():
    record = {k: v for k, v in STOP_IN_PLAY.items() if k != "tricks"}
    summary = {"tricks_won": [6, 6], "play_points": [7, 7], "last_trick": 1, "pique": False}
    ev = au_cent().evaluate(state([10, 40]), dict(record, play=summary, declared=[10, 7]))
    assert ev.valid and ev.scores == [10, 7] and not ev.match_over


@pytest.mark.parametrize(
    ("double_when", "loser", "double"),
    [
        ("loser_below_half", 49, True),
        ("loser_below_half", 50, False),
        ("loser_at_least_half", 50, True),
        ("loser_at_least_half", 49, False),
    ],
)
def test_the_double_follows_double_when(double_when, loser, double):
    ev = au_cent(double_when=double_when).evaluate(state([95, loser]), STOP_IN_PLAY)
    assert ev.result["double"] is double
    assert ev.result["points_won"] == (100 - loser) * (2 if double else 1)


def test_with_finish_hand_the_deal_is_played_out_and_a_tie_plays_on():
    record = dict(STOP_IN_PLAY, tricks=[0] * 6 + [1] * 6, declared=[10, 7])
    ev = au_cent(finish_hand=True).evaluate(state([95, 40]), record)
    assert ev.scores == [10, 7] and ev.match_over and ev.result["totals"] == [105, 47]
    tied = au_cent(finish_hand=True).evaluate(state([95, 98]), record)
    assert tied.state_after["totals"] == [105, 105] and not tied.match_over


def test_a_disputed_hand_ends_the_game_on_the_declared_totals():
    record = dict(STOP_IN_PLAY, tricks=[0] * 6 + [1] * 6, declared=[10, 7])
    ev = au_cent().evaluate(state([95, 40]), record, accept_declared=True)
    assert ev.scores == [5, 0] and {m.seat for m in ev.mismatches} == {0, 1}
    assert ev.state_after["totals"] == [105, 47] and ev.match_over
    assert ev.result["winner"] == 0 and ev.result["points_won"] == (105 - 47) * 2


def test_the_options_of_au_cent():
    seed = find_ruleset("piquet-au-cent").create("seed")
    assert seed.options.finish_hand and seed.options.double_when == "loser_at_least_half"
    names = [o["name"] for o in find_ruleset("piquet-au-cent").describe()["options"]]
    assert names == [
        "sets_exclude_aces",
        "capot_additive",
        "exchange_order",
        "target",
        "finish_hand",
        "double_when",
    ]


def test_a_state_past_the_target_that_is_not_over_is_invalid():
    ev = au_cent().evaluate(state([100, 40]), STOP_IN_PLAY)
    assert [e.code for e in ev.errors] == ["state_invalid"]
