"""The match state of the piquet family (spec 2.7): deals played, totals per seat, the last
dealer and whether the match is over; its checks and its advance by one deal.
"""

from __future__ import annotations

from typing import Any

from ..fields import is_int
from ..messages import Message
from ..result import Evaluation
from ..ruleset import state_key_problems


def initial_piquet_state(seats: int) -> dict[str, Any]:
    return {"deals_played": 0, "totals": [0] * seats, "last_dealer": None, "over": False}


def piquet_state_problems(state: dict[str, Any], seats: int, extra: tuple[str, ...] = ()) -> list[Message]:
    """Why ``state`` is not a piquet-family state (spec 2.7); ``extra`` keys are the caller's."""
    keys = ("deals_played", "totals", "last_dealer", "over", *extra)
    problems = state_key_problems(state, keys, closed=True)
    if problems:
        return problems
    deals = state["deals_played"]
    if not is_int(deals) or deals < 0:
        problems.append(Message("state.count_negative", {"key": "deals_played"}))
    totals = state["totals"]
    if not isinstance(totals, list) or len(totals) != seats or not all(is_int(t) for t in totals):
        problems.append(Message("state.integers", {"key": "totals", "n": seats}))
    last = state["last_dealer"]
    if last is not None and not (is_int(last) and 0 <= last < seats):
        problems.append(Message("state.seat_or_null", {"key": "last_dealer", "last": seats - 1}))
    if not isinstance(state["over"], bool):
        problems.append(Message("state.over_boolean"))
    return problems


def advance_state(
    state: dict[str, Any], dealer: int, scores: list[int], over: bool = False
) -> dict[str, Any]:
    """The state after a deal: deals + 1, totals += scores, last dealer (spec 2.7)."""
    after = dict(state)
    after["deals_played"] = state["deals_played"] + 1
    after["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
    after["last_dealer"] = dealer
    after["over"] = over
    return after


def warn_dealer_rotation(ev: Evaluation, state: dict[str, Any], dealer: int) -> None:
    if state.get("last_dealer") is not None and state["last_dealer"] == dealer:
        ev.warn("dealer_rotation", "dealer", "piquet.dealer_rotation", seat=dealer)
