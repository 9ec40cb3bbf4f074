"""The default win probabilities of a pool, in plain Python: online ratings and a batch refit.

The back-test chose to predict a match with the mean of two models' first-place
probabilities (docs/ratings.md): the online ``Rater.default()`` (whose ratings are the
displayed ones) and the dynamic batch refit of ``ratings.backtest.refit``. Both are deterministic
functions of the pool's ordered history, so a forecaster fed the same matches in the same
order gives the same floats; its ``ratings`` are exactly ``replay``'s.

The split is deliberate: the online update costs microseconds a match and is what a full
recompute writes; the refit is a pass over the whole history every ``refit.every`` matches,
too slow to run inside a recompute, and it only improves predictions.
"""

from __future__ import annotations

from collections.abc import Hashable, Sequence

from ..engine import Rater, Rating
from .refit import DynamicRefit, DynamicRefitModel

__all__ = ["Forecaster"]


class Forecaster:
    """One pool's forecaster: feed it the pool's finished matches in order, ask it for odds."""

    def __init__(self, rater: Rater | None = None, refit: DynamicRefit | None = None, weight: float = 0.5):
        if not 0 <= weight <= 1:
            raise ValueError(f"weight must be between 0 and 1, not {weight!r}")
        self.rater = rater or Rater.default()
        self.refit: DynamicRefitModel = (refit or DynamicRefit()).model()
        #: The weight of the online rater's probabilities (the refit has the rest).
        self.weight = weight
        self.ratings: dict[Hashable, Rating] = {}
        self._prior = self.rater.prior()

    def _sides(self, sides: Sequence[Sequence[Hashable]]) -> list[list[Rating]]:
        prior = self._prior
        return [[self.ratings.get(p, prior) for p in side] for side in sides]

    def win_probabilities(self, sides: Sequence[Sequence[Hashable]]) -> list[float]:
        """Each side's chance of the first place (players by id; unknown ones from the prior)."""
        online = self.rater.win_probabilities(self._sides(sides))
        batch = self.refit.win_probabilities(sides)
        w = self.weight
        return [w * a + (1 - w) * b for a, b in zip(online, batch, strict=True)]

    def update(self, sides: Sequence[Sequence[Hashable]], places: Sequence[int]) -> None:
        """Learn one finished match (the pool's next, in order)."""
        after = self.rater.rate(self._sides(sides), places)
        self.refit.update(sides, places)
        for side, new in zip(sides, after, strict=True):
            for player, rating in zip(side, new, strict=True):
                self.ratings[player] = rating
