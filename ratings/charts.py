"""A small line chart drawn on the server: the geometry of an inline SVG (template
``ratings/_chart.html``), so a profile's rating history needs no JavaScript and no library.

Plain Python: points in, coordinates and axis ticks out. The x axis is the order of the
points (one step per rated match, evenly spaced: a club plays in bursts, and dates would
squeeze a season into a corner); the y axis gets a few round ticks that cover the values.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import NamedTuple


class Point(NamedTuple):
    """A point of the chart (a named tuple: a long history has hundreds, made three times
    faster than frozen dataclasses)."""

    x: float
    y: float
    value: float
    label: str

    # The SVG coordinates as attribute text (one decimal, never localised): formatted here
    # rather than by a template filter per attribute of every point of a long history.
    @property
    def cx(self) -> str:
        return f"{self.x:.1f}"

    @property
    def cy(self) -> str:
        return f"{self.y:.1f}"


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    #: The plot area: left, top, right, bottom (inside the axis labels).
    left: int
    top: int
    right: int
    bottom: int
    points: list[Point]
    #: (y, text) of each horizontal grid line.
    y_ticks: list[tuple[float, str]] = field(default_factory=list)
    #: (x, text, text-anchor) of the labelled points on the x axis (the first and the last, a
    #: few between): the end labels are anchored inwards so that they are not cut off.
    x_ticks: list[tuple[float, str, str]] = field(default_factory=list)

    @property
    def path(self) -> str:
        """The SVG path of the line ("M x y L x y …")."""
        return " ".join([f"{'M' if i == 0 else 'L'}{p.x:.1f} {p.y:.1f}" for i, p in enumerate(self.points)])

    @property
    def last(self) -> Point | None:
        return self.points[-1] if self.points else None


def nice_step(span: float, count: int = 4) -> float:
    """A round step (1, 2 or 5 times a power of ten) giving about ``count`` intervals."""
    if span <= 0:
        return 1.0
    raw = span / count
    power = 10 ** math.floor(math.log10(raw))
    for factor in (1, 2, 5, 10):
        if raw <= factor * power:
            return factor * power
    return 10 * power  # pragma: no cover - the loop always returns


def _tick_text(value: float, step: float) -> str:
    decimals = max(0, -math.floor(math.log10(step))) if step < 1 else 0
    text = f"{value:.{decimals}f}"
    return text.lstrip("-") if float(text) == 0 else text.replace("-", "−")


def _anchor(i: int, n: int) -> str:
    if n > 1 and i == 0:
        return "start"
    if n > 1 and i == n - 1:
        return "end"
    return "middle"


def line_chart(
    values: Sequence[float],
    labels: Sequence[str] = (),
    *,
    width: int = 340,
    height: int = 150,
    x_labels: int = 3,
) -> Chart:
    """The chart of ``values`` in order; ``labels[i]`` names point i (its date, say)."""
    labels = list(labels) + [""] * (len(values) - len(labels))
    left, top, right, bottom = 38, 10, width - 10, height - 24
    if not values:
        return Chart(width, height, left, top, right, bottom, [])
    low, high = min(values), max(values)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    step = nice_step(high - low)
    y0 = math.floor(low / step) * step
    y1 = math.ceil(high / step) * step

    def y_of(value: float) -> float:
        return bottom - (value - y0) / (y1 - y0) * (bottom - top)

    n = len(values)
    # x_of(i) and y_of(v) written out in the loop (the same arithmetic): a point per match.
    if n > 1:
        points = [
            Point(
                left + (right - left) * (i / (n - 1)),
                bottom - (v - y0) / (y1 - y0) * (bottom - top),
                v,
                label,
            )
            for i, (v, label) in enumerate(zip(values, labels, strict=False))
        ]
    else:
        points = [Point(left + (right - left) * 0.5, y_of(values[0]), values[0], labels[0])]
    y_ticks = []
    tick = y0
    while tick <= y1 + step / 2:
        y_ticks.append((y_of(tick), _tick_text(tick, step)))
        tick += step
    # The first and last points are labelled, and evenly chosen ones between when there is room.
    wanted = min(n, max(2, x_labels)) if n > 1 else 1
    indexes = sorted({round(k * (n - 1) / (wanted - 1)) for k in range(wanted)}) if wanted > 1 else [0]
    x_ticks: list[tuple[float, str, str]] = []
    for i in indexes:
        # A day already labelled (several matches an evening) is not labelled again.
        if points[i].label and all(points[i].label != text for _x, text, _a in x_ticks):
            x_ticks.append((points[i].x, points[i].label, _anchor(i, n)))
    return Chart(width, height, left, top, right, bottom, points, y_ticks, x_ticks)
