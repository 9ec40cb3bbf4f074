"""Benchmark: the pairing of an event's round (scorekeeper/events/pairing.py), in memory.

    .venv/bin/python benchmarks/bench_pairing.py [--entrants 200] [--tables-of 4 --seated 120] [--runs 5]

Not a test and not run in CI. Times, in one process, a Swiss round of ``--entrants`` players
(two sides, networkx's maximum-weight matching) and the seating of ``--seated`` players at
tables of ``--tables-of``, each after ``--history`` earlier rounds played with random
results (a fixed seed), so that score groups and repeat meetings weigh on the choice as they
do late in an event. Prints each run's seconds and the median, beside the targets of issue 34
(a 200-entrant Swiss round < 1 s; 120 entrants at tables of 4 < 2 s), and the round's
repeat meetings (with the lower bound for the tables).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections import Counter, defaultdict
from fractions import Fraction
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.events import pairing


def swiss_history(entrants: int, rounds: int, rng: random.Random):
    players = list(range(entrants))
    points: dict[int, Fraction] = defaultdict(Fraction)
    byes: Counter = Counter()
    played: list[tuple] = []
    for _ in range(rounds):
        order = sorted(players, key=lambda p: (-points[p], p))
        chosen = pairing.swiss(order, points, met=pairing.met_counts(played), byes=byes)
        if chosen.bye is not pairing.BYE:
            byes[chosen.bye] += 1
            points[chosen.bye] += 1
        for a, b in chosen.pairs:
            outcome = rng.random()
            if outcome < 0.1:
                points[a] += Fraction(1, 2)
                points[b] += Fraction(1, 2)
            else:
                points[a if outcome < 0.55 else b] += 1
        played.extend(chosen.pairs)
    order = sorted(players, key=lambda p: (-points[p], p))
    return order, dict(points), pairing.met_counts(played), dict(byes)


def tables_history(seated: int, seats: int, rounds: int, rng: random.Random):
    players = list(range(seated))
    played: list[list[int]] = []
    for _ in range(rounds):
        shuffled = players[:]
        rng.shuffle(shuffled)
        played.extend(shuffled[i : i + seats] for i in range(0, seated, seats))
    return players, pairing.met_counts(played)


def timed(call, runs: int) -> tuple[list[float], object]:
    times, result = [], None
    for _ in range(runs):
        started = time.perf_counter()
        result = call()
        times.append(time.perf_counter() - started)
    return times, result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--entrants", type=int, default=200)
    parser.add_argument("--seated", type=int, default=120)
    parser.add_argument("--tables-of", type=int, default=4)
    parser.add_argument("--history", type=int, default=6, help="earlier rounds (default 6)")
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args()
    rng = random.Random(34)

    order, points, met, byes = swiss_history(args.entrants, args.history, rng)
    times, chosen = timed(lambda: pairing.swiss(order, points, met=met, byes=byes), args.runs)
    print(
        f"Swiss round of {args.entrants} after {args.history} rounds: "
        f"{', '.join(f'{t:.3f}' for t in times)} s, median {statistics.median(times):.3f} s "
        f"(target < 1 s); repeats {chosen.repeats}, second byes {chosen.second_byes}"  # type: ignore[attr-defined]
    )
    players, met = tables_history(args.seated, args.tables_of, args.history, rng)
    times, seating = timed(lambda: pairing.tables(players, args.tables_of, met=met), args.runs)
    print(
        f"{args.seated} at tables of {args.tables_of} after {args.history} rounds: "
        f"{', '.join(f'{t:.3f}' for t in times)} s, median {statistics.median(times):.3f} s "
        f"(target < 2 s); repeats {seating.repeats}, lower bound {seating.lower_bound}"  # type: ignore[attr-defined]
    )


if __name__ == "__main__":
    main()
