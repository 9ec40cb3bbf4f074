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
import itertools
import json
import math
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, date, datetime
from typing import Any, Protocol

from ..engine import MatchOutcome, Rater, Rating, first_place_probabilities, replay_arrays
from .ceiling import OracleAssistedFilter, ThurstoneFilter
from .refit import DynamicRefit

__all__ = [
    "BacktestInputError",
    "BacktestMatch",
    "Candidate",
    "OracleAssistedFilter",
    "Report",
    "ThurstoneFilter",
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
    #: When it was played, in days since 1970-01-01 UTC (``"played_at"``); None: not given.
    day: float | None = None
    #: Synthetic two-sided matches only: the true probability of a draw.
    oracle_draw: float | None = None

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
                raise _fail(
                    number, f"sides[{i}]: a player is a non-empty string or an integer, not {player!r}"
                )
            if player in seen:
                raise _fail(number, f"player {player!r} appears twice")
            seen.add(player)
    if not isinstance(places, list) or len(places) != len(sides):
        raise _fail(number, f'"places" must be a list of {len(sides)} places, one per side')
    for i, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise _fail(number, f"places[{i}] must be an integer ≥ 1, not {place!r}")
    day = None
    if data.get("played_at") is not None:
        day = _day(data["played_at"], number)
    return BacktestMatch(game, tuple(tuple(s) for s in sides), tuple(places), day=day)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _day(value: Any, number: int) -> float:
    """An ISO date or date and time as days since 1970-01-01 UTC (a time without a zone is UTC)."""
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            when = None
        if when is not None:
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            return (when - _EPOCH).total_seconds() / 86400
        try:
            return float((date.fromisoformat(value) - _EPOCH.date()).days)
        except ValueError:
            pass
    raise _fail(number, f'"played_at" must be an ISO date or date and time, not {value!r}')


def play_order(matches: Sequence[BacktestMatch]) -> list[int]:
    """The matches' indices in the order they were played, as a pool orders them: by
    ``day``, the given order among equals. A match without a day keeps its place after the
    one before it (the first ones stay first) and lets no time pass."""
    key = -math.inf
    keys = []
    for m in matches:
        if m.day is not None:
            key = m.day
        keys.append(key)
    return sorted(range(len(matches)), key=keys.__getitem__)


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
    """The JSON lines ``read_jsonl`` reads (the oracle is not written; a day as ``played_at``)."""
    for m in matches:
        line: dict[str, Any] = {"game": m.game, "sides": [list(s) for s in m.sides], "places": list(m.places)}
        if m.day is not None:
            line["played_at"] = datetime.fromtimestamp(m.day * 86400, UTC).isoformat()
        yield json.dumps(line)


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
    """One of our ``Rater``s, one pool per game: the service's own forecaster.

    ``forecast`` replays the matches through the engine's ``replay_arrays`` (days and all),
    and each match's win probabilities are the ones the replay gives it before rating it:
    the very floats a pool's history stores, ``/predict`` serves for the same ratings, and
    ``--predictions`` writes."""

    def __init__(self, rater: Rater):
        self.rater = rater
        self.pools: dict[str, dict[Hashable, Rating]] = {}
        self.days: dict[str, dict[Hashable, float]] = {}

    def forecast(self, matches: Sequence[BacktestMatch]) -> list[tuple[list[float], float | None]]:
        """Per match (in the given order, each game its own pool): each side's pre-match
        win probability and, for two sides, the draw's."""
        by_game: dict[str, list[int]] = {}
        for i, m in enumerate(matches):
            by_game.setdefault(m.game, []).append(i)
        out: list[Any] = [None] * len(matches)
        for game, indexes in by_game.items():
            outcomes = [MatchOutcome(i, matches[i].sides, matches[i].places, matches[i].day) for i in indexes]
            done = replay_arrays(self.rater, outcomes, self.pools.setdefault(game, {}),
                                 self.days.setdefault(game, {}))  # fmt: skip
            odds = done.win_probability.tolist()
            sides = done.side.tolist()
            slot = 0
            for i in indexes:
                match = matches[i]
                probabilities = [0.0] * len(match.sides)
                for _ in range(sum(map(len, match.sides))):
                    probabilities[sides[slot]] = odds[slot]
                    slot += 1
                draw = self.rater.draw_from_win(probabilities[0]) if len(probabilities) == 2 else None
                out[i] = (probabilities, draw)
        return out


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

    def draw(self, match: BacktestMatch) -> float | None:
        """openskill's ``predict_draw``, two sides only."""
        return self.model.predict_draw(self._sides(match)) if len(match.sides) == 2 else None

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


class OraclePredictor:
    """Knows the true skills: predicts the generator's own probabilities."""

    def predict(self, match: BacktestMatch) -> list[float]:
        if match.oracle is None:
            raise ValueError("the oracle needs synthetic matches (they carry the true probabilities)")
        return list(match.oracle)

    def draw(self, match: BacktestMatch) -> float | None:
        return match.oracle_draw

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
        score = Score(candidate.name)
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
    names = [s.name for s in report.scores]
    width = max([len("candidate"), *map(len, names)])
    has_gap = "oracle" in names and "openskill-default" in names
    lines = [f"{report.matches} matches", ""]
    head = f"| {'candidate':<{width}} | winner accuracy | log-loss | Brier  | draws predicted / seen |"
    rule = f"|{'-' * (width + 2)}|-----------------|----------|--------|------------------------|"
    if has_gap:
        head += " Brier gap closed |"
        rule += "------------------|"
    lines += [head, rule]
    for s in report.scores:
        rates = s.draw_rates
        draws = f"{rates[0]:.2%} / {rates[1]:.2%}" if rates else "—"
        row = (f"| {s.name:<{width}} | {s.accuracy:15.4f} | {s.mean_log_loss:8.4f} | {s.mean_brier:.4f} |"
               f" {draws:>22} |")  # fmt: skip
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
                cells.append(
                    f"{c.predicted / c.count:.3f} / {c.observed / c.count:.3f} ({c.count:>6})"
                    if c
                    else " " * 23
                )
            lines.append(f"| ≤ {edge:.1f}   | " + " | ".join(f"{x:<23}" for x in cells) + " |")
    return "\n".join(lines)


# -- the synthetic generator ------------------------------------------------------------


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


def synthetic(seed: int, generator: Generator | None = None, with_oracle: bool = True) -> list[BacktestMatch]:
    """Matches with hidden drifting skills, in play order, each with its day and the true
    first-place probabilities (and, for two sides, the true draw probability).

    ``with_oracle=False`` leaves them out (their quadrature is most of the cost): for the
    speed benchmark, which needs only the matches.
    """
    g = generator or Generator()
    rng = random.Random(seed)
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
        if size == 4 and rng.random() < g.teams_share:
            sides = ((chosen[0], chosen[1]), (chosen[2], chosen[3]))
        else:
            sides = tuple((p,) for p in chosen)
        means = [sum(skill[p] for p in side) for side in sides]
        sds = [math.sqrt(len(side)) for side in sides]
        perf = [m + rng.gauss(0, s) for m, s in zip(means, sds, strict=True)]
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
                tie = prev is not None and perf[prev] - perf[i] < g.tie_margin
                places[i] = places[prev] if tie else rank + 1
            oracle = tuple(first_place_probabilities(means, sds)) if with_oracle else None
        out.append(BacktestMatch(g.game, tuple(tuple(f"p{p}" for p in side) for side in sides), tuple(places),
                                 oracle if with_oracle else None, tuple(means), day,
                                 oracle_draw if with_oracle else None))  # fmt: skip
    return out


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


# -- the candidates of the back-test ----------------------------------------------------


#: The best Plackett–Luce update found on the tuning seeds (win probabilities at a fixed scale).
PLACKETT_LUCE_TUNED = Rater(name="plackett-luce-tuned", tau=0.6, win_scale=2.0)


def candidates(include_oracle: bool = True, include_refits: bool = False, rater: Rater | None = None,
               include_ceiling: bool = False) -> list[Candidate]:  # fmt: skip
    """The back-test's field: the default (``rater``, else ``Rater.default()``: what the
    service serves), the same update without the time decay or the pair weights (issue 11's
    model), openskill's models at their defaults, the best Plackett–Luce update found, Elo,
    optionally the dynamic batch refit (research: a pass over the history every 500
    matches), the generator's own model as a grid filter and the oracle-assisted filter
    (research, ``ratings.backtest.ceiling``; the latter synthetic matches only: the bound),
    and the oracle."""
    default = rater or Rater.default()
    issue_11 = default.with_parameters({"gamma": 0.0, "pair_weight_exponent": 0.0}, name="issue-11")
    out = [
        Candidate("default", lambda: RaterPredictor(default)),
        Candidate("no-decay-no-weights", lambda: RaterPredictor(issue_11)),
        Candidate("openskill-default", lambda: OpenSkillPredictor("PlackettLuce")),
        Candidate("openskill-bt-full", lambda: OpenSkillPredictor("BradleyTerryFull")),
        Candidate("openskill-tm-full", lambda: OpenSkillPredictor("ThurstoneMostellerFull")),
        Candidate("plackett-luce-tuned", lambda: RaterPredictor(PLACKETT_LUCE_TUNED)),
        Candidate("elo", lambda: EloPredictor()),
    ]
    if include_refits:
        out.append(Candidate("dynamic-refit", lambda: refit_predictor(DynamicRefit())))
    if include_ceiling:
        out.append(Candidate("thurstone-filter", ThurstoneFilter))
        out.append(Candidate("oracle-assisted-filter", OracleAssistedFilter))
    if include_oracle:
        out.append(Candidate("oracle", OraclePredictor))
    return out


def default_predictions(
    matches: Iterable[BacktestMatch], rater: Rater | None = None
) -> Iterator[list[float]]:
    """The served model's pre-match win probabilities (``rater``, else ``Rater.default()``),
    one list per match, in input order; rated in play order (``play_order``)."""
    given = list(matches)
    order = play_order(given)
    forecast = RaterPredictor(rater or Rater.default()).forecast([given[i] for i in order])
    out: list[Any] = [None] * len(given)
    for i, (probabilities, _) in zip(order, forecast, strict=True):
        out[i] = probabilities
    yield from out


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
