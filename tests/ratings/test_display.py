"""The displayed rating (ratings/display.py): 1500 for a newcomer, chess's steps under the
model's own two-player odds, ± one sigma, changes that add up."""

from __future__ import annotations

import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from ratings import display
from ratings.engine import Rater, Rating
from ratings.raters import rater


def test_a_newcomer_is_1500_with_his_uncertainty_beside_it():
    prior = rater().prior()
    shown = display.displayed(prior.mu, prior.sigma)
    assert shown.rating == 1500
    assert shown.deviation == round(display.points_per_mu(rater()) * prior.sigma)


@pytest.mark.parametrize(("points", "odds"), [(400, 10.0), (200, math.sqrt(10)), (800, 100.0)])
def test_rating_differences_mean_chess_odds_under_the_models_two_player_probability(points, odds):
    model = rater()
    stronger = Rating(display.as_mu(1500 + points), 1e-9)
    weaker = Rating(display.as_mu(1500), 1e-9)
    win, loss = model.win_probabilities([[stronger], [weaker]])
    assert win / loss == pytest.approx(odds, rel=1e-9)


def test_the_scale_follows_the_models_parameters():
    wider = Rater(name="wider", beta=16.0, win_scale=1.6, model="bradley-terry-full")
    assert display.points_per_mu(wider) == pytest.approx(display.points_per_mu(rater()) / 2, rel=0.01)


def test_the_deviation_is_one_sigma_in_points():
    k = display.points_per_mu(rater())
    assert display.displayed(30.0, 2.0).deviation == round(2.0 * k)
    assert display.DEVIATIONS == 1


@given(st.floats(0, 60), st.floats(0.5, 9), st.floats(0, 60), st.floats(0.5, 9))
def test_a_change_is_the_displayed_after_less_the_displayed_before(mu0, s0, mu1, s1):
    assert display.change(mu0, s0, mu1, s1) == display.rating(mu1, s1) - display.rating(mu0, s0)


def test_signed_changes_use_a_true_minus():
    assert (display.signed(23), display.signed(-7), display.signed(0)) == ("+23", "−7", "0")
