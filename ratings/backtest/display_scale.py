"""The displayed rating's study: how well ``mu − z·sigma`` ranks the players of a synthetic
league by their true skill (``display_study``), per z and per minimum of matches to be
listed, and its table (``format_display_study``)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

from ..engine import Rater
from .matches import BacktestMatch
from .predictors import RaterPredictor


@dataclass(frozen=True)
class DisplayRow:
    z: float
    min_matches: int
    listed: int
    #: Spearman's correlation of the displayed rating with the true skill, listed players.
    spearman: float
    #: The mean true skill of the ten listed players the display ranks highest.
    top10_true_skill: float


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    for r, i in enumerate(order):
        ranks[i] = float(r)
    return ranks


def _spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    rx, ry = _ranks(xs), _ranks(ys)
    n = len(xs)
    mean = (n - 1) / 2
    cov = sum((a - mean) * (b - mean) for a, b in zip(rx, ry, strict=True))
    var = sum((a - mean) ** 2 for a in rx)
    return cov / var if var else math.nan


def display_study(
    matches: Sequence[BacktestMatch],
    rater: Rater,
    zs: Sequence[float] = (0.0, 1.0, 2.0, 3.0),
    min_matches: Sequence[int] = (1, 5, 10, 20),
) -> list[DisplayRow]:
    """How well ``mu − z·sigma`` ranks players by their true skill at the end of history.

    Synthetic matches only (they carry the truth); a player's true skill is taken from his
    last match alone at a side. For each z and each minimum number of matches to be listed:
    the rank correlation over the listed players, and the true skill of the leaderboard's
    top ten, which is what a conservative display is for (a newcomer's lucky streak should
    not top it).
    """
    predictor = RaterPredictor(rater)
    predictor.forecast(matches)
    played: dict[Hashable, int] = {}
    truth: dict[Hashable, float] = {}
    for m in matches:
        for s, side in enumerate(m.sides):
            for p in side:
                played[p] = played.get(p, 0) + 1
                if len(side) == 1 and m.truth is not None:
                    truth[p] = m.truth[s]
    ratings = {p: r for pool in predictor.pools.values() for p, r in pool.items()}
    rows = []
    for z in zs:
        for floor in min_matches:
            listed = [p for p in truth if played[p] >= floor]
            shown = [ratings[p].mu - z * ratings[p].sigma for p in listed]
            true = [truth[p] for p in listed]
            top = sorted(range(len(listed)), key=lambda i: -shown[i])[:10]
            rows.append(
                DisplayRow(
                    z,
                    floor,
                    len(listed),
                    _spearman(shown, true),
                    sum(true[i] for i in top) / max(1, len(top)),
                )
            )
    return rows


def format_display_study(rows: Sequence[DisplayRow]) -> str:
    lines = [
        "| z | min matches | listed | Spearman with true skill | top-10 true skill |",
        "|---|-------------|--------|--------------------------|-------------------|",
    ]
    for r in rows:
        lines.append(
            f"| {r.z:g} | {r.min_matches:11} | {r.listed:6} | {r.spearman:24.3f} | "
            f"{r.top10_true_skill:17.3f} |"
        )
    return "\n".join(lines)
