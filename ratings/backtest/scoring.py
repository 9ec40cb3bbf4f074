"""The back-test's run and its metrics: ``run`` has every candidate predict every match
before it learns the outcome, in play order, and scores the predictions:

- winner accuracy: the side given the highest probability finished first (shared firsts
  count; a tie for the highest prediction counts as the fraction of it that is right);
- log-loss: −Σ y·log p over the sides, y the observed outcome (1 for the winner, 1/t to
  each of t sides that share the first place);
- Brier: Σ (p − y)² over the sides (the multi-class Brier score), averaged over matches;
- calibration: every side's prediction binned, per table size (number of sides): the mean
  prediction beside the observed frequency of a first place.

``format_report`` writes the tables."""

from __future__ import annotations

import bisect
import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from .matches import BacktestMatch, play_order
from .predictors import Candidate

#: Calibration bins: upper edges of the predicted probability.
BIN_EDGES = (0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)


@dataclass
class Calibration:
    count: int = 0
    predicted: float = 0.0
    observed: float = 0.0


@dataclass
class Score:
    name: str
    matches: int = 0
    #: The candidate read the matches' points (marked "*" in the report).
    uses_scores: bool = False
    correct: float = 0.0
    log_loss: float = 0.0
    brier: float = 0.0
    #: (table size, bin index) → sums
    calibration: dict[tuple[int, int], Calibration] = field(default_factory=dict)
    #: Two-sided matches with a predicted draw: how many, Σ predicted draw, draws seen.
    draw_matches: int = 0
    draw_predicted: float = 0.0
    draw_observed: int = 0

    def add_draw(self, predicted: float | None, places: Sequence[int]) -> None:
        if predicted is None or len(places) != 2:
            return
        self.draw_matches += 1
        self.draw_predicted += predicted
        self.draw_observed += places[0] == places[1]

    @property
    def draw_rates(self) -> tuple[float, float] | None:
        """(mean predicted, observed) draw rate of the two-sided matches, if it predicts draws."""
        if not self.draw_matches:
            return None
        return self.draw_predicted / self.draw_matches, self.draw_observed / self.draw_matches

    def add(self, probabilities: Sequence[float], y: Sequence[float]) -> None:
        self.matches += 1
        top = max(probabilities)
        picks = [i for i, p in enumerate(probabilities) if p == top]
        self.correct += sum(1 for i in picks if y[i] > 0) / len(picks)
        self.log_loss -= sum(t * math.log(max(p, 1e-15)) for p, t in zip(probabilities, y, strict=True) if t)
        self.brier += sum((p - t) ** 2 for p, t in zip(probabilities, y, strict=True))
        n = len(probabilities)
        for p, t in zip(probabilities, y, strict=True):
            b = min(bisect.bisect_left(BIN_EDGES, p), len(BIN_EDGES) - 1)
            cell = self.calibration.get((n, b))
            if cell is None:
                cell = self.calibration[(n, b)] = Calibration()
            cell.count += 1
            cell.predicted += p
            cell.observed += t

    @property
    def accuracy(self) -> float:
        return self.correct / self.matches if self.matches else math.nan

    @property
    def mean_log_loss(self) -> float:
        return self.log_loss / self.matches if self.matches else math.nan

    @property
    def mean_brier(self) -> float:
        return self.brier / self.matches if self.matches else math.nan


@dataclass
class Report:
    matches: int
    scores: list[Score]

    def score(self, name: str) -> Score:
        for s in self.scores:
            if s.name == name:
                return s
        raise KeyError(name)

    def gap_closed(self, name: str, baseline: str = "openskill-default", oracle: str = "oracle") -> float:
        """The fraction of the Brier gap between ``baseline`` and ``oracle`` that ``name`` closes."""
        base, best = self.score(baseline).mean_brier, self.score(oracle).mean_brier
        return (base - self.score(name).mean_brier) / (base - best)


def run(matches: Iterable[BacktestMatch], candidates: Sequence[Candidate], score_from: int = 0) -> Report:
    """Each candidate predicts every match before it updates on it, in play order
    (``play_order``); the matches from ``score_from`` on (in that order) are scored."""
    given = list(matches)
    ordered = [given[i] for i in play_order(given)]
    scored = ordered[score_from:]
    scores = []
    for candidate in candidates:
        predictor = candidate.make()
        score = Score(candidate.name, uses_scores=candidate.uses_scores)
        forecast = _forecast(predictor, ordered)[score_from:]
        for match, (probabilities, draw) in zip(scored, forecast, strict=True):
            score.add(probabilities, match.outcome())
            score.add_draw(draw, match.places)
        scores.append(score)
    return Report(len(scored), scores)


def _forecast(predictor: Any, matches: Sequence[BacktestMatch]) -> list[tuple[list[float], float | None]]:
    """A predictor's pre-match (win probabilities, draw probability) of every match, in order."""
    if hasattr(predictor, "forecast"):
        return predictor.forecast(matches)
    out = []
    draw = getattr(predictor, "draw", None)
    for match in matches:
        out.append((predictor.predict(match), draw(match) if draw else None))
        predictor.update(match)
    return out


def format_report(report: Report) -> str:
    """The summary table (one row per candidate), then each candidate's calibration table."""
    names = [s.name + (" *" if s.uses_scores else "") for s in report.scores]
    width = max([len("candidate"), *map(len, names)])
    has_gap = "oracle" in names and "openskill-default" in names
    lines = [f"{report.matches} matches", ""]
    head = f"| {'candidate':<{width}} | winner accuracy | log-loss | Brier  | draws predicted / seen |"
    rule = f"|{'-' * (width + 2)}|-----------------|----------|--------|------------------------|"
    if has_gap:
        head += " Brier gap closed |"
        rule += "------------------|"
    lines += [head, rule]
    for s, name in zip(report.scores, names, strict=True):
        rates = s.draw_rates
        draws = f"{rates[0]:.2%} / {rates[1]:.2%}" if rates else "—"
        row = (f"| {name:<{width}} | {s.accuracy:15.4f} | {s.mean_log_loss:8.4f} | {s.mean_brier:.4f} |"
               f" {draws:>22} |")  # fmt: skip
        if has_gap:
            row += f" {report.gap_closed(s.name):16.1%} |"
        lines.append(row)
    if any(s.uses_scores for s in report.scores):
        lines += ["", "* reads the matches' points (scores); the others the places alone"]
    for s in report.scores:
        lines += ["", f"calibration of {s.name}: mean predicted / observed first places (count), per sides"]
        sizes = sorted({n for n, _ in s.calibration})
        lines.append("| bin     | " + " | ".join(f"{n} sides{'':<15}" for n in sizes) + " |")
        lines.append("|---------|" + "|".join("-" * 25 for _ in sizes) + "|")
        for b, edge in enumerate(BIN_EDGES):
            cells = []
            for n in sizes:
                c = s.calibration.get((n, b))
                cells.append(
                    f"{c.predicted / c.count:.3f} / {c.observed / c.count:.3f} ({c.count:>6})"
                    if c
                    else " " * 23
                )
            lines.append(f"| ≤ {edge:.1f}   | " + " | ".join(f"{x:<23}" for x in cells) + " |")
    return "\n".join(lines)
