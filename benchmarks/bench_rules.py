"""Hands validated per second by the rules engine, per game, on one core.

    .venv/bin/python benchmarks/bench_rules.py [--seconds 1.0]

Two sources of valid hands:

- every valid hand of the conformance cases (match cases are replayed so each
  hand is scored on its real state before it); piquet two-hand records are
  split into declaration level and card level (``dealt``/``hands``/``trick_cards``);
- random real piquet deals (shuffle, deal 12/12/8, legal exchange and play, with
  their maximal declarations), scored once from the cards and once from the same
  declarations with only the trick winners, so both levels run on the same deals.

Each workload is run in a loop for the given time; the figures are printed side
by side with the target.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scorekeeper.rules import Ruleset, find_ruleset
from tests.rules.deals import random_real_deal  # test code: the engine itself never deals

DATA = Path(__file__).resolve().parent.parent / "tests" / "data" / "conformance"
CARD_FIELDS = ("dealt", "hands", "trick_cards")
TARGET_DECLARATION_LEVEL = 20_000


#: A workload: (ruleset, state, record) triples, each a valid hand.
Workload = list[tuple[Ruleset, dict[str, Any] | None, dict[str, Any]]]


def workloads() -> dict[str, Workload]:
    """Map a workload name to its (ruleset, state, record) triples, all valid hands."""
    out: dict[str, Workload] = {}
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


def real_deals(count: int, seed: int = 2026) -> dict[str, Workload]:
    """``count`` random real piquet deals at card level and at declaration level."""
    rng = random.Random(seed)
    game = find_ruleset("piquet").create("classic", seats=2)
    cards: Workload = []
    declarations: Workload = []
    for i in range(count):
        record = random_real_deal(rng, dealer=i % 2)
        record["declared"] = game.evaluate(None, {**record, "declared": [0, 0]}).scores
        cards.append((game, None, record))
        declarations.append((game, None, {k: v for k, v in record.items() if k not in CARD_FIELDS}))
    return {
        "piquet random deals (card level)": cards,
        "piquet random deals (declarations)": declarations,
    }


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
    parser.add_argument("--deals", type=int, default=300, help="random real piquet deals")
    args = parser.parse_args()
    print(f"{'workload':42} {'hands':>6} {'hands/s':>10}")
    for name, items in sorted((workloads() | real_deals(args.deals)).items()):
        rate = measure(items, args.seconds)
        note = ""
        if name.endswith("(declarations)"):
            note = "ok" if rate >= TARGET_DECLARATION_LEVEL else "BELOW TARGET"
            note = f"  target ≥ {TARGET_DECLARATION_LEVEL:,}: {note}"
        print(f"{name:42} {len(items):>6} {rate:>10,.0f}{note}")


if __name__ == "__main__":
    main()
