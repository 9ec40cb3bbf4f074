"""How far any rating filter can get on the generator: a filter told the opponents' true skills
(``OracleAssistedFilter``), the same told the performances behind the points too
(``OracleAssistedMarginFilter``: the bound of a model that reads the points), and the same
filter told nothing (``ThurstoneFilter``).

Research code for docs/ratings.md ("How far 60 % is"). On ``synthetic`` matches, each player's
belief about his own skill is a normal that follows the generator's own model exactly: it starts
at the generator's prior N(0, spread²), drifts between his matches as the generator's
Ornstein–Uhlenbeck process does (the exact transition of a normal belief), and after each match
is updated by the exact likelihood of the match's places on a grid (then moment-matched back to a
normal), where the likelihood uses every *other* side's true strength (``BacktestMatch.truth``),
which no real rating model knows. Its predictions are the generator's own Thurstone
first-place probabilities of the sides' beliefs (each player's variance plus his performance
noise).

So it sees strictly more than a rating model can (everything a pool's history holds and the
true skills of everyone else at every match, under the true model and dynamics); what it still
misses is the uncertainty about the players' own current skills, which a rating model cannot
remove either. Its share of the Brier gap is therefore, up to the normal approximation after
each update, an upper bound on what an online forecaster closes on this generator. (Within a
table of more than two sides, the order among the sides above a player, and among those below
him, is left out of his likelihood: it says almost nothing about him once the others' skills
are known.)

``ThurstoneFilter`` rates with the others' beliefs instead of their truth: a real rating model,
the generator's own with its parameters, to show what an update closer to the generator than
Weng & Lin's pairs would gain.

numpy only: the normal CDF on arrays is Abramowitz & Stegun's 7.1.26 (error below 1.5e-7),
since numpy has no erf.
"""

from __future__ import annotations

import math
from collections.abc import Hashable

import numpy as np

from ..engine import first_place_probabilities

__all__ = ["OracleAssistedFilter", "OracleAssistedMarginFilter", "ThurstoneFilter"]


def _normal_cdf(x: np.ndarray) -> np.ndarray:
    z = np.abs(x) / math.sqrt(2)
    t = 1 / (1 + 0.3275911 * z)
    poly = ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - 0.284496736) * t + 0.254829592) * t
    erf = 1 - poly * np.exp(-z * z)
    return 0.5 * (1 + np.sign(x) * erf)


#: The grid of a player's skill, in standard deviations of his belief, and of his performance noise.
_SKILL = np.linspace(-6, 6, 161)
_NOISE = np.linspace(-5, 5, 61)
_NOISE_WEIGHT = np.exp(-0.5 * _NOISE * _NOISE) / np.exp(-0.5 * _NOISE * _NOISE).sum()


class OracleAssistedFilter:
    """The bound's predictor (``predict`` before ``update``, match by match, in play order).

    ``spread``, ``drift_days``, ``draw_margin``: the generator's (``Generator``), which this
    filter is told, as it is told the truth."""

    def __init__(self, spread: float = 1.0, drift_days: float = 1_500.0, draw_margin: float = 0.08):
        self.spread2 = spread * spread
        self.drift_days = drift_days
        self.draw_margin = draw_margin
        self.mean: dict[Hashable, float] = {}
        self.var: dict[Hashable, float] = {}
        self.seen: dict[Hashable, float] = {}

    def _drift(self, match) -> None:
        for side in match.sides:
            for p in side:
                if p not in self.mean:
                    self.mean[p], self.var[p] = 0.0, self.spread2
                elif match.day is not None:
                    a = math.exp(-max(match.day - self.seen[p], 0.0) / self.drift_days)
                    self.mean[p] *= a
                    self.var[p] = a * a * self.var[p] + (1 - a * a) * self.spread2
                if match.day is not None:
                    self.seen[p] = match.day

    def predict(self, match) -> list[float]:
        if match.truth is None and type(self) is OracleAssistedFilter:
            raise ValueError("the oracle-assisted filter needs synthetic matches (they carry the truth)")
        self._drift(match)
        means = [sum(self.mean[p] for p in side) for side in match.sides]
        sds = [math.sqrt(sum(self.var[p] for p in side) + len(side)) for side in match.sides]
        return first_place_probabilities(means, sds)

    def draw(self, match) -> float | None:
        """Two sides: the chance their performances end within the draw margin (after ``predict``)."""
        if len(match.sides) != 2:
            return None
        lead = sum(self.mean[p] for p in match.sides[0]) - sum(self.mean[p] for p in match.sides[1])
        spread = math.sqrt(sum(self.var[p] + 1 for side in match.sides for p in side))
        edges = np.array([self.draw_margin - lead, -self.draw_margin - lead]) / spread
        inside = _normal_cdf(edges)
        return float(inside[0] - inside[1])

    def _others(self, match) -> tuple[list[float], list[float]]:
        """Each side's strength as this filter sees it when rating the others: the truth, known
        exactly (variance 0)."""
        return list(match.truth), [0.0] * len(match.sides)

    def update(self, match) -> None:
        places, sides = match.places, match.sides
        strength, uncertainty = self._others(match)
        new = {}
        for i, side in enumerate(sides):
            for p in side:
                sd = math.sqrt(self.var[p])
                skill = self.mean[p] + _SKILL * sd
                # His side performs at his skill + his partners' (their beliefs) + noise.
                partners = sum(self.mean[q] for q in side if q != p)
                noise_var = len(side) + sum(self.var[q] for q in side if q != p)
                if len(sides) == 2:
                    j = 1 - i
                    spread = math.sqrt(noise_var + len(sides[j]) + uncertainty[j])
                    lead = (skill + partners - strength[j]) / spread
                    margin = self.draw_margin / spread
                    if places[0] == places[1]:
                        likelihood = _normal_cdf(margin - lead) - _normal_cdf(-margin - lead)
                    elif places[i] < places[j]:
                        likelihood = _normal_cdf(lead - margin)
                    else:
                        likelihood = _normal_cdf(-lead - margin)
                else:
                    performance = (skill + partners)[:, None] + math.sqrt(noise_var) * _NOISE[None, :]
                    log_given = np.zeros_like(performance)
                    for j, other in enumerate(sides):
                        if j == i or places[j] == places[i]:
                            continue
                        z = (performance - strength[j]) / math.sqrt(len(other) + uncertainty[j])
                        ahead = _normal_cdf(-z) if places[j] < places[i] else _normal_cdf(z)
                        log_given += np.log(np.maximum(ahead, 1e-300))
                    likelihood = (np.exp(log_given) * _NOISE_WEIGHT[None, :]).sum(1)
                log_post = np.log(np.maximum(likelihood, 1e-300)) - 0.5 * _SKILL * _SKILL
                post = np.exp(log_post - log_post.max())
                post /= post.sum()
                mean = float((post * skill).sum())
                new[p] = (mean, float((post * (skill - mean) ** 2).sum()))
        for p, (mean, var) in new.items():
            self.mean[p], self.var[p] = mean, var


class ThurstoneFilter(OracleAssistedFilter):
    """The same filter told no truth: the other sides are their players' beliefs (mean and
    variance summed), as a rating model's would be. A real rating model, the generator's own
    (normal performances, the Ornstein–Uhlenbeck drift, the draw margin), with each belief
    updated by its exact likelihood on a grid: what an update closer to the generator than
    Weng & Lin's pairs gains (docs/ratings.md, "How far 60 % is"). Research: it is told the
    generator's parameters instead of fitting them, and runs in Python, player by player."""

    def _others(self, match) -> tuple[list[float], list[float]]:
        return ([sum(self.mean[p] for p in side) for side in match.sides],
                [sum(self.var[p] for p in side) for side in match.sides])  # fmt: skip


class OracleAssistedMarginFilter(OracleAssistedFilter):
    """The bound of a model that reads the points: the oracle-assisted filter told, beside
    every other side's true strength, the exact gaps between the sides' performances
    (``BacktestMatch.performance``), which the points tell only up to the match's richness
    and a whole point. With the others' strengths known, the gaps give each side's own
    performance up to the others' noise: for player p of side i, the precision-weighted mean
    over the other sides j of (perf_i − perf_j) + strength_j, less his partners' belief, is
    normal around his skill with variance |side i| + his partners' variance + 1 / Σ_j 1/|side j|
    (the places add nothing to it), so his belief is updated exactly (a Kalman step)."""

    def update(self, match) -> None:
        if match.performance is None or match.truth is None:
            raise ValueError("the margin bound needs synthetic matches (they carry the performances)")
        perf, strength, sides = match.performance, match.truth, match.sides
        new = {}
        for i, side in enumerate(sides):
            weights = [1 / len(other) for j, other in enumerate(sides) if j != i]
            seen = sum(
                (perf[i] - perf[j] + strength[j]) / len(other) for j, other in enumerate(sides) if j != i
            ) / sum(weights)
            for p in side:
                partners = sum(self.mean[q] for q in side if q != p)
                noise = len(side) + sum(self.var[q] for q in side if q != p) + 1 / sum(weights)
                precision = 1 / self.var[p] + 1 / noise
                mean = (self.mean[p] / self.var[p] + (seen - partners) / noise) / precision
                new[p] = (mean, 1 / precision)
        for p, (mean, var) in new.items():
            self.mean[p], self.var[p] = mean, var
