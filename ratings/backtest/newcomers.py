"""What a newcomer feels, on the generator (where the true skills are known): how many rated
matches a player needs before his rating stays within one deviation of his true skill, and
how many before he is as sure as the boards' established players are today.

- **True skill in the rating's units.** The generator's skill s (units of one performance
  noise) is the mu 25 + k·s, k read off the rater's own forecast as the display's scale is
  (``ratings/display.py``): between two players it knows well, the model's logistic of
  Δmu / c and the generator's normal Φ(Δs / √2) have the same slope at even odds,
  k = 4·c·φ(0)/√2. Both models compared here have the same c, so the same k.
- **Within one deviation**, on two yardsticks. *His own ±*: |mu − (25 + k·s)| ≤ sigma after
  the match, the ± the pages show him under that model. A model's own ± is gameable (a model
  whose sigma is inflated "stays within" sooner without knowing him any better) and the models
  are not judged on the same band (the margin-aware sigma is narrower), so beside it the
  **common yardstick**: |mu − (25 + k·s)| / k ≤ sigma_d / k_d, where sigma_d is the sigma the
  first model (the results-only default) gives *that player after the same match* (his n-th)
  and k_d its k: every model is held to the default's band, in units of the skills' spread.
  The band is paired per player, not the default's median sigma at n over the players, because
  the models replay the same matches in the same order, so a player's n-th match is the same
  match under each and the pairing costs nothing; a median would judge a player who plays in
  bigger tables (whose sigma shrinks faster) or comes back from a break (whose sigma grew)
  against another player's band. For the default itself the two yardsticks are the same.
  A player's skill is known for his matches on a side of his own (a team's strength is its
  players' sum); his matches in a team count toward his number but are not checked.
- **Stays**: the first of his matches from which the next ``run`` checked ones are all within
  (on either yardstick).
- **Established**: his sigma at or below ``established_sigma``: the median sigma the
  results-only default gives a player at his 5th match, the boards' established count
  (``RATINGS_LEADERBOARD_MIN_MATCHES``), so the default is established at about 5 by design.

Beside them, what the user feels on average: the mean error |mu − (25 + k·s)| / k (in units
of the skills' spread) after his 5th, 10th and 20th match, the learning curve, and the matches
a model needs to be as accurate as the first (the results-only default) is after 10.

Every player who reaches ``min_matches`` matches is counted; one who never meets a criterion
in his matches counts as needing all of them and one more (the medians are then upper
bounds; how many did is reported)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np

from ..engine import MatchOutcome, Rater, replay_arrays
from .matches import BacktestMatch, play_order

#: The boards' established count (``RATINGS_LEADERBOARD_MIN_MATCHES``'s default).
BOARD_MATCHES = 5


@dataclass(frozen=True)
class NewcomerRow:
    name: str
    players: int
    #: Median matches to stay within his own ± (this model's sigma); how many players got there.
    within_own_median: float
    within_own_reached: int
    #: The same within the default's ± for that player at that match (the common yardstick).
    within_common_median: float
    within_common_reached: int
    #: Median matches to be established; how many players got there.
    established_median: float
    established_reached: int
    #: Mean |mu − truth| / sigma at the player's 5th, 10th and 20th checked match.
    error_ratio: tuple[float, float, float]
    #: Mean |mu − truth| in the generator's skill (its spread is 1) after his 5th, 10th, 20th match.
    error: tuple[float, float, float]
    #: Per match count 1 … ``min_matches``, the mean |mu − truth| (skill units), the learning curve.
    curve: tuple[float, ...]

    def matches_to(self, error: float) -> int | None:
        """The first match count at which the mean error is at most ``error`` (None: never)."""
        return next((n for n, e in enumerate(self.curve, 1) if e <= error), None)


def skill_to_mu(rater: Rater) -> float:
    """k: mu per unit of the generator's skill (module docstring)."""
    c = rater._scale([0.0, 0.0])
    return 4 * c * (1 / math.sqrt(2 * math.pi)) / math.sqrt(2)


def _trajectories(
    rater: Rater, matches: Sequence[BacktestMatch], use_scores: bool
) -> dict[Hashable, list[tuple[float, float, float | None]]]:
    """Per player, in his order: (mu, sigma after the match, his true skill or None)."""
    outcomes = [
        MatchOutcome(i, m.sides, m.places, m.day, m.scores if use_scores else None)
        for i, m in enumerate(matches)
    ]
    done = replay_arrays(rater, outcomes, {}, {})
    out: dict[Hashable, list[tuple[float, float, float | None]]] = {}
    for index, player, side, mu, sigma in zip(
        done.match_index.tolist(),
        done.players,
        done.side.tolist(),
        done.mu_after.tolist(),
        done.sigma_after.tolist(),
        strict=True,
    ):
        match = matches[index]
        truth = match.truth[side] if match.truth is not None and len(match.sides[side]) == 1 else None
        out.setdefault(player, []).append((mu, sigma, truth))
    return out


def _stays(flags: list[bool], counts: list[int], run: int) -> int | None:
    """The match count (``counts``: each flag's) from which ``run`` checked flags in a row
    are true (None: never)."""
    first = _first_run(flags, run)
    return None if first is None else counts[first - 1]


def _first_run(flags: list[bool], run: int) -> int | None:
    """The 1-based match from which ``run`` checked flags in a row are true (None: never)."""
    streak = 0
    for i, flag in enumerate(flags):
        streak = streak + 1 if flag else 0
        if streak == run:
            return i - run + 2
    return None


def newcomer_study(
    matches: Sequence[BacktestMatch],
    models: Sequence[tuple[str, Rater, bool]],
    *,
    min_matches: int = 40,
    run: int = 10,
) -> list[NewcomerRow]:
    """One row per (name, rater, use the scores) model, the first being the results-only
    default whose sigma at the boards' 5th match sets ``established_sigma``."""
    ordered = [matches[i] for i in play_order(matches)]
    if any(m.truth is None for m in ordered):
        raise ValueError("the newcomer study needs synthetic matches (they carry the true skills)")
    rows = []
    established_sigma = None
    #: The first model's sigma per player after each of his matches (σ_d), and its k (k_d).
    band: dict[Hashable, list[float]] = {}
    k_band = 1.0
    for name, rater, use_scores in models:
        k = skill_to_mu(rater)
        paths = {player: p for player, p in _trajectories(rater, ordered, use_scores).items()
                 if len(p) >= min_matches}  # fmt: skip
        if established_sigma is None:
            established_sigma = float(np.median([p[BOARD_MATCHES - 1][1] for p in paths.values()]))
            band = {player: [sigma for _, sigma, _ in p] for player, p in paths.items()}
            k_band = k
        # |mu − truth| / k ≤ σ_d / k_d, as |mu − truth| ≤ σ_d·(k / k_d): for the first model
        # (k / k_d is exactly 1) the very comparison of its own ±, so the same floats.
        to_mu = k / k_band
        within_own, within_common, established, ratios = [], [], [], []
        errors: list[list[float]] = [[] for _ in range(min_matches)]
        reached_own = reached_common = reached_established = 0
        for player, path in paths.items():
            checked = [(abs(mu - (rater.mu + k * s)), sigma, n) for n, (mu, sigma, s) in enumerate(path, 1)
                       if s is not None]  # fmt: skip
            counts = [n for _, _, n in checked]
            own = _stays([error <= sigma for error, sigma, _ in checked], counts, run)
            common = _stays([error <= band[player][n - 1] * to_mu for error, _, n in checked], counts, run)
            within_own.append(len(path) + 1 if own is None else own)
            reached_own += own is not None
            within_common.append(len(path) + 1 if common is None else common)
            reached_common += common is not None
            sure = next((n for n, (_, sigma, _) in enumerate(path, 1) if sigma <= established_sigma), None)
            established.append(len(path) + 1 if sure is None else sure)
            reached_established += sure is not None
            ratios.append([error / sigma for error, sigma, _ in checked[:20]])
            for error, _, n in checked:
                if n <= min_matches:
                    errors[n - 1].append(error / k)
        error_ratio = tuple(float(np.mean([r[at - 1] for r in ratios if len(r) >= at])) for at in (5, 10, 20))
        curve = tuple(float(np.mean(e)) if e else math.nan for e in errors)
        rows.append(NewcomerRow(name, len(paths), float(np.median(within_own)), reached_own,
                                float(np.median(within_common)), reached_common,
                                float(np.median(established)), reached_established,
                                error_ratio, (curve[4], curve[9], curve[19]),  # type: ignore[arg-type]
                                curve))  # fmt: skip
    return rows


def format_newcomer_study(rows: Sequence[NewcomerRow]) -> str:
    """The table: per model, the median matches to stay within one deviation on his own ±
    and on the common yardstick (the first row's ±; how many players got there, and how many
    fewer matches than the first row), to be established, the error in his own deviations and
    in skill at 5, 10 and 20 matches, and the matches it needs to be as accurate as the first
    row is at 10."""
    width = max(len("model"), *(len(r.name) for r in rows))
    lines = [
        f"| {'model':<{width}} | players | within his own ± (reached) | within the first's ± (reached) "
        "| established (reached) | error / own deviation at 5, 10, 20 | error (skill) at 5, 10, 20 "
        "| matches to the first's error at 10 |",
        f"|{'-' * (width + 2)}|---------|----------------------------|--------------------------------"
        "|-----------------------|------------------------------------|----------------------------"
        "|------------------------------------|",
    ]
    first = rows[0]
    target = first.error[1]

    def fewer(median: float, base: float) -> str:
        return "" if median == base else f", {(median - base) / base:+.0%}".replace("-", "−")

    for r in rows:
        own = f"{r.within_own_median:.0f} ({r.within_own_reached})"
        own += fewer(r.within_own_median, first.within_own_median)
        common = f"{r.within_common_median:.0f} ({r.within_common_reached})"
        common += fewer(r.within_common_median, first.within_common_median)
        established = f"{r.established_median:.0f} ({r.established_reached})"
        ratio = ", ".join(f"{x:.2f}" for x in r.error_ratio)
        error = ", ".join(f"{x:.3f}" for x in r.error)
        reach = r.matches_to(target)
        lines.append(f"| {r.name:<{width}} | {r.players:7d} | {own:>26} | {common:>30} | {established:>21} "
                     f"| {ratio:>34} | {error:>26} | {'—' if reach is None else reach:>34} |")  # fmt: skip
    return "\n".join(lines)
