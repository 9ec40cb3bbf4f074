"""The back-test of issue 11, in plain Python: candidates, metrics, a synthetic generator.

Every candidate predicts every match (each side's probability of the first place) *before*
it learns the outcome, then updates. The metrics are on those predictions:

- winner accuracy: the side given the highest probability finished first (shared firsts
  count; a tie for the highest prediction counts as the fraction of it that is right);
- log-loss: −Σ y·log p over the sides, y the observed outcome (1 for the winner, 1/t to
  each of t sides that share the first place);
- Brier: Σ (p − y)² over the sides (the multi-class Brier score), averaged over matches;
- calibration: every side's prediction binned, per table size (number of sides): the mean
  prediction beside the observed frequency of a first place.

``synthetic`` makes matches with hidden true skills that drift, 2–6 sides, some 2v2 and
uneven activity, and carries for each match the true probabilities, which is what the
``oracle`` candidate predicts: the floor no rating model can beat.

This package is research code, apart from what serves requests: ``manage.py
ratings_backtest``, the benchmarks and the tests reach it; the site, the API and the tasks do
not (``POST /predict`` uses ``ratings.engine``'s ``Rater.win_probabilities``). Beside the
back-test: ``forecast`` (the default predictions, the mean of the online ratings' odds and
``refit``'s), ``refit`` (the dynamic batch refit) and ``synthetic_db`` (synthetic finished
matches written straight into the tables, for the database benchmark and the integration
tests; not ``synthetic``, which is the in-memory generator below). openskill, a development
requirement (requirements-dev.txt), is imported only when its candidates run.
"""

from __future__ import annotations

import bisect
import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..engine import Rater, Rating, first_place_probabilities
from .forecast import Forecaster
from .refit import DynamicRefit

__all__ = [
    "BacktestInputError",
    "BacktestMatch",
    "Candidate",
    "Report",
    "candidates",
    "default_predictions",
    "format_report",
    "read_jsonl",
    "run",
    "synthetic",
    "write_jsonl",
]


@dataclass(frozen=True, slots=True)
class BacktestMatch:
    game: str
    sides: tuple[tuple[Hashable, ...], ...]
    places: tuple[int, ...]
    #: Synthetic matches only: each side's true probability of the first place.
    oracle: tuple[float, ...] | None = None
    #: Synthetic matches only: each side's true strength (its players' skills summed).
    truth: tuple[float, ...] | None = None

    def outcome(self) -> list[float]:
        """y: 1 for the winner, 1/t to each of t sides sharing the first place."""
        best = min(self.places)
        winners = self.places.count(best)
        return [1 / winners if p == best else 0.0 for p in self.places]


class BacktestInputError(ValueError):
    """A JSON-lines back-test input that cannot be read; the message names the line."""


def _fail(number: int, message: str) -> BacktestInputError:
    return BacktestInputError(f"line {number}: {message}")


def _player(value: Any) -> bool:
    if isinstance(value, str):
        return value != ""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_match(data: Any, number: int = 1) -> BacktestMatch:
    """One decoded line ``{"game", "sides": [[player, …], …], "places": [1, 2, …]}``."""
    if not isinstance(data, dict):
        raise _fail(number, f"a match must be a JSON object, not {type(data).__name__}")
    for key in ("game", "sides", "places"):
        if key not in data:
            raise _fail(number, f'"{key}" is missing')
    game, sides, places = data["game"], data["sides"], data["places"]
    if not isinstance(game, str) or not game:
        raise _fail(number, '"game" must be a non-empty string')
    if not isinstance(sides, list) or len(sides) < 2:
        raise _fail(number, '"sides" must be a list of at least two sides')
    seen: set[Hashable] = set()
    for i, side in enumerate(sides):
        if not isinstance(side, list) or not side:
            raise _fail(number, f"sides[{i}] must be a non-empty list of players")
        for player in side:
            if not _player(player):
                raise _fail(number, f"sides[{i}]: a player is a non-empty string or an integer, "
                                    f"not {player!r}")
            if player in seen:
                raise _fail(number, f"player {player!r} appears twice")
            seen.add(player)
    if not isinstance(places, list) or len(places) != len(sides):
        raise _fail(number, f'"places" must be a list of {len(sides)} places, one per side')
    for i, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise _fail(number, f"places[{i}] must be an integer ≥ 1, not {place!r}")
    return BacktestMatch(game, tuple(tuple(s) for s in sides), tuple(places))


def read_jsonl(lines: Iterable[str]) -> Iterator[BacktestMatch]:
    """Matches from JSON lines, one a line (blank lines skipped); BacktestInputError names the line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise _fail(number, f"not JSON: {error.msg} (column {error.colno})") from None
        yield parse_match(data, number)


def write_jsonl(matches: Iterable[BacktestMatch]) -> Iterator[str]:
    """The JSON lines ``read_jsonl`` reads (the oracle is not written)."""
    for m in matches:
        yield json.dumps({"game": m.game, "sides": [list(s) for s in m.sides], "places": list(m.places)})


# -- candidates -----------------------------------------------------------------------


class Predictor(Protocol):
    def predict(self, match: BacktestMatch) -> list[float]: ...

    def update(self, match: BacktestMatch) -> None: ...


@dataclass(frozen=True)
class Candidate:
    """A named way to start a fresh predictor (each run starts from nobody known)."""

    name: str
    make: Callable[[], Predictor]


class RaterPredictor:
    """One of our ``Rater``s, one pool per game."""

    def __init__(self, rater: Rater):
        self.rater = rater
        self.prior = rater.prior()
        self.pools: dict[str, dict[Hashable, Rating]] = {}

    def _sides(self, match: BacktestMatch) -> list[list[Rating]]:
        pool = self.pools.setdefault(match.game, {})
        prior = self.prior
        return [[pool.get(p, prior) for p in side] for side in match.sides]

    def predict(self, match: BacktestMatch) -> list[float]:
        return self.rater.win_probabilities(self._sides(match))

    def update(self, match: BacktestMatch) -> None:
        sides = self._sides(match)
        pool = self.pools[match.game]
        after = self.rater.rate(sides, match.places)
        for side, new in zip(match.sides, after, strict=True):
            for player, rating in zip(side, new, strict=True):
                pool[player] = rating


class OpenSkillPredictor:
    """openskill's own model object, its ``rate`` and its ``predict_win`` (or PL first place)."""

    def __init__(self, model_name: str, win: str = "predict_win", **params: Any):
        from openskill import models

        self.model = getattr(models, model_name)(**params)
        self.win = win
        self.pools: dict[str, dict[Hashable, Any]] = {}

    def _sides(self, match: BacktestMatch) -> list[list[Any]]:
        pool = self.pools.setdefault(match.game, {})
        out = []
        for side in match.sides:
            row = []
            for p in side:
                r = pool.get(p)
                if r is None:
                    r = pool[p] = self.model.rating()
                row.append(r)
            out.append(row)
        return out

    def predict(self, match: BacktestMatch) -> list[float]:
        sides = self._sides(match)
        if self.win == "predict_win":
            return list(self.model.predict_win(sides))
        rater = Rater(beta=self.model.beta)
        return rater.win_probabilities([[Rating(r.mu, r.sigma) for r in s] for s in sides])

    def update(self, match: BacktestMatch) -> None:
        sides = self._sides(match)
        pool = self.pools[match.game]
        after = self.model.rate(sides, ranks=list(match.places))
        for side, new in zip(match.sides, after, strict=True):
            for player, rating in zip(side, new, strict=True):
                pool[player] = rating


class EloPredictor:
    """Multiplayer Elo: every pair of sides is one game of K / (n − 1); a side is its mean."""

    def __init__(self, k: float = 32.0, scale: float = 400.0, start: float = 1500.0):
        self.k, self.scale, self.start = k, scale, start
        self.pools: dict[str, dict[Hashable, float]] = {}

    def _strengths(self, match: BacktestMatch) -> list[float]:
        pool = self.pools.setdefault(match.game, {})
        return [sum(pool.get(p, self.start) for p in side) / len(side) for side in match.sides]

    def predict(self, match: BacktestMatch) -> list[float]:
        s = self._strengths(match)
        top = max(s)
        w = [10 ** ((x - top) / self.scale) for x in s]
        total = sum(w)
        return [x / total for x in w]

    def update(self, match: BacktestMatch) -> None:
        s = self._strengths(match)
        n = len(s)
        pool = self.pools[match.game]
        places = match.places
        for i, side in enumerate(match.sides):
            change = 0.0
            for j in range(n):
                if i == j:
                    continue
                expected = 1 / (1 + 10 ** ((s[j] - s[i]) / self.scale))
                actual = 1.0 if places[i] < places[j] else 0.5 if places[i] == places[j] else 0.0
                change += actual - expected
            change *= self.k / (n - 1)
            for p in side:
                pool[p] = pool.get(p, self.start) + change


class PoolModel(Protocol):
    def win_probabilities(self, sides: Sequence[Sequence[Hashable]]) -> list[float]: ...

    def update(self, sides: Sequence[Sequence[Hashable]], places: Sequence[int]) -> None: ...


class PoolPredictor:
    """A model that keeps its own pool state (players by id), one per game pool."""

    def __init__(self, make: Callable[[], PoolModel]):
        self.make = make
        self.pools: dict[str, PoolModel] = {}

    def _pool(self, match: BacktestMatch) -> PoolModel:
        pool = self.pools.get(match.game)
        if pool is None:
            pool = self.pools[match.game] = self.make()
        return pool

    def predict(self, match: BacktestMatch) -> list[float]:
        return self._pool(match).win_probabilities(match.sides)

    def update(self, match: BacktestMatch) -> None:
        self._pool(match).update(match.sides, match.places)


def refit_predictor(params: DynamicRefit) -> PoolPredictor:
    """The dynamic batch refit of ``ratings.backtest.refit``, one pool per game."""
    return PoolPredictor(params.model)


def forecast_predictor(**options: Any) -> PoolPredictor:
    """The default predictions: a ``ratings.backtest.forecast.Forecaster`` per game pool."""
    return PoolPredictor(lambda: Forecaster(**options))


class OraclePredictor:
    """Knows the true skills: predicts the generator's own probabilities."""

    def predict(self, match: BacktestMatch) -> list[float]:
        if match.oracle is None:
            raise ValueError("the oracle needs synthetic matches (they carry the true probabilities)")
        return list(match.oracle)

    def update(self, match: BacktestMatch) -> None:
        pass


# -- running --------------------------------------------------------------------------

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
    correct: float = 0.0
    log_loss: float = 0.0
    brier: float = 0.0
    #: (table size, bin index) → sums
    calibration: dict[tuple[int, int], Calibration] = field(default_factory=dict)

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


def run(matches: Iterable[BacktestMatch], candidates: Sequence[Candidate]) -> Report:
    """Each candidate predicts every match before it updates on it, in the given order."""
    predictors = [(c.make(), Score(c.name)) for c in candidates]
    count = 0
    for match in matches:
        count += 1
        y = match.outcome()
        for predictor, score in predictors:
            score.add(predictor.predict(match), y)
            predictor.update(match)
    return Report(count, [s for _, s in predictors])


def format_report(report: Report) -> str:
    """The summary table (one row per candidate), then each candidate's calibration table."""
    names = [s.name for s in report.scores]
    width = max([len("candidate"), *map(len, names)])
    has_gap = "oracle" in names and "openskill-default" in names
    lines = [f"{report.matches} matches", ""]
    head = f"| {'candidate':<{width}} | winner accuracy | log-loss | Brier  |"
    rule = f"|{'-' * (width + 2)}|-----------------|----------|--------|"
    if has_gap:
        head += " Brier gap closed |"
        rule += "------------------|"
    lines += [head, rule]
    for s in report.scores:
        row = f"| {s.name:<{width}} | {s.accuracy:15.4f} | {s.mean_log_loss:8.4f} | {s.mean_brier:.4f} |"
        if has_gap:
            row += f" {report.gap_closed(s.name):16.1%} |"
        lines.append(row)
    for s in report.scores:
        lines += ["", f"calibration of {s.name}: mean predicted / observed first places (count), per sides"]
        sizes = sorted({n for n, _ in s.calibration})
        lines.append("| bin     | " + " | ".join(f"{n} sides{'':<15}" for n in sizes) + " |")
        lines.append("|---------|" + "|".join("-" * 25 for _ in sizes) + "|")
        for b, edge in enumerate(BIN_EDGES):
            cells = []
            for n in sizes:
                c = s.calibration.get((n, b))
                cells.append(f"{c.predicted / c.count:.3f} / {c.observed / c.count:.3f} ({c.count:>6})"
                             if c else " " * 23)
            lines.append(f"| ≤ {edge:.1f}   | " + " | ".join(f"{x:<23}" for x in cells) + " |")
    return "\n".join(lines)


# -- the synthetic generator ------------------------------------------------------------


@dataclass(frozen=True)
class Generator:
    """Parameters of ``synthetic``; every figure is in units of one player's performance noise.

    True skills start normal (deviation ``spread``) and follow an Ornstein–Uhlenbeck drift of
    time constant ``drift_time`` (matches of the whole pool), so they wander but stay spread.
    A player's activity is lognormal (``activity_sigma``); a quarter of the players are there
    from the start, the others join at a uniform time in the first ``join_fraction`` of the
    history. Each match has 2–6 sides (``sizes`` weights) and a four-player match is 2v2
    with probability ``teams_share``. A player's performance is his skill plus a standard
    normal, a team's the sum of its players'; two performances within ``tie_margin`` tie.
    """

    players: int = 400
    matches: int = 20_000
    spread: float = 1.0
    drift_time: float = 20_000.0
    activity_sigma: float = 1.0
    join_fraction: float = 0.6
    sizes: tuple[float, ...] = (0.35, 0.2, 0.25, 0.1, 0.1)  # 2, 3, 4, 5, 6 sides or players
    teams_share: float = 0.5
    tie_margin: float = 0.02
    game: str = "synthetic"


def synthetic(seed: int, generator: Generator | None = None, with_oracle: bool = True) -> list[BacktestMatch]:
    """Matches with hidden drifting skills; each carries the true first-place probabilities.

    ``with_oracle=False`` leaves them out (their quadrature is most of the cost): for the
    speed benchmark, which needs only the matches.
    """
    g = generator or Generator()
    rng = random.Random(seed)
    skill = [rng.gauss(0, g.spread) for _ in range(g.players)]
    seen_at = [0.0] * g.players
    # A quarter of the players are there from the start, the others join later.
    join = [0.0 if rng.random() < 0.25 else rng.uniform(0, g.join_fraction * g.matches)
            for _ in range(g.players)]
    weights = [rng.lognormvariate(0, g.activity_sigma) for _ in range(g.players)]
    cum = []
    total = 0.0
    for w in weights:
        total += w
        cum.append(total)
    players = range(g.players)
    out = []
    for t in range(g.matches):
        size = rng.choices((2, 3, 4, 5, 6), weights=g.sizes)[0]
        chosen: list[int] = []
        while len(chosen) < size:
            p = rng.choices(players, cum_weights=cum)[0]
            if p not in chosen and join[p] <= t:
                chosen.append(p)
        for p in chosen:  # the drift since he was last seen, exactly (OU process)
            decay = math.exp(-(t - seen_at[p]) / g.drift_time)
            skill[p] = skill[p] * decay + rng.gauss(0, g.spread * math.sqrt(1 - decay * decay))
            seen_at[p] = t
        if size == 4 and rng.random() < g.teams_share:
            sides = ((chosen[0], chosen[1]), (chosen[2], chosen[3]))
        else:
            sides = tuple((p,) for p in chosen)
        means = [sum(skill[p] for p in side) for side in sides]
        sds = [math.sqrt(len(side)) for side in sides]
        perf = [m + rng.gauss(0, s) for m, s in zip(means, sds, strict=True)]
        order = sorted(range(len(sides)), key=lambda i: -perf[i])
        places = [0] * len(sides)
        for rank, i in enumerate(order):
            prev = order[rank - 1] if rank else None
            tie = prev is not None and perf[prev] - perf[i] < g.tie_margin
            places[i] = places[prev] if tie else rank + 1
        oracle = tuple(first_place_probabilities(means, sds)) if with_oracle else None
        out.append(BacktestMatch(g.game, tuple(tuple(f"p{p}" for p in side) for side in sides),
                                 tuple(places), oracle, tuple(means)))
    return out


# -- the candidates of the back-test ----------------------------------------------------


#: The best Plackett–Luce update found on the tuning seeds (win probabilities at a fixed scale).
PLACKETT_LUCE_TUNED = Rater(name="plackett-luce-tuned", tau=0.6, win_scale=2.0)


def candidates(include_oracle: bool = True, include_refits: bool = True) -> list[Candidate]:
    """The back-test's field: the default (``ratings.backtest.forecast``), its online half alone,
    openskill's models at their defaults, the best Plackett–Luce update found, Elo, the
    dynamic refit alone (slow: a pass over the history every 500 matches), the oracle."""
    out = [
        Candidate("default", forecast_predictor),
        Candidate("online-bt-full", lambda: RaterPredictor(Rater.default())),
        Candidate("openskill-default", lambda: OpenSkillPredictor("PlackettLuce")),
        Candidate("openskill-bt-full", lambda: OpenSkillPredictor("BradleyTerryFull")),
        Candidate("openskill-tm-full", lambda: OpenSkillPredictor("ThurstoneMostellerFull")),
        Candidate("plackett-luce-tuned", lambda: RaterPredictor(PLACKETT_LUCE_TUNED)),
        Candidate("elo", lambda: EloPredictor()),
    ]
    if include_refits:
        out += [
            Candidate("dynamic-refit", lambda: refit_predictor(DynamicRefit())),
        ]
    if include_oracle:
        out.append(Candidate("oracle", OraclePredictor))
    return out


def default_predictions(matches: Iterable[BacktestMatch]) -> Iterator[list[float]]:
    """The default model's pre-match win probabilities, one list per match, input order."""
    predictor = forecast_predictor()
    for match in matches:
        yield predictor.predict(match)
        predictor.update(match)


# -- the displayed rating -----------------------------------------------------------------


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
    played: dict[Hashable, int] = {}
    truth: dict[Hashable, float] = {}
    for m in matches:
        predictor.update(m)
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
            rows.append(DisplayRow(z, floor, len(listed), _spearman(shown, true),
                                   sum(true[i] for i in top) / max(1, len(top))))
    return rows


def format_display_study(rows: Sequence[DisplayRow]) -> str:
    lines = ["| z | min matches | listed | Spearman with true skill | top-10 true skill |",
             "|---|-------------|--------|--------------------------|-------------------|"]
    for r in rows:
        lines.append(f"| {r.z:g} | {r.min_matches:11} | {r.listed:6} | {r.spearman:24.3f} | "
                     f"{r.top10_true_skill:17.3f} |")
    return "\n".join(lines)
