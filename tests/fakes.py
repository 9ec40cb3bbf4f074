"""``tally``: a tiny ruleset for testing the recording workflow apart from the real games.

Each hand gives each seat its ``points``; players ``declare`` them. The match ends when a
total reaches ``target``. It follows the engine's contract (spec 1.4–1.6) so the services
are exercised exactly as with a real game, and tests can craft mismatches at will.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from scorekeeper.rules import RULESETS, GameOptions, Ruleset
from scorekeeper.rules.fields import is_int
from scorekeeper.rules.options import option


@dataclass(frozen=True)
class TallyOptions(GameOptions):
    target: int = option(10, effect="scoring", help="total that ends the match", minimum=1)
    dealer_check: bool = option(True, effect="check", help="warn when the deal does not rotate")


class Tally(Ruleset):
    key = "tally"
    title = "Tally (test game)"
    seat_counts = (2, 3, 4)
    Options = TallyOptions
    options: TallyOptions
    record_schema = {"type": "object", "required": ["dealer", "points", "declared"]}

    def initial_state(self) -> dict[str, Any]:
        return {"hands": 0, "totals": [0] * self.seats, "last_dealer": None, "over": False}

    def state_problems(self, state: dict[str, Any]) -> list[str]:
        totals = state.get("totals")
        if not (isinstance(totals, list) and len(totals) == self.seats and all(map(is_int, totals))):
            return ["totals must be one integer per seat"]
        return []

    def _evaluate(self, state, record, ev, accept_declared) -> None:
        n = self.seats
        dealer = record.get("dealer")
        if not (is_int(dealer) and 0 <= dealer < n):
            ev.error("seat_out_of_range", "dealer", "dealer must be a seat")
        lists = {}
        for key in ("points", "declared"):
            value = record.get(key)
            if value is None:
                ev.error("field_missing", key, f"{key} is required")
            elif not (isinstance(value, list) and all(map(is_int, value))):
                ev.error("field_invalid", key, f"{key} must be a list of integers")
            elif len(value) != n:
                ev.error("array_length", key, f"{key} needs {n} entries")
            else:
                lists[key] = value
        if ev.errors:
            return
        points, declared = lists["points"], lists["declared"]
        ev.scores = list(points)
        for seat, p in enumerate(points):
            ev.line(seat, "points", p, f"{p} points")
            if declared[seat] != p:
                ev.mismatch(seat, declared[seat], p, f"seat {seat} scored {p}, not {declared[seat]}")
        last = state.get("last_dealer")
        if self.options.dealer_check and last is not None and dealer != (last + 1) % n:
            ev.warn("dealer_rotation", "dealer", "the deal passes to the left")
        counted = declared if accept_declared and ev.mismatches else points
        totals = [t + s for t, s in zip(state["totals"], counted, strict=True)]
        over = max(totals) >= self.options.target
        ev.state_after = {
            "hands": state.get("hands", 0) + 1,
            "totals": totals,
            "last_dealer": dealer,
            "over": over,
        }
        ev.match_over = over
        if over:
            ev.result = {
                "totals": totals,
                "placements": [1 + sum(o > t for o in totals) for t in totals],
                "winner": totals.index(max(totals)),
            }


def install() -> None:
    RULESETS.setdefault(Tally.key, Tally)


def hand(points: list[int], declared: list[int] | None = None, dealer: int = 0) -> dict[str, Any]:
    """A tally record; declared defaults to the true points."""
    return {"dealer": dealer, "points": points, "declared": list(points) if declared is None else declared}
