"""The standings as first written, in fractions throughout: the oracle that the served module
(``scorekeeper/events/standings.py``, in whole units since bench_events) is checked against
by tests/events/test_standings.py. Not served."""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Hashable, Mapping, Sequence
from fractions import Fraction
from typing import Any

from scorekeeper.events.standings import (
    TIEBREAKS,
    Standing,
    StandingsError,
    Table,
    default_points,
    event_points,
)


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

    earned: dict[Any, list[tuple[Table, Fraction]]] = defaultdict(list)
    for table in tables:
        points = event_points(table.places, scale)
        for player in table.places:
            earned[player].append((table, points[player]))
    total = {
        p: sum((pts for _, pts in earned[p]), Fraction(0)) + bye_points * byes.get(p, 0) for p in players
    }

    def opponents(p) -> list[Any]:
        return [q for table, _ in earned[p] for q in table.places if q != p]

    def buchholz(p) -> Fraction:
        return sum((total.get(q, Fraction(0)) for q in opponents(p)), Fraction(0))

    def median_buchholz(p) -> Fraction:
        scores = sorted(total.get(q, Fraction(0)) for q in opponents(p))
        return sum(scores[1:-1], Fraction(0)) if len(scores) > 2 else Fraction(0)

    def result_against(table: Table, p, q) -> Fraction:
        mine, theirs = table.places[p], table.places[q]
        return Fraction(1) if mine < theirs else Fraction(1, 2) if mine == theirs else Fraction(0)

    def sonneborn_berger(p) -> Fraction:
        return sum(
            (
                total.get(q, Fraction(0)) * result_against(t, p, q)
                for t, _ in earned[p]
                for q in t.places
                if q != p
            ),
            Fraction(0),
        )

    def wins(p) -> int:
        return sum(1 for t, _ in earned[p] if sorted(t.places.values()).count(1) == 1 and t.places[p] == 1)

    def game_points(p) -> Fraction:
        return sum((Fraction(t.game_points.get(p, 0)) for t, _ in earned[p]), Fraction(0))

    def difference(p) -> Fraction:
        diff = Fraction(0)
        for t, _ in earned[p]:
            others = [Fraction(t.game_points.get(q, 0)) for q in t.places if q != p]
            if others:
                diff += Fraction(t.game_points.get(p, 0)) - sum(others, Fraction(0)) / len(others)
        return diff

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
    ranked, place = [], 1
    for run in rank(list(players), order):
        for p in run:
            ranked.append(Standing(player=p, rank=place, values=dict(values[p])))
        place += len(run)
    return ranked
