"""Who meets whom in a round of an event: plain Python, no Django (the events' services call it).

- ``berger(count)``: a round robin's rounds, FIDE's Berger tables (Handbook C.05, Annex 1);
- ``swiss(...)``: a Swiss round for two sides, by maximum-weight matching (networkx);
- ``tables(...)``: a round for tables of three seats or more (the multi-table Swiss), players
  grouped by standings, repeat meetings kept down, with their count and a lower bound.

Players are ids (any hashable, sortable value); the standings order is the order of the list
given. The refusals are ``PairingError`` (a ``ValueError``) with a stable ``code``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

import networkx as nx

from .errors import PairingError

#: Who sits out in a round with an odd count of players (a ``Pairing``'s ``bye``).
BYE = None


def met_counts(meetings: Sequence[Sequence[Hashable]]) -> Counter[frozenset]:
    """How often each two players met: one count per pair of every table (a table of four is
    six meetings)."""
    counts: Counter[frozenset] = Counter()
    for table in meetings:
        for a, b in itertools.combinations(table, 2):
            counts[frozenset((a, b))] += 1
    return counts


# -- round robin --------------------------------------------------------------------------
def berger(count: int) -> list[list[tuple[int, int]]]:
    """The rounds of a round robin of ``count`` players numbered 1..count, each a list of
    (first seat, second seat) pairs, table 1 first: FIDE's Berger tables. An odd count plays as
    the next even one, whose highest number is the bye.

    The construction (C.05, Annex 1): round 1 pairs 1–n, 2–(n−1) … (n/2)–(n/2+1); each next
    round moves every number but n on by n/2 in the cycle 1..n−1, table for table, and n, always
    at table 1, changes sides every round (second in the odd rounds, first in the even ones).
    """
    if count < 2:
        raise PairingError(f"a round robin needs two players at least, not {count}", code="too_few_entrants")
    n = count + count % 2
    half = n // 2
    tables = [(i, n + 1 - i) for i in range(1, half + 1)]
    rounds = []
    for number in range(1, n):
        rounds.append([(b, a) if i == 0 and number % 2 == 0 else (a, b) for i, (a, b) in enumerate(tables)])
        tables = [(_moved(a, half, n), _moved(b, half, n)) for a, b in tables]
    return rounds


def _moved(number: int, by: int, n: int) -> int:
    return number if number == n else (number - 1 + by) % (n - 1) + 1


# -- Swiss, two sides --------------------------------------------------------------------
@dataclass(frozen=True)
class Pairing:
    """A round of a Swiss for two sides: its pairs (higher-placed player first) and who has the
    bye (``BYE`` when the count is even); ``repeats``: pairs that met before."""

    pairs: tuple[tuple[Any, Any], ...]
    bye: Any
    repeats: int
    second_byes: int


def swiss(
    players: Sequence[Hashable],
    points: Mapping[Any, Fraction | float | int],
    *,
    met: Mapping[frozenset, int] | None = None,
    byes: Mapping[Any, int] | None = None,
) -> Pairing:
    """The next round of a Swiss: ``players`` in standings order (best first), their event
    points, how often each two met (``met_counts``) and the byes each had.

    What the round minimises, each before the next (the weights of a maximum-weight perfect
    matching, in integers so that networkx computes exactly): second byes; repeat meetings;
    the bye's points above the lowest score (it goes to the lowest group that can take it, as
    FIDE's Swiss systems give it); the points between partners (squared: two pairs a point
    apart before one two points apart); then, within a score group, the top half meets the
    bottom half (1–5, 2–6 … of eight) and the bye goes to the group's lowest-placed.
    """
    order = list(players)
    if len(set(order)) != len(order):
        raise PairingError("a player is listed twice", code="entrant_twice")
    if len(order) < 2:
        raise PairingError("a Swiss round needs two players at least", code="too_few_entrants")
    met = met or {}
    byes = byes or {}
    doubled = {p: int(2 * Fraction(points.get(p, 0)).limit_denominator(1000)) for p in order}
    group = _score_groups(order, doubled)
    lowest = min(doubled.values())
    slots: list[Any] = [*order, _ByeSlot()] if len(order) % 2 else order

    def levels(a, b) -> tuple[int, int, int, int, int]:
        if isinstance(b, _ByeSlot) or isinstance(a, _ByeSlot):
            p = a if isinstance(b, _ByeSlot) else b
            place, size = group[p]
            return (min(byes.get(p, 0), 1), 0, doubled[p] - lowest, 0, size - 1 - place)
        (place_a, size), (place_b, _) = group[a], group[b]
        fold = abs(abs(place_a - place_b) - size // 2) if doubled[a] == doubled[b] else 0
        return (0, met.get(frozenset((a, b)), 0), 0, (doubled[a] - doubled[b]) ** 2, fold)

    edges = {(a, b): levels(a, b) for a, b in itertools.combinations(slots, 2)}
    cost = _lexicographic(list(edges.values()), len(slots) // 2)
    graph: nx.Graph[Any] = nx.Graph()
    for (a, b), penalties_of_edge in edges.items():
        graph.add_edge(a, b, weight=cost.top - cost(penalties_of_edge))
    matching = nx.max_weight_matching(graph, maxcardinality=True)
    rank = {p: i for i, p in enumerate(order)}
    pairs, bye = [], BYE
    for a, b in matching:
        if isinstance(a, _ByeSlot) or isinstance(b, _ByeSlot):
            bye = b if isinstance(a, _ByeSlot) else a
            continue
        pairs.append((a, b) if rank[a] < rank[b] else (b, a))
    pairs.sort(key=lambda pair: rank[pair[0]])
    return Pairing(
        pairs=tuple(pairs),
        bye=bye,
        repeats=sum(met.get(frozenset(pair), 0) > 0 for pair in pairs),
        second_byes=int(bye is not BYE and byes.get(bye, 0) > 0),
    )


class _ByeSlot:
    """The empty seat opposite the player who has the bye."""

    def __repr__(self) -> str:
        return "BYE"


class _Lexicographic:
    """Integer weights that rank tuples of penalties lexicographically over a sum of ``edges``
    of them: each level's unit exceeds the most the lower levels can add up to."""

    def __init__(self, units: list[int], top: int):
        self.units = units
        self.top = top

    def __call__(self, penalties: tuple[int, ...]) -> int:
        return sum(unit * p for unit, p in zip(self.units, penalties, strict=True))


def _lexicographic(all_penalties: list[tuple[int, ...]], edges: int) -> _Lexicographic:
    levels = len(all_penalties[0])
    units = [0] * levels
    unit = 1
    for level in reversed(range(levels)):
        units[level] = unit
        unit *= edges * max(p[level] for p in all_penalties) + 1
    return _Lexicographic(units, top=unit)


def _score_groups(order: list, doubled: Mapping) -> dict[Any, tuple[int, int]]:
    """Each player's place within his score group and the group's size."""
    sizes = Counter(doubled[p] for p in order)
    seen: Counter = Counter()
    places = {}
    for p in order:
        places[p] = (seen[doubled[p]], sizes[doubled[p]])
        seen[doubled[p]] += 1
    return places


def penalties(pairing: Pairing, points: Mapping, met: Mapping, byes: Mapping) -> tuple[int, int, int, int]:
    """A Swiss round's (second byes, repeat meetings, the bye's half points above the lowest
    score, the sum of the partners' squared gaps in half points): what ``swiss`` minimises
    first, for a check against any other pairing."""
    doubled = {p: int(2 * Fraction(v).limit_denominator(1000)) for p, v in points.items()}
    gaps = sum((doubled[a] - doubled[b]) ** 2 for a, b in pairing.pairs)
    bye_above = doubled[pairing.bye] - min(doubled.values()) if pairing.bye is not BYE else 0
    repeats = sum(met.get(frozenset(pair), 0) for pair in pairing.pairs)
    return (int(pairing.bye is not BYE and byes.get(pairing.bye, 0) > 0), repeats, bye_above, gaps)


# -- tables of three seats or more ---------------------------------------------------------
@dataclass(frozen=True)
class Seating:
    """A round for tables of ``seats``: each table's players in standings order; the meetings
    that repeat an earlier one (a pair of a table that sat together before) and the least any
    seating of this round could have (``lower_bound``)."""

    tables: tuple[tuple[Any, ...], ...]
    repeats: int
    lower_bound: int


def tables(
    players: Sequence[Hashable],
    seats: int,
    *,
    met: Mapping[frozenset, int] | None = None,
    sizes: Sequence[int] | None = None,
) -> Seating:
    """Seat ``players`` (standings order, best first) at tables of ``seats``: the best
    ``seats`` together, the next ones at the next table … then players traded between tables,
    a trade kept when it lowers the repeat meetings (and, with those equal, the spread of
    standings places at the tables), until no trade does. ``sizes`` gives each table's seats
    when the count does not divide (``table_sizes``).

    The lower bound: a player with ``u`` earlier tablemates among the others of the round meets
    at least ``seats − 1 − (n − 1 − u)`` of them again; every repeat is counted by two players.
    """
    order = list(players)
    if len(set(order)) != len(order):
        raise PairingError("a player is listed twice", code="entrant_twice")
    sizes = list(sizes) if sizes is not None else table_sizes(len(order), seats, seats)
    if sum(sizes) != len(order) or min(sizes, default=0) < 2:
        raise PairingError(f"{len(order)} players do not fill tables of {sizes}", code="tables_do_not_fit")
    met = met or {}
    groups: list[list[Any]] = []
    start = 0
    for size in sizes:
        groups.append(order[start : start + size])
        start += size
    rank = {p: i for i, p in enumerate(order)}

    def repeats_at(group: list) -> int:
        return sum(met.get(frozenset(pair), 0) > 0 for pair in itertools.combinations(group, 2))

    def spread(group: list) -> int:
        places = [rank[p] for p in group]
        return max(places) - min(places)

    def cost(group: list) -> tuple[int, int]:
        return (repeats_at(group), spread(group))

    improved = True
    while improved:
        improved = False
        for i, j in itertools.combinations(range(len(groups)), 2):
            for x, y in itertools.product(range(len(groups[i])), range(len(groups[j]))):
                before = _add(cost(groups[i]), cost(groups[j]))
                gi = [*groups[i][:x], groups[j][y], *groups[i][x + 1 :]]
                gj = [*groups[j][:y], groups[i][x], *groups[j][y + 1 :]]
                if _add(cost(gi), cost(gj)) < before:
                    groups[i], groups[j] = gi, gj
                    improved = True
    seated = tuple(tuple(sorted(g, key=rank.__getitem__)) for g in groups)
    seated = tuple(sorted(seated, key=lambda table: rank[table[0]]))
    return Seating(
        tables=seated,
        repeats=sum(repeats_at(list(t)) for t in seated),
        # The smallest table: every player has at least its other seats as tablemates.
        lower_bound=repeat_lower_bound(order, min(sizes), met),
    )


def _add(a: tuple[int, int], b: tuple[int, int]) -> tuple[int, int]:
    return (a[0] + b[0], a[1] + b[1])


def repeat_lower_bound(players: Sequence[Hashable], seats: int, met: Mapping[frozenset, int]) -> int:
    """The fewest repeat meetings any seating of ``players`` at tables of ``seats`` can have."""
    players = list(players)
    forced = 0
    for p in players:
        fresh = sum(1 for q in players if q != p and not met.get(frozenset((p, q)), 0))
        forced += max(0, seats - 1 - fresh)
    return math.ceil(forced / 2)


def table_sizes(count: int, most: int, least: int) -> list[int]:
    """How ``count`` players fill tables of ``least``..``most`` seats: the fewest tables, their
    sizes as even as can be, the larger first (cul, Bank and Bastard seat 3 to 6)."""
    if count < least:
        raise PairingError(f"{count} players cannot fill a table of {least}", code="too_few_entrants")
    needed = math.ceil(count / most)
    base, extra = divmod(count, needed)
    if base < least:
        raise PairingError(
            f"{count} players do not fill tables of {least} to {most}", code="tables_do_not_fit"
        )
    return [base + 1] * extra + [base] * (needed - extra)
