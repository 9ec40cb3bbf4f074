"""Hands validated per second by the rules engine, per game, on one core.

    .venv/bin/python benchmarks/bench_rules.py [--seconds 1.0]

The workload is every valid hand of the conformance cases (match cases are
replayed so each hand is scored on its real state before it). Piquet two-hand
records are split into declaration level and card level (records carrying
``dealt``/``hands``/``trick_cards``). Each workload is run in a loop for the
given time; the figures are printed side by side with the target.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import find_ruleset

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "conformance"
CARD_FIELDS = ("dealt", "hands", "trick_cards")
TARGET_DECLARATION_LEVEL = 20_000


def workloads() -> dict[str, list[tuple[object, object, dict]]]:
    """Map a workload name to its (ruleset, state, record) triples, all valid hands."""
    out: dict[str, list] = {}
    for path in sorted(DATA.glob("*.json")):
        for case in json.loads(path.read_text(encoding="utf-8")):
            game = find_ruleset(case["game"]).create("classic", case.get("options") or {}, case["seats"])
            if "hands" in case:
                pairs, state = [], case["state"]
                for record in case["hands"]:
                    pairs.append((state, record))
                    state = game.evaluate(state, record).state_after
            elif case["expect"]["valid"]:
                pairs = [(case["state"], case["hand"])]
            else:
                continue
            for state, record in pairs:
                level = "card level" if any(k in record for k in CARD_FIELDS) else "declarations"
                name = f"{case['game']} ({level})" if case["game"].startswith("piquet") else case["game"]
                out.setdefault(name, []).append((game, state, record))
    return out


def measure(items: list, seconds: float) -> float:
    """Hands per second over repeated passes of ``items``."""
    for game, state, record in items:  # warm-up, and a sanity check of the workload
        assert game.evaluate(state, record).valid, record
    done, start = 0, time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        for game, state, record in items:
            game.evaluate(state, record)
        done += len(items)
    return done / elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="time per workload")
    args = parser.parse_args()
    print(f"{'workload':38} {'hands':>6} {'hands/s':>10}")
    for name, items in sorted(workloads().items()):
        rate = measure(items, args.seconds)
        note = ""
        if name.endswith("(declarations)"):
            note = "ok" if rate >= TARGET_DECLARATION_LEVEL else "BELOW TARGET"
            note = f"  target ≥ {TARGET_DECLARATION_LEVEL:,}: {note}"
        print(f"{name:38} {len(items):>6} {rate:>10,.0f}{note}")


if __name__ == "__main__":
    main()
