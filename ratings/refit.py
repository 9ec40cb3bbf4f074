"""A periodic batch refit of a Plackett–Luce model over a pool's history, in plain Python.

The back-test's stronger candidate (issue 11). Every ``every`` matches of the pool, the
strengths θ of all players are refitted by penalised maximum likelihood over the whole
history so far, each match weighted by ``0.5 ** (age / half_life)`` (age in matches of the
pool), so that old results count less as skills drift, with a normal prior N(0, prior_sd²)
on each θ. Between refits, each match moves its players by one Newton step of the same
objective (an online update). A side's strength is the sum of its players' θ; its chance of
the first place is the softmax of the sides' strengths.

Everything is a deterministic function of the ordered match history: the same matches in
the same order give the same floats, whether fed at once or one by one. A refit costs
``iterations`` passes over the weighted window of history (matches older than about
``10 · half_life`` are left out, their weight being under 1/1000).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

__all__ = ["Refit", "RefitModel"]


@dataclass(frozen=True)
class Refit:
    """Parameters of the batch refit."""

    every: int = 500
    half_life: float = 3000.0
    prior_sd: float = 1.0
    iterations: int = 4
    name: str = "batch-refit"

    def model(self) -> RefitModel:
        return RefitModel(self)


def _stages(places: Sequence[int]) -> list[list[int]]:
    """The sides grouped by place, best first: Plackett–Luce's stages, ties together."""
    groups: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        groups.setdefault(place, []).append(i)
    return [groups[p] for p in sorted(groups)]


def _gradients(strengths: list[float], stages: list[list[int]]) -> tuple[list[float], list[float]]:
    """Gradient and minus the diagonal Hessian of the log-likelihood, per side.

    Ties are Breslow's: each of the t sides tied at a stage is picked from all the sides
    still in, which is the Plackett–Luce stage t times over.
    """
    n = len(strengths)
    top = max(strengths)
    exps = [math.exp(s - top) for s in strengths]
    grad = [0.0] * n
    hess = [0.0] * n
    remaining = list(range(n))
    for group in stages:
        if len(remaining) <= 1:
            break
        total = 0.0
        for j in remaining:
            total += exps[j]
        t = len(group)
        for j in remaining:
            p = exps[j] / total
            grad[j] -= t * p
            hess[j] += t * p * (1 - p)
        for j in group:
            grad[j] += 1
        gone = set(group)
        remaining = [j for j in remaining if j not in gone]
    return grad, hess


class RefitModel:
    """One pool's refit state: the history, θ per player, the precision of each θ."""

    def __init__(self, params: Refit):
        self.params = params
        self.index: dict[Hashable, int] = {}
        self.theta: list[float] = []
        self.precision: list[float] = []
        self.history: list[tuple[tuple[tuple[int, ...], ...], list[list[int]]]] = []
        self.prior_precision = 1 / (params.prior_sd * params.prior_sd)

    def _ids(self, sides: Sequence[Sequence[Hashable]]) -> tuple[tuple[int, ...], ...]:
        out = []
        for side in sides:
            row = []
            for player in side:
                k = self.index.get(player)
                if k is None:
                    k = self.index[player] = len(self.theta)
                    self.theta.append(0.0)
                    self.precision.append(self.prior_precision)
                row.append(k)
            out.append(tuple(row))
        return tuple(out)

    def strength(self, player: Hashable) -> float:
        k = self.index.get(player)
        return 0.0 if k is None else self.theta[k]

    def win_probabilities(self, sides: Sequence[Sequence[Hashable]]) -> list[float]:
        strengths = [sum(self.strength(p) for p in side) for side in sides]
        top = max(strengths)
        exps = [math.exp(s - top) for s in strengths]
        total = sum(exps)
        return [e / total for e in exps]

    def update(self, sides: Sequence[Sequence[Hashable]], places: Sequence[int]) -> None:
        ids = self._ids(sides)
        stages = _stages(places)
        self.history.append((ids, stages))
        theta, precision = self.theta, self.precision
        strengths = [sum(theta[k] for k in side) for side in ids]
        grad, hess = _gradients(strengths, stages)
        for side, g, h in zip(ids, grad, hess, strict=True):
            for k in side:
                precision[k] += h
                theta[k] += g / precision[k]
        if len(self.history) % self.params.every == 0:
            self.refit()

    def refit(self) -> None:
        """Penalised maximum likelihood over the weighted history (diagonal Newton steps)."""
        p = self.params
        now = len(self.history)
        decay = 0.5 ** (1 / p.half_life)
        start = max(0, now - int(10 * p.half_life))
        window = self.history[start:]
        weights = [decay ** (now - 1 - (start + i)) for i in range(len(window))]
        theta = self.theta
        players = len(theta)
        prior = self.prior_precision
        for _ in range(p.iterations):
            grad = [-prior * t for t in theta]
            hess = [prior] * players
            for (ids, stages), w in zip(window, weights, strict=True):
                strengths = [sum(theta[k] for k in side) for side in ids]
                g, h = _gradients(strengths, stages)
                for side, gi, hi in zip(ids, g, h, strict=True):
                    gi *= w
                    hi *= w
                    for k in side:
                        grad[k] += gi
                        hess[k] += hi
            for k in range(players):
                theta[k] += grad[k] / hess[k]
            self.precision = hess
