"""Rating compute speed beside openskill's own loop, and the back-test table (issue 11).

    .venv/bin/python benchmarks/bench_ratings.py [--matches 100000] [--players 2000]
        [--backtest-matches 12000] [--no-backtest]

Compute only, in memory (the end-to-end recompute from PostgreSQL is the service's
benchmark). The same synthetic matches (2–6 sides, some 2v2, ties) are rated by:

- openskill's ``PlackettLuce().rate()`` in a loop over a dict of its ratings;
- our ``Rater.rate`` in the same loop (the same floats to 1e-9 on untied matches), each call
  a replay of one match on arrays;
- our ``replay``, which also yields every player's before/after and the pre-match win
  probabilities, match by match;
- our ``replay_arrays``, the same as arrays for all the matches at once (what a full
  recompute calls, and writes as history).

Each is timed without tracemalloc (the best of ``--rounds`` runs, the five taking turns:
the machine is shared), then run again under tracemalloc for its peak memory.
``replay_arrays`` is timed twice, on the places alone and with the matches' points weighed
(the margin-aware rater of a fitted pool). Then the back-test table on the generator, on the
report seeds (tuning used others), the results-only default beside the margin-aware one, and
the newcomers' study (``ratings.backtest.newcomers``), with ``margin-fitted``: the default
reading the points with the parameters ``ratings_fit``'s fit chooses on the league's tuning
seeds (``ratings.backtest.league_fit``, printed first); ``--ceiling`` adds the
oracle-assisted filter, the bound of ``ratings.backtest.ceiling``; ``--no-speed`` leaves the
speed out (the back-test alone).
"""

from __future__ import annotations

import argparse
import math
import sys
import time
import tracemalloc
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from ratings import backtest as bt
from ratings.engine import MatchOutcome, Rater, replay, replay_arrays
from ratings.fitting import point_scale

#: The seeds the table in docs/ratings.md is reported on (tuning used seeds 1 and 2).
REPORT_SEEDS = bt.REPORT_SEEDS


def openskill_loop(matches, model="PlackettLuce"):
    """openskill's ``PlackettLuce().rate()`` over a dict of its ratings, match by match."""
    predictor = bt.OpenSkillPredictor(model)
    for m in matches:
        predictor.update(m)


def openskill_bt_loop(matches):
    """The same with openskill's ``BradleyTerryFull``, the default's update."""
    openskill_loop(matches, "BradleyTerryFull")


def rate_loop(matches):
    """Our ``Rater.rate`` in the same loop (no days: a match at a time knows none)."""
    rater = Rater.default()
    prior = rater.prior()
    ratings = {}
    for m in matches:
        after = rater.rate([[ratings.get(p, prior) for p in side] for side in m.sides], m.places)
        for side, new in zip(m.sides, after, strict=True):
            ratings.update(zip(side, new, strict=True))


def replay_all(matches):
    ratings = {}
    outcomes = (MatchOutcome(i, m.sides, m.places, m.day) for i, m in enumerate(matches))
    for _ in replay(Rater.default(), outcomes, ratings, {}):
        pass
    return ratings


def replay_arrays_all(matches):
    """What a full recompute calls: every match at once, its history rows as arrays."""
    ratings = {}
    outcomes = [MatchOutcome(i, m.sides, m.places, m.day) for i, m in enumerate(matches)]
    replay_arrays(Rater.default(), outcomes, ratings, {})
    return ratings


def replay_arrays_with_points(matches):
    """The same with the matches' points weighed (the margin-aware rater of a fitted pool)."""
    ratings = {}
    rater = Rater.default().with_parameters({"point_scale": point_scale(matches)})
    outcomes = [MatchOutcome(i, m.sides, m.places, m.day, m.scores) for i, m in enumerate(matches)]
    replay_arrays(rater, outcomes, ratings, {})
    return ratings


def measure(workloads, matches, rounds):
    """Per workload, the best of ``rounds`` timed runs, the workloads taking turns in each
    round (the machine is shared, its load comes and goes), then a tracemalloc run each."""
    seconds = dict.fromkeys(workloads, math.inf)
    for _ in range(rounds):
        for name, fn in workloads.items():
            start = time.perf_counter()
            fn(matches)
            seconds[name] = min(seconds[name], time.perf_counter() - start)
    peaks = {}
    for name, fn in workloads.items():
        tracemalloc.start()
        fn(matches)
        peaks[name] = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    return seconds, peaks


def speed(args) -> None:
    """The compute's speed table."""
    g = bt.Generator(players=args.players, matches=args.matches)
    matches = bt.synthetic(2026, g, with_oracle=False)
    tied = sum(len(set(m.places)) < len(m.places) for m in matches)
    print(f"{len(matches)} synthetic matches, {args.players} players, 2–6 sides, {tied} with a tie")
    print()
    print("| compute (in memory)                 | matches/s | × openskill PL | peak memory (tracemalloc) |")
    print("|-------------------------------------|-----------|----------------|---------------------------|")
    workloads = {
        "openskill PlackettLuce.rate()": openskill_loop,
        "openskill BradleyTerryFull.rate()": openskill_bt_loop,
        "ours: Rater.rate (BT-full)": rate_loop,
        "ours: replay (with history)": replay_all,
        "ours: replay_arrays (with history)": replay_arrays_all,
        "ours: replay_arrays, points weighed": replay_arrays_with_points,
    }
    seconds, peaks = measure(workloads, matches, args.rounds)
    base = len(matches) / seconds["openskill PlackettLuce.rate()"]
    for name in workloads:
        rate = len(matches) / seconds[name]
        print(f"| {name:<35} | {rate:9.0f} | {rate / base:13.2f}× | {peaks[name] / 2**20:22.1f} MB |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=2000)
    parser.add_argument("--backtest-matches", type=int, default=12_000)
    parser.add_argument("--rounds", type=int, default=3, help="timed runs of each, the best counts")
    parser.add_argument("--no-backtest", action="store_true")
    parser.add_argument("--no-speed", action="store_true", help="the back-test alone")
    parser.add_argument("--refits", action="store_true", help="also the dynamic batch refit (slow)")
    parser.add_argument(
        "--ceiling",
        action="store_true",
        help="also the oracle-assisted filter, the bound of ratings.backtest.ceiling (slow)",
    )
    parser.add_argument(
        "--one-on-one", action="store_true",
        help="the back-test on the one-on-one league (8,000 matches of two players) instead",
    )  # fmt: skip
    args = parser.parse_args()

    if not args.no_speed:
        speed(args)
    if args.no_backtest:
        return
    league = (bt.Generator(matches=8000, sizes=(1, 0, 0, 0, 0), teams_share=0.0) if args.one_on_one
              else bt.Generator(matches=args.backtest_matches))  # fmt: skip
    found = bt.league_fit(league)
    fitted = bt.fitted_parameters(found)
    print()
    print(
        f"the league fitted as ratings_fit does, on its tuning seeds {bt.TUNING_SEEDS} as one pool "
        f"({found.matches} matches, the Brier score of the later {found.scored}): {found.reason}"
    )
    for params, brier in found.briers:
        print(f"  {params or 'the defaults'}: {brier:.5f}")
    print(f"margin-fitted: {fitted}")
    for seed in REPORT_SEEDS:
        print()
        print(f"back-test, generator seed {seed}:")
        data = bt.synthetic(seed, league)
        scale = point_scale(data)
        field = bt.candidates(include_refits=args.refits, include_ceiling=args.ceiling, point_scale=scale,
                              fitted=fitted)  # fmt: skip
        print(bt.format_report(bt.run(data, field)))
        print()
        print(f"the displayed rating mu − z·sigma of the default, generator seed {seed}:")
        print(bt.format_display_study(bt.display_study(data, Rater.default())))
        print()
        print(f"newcomers, generator seed {seed} (players with 40 matches or more; medians):")
        margins = Rater.default().with_parameters({"point_scale": scale})
        tuned = Rater.default().with_parameters({**fitted, "point_scale": scale})
        models = [("default (results only)", Rater.default(), False), ("margin-aware", margins, True),
                  ("margin-fitted", tuned, True)]  # fmt: skip
        print(bt.format_newcomer_study(bt.newcomer_study(data, models)))


if __name__ == "__main__":
    main()
