"""The rating people see: the model's belief ``(mu, sigma)`` on a chess-like scale.

The mapping (docs/ratings.md, "The displayed rating"):

- ``rating = 1500 + k · (mu − mu₀)``, where ``mu₀`` is the rater's prior mean: a newcomer is 1500;
- ``deviation = k · sigma``: the "± 80" beside it is **one** standard deviation of the belief
  (the model is about two to one sure the skill lies within it);
- ``k`` is chosen so that rating differences mean what they mean in chess: under the model's
  own two-player win probability, between two players it knows well (sigma → 0), a lead of
  ``d`` points gives the odds ``10^(d/400)`` to 1, so 400 points are 10 to 1, 200 about 3 to 1.
  It is read off ``Rater.win_probabilities`` (the odds of one unit of mu), so it follows the
  model's parameters. With the default model (a logistic of Δmu / 12.8) k ≈ 13.6 points per
  unit of mu.

Both numbers are rounded to whole points *before* anything is computed from them, so a change
shown as "+23" is exactly the displayed rating after less the displayed rating before.
Plain functions, no database: the pages, the API and the exports all call these.
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

from django.utils.formats import number_format

from .engine import Rater, Rating
from .raters import rater

#: A newcomer's displayed rating (the prior's mean).
NEWCOMER = 1500
#: Chess's convention: this many points of difference are odds of 10 to 1.
POINTS_PER_TENFOLD_ODDS = 400
#: The "±" is this many standard deviations of the belief.
DEVIATIONS = 1
#: The tiny sigma standing for "a player the model knows well" when the scale is read off.
_KNOWN = 1e-9


class Displayed(NamedTuple):
    """A belief as shown: whole points, ``rating ± deviation``."""

    rating: int
    deviation: int


@lru_cache(maxsize=8)
def points_per_mu(model: Rater) -> float:
    """k: displayed points per unit of mu, from the model's two-player odds of one unit of mu."""
    stronger, weaker = Rating(model.mu + 1.0, _KNOWN), Rating(model.mu, _KNOWN)
    win = model.win_probabilities([[stronger], [weaker]])[0]
    return POINTS_PER_TENFOLD_ODDS * math.log10(win / (1.0 - win))


def displayed(mu: float, sigma: float, *, model: Rater | None = None) -> Displayed:
    """The belief ``(mu, sigma)`` as shown: 1500 for a newcomer, chess-like steps, ± one sigma."""
    model = model or rater()
    k = points_per_mu(model)
    return Displayed(round(NEWCOMER + k * (mu - model.mu)), round(DEVIATIONS * k * sigma))


def rating(mu: float, sigma: float) -> int:
    """The displayed rating alone (whole points)."""
    return displayed(mu, sigma).rating


def change(mu_before: float, sigma_before: float, mu_after: float, sigma_after: float) -> int:
    """The displayed change of a match: the displayed rating after less the one before."""
    return rating(mu_after, sigma_after) - rating(mu_before, sigma_before)


def signed(points: int) -> str:
    """A change with its sign, localised: "+23", "−7" (a true minus), "0"."""
    sign = "+" if points > 0 else "−" if points < 0 else ""
    return sign + number_format(abs(points))


def as_mu(points: float, *, model: Rater | None = None) -> float:
    """The mu of a displayed rating (the inverse of the mapping; for tests and fixtures)."""
    model = model or rater()
    return model.mu + (points - NEWCOMER) / points_per_mu(model)
