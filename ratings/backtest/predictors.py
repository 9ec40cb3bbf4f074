"""The back-test's candidates: each predicts every match (each side's probability of the
first place, and of a draw where it gives one) before it learns the outcome, then updates.
``RaterPredictor`` is the service's own model (the engine's ``replay_arrays``); beside it
openskill's models, Elo, the batch refit (``refit``), the ceiling's filters (``ceiling``) and
the oracle. ``candidates`` is the field a back-test runs; ``default_predictions`` the served
model's forecast of each match."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from ..engine import MatchOutcome, Rater, Rating, replay_arrays
from .ceiling import OracleAssistedFilter, OracleAssistedMarginFilter, ThurstoneFilter
from .matches import BacktestMatch, play_order
from .refit import DynamicRefit


class Predictor(Protocol):
    """An online forecaster: predicts a match, then learns its outcome."""

    def predict(self, match: BacktestMatch) -> list[float]: ...

    def update(self, match: BacktestMatch) -> None: ...


class BatchPredictor(Protocol):
    """A forecaster of all the matches at once (each predicted before it is learned): per
    match, each side's win probability and, for two sides, the draw's."""

    def forecast(self, matches: Sequence[BacktestMatch]) -> list[tuple[list[float], float | None]]: ...


@dataclass(frozen=True)
class Candidate:
    """A named way to start a fresh predictor (each run starts from nobody known)."""

    name: str
    make: Callable[[], Predictor | BatchPredictor]
    #: Whether it reads the matches' points (``scores``): marked in the report.
    uses_scores: bool = False


class RaterPredictor:
    """One of our ``Rater``s, one pool per game: the service's own forecaster.

    ``forecast`` replays the matches through the engine's ``replay_arrays`` (days and all),
    and each match's win probabilities are the ones the replay gives it before rating it:
    the very floats a pool's history stores, ``/predict`` serves for the same ratings, and
    ``--predictions`` writes."""

    def __init__(self, rater: Rater, use_scores: bool = True):
        self.rater = rater
        #: False: the matches' points are left out (the results-only forecast of the same rater).
        self.use_scores = use_scores
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
            outcomes = [MatchOutcome(i, matches[i].sides, matches[i].places, matches[i].day,
                                     matches[i].scores if self.use_scores else None)
                        for i in indexes]  # fmt: skip
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


#: The best Plackett–Luce update found on the tuning seeds (win probabilities at a fixed scale).
PLACKETT_LUCE_TUNED = Rater(name="plackett-luce-tuned", tau=0.6, win_scale=2.0)


def candidates(include_oracle: bool = True, include_refits: bool = False, rater: Rater | None = None,
               include_ceiling: bool = False, point_scale: float | None = None,
               fitted: dict | None = None) -> list[Candidate]:  # fmt: skip
    """The back-test's field: the default (``rater``, else ``Rater.default()``: what the
    service serves), the same update without the time decay or the pair weights (issue 11's
    model), openskill's models at their defaults, the best Plackett–Luce update found, Elo,
    optionally the dynamic batch refit (research: a pass over the history every 500
    matches), the generator's own model as a grid filter and the oracle-assisted filter
    (research, ``ratings.backtest.ceiling``; the latter synthetic matches only: the bound),
    and the oracle. ``default`` is what the service serves: from the places alone, and then,
    given the matches' worth of a point (``point_scale``, ``ratings.fitting.point_scale``: they
    have points), the same rater reading the points too as ``margin-aware``; a fitted pool's
    rater that weighs the points reads them as ``default``, beside it on the places alone as
    ``results-only``. ``fitted``: parameters a fit chose for the league on other matches
    (``ratings.backtest.league_fit``), with which the default reads the points too as
    ``margin-fitted`` (the same point scale)."""
    default = rater or Rater.default()
    issue_11 = default.with_parameters({"gamma": 0.0, "pair_weight_exponent": 0.0}, name="issue-11")
    if default.uses_margins:  # a fitted pool's: it reads the points, the served row does too
        out = [Candidate("default", lambda: RaterPredictor(default), uses_scores=True),
               Candidate("results-only", lambda: RaterPredictor(default, use_scores=False))]  # fmt: skip
    else:
        out = [Candidate("default", lambda: RaterPredictor(default, use_scores=False))]
        if point_scale is not None and default.margin_weight > 0:
            margins = default.with_parameters({"point_scale": point_scale}, name="margin-aware")
            out.append(Candidate("margin-aware", lambda: RaterPredictor(margins), uses_scores=True))
            if fitted is not None:
                tuned = default.with_parameters({**fitted, "point_scale": point_scale}, name="margin-fitted")
                out.append(Candidate("margin-fitted", lambda: RaterPredictor(tuned), uses_scores=True))
    out += [
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
        if point_scale is not None:
            out.append(Candidate("oracle-assisted-margins", OracleAssistedMarginFilter, uses_scores=True))
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
