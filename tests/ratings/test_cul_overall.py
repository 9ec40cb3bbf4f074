"""The overall cul rating (spec 8): the formula on the sums of S, D, G, K and T."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from ratings.cul import CulFigures, figures_from_state, overall_cul_rating, overall_cul_rating_pct
from scorekeeper.rules.cul import cul_rating

CUL_CASES = Path(__file__).parents[1] / "data/conformance/cul.json"
CASES = {c["id"]: c for c in json.loads(CUL_CASES.read_text())}


def final_state(case_id):
    return CASES[case_id]["expect_result"]["state_after"]


@pytest.mark.parametrize(
    "case_id, scale, expected",
    [
        ("A1", "literal", [153.2, 22.2]),
        ("A4", "literal", [88.2, 5.2]),
        ("A4-normalised", "normalised", [69.1, 27.6]),
        ("all-at-six", "literal", [8.8, -23.9]),
    ],
)
def test_over_one_match_it_is_the_matchs_own_rating(case_id, scale, expected):
    state = final_state(case_id)
    got = [overall_cul_rating_pct([figures_from_state(state, seat)], scale) for seat in (0, 1)]
    assert got == expected == CASES[case_id]["expect_result"]["result"]["rating_pct"]


def test_the_spec_a1_figures_are_read_from_the_state():
    assert figures_from_state(final_state("A1"), 0) == CulFigures(161, 3, 0, 3, 156)
    assert figures_from_state(final_state("A1"), 1) == CulFigures(150, 0, 1, 3, 180)


def test_over_several_matches_it_is_a_ratio_of_sums_not_a_mean():
    # P1 of A1 (153.2 %) then P1 of A4 (88.2 %): S 417, D 6, G 1, K 8, T 424.
    a1, a4 = figures_from_state(final_state("A1"), 0), figures_from_state(final_state("A4"), 0)
    got = overall_cul_rating([a1, a4])
    assert got == pytest.approx(float(Fraction(417 * 5, 8 * 424) + Fraction(1, 2)))
    assert got == cul_rating(417, 6, 1, 8, 424)
    assert got != pytest.approx((cul_rating(161, 3, 0, 3, 156) + cul_rating(256, 3, 1, 5, 268)) / 2)
    assert overall_cul_rating_pct([a1, a4]) == 111.5


def test_no_party_no_rating():
    assert overall_cul_rating([]) is None
    assert overall_cul_rating_pct([CulFigures(0, 0, 0, 0, 0)]) is None


@pytest.mark.parametrize(
    "state, seat, message",
    [
        ([], 0, "must be an object"),
        ({"parties": 1}, 0, "needs 'points_total'"),
        (final_state("A1"), 2, "seat 2 is not in"),
        (final_state("A1"), True, "seat True is not in"),
    ],
)
def test_a_bad_state_is_a_clear_value_error(state, seat, message):
    with pytest.raises(ValueError, match=message):
        figures_from_state(state, seat)
