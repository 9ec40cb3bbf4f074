"""The skill rating engine: Weng–Lin Bayesian updates, in plain Python (no Django).

One ``Rater`` is one rating model with its parameters. The Django side keeps, per pool (one
pool per game key), a dict player → ``Rating`` and calls ``Rater.rate`` once per finished
match, or ``replay`` to rebuild a pool from scratch; both give the same floats, because
``replay`` is nothing but ``rate`` in the pool's order.

The updates are Algorithms 1 (full-pairing Bradley–Terry, the default) and 4 (Plackett–Luce)
of Weng & Lin (2011), "A Bayesian approximation method for online ranking", exactly as
openskill's ``BradleyTerryFull.rate`` and ``PlackettLuce.rate`` compute them (tests/ratings
compare them to 1e-9 on thousands of random untied matches), written lean because a full
recompute of a pool must be at least as fast as openskill's own loop. One deliberate
difference: tied sides. openskill means to give tied sides the same change of mu, but its
averaging step works on aliased objects and does nothing; here it is done, so that a draw
between equals leaves them equal (docs/ratings.md, "Ties").

Which model, which parameters and which displayed rating were chosen by the back-test of
``ratings.backtest``; the table is in docs/ratings.md.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from statistics import NormalDist
from typing import NamedTuple

__all__ = [
    "MODELS",
    "WIN_FORMULAS",
    "MatchOutcome",
    "PlayerChange",
    "RatedMatch",
    "Rater",
    "Rating",
    "replay",
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


def _check_match(sides: Sequence[Sequence[Rating]], places: Sequence[int] | None = None) -> None:
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
    _beta2: float = field(init=False, repr=False, compare=False)
    _tau2: float = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        for key in ("sigma", "beta"):
            if not getattr(self, key) > 0:
                raise ValueError(f"{key} must be > 0, not {getattr(self, key)!r}")
        if self.win_scale is not None and not self.win_scale > 0:
            raise ValueError(f"win_scale must be > 0 or None, not {self.win_scale!r}")
        for key in ("tau", "kappa", "z"):
            if not getattr(self, key) >= 0:
                raise ValueError(f"{key} must be ≥ 0, not {getattr(self, key)!r}")
        if self.model not in MODELS:
            raise ValueError(f"model must be one of {', '.join(MODELS)}, not {self.model!r}")
        if self.win_formula not in WIN_FORMULAS:
            raise ValueError(
                f"win_formula must be one of {', '.join(WIN_FORMULAS)}, not {self.win_formula!r}"
            )
        object.__setattr__(self, "_beta2", self.beta * self.beta)
        object.__setattr__(self, "_tau2", self.tau * self.tau)

    @classmethod
    def default(cls) -> Rater:
        """The model and parameters chosen by the back-test (docs/ratings.md)."""
        return DEFAULT

    def prior(self) -> Rating:
        """An unknown player's rating."""
        return Rating(self.mu, self.sigma)

    # -- the update ----------------------------------------------------------------
    def rate(self, sides: Sequence[Sequence[Rating]], places: Sequence[int]) -> list[list[Rating]]:
        """New ratings, side by side, player by player.

        ``places`` are 1-based, one per side, lower is better; equal places are ties, and
        tied sides get the same change of their mean mu (a draw between equals leaves them
        equal). Raises ValueError on a malformed match.
        """
        _check_match(sides, places)
        return self._rate(sides, places)

    def _rate(self, sides: Sequence[Sequence[Rating]], places: Sequence[int]) -> list[list[Rating]]:
        return self._step(sides, places, False)[0]

    def _step(
        self, sides: Sequence[Sequence[Rating]], places: Sequence[int], odds: bool
    ) -> tuple[list[list[Rating]], list[float] | None]:
        """One match: the new ratings and, with ``odds``, each side's win probability before
        it (``_win``), from one pass over the sides."""
        tau2, kappa = self._tau2, self.kappa
        n = len(sides)
        team_mu = []  # Σ mu
        team_var = []  # Σ sigma² (the prediction's)
        team_s2 = []  # Σ (sigma² + tau²): sigma grows by tau before the match (as openskill)
        shares = []  # a team's players' sigma² + tau² (None for one player)
        for side in sides:
            if len(side) == 1:
                r = side[0]
                s = r.sigma * r.sigma
                team_mu.append(r.mu)
                team_var.append(s)
                team_s2.append(s + tau2)
                shares.append(None)
                continue
            row = [r.sigma * r.sigma + tau2 for r in side]
            m = s = 0.0
            for r in side:
                m += r.mu
                s += r.sigma * r.sigma
            v = 0.0
            for x in row:
                v += x
            team_mu.append(m)
            team_var.append(s)
            team_s2.append(v)
            shares.append(row)
        probabilities = self._win(sides, (team_mu, team_var)) if odds else None
        if self.model == "plackett-luce":
            omegas, deltas = self._plackett_luce(team_mu, team_s2, places)
        else:
            omegas, deltas = self._bradley_terry_full(team_mu, team_s2, places)
        out: list[list[Rating]] = []
        sqrt = math.sqrt
        for side, row, s2, omega, delta in zip(sides, shares, team_s2, omegas, deltas, strict=True):
            if row is None:  # share = v / s2 = 1 exactly
                shrink = 1 - delta
                out.append([Rating(side[0].mu + omega, sqrt(s2 * (shrink if shrink > kappa else kappa)))])
                continue
            side_out = []
            for r, v in zip(side, row, strict=True):
                share = v / s2
                side_out.append(Rating(r.mu + share * omega, sqrt(v * max(1 - share * delta, kappa))))
            out.append(side_out)
        if len(set(places)) < n:
            out = _equalise_ties(sides, places, out)
        return out, probabilities

    def _plackett_luce(
        self, team_mu: list[float], team_s2: list[float], places: Sequence[int]
    ) -> tuple[list[float], list[float]]:
        """Weng & Lin's Algorithm 4: each side's Ω and Δ."""
        n = len(team_mu)
        beta2 = self._beta2
        total = 0.0
        for v in team_s2:
            total += v + beta2
        c = math.sqrt(total)
        exps = [math.exp(m / c) for m in team_mu]
        # sum_q[q]: the exp of every side placed at or below q (C_q of the paper);
        # a[q]: how many sides share q's place.
        sum_q = [0.0] * n
        a = [0] * n
        for q in range(n):
            pq = places[q]
            s = 0.0
            k = 0
            for i in range(n):
                pi = places[i]
                if pi >= pq:
                    s += exps[i]
                    if pi == pq:
                        k += 1
            sum_q[q] = s
            a[q] = k
        omegas, deltas = [], []
        for i in range(n):
            pi = places[i]
            ei = exps[i]
            omega = 0.0
            delta = 0.0
            for q in range(n):
                if places[q] <= pi:
                    p = ei / sum_q[q]
                    delta += p * (1 - p) / a[q]
                    if q == i:
                        omega += (1 - p) / a[q]
                    else:
                        omega -= p / a[q]
            s2 = team_s2[i]
            omega *= s2 / c
            delta *= s2 / (c * c)
            delta *= math.sqrt(s2) / c
            omegas.append(omega)
            deltas.append(delta)
        return omegas, deltas

    def _bradley_terry_full(
        self, team_mu: list[float], team_s2: list[float], places: Sequence[int]
    ) -> tuple[list[float], list[float]]:
        """Weng & Lin's Algorithm 1 (every pair of sides is one game): each side's Ω and Δ."""
        n = len(team_mu)
        two_beta2 = 2 * self._beta2
        omegas = [0.0] * n
        deltas = [0.0] * n
        # Δ's term is γ·(σ²/c)/c·p(1 − p) with γ = σ/c: σ³/c³·p(1 − p).
        cubes = [v * math.sqrt(v) for v in team_s2]
        sqrt, exp = math.sqrt, math.exp
        # Each pair once: c, and p (i beats q) with 1 − p for q beating i.
        for i in range(n - 1):
            mu_i, s2_i, place_i, cube_i = team_mu[i], team_s2[i], places[i], cubes[i]
            omega_i, delta_i = omegas[i], deltas[i]
            for q in range(i + 1, n):
                s2_q = team_s2[q]
                c = sqrt(s2_i + s2_q + two_beta2)
                p = 1 / (1 + exp((team_mu[q] - mu_i) / c))
                place_q = places[q]
                surprise = (1.0 if place_q > place_i else 0.5 if place_q == place_i else 0.0) - p
                spread = p * (1 - p) / (c * c * c)
                omega_i += s2_i / c * surprise
                omegas[q] -= s2_q / c * surprise
                delta_i += cube_i * spread
                deltas[q] += cubes[q] * spread
            omegas[i], deltas[i] = omega_i, delta_i
        return omegas, deltas

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
        return self.win_scale * math.sqrt(total / n) * (2 / n) ** self.win_field_exponent

    def win_probabilities(self, sides: Sequence[Sequence[Rating]]) -> list[float]:
        """Each side's probability of the first place, summing to 1 (``win_formula``)."""
        _check_match(sides)
        return self._win(sides)

    def _win(
        self, sides: Sequence[Sequence[Rating]], sums: tuple[list[float], list[float]] | None = None
    ) -> list[float]:
        """``sums``: each side's Σ mu and Σ sigma², if already known (``_c``)."""
        if sums is None:
            mus, s2s, c = self._c(sides)
        else:
            mus, s2s = sums
            c = self._scale(s2s)
        if self.win_formula == "plackett-luce":
            top = max(mus)
            exp = math.exp
            exps = [exp((m - top) / c) for m in mus]
            total = sum(exps)
            return [e / total for e in exps]
        if self.win_formula == "thurstone":
            scale = 1.0 if self.win_scale is None else self.win_scale
            sds = [scale * math.sqrt(s + len(side) * self._beta2) for s, side in zip(s2s, sides, strict=True)]
            return first_place_probabilities(mus, sds)
        n = len(sides)
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
        """For two sides, the chance they tie (openskill's ``predict_draw``); else ``None``."""
        _check_match(sides)
        if len(sides) != 2:
            return None
        mus, s2s, _ = self._c(sides)
        players = len(sides[0]) + len(sides[1])
        margin = math.sqrt(players) * self.beta * _NORMAL.inv_cdf((1 + 1 / players) / 2)
        spread = math.sqrt(2 * self._beta2 + s2s[0] + s2s[1])
        diff = mus[0] - mus[1]
        return _NORMAL.cdf((margin - diff) / spread) - _NORMAL.cdf((-diff - margin) / spread)

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


def _equalise_ties(
    sides: Sequence[Sequence[Rating]], places: Sequence[int], out: list[list[Rating]]
) -> list[list[Rating]]:
    """Give tied sides the mean of their changes of mu (what openskill's averaging means).

    A side's change is the mean change of its players; each player of a tied side is shifted
    by the group's mean side change minus his side's, so that players within a side keep
    their relative shares and tied sides move alike. Sigmas are left as computed.
    """
    groups: dict[int, list[int]] = {}
    for i, place in enumerate(places):
        groups.setdefault(place, []).append(i)
    for members in groups.values():
        if len(members) < 2:
            continue
        changes = {
            i: sum(new.mu - old.mu for new, old in zip(out[i], sides[i], strict=True)) / len(sides[i])
            for i in members
        }
        mean = sum(changes.values()) / len(members)
        for i in members:
            shift = mean - changes[i]
            out[i] = [Rating(r.mu + shift, r.sigma) for r in out[i]]
    return out


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
    """One finished match of a pool: its players side by side, and each side's place (1-based)."""

    match_id: Hashable
    sides: tuple[tuple[Hashable, ...], ...]
    places: tuple[int, ...]


class PlayerChange(NamedTuple):
    """One player's part in one rated match: history row material."""

    player_id: Hashable
    side: int
    place: int
    before: Rating
    after: Rating
    #: The chance the model gave his side, before the match, of the first place.
    win_probability: float


class RatedMatch(NamedTuple):
    """One rated match of a ``replay``: the match given, and side by side, player by player,
    the ratings before and after it."""

    match: MatchOutcome
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


def replay(
    rater: Rater,
    matches: Iterable[MatchOutcome],
    ratings: dict[Hashable, Rating] | None = None,
) -> Iterator[RatedMatch]:
    """Rate ``matches`` in the given order, yielding each as it is rated.

    ``ratings`` (player → Rating) is the pool's state before the first match, updated in
    place; players not in it start from ``rater.prior()``. A full recompute passes an empty
    dict; an incremental update passes the current ratings. Same inputs, same floats.
    A player may appear only once in a match (ValueError otherwise). Anything with the
    attributes ``match_id``, ``sides`` and ``places`` of ``MatchOutcome`` is a match.
    """
    if ratings is None:
        ratings = {}
    prior = rater.prior()
    get = ratings.get
    step = rater._step
    chain = itertools.chain.from_iterable
    for match in matches:
        sides, places = match.sides, match.places
        before = []
        for side in sides:
            before.append([get(side[0], prior)] if len(side) == 1 else [get(p, prior) for p in side])
        if len(set(chain(sides))) != sum(map(len, sides)):
            players = list(chain(sides))
            twice = next(p for p in players if players.count(p) > 1)
            raise ValueError(f"match {match.match_id!r}: player {twice!r} appears twice")
        _check_match(before, places)
        after, probabilities = step(before, places, True)
        for side, now in zip(sides, after, strict=True):
            if len(side) == 1:
                ratings[side[0]] = now[0]
            else:
                for player, r in zip(side, now, strict=True):
                    ratings[player] = r
        yield RatedMatch(match, before, after, probabilities)


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
)
