"""Bank («Банк»), spec 9: behaviour beyond the conformance cases."""

from __future__ import annotations

import json

import jsonschema
import pytest

from scorekeeper.rules import HandRejected, OptionsInvalid, find_ruleset
from scorekeeper.rules.bank import Bank, BankOptions

from .conformance import load_cases
from .records import changed

NO_BONUS = {"king": False, "trump_king": False, "four_of_kind": False, "four_kings": False, "four_run": False}


def flags(**true_flags) -> dict:
    return NO_BONUS | dict.fromkeys(true_flags, True)


#: Conformance case B1: A out 1st with a king, B out 2nd, C keeps AC 9D.
B1 = {
    "dealer": 0,
    "captured_points": [34, 41, 27],
    "finish": [1, 2, None],
    "finish_bonus": [flags(king=True), flags(), None],
    "left_cards": [[], [], ["AC", "9D"]],
    "declared": [84, 51, 15],
}


def party(**changes) -> dict:
    """B1 with some fields replaced (``None`` removes a field)."""
    return changed(B1, changes, drop=None)


def game(seats: int = 3, preset: str = "classic", **options) -> Bank:
    return Bank.create(preset, options, seats)


def state(totals, *, parties=3, last_dealer=0, last_loser=None, tiebreak_seats=None, over=False) -> dict:
    return {
        "parties": parties,
        "totals": list(totals),
        "last_dealer": last_dealer,
        "last_loser": last_loser,
        "tiebreak_seats": tiebreak_seats,
        "over": over,
    }


def lines_of(ev, seat: int) -> list[tuple[str, int]]:
    return [(line.item, line.points) for line in ev.breakdown if line.seat == seat]


# -- registry, options, presets ----------------------------------------------


def test_it_is_registered_under_bank_for_two_to_four_players():
    assert find_ruleset("bank") is Bank
    assert Bank.seat_counts == (2, 3, 4)


def test_the_classic_preset_has_the_defaults_of_the_spec():
    o = BankOptions.preset("classic")
    assert o.to_dict() == {
        "target": 248,
        "leftover_rule": "penalty",
        "penalty_option": "cards",
        "penalty_reading": "additive",
        "penalty_flat": 31,
        "penalty_per_card": 3,
        "king_bonus": "additive",
        "tiebreak_players": "tied_only",
        "trump_scheme": 1,
        "seven_rule": 1,
        "next_dealer_rule": "free",
    }


def test_the_seed_preset_lets_everybody_play_the_tie_break():
    seed = BankOptions.preset("seed").to_dict()
    classic = BankOptions.preset("classic").to_dict()
    assert {k: v for k, v in seed.items() if classic[k] != v} == {"tiebreak_players": "all"}


@pytest.mark.parametrize(
    ("name", "value"),
    [
        ("penalty_flat", 30),
        ("penalty_per_card", 4),
        ("penalty_flat", True),
        ("trump_scheme", 6),
        ("seven_rule", 0),
        ("target", 0),
        ("king_bonus", "double"),
        ("next_dealer_rule", "winner"),
    ],
)
def test_it_rejects_option_values_outside_the_spec(name, value):
    with pytest.raises(OptionsInvalid) as raised:
        BankOptions.resolve("classic", {name: value})
    assert [(p.code, p.path) for p in raised.value.problems] == [("option_invalid", f"options.{name}")]


def test_the_catalog_lists_every_option_with_its_effect():
    effects = {spec["name"]: spec["effect"] for spec in Bank.describe()["options"]}
    assert effects == {
        "target": "scoring",
        "leftover_rule": "scoring",
        "penalty_option": "scoring",
        "penalty_reading": "scoring",
        "penalty_flat": "scoring",
        "penalty_per_card": "scoring",
        "king_bonus": "scoring",
        "tiebreak_players": "scoring",
        "trump_scheme": "check",
        "seven_rule": "recorded",
        "next_dealer_rule": "check",
    }


# -- record schema -----------------------------------------------------------


def test_every_conformance_record_fits_the_record_schema():
    # Rejected records included: bank's are wrong only in ways a schema cannot see (test_conformance.py
    # checks the accepted records of every game).
    validator = jsonschema.Draft202012Validator(Bank.record_schema)
    for case in load_cases("bank"):
        for record in case.get("hands") or [case["hand"]]:
            assert not list(validator.iter_errors(record)), case["id"]


def test_the_record_schema_needs_captured_points_or_the_cards():
    validator = jsonschema.Draft202012Validator(Bank.record_schema)
    assert not validator.is_valid(party(captured_points=None))
    assert validator.is_valid(party(captured_points=None, captured=[["AS"], ["10H", "KD"], []]))


# -- scoring -----------------------------------------------------------------


def test_the_breakdown_names_every_item_of_b1():
    ev = game().evaluate(None, B1)
    assert lines_of(ev, 0) == [("captured", 34), ("finish", 20), ("finish_king", 30)]
    assert lines_of(ev, 1) == [("captured", 41), ("finish", 10)]
    assert lines_of(ev, 2) == [("captured", 27), ("penalty", -12)]


def test_a_replacing_king_bonus_is_one_line_instead_of_the_going_out_bonus():
    ev = game(king_bonus="replace").evaluate(None, B1 | {"declared": [64, 51, 15]})
    assert ev.valid
    assert lines_of(ev, 0) == [("captured", 34), ("finish_king", 30)]


@pytest.mark.parametrize(
    ("position", "additive", "replace"),
    [(1, 20 + 30, 30), (2, 10 + 20, 20), (3, 10 + 10, 10)],
)
def test_the_king_bonus_depends_on_the_finishing_position(position, additive, replace):
    ev_by_reading = {
        reading: game(4, king_bonus=reading).evaluate(None, _four_player_party(position, flags(king=True)))
        for reading in ("additive", "replace")
    }
    assert ev_by_reading["additive"].scores[0] == additive
    assert ev_by_reading["replace"].scores[0] == replace


def _four_player_party(position: int, bonus: dict, captured: int = 0) -> dict:
    """Seat 0 goes out at ``position``, seats 1 … position−1 before it, the others keep a six."""
    return {
        "dealer": 0,
        "captured_points": [captured, 0, 0, 0],
        "finish": [position, *range(1, position)] + [None] * (4 - position),
        "finish_bonus": [bonus, None, None, None],
        "left_cards": [[]] * position + [["6S"], ["6H"], ["6D"]][: 4 - position],
        "declared": [0, 0, 0, 0],
    }


@pytest.mark.parametrize(("position", "bonus"), [(1, 30), (2, 25), (3, 20)])
def test_a_run_of_four_earns_by_finishing_position(position, bonus):
    ev = game(4).evaluate(None, _four_player_party(position, flags(four_run=True), captured=10))
    assert not ev.errors, ev.errors
    assert ev.scores[0] == 10 + {1: 20, 2: 10, 3: 10}[position] + bonus
    assert ("four_run", bonus) in lines_of(ev, 0)


def test_the_trump_king_and_the_four_kings_add_nothing_beyond_the_king_bonus():
    # Spec 1.9: the pile taken back is in captured_points; they count as going out with a king.
    for extra in ({"trump_king": True}, {"four_kings": True}):
        record = party(finish_bonus=[flags(king=True, **extra), flags(), None])
        ev = game().evaluate(None, record)
        assert ev.valid, ev.to_dict()
        assert ev.scores == [84, 51, 15]


def test_captured_cards_are_counted_when_no_points_are_given():
    record = party(
        captured_points=None,
        captured=[["AS", "10S", "KS", "QS", "JS", "6S"], ["A♥", "t♥", "kh"], ["QD"]],
        declared=[31 + 50, 27 + 10, 3 - 12],
    )
    ev = game().evaluate(None, record)
    assert ev.valid, ev.to_dict()
    assert lines_of(ev, 0)[0] == ("captured", 31)


def test_captured_points_and_cards_that_agree_are_accepted():
    cards = [["AS", "10S", "KS", "QS", "JS"], ["AH", "10H", "KH"], ["QD"]]
    record = party(captured_points=[31, 27, 3], captured=cards)
    ev = game().evaluate(None, record | {"declared": [81, 37, -9]})
    assert ev.valid, ev.to_dict()


def test_card_notation_is_lenient_on_input():
    ev = game().evaluate(None, party(left_cards=[[], [], [" a♣ ", "9d"]]))
    assert ev.valid, ev.to_dict()


def test_rule_a_needs_no_left_cards():
    ev = game(leftover_rule="none").evaluate(None, party(left_cards=None, declared=[84, 51, 27]))
    assert ev.valid, ev.to_dict()
    assert lines_of(ev, 2) == [("captured", 27)]


def test_finish_bonus_may_be_left_out_when_nobody_claims_one():
    ev = game().evaluate(None, party(finish_bonus=None, declared=[54, 51, 15]))
    assert ev.valid, ev.to_dict()


def test_a_missing_or_null_flag_is_false():
    ev = game().evaluate(None, party(finish_bonus=[{"king": True, "four_run": None}, {}, None]))
    assert ev.valid, ev.to_dict()


@pytest.mark.parametrize(
    ("options", "penalty"),
    [
        ({}, 15),
        ({"penalty_option": "flat"}, 15 + 31),
        ({"penalty_option": "flat", "penalty_flat": 56}, 15 + 56),
        ({"penalty_option": "flat", "penalty_reading": "replace", "penalty_flat": 15}, 15),
        ({"penalty_option": "flat", "penalty_reading": "pointless_only"}, 15),
        ({"penalty_option": "per_card"}, 15 + 3 * 3),
        ({"penalty_option": "per_card", "penalty_reading": "replace", "penalty_per_card": 6}, 6 * 3),
        ({"penalty_option": "per_card", "penalty_reading": "pointless_only"}, 15 + 3 * 1),
        ({"leftover_rule": "none"}, 0),
    ],
)
def test_every_penalty_option_and_reading(options, penalty):
    # AS QC 7D: 12 + 3 + 0 = 15 card points, three cards, one of them worth nothing.
    record = party(left_cards=[[], [], ["AS", "QC", "7D"]], captured_points=[34, 41, 20])
    ev = game(**options).evaluate(None, record)
    assert not ev.errors
    assert ev.scores[2] == 20 - penalty


def test_the_penalty_note_says_how_it_adds_up():
    ev = game(penalty_option="flat").evaluate(None, party(declared=[84, 51, -16]))
    (note,) = [line.note for line in ev.breakdown if line.item == "penalty"]
    assert note == (
        "penalty 43 for AC 9D left in hand: 12 card points + 31 fixed (option 2a, additive reading)"
    )


# -- mismatches --------------------------------------------------------------


def test_a_mismatch_explains_the_going_out_bonus_and_names_the_reading_the_player_used():
    ev = game().evaluate(None, party(declared=[64, 51, 15]))
    assert [(m.seat, m.declared, m.computed) for m in ev.mismatches] == [(0, 64, 84)]
    assert ev.mismatches[0].explanation == (
        "finished 1st with a king: 34 card points captured + 20 for going out 1st + 30 king bonus under "
        "the additive reading = 84; 64 is what king_bonus = replace would give; "
        "64 leaves out the 20 for going out 1st"
    )


def test_a_mismatch_of_the_second_finisher_with_a_king():
    record = party(finish_bonus=[flags(king=True), flags(king=True), None], declared=[84, 51, 15])
    (mismatch,) = game().evaluate(None, record).mismatches
    assert mismatch.computed == 71
    assert mismatch.explanation.startswith(
        "finished 2nd with a king: 41 card points captured + 10 for going out 2nd + "
        "20 king bonus under the additive reading = 71"
    )
    assert "51 leaves out the 20 king bonus under the additive reading" in mismatch.explanation


def test_a_mismatch_on_the_penalty_names_the_penalty_option_that_fits():
    (mismatch,) = game().evaluate(None, party(declared=[84, 51, -16])).mismatches
    assert mismatch.seat == 2
    assert "−16 is what" not in mismatch.explanation
    assert "-16 is what penalty_option = flat would give" in mismatch.explanation


def test_score_raises_hand_rejected_on_a_mismatch_with_the_explanation():
    with pytest.raises(HandRejected) as raised:
        game().score(None, party(declared=[64, 51, 15]))
    assert raised.value.code == "score_mismatch"
    assert "king_bonus = replace" in str(raised.value)


def test_a_disputed_party_keeps_the_declared_scores_in_the_state():
    # Spec 1.6: the scores stay computed, the mismatch is reported, the totals take the declared values.
    ev = game().evaluate(None, party(declared=[64, 51, 15]), accept_declared=True)
    assert ev.scores == [84, 51, 15]
    assert [m.seat for m in ev.mismatches] == [0]
    assert ev.state_after["totals"] == [64, 51, 15]


def test_a_disputed_party_ends_the_match_on_the_declared_totals():
    before = state([230, 200, 100], parties=5)
    record = party(declared=[20, 51, 15])  # A claims 20 instead of 84: 250, not 314
    ev = game().evaluate(before, record, accept_declared=True)
    assert ev.state_after["totals"] == [250, 251, 115]
    assert ev.match_over
    assert ev.result == {"placements": [2, 1, 3], "totals": [250, 251, 115], "winner": 1}
    plain = game().evaluate(before, record)
    assert plain.state_after["totals"] == [314, 251, 115]
    assert plain.result["winner"] == 0


def test_accept_declared_changes_nothing_without_mismatches():
    assert game().evaluate(None, B1, accept_declared=True).to_dict() == game().evaluate(None, B1).to_dict()


# -- warnings ----------------------------------------------------------------


def test_it_warns_when_play_blocked_with_nobody_out():
    record = party(
        finish=[None, None, None],
        finish_bonus=None,
        left_cards=[["6S"], ["KH"], ["AC", "9D"]],
        declared=[34, 36, 15],
    )
    ev = game().evaluate(None, record)
    assert ev.valid, ev.to_dict()
    assert [(w.code, w.path) for w in ev.warnings] == [("play_blocked", "finish")]
    assert ev.state_after["last_loser"] is None


@pytest.mark.parametrize(
    ("rule", "dealer", "warned"),
    [
        ("loser", 2, False),
        ("loser", 1, True),
        ("most_points", 0, False),
        ("most_points", 2, True),
        ("fewest_points", 2, False),
        ("fewest_points", 0, True),
        ("free", 1, False),
        ("finisher", 1, False),
        ("starter", 1, False),
    ],
)
def test_the_dealer_rule_is_checked_after_the_first_party(rule, dealer, warned):
    before = state([100, 80, 60], last_loser=2)
    ev = game(next_dealer_rule=rule).evaluate(before, party(dealer=dealer))
    assert ev.valid, ev.to_dict()
    assert [(w.code, w.path) for w in ev.warnings] == ([("dealer_rule", "dealer")] if warned else [])


def test_the_dealer_rule_is_not_checked_at_the_first_party():
    ev = game(next_dealer_rule="most_points").evaluate(None, party(dealer=2))
    assert ev.warnings == []


def test_warnings_never_change_the_scores():
    before = state([100, 80, 60], last_loser=2)
    quiet = game().evaluate(before, party(dealer=0))
    warned = game(next_dealer_rule="loser").evaluate(before, party(dealer=0))
    assert warned.warnings and warned.valid
    assert warned.scores == quiet.scores and warned.state_after == quiet.state_after


# -- state and match end ------------------------------------------------------


def test_the_state_after_the_first_party():
    assert game().evaluate(None, B1).state_after == {
        "parties": 1,
        "totals": [84, 51, 15],
        "last_dealer": 0,
        "last_loser": 2,
        "tiebreak_seats": None,
        "over": False,
    }


def test_reaching_the_target_exactly_wins():
    ev = game().evaluate(state([164, 0, 0]), B1)
    assert ev.state_after["totals"][0] == 248
    assert ev.match_over and ev.result["winner"] == 0


def test_a_lower_target_may_be_agreed():
    ev = game(target=80).evaluate(None, B1)
    assert ev.match_over and ev.result == {"placements": [1, 2, 3], "totals": [84, 51, 15], "winner": 0}


def test_a_tie_on_top_below_the_target_is_no_tie_break():
    ev = game().evaluate(state([0, 33, 0]), B1)
    assert ev.state_after["totals"][:2] == [84, 84]
    assert ev.state_after["tiebreak_seats"] is None and not ev.match_over


TIE_BREAK = state([254, 254, 212], parties=5, last_dealer=1, last_loser=2, tiebreak_seats=[0, 1])
#: A valid tie-break party between seats 0 and 1 (seat 2 sits out).
TIE_BREAK_PARTY = {
    "dealer": 0,
    "captured_points": [30, 40, 0],
    "finish": [None, 1, None],
    "finish_bonus": [None, flags(), None],
    "left_cards": [["KC"], [], []],
    "declared": [25, 60, 0],
}


def test_only_the_tied_players_play_the_tie_break_party():
    ev = game().evaluate(TIE_BREAK, TIE_BREAK_PARTY)
    assert ev.valid, ev.to_dict()
    assert ev.scores == [25, 60, 0]
    assert [line.seat for line in ev.breakdown if line.seat == 2] == []
    assert ev.state_after["last_loser"] == 0  # the single participant who did not go out
    assert ev.result == {"placements": [2, 1, 3], "totals": [279, 314, 212], "winner": 1}


def test_a_non_participant_declaring_points_is_a_mismatch():
    ev = game().evaluate(TIE_BREAK, TIE_BREAK_PARTY | {"declared": [25, 60, 5]})
    assert [(m.seat, m.computed) for m in ev.mismatches] == [(2, 0)]
    assert "tie-break" in ev.mismatches[0].explanation


def test_in_a_two_player_tie_break_the_only_loser_may_go_out_first_only_if_the_other_is_left():
    ev = game().evaluate(TIE_BREAK, TIE_BREAK_PARTY | {"finish": [1, 2, None]})
    assert ("finish_all_out", "finish") in {(e.code, e.path) for e in ev.errors}


def test_with_tiebreak_players_all_everybody_plays_the_tie_break():
    g = game(tiebreak_players="all")
    record = party(dealer=2, declared=[84, 51, 15])
    ev = g.evaluate(TIE_BREAK, record)
    assert ev.valid, ev.to_dict()
    assert ev.result == {"placements": [1, 2, 3], "totals": [338, 305, 227], "winner": 0}


def test_a_tie_break_that_ties_again_is_played_again():
    again = {"captured_points": [30, 10, 0], "left_cards": [["6C"], [], []], "declared": [30, 30, 0]}
    ev = game().evaluate(TIE_BREAK, TIE_BREAK_PARTY | again)
    assert ev.valid, ev.to_dict()
    assert ev.state_after["totals"] == [284, 284, 212]
    assert ev.state_after["tiebreak_seats"] == [0, 1] and not ev.match_over


def test_placements_share_a_rank_on_equal_totals():
    ev = game(4).evaluate(
        state([240, 100, 100, 50]),
        {
            "dealer": 0,
            "captured_points": [20, 0, 0, 0],
            "finish": [1, None, None, None],
            "finish_bonus": None,
            "left_cards": [[], ["6S"], ["6H"], ["6D"]],
            "declared": [40, 0, 0, 0],
        },
    )
    assert ev.result["placements"] == [1, 2, 2, 4]


def test_play_scores_a_whole_match_from_the_conformance_file():
    (case,) = [c for c in load_cases("bank") if c["id"] == "game-to-248"]
    evaluations = game().play(case["hands"])
    assert [ev.scores for ev in evaluations] == case["expect_result"]["hand_scores"]


def test_the_evaluation_is_json_serialisable():
    json.dumps(game().evaluate(None, party(declared=[64, 51, 15])).to_dict())


def test_after_a_tie_break_the_match_end_rule_is_applied_to_every_total():
    # Spec 9 "the rule is then applied again", read literally: a player who sat out the tie-break
    # and is alone on top at or above the target after it wins.
    before = state([254, 254, 250], parties=5, last_dealer=1, last_loser=2, tiebreak_seats=[0, 1])
    blocked = {
        "dealer": 0,
        "captured_points": [0, 0, 0],
        "finish": [None, None, None],
        "left_cards": [["AS", "AH"], ["AD", "AC"], []],
        "declared": [-24, -24, 0],
    }
    ev = game().evaluate(before, blocked)
    assert ev.valid, ev.to_dict()
    assert [w.code for w in ev.warnings] == ["play_blocked"]
    assert ev.result == {"placements": [2, 2, 1], "totals": [230, 230, 250], "winner": 2}
