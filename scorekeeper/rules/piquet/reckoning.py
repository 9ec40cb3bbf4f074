"""The reckoning-order engine of the piquet family (spec 2.4, 2.5) and its explanations.

:class:`ReckoningParams` is one row of the table of spec 2.4 (thresholds, bonuses, tricks, sides);
:func:`reckon` scores one deal step by step in the order of Cavendish's Law 67, with the target
stop of spec 2.5. The :class:`Reckoning` it returns has per-side ``points`` (``scores()`` per
seat), the breakdown ``lines`` attributed to the seat that earned them (:func:`apply_lines`),
``stop_side`` / ``stop_step``, ``short`` (the tricks ran out without a stop), and the facts
:func:`explain_mismatch` turns into a human explanation of a disputed score (spec 1.4 step 4).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from ..messages import Message, gettext_noop, term
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
    """What :func:`reckon` found. ``points`` are per side; ``lines`` are ``(seat, item, points,
    note code, note params)`` aggregated per seat and item, attributed to the earning seat.

    A step is named by its identifier: an item of the hand phase (``"point"``), ``"as play
    begins"``, ``"lead to trick N"``, ``"trick N"`` or ``"the cards"`` (:func:`step_text`)."""

    params: ReckoningParams
    first_leader: int
    points: list[int]
    lines: list[list[Any]]
    stop_side: int | None = None
    stop_step: str | None = None
    #: The tricks ran out before the deal ended and no stop happened (an error for the caller).
    short: bool = False
    repique: Bonus | None = None
    pique: Bonus | None = None
    #: First scoring step of each side: (order, seat, what scored: a message, or an item code);
    #: used to explain a barred pique.
    first_score: dict[int, tuple[int, int, Any]] = field(default_factory=dict)
    tricks_won: list[int] = field(default_factory=list)
    hand_points: list[int] = field(default_factory=list)
    capot_side: int | None = None
    cards_side: int | None = None

    def barred_by(self, side: int) -> tuple[int, int, Any] | None:
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
    lines: list[list[Any]] = []
    index: dict[tuple[int, str], list[Any]] = {}
    res = Reckoning(params, first_leader, pts, lines)
    first_score = res.first_score
    order = [0]
    last_seat = [first_leader] * nsides
    if before is None:
        before = [0] * nsides
    sides = range(nsides)
    R, BR, Q, BQ = params.repique_at, params.repique_bonus, params.pique_at, params.pique_bonus

    def add(seat: int, item: str, value: int, note: str, params: Any = None, fact: Any = None) -> None:
        key = (seat, item)
        line = index.get(key)
        if line is None:
            line = [seat, item, value, note, params]
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
                add(who, "pique", BQ, "piquet.note.pique", {"points": pts[s], "step": step_text(step)})
                return

    decl = declarations
    try:
        # I–IV: the hand phase, one step per category (spec 2.4).
        # (seat, value, item, note, note params, fact): the fact names the combination in explanations.
        steps: list[tuple[int, int, str, str, Any, Message]] = []
        for h in sorted(decl.carte_blanche, key=lambda h: (h - first_leader) % n):
            steps.append((h, 10, "carte_blanche", "piquet.note.carte_blanche", None, _CARTE_BLANCHE))
        p = decl.point
        if p is not None and p.scorer is not None:
            steps.append(
                (
                    p.scorer,
                    p.cards,
                    "point",
                    "piquet.note.point",
                    {"cards": p.cards, "pips": p.pips},
                    Message("piquet.point_of", {"cards": p.cards}),
                )
            )
        sq = decl.sequences
        if sq is not None and sq.scorer is not None:
            runs = {"runs": [r.describe() for r in sq.runs]}
            steps.append((sq.scorer, sq.value, "sequences", "piquet.note.runs", runs, sq.describe()))
        if decl.sets is not None:
            st = decl.sets
            melds = {"sets": [m.describe() for m in st.sets]}
            steps.append((st.scorer, st.value, "sets", "piquet.note.sets", melds, st.describe()))
        for seat, value, item, note, note_params, fact in steps:
            side = side_of[seat]
            others_before = sum(pts) - pts[side]
            add(seat, item, value, note, note_params, fact)
            if res.repique is None and others_before == 0 and pts[side] >= R:
                res.repique = Bonus(seat, side, item, pts[side])
                add(seat, "repique", BR, "piquet.note.repique", {"points": pts[side]})
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
                    add(w, "last_trick", 1, "piquet.note.last_trick")
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
                add(winners[-1], "last_trick", 1, "piquet.note.last_trick")
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
                    add(seat, "cards", params.cards_value, "piquet.note.cards", {"tricks": best})
                add(seat, "capot", params.capot, "piquet.note.capot", {"tricks": best})
            else:
                add(seat, "cards", params.cards_value, "piquet.note.cards", {"tricks": best})
            reached(side, "the cards")
    except _Stop:
        pass
    for line in lines:
        counted_note = _COUNTED_NOTES.get(line[1])
        if counted_note is not None:
            line[3] = counted_note
            line[4] = {"tricks": line[2]}
    return res


#: Notes of the play items, which are aggregated per seat: they count the tricks.
_COUNTED_NOTES = {
    "lead": "piquet.note.leads", "capture": "piquet.note.captures", "trick": "piquet.note.tricks",
}  # fmt: skip
_CARTE_BLANCHE = Message("piquet.note.carte_blanche")
#: The breakdown items as explanations name them.
ITEM_NAMES = {
    item: term(f"piquet.item.{item}")
    for item in (
        "carte_blanche", "point", "sequences", "sets", "repique", "pique", "lead", "capture", "trick",
        "last_trick", "cards", "capot", "contract_overtricks", "contract_defeated",
    )
}  # fmt: skip
_PLAY_BEGINS = Message("piquet.step.play_begins")
_THE_CARDS = Message("piquet.step.cards")


def step_text(step: str) -> Message:
    """The message naming a step of the reckoning order (its identifier: see ``Reckoning``)."""
    if step.startswith("lead to trick "):
        return Message("piquet.step.lead", {"trick": int(step.removeprefix("lead to trick "))})
    if step.startswith("trick "):
        return Message("piquet.step.trick", {"trick": int(step.removeprefix("trick "))})
    if step == "as play begins":
        return _PLAY_BEGINS
    if step == "the cards":
        return _THE_CARDS
    return ITEM_NAMES.get(step) or Message(step)


def _fact_text(fact: Any) -> Message:
    """What scored first, as a message: a combination, or the name of its item."""
    return fact if isinstance(fact, Message) else ITEM_NAMES.get(fact) or Message(str(fact))


def _team_seat(params: ReckoningParams, winners: tuple[int, ...], side: int) -> int:
    """The seat credited with a side's cards/capot: its member who won most tricks (lowest on ties)."""
    if params.seats == params.sides:
        return side
    counts: dict[int, int] = {}
    for w in winners:
        if params.side_of[w] == side:
            counts[w] = counts.get(w, 0) + 1
    return min(counts, key=lambda s: (-counts[s], s))


_ELDER, _YOUNGER = term("piquet.elder"), term("piquet.younger")
_ELDERS, _YOUNGERS = term("piquet.elder_s"), term("piquet.younger_s")


def _seat_names(
    params: ReckoningParams, first_leader: int
) -> tuple[Callable[[int], Message], Callable[[int], Message]]:
    """How explanations name a seat, and the possessive of that name ("younger's")."""
    if params.seats == 2:
        return (
            lambda seat: _ELDER if seat == first_leader else _YOUNGER,
            lambda seat: _ELDERS if seat == first_leader else _YOUNGERS,
        )
    return (
        lambda seat: Message("piquet.seat", {"seat": seat}),
        lambda seat: Message("piquet.seat_s", {"seat": seat}),
    )


def apply_lines(ev: Evaluation, reckoning: Reckoning) -> None:
    """Copy the reckoning's breakdown into the evaluation."""
    ev.breakdown.extend([Line(*line) for line in reckoning.lines])


# -- mismatch explanations -------------------------------------------------------------------------


def explain_mismatch(reckoning: Reckoning, seat: int, declared: int, computed: int) -> Message:
    """Why ``declared`` differs from ``computed`` for ``seat``, as a message.

    Recognises the usual disputes (a pique or repique claimed although the opponent reckoned
    first, a bonus forgotten, capot counted with the cards) and otherwise lists the seat's items
    (``piquet.rules_give``, whose ``detail`` is the list). A seat is named in its two forms,
    ``seat`` and ``seat_of`` (possessive), so each language picks the one its sentence needs.
    """
    p = reckoning.params
    name, name_of = _seat_names(p, reckoning.first_leader)
    who = {"seat": name(seat), "seat_of": name_of(seat)}
    side = p.side_of[seat]
    diff = declared - computed
    bonus = reckoning.pique or reckoning.repique
    if bonus is None and diff in (p.pique_bonus, p.repique_bonus):
        kind = "pique" if diff == p.pique_bonus else "repique"
        barrer = reckoning.barred_by(side)
        if barrer is not None:
            _, bseat, fact = barrer
            code = "piquet.barred_pique" if kind == "pique" else "piquet.barred_repique"
            return Message(code, {
                "barrer": name(bseat), "barrer_of": name_of(bseat), "fact": _fact_text(fact), **who,
            })  # fmt: skip
        at = p.pique_at if kind == "pique" else p.repique_at
        code = "piquet.pique_not_reached" if kind == "pique" else "piquet.repique_not_reached"
        return Message(code, {**who, "at": at})
    if bonus is not None and p.side_of[bonus.seat] == side and -diff in (p.pique_bonus, p.repique_bonus):
        code = "piquet.makes_pique" if reckoning.pique is not None else "piquet.makes_repique"
        return Message(code, {
            "seat": name(bonus.seat), "seat_of": name_of(bonus.seat), "count": bonus.count,
            "step": step_text(bonus.step),
        })  # fmt: skip
    if bonus is not None and p.side_of[bonus.seat] != side and diff < 0:
        code = "piquet.pique_is_other" if reckoning.pique is not None else "piquet.repique_is_other"
        owner = {"owner": name(bonus.seat), "owner_of": name_of(bonus.seat)}
        return Message(code, {**owner, **who})
    if reckoning.capot_side == side and diff == p.cards_value and not p.capot_additive:
        return Message("piquet.capot_in_all", {"capot": p.capot, "cards": p.cards_value})
    if reckoning.capot_side == side and diff == -p.cards_value and p.capot_additive:
        return Message("piquet.capot_additive", {"cards": p.cards_value})
    items = [
        Message("piquet.item_points", {"item": ITEM_NAMES.get(item) or Message(item), "points": points})
        for s, item, points, *_ in reckoning.lines
        if p.side_of[s] == side
    ]
    if reckoning.stop_step is not None:  # set with stop_side
        step = step_text(reckoning.stop_step)
        if items:
            detail = Message("piquet.items_stopped", {"items": items, "step": step})
        else:
            detail = Message("piquet.nothing_scored_stopped", {"step": step})
    else:
        detail = Message("piquet.items", {"items": items}) if items else Message("piquet.nothing_scored")
    return Message("piquet.rules_give", {"computed": computed, "detail": detail})


# Declared alike by every game of the family that plays to a target (spec 2.5).
def target_option() -> Any:
    return option(
        100, effect="scoring", minimum=1, label=gettext_noop("Target"), help=gettext_noop("points for game")
    )
