"""A pool's own model parameters, fitted by the back-test on its matches (issue 20); plain Python.

``fit(matches)`` replays a pool's matches, in its order, once per candidate parameter set (the
default and a few around it), each through the engine's ``replay_arrays``, and scores each
candidate's pre-match win probabilities by their Brier score on the later matches only (the
first ``burn_in`` share only teaches it); the best one wins, the default unless a candidate
beats it. The draw share δ of two sides is then the pool's own: the moment estimate that makes
the predicted draws of its two-sided matches add up to the draws seen (δ·Σ4p(1 − p) = draws);
so is the worth of a point where the matches have points (``point_scale``: the mean margin
between two sides placed apart), with which the candidates are tried, the margins' weight and
scale among them.

A pool with fewer than ``min_matches`` matches keeps the defaults: the few it has would fit
their noise. No Django here: ``ratings.services.rating_pool_fit`` reads the pool and stores
the result, which ``ratings.raters.rater(game)`` then serves and the recompute uses.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from .engine import MatchOutcome, Rater, replay_arrays

__all__ = ["MIN_MATCHES", "Fit", "candidate_parameters", "fit", "point_scale"]

#: Below this many matches a pool keeps the default parameters.
MIN_MATCHES = 500


def point_scale(matches: Sequence[object]) -> float | None:
    """How much a point is worth in a pool's game: the mean margin, in points, between two
    sides placed apart, over the matches that have ``scores`` (None: none has, or no two of
    their sides were placed apart). The rater's margins are in units of it
    (``Rater.point_scale``), so that one model serves games whose totals differ a hundredfold."""
    total = 0.0
    pairs = 0
    for match in matches:
        scores = getattr(match, "scores", None)
        if scores is None:
            continue
        places = match.places  # type: ignore[attr-defined]
        for i in range(len(places)):
            for q in range(i + 1, len(places)):
                if places[i] != places[q]:
                    total += abs(scores[i] - scores[q])
                    pairs += 1
    return total / pairs if pairs and total > 0 else None


def candidate_parameters(base: Rater) -> list[dict]:
    """The parameter sets tried: the default, and each fitted parameter a step either way
    (the margins' weight and noise too, when the pool's points are used)."""
    steps = [
        {"beta": base.beta * 0.75},
        {"beta": base.beta * 1.33},
        {"tau": base.tau * 0.5},
        {"tau": base.tau * 2},
        {"gamma": 0.0},
        {"gamma": max(base.gamma, 0.1) * 2},
        {"win_scale": (base.win_scale or 1.6) * 0.85},
        {"win_scale": (base.win_scale or 1.6) * 1.15},
        {"pair_weight_exponent": 0.5 if base.pair_weight_exponent == 0 else 0.0},
    ]
    if base.uses_margins:
        steps += [
            {"margin_weight": base.margin_weight * 0.5},
            {"margin_scale": base.margin_scale * 0.8},
            {"margin_scale": base.margin_scale * 1.25},
            {"margin_beta": base.margin_beta * 1.5},
        ]
    return [{}, *steps]


@dataclass(frozen=True)
class Fit:
    """The outcome of a fit: the parameters chosen (``{}``: the defaults kept) and why."""

    parameters: dict
    matches: int
    scored: int
    #: Brier score on the scored matches, per candidate (in ``candidate_parameters``' order).
    briers: list[tuple[dict, float]]
    draw_share: float | None
    reason: str

    def rater(self, base: Rater) -> Rater:
        return base.with_parameters(self.parameters)


def _brier(rater: Rater, matches: Sequence[MatchOutcome], scored_from: int) -> tuple[float, np.ndarray]:
    """The mean multi-class Brier score of the matches from ``scored_from`` on, and every
    two-sided match's win probability of its first side (NaN for the others)."""
    done = replay_arrays(rater, matches, {}, {})
    # One row per side: the first slot of each side carries the side's probability.
    first = np.ones(len(done.side), bool)
    first[1:] = (done.match_index[1:] != done.match_index[:-1]) | (done.side[1:] != done.side[:-1])
    match = done.match_index[first]
    p = done.win_probability[first]
    place = done.place[first]
    best = np.full(len(matches), np.iinfo(np.int64).max)
    np.minimum.at(best, match, place)
    winners = np.bincount(match, place == best[match], len(matches))
    y = np.where(place == best[match], 1 / winners[match], 0.0)
    per_match = np.bincount(match, (p - y) ** 2, len(matches))
    sides = np.bincount(match, None, len(matches))
    two = np.full(len(matches), np.nan)
    first_of_two = (sides[match] == 2) & (done.side[first] == 0)
    two[match[first_of_two]] = p[first_of_two]
    return float(per_match[scored_from:].mean()), two


def fit(matches: Sequence[MatchOutcome], base: Rater | None = None, *, burn_in: float = 0.5,
        min_matches: int = MIN_MATCHES) -> Fit:  # fmt: skip
    """The best candidate by Brier score on the later matches (the default if none beats it),
    with the pool's own draw share; the defaults for a pool too small to fit."""
    base = base or Rater.default()
    matches = list(matches)
    scale = point_scale(matches)
    if scale is not None and base.margin_weight > 0:
        # The points' worth is the pool's own (a moment, like the draw share); the candidates
        # are then tried with it.
        base = base.with_parameters({"point_scale": scale})
    if len(matches) < min_matches:
        return Fit({}, len(matches), 0, [], None, f"fewer than {min_matches} matches: the defaults")
    scored_from = int(len(matches) * burn_in)
    briers = []
    best: dict = {}
    best_brier: float | None = None
    best_two: np.ndarray | None = None
    for params in candidate_parameters(base):
        brier, two = _brier(base.with_parameters(params), matches, scored_from)
        briers.append((params, brier))
        if best_brier is None or brier < best_brier:
            best, best_brier, best_two = params, brier, two
    assert best_two is not None  # the candidates start with the defaults: one was scored
    chosen = dict(best)
    if base.point_scale is not None:
        chosen["point_scale"] = base.point_scale
    draw_share = None
    is_two = ~np.isnan(best_two)
    if is_two.any():
        drawn = np.array([len(m.places) == 2 and m.places[0] == m.places[1] for m in matches])
        spread = float((4 * best_two[is_two] * (1 - best_two[is_two])).sum())
        if spread > 0:
            draw_share = min(0.5, float(drawn[is_two].sum()) / spread)
            chosen["draw_share"] = draw_share
    reason = "the default parameters scored best" if not best else f"{best} scored best"
    return Fit(chosen, len(matches), len(matches) - scored_from, briers, draw_share, reason)
