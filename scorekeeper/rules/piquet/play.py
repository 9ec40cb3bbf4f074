"""Piquet play input (spec 2.3): the trick winners, the two-hand summary form of the play and
the winner sequence a summary stands for, the fields a variant does not know, and the error
for a play that runs out before the deal ends.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Any

from ..fields import MISSING, Fields, describe, is_int, join
from ..result import Evaluation
from .cards import CARD_LEVEL_FIELDS
from .declarations import Declarations
from .reckoning import ReckoningParams, reckon

#: Record fields only the two-hand variants know (spec 2.3, 2.6; voleur and normand reject them).
TWO_HAND_ONLY_FIELDS = ("play", *CARD_LEVEL_FIELDS)


@dataclass(frozen=True, slots=True)
class PlaySummary:
    """The summary form of the play (two-hand variants)."""

    tricks_won: tuple[int, int]
    play_points: tuple[int, int]
    last_trick: int
    pique: bool


def reject_fields(record: dict[str, Any], f: Fields, names: tuple[str, ...] = TWO_HAND_ONLY_FIELDS) -> bool:
    """``field_invalid`` for each present field the variant does not know; True if none."""
    ok = True
    for name in names:
        if name in record:
            f.error("field_invalid", name, "piquet.not_in_record", name=name)
            ok = False
    return ok


_INT_ONLY = frozenset((int,))


def parse_tricks(
    record: dict[str, Any],
    f: Fields,
    tricks_in_deal: int,
    *,
    finished: frozenset[int] = frozenset(),
    short_allowed: bool = True,
) -> Any:
    """The list of trick winners, ``None`` when absent, ``MISSING`` after an error.

    More winners than the deal has is ``tricks_count`` here; so is fewer when ``short_allowed``
    is false (no target stop). Otherwise a short list is judged after reckoning, because a
    target stop (spec 2.5) makes it legal (:func:`report_short_play`).
    """
    raw = record.get("tricks")
    if raw is None:
        return None
    if not isinstance(raw, list):
        f.error("field_invalid", "tricks", "piquet.tricks_not_list", value=describe(raw))
        return MISSING
    if not raw and not short_allowed:
        f.error("play_missing", "tricks", "piquet.play_empty")
        return MISSING
    if len(raw) > tricks_in_deal or (not short_allowed and len(raw) < tricks_in_deal):
        f.error("tricks_count", "tricks", "piquet.tricks_count", tricks=tricks_in_deal, count=len(raw))
        return MISSING
    # Hot path: every entry an int seat (type() also keeps out booleans, spec 1.7).
    if not finished and {type(w) for w in raw} <= _INT_ONLY and all(0 <= w < f.seats for w in raw):
        return tuple(raw)
    ok = True
    for i, w in enumerate(raw):
        path = join("tricks", i)
        if not (is_int(w) and 0 <= w < f.seats):
            f.error(
                "seat_out_of_range", path, "field.not_a_seat", path=path, last=f.seats - 1, value=describe(w)
            )
            ok = False
        elif w in finished:
            f.error("seat_finished", path, "piquet.seat_finished", seat=w)
            ok = False
    return tuple(raw) if ok else MISSING


def parse_summary(record: dict[str, Any], f: Fields) -> Any:
    """The ``play`` summary (spec 2.3); ``None`` when absent, ``MISSING`` after an error."""
    raw = record.get("play")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        f.error("field_invalid", "play", "piquet.play_not_object", value=describe(raw))
        return MISSING
    ok = True
    pairs = {}
    for key in ("tricks_won", "play_points"):
        value = raw.get(key)
        path = join("play", key)
        if value is None:
            f.error("field_missing", path, "field.required", path=path)
            ok = False
            continue
        items = f.per_seat(value, path)
        if items is None:
            ok = False
            continue
        for i, v in enumerate(items):
            if f.integer(v, join(path, i), minimum=0) is None:
                ok = False
        pairs[key] = tuple(items)
    # JSON values, checked below: a seat and a boolean once ``ok`` holds.
    last: Any = raw.get("last_trick")
    if last is None:
        f.error("field_missing", "play.last_trick", "field.required", path="play.last_trick")
        ok = False
    elif f.seat(last, "play.last_trick") is None:
        ok = False
    pique: Any = raw.get("pique")
    if pique is None:
        f.error("field_missing", "play.pique", "field.required", path="play.pique")
        ok = False
    elif f.boolean(pique, "play.pique") is None:
        ok = False
    if not ok:
        return MISSING
    return PlaySummary(pairs["tricks_won"], pairs["play_points"], last, pique)


def report_short_play(ev: Evaluation, winners: tuple[int, ...] | None, tricks_in_deal: int) -> None:
    """The play ran out before the deal ended and no target stop happened (spec 2.3)."""
    if not winners:
        ev.error("play_missing", "tricks", "piquet.play_required")
    else:
        ev.error("tricks_count", "tricks", "piquet.tricks_count", tricks=tricks_in_deal, count=len(winners))


def play_schema() -> dict[str, Any]:
    """JSON Schema of the ``play`` summary (spec 2.3), for the catalog."""
    pair = {"type": "array", "items": {"type": "integer", "minimum": 0}, "minItems": 2, "maxItems": 2}
    return {
        "type": "object",
        "required": ["tricks_won", "play_points", "last_trick", "pique"],
        "properties": {
            "tricks_won": pair,
            "play_points": pair,
            "last_trick": {"type": "integer", "minimum": 0, "maximum": 1},
            "pique": {"type": "boolean"},
        },
    }


# -- summary feasibility (spec 2.3) ------------------------------------------------------------------


_Pair = tuple[int, int]
#: A walk's state after a trick: (leader, tricks won, play points, pique side or None).
_WalkState = tuple[int, _Pair, _Pair, int | None]
#: A summary a deal can end with: (tricks won, play points, last trick's winner, pique).
_Outcome = tuple[_Pair, _Pair, int, bool]


@lru_cache(maxsize=4096)
def _summary_outcomes(
    params: ReckoningParams, leader: int, hand_points: tuple[int, int], bonus_done: bool
) -> dict[_Outcome, tuple[int, ...]]:
    """Every outcome of the 4 096 winner sequences of a two-hand deal, as a dict
    ``(tricks_won, play_points, last_trick, pique) -> one winner sequence``.

    A breadth-first walk over the states (leader, tricks won, play points, pique side); equal
    states merge, so a few hundred states per trick replace the 4 096 sequences.
    """
    Q = params.pique_at

    def check(h: _Pair, play: _Pair, pq: int | None) -> int | None:
        if pq is not None or bonus_done:
            return pq
        for s in (0, 1):
            if h[s] + play[s] >= Q and h[1 - s] + play[1 - s] == 0:
                return s
        return None

    def bump(play: _Pair, pq: int | None, side: int, value: int) -> tuple[_Pair, int | None]:
        play = (play[0] + value, play[1]) if side == 0 else (play[0], play[1] + value)
        new_pq = check(hand_points, play, pq)
        return play, new_pq

    start_pq = check(hand_points, (0, 0), None)
    states: dict[_WalkState, tuple[int, ...]] = {(leader, (0, 0), (0, 0), start_pq): ()}
    last = params.tricks - 1
    for t in range(params.tricks):
        nxt: dict[_WalkState, tuple[int, ...]] = {}
        for (ld, tw, play, pq), seq in states.items():
            for w in (0, 1):
                p, q = play, pq
                if params.lead_capture:
                    p, q = bump(p, q, ld, 1)
                    extra = (1 if w != ld else 0) + (1 if t == last else 0)
                    if extra:
                        p, q = bump(p, q, w, extra)
                else:
                    p, q = bump(p, q, w, 1)
                ntw = (tw[0] + 1, tw[1]) if w == 0 else (tw[0], tw[1] + 1)
                key = (w, ntw, p, q)
                if key not in nxt:
                    nxt[key] = (*seq, w)
        states = nxt
    out: dict[_Outcome, tuple[int, ...]] = {}
    for (ld, tw, play, pq), seq in states.items():
        out.setdefault((tw, play, ld, pq is not None), seq)
    return out


def summary_winners(
    params: ReckoningParams, first_leader: int, declarations: Declarations, summary: PlaySummary
) -> tuple[int, ...] | None:
    """A winner sequence producing exactly ``summary`` (spec 2.3), or None if none does."""
    hand = reckon(params, first_leader=first_leader, declarations=declarations, winners=())
    hp = hand.hand_points
    bonus_done = hand.repique is not None
    outcomes = _summary_outcomes(params, first_leader, (hp[0], hp[1]), bonus_done)
    key = (summary.tricks_won, summary.play_points, summary.last_trick, summary.pique)
    return outcomes.get(key)
