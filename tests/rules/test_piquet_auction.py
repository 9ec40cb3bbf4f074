"""piquet-auction: the contract, thresholds by sign, tricks-only play."""

from __future__ import annotations

import pytest

from scorekeeper.rules import find_ruleset

PLUS_MADE = {
    "dealer": 1,
    "contract": {"declarer": 0, "tricks": 8, "sign": "plus", "multiplier": 1},
    "carte_blanche": None,
    "point": {"scorer": 0, "cards": 5, "pips": 49},
    "sequences": None,
    "sets": {"scorer": 1, "sets": [{"rank": "K", "count": 3}]},
    "tricks": [0, 0, 1, 0, 0, 0, 1, 0, 0, 1, 0, 0],
    "declared": [34, 6],
}


def auction(**options):
    return find_ruleset("piquet-auction").create("classic", options, 2)


def bid(**changes):
    return {**PLUS_MADE["contract"], **changes}


def with_contract(**contract):
    return dict(PLUS_MADE, contract={**PLUS_MADE["contract"], **contract})


def test_overtricks_score_ten_each_for_the_declarer():
    ev = auction().evaluate(None, PLUS_MADE)
    assert ev.valid and ev.scores == [34, 6]
    [line] = [ln for ln in ev.breakdown if ln.item == "contract_overtricks"]
    assert (line.seat, line.points) == (0, 10)
    assert not [ln for ln in ev.breakdown if ln.item in ("lead", "capture", "last_trick")]


def test_a_contract_made_exactly_scores_nothing():
    ev = auction().evaluate(None, with_contract(tricks=9))
    assert ev.scores == [24, 6]
    assert not [ln for ln in ev.breakdown if ln.item.startswith("contract")]


def test_a_doubled_plus_contract_defeated_pays_the_opponent():
    ev = auction().evaluate(None, with_contract(tricks=11, multiplier=2))
    [line] = [ln for ln in ev.breakdown if ln.item == "contract_defeated"]
    assert (line.seat, line.points) == (1, 10 * 2 * 2)


def test_a_minus_contract_counts_the_tricks_lost():
    # Declarer 1 bids 7 minus and loses 9 tricks (elder won 9): 2 over, redoubled.
    ev = auction().evaluate(None, with_contract(declarer=1, sign="minus", tricks=7, multiplier=4))
    [line] = [ln for ln in ev.breakdown if ln.item == "contract_overtricks"]
    assert (line.seat, line.points) == (1, 10 * 2 * 4)


def test_minus_thresholds_give_a_repique_at_twenty_one():
    record = with_contract(sign="minus")
    record["sets"] = {"scorer": 0, "sets": [{"rank": "A", "count": 4}, {"rank": "K", "count": 3}]}
    ev = auction().evaluate(None, record)  # point 5 + 14 + 3 = 22 ≥ 21 with younger at 0
    assert any(ln.item == "repique" and ln.seat == 0 for ln in ev.breakdown)
    plus = auction().evaluate(None, dict(record, contract=PLUS_MADE["contract"]))
    assert not any(ln.item == "repique" for ln in plus.breakdown)


@pytest.mark.parametrize(
    ("contract", "code", "path"),
    [
        (bid(declarer=2), "contract_invalid", "contract.declarer"),
        (bid(declarer=True), "contract_invalid", "contract.declarer"),
        (bid(tricks=6), "contract_invalid", "contract.tricks"),
        (bid(tricks=13), "contract_invalid", "contract.tricks"),
        (bid(tricks=8.0), "contract_invalid", "contract.tricks"),
        (bid(sign="up"), "contract_invalid", "contract.sign"),
        (bid(multiplier=3), "contract_invalid", "contract.multiplier"),
        ({"declarer": 0, "tricks": 8, "sign": "plus"}, "field_missing", "contract.multiplier"),
        ("8 plus", "contract_invalid", "contract"),
        (None, "field_missing", "contract"),
    ],
)
def test_it_rejects_a_bad_contract(contract, code, path):
    ev = auction().evaluate(None, dict(PLUS_MADE, contract=contract))
    assert (code, path) in {(e.code, e.path) for e in ev.errors}, ev.errors


def test_lead_points_claimed_as_in_piquet_are_mismatches():
    ev = auction().evaluate(None, dict(PLUS_MADE, declared=[36, 7]))
    assert {m.seat for m in ev.mismatches} == {0, 1}
    assert ev.mismatches[0].explanation.startswith("the rules give 34: ")
    assert "contract overtricks 10" in ev.mismatches[0].explanation


def test_the_summary_form_counts_tricks_won_as_play_points():
    record = {k: v for k, v in PLUS_MADE.items() if k != "tricks"}
    summary = {"tricks_won": [9, 3], "play_points": [9, 3], "last_trick": 0, "pique": False}
    ev = auction().evaluate(None, dict(record, play=summary))
    assert ev.valid and ev.scores == [34, 6]


def test_the_partie_uses_a_rubicon_of_150():
    ev = auction().evaluate(
        {"deals_played": 5, "totals": [140, 120], "last_dealer": 0, "over": False}, PLUS_MADE
    )
    assert ev.match_over and ev.result["totals"] == [174, 126]
    assert ev.result["rubiconed"] and ev.result["points_won"] == 174 + 126 + 150
