"""The rating model each pool is rated with: the default (chosen by the back-test:
docs/ratings.md) with the parameters fitted to the pool's own matches, if any
(``ratings.services.rating_pool_fit`` stores them on the pool). Every number of a pool comes
from it, on the write side (the replay) and the read side (the win probabilities, the
predictions, the displayed scale) alike: the bottom of the ratings' modules, beside the
engine, importing nothing of the others but the models.
"""

from __future__ import annotations

import logging

from .engine import Rater
from .models import RatingPool

log = logging.getLogger(__name__)


def rater(game: str | None = None) -> Rater:
    """The rating model of ``game``'s pool: the default (chosen by the back-test:
    docs/ratings.md) with the parameters fitted to the pool's own matches, if any
    (``rating_pool_fit``); the default itself for ``None`` or a pool not fitted. Every number
    of a pool comes from it: the replay, its history's win probabilities, ``/predict``."""
    if game is None:
        return Rater.default()
    parameters = RatingPool.objects.filter(game=game).values_list("parameters", flat=True).first()
    return rater_with(game, parameters)


def rater_with(game: str, parameters) -> Rater:
    """``rater(game)`` from the pool's ``parameters`` as read (a replay has its pool's row)."""
    default = Rater.default()
    if not parameters:
        return default
    try:
        return default.with_parameters(parameters, name=f"{default.name}:{game}")
    except (TypeError, ValueError):
        log.warning("pool %s: stored parameters %r are not the model's; the defaults serve", game, parameters)
        return default
