"""The skill rating engine: Weng–Lin Bayesian updates, in plain Python and numpy (no Django).

One ``Rater`` is one rating model with its parameters. The Django side keeps, per pool (one
pool per game key), a dict player → ``Rating`` (and one player → day of his last rated match)
and calls ``replay_arrays`` with the matches to rate, in the pool's order: the new ones after a
finished match, or all of them from empty dicts to rebuild the pool. Both give the same floats:
there is one implementation of the update, on arrays, which rates matches in waves that share
no player (below, "the update, on arrays"), and ``Rater.rate`` is a replay of one match.

The updates are Algorithms 1 (full-pairing Bradley–Terry, the default) and 4 (Plackett–Luce)
of Weng & Lin (2011), "A Bayesian approximation method for online ranking", as openskill's
``BradleyTerryFull.rate`` and ``PlackettLuce.rate`` compute them (tests/ratings compare them to
1e-9 on thousands of random matches, ties included), on arrays because a full recompute of a
pool must be at least as fast as openskill's own loop. Additions, each off at its neutral
value: the pairs of a table of n sides may weigh (n − 1)^−x each (``pair_weight_exponent``), so
that a six-player table is not six independent games for every player; a player's sigma grows
with the days since his last rated match (``gamma``, capped at the prior's); two sides get
win, draw and loss probabilities from one draw parameter (``draw_share``).

A tie is what the update's own model says it is, half a win in each pair of tied sides; it is
not averaged afterwards (docs/ratings.md, "Ties").

Which model, which parameters and which displayed rating were chosen by the back-test of
``ratings.backtest``; the table is in docs/ratings.md.
"""

from __future__ import annotations

import collections
import dataclasses
import functools
import itertools
import math
import operator
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import Any, Generic, NamedTuple, Protocol, TypeVar

import numpy as np

__all__ = [
    "MODELS",
    "WIN_FORMULAS",
    "MatchOutcome",
    "Outcome",
    "PlayerChange",
    "RatedMatch",
    "Rater",
    "Rating",
    "Replayed",
    "replay",
    "replay_arrays",
]

_NORMAL = NormalDist()

#: How ``Rater.win_probabilities`` turns ratings into each side's chance of the first place:
#: ``plackett-luce`` the model's own first-place probability (softmax of mu / c), chosen by the
#: back-test; ``pairwise`` openskill's ``predict_win`` (mean of pairwise normal CDFs), which is
#: overconfident for two sides; ``thurstone`` the chance that a side's performance, normal of
#: mean Σmu and variance Σ(sigma² + beta²), is the highest (by quadrature).
WIN_FORMULAS = ("plackett-luce", "pairwise", "thurstone")
#: The updates: Weng & Lin's Plackett–Luce (Algorithm 4, openskill ``PlackettLuce``) and
#: full-pairing Bradley–Terry (Algorithm 1, openskill ``BradleyTerryFull``).
MODELS = ("plackett-luce", "bradley-terry-full")


class Rating(NamedTuple):
    """A player's skill belief: a normal distribution of mean ``mu`` and deviation ``sigma``.

    A named tuple, immutable: a replay makes one per player per match, and a frozen
    dataclass took twice as long to make."""

    mu: float
    sigma: float


_INT = {int}


def _check_match(sides: Sequence[Sequence[object]], places: Sequence[int] | None = None) -> None:
    n = len(sides)
    if (
        n >= 2
        and all(sides)
        and (places is None or (len(places) == n and set(map(type, places)) == _INT and min(places) >= 1))
    ):
        return  # the fast path of every good match (bools are not places); below, what is wrong
    if len(sides) < 2:
        raise ValueError(f"a match needs at least two sides, not {len(sides)}")
    for i, side in enumerate(sides):
        if len(side) == 0:
            raise ValueError(f"side {i} has no player")
    if places is None:
        return
    if len(places) != len(sides):
        raise ValueError(f"{len(places)} places for {len(sides)} sides")
    for i, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise ValueError(f"place {i} must be an integer ≥ 1, not {place!r}")


@dataclass(frozen=True)
class Rater:
    """A Weng–Lin rating model with its parameters; immutable.

    ``model`` is the update (``MODELS``); ``mu``, ``sigma`` the prior of an unknown player;
    ``beta`` the performance noise; ``tau`` the drift added to every player's sigma before
    each of his matches; ``kappa`` the floor of the factor that shrinks sigma. ``z`` makes
    the displayed (conservative) rating ``mu − z·sigma``. A player is provisional while he
    has fewer than ``provisional_matches`` rated matches or his sigma is above
    ``provisional_sigma``.

    ``win_scale`` λ sets the scale c of the Plackett–Luce win probabilities (softmax of the
    sides' mu / c) and expected ranks: ``None`` the update's own c = √Σ(sigma² + beta²), which
    grows with the number of sides, so that predictions are too sure with two sides and too
    timid with six; a number, c = λ·√mean(sigma² + beta²)·(2/n)^``win_field_exponent`` for n
    sides (exponent 0: the same scale for any table size).

    ``gamma``: a player's variance grows by gamma² per day since his last rated match (as in
    Glicko), never above the prior's sigma²; only matches that carry a ``day`` let time pass.
    ``pair_weight_exponent`` x: in the Bradley–Terry update each pair of an n-side match is a
    game of weight (n − 1)^−x (0: openskill's full pairing, every pair a whole game; 1: a
    side's n − 1 games weigh one game in all). ``draw_share`` δ: the chance that two equal
    sides draw; for two sides whose win probability (a draw counted half) is p, the draw's is
    δ·4p(1 − p), so that win, draw and loss sum to 1 and the win probability is unchanged.

    The points (``MatchOutcome.scores``, each side's points, more is better), in the
    Bradley–Terry update only: a game of two sides whose match has points mixes, by
    ``margin_weight`` λ, the logistic's terms with those of a normal likelihood of the margin
    (``_bradley_terry_full``): the margin in mu is κ·points / s, κ ``margin_scale`` and s the
    ``point_scale``, the pool's mean margin between two sides placed apart (how much a point
    is worth in that game, ``ratings.fitting.point_scale``), its noise ``margin_beta``; at a
    table of n sides the margin's share of a pair is λ·(n − 1)^−``margin_pair_exponent`` (a
    side's n − 1 margins share its own luck), the logistic's the rest. The places still
    decide who won: the mixed surprise keeps the places' sign, so a bigger win says more but a
    margin never turns a loss into a gain. A match without scores, or a rater with λ 0 or no
    ``point_scale``, is rated exactly as without margins (the same floats).
    """

    name: str = "plackett-luce"
    model: str = "plackett-luce"
    mu: float = 25.0
    sigma: float = 25.0 / 3.0
    beta: float = 25.0 / 6.0
    tau: float = 25.0 / 300.0
    kappa: float = 0.0001
    z: float = 3.0
    win_formula: str = "plackett-luce"
    provisional_matches: int = 5
    provisional_sigma: float = math.inf
    win_scale: float | None = None
    win_field_exponent: float = 0.0
    gamma: float = 0.0
    pair_weight_exponent: float = 0.0
    draw_share: float = 0.0
    margin_weight: float = 0.0
    point_scale: float | None = None
    margin_scale: float = 20.0
    margin_beta: float = 12.0
    margin_pair_exponent: float = 1.0
    _beta2: float = field(init=False, repr=False, compare=False)
    _tau2: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for key in ("sigma", "beta"):
            if not getattr(self, key) > 0:
                raise ValueError(f"{key} must be > 0, not {getattr(self, key)!r}")
        if self.win_scale is not None and not self.win_scale > 0:
            raise ValueError(f"win_scale must be > 0 or None, not {self.win_scale!r}")
        for key in ("tau", "kappa", "z", "gamma", "pair_weight_exponent"):
            if not getattr(self, key) >= 0:
                raise ValueError(f"{key} must be ≥ 0, not {getattr(self, key)!r}")
        if not 0 <= self.margin_weight <= 1:
            raise ValueError(f"margin_weight must be between 0 and 1, not {self.margin_weight!r}")
        if self.point_scale is not None and not (self.point_scale > 0 and math.isfinite(self.point_scale)):
            raise ValueError(f"point_scale must be a finite number > 0 or None, not {self.point_scale!r}")
        if self.margin_weight and self.model != "bradley-terry-full":
            raise ValueError("margins (margin_weight) weigh the games of the bradley-terry-full update only")
        if not 0 <= self.draw_share <= 0.5:
            raise ValueError(f"draw_share must be between 0 and 0.5, not {self.draw_share!r}")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {self.model!r}")
        if self.win_formula not in WIN_FORMULAS:
            raise ValueError(
                f"win_formula must be one of {', '.join(WIN_FORMULAS)}, not {self.win_formula!r}"
            )
        object.__setattr__(self, "_beta2", self.beta * self.beta)
        object.__setattr__(self, "_tau2", self.tau * self.tau)

    #: The parameters a pool may fit (``ratings_fit``) and store; the rest are the display's.
    FITTED = ("model", "beta", "tau", "gamma", "win_scale", "win_field_exponent", "pair_weight_exponent",
              "draw_share", "margin_weight", "point_scale", "margin_scale", "margin_beta",
              "margin_pair_exponent")  # fmt: skip

    def fitted_parameters(self) -> dict[str, Any]:
        """The model's fitted parameters as plain JSON values (what a pool stores)."""
        return {key: getattr(self, key) for key in self.FITTED}

    def with_parameters(self, parameters: dict[str, Any], name: str | None = None) -> Rater:
        """This rater with some fitted parameters replaced (ValueError on an unknown or
        impossible one): a pool's stored parameters over the default."""
        unknown = set(parameters) - set(self.FITTED)
        if unknown:
            raise ValueError(f"not a fitted parameter: {', '.join(sorted(unknown))}")
        return dataclasses.replace(self, name=name or self.name, **parameters)

    @classmethod
    def default(cls) -> Rater:
        """The model and parameters chosen by the back-test (docs/ratings.md)."""
        return DEFAULT

    def prior(self) -> Rating:
        """An unknown player's rating."""
        return Rating(self.mu, self.sigma)

    def aged(self, rating: Rating, days: float) -> Rating:
        """The rating after ``days`` without a rated match: its variance grown by gamma² a
        day, capped at the prior's (a rating already less sure than the prior stays as it is).
        What the update rates a returning player from, and what a prediction uses."""
        if not days > 0 or self.gamma == 0:
            return rating
        var = rating.sigma * rating.sigma
        cap = max(var, self.sigma * self.sigma)
        return Rating(rating.mu, math.sqrt(min(var + self.gamma * self.gamma * days, cap)))

    @property
    def uses_margins(self) -> bool:
        """Whether the points of a match with scores weigh its games (``margin_weight``)."""
        return self.margin_weight > 0 and self.point_scale is not None

    # -- the update ----------------------------------------------------------------
    def rate(
        self,
        sides: Sequence[Sequence[Rating]],
        places: Sequence[int],
        scores: Sequence[float] | None = None,
    ) -> list[list[Rating]]:
        """New ratings, side by side, player by player.

        ``places`` are 1-based, one per side, lower is better; equal places are ties, and
        tied sides get the same change of their mean mu (a draw between equals leaves them
        equal). ``scores``, optional, are each side's points (more is better). Raises
        ValueError on a malformed match. The same floats as ``replay``: this is a replay of
        one match.
        """
        _check_match(sides, places)
        # Each player is known by his seat (side, index): the same Rating may sit twice.
        seats = tuple(tuple((i, j) for j in range(len(side))) for i, side in enumerate(sides))
        ratings: dict[Hashable, Rating] = {seat: sides[seat[0]][seat[1]] for side in seats for seat in side}
        match = MatchOutcome(None, seats, tuple(places), scores=None if scores is None else tuple(scores))
        replay_arrays(self, [match], ratings)
        return [[ratings[seat] for seat in side] for side in seats]

    # -- predictions -----------------------------------------------------------------
    def _c(self, sides: Sequence[Sequence[Rating]]) -> tuple[list[float], list[float], float]:
        """Each side's Σ mu and Σ sigma², and the scale c of the prediction."""
        mus, s2s = [], []
        for side in sides:
            m = 0.0
            s = 0.0
            for r in side:
                m += r.mu
                s += r.sigma * r.sigma
            mus.append(m)
            s2s.append(s)
        return mus, s2s, self._scale(s2s)

    def _scale(self, s2s: list[float]) -> float:
        beta2 = self._beta2
        total = 0.0
        for s in s2s:
            total += s + beta2
        if self.win_scale is None:
            return math.sqrt(total)
        n = len(s2s)
        return self.win_scale * math.sqrt(total / n) * math.pow(2 / n, self.win_field_exponent)

    def win_probabilities(self, sides: Sequence[Sequence[Rating]]) -> list[float]:
        """Each side's probability of the first place, summing to 1 (``win_formula``): the
        same floats a replay gives the match before rating it."""
        _check_match(sides)
        mus, s2s, _ = self._c(sides)
        if self.win_formula == "plackett-luce":
            n = len(sides)
            odds = _plackett_luce_odds(
                self, np.array(mus), np.array(s2s), np.zeros(n, np.int64), np.zeros(1, np.int64),
                np.array([n]),
            )  # fmt: skip
            probabilities: list[float] = odds.tolist()
            return probabilities
        return self._win(mus, s2s, [len(side) for side in sides])

    def _win(self, mus: list[float], s2s: list[float], sizes: list[int]) -> list[float]:
        """The ``pairwise`` and ``thurstone`` formulas, from each side's Σ mu, Σ sigma² and
        number of players."""
        if self.win_formula == "thurstone":
            scale = 1.0 if self.win_scale is None else self.win_scale
            sds = [scale * math.sqrt(s + k * self._beta2) for s, k in zip(s2s, sizes, strict=True)]
            return first_place_probabilities(mus, sds)
        n = len(mus)
        b2 = 2 * self._beta2
        wins = []
        for i in range(n):
            w = 0.0
            for j in range(n):
                if i != j:
                    w += _NORMAL.cdf((mus[i] - mus[j]) / math.sqrt(b2 + s2s[i] + s2s[j]))
            wins.append(w / (n - 1))
        total = sum(wins)
        return [w / total for w in wins]

    def draw_probability(self, sides: Sequence[Sequence[Rating]]) -> float | None:
        """For two sides, the chance they draw, δ·4p(1 − p) (``draw_share``); else ``None``."""
        _check_match(sides)
        if len(sides) != 2:
            return None
        return self.draw_from_win(self.win_probabilities(sides)[0])

    def draw_from_win(self, p: float) -> float:
        """The draw probability of two sides when the first one's win probability (a draw
        counted half) is ``p``: largest between equals, δ; never more than twice the smaller
        side's p, so that no outcome gets a negative probability."""
        return self.draw_share * 4 * p * (1 - p)

    def outcome_probabilities(self, sides: Sequence[Sequence[Rating]]) -> tuple[float, float, float]:
        """Two sides: the first one's probabilities of a win, a draw and a loss (Σ = 1).

        The win probability of ``win_probabilities`` counts a draw as half a win (as a tie
        counts in the update and in the back-test): win = p − d/2, loss = 1 − p − d/2."""
        if len(sides) != 2:
            raise ValueError(f"win, draw and loss are for two sides, not {len(sides)}")
        p = self.win_probabilities(sides)[0]
        d = self.draw_from_win(p)
        return p - d / 2, d, 1 - p - d / 2

    def place_probabilities(self, sides: Sequence[Sequence[Rating]]) -> list[list[float]]:
        """Each side's chance of each place, 1 … n (ties broken): a list per side that sums to
        1, whose columns sum to 1 too, and whose first column is ``win_probabilities``.

        The places are drawn as Plackett–Luce draws them, each next place among the sides not
        yet placed in proportion to their first-place probabilities (the softmax's own
        weights under the ``plackett-luce`` formula): over the subsets of sides placed so far,
        at most 2^n of them (a table has at most six)."""
        weights = self.win_probabilities(sides)
        n = len(weights)
        chances = [[0.0] * n for _ in range(n)]
        # reach[placed]: the chance that exactly the sides of the bitmask ``placed`` took the
        # first popcount(placed) places.
        reach = {0: 1.0}
        for place in range(n):
            following: dict[int, float] = {}
            for placed, chance in reach.items():
                # Summed, not the total less the placed: a tiny weight would be lost in it.
                left = sum(weights[i] for i in range(n) if not placed >> i & 1)
                for i in range(n):
                    if placed >> i & 1 or left <= 0:
                        continue
                    step = chance * weights[i] / left
                    chances[i][place] += step
                    following[placed | 1 << i] = following.get(placed | 1 << i, 0.0) + step
            reach = following
        return chances

    def expected_ranks(self, sides: Sequence[Sequence[Rating]]) -> list[float]:
        """Each side's expected place, 1 … n: 1 + Σ P(the other side finishes ahead).

        Under Plackett–Luce the chance that side j finishes ahead of side i is
        e_j / (e_i + e_j), whatever the other sides do; the ranks sum to n(n+1)/2.
        """
        _check_match(sides)
        mus, _, c = self._c(sides)
        top = max(mus)
        exps = [math.exp((m - top) / c) for m in mus]
        return [
            1 + sum(exps[j] / (exps[i] + exps[j]) for j in range(len(exps)) if j != i)
            for i in range(len(exps))
        ]

    # -- display ----------------------------------------------------------------------
    def conservative(self, rating: Rating) -> float:
        """The displayed rating, ``mu − z·sigma``: low for a player the model knows little of."""
        return rating.mu - self.z * rating.sigma

    def is_provisional(self, rating: Rating, matches: int) -> bool:
        """Whether the rating is too young to rank (marked on leaderboards)."""
        return matches < self.provisional_matches or rating.sigma > self.provisional_sigma


def first_place_probabilities(means: Sequence[float], sds: Sequence[float]) -> list[float]:
    """P(side i has the highest performance), performances independent normals (quadrature)."""
    n = len(means)
    if n == 2:
        p = 0.5 * (1 + math.erf((means[0] - means[1]) / math.sqrt(2 * (sds[0] ** 2 + sds[1] ** 2))))
        return [p, 1 - p]
    lo = min(m - 6 * s for m, s in zip(means, sds, strict=True))
    hi = max(m + 6 * s for m, s in zip(means, sds, strict=True))
    steps = 96
    h = (hi - lo) / steps
    root2 = math.sqrt(2)
    out = [0.0] * n
    for k in range(steps + 1):
        x = lo + k * h
        w = h * (0.5 if k in (0, steps) else 1.0)
        cdfs = [0.5 * (1 + math.erf((x - m) / (s * root2))) for m, s in zip(means, sds, strict=True)]
        for i in range(n):
            z = (x - means[i]) / sds[i]
            density = math.exp(-0.5 * z * z) / (sds[i] * 2.5066282746310002)
            if density < 1e-300:
                continue
            prod = density
            for j in range(n):
                if j != i:
                    prod *= cdfs[j]
            out[i] += w * prod
    total = sum(out)
    return [p / total for p in out]


# -- replay ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class MatchOutcome:
    """One finished match of a pool: its players side by side, each side's place (1-based)
    and, if known, the ``day`` it was played (days since any fixed epoch, fractions allowed):
    a player's sigma grows with the days since his last match (``Rater.gamma``). A match
    without a day lets no time pass. ``scores``, if known, are each side's points in the
    match, more is better (a game where fewer points are better is given negated): a rater
    that uses margins (``Rater.margin_weight``) weighs the match's games by them."""

    match_id: Hashable
    sides: tuple[tuple[Hashable, ...], ...]
    places: tuple[int, ...]
    day: float | None = None
    scores: tuple[float, ...] | None = None


class Outcome(Protocol):
    """What the replay reads of a match: ``MatchOutcome``'s ``match_id``, ``sides`` and
    ``places`` (and ``day`` and ``scores`` if it has them). The pool's own match rows carry more (when it was
    played) and come back as given in ``Replayed.matches``."""

    @property
    def match_id(self) -> Hashable: ...
    @property
    def sides(self) -> Sequence[Sequence[Hashable]]: ...
    @property
    def places(self) -> Sequence[int]: ...


#: The type of the matches given to a replay, handed back as given.
M = TypeVar("M", bound=Outcome)


class PlayerChange(NamedTuple):
    """One player's part in one rated match: history row material."""

    player_id: Hashable
    side: int
    place: int
    before: Rating
    after: Rating
    #: The chance the model gave his side, before the match, of the first place.
    win_probability: float


class RatedMatch(NamedTuple, Generic[M]):
    """One rated match of a ``replay``: the match given, and side by side, player by player,
    the ratings before and after it."""

    match: M
    before: list[list[Rating]]
    after: list[list[Rating]]
    #: Per side, the pre-match win probability (summing to 1).
    win_probabilities: list[float]

    @property
    def match_id(self) -> Hashable:
        return self.match.match_id

    @property
    def players(self) -> tuple[PlayerChange, ...]:
        """Each player's part, side by side: history row material."""
        m = self.match
        return tuple(
            PlayerChange(player, s, place, was, now, probability)
            for s, (side, place, probability, befores, afters) in enumerate(
                zip(m.sides, m.places, self.win_probabilities, self.before, self.after, strict=True)
            )
            for player, was, now in zip(side, befores, afters, strict=True)
        )


# -- the update, on arrays ------------------------------------------------------------
#
# Every match is rated by this one implementation, on numpy arrays, a "wave" of matches at a
# time. A match's wave is one more than the latest wave of its players' earlier matches, so
# the matches of a wave share no player and each comes after every earlier match of its
# players: rating a wave at once gives the floats of rating its matches one by one, in order.
# Each float of a match comes from that match's own numbers only: elementwise operations, and
# sums that add one side's (or one match's) terms in a fixed order (``np.bincount`` adds in
# input order). So a match gets the same floats whatever else is in its wave: alone
# (``Rater.rate``, an incremental update of a pool) or among thousands (a full recompute).


@functools.lru_cache(maxsize=16)
def _pair_templates(side_counts: tuple[int, ...]) -> tuple[np.ndarray, ...]:
    """For each n of ``side_counts`` (ascending), the pairs of sides of an n-side match,
    concatenated: ``games`` (i, q), i < q, in the order i then q (Bradley–Terry's one game per
    pair), and ``ordered`` (a, b), every a and b (Plackett–Luce's sums); with where each n's
    pairs start (indexed by n)."""
    games_start = np.zeros(side_counts[-1] + 1, np.int64)
    ordered_start = np.zeros(side_counts[-1] + 1, np.int64)
    games, ordered = [], []
    games_total = ordered_total = 0
    for n in side_counts:
        games_start[n], ordered_start[n] = games_total, ordered_total
        games.append(np.triu_indices(n, 1))  # row by row: i, then q
        ordered.append((np.repeat(np.arange(n), n), np.tile(np.arange(n), n)))
        games_total += n * (n - 1) // 2
        ordered_total += n * n
    games_i, games_q = (np.concatenate(column).astype(np.int64) for column in zip(*games, strict=True))
    ordered_a, ordered_b = (np.concatenate(column) for column in zip(*ordered, strict=True))
    return games_i, games_q, games_start, ordered_a, ordered_b, ordered_start


def _expand(counts: np.ndarray, template_start: np.ndarray, sides: np.ndarray, offsets: np.ndarray,
            first: np.ndarray, second: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # fmt: skip
    """Each match's pairs from its template (``counts`` of them, from ``template_start``),
    as side indices (its sides start at ``offsets``), match after match."""
    total = int(counts.sum())
    match = np.repeat(np.arange(len(counts)), counts)
    within = np.arange(total) - _starts(counts)[match]
    at = template_start[sides[match]] + within
    return first[at] + offsets[match], second[at] + offsets[match]


def _repeats(values: np.ndarray) -> bool:
    ordered = np.sort(values)
    return bool((ordered[1:] == ordered[:-1]).any())


def _starts(counts: np.ndarray) -> np.ndarray:
    starts: np.ndarray = np.cumsum(counts) - counts
    return starts


def _regroup(order: np.ndarray, counts: np.ndarray) -> np.ndarray:
    """For items grouped ``counts`` to a group, the items' indices with the groups taken in
    ``order``."""
    ordered = counts[order]
    return np.repeat(_starts(counts)[order] - _starts(ordered), ordered) + np.arange(int(counts.sum()))


class _Waves:
    """Matches laid out for the array update, sorted by wave (the given order within one).

    Built from the matches in the given order, flat: each slot's player index (a slot is a
    player in a match, side by side), each match's number of sides and of slots, each side's
    size, place and (optionally) points. ``order``: the given index of each match, in wave
    order; ``given_slot``: the given position of each slot. Then, in wave order: per match its
    number of sides and first side; per side its match, place, size and points; per slot its
    player and side; the games and ordered pairs of sides; ``bounds``: where each wave's
    matches, sides, slots, games and pairs start."""

    def __init__(self, players: np.ndarray, player_count: int, side_count: np.ndarray,
                 given_slot_count: np.ndarray, sizes: np.ndarray, places: np.ndarray,
                 scores: np.ndarray | None = None):  # fmt: skip
        latest = [0] * player_count
        waves = []
        flat = players.tolist()
        for start, end in zip(_starts(given_slot_count).tolist(), np.cumsum(given_slot_count).tolist(),
                              strict=True):  # fmt: skip
            match = flat[start:end]
            wave = max(map(latest.__getitem__, match)) + 1
            for p in match:
                latest[p] = wave
            waves.append(wave)
        wave_of = np.array(waves, np.int64)
        self.order = order = np.argsort(wave_of, kind="stable")
        side_at = _regroup(order, side_count)
        self.given_slot = _regroup(order, given_slot_count)
        self.players = players[self.given_slot]
        self.side_count = side_count = side_count[order]
        self.sizes, self.places = sizes[side_at], places[side_at]
        #: Per side, its points (NaN: the match has none); None when no match has any.
        self.scores = None if scores is None else scores[side_at]
        self.first_side = _starts(side_count)
        slot_count = given_slot_count[order]
        self.side_match = np.repeat(np.arange(len(order)), side_count)
        self.slot_side = np.repeat(np.arange(len(self.sizes)), self.sizes)
        games_i, games_q, games_start, ordered_a, ordered_b, ordered_start = _pair_templates(
            tuple(np.unique(side_count).tolist())
        )
        game_count, pair_count = side_count * (side_count - 1) // 2, side_count * side_count
        self.game_i, self.game_q = _expand(
            game_count, games_start, side_count, self.first_side, games_i, games_q
        )
        self.pair_a, self.pair_b = _expand(pair_count, ordered_start, side_count, self.first_side, ordered_a,
                                           ordered_b)  # fmt: skip
        # Where each wave starts (and the last ends), in matches, sides, slots, games and pairs.
        sorted_waves = wave_of[order]
        match_bounds = np.append(np.flatnonzero(np.diff(sorted_waves, prepend=0)), len(order))
        bounds = [match_bounds.tolist()] + [
            np.concatenate(([0], np.cumsum(counts)))[match_bounds].tolist()
            for counts in (side_count, slot_count, game_count, pair_count)
        ]
        #: Per wave: (m0, m1, d0, d1, s0, s1, g0, g1, p0, p1), each pair a start and an end.
        self.bounds = [
            tuple(x for starts in bounds for x in (starts[i], starts[i + 1]))
            for i in range(len(match_bounds) - 1)
        ]


def _plackett_luce_odds(
    rater: Rater,
    team_mu: np.ndarray,
    team_var: np.ndarray,
    side_match: np.ndarray,
    first_side: np.ndarray,
    side_count: np.ndarray,
) -> np.ndarray:
    """Each side's first-place probability under the rater's ``plackett-luce`` formula: the
    softmax of the sides' Σ mu / c, c from their Σ sigma² (``win_scale``)."""
    n = len(first_side)
    total = np.bincount(side_match, team_var + rater._beta2, n)
    if rater.win_scale is None:
        c = np.sqrt(total)
    else:
        factor = np.array(
            [(2 / k) ** rater.win_field_exponent if k else 0.0 for k in range(int(side_count.max()) + 1)]
        )
        c = rater.win_scale * np.sqrt(total / side_count) * factor[side_count]
    top = np.maximum.reduceat(team_mu, first_side)
    exps = np.exp((team_mu - top[side_match]) / c[side_match])
    odds: np.ndarray = exps / np.bincount(side_match, exps, n)[side_match]
    return odds


def _rate_waves(
    rater: Rater, w: _Waves, mu: np.ndarray, sigma: np.ndarray, elapsed: np.ndarray | None
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """Rate every match of ``w``, wave after wave; ``mu`` and ``sigma`` (per player index) are
    updated in place. ``elapsed``: per slot in wave order, the days since the player's last
    rated match (None: no time passes). Returns, per slot in wave order, mu and sigma before
    and after, and per side each side's pre-match win probability."""
    slots = len(w.players)
    mu_before, sigma_before = np.empty(slots), np.empty(slots)
    mu_after, sigma_after = np.empty(slots), np.empty(slots)
    odds = np.empty(len(w.sizes))
    tau2, beta2, kappa = rater._tau2, rater._beta2, rater.kappa
    two_beta2 = 2 * beta2
    bradley_terry = rater.model == "bradley-terry-full"
    plackett_luce_odds = rater.win_formula == "plackett-luce"
    # Bradley–Terry scores each game: 1 if i is placed ahead of q, ½ for a tie, else 0.
    score = np.where(w.places[w.game_q] > w.places[w.game_i], 1.0,
                     np.where(w.places[w.game_q] == w.places[w.game_i], 0.5, 0.0))  # fmt: skip
    game_weight = None
    if bradley_terry and rater.pair_weight_exponent:
        # Each game of an n-side match weighs (n − 1)^−x: scores and expectations alike.
        n = w.side_count[w.side_match[w.game_i]]
        game_weight = (n - 1.0) ** -rater.pair_weight_exponent
    margins = None
    if bradley_terry and w.scores is not None and rater.uses_margins:
        margins = _game_margins(rater, w, game_weight)
    growth = rater.gamma * rater.gamma if elapsed is not None else 0.0
    prior2 = rater.sigma * rater.sigma
    for m0, m1, d0, d1, s0, s1, g0, g1, p0, p1 in w.bounds:
        players = w.players[s0:s1]
        side = w.slot_side[s0:s1] - d0
        sides = d1 - d0
        m, s = mu[players], sigma[players]
        var = s * s
        if (
            growth and elapsed is not None
        ):  # the days away, capped at the prior (never shrinking a looser rating)
            var = np.minimum(var + growth * elapsed[s0:s1], np.maximum(var, prior2))
        v = var + tau2  # sigma grows by tau before the match (as openskill)
        team_mu = np.bincount(side, m, sides)
        team_var = np.bincount(side, var, sides)  # the prediction's
        team_s2 = np.bincount(side, v, sides)
        side_match = w.side_match[d0:d1] - m0
        if plackett_luce_odds:
            odds[d0:d1] = _plackett_luce_odds(rater, team_mu, team_var, side_match, w.first_side[m0:m1] - d0,
                                              w.side_count[m0:m1])  # fmt: skip
        else:
            odds[d0:d1] = _scalar_odds(rater, team_mu, team_var, w.sizes[d0:d1], w.side_count[m0:m1])
        if bradley_terry:
            weight = None if game_weight is None else game_weight[g0:g1]
            margin = None
            if margins is not None and margins.has[g0:g1].any():
                margin = _Margins(*(column[g0:g1] for column in margins))
            omega, delta = _bradley_terry_full(team_mu, team_s2, w.game_i[g0:g1] - d0, w.game_q[g0:g1] - d0,
                                               score[g0:g1], two_beta2, sides, weight, margin,
                                               rater)  # fmt: skip
        else:
            a, b = w.pair_a[p0:p1] - d0, w.pair_b[p0:p1] - d0
            omega, delta = _plackett_luce(team_mu, team_s2, w.places[d0:d1], side_match, a, b, beta2, m1 - m0)
        s2 = team_s2[side]
        share = v / s2  # 1 exactly for a player alone on his side
        new_mu = m + share * omega[side]
        new_sigma = np.sqrt(v * np.maximum(1 - share * delta[side], kappa))
        mu_before[s0:s1], sigma_before[s0:s1] = m, s
        mu_after[s0:s1], sigma_after[s0:s1] = new_mu, new_sigma
        mu[players], sigma[players] = new_mu, new_sigma
    return mu_before, sigma_before, mu_after, sigma_after, odds


class _Margins(NamedTuple):
    """Per game (i, q), in wave order, what the margins' terms need (``_game_margins``)."""

    #: i's margin over q in units of mu (κ·points / s; 0 when the places are equal).
    margin: np.ndarray
    #: The bounds of the mixed surprise: ≥ 0 when i was placed ahead, ≤ 0 when q was.
    low: np.ndarray
    high: np.ndarray
    #: The margin's share of the game (λ·(n − 1)^−x, times the pair's weight) and the
    #: logistic's (1 − λ·(n − 1)^−x).
    share: np.ndarray
    keep: np.ndarray
    #: Whether the game's match has points.
    has: np.ndarray


def _game_margins(rater: Rater, w: _Waves, game_weight: np.ndarray | None) -> _Margins:
    """``_Margins`` of every game, computed once for all the waves."""
    assert w.scores is not None and rater.point_scale is not None
    place_i, place_q = w.places[w.game_i], w.places[w.game_q]
    points = w.scores[w.game_i] - w.scores[w.game_q]
    has = ~np.isnan(points)
    margin = np.where(has & (place_i != place_q), points, 0.0) * (rater.margin_scale / rater.point_scale)
    # A side's own luck is in each of its n − 1 margins: they weigh (n − 1)^−x (``margin_pair_exponent``).
    n = w.side_count[w.side_match[w.game_i]]
    share = rater.margin_weight * (n - 1.0) ** -rater.margin_pair_exponent
    low = np.where(place_i < place_q, 0.0, -np.inf)
    high = np.where(place_i > place_q, 0.0, np.inf)
    return _Margins(margin, low, high, share if game_weight is None else share * game_weight, 1 - share, has)


def _bradley_terry_full(
    team_mu: np.ndarray,
    team_s2: np.ndarray,
    i: np.ndarray,
    q: np.ndarray,
    score: np.ndarray,
    two_beta2: float,
    sides: int,
    weight: np.ndarray | None = None,
    margins: _Margins | None = None,
    rater: Rater | None = None,
) -> tuple[np.ndarray, np.ndarray]:
    """Weng & Lin's Algorithm 1 (every pair of sides is one game): each side's Ω and Δ.
    Each game (i, q) adds to i's sums and then to q's, in the order of the games, as
    openskill's loops do; ``weight`` (per game, or None for 1) scales a game's terms.

    ``margins`` (``_game_margins``): a game with points mixes, by the margin's share
    λ·(n − 1)^−x, the logistic's terms with those of a normal likelihood of the margin d (in mu) given
    the two sides' skills, d ~ N(θ_i − θ_q, σ_i² + σ_q² + 2·margin_beta²): the surprise
    (d − (μ_i − μ_q)) / c_m² and the spread 1 / c_m² (damped by σ/c_m as the logistic's is).
    The mixed surprise is then held to the places' sign (≥ 0 for the side placed ahead, ≤ 0
    for the other): the margin says how much, never who won. A game without points keeps the
    logistic's terms, the same floats as without margins."""
    s2_i, s2_q = team_s2[i], team_s2[q]
    c = np.sqrt(s2_i + s2_q + two_beta2)
    p = 1 / (1 + np.exp((team_mu[q] - team_mu[i]) / c))  # i beats q
    surprise = score - p
    spread = p * (1 - p) / (c * c * c)
    if weight is not None:
        surprise = surprise * weight
        spread = spread * weight
    # Δ's term is γ·(σ²/c)/c·p(1 − p) with γ = σ/c: σ³/c³·p(1 − p).
    cubes = team_s2 * np.sqrt(team_s2)
    both = np.empty(2 * len(i), np.int64)
    both[0::2], both[1::2] = i, q
    terms = np.empty(2 * len(i))
    if margins is None:
        terms[0::2], terms[1::2] = s2_i / c * surprise, -(s2_q / c * surprise)
    else:
        assert rater is not None
        d, low, high, share, keep, has = margins
        c_m2 = s2_i + s2_q + 2 * rater.margin_beta * rater.margin_beta
        mixed = keep * surprise / c + share * (d - (team_mu[i] - team_mu[q])) / c_m2
        np.clip(mixed, low, high, out=mixed)
        mixed_spread = keep * spread + share / (c_m2 * np.sqrt(c_m2))
        if has.all():
            terms[0::2], terms[1::2] = s2_i * mixed, -(s2_q * mixed)
            spread = mixed_spread
        else:  # a game without points keeps the logistic's own floats
            terms[0::2] = np.where(has, s2_i * mixed, s2_i / c * surprise)
            terms[1::2] = np.where(has, -(s2_q * mixed), -(s2_q / c * surprise))
            spread = np.where(has, mixed_spread, spread)
    omega = np.bincount(both, terms, sides)
    terms[0::2], terms[1::2] = cubes[i] * spread, cubes[q] * spread
    return omega, np.bincount(both, terms, sides)


def _plackett_luce(
    team_mu: np.ndarray,
    team_s2: np.ndarray,
    places: np.ndarray,
    side_match: np.ndarray,
    a: np.ndarray,
    b: np.ndarray,
    beta2: float,
    matches: int,
) -> tuple[np.ndarray, np.ndarray]:
    """Weng & Lin's Algorithm 4: each side's Ω and Δ. Over the ordered pairs (a, b): C_q of
    the paper is the sum of the exps of the sides b placed at or below q = a, and A_q how
    many share q's place; side i = a sums, over the sides q = b placed at or above it, its
    share e_i / C_q of each."""
    sides = len(team_mu)
    c = np.sqrt(np.bincount(side_match, team_s2 + beta2, matches))[side_match]
    exps = np.exp(team_mu / c)
    below = places[b] >= places[a]
    sum_q = np.bincount(a[below], exps[b[below]], sides)
    ties = np.bincount(a, places[b] == places[a], sides)
    above = places[b] <= places[a]
    i, q = a[above], b[above]
    p = exps[i] / sum_q[q]
    share = ties[q]
    delta = np.bincount(i, p * (1 - p) / share, sides)
    omega = np.bincount(i, np.where(i == q, (1 - p) / share, -(p / share)), sides)
    omega *= team_s2 / c
    delta *= team_s2 / (c * c)
    delta *= np.sqrt(team_s2) / c
    return omega, delta


def _scalar_odds(
    rater: Rater, team_mu: np.ndarray, team_var: np.ndarray, sizes: np.ndarray, side_count: np.ndarray
) -> list[float]:
    """The ``pairwise`` and ``thurstone`` win formulas, match by match (back-test candidates)."""
    out: list[float] = []
    mus, s2s, ks = team_mu.tolist(), team_var.tolist(), sizes.tolist()
    start = 0
    for n in side_count.tolist():
        out.extend(rater._win(mus[start : start + n], s2s[start : start + n], ks[start : start + n]))
        start += n
    return out


def _days_away(
    players: np.ndarray, player_count: int, slot_day: np.ndarray, known_day: np.ndarray
) -> tuple[np.ndarray, np.ndarray]:
    """Per slot (given order), the days since the player's last match that had a day (0 when
    there is none, or this match has none, or it comes before that day); and per player index
    the day of his last match that had one, after these (NaN: none).

    Each player's slots, in order, follow his known day; NaN days (matches without one) are
    filled forward from the one before, so that they pass no time."""
    slots = len(players)
    # One run per player: his known day, then his slots' days in the given order.
    key = np.concatenate((np.arange(player_count), players))
    value = np.concatenate((known_day, slot_day))
    order = np.argsort(key, kind="stable")  # a player's known day first: it comes first
    value = value[order]
    head = np.zeros(len(order), bool)
    head[np.searchsorted(key[order], np.arange(player_count))] = True
    position = np.where(head | ~np.isnan(value), np.arange(len(order)), 0)
    filled = value[np.maximum.accumulate(position)]  # the last day known, within the player's run
    previous = np.empty_like(filled)
    previous[1:] = filled[:-1]
    previous[head] = np.nan
    gap = value - previous
    gap = np.where(np.isnan(gap), 0.0, np.maximum(gap, 0.0))
    elapsed = np.empty(slots)
    is_slot = order >= player_count
    elapsed[order[is_slot] - player_count] = gap[is_slot]
    ends = np.append(np.flatnonzero(head)[1:], len(order)) - 1
    return elapsed, filled[ends]


class Replayed(NamedTuple, Generic[M]):
    """A replay's numbers on arrays: one slot per player per match, matches in the given
    order, each match's players side by side (history row material, for many rows at once)."""

    matches: list[M]
    #: Per slot: the match's index in ``matches``, the player, his side (0-based) and its place.
    match_index: np.ndarray
    players: list[Hashable]
    side: np.ndarray
    place: np.ndarray
    mu_before: np.ndarray
    sigma_before: np.ndarray
    mu_after: np.ndarray
    sigma_after: np.ndarray
    #: The chance the model gave his side, before the match, of the first place.
    win_probability: np.ndarray


def _side_scores(matches: Sequence[Outcome], side_count: np.ndarray) -> np.ndarray | None:
    """Every side's points, flat in the given order (NaN for a match without ``scores``), or
    None when no match has any."""
    given = [getattr(m, "scores", None) for m in matches]
    if all(scores is None for scores in given):
        return None
    if None not in given:  # the fast path of a pool whose every match has points
        counts = np.fromiter(map(len, given), np.int64, len(given))  # type: ignore[arg-type]
        try:
            every = np.fromiter(itertools.chain.from_iterable(given), np.float64)  # type: ignore[arg-type]
        except (TypeError, ValueError):
            every = None  # below, the match that is wrong
        if every is not None and (counts == side_count).all() and np.isfinite(every).all():
            return every
    flat: list[float] = []
    for match, scores, n in zip(matches, given, side_count.tolist(), strict=True):
        if scores is None:
            flat.extend([math.nan] * n)
            continue
        try:
            values = [float(x) for x in scores]
        except (TypeError, ValueError):
            raise ValueError(f"match {match.match_id!r}: scores must be numbers") from None
        if len(values) != n or not all(map(math.isfinite, values)):
            raise ValueError(f"match {match.match_id!r}: scores must be {n} finite numbers, one per side")
        flat.extend(values)
    return np.array(flat)


def replay_arrays(
    rater: Rater,
    matches: Iterable[M],
    ratings: dict[Hashable, Rating] | None = None,
    last_day: dict[Hashable, float] | None = None,
) -> Replayed[M]:
    """Rate ``matches`` in the given order, all at once (``replay`` yields them one by one).

    ``ratings`` (player → Rating) is the pool's state before the first match, updated in
    place; players not in it start from ``rater.prior()``. ``last_day`` (player → the day of
    his last rated match that had one) is read and updated in place too: a player's sigma
    grows with the days from it to his next match's ``day`` (``Rater.aged``); a player not in
    it, or a match without a day, lets no time pass. A full recompute passes empty dicts; an
    incremental update passes the pool's current ones. Same inputs, same floats, however the
    matches are split between calls. A player may appear only once in a match (ValueError
    otherwise). Anything with the attributes ``match_id``, ``sides`` and ``places`` of
    ``MatchOutcome`` (and optionally ``day`` and ``scores``) is a match.
    """
    matches = list(matches)
    if ratings is None:
        ratings = {}
    if last_day is None:
        last_day = {}
    if not matches:
        nothing = np.zeros(0)
        return Replayed([], np.zeros(0, np.int64), [], np.zeros(0, np.int64), np.zeros(0, np.int64),
                        nothing, nothing, nothing, nothing, nothing)  # fmt: skip
    chain = itertools.chain.from_iterable
    sides_list = list(map(operator.attrgetter("sides"), matches))
    places_list = list(map(operator.attrgetter("places"), matches))
    side_count = np.fromiter(map(len, sides_list), np.int64, len(matches))
    sizes = np.fromiter(map(len, chain(sides_list)), np.int64)
    place_count = np.fromiter(map(len, places_list), np.int64, len(matches))
    places_flat = list(chain(places_list))
    players_flat = list(chain(chain(sides_list)))
    index = {p: i for i, p in enumerate(dict.fromkeys(players_flat))}
    players = np.fromiter(map(index.__getitem__, players_flat), np.int64, len(players_flat))
    try:
        places = (
            np.fromiter(places_flat, np.int64, len(places_flat))
            if set(map(type, places_flat)) <= _INT
            else None
        )
    except OverflowError:
        raise ValueError("a place must be an integer ≥ 1 below 2**63") from None
    slot_count = np.add.reduceat(sizes, _starts(side_count)) if len(sizes) else sizes
    match_of_slot = np.repeat(np.arange(len(matches)), slot_count) if len(sizes) else sizes
    # Every match good at once (else the first bad one says what is wrong, as Rater.rate would).
    if (
        places is None
        or side_count.min() < 2
        or sizes.min() < 1
        or (place_count != side_count).any()
        or places.min() < 1
        or _repeats(match_of_slot * len(index) + players)
    ):
        for match in matches:
            twice = [p for p, n in collections.Counter(chain(match.sides)).items() if n > 1]
            if twice:
                raise ValueError(f"match {match.match_id!r}: player {twice[0]!r} appears twice")
            _check_match(match.sides, match.places)
    assert places is not None  # a place that is not an int failed _check_match above
    ids = list(index)
    prior = rater.prior()
    known = [ratings.get(p, prior) for p in ids]
    mu = np.array([r.mu for r in known])
    sigma = np.array([r.sigma for r in known])
    w = _Waves(players, len(ids), side_count, slot_count, sizes, places,
               _side_scores(matches, side_count) if rater.uses_margins else None)  # fmt: skip
    days = [getattr(m, "day", None) for m in matches]
    if any(day is not None for day in days):
        try:
            match_day = np.array([math.nan if day is None else float(day) for day in days])
        except (TypeError, ValueError):
            raise ValueError("a match's day must be a number of days, or None") from None
        if not np.isfinite(match_day[~np.isnan(match_day)]).all():
            raise ValueError("a match's day must be a finite number of days, or None")
        known_day = np.array([last_day.get(p, math.nan) for p in ids], float)
        elapsed, final_day = _days_away(players, len(ids), match_day[match_of_slot], known_day)
        elapsed = elapsed[w.given_slot]  # in wave order
        last_day.update((ids[i], d) for i, d in enumerate(final_day.tolist()) if d == d)
    else:
        elapsed = None
    mu_before, sigma_before, mu_after, sigma_after, odds = _rate_waves(rater, w, mu, sigma, elapsed)
    ratings.update(zip(ids, map(Rating, mu.tolist(), sigma.tolist()), strict=True))
    at = w.given_slot  # back from wave order to the given order

    def given(values: np.ndarray) -> np.ndarray:
        out = np.empty_like(values)
        out[at] = values
        return out

    side = w.slot_side
    return Replayed(
        matches, match_of_slot, players_flat,
        given(side - w.first_side[w.side_match[side]]), given(w.places[side]),
        given(mu_before), given(sigma_before), given(mu_after), given(sigma_after), given(odds[side]),
    )  # fmt: skip


def replay(
    rater: Rater,
    matches: Iterable[M],
    ratings: dict[Hashable, Rating] | None = None,
    last_day: dict[Hashable, float] | None = None,
) -> Iterator[RatedMatch[M]]:
    """``replay_arrays``, match by match: each rated match with its players' ratings before
    and after it and its sides' pre-match win probabilities."""
    done = replay_arrays(rater, matches, ratings, last_day)
    columns = zip(done.side.tolist(), done.mu_before.tolist(), done.sigma_before.tolist(),
                  done.mu_after.tolist(), done.sigma_after.tolist(), done.win_probability.tolist(),
                  strict=True)  # fmt: skip
    for match in done.matches:
        before: list[list[Rating]] = [[] for _ in match.sides]
        after: list[list[Rating]] = [[] for _ in match.sides]
        odds = [0.0] * len(match.sides)
        for _ in range(sum(map(len, match.sides))):
            side, mu_before, sigma_before, mu_after, sigma_after, probability = next(columns)
            before[side].append(Rating(mu_before, sigma_before))
            after[side].append(Rating(mu_after, sigma_after))
            odds[side] = probability
        yield RatedMatch(match, before, after, odds)


#: The back-test's choice (docs/ratings.md, tuned on generator seeds 1 and 2, reported on
#: others); ``Rater.default()`` returns it.
DEFAULT = Rater(
    name="bradley-terry-full",
    model="bradley-terry-full",
    beta=8.0,
    tau=0.3,
    win_scale=1.6,
    win_field_exponent=0.15,
    z=1.0,
    provisional_matches=10,
    gamma=0.2,
    draw_share=0.043,
    # The points, where a match has them and the pool's point scale is known (``ratings_fit``):
    # chosen on the generator's tuning seeds with points (docs/ratings.md, "Points").
    margin_weight=1.0,
    margin_scale=20.0,
    margin_beta=12.0,
    margin_pair_exponent=1.0,
)
