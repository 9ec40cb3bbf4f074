"""A periodic batch refit of a dynamic Plackett–Luce model over a pool's history (plain Python).

The back-test's stronger model (issue 11): skills drift, so each player has one strength θ
per epoch of the pool's history, linked to the one before by a random walk; every ``every``
matches all of them are refitted by penalised maximum likelihood over the whole history
(the Laplace approximation of a "skill through time" model), and between refits each match
moves its players' current strengths by one Newton step. A side's strength is the sum of its
players' θ; its chance of the first place is the softmax of the sides' strengths. Ties are
Breslow's.

Everything is a deterministic function of the ordered match history: the same matches in
the same order give the same floats, whether fed at once or one by one. But a refit is a
pass over all of history, ``iterations`` times: too costly for every match of a full
recompute, which is why the displayed ratings are the online ``Rater``'s (docs/ratings.md).
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

__all__ = ["DynamicRefit", "DynamicRefitModel"]

#: A match's sides as (player index, slot in his chain of strengths) pairs.
Slots = tuple[tuple[tuple[int, int], ...], ...]


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


class _Strengths:
    """What both refits predict with: a side's strength is its players' summed."""

    def strength(self, player: Hashable) -> float:
        raise NotImplementedError

    def win_probabilities(self, sides: Sequence[Sequence[Hashable]]) -> list[float]:
        """Each side's chance of the first place: the softmax of the sides' strengths."""
        strengths = [sum(self.strength(p) for p in side) for side in sides]
        top = max(strengths)
        exps = [math.exp(s - top) for s in strengths]
        total = sum(exps)
        return [e / total for e in exps]


@dataclass(frozen=True)
class DynamicRefit:
    """Parameters of the dynamic batch refit: skills that drift as a random walk.

    History is cut into epochs of ``epoch`` matches; a player has one strength per epoch he
    played in, his first one with the prior N(0, prior_sd²), each next one differing from the
    one before by N(0, drift² · epochs apart). Every ``every`` matches, all strengths are
    refitted (``iterations`` Newton steps, each player's chain solved exactly as the
    tridiagonal system it is); between refits, each match moves its players' current
    strengths by one Newton step. A side's chance of the first place is the softmax of its
    players' current strengths summed.
    """

    every: int = 500
    epoch: int = 1000
    prior_sd: float = 1.5
    drift: float = 0.35
    iterations: int = 3
    name: str = "dynamic-refit"

    def model(self) -> DynamicRefitModel:
        return DynamicRefitModel(self)


class DynamicRefitModel(_Strengths):
    """One pool's dynamic refit state: per player, a chain of strengths, one per epoch."""

    def __init__(self, params: DynamicRefit):
        self.params = params
        self.index: dict[Hashable, int] = {}
        self.epochs: list[list[int]] = []  # per player, the epochs he played in
        self.theta: list[list[float]] = []  # per player, his strength in each of them
        self.precision: list[float] = []  # per player, of his current strength
        #: per match: its sides as (player, slot) pairs, and its stages
        self.history: list[tuple[Slots, list[list[int]]]] = []
        self.prior_precision = 1 / (params.prior_sd * params.prior_sd)
        self.drift2 = params.drift * params.drift

    def _slots(self, sides: Sequence[Sequence[Hashable]], epoch: int) -> Slots:
        out = []
        for side in sides:
            row = []
            for player in side:
                k = self.index.get(player)
                if k is None:
                    k = self.index[player] = len(self.theta)
                    self.epochs.append([epoch])
                    self.theta.append([0.0])
                    self.precision.append(self.prior_precision)
                elif self.epochs[k][-1] != epoch:
                    gap = epoch - self.epochs[k][-1]
                    self.epochs[k].append(epoch)
                    self.theta[k].append(self.theta[k][-1])
                    self.precision[k] = 1 / (1 / self.precision[k] + self.drift2 * gap)
                row.append((k, len(self.theta[k]) - 1))
            out.append(tuple(row))
        return tuple(out)

    def strength(self, player: Hashable) -> float:
        k = self.index.get(player)
        return 0.0 if k is None else self.theta[k][-1]

    def update(self, sides: Sequence[Sequence[Hashable]], places: Sequence[int]) -> None:
        epoch = len(self.history) // self.params.epoch
        slots = self._slots(sides, epoch)
        stages = _stages(places)
        self.history.append((slots, stages))
        theta, precision = self.theta, self.precision
        strengths = [sum(theta[k][j] for k, j in side) for side in slots]
        grad, hess = _gradients(strengths, stages)
        for side, g, h in zip(slots, grad, hess, strict=True):
            for k, j in side:
                precision[k] += h
                theta[k][j] += g / precision[k]
        if len(self.history) % self.params.every == 0:
            self.refit()

    def refit(self) -> None:
        """Newton steps on the whole history: each player's chain is one tridiagonal solve."""
        theta, epochs = self.theta, self.epochs
        prior, drift2 = self.prior_precision, self.drift2
        for _ in range(self.params.iterations):
            grad = [[0.0] * len(chain) for chain in theta]
            hess = [[0.0] * len(chain) for chain in theta]
            for slots, stages in self.history:
                strengths = [sum(theta[k][j] for k, j in side) for side in slots]
                g, h = _gradients(strengths, stages)
                for side, gi, hi in zip(slots, g, h, strict=True):
                    for k, j in side:
                        grad[k][j] += gi
                        hess[k][j] += hi
            for k, chain in enumerate(theta):
                step, last_precision = _chain_step(chain, epochs[k], grad[k], hess[k], prior, drift2)
                for j, d in enumerate(step):
                    chain[j] += d
                self.precision[k] = last_precision


def _chain_step(
    theta: list[float], epochs: list[int], grad: list[float], hess: list[float], prior: float, drift2: float
) -> tuple[list[float], float]:
    """One Newton step for one player's chain of strengths (Thomas algorithm).

    The log-posterior's gradient and negative Hessian add the random-walk links to the
    likelihood's; returns the step and the precision of the last strength (diagonal).
    """
    n = len(theta)
    g = list(grad)
    diag = [h + 1e-9 for h in hess]
    off = [0.0] * n  # off[j]: −H[j−1][j]
    g[0] -= prior * theta[0]
    diag[0] += prior
    for j in range(1, n):
        link = 1 / (drift2 * (epochs[j] - epochs[j - 1]))
        d = theta[j] - theta[j - 1]
        g[j] -= link * d
        g[j - 1] += link * d
        diag[j] += link
        diag[j - 1] += link
        off[j] = link
    # Solve (tridiagonal, diag on the diagonal, −off beside it) · step = g.
    c = [0.0] * n
    e = [0.0] * n
    c[0] = diag[0]
    e[0] = g[0]
    for j in range(1, n):
        w = -off[j] / c[j - 1]
        c[j] = diag[j] + w * off[j]
        e[j] = g[j] - w * e[j - 1]
    step = [0.0] * n
    step[-1] = e[-1] / c[-1]
    for j in range(n - 2, -1, -1):
        step[j] = (e[j] + off[j + 1] * step[j + 1]) / c[j]
    return step, c[-1]
