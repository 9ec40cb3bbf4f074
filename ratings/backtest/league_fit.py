"""A league's parameters as ``ratings_fit`` would choose them, from its tuning seeds only.

The back-test's ``margin-aware`` row is the default reading the points with the parameters
chosen for the mixed league (margin weight λ 1, κ 20, β_m 12) and the input's own point
scale; a pool of the service is fitted first (``manage.py ratings_fit``,
``ratings.fitting.fit``: the default and each fitted parameter a step either way, the best by
Brier score on the later half of the pool's matches, and the pool's own draw share). To judge
what that fit is worth without fitting on the matches it is scored on, ``league_fit`` fits a
league of the generator on its tuning seeds (1 and 2; never the report seeds 101–103): the
seeds' matches as one pool, each seed's players apart (they never meet), in the order of their
days, so that the fit's later half is the later days of both, as in one pool with two circles
of players. The ``margin-fitted`` candidate (``candidates(fitted=…)``) is the default with the
parameters chosen there, and the input's own point scale, as ``margin-aware`` has."""

from __future__ import annotations

from collections.abc import Sequence

from ..engine import MatchOutcome, Rater
from ..fitting import Fit, fit
from .generator import Generator, synthetic

#: The generator's tuning seeds, and the seeds docs/ratings.md reports on (never fitted on).
TUNING_SEEDS = (1, 2)
REPORT_SEEDS = (101, 102, 103)


def tuning_pool(generator: Generator, seeds: Sequence[int] = TUNING_SEEDS) -> list[MatchOutcome]:
    """The seeds' matches as one pool's outcomes (with their points), each seed's players
    their own (``(seed, player)``), in the order of their days."""
    if set(seeds) & set(REPORT_SEEDS):
        raise ValueError(f"the report seeds {REPORT_SEEDS} are never fitted on, not {tuple(seeds)}")
    rows = []
    for seed in seeds:
        for i, m in enumerate(synthetic(seed, generator, with_oracle=False)):
            sides = tuple(tuple((seed, p) for p in side) for side in m.sides)
            rows.append((m.day, seed, i, sides, m.places, m.scores))
    rows.sort(key=lambda row: (row[0], row[1], row[2]))
    return [MatchOutcome(n, sides, places, day, scores)
            for n, (day, _, _, sides, places, scores) in enumerate(rows)]  # fmt: skip


def league_fit(generator: Generator, seeds: Sequence[int] = TUNING_SEEDS, base: Rater | None = None) -> Fit:
    """``ratings.fitting.fit`` on the league's tuning seeds as one pool (``tuning_pool``)."""
    return fit(tuning_pool(generator, seeds), base)


def fitted_parameters(found: Fit) -> dict:
    """What a ``margin-fitted`` rater takes from the fit: all but the point scale (a moment
    of the input's own points, as ``margin-aware``'s is)."""
    return {key: value for key, value in found.parameters.items() if key != "point_scale"}
