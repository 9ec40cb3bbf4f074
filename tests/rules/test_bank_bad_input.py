"""Bank, spec 9 and 1.7: bad input yields exactly these error codes at exactly these paths."""

from __future__ import annotations

import pytest

from scorekeeper.rules import find_ruleset

from .test_bank import B1, TIE_BREAK, TIE_BREAK_PARTY, flags, game, party, state

RECORD_CASES = [
    # (id, options, record, {(code, path), …})
    ("dealer-missing", {}, party(dealer=None), {("field_missing", "dealer")}),
    ("dealer-bool", {}, party(dealer=True), {("seat_out_of_range", "dealer")}),
    ("dealer-too-high", {}, party(dealer=3), {("seat_out_of_range", "dealer")}),
    ("dealer-string", {}, party(dealer="0"), {("seat_out_of_range", "dealer")}),
    ("no-captured-at-all", {}, party(captured_points=None), {("field_missing", "captured_points")}),
    ("captured-points-short", {}, party(captured_points=[34, 41]), {("array_length", "captured_points")}),
    (
        "captured-points-not-a-list",
        {},
        party(captured_points="34,41,27"),
        {("field_invalid", "captured_points")},
    ),
    (
        "captured-points-negative",
        {},
        party(captured_points=[34, -1, 27]),
        {("captured_points_invalid", "captured_points[1]")},
    ),
    (
        "captured-points-above-pack",
        {},
        party(captured_points=[34, 125, 27]),
        {("captured_points_invalid", "captured_points[1]")},
    ),
    (
        "captured-points-float",
        {},
        party(captured_points=[34.0, 41, 27]),
        {("field_invalid", "captured_points[0]")},
    ),
    (
        "captured-points-bool",
        {},
        party(captured_points=[True, 41, 27]),
        {("field_invalid", "captured_points[0]")},
    ),
    (
        "captured-conflict",
        {},
        party(captured=[["AS", "10S"], ["AH", "10H", "KH", "QH", "JH", "KS"], []]),
        {
            ("captured_conflict", "captured_points[0]"),
            ("captured_conflict", "captured_points[1]"),
            ("captured_conflict", "captured_points[2]"),
        },
    ),
    (
        "captured-card-outside-pack",
        {},
        party(captured_points=None, captured=[["AS", "5S"], [], []]),
        {("card_invalid", "captured[0][1]")},
    ),
    (
        "captured-card-garbage",
        {},
        party(captured_points=None, captured=[["AS", 7], ["XX"], []]),
        {("card_invalid", "captured[0][1]"), ("card_invalid", "captured[1][0]")},
    ),
    (
        "captured-seat-not-a-list",
        {},
        party(captured_points=None, captured=[["AS"], "KH", []]),
        {("field_invalid", "captured[1]")},
    ),
    (
        "card-captured-and-left",
        {},
        party(captured_points=None, captured=[["AC"], ["10H"], []]),
        {("card_duplicate", "left_cards[2][0]")},
    ),
    (
        "card-twice-in-hand",
        {},
        party(left_cards=[[], [], ["AC", "a♣"]]),
        {("card_duplicate", "left_cards[2][1]")},
    ),
    ("left-cards-missing-under-penalty", {}, party(left_cards=None), {("field_missing", "left_cards")}),
    (
        "left-cards-seat-not-a-list",
        {},
        party(left_cards=[[], [], "AC 9D"]),
        {("field_invalid", "left_cards[2]")},
    ),
    ("left-cards-short", {}, party(left_cards=[[], ["AC"]]), {("array_length", "left_cards")}),
    (
        "left-card-outside-pack",
        {},
        party(left_cards=[[], [], ["AC", "2D"]]),
        {("card_invalid", "left_cards[2][1]")},
    ),
    ("finish-missing", {}, party(finish=None), {("field_missing", "finish")}),
    ("finish-string", {}, party(finish=["1", 2, None]), {("field_invalid", "finish[0]")}),
    ("finish-bool", {}, party(finish=[True, 2, None]), {("field_invalid", "finish[0]")}),
    ("finish-gap", {}, party(finish=[1, 3, None]), {("finish_positions_invalid", "finish")}),
    ("finish-repeat", {}, party(finish=[1, 1, None]), {("finish_positions_invalid", "finish")}),
    ("finish-zero", {}, party(finish=[0, 1, None]), {("finish_positions_invalid", "finish")}),
    (
        "finish-not-from-one",
        {},
        party(finish=[2, None, None], finish_bonus=None, left_cards=[[], ["6S"], ["AC"]]),
        {("finish_positions_invalid", "finish")},
    ),
    ("everybody-out", {}, party(finish=[1, 2, 3], left_cards=[[], [], []]), {("finish_all_out", "finish")}),
    (
        "left-cards-for-finisher",
        {},
        party(left_cards=[["6S"], [], ["AC", "9D"]]),
        {("left_cards_for_finisher", "left_cards[0]")},
    ),
    ("left-cards-missing", {}, party(left_cards=[[], [], []]), {("left_cards_missing", "left_cards[2]")}),
    (
        "bonus-for-non-finisher",
        {},
        party(finish_bonus=[flags(king=True), None, {"four_run": True}]),
        {("finish_bonus_for_non_finisher", "finish_bonus[2]")},
    ),
    (
        "trump-king-without-king",
        {},
        party(finish_bonus=[flags(trump_king=True), None, None]),
        {("finish_flags_inconsistent", "finish_bonus[0]")},
    ),
    (
        "four-kings-without-king",
        {},
        party(finish_bonus=[flags(four_kings=True), None, None]),
        {("finish_flags_inconsistent", "finish_bonus[0]")},
    ),
    (
        "four-kings-and-four-of-kind",
        {},
        party(finish_bonus=[flags(king=True, four_kings=True, four_of_kind=True), None, None]),
        {("finish_flags_inconsistent", "finish_bonus[0]")},
    ),
    (
        "trump-king-without-trumps",
        {"trump_scheme": 2},
        party(finish_bonus=[flags(king=True, trump_king=True), None, None]),
        {("trump_king_without_trumps", "finish_bonus[0].trump_king")},
    ),
    (
        "unknown-flag",
        {},
        party(finish_bonus=[{"kings": True}, None, None]),
        {("field_invalid", "finish_bonus[0].kings")},
    ),
    (
        "flag-not-a-bool",
        {},
        party(finish_bonus=[{"king": "yes"}, None, None]),
        {("field_invalid", "finish_bonus[0].king")},
    ),
    (
        "bonus-not-an-object",
        {},
        party(finish_bonus=[True, None, None]),
        {("field_invalid", "finish_bonus[0]")},
    ),
    ("bonus-short", {}, party(finish_bonus=[None, None]), {("array_length", "finish_bonus")}),
    ("declared-missing", {}, party(declared=None), {("field_missing", "declared")}),
    ("declared-string", {}, party(declared=[84, "51", 15]), {("field_invalid", "declared[1]")}),
    ("declared-long", {}, party(declared=[84, 51, 15, 0]), {("array_length", "declared")}),
    (
        "points-exceed-deck",
        {},
        party(captured_points=[60, 41, 27]),
        {("points_exceed_deck", "captured_points")},
    ),
    (
        "points-exceed-deck-rule-a",
        {"leftover_rule": "none"},
        party(captured_points=[60, 41, 27]),
        {("points_exceed_deck", "captured_points")},
    ),
    (
        "several-faults-at-once",
        {},
        party(dealer=None, finish=[1, 3, None], declared=None),
        {("field_missing", "dealer"), ("finish_positions_invalid", "finish"), ("field_missing", "declared")},
    ),
    ("record-not-an-object", {}, [B1], {("field_invalid", "")}),
    (
        "record-empty",
        {},
        {},
        {
            ("field_missing", "dealer"),
            ("field_missing", "captured_points"),
            ("field_missing", "left_cards"),
            ("field_missing", "finish"),
            ("field_missing", "declared"),
        },
    ),
]


@pytest.mark.parametrize(
    ("options", "record", "expected"), [pytest.param(*c[1:], id=c[0]) for c in RECORD_CASES]
)
def test_it_reports_exactly_these_errors(options, record, expected):
    ev = game(**options).evaluate(None, record)
    assert {(e.code, e.path) for e in ev.errors} == expected, ev.errors
    assert ev.scores is None and ev.breakdown == [] and ev.state_after is None
    assert ev.mismatches == [] and ev.warnings == []
    assert all(e.message for e in ev.errors)


TIE_BREAK_CASES = [
    ("dealer-sits-out", {"dealer": 2}, {("seat_not_participating", "dealer")}),
    (
        "outsider-captured",
        {"captured_points": [30, 40, 10]},
        {("non_participant_scored", "captured_points[2]")},
    ),
    (
        "outsider-captured-cards",
        {"captured_points": None, "captured": [["AS", "10S", "KS", "JD"], ["AH", "10H"], ["QD"]]},
        {("non_participant_scored", "captured[2]")},
    ),
    ("outsider-finished", {"finish": [None, 1, 2]}, {("non_participant_scored", "finish[2]")}),
    (
        "outsider-bonus",
        {"finish_bonus": [None, flags(), {"king": True}]},
        {("non_participant_scored", "finish_bonus[2]")},
    ),
    (
        "outsider-holds-cards",
        {"left_cards": [["KC"], [], ["6S"]]},
        {("non_participant_scored", "left_cards[2]")},
    ),
    (
        "both-tied-players-out",
        {"finish": [2, 1, None], "left_cards": [[], [], []]},
        {("finish_all_out", "finish")},
    ),
]


@pytest.mark.parametrize(("changes", "expected"), [pytest.param(*c[1:], id=c[0]) for c in TIE_BREAK_CASES])
def test_a_tie_break_party_between_the_tied_players_only(changes, expected):
    record = {k: v for k, v in (TIE_BREAK_PARTY | changes).items() if v is not None}
    ev = game().evaluate(TIE_BREAK, record)
    assert {(e.code, e.path) for e in ev.errors} == expected, ev.errors


def test_the_same_tie_break_party_is_fine_when_everybody_plays():
    record = TIE_BREAK_PARTY | {
        "dealer": 2,
        "captured_points": [30, 40, 10],
        "left_cards": [["KC"], [], ["6S"]],
    }
    ev = game(tiebreak_players="all").evaluate(TIE_BREAK, record | {"declared": [25, 60, 10]})
    assert ev.valid, ev.to_dict()


def _state(**changes):
    return state([100, 80, 60], last_loser=2) | changes


STATE_CASES = [
    ("not-an-object", [0, 0, 0]),
    ("missing-key", {k: v for k, v in _state().items() if k != "last_loser"}),
    ("unknown-key", _state(banks=[3, 3, 3])),
    ("parties-negative", _state(parties=-1)),
    ("parties-bool", _state(parties=True)),
    ("totals-short", _state(totals=[100, 80])),
    ("totals-not-ints", _state(totals=[100, 80, "60"])),
    ("last-dealer-out-of-range", _state(last_dealer=3)),
    ("last-loser-bool", _state(last_loser=False)),
    ("over-not-a-bool", _state(over=0)),
    ("tiebreak-one-seat", _state(totals=[254, 254, 0], tiebreak_seats=[0])),
    ("tiebreak-unsorted", _state(totals=[254, 254, 0], tiebreak_seats=[1, 0])),
    ("tiebreak-not-the-leaders", _state(totals=[254, 254, 0], tiebreak_seats=[0, 2])),
    ("tiebreak-below-target", _state(totals=[200, 200, 0], tiebreak_seats=[0, 1])),
    ("tie-on-top-without-tiebreak", _state(totals=[254, 254, 0])),
    ("over-without-a-winner", _state(over=True)),
    ("winner-but-not-over", _state(totals=[250, 80, 60])),
    ("totals-before-any-party", _state(parties=0)),
]


@pytest.mark.parametrize("bad_state", [pytest.param(c[1], id=c[0]) for c in STATE_CASES])
def test_it_rejects_a_malformed_or_impossible_state(bad_state):
    ev = game().evaluate(bad_state, B1)
    assert [(e.code, e.path) for e in ev.errors] == [("state_invalid", "state")], ev.errors


def test_a_finished_match_takes_no_more_parties():
    ev = game().evaluate(_state(totals=[250, 80, 60], over=True), B1)
    assert [(e.code, e.path) for e in ev.errors] == [("match_already_over", "state")]


@pytest.mark.parametrize("seats", [1, 5, 6])
def test_it_is_played_by_two_to_four(seats):
    ev = find_ruleset("bank").create("classic", {}, seats).evaluate(None, B1)
    assert [(e.code, e.path) for e in ev.errors] == [("seat_count", "seats")]
