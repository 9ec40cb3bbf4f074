"""The forecaster's chances add up (issue 35): for two sides win + draw + loss = 1; for any
table each side's chances of the places sum to 1, and so does each place's over the sides;
the first place's column is ``win_probabilities`` and the expected place its mean."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings import backtest
from ratings.engine import Rater, Rating
from ratings.fitting import point_scale

RATERS = [
    Rater.default(),
    Rater.default().with_parameters({"draw_share": 0.3}),
    Rater(model="bradley-terry-full"),
]
ratings = st.builds(Rating, st.floats(-20, 70), st.floats(0.3, 10))
tables = st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=6)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RATERS), st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=2))
def test_win_draw_and_loss_sum_to_one_and_mirror_each_other(rater, table):
    win, draw, loss = rater.outcome_probabilities(table)
    assert min(win, draw, loss) >= 0
    assert win + draw + loss == pytest.approx(1, abs=1e-12)
    other = rater.outcome_probabilities(table[::-1])
    assert other == pytest.approx((loss, draw, win), abs=1e-12)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(RATERS), tables)
def test_place_chances_sum_to_one_per_side_and_per_place(rater, table):
    chances = rater.place_probabilities(table)
    n = len(table)
    assert all(len(row) == n and min(row) >= 0 for row in chances)
    for row in chances:
        assert sum(row) == pytest.approx(1, abs=1e-9)
    for place in range(n):
        assert sum(row[place] for row in chances) == pytest.approx(1, abs=1e-9)
    assert [row[0] for row in chances] == pytest.approx(rater.win_probabilities(table), abs=1e-12)
    expected = [sum((k + 1) * p for k, p in enumerate(row)) for row in chances]
    assert expected == pytest.approx(rater.expected_ranks(table), abs=1e-7)


@pytest.mark.parametrize(
    ("table", "chances"),
    [
        ([[Rating(25, 8)], [Rating(25, 8)]], [[0.5, 0.5], [0.5, 0.5]]),
        ([[Rating(25, 8)]] * 3, [[1 / 3] * 3] * 3),
    ],
)
def test_equal_sides_have_equal_chances_of_every_place(table, chances):
    assert Rater.default().place_probabilities(table) == [pytest.approx(row) for row in chances]


def test_the_margin_bound_reads_the_performances_and_beats_the_places_alone():
    league = backtest.synthetic(4, backtest.Generator(players=40, matches=1000))
    wanted = ("oracle-assisted-filter", "oracle-assisted-margins", "oracle", "openskill-default")
    field = [
        c
        for c in backtest.candidates(include_ceiling=True, point_scale=point_scale(league))
        if c.name in wanted
    ]
    report = backtest.run(league, field)
    assert report.score("oracle-assisted-margins").uses_scores
    assert (
        report.score("oracle-assisted-margins").mean_log_loss
        < report.score("oracle-assisted-filter").mean_log_loss
    )
