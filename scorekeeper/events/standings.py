"""An event's standings with the tie-breaks a director chooses: plain Python, no Django.

Each match of the event is a ``Table``: its players' places (1 first, equal places for a tie)
and their game points (the match totals). ``event_points`` turns places into the event's
points by a table of points by place; ``standings`` ranks the players by the tie-breaks in the
order given. Every tie-break is defined, with a worked example, in docs/events.md.
"""

from __future__ import annotations

import math
import random
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .errors import StandingsError

#: The tie-breaks a director may order, by key.
TIEBREAKS = (
    "points",  # event points
    "wins",  # matches finished first, alone
    "game_points",  # the match totals, summed
    "difference",  # his total minus the mean of his table's others, summed
    "head_to_head",  # among the players still tied: the tied he finished ahead of, minus behind
    "buchholz",  # his opponents' event points, summed
    "median_buchholz",  # the same without the highest and the lowest opponent
    "sonneborn_berger",  # each opponent's event points, times his result against him
    "rating",  # the rating at the start (given)
    "lots",  # a drawing of lots, seeded: the same seed, the same order
)


def default_points(seats: int) -> tuple[Fraction, ...]:
    """Points by place (first, second …) when a director gives none: 1 and 0 for two sides (a
    draw shares them: ½ each); for tables of more seats, one less a place down to none."""
    if seats == 2:
        return (Fraction(1), Fraction(0))
    return tuple(Fraction(seats - 1 - place) for place in range(seats))


@dataclass(frozen=True)
class Table:
    """One finished match of the event: its players' places and game points."""

    places: Mapping[Hashable, int]
    game_points: Mapping[Hashable, float | int | Fraction] = field(default_factory=dict)


def event_points(places: Mapping[Hashable, int], by_place: Sequence[Fraction]) -> dict[Any, Fraction]:
    """Each player's event points: ``by_place[p - 1]`` for place ``p``; players sharing places
    share their points equally (two tied first of two: ½ each of 1 + 0)."""
    ordered = sorted(places.values())
    out = {}
    for player, place in places.items():
        span = ordered.count(place)
        share = [
            by_place[i] if i < len(by_place) else Fraction(0) for i in range(place - 1, place - 1 + span)
        ]
        out[player] = Fraction(sum(share)) / span
    return out


@dataclass(frozen=True)
class Standing:
    player: Any
    rank: int  # equal ranks for players no tie-break parts
    values: dict[str, Any]


def standings(
    players: Sequence[Hashable],
    tables: Sequence[Table],
    *,
    by_place: Sequence[Fraction] | None = None,
    tiebreaks: Sequence[str] = ("points", "buchholz", "sonneborn_berger"),
    byes: Mapping[Hashable, int] | None = None,
    bye_points: Fraction = Fraction(1),
    ratings: Mapping[Hashable, float] | None = None,
    seed: int = 0,
) -> list[Standing]:
    """The players ranked by ``tiebreaks`` in order (each a key of ``TIEBREAKS``; "points" is
    always first, added if left out). ``byes``: the byes each had, worth ``bye_points`` each
    and nothing to the tie-breaks that read opponents."""
    unknown = [key for key in tiebreaks if key not in TIEBREAKS]
    if unknown:
        raise StandingsError(f"unknown tie-break {unknown[0]!r}", code="tiebreak_unknown")
    order = ["points", *(key for key in dict.fromkeys(tiebreaks) if key != "points")]
    byes = byes or {}
    ratings = ratings or {}
    seats = max((len(t.places) for t in tables), default=2)
    scale = tuple(by_place) if by_place is not None else default_points(seats)

    # The arithmetic is in whole units of 1/unit of a point (every place's share, a bye, a
    # shared place's split, a half for a drawn meeting in Sonneborn-Berger are whole numbers of
    # them): exact as fractions are, without making tens of thousands of them (bench_events).
    unit = math.lcm(*(Fraction(v).denominator for v in (*scale, bye_points))) * math.lcm(*range(1, seats + 1))
    shares: dict[tuple, dict[Any, int]] = {}
    earned: dict[Any, list[tuple[Table, int]]] = defaultdict(list)
    for table in tables:
        pattern = tuple(table.places.values())
        if pattern not in shares:
            points = event_points(dict(enumerate(pattern)), scale)
            shares[pattern] = {i: int(points[i] * unit) for i in points}
        share = shares[pattern]
        for i, player in enumerate(table.places):
            earned[player].append((table, share[i]))
    bye_units = int(bye_points * unit)
    total = {p: sum(pts for _, pts in earned[p]) + bye_units * byes.get(p, 0) for p in players}

    def opponents(p) -> list[Any]:
        return [q for table, _ in earned[p] for q in table.places if q != p]

    def buchholz(p) -> int:
        return sum(total.get(q, 0) for q in opponents(p))

    def median_buchholz(p) -> int:
        scores = sorted(total.get(q, 0) for q in opponents(p))
        return sum(scores[1:-1]) if len(scores) > 2 else 0

    def sonneborn_berger(p) -> int:  # in half units: a win counts 2, a drawn meeting 1
        out = 0
        for t, _ in earned[p]:
            mine = t.places[p]
            for q, theirs in t.places.items():
                if q != p and mine <= theirs:
                    out += total.get(q, 0) * (2 if mine < theirs else 1)
        return out

    def wins(p) -> int:
        return sum(1 for t, _ in earned[p] if t.places[p] == 1 and list(t.places.values()).count(1) == 1)

    def game_points(p) -> int | Fraction:
        got = [t.game_points.get(p, 0) for t, _ in earned[p]]
        if all(type(g) is int for g in got):
            return sum(int(g) for g in got)
        return sum((Fraction(g) for g in got), Fraction(0))

    others_unit = math.lcm(*range(1, seats))

    def difference(p) -> Fraction:
        # His total less the mean of his table's others: kept in whole numbers of 1/(others)
        # while the totals are whole, as they are in every game but cul's match rating.
        whole, exact = 0, Fraction(0)
        for t, _ in earned[p]:
            others = [t.game_points.get(q, 0) for q in t.places if q != p]
            if not others:
                continue
            mine = t.game_points.get(p, 0)
            if type(mine) is int and all(type(o) is int for o in others):
                whole += (mine * len(others) - sum(int(o) for o in others)) * (others_unit // len(others))
            else:
                exact += Fraction(mine) - sum((Fraction(o) for o in others), Fraction(0)) / len(others)
        return Fraction(whole, others_unit) + exact

    lots = list(players)
    random.Random(seed).shuffle(lots)
    drawn = {p: i for i, p in enumerate(lots)}
    plain = {
        "points": lambda p: total[p],
        "wins": wins,
        "game_points": game_points,
        "difference": difference,
        "buchholz": buchholz,
        "median_buchholz": median_buchholz,
        "sonneborn_berger": sonneborn_berger,
        "rating": lambda p: ratings.get(p, float("-inf")),
        "lots": lambda p: -drawn[p],  # the first drawn ranks first
    }
    values: dict[Any, dict[str, Any]] = {p: {} for p in players}

    def head_to_head(group: list) -> dict[Any, int]:
        tied = set(group)
        score = dict.fromkeys(group, 0)
        for p in group:
            for t, _ in earned[p]:
                for q in t.places:
                    if q != p and q in tied:
                        score[p] += (t.places[p] < t.places[q]) - (t.places[p] > t.places[q])
        return score

    def rank(group: list, keys: list[str]) -> list[list]:
        """``group`` split into its ordered runs of players no key parts."""
        if not keys or len(group) == 1:
            return [group]
        key, rest = keys[0], keys[1:]
        if key == "head_to_head":  # the one column that depends on who is still tied
            h2h = head_to_head(group)
            for p in group:
                values[p][key] = h2h[p]
        runs: dict[Any, list] = defaultdict(list)
        for p in group:
            runs[values[p][key]].append(p)
        out = []
        for value in sorted(runs, reverse=True):
            out.extend(rank(runs[value], rest))
        return out

    for p in players:  # every column for every player, for the report (head-to-head: where tied)
        for key in order:
            values[p][key] = None if key == "head_to_head" else plain[key](p)
    # Ranked on the whole units; shown in points.
    per_unit = {"points": unit, "buchholz": unit, "median_buchholz": unit, "sonneborn_berger": 2 * unit}
    ranked, place = [], 1
    for run in rank(list(players), order):
        for p in run:
            shown = {
                key: Fraction(value, per_unit[key])
                if key in per_unit
                else Fraction(value)
                if key in ("game_points", "difference")
                else value
                for key, value in values[p].items()
            }
            ranked.append(Standing(player=p, rank=place, values=shown))
        place += len(run)
    return ranked
