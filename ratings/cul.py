"""The overall cul rating of a player (spec RULES.md 8), in plain Python.

Spec 8: a match's rating is x = S·(D − G) / (K·T), R = x + 0.5 (literal) or 0.5 + 0.5·x
(normalised), where S is the player's points total, D the banks he dropped, G the banks he
gained, K the parties played and T his required total. The *overall* rating "uses the same
formula on the sums of S, D, G, K and T over all his cul matches (a ratio of sums, not a mean
of ratings)". The formula itself is the rules engine's ``cul_rating``, not a second copy.

A finished match's ``result`` holds only the rounded ``rating_pct``; the figures live in the
match's ``state`` (the engine state after its last hand), so that is what is read here.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from scorekeeper.rules.cul import cul_rating, round_rating_pct

__all__ = ["CulFigures", "figures_from_state", "overall_cul_rating", "overall_cul_rating_pct"]


@dataclass(frozen=True, slots=True)
class CulFigures:
    """One player's spec 8 figures over one cul match (or a sum of matches)."""

    points_total: int  # S
    dropped: int  # D
    gained: int  # G
    parties: int  # K
    required_total: int  # T

    def __add__(self, other: CulFigures) -> CulFigures:
        return CulFigures(
            self.points_total + other.points_total,
            self.dropped + other.dropped,
            self.gained + other.gained,
            self.parties + other.parties,
            self.required_total + other.required_total,
        )


ZERO = CulFigures(0, 0, 0, 0, 0)


def figures_from_state(state: Mapping[str, Any], seat: int) -> CulFigures:
    """The figures of the player at ``seat`` from a cul match's stored ``state`` dict.

    Raises ValueError when the state lacks a key or the seat is out of range.
    """
    if not isinstance(state, Mapping):
        raise ValueError(f"a cul state must be an object, not {type(state).__name__}")
    try:
        parties = state["parties"]
        per_seat = [state[k] for k in ("points_total", "dropped", "gained", "required_total")]
    except KeyError as missing:
        raise ValueError(f"a cul state needs {missing.args[0]!r}") from None
    if (
        isinstance(seat, bool)
        or not isinstance(seat, int)
        or not all(isinstance(v, list) and 0 <= seat < len(v) for v in per_seat)
    ):
        raise ValueError(f"seat {seat!r} is not in this cul state")
    s, d, g, t = (v[seat] for v in per_seat)
    return CulFigures(s, d, g, parties, t)


def overall_cul_rating(per_match_figures: Iterable[CulFigures], scale: str = "literal") -> float | None:
    """R over all the player's matches: the spec 8 formula on the sums (fraction of 1).

    ``None`` when he played no party (K = 0) or T = 0, shown "—". Unbounded, like spec 8's.
    """
    total = ZERO
    for figures in per_match_figures:
        total = total + figures
    return cul_rating(
        total.points_total, total.dropped, total.gained, total.parties, total.required_total, scale
    )


def overall_cul_rating_pct(per_match_figures: Iterable[CulFigures], scale: str = "literal") -> float | None:
    """The overall rating as spec 8 shows a match's: 100·R rounded to one decimal, or None."""
    r = overall_cul_rating(per_match_figures, scale)
    return None if r is None else round_rating_pct(100 * r)
