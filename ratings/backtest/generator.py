"""The synthetic league: ``synthetic`` makes matches with hidden true skills that drift,
2–6 sides, some 2v2 and uneven activity (``Generator``'s parameters), and carries for each
match the true probabilities, which is what the ``oracle`` candidate predicts: the floor no
rating model can beat. (In memory; ``synthetic_db`` writes finished matches into the tables.)"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass

from ..engine import first_place_probabilities
from .matches import BacktestMatch


@dataclass(frozen=True)
class Generator:
    """Parameters of ``synthetic``; every figure is in units of one player's performance noise.

    A league of ``players`` over ``days`` days, ``matches`` of them played at random moments
    (each with its ``day``). True skills start normal (deviation ``spread``) and drift as an
    Ornstein–Uhlenbeck process of time constant ``drift_days``, so they wander but stay
    spread, and a player back from a long break may have changed. A player's activity is
    lognormal (``activity_sigma``); a quarter of the players are there from the start, the
    others join at a uniform day in the first ``join_fraction`` of the history; a share
    ``break_share`` of them take one break of ``break_days`` (uniform) at a random day.
    Each match has 2–6 sides (``sizes`` weights); a four-player table is 2 v 2 with
    probability ``teams_share``. A player's performance is his skill plus a standard normal,
    a team's the sum of its players'; two sides within ``draw_margin`` draw, and in a table of
    more, two performances within ``tie_margin`` share a place.

    Each side's points in the match (``BacktestMatch.scores``) come from the same
    performances the places come from, as a sheet's totals decide its places: a side scores
    ``richness · (points_base + points_per_performance · performance)``, rounded to a whole
    point, where ``richness``, one per match, is lognormal of deviation ``richness_sigma`` (some
    parties deal rich hands and every total is bigger, for the same play), and sides that share
    a place share their points (the mean of theirs). So a bigger margin means a bigger gap in
    performance, but only up to the match's richness. ``points_per_performance`` None: no
    points. The points are drawn from a generator of their own, so the places, the days and
    the truth are the same floats with or without them.
    """

    players: int = 400
    matches: int = 12_000
    days: float = 1_100.0
    spread: float = 1.0
    drift_days: float = 1_500.0
    activity_sigma: float = 1.0
    join_fraction: float = 0.6
    break_share: float = 0.3
    break_days: tuple[float, float] = (60.0, 400.0)
    sizes: tuple[float, ...] = (0.35, 0.2, 0.25, 0.1, 0.1)  # 2, 3, 4, 5, 6 sides or players
    teams_share: float = 0.25
    draw_margin: float = 0.08
    tie_margin: float = 0.02
    game: str = "synthetic"
    points_per_performance: float | None = 30.0
    points_base: float = 100.0
    richness_sigma: float = 0.3


def synthetic(seed: int, generator: Generator | None = None, with_oracle: bool = True) -> list[BacktestMatch]:
    """Matches with hidden drifting skills, in play order, each with its day and the true
    first-place probabilities (and, for two sides, the true draw probability).

    ``with_oracle=False`` leaves them out (their quadrature is most of the cost): for the
    speed benchmark, which needs only the matches.
    """
    g = generator or Generator()
    rng = random.Random(seed)
    points_rng = random.Random(f"points-{seed}")
    skill = [rng.gauss(0, g.spread) for _ in range(g.players)]
    # A quarter of the players are there from the start, the others join later.
    join = [0.0 if rng.random() < 0.25 else rng.uniform(0, g.join_fraction * g.days)
            for _ in range(g.players)]  # fmt: skip
    seen_at = list(join)
    away = []
    for p in range(g.players):
        if rng.random() < g.break_share:
            start = rng.uniform(join[p], g.days)
            away.append((start, start + rng.uniform(*g.break_days)))
        else:
            away.append((math.inf, math.inf))
    weights = [rng.lognormvariate(0, g.activity_sigma) for _ in range(g.players)]
    cum = list(itertools.accumulate(weights))
    players = range(g.players)
    days = sorted(rng.uniform(0, g.days) for _ in range(g.matches))
    out = []
    for day in days:
        size = rng.choices((2, 3, 4, 5, 6), weights=g.sizes)[0]
        present = [p for p in players if join[p] <= day and not away[p][0] <= day < away[p][1]]
        if len(present) < size:
            continue
        chosen: list[int] = []
        while len(chosen) < size:
            p = rng.choices(players, cum_weights=cum)[0]
            if p not in chosen and join[p] <= day and not away[p][0] <= day < away[p][1]:
                chosen.append(p)
        for p in chosen:  # the drift since he was last seen, exactly (OU process)
            decay = math.exp(-(day - seen_at[p]) / g.drift_days)
            skill[p] = skill[p] * decay + rng.gauss(0, g.spread * math.sqrt(1 - decay * decay))
            seen_at[p] = day
        sides: tuple[tuple[int, ...], ...]
        if size == 4 and rng.random() < g.teams_share:
            sides = ((chosen[0], chosen[1]), (chosen[2], chosen[3]))
        else:
            sides = tuple((p,) for p in chosen)
        means = [sum(skill[p] for p in side) for side in sides]
        sds = [math.sqrt(len(side)) for side in sides]
        perf = [m + rng.gauss(0, s) for m, s in zip(means, sds, strict=True)]
        oracle: tuple[float, ...] | None
        oracle_draw = None
        if len(sides) == 2:
            gap = abs(perf[0] - perf[1])
            places = [1, 1] if gap < g.draw_margin else [1, 2] if perf[0] > perf[1] else [2, 1]
            oracle, oracle_draw = _two_sides_truth(means, sds, g.draw_margin)
        else:
            order = sorted(range(len(sides)), key=lambda i: -perf[i])
            places = [0] * len(sides)
            for rank, i in enumerate(order):
                prev = order[rank - 1] if rank else None
                if prev is not None and perf[prev] - perf[i] < g.tie_margin:
                    places[i] = places[prev]  # a tie with the one just ahead
                else:
                    places[i] = rank + 1
            oracle = tuple(first_place_probabilities(means, sds)) if with_oracle else None
        scores = None if g.points_per_performance is None else _points(g, points_rng, perf, places)
        out.append(BacktestMatch(g.game, tuple(tuple(f"p{p}" for p in side) for side in sides), tuple(places),
                                 oracle if with_oracle else None, tuple(means), day,
                                 oracle_draw if with_oracle else None, scores,
                                 tuple(perf) if with_oracle else None))  # fmt: skip
    return out


def _points(g: Generator, rng: random.Random, perf: list[float], places: list[int]) -> tuple[float, ...]:
    """Each side's whole points from its performance, the match's richness and the places
    (sides sharing a place share the mean of their points): a better place never scores less."""
    assert g.points_per_performance is not None
    richness = rng.lognormvariate(0, g.richness_sigma)
    raw = [richness * (g.points_base + g.points_per_performance * x) for x in perf]
    shared: dict[int, list[float]] = {}
    for place, value in zip(places, raw, strict=True):
        shared.setdefault(place, []).append(value)
    return tuple(float(round(sum(shared[place]) / len(shared[place]))) for place in places)


def _two_sides_truth(means, sds, margin) -> tuple[tuple[float, float], float]:
    """Two sides' true win probabilities (a draw counted half) and the draw's."""
    diff = means[0] - means[1]
    spread = math.sqrt(sds[0] ** 2 + sds[1] ** 2)

    def cdf(x: float) -> float:
        return 0.5 * (1 + math.erf(x / (spread * math.sqrt(2))))

    win = 1 - cdf(margin - diff)
    draw = cdf(margin - diff) - cdf(-margin - diff)
    first = win + draw / 2
    return (first, 1 - first), draw
