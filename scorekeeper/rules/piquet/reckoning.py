"""The reckoning-order engine of the piquet family (spec 2.4, 2.5) and its explanations.

:class:`ReckoningParams` is one row of the table of spec 2.4 (thresholds, bonuses, tricks, sides);
:func:`reckon` scores one deal step by step in the order of Cavendish's Law 67, with the target
stop of spec 2.5. The :class:`Reckoning` it returns has per-side ``points`` (``scores()`` per
seat), the breakdown ``lines`` attributed to the seat that earned them (:func:`apply_lines`),
``stop_side`` / ``stop_step``, ``short`` (the tricks ran out without a stop), and the facts
:func:`explain_mismatch` turns into a human explanation of a disputed score (spec 1.4 step 4).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..options import option
from ..result import Evaluation, Line
from .declarations import Declarations

# -- the reckoning-order engine (spec 2.4, 2.5) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReckoningParams:
    """One row of the table of spec 2.4.

    ``side_of[seat]`` is the seat's side (voleur: its team, :data:`VOLEUR_TEAMS`; elsewhere the seat).
    The cards go to the side with strictly more tricks than every other side (two sides: ≥ 7 of
    12, ≥ 5 of 8; three-hand normand: the unique most), capot to a side that won every trick.
    ``first_leader`` is ``"dealer_left"`` or ``"dealer_right"`` (two-hand: the non-dealer either way).
    """

    name: str
    tricks: int
    side_of: tuple[int, ...]
    repique_at: int
    repique_bonus: int
    pique_at: int
    pique_bonus: int
    lead_capture: bool = True
    cards_value: int = 10
    capot: int = 40
    capot_additive: bool = False
    first_leader: str = "dealer_left"

    @property
    def seats(self) -> int:
        return len(self.side_of)

    @property
    def sides(self) -> int:
        return max(self.side_of) + 1


PIQUET_PARAMS = ReckoningParams("piquet", 12, (0, 1), 30, 60, 30, 30)
AUCTION_PLUS_PARAMS = ReckoningParams("auction plus", 12, (0, 1), 30, 60, 29, 30, lead_capture=False)
AUCTION_MINUS_PARAMS = ReckoningParams("auction minus", 12, (0, 1), 21, 60, 21, 30, lead_capture=False)
#: Piquet voleur's partnerships, the team of each seat: 0 + 2 against 1 + 3 (spec 6). The one
#: definition: the engine's sides here, ``PiquetVoleur.partnerships`` for the service.
VOLEUR_TEAMS = (0, 1, 0, 1)
VOLEUR_PARAMS = ReckoningParams("voleur", 8, VOLEUR_TEAMS, 20, 70, 20, 40, first_leader="dealer_right")
NORMAND_PARAMS = ReckoningParams(
    "normand", 10, (0, 1, 2), 20, 70, 20, 40, capot=20, first_leader="dealer_right"
)
#: Phase 2 of normand: ordinary two-hand piquet between the two seats still playing.
NORMAND_TWO_HAND_PARAMS = ReckoningParams("normand two-hand", 12, (0, 1, 2), 30, 60, 30, 30)


@lru_cache(maxsize=64)
def piquet_params(capot_additive: bool = False) -> ReckoningParams:
    return replace(PIQUET_PARAMS, capot_additive=capot_additive)


@lru_cache(maxsize=64)
def auction_params(sign: str, capot_additive: bool = False) -> ReckoningParams:
    base = AUCTION_PLUS_PARAMS if sign == "plus" else AUCTION_MINUS_PARAMS
    return replace(base, capot_additive=capot_additive)


@lru_cache(maxsize=64)
def voleur_params(capot_additive: bool = False, first_leader: str = "dealer_right") -> ReckoningParams:
    return replace(VOLEUR_PARAMS, capot_additive=capot_additive, first_leader=first_leader)


@lru_cache(maxsize=64)
def normand_params(
    repique_total: int = 90, capot_additive: bool = False, first_leader: str = "dealer_right"
) -> ReckoningParams:
    """Three-hand normand: a repique at 20 counts ``repique_total`` in all (bonus = total − 20)."""
    return replace(
        NORMAND_PARAMS,
        repique_bonus=repique_total - 20,
        capot_additive=capot_additive,
        first_leader=first_leader,
    )


@lru_cache(maxsize=64)
def normand_two_hand_params(capot_additive: bool = False) -> ReckoningParams:
    return replace(NORMAND_TWO_HAND_PARAMS, capot_additive=capot_additive)


def first_leader_of(params: ReckoningParams, dealer: int) -> int:
    """``dealer_left`` = (d + 1) mod n, ``dealer_right`` = (d − 1) mod n (spec 1.1)."""
    n = params.seats
    return (dealer + 1) % n if params.first_leader == "dealer_left" else (dealer - 1) % n


@dataclass(slots=True)
class Bonus:
    """A pique or repique: who earned it, at which step, and the side's count then."""

    seat: int
    side: int
    step: str
    count: int


@dataclass(slots=True)
class Reckoning:
    """What :func:`reckon` found. ``points`` are per side; ``lines`` are
    ``(seat, item, points, note)`` aggregated per seat and item, attributed to the earning seat."""

    params: ReckoningParams
    first_leader: int
    points: list[int]
    lines: list[list]
    stop_side: int | None = None
    stop_step: str | None = None
    #: The tricks ran out before the deal ended and no stop happened (an error for the caller).
    short: bool = False
    repique: Bonus | None = None
    pique: Bonus | None = None
    #: First scoring step of each side: (order, seat, description); used to explain a barred pique.
    first_score: dict[int, tuple[int, int, str]] = field(default_factory=dict)
    tricks_won: list[int] = field(default_factory=list)
    hand_points: list[int] = field(default_factory=list)
    capot_side: int | None = None
    cards_side: int | None = None

    def barred_by(self, side: int) -> tuple[int, int, str] | None:
        """The first step in which another side scored, ``(order, seat, combination)``: what bars
        this side's pique or repique (spec 2.4: the opponent reckoned first). None if nobody did."""
        others = [v for s, v in self.first_score.items() if s != side]
        return min(others) if others else None

    def scores(self) -> list[int]:
        return [self.points[s] for s in self.params.side_of]


class _Stop(Exception):
    """Internal: the target was reached, the deal ends at this step."""


def reckon(
    params: ReckoningParams,
    *,
    first_leader: int,
    declarations: Declarations,
    winners: tuple[int, ...] | list[int] | None,
    before: list[int] | tuple[int, ...] | None = None,
    target: int | None = None,
) -> Reckoning:
    """Score one deal in the order of Cavendish's Law 67 (spec 2.4), with the target stop of 2.5
    when ``target`` is given (``before`` = the side totals before the deal).

    ``winners`` may be shorter than the deal only when a stop happens; otherwise the result is
    flagged ``short``.
    """
    side_of = params.side_of
    nsides = params.sides
    n = params.seats
    pts = [0] * nsides
    lines: list[list] = []
    index: dict[tuple[int, str], list] = {}
    res = Reckoning(params, first_leader, pts, lines)
    first_score = res.first_score
    order = [0]
    last_seat = [first_leader] * nsides
    if before is None:
        before = [0] * nsides
    sides = range(nsides)
    R, BR, Q, BQ = params.repique_at, params.repique_bonus, params.pique_at, params.pique_bonus

    def add(seat: int, item: str, value: int, note: str, fact: str = "") -> None:
        key = (seat, item)
        line = index.get(key)
        if line is None:
            line = [seat, item, value, note]
            index[key] = line
            lines.append(line)
        else:
            line[2] += value
        side = side_of[seat]
        pts[side] += value
        last_seat[side] = seat
        if side not in first_score:
            first_score[side] = (order[0], seat, fact or item)
        order[0] += 1

    def reached(side: int, step: str) -> None:
        if target is not None and res.stop_side is None and before[side] + pts[side] >= target:
            res.stop_side = side
            res.stop_step = step
            raise _Stop

    def pique_check(step: str, seat: int | None) -> None:
        if res.repique is not None or res.pique is not None:
            return
        for s in sides:
            if pts[s] >= Q and all(pts[o] == 0 for o in range(nsides) if o != s):
                who = seat if seat is not None and side_of[seat] == s else last_seat[s]
                res.pique = Bonus(who, s, step, pts[s])
                add(who, "pique", BQ, f"pique: {pts[s]} in hand and play before the opponent scores ({step})")
                return

    decl = declarations
    try:
        # I–IV: the hand phase, one step per category (spec 2.4).
        # (seat, value, item, note, fact): the fact names the combination in explanations.
        steps: list[tuple[int, int, str, str, str]] = []
        for h in sorted(decl.carte_blanche, key=lambda h: (h - first_leader) % n):
            steps.append((h, 10, "carte_blanche", "carte blanche", "carte blanche"))
        if decl.point is not None and decl.point.scorer is not None:
            p = decl.point
            note = f"point of {p.cards} ({p.pips}), good"
            steps.append((p.scorer, p.cards, "point", note, f"point of {p.cards}"))
        if decl.sequences is not None and decl.sequences.scorer is not None:
            sq = decl.sequences
            runs = ", ".join(r.describe() for r in sq.runs)
            steps.append((sq.scorer, sq.value, "sequences", runs, sq.describe()))
        if decl.sets is not None:
            st = decl.sets
            melds = ", ".join(m.describe() for m in st.sets)
            steps.append((st.scorer, st.value, "sets", melds, st.describe()))
        for seat, value, item, note, fact in steps:
            side = side_of[seat]
            others_before = sum(pts) - pts[side]
            add(seat, item, value, note, fact)
            if res.repique is None and others_before == 0 and pts[side] >= R:
                res.repique = Bonus(seat, side, item, pts[side])
                add(seat, "repique", BR, f"repique: {pts[side]} in hand before the opponent scores")
            reached(side, item)
        res.hand_points = list(pts)

        # V: the play. A pique as play begins (auction: 29 in hand) is a step of its own.
        pique_check("as play begins", None)
        if res.pique is not None:
            reached(res.pique.side, "as play begins")
        leader = first_leader
        tw = [0] * nsides
        res.tricks_won = tw
        winners = tuple(winners[: params.tricks]) if winners else ()
        last = params.tricks - 1
        lead_capture = params.lead_capture
        # Once no pique can happen any more and no target applies, the order of the remaining
        # steps no longer matters: count them and add them up once (the hot path).
        counts = [0] * n
        captures = [0] * n
        fast = False
        for t, w in enumerate(winners):
            if not fast:
                fast = target is None and (
                    res.repique is not None or res.pique is not None or sum(1 for v in pts if v) >= 2
                )
            sw = side_of[w]
            if fast:
                if lead_capture:
                    counts[leader] += 1
                    if sw != side_of[leader]:
                        captures[w] += 1
                else:
                    counts[w] += 1
            elif lead_capture:
                step = f"lead to trick {t + 1}"
                add(leader, "lead", 1, "")
                pique_check(step, leader)
                reached(side_of[leader], step)
                # Capture and last trick are one step: both are scored before the stop check.
                captured = sw != side_of[leader]
                if captured:
                    add(w, "capture", 1, "")
                if t == last:
                    add(w, "last_trick", 1, "wins the last trick")
                if captured or t == last:
                    pique_check(f"trick {t + 1}", w)
                    reached(sw, f"trick {t + 1}")
            else:
                add(w, "trick", 1, "")
                pique_check(f"trick {t + 1}", w)
                reached(sw, f"trick {t + 1}")
            tw[sw] += 1
            leader = w
        if fast:
            item = "lead" if lead_capture else "trick"
            for seat in range(n):
                if counts[seat]:
                    add(seat, item, counts[seat], "")
                if captures[seat]:
                    add(seat, "capture", captures[seat], "")
            if lead_capture and len(winners) == params.tricks:
                add(winners[-1], "last_trick", 1, "wins the last trick")
        if len(winners) < params.tricks:
            if target is not None and params.lead_capture:
                # Score the lead to the unfinished trick: it may be the step that reaches the target.
                step = f"lead to trick {len(winners) + 1}"
                add(leader, "lead", 1, "")
                pique_check(step, leader)
                reached(side_of[leader], step)
            res.short = True
            return res

        # VI: the cards.
        best = max(tw)
        if tw.count(best) == 1:
            side = tw.index(best)
            seat = _team_seat(params, winners, side)
            res.cards_side = side
            if best == params.tricks:
                res.capot_side = side
                if params.capot_additive:
                    add(seat, "cards", params.cards_value, f"the cards: {best} tricks")
                add(seat, "capot", params.capot, f"capot: all {best} tricks")
            else:
                add(seat, "cards", params.cards_value, f"the cards: {best} tricks")
            reached(side, "the cards")
    except _Stop:
        pass
    for line in lines:
        item = line[1]
        if item in _COUNTED_NOTES:
            line[3] = _COUNTED_NOTES[item](line[2])
    return res


def _tricks(k: int) -> str:
    return f"{k} trick{'' if k == 1 else 's'}"


#: Notes of the play items, which are aggregated per seat.
_COUNTED_NOTES = {
    "lead": lambda k: f"leads {_tricks(k)}",
    "capture": lambda k: f"wins {_tricks(k)} led by the opponent",
    "trick": lambda k: f"{_tricks(k)} won",
}


def _team_seat(params: ReckoningParams, winners: tuple[int, ...], side: int) -> int:
    """The seat credited with a side's cards/capot: its member who won most tricks (lowest on ties)."""
    if params.seats == params.sides:
        return side
    counts: dict[int, int] = {}
    for w in winners:
        if params.side_of[w] == side:
            counts[w] = counts.get(w, 0) + 1
    return min(counts, key=lambda s: (-counts[s], s))


def _default_seat_name(params: ReckoningParams, first_leader: int):
    if params.seats == 2:
        return lambda seat: "elder" if seat == first_leader else "younger"
    return lambda seat: f"seat {seat}"


def apply_lines(ev: Evaluation, reckoning: Reckoning) -> None:
    """Copy the reckoning's breakdown into the evaluation."""
    ev.breakdown.extend([Line(*line) for line in reckoning.lines])


# -- mismatch explanations -------------------------------------------------------------------------


def explain_mismatch(reckoning: Reckoning, seat: int, declared: int, computed: int, seat_name=None) -> str:
    """A human explanation of why ``declared`` differs from ``computed`` for ``seat``.

    Recognises the usual disputes (a pique or repique claimed although the opponent reckoned
    first, a bonus forgotten, capot counted with the cards) and otherwise lists the seat's items.
    """
    p = reckoning.params
    name = seat_name or _default_seat_name(p, reckoning.first_leader)
    side = p.side_of[seat]
    diff = declared - computed
    bonus = reckoning.pique or reckoning.repique
    if bonus is None and diff in (p.pique_bonus, p.repique_bonus):
        kind = "pique" if diff == p.pique_bonus else "repique"
        barrer = reckoning.barred_by(side)
        if barrer is not None:
            _, bseat, bnote = barrer
            what = "hand" if kind == "repique" else "play"
            return f"{name(bseat)}'s {bnote} reckons before {name(seat)}'s {what}: no {kind}"
        return f"no {kind}: {name(seat)} did not reach {p.pique_at if kind == 'pique' else p.repique_at}"
    if bonus is not None and p.side_of[bonus.seat] == side and -diff in (p.pique_bonus, p.repique_bonus):
        kind = "pique" if reckoning.pique is not None else "repique"
        return f"{name(bonus.seat)} makes a {kind} ({bonus.count} before the opponent scores, {bonus.step})"
    if bonus is not None and p.side_of[bonus.seat] != side and diff < 0:
        kind = "pique" if reckoning.pique is not None else "repique"
        return f"the {kind} is {name(bonus.seat)}'s, not {name(seat)}'s"
    if reckoning.capot_side == side and diff == p.cards_value and not p.capot_additive:
        return f"capot counts {p.capot} in all, not {p.cards_value} for the cards plus {p.capot}"
    if reckoning.capot_side == side and diff == -p.cards_value and p.capot_additive:
        return f"with capot_additive the cards' {p.cards_value} is scored besides capot"
    items = [f"{item} {points}" for s, item, points, _ in reckoning.lines if p.side_of[s] == side]
    detail = ", ".join(items) if items else "nothing scored"
    if reckoning.stop_side is not None:
        detail += f"; the deal stopped at {reckoning.stop_step}"
    return f"the rules give {computed}: {detail}"


# Declared alike by every game of the family that plays to a target (spec 2.5).
def target_option() -> Any:
    return option(100, effect="scoring", minimum=1, help="points for game")
