"""A league's parameters as ``ratings_fit`` chooses them, on its tuning seeds only
(ratings/backtest/league_fit.py), and the ``margin-fitted`` candidate that reads the points
with them."""

from __future__ import annotations

import pytest

from ratings import backtest
from ratings.engine import Rater
from ratings.fitting import candidate_parameters, fit, point_scale

SMALL = backtest.Generator(players=30, matches=400)


@pytest.mark.parametrize("seeds", [(101,), (1, 102), (2, 103)])
def test_the_report_seeds_are_never_fitted_on(seeds):
    with pytest.raises(ValueError, match="never fitted on"):
        backtest.tuning_pool(SMALL, seeds)


def test_the_tuning_pool_is_both_seeds_players_apart_in_the_order_of_their_days():
    pool = backtest.tuning_pool(SMALL, (1, 2))
    one = backtest.synthetic(1, SMALL, with_oracle=False)
    two = backtest.synthetic(2, SMALL, with_oracle=False)
    assert len(pool) == len(one) + len(two)
    assert [m.match_id for m in pool] == list(range(len(pool)))
    days = [m.day for m in pool]
    assert days == sorted(days)
    for seed, matches in ((1, one), (2, two)):
        mine = [m for m in pool if m.sides[0][0][0] == seed]
        # Each seed's matches keep their order, places and points; its players are its own.
        assert [(m.places, m.scores, m.day) for m in mine] == [(m.places, m.scores, m.day) for m in matches]
        assert [tuple(tuple((seed, p) for p in side) for side in m.sides) for m in matches] == [
            m.sides for m in mine
        ]
        assert all(player[0] == seed for m in mine for side in m.sides for player in side)


def test_the_league_fit_is_ratings_fits_choice_on_that_pool():
    found = backtest.league_fit(SMALL)
    pool = backtest.tuning_pool(SMALL)
    assert found == fit(pool)
    assert found.parameters["point_scale"] == point_scale(pool)
    # The candidates tried are the fit's own, the margins' among them.
    base = Rater.default().with_parameters({"point_scale": point_scale(pool)})
    assert [params for params, _ in found.briers] == candidate_parameters(base)
    assert {"margin_scale": 25.0} in [params for params, _ in found.briers]
    assert "point_scale" not in backtest.fitted_parameters(found)
    chosen = {k: v for k, v in found.parameters.items() if k != "point_scale"}
    assert backtest.fitted_parameters(found) == chosen


def test_margin_fitted_reads_the_points_with_the_fitted_parameters():
    data = backtest.synthetic(5, SMALL)
    scale = point_scale(data)
    fitted = {"margin_scale": 25.0, "draw_share": 0.03}
    field = backtest.candidates(include_oracle=False, point_scale=scale, fitted=fitted)
    assert [(c.name, c.uses_scores) for c in field[:3]] == [
        ("default", False),
        ("margin-aware", True),
        ("margin-fitted", True),
    ]
    tuned = field[2].make()
    assert tuned.rater == Rater.default().with_parameters(
        {**fitted, "point_scale": scale}, name="margin-fitted"
    )
    # With nothing fitted it is margin-aware, float for float; with a parameter changed it is not.
    same = backtest.candidates(include_oracle=False, point_scale=scale, fitted={})
    assert same[2].make().forecast(data) == same[1].make().forecast(data)
    assert tuned.forecast(data) != field[1].make().forecast(data)
    # Without points (no point scale) there is no margin-fitted row, fitted or not.
    assert "margin-fitted" not in [c.name for c in backtest.candidates(include_oracle=False, fitted=fitted)]
