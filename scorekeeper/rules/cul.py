"""cul («Жопа»), spec section 8: bets, bank accounting and the cul rating.

A party's score is the change in a player's banks: -1 when he reaches the target of his
bet, +1 when he bet "go" and missed it, 0 when he bet "not go" and missed it.

The rating functions at the bottom are public: the ratings app applies the same formula
to the sums over all of a player's matches (a ratio of sums, not a mean of ratings).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from .cards import SHORT_PACK, Card
from .fields import MISSING, Fields, all_read, describe, is_int, join
from .messages import Message, gettext_noop, term
from .options import GameOptions, option
from .result import Evaluation, competition_ranking
from .ruleset import Ruleset, register, state_key_problems

START_BANKS = 3
LOSING_BANKS = 6
BETS = ("go", "not_go")
# Spec 8, "Card values": the pack totals 184.
CARD_VALUES = {"A": 12, "10": 10, "K": 5, "Q": 3, "J": 1, "8": 16, "9": 0, "7": 0, "6": -1}
# Spec 8: claimed bonus items, each at most once per seat per party.
BONUS_VALUES = {"queen_king": 25, "diamonds_spades": 15, "four_of_suit": 10}
# Spec 8, points_out_of_range: the four sixes at worst, 188 + 50 at best.
MIN_POINTS, MAX_POINTS = -4, 238
#: The two readings of the rating formula (spec 8), with their words for people.
RATING_SCALES = {"literal": gettext_noop("literal"), "normalised": gettext_noop("normalised")}


@dataclass(frozen=True)
class CulOptions(GameOptions):
    not_go_target_6p: int = option(
        116,
        seed=128,
        effect="scoring",
        choices=(116, 128),
        label=gettext_noop("Not-go target with 6 players"),
        help=gettext_noop("Not-go target with 6 players (the seed's 128 breaks the table's 24-point gap)."),
    )
    rating_scale: str = option(
        "literal",
        effect="scoring",
        choices=RATING_SCALES,
        label=gettext_noop("Rating formula"),
        help=gettext_noop("Rating formula: literal S(D−G)/(KT) + 50 %, or normalised 50 % + half of it."),
    )
    trump_scheme: int = option(
        1,
        effect="recorded",
        choices=(1, 2, 3, 4, 5),
        label=gettext_noop("Trumps"),
        help=gettext_noop(
            "1 each a different trump; 2 no trumps; 3 one common; 4 two common; 5 ♦ junior, ♠ senior."
        ),
    )
    dealer_rule: str = option(
        "previous_first_leader",
        effect="check",
        choices={
            "previous_first_leader": gettext_noop("the previous party's first leader"),
            "free": gettext_noop("anybody"),
        },
        label=gettext_noop("Next dealer"),
        help=gettext_noop(
            "Who deals the next party: the previous party's first leader (warned), or anybody."
        ),
    )


def go_target(seats: int) -> int:
    """Points a player who bet "go" must reach (spec 8: 44 + 12(n − 2))."""
    return 44 + 12 * (seats - 2)


def not_go_target(seats: int, target_6p: int = 116) -> int:
    """Points a player who bet "not go" must reach: 24 more than "go", 6 players per option."""
    return target_6p if seats == 6 else go_target(seats) + 24


def card_value(card: Card) -> int:
    return CARD_VALUES[card.rank]


# -- the rating --------------------------------------------------------------


def _rating(
    points_total: int, dropped: int, gained: int, parties: int, required_total: int, scale: str
) -> Fraction | None:
    for name, value in (
        ("dropped", dropped),
        ("gained", gained),
        ("parties", parties),
        ("required_total", required_total),
    ):
        if not is_int(value) or value < 0:
            raise ValueError(f"{name} must be an integer ≥ 0, not {describe(value)}")
    if not is_int(points_total):
        raise ValueError(f"points_total must be an integer, not {describe(points_total)}")
    if scale not in RATING_SCALES:
        raise ValueError(f"scale must be literal or normalised, not {describe(scale)}")
    if parties == 0 or required_total == 0:
        return None
    x = Fraction(points_total * (dropped - gained), parties * required_total)
    return x + Fraction(1, 2) if scale == "literal" else Fraction(1, 2) + x / 2


def cul_rating(
    points_total: int,
    dropped: int,
    gained: int,
    parties: int,
    required_total: int,
    scale: str = "literal",
) -> float | None:
    """The cul rating R as a fraction of 1 (spec 8), unrounded; ``None`` when K = 0 or T = 0.

    x = S·(D − G) / (K·T); literal R = x + 0.5, normalised R = 0.5 + 0.5·x. For the overall
    rating pass the sums of S, D, G, K and T over all the player's matches. The literal
    value is unbounded (below 0 or above 1 happens). Raises ValueError on negative counts.
    """
    r = _rating(points_total, dropped, gained, parties, required_total, scale)
    return None if r is None else float(r)


def round_rating_pct(value: float | Fraction) -> float:
    """A percentage rounded to one decimal, halves away from zero (``50.05 -> 50.1``).

    Spec 8 says only "rounded to one decimal"; half away from zero is the school rule the
    players apply by hand, and it is computed exactly so that float noise cannot flip a half.
    """
    q = Fraction(value) * 10
    sign = -1 if q < 0 else 1
    whole, rest = divmod(abs(q), 1)
    tenths = int(whole) + (1 if rest >= Fraction(1, 2) else 0)
    return sign * tenths / 10


def cul_rating_pct(
    points_total: int,
    dropped: int,
    gained: int,
    parties: int,
    required_total: int,
    scale: str = "literal",
) -> float | None:
    """``rating_pct`` of spec 8: 100·R rounded to one decimal, or ``None`` (shown "—")."""
    r = _rating(points_total, dropped, gained, parties, required_total, scale)
    return None if r is None else round_rating_pct(100 * r)


# -- the ruleset -------------------------------------------------------------

#: The keys a party's record must have (the schema's ``required``, and what the reading checks).
REQUIRED_KEYS = ("dealer", "bets", "points", "declared_banks")

RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "cul party",
    "type": "object",
    "required": list(REQUIRED_KEYS),
    "properties": {
        "dealer": {"type": "integer", "minimum": 0, "description": "seat who dealt the party"},
        "first_leader": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "seat who led the first trick; the next party's dealer under dealer_rule",
        },
        "bets": {"type": "array", "items": {"enum": list(BETS)}, "description": "one bet per seat"},
        "points": {
            "type": "array",
            "items": {"type": "integer", "minimum": MIN_POINTS, "maximum": MAX_POINTS},
            "description": "points each player made in the party",
        },
        "captured": {
            "type": ["array", "null"],
            "items": {"type": "array", "items": {"type": "string", "examples": ["AS", "10H", "6D"]}},
            "description": "per seat, the cards in the piles taken; points are then checked",
        },
        "bonuses": {
            "type": ["array", "null"],
            "items": {
                "type": "array",
                "items": {
                    "type": "object",
                    "required": ["item"],
                    "properties": {"item": {"enum": list(BONUS_VALUES)}},
                },
            },
            "description": "per seat, claimed items: queen_king 25, diamonds_spades 15, four_of_suit 10",
        },
        "declared_banks": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "each player's banks after the party, as the players counted them",
        },
    },
}

STATE_KEYS = (
    "parties",
    "banks",
    "points_total",
    "dropped",
    "gained",
    "required_total",
    "last_first_leader",
    "over",
)


_BET_TERMS = {"go": term("cul.bet.go"), "not_go": term("cul.bet.not_go")}
_WHY = {-1: "cul.note.dropped", 1: "cul.note.gained", 0: "cul.note.unchanged"}


def _why(bet: str, points: int, target: int, delta: int) -> Message:
    return Message(_WHY[delta], {"bet": _BET_TERMS[bet], "points": points, "target": target})


@register
class Cul(Ruleset):
    key = "cul"
    title = gettext_noop("cul («Жопа»)")
    seat_counts = (2, 3, 4, 5, 6)
    Options = CulOptions
    options: CulOptions
    record_schema = RECORD_SCHEMA
    #: The players count banks, not points: they declare each one's banks after the party.
    declared_keys = ("declared_banks",)
    #: The result's banks are its points, and fewer banks are better.
    points_key = "banks"
    fewer_points_better = True

    def initial_state(self) -> dict[str, Any]:
        n = self.seats
        return {
            "parties": 0,
            "banks": [START_BANKS] * n,
            "points_total": [0] * n,
            "dropped": [0] * n,
            "gained": [0] * n,
            "required_total": [0] * n,
            "last_first_leader": None,
            "over": False,
        }

    def targets(self) -> dict[str, int]:
        n = self.seats
        return {"go": go_target(n), "not_go": not_go_target(n, self.options.not_go_target_6p)}

    # -- state -----------------------------------------------------------------
    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        n = self.seats
        problems = state_key_problems(state, STATE_KEYS)
        if problems:
            return problems
        if not is_int(state["parties"]) or state["parties"] < 0:
            problems.append(Message("state.count_negative", {"key": "parties"}))
        for key in ("banks", "points_total", "dropped", "gained", "required_total"):
            value = state[key]
            if not (isinstance(value, list) and len(value) == n and all(map(is_int, value))):
                problems.append(Message("state.integers", {"key": key, "n": n}))
            elif key != "points_total" and any(v < 0 for v in value):
                problems.append(Message("state.no_negatives", {"key": key}))
        leader = state["last_first_leader"]
        if leader is not None and not (is_int(leader) and 0 <= leader < n):
            problems.append(Message("state.seat_or_null", {"key": "last_first_leader", "last": n - 1}))
        if not isinstance(state["over"], bool):
            problems.append(Message("state.over_boolean"))
        if problems:
            return problems
        # Spec 8, state invariant: banks = 3 − dropped + gained ≥ 0.
        for p in range(n):
            expected = START_BANKS - state["dropped"][p] + state["gained"][p]
            if state["banks"][p] != expected:
                problems.append(
                    Message("cul.state.banks", {"seat": p, "banks": state["banks"][p], "expected": expected})
                )
        return problems

    # -- one party ---------------------------------------------------------------
    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        n = self.seats
        f = Fields(ev, n)
        raw = {
            key: f.get(record, key, required=key in REQUIRED_KEYS)
            for key in ("dealer", "first_leader", "bets", "points", "captured", "bonuses", "declared_banks")
        }
        dealer = None if raw["dealer"] is MISSING else f.seat(raw["dealer"], "dealer")
        first_leader = None
        if raw["first_leader"] is not MISSING:
            first_leader = f.seat(raw["first_leader"], "first_leader")
        bets = self._read_bets(f, raw["bets"])
        points = None
        if raw["points"] is not MISSING:
            points = f.integers(
                raw["points"], "points", minimum=MIN_POINTS, maximum=MAX_POINTS, code="points_out_of_range"
            )
        declared = None
        if raw["declared_banks"] is not MISSING:
            declared = f.integers(raw["declared_banks"], "declared_banks", minimum=0)
        captured = self._read_captured(f, raw["captured"])
        bonuses = self._read_bonuses(f, raw["bonuses"])
        if captured is not None and points is not None:
            self._check_points_against_cards(ev, points, captured, bonuses)
        if ev.errors or bets is None or points is None or declared is None or dealer is None:
            return

        targets = self.targets()
        deltas, required = [], []
        for p in range(n):
            target = targets[bets[p]]
            if points[p] >= target:
                delta = -1
            elif bets[p] == "go":
                delta = 1
            else:
                delta = 0
            deltas.append(delta)
            required.append(target)
            ev.line(
                p, "bank_change", delta, _WHY[delta], bet=_BET_TERMS[bets[p]], points=points[p], target=target
            )
        ev.scores = deltas

        computed_banks = [b + d for b, d in zip(state["banks"], deltas, strict=True)]
        for p in range(n):
            if declared[p] != computed_banks[p]:
                ev.mismatch(
                    p,
                    declared[p],
                    computed_banks[p],
                    "cul.mismatch",
                    why=_why(bets[p], points[p], required[p], deltas[p]),
                    before=state["banks"][p],
                    after=computed_banks[p],
                )

        self._warn(ev, state, dealer, bonuses, captured)

        # Spec 1.6: a disputed party's state is rebuilt from the declared banks.
        before = state["banks"]
        after_banks = list(declared if (accept_declared and ev.mismatches) else computed_banks)
        after = {
            "parties": state["parties"] + 1,
            "banks": after_banks,
            "points_total": [state["points_total"][p] + points[p] for p in range(n)],
            "dropped": [state["dropped"][p] + max(0, before[p] - after_banks[p]) for p in range(n)],
            "gained": [state["gained"][p] + max(0, after_banks[p] - before[p]) for p in range(n)],
            "required_total": [state["required_total"][p] + required[p] for p in range(n)],
            "last_first_leader": first_leader,
            "over": match_is_over(before, after_banks),
        }
        ev.state_after = after
        ev.match_over = after["over"]
        if after["over"]:
            ev.result = self.result(after)

    def result(self, state: dict[str, Any]) -> dict[str, Any]:
        """Spec 8 result: placements by banks ascending, banks, each player's match rating."""
        scale = self.options.rating_scale
        ratings = [
            cul_rating_pct(
                state["points_total"][p],
                state["dropped"][p],
                state["gained"][p],
                state["parties"],
                state["required_total"][p],
                scale,
            )
            for p in range(self.seats)
        ]
        banks = list(state["banks"])
        return {
            "placements": competition_ranking(banks, lower_is_better=True),
            "banks": banks,
            "rating_pct": ratings,
        }

    # -- reading the record ------------------------------------------------------
    def _read_bets(self, f: Fields, value: Any) -> list[str] | None:
        if value is MISSING:
            return None
        items = f.per_seat(value, "bets")
        if items is None:
            return None
        bets = [f.choice(bet, f"bets[{p}]", BETS, code="bet_invalid") for p, bet in enumerate(items)]
        return all_read(bets)

    def _read_captured(self, f: Fields, value: Any) -> list[list[Card] | None] | None:
        if value is MISSING:
            return None
        items = f.per_seat(value, "captured")
        if items is None:
            return None
        seen: dict[Card, str] = {}
        return [f.cards(cards, join("captured", p), SHORT_PACK, seen) for p, cards in enumerate(items)]

    def _read_bonuses(self, f: Fields, value: Any) -> list[list[str] | None] | None:
        """Per seat, the claimed item names; ``None`` for a seat whose list has a fault."""
        if value is MISSING:
            return None
        items = f.per_seat(value, "bonuses")
        if items is None:
            return None
        out: list[list[str] | None] = []
        for p, claims in enumerate(items):
            path = join("bonuses", p)
            claims = f.array(claims, path)
            if claims is None:
                out.append(None)
                continue
            names: list[str] = []
            ok = True
            for i, claim in enumerate(claims):
                where = join(path, i)
                claim = f.obj(claim, where, "cul.bonus_claim_not_object")
                item = MISSING if claim is None else f.get(claim, "item", where)
                if item is MISSING:
                    ok = False
                    continue
                where = join(where, "item")
                if not (isinstance(item, str) and item in BONUS_VALUES):
                    f.error(
                        "bonus_invalid",
                        where,
                        "cul.bonus_unknown",
                        path=where,
                        value=describe(item),
                        allowed=", ".join(BONUS_VALUES),
                    )
                    ok = False
                elif item in names:
                    f.error("bonus_invalid", where, "cul.bonus_twice", path=where, item=item, seat=p)
                    ok = False
                else:
                    names.append(item)
            out.append(names if ok else None)
        return out

    def _check_points_against_cards(
        self,
        ev: Evaluation,
        points: list[int],
        captured: list[list[Card] | None],
        bonuses: list[list[str] | None] | None,
    ) -> None:
        for p in range(self.seats):
            claims = [] if bonuses is None else bonuses[p]
            seat_cards = captured[p]
            if seat_cards is None or claims is None:
                continue  # already reported
            cards = sum(card_value(c) for c in seat_cards)
            extra = sum(BONUS_VALUES[item] for item in claims)
            if points[p] != cards + extra:
                ev.error(
                    "points_cards_mismatch",
                    f"points[{p}]",
                    "cul.points_with_bonuses" if claims else "cul.points_cards",
                    seat=p,
                    points=points[p],
                    cards=cards,
                    bonuses=extra,
                    total=cards + extra,
                )

    # -- warnings ----------------------------------------------------------------
    def _warn(
        self,
        ev: Evaluation,
        state: dict[str, Any],
        dealer: int,
        bonuses: list[list[str] | None] | None,
        captured: list[list[Card] | None] | None,
    ) -> None:
        previous = state["last_first_leader"]
        checked = self.options.dealer_rule == "previous_first_leader"
        if checked and previous is not None and dealer != previous:
            ev.warn("dealer_rule", "dealer", "cul.dealer_rule", previous=previous, dealer=dealer)
        if captured is None or bonuses is None:
            return
        for p in range(self.seats):
            seat_cards, claims = captured[p], bonuses[p]
            if seat_cards is None or claims is None:
                continue
            for i, item in enumerate(claims):
                if not bonus_supported(item, seat_cards):
                    ev.warn(
                        "bonus_unsupported",
                        f"bonuses[{p}][{i}].item",
                        "cul.bonus_unsupported",
                        seat=p,
                        item=item,
                    )


def bonus_supported(item: str, cards: list[Card]) -> bool:
    """Whether the captured cards can back a claimed bonus item (spec 8, bonus_unsupported)."""
    ranks = {c.rank for c in cards}
    suits = [c.suit for c in cards]
    if item == "queen_king":
        return "Q" in ranks and "K" in ranks
    if item == "diamonds_spades":
        return "D" in suits and "S" in suits
    return any(suits.count(s) >= 4 for s in set(suits))


def match_is_over(banks_before: list[int], banks_after: list[int]) -> bool:
    """Spec 8 match end, judged after each party.

    In the continuation (every player had ≥ 6 banks before the party) the match ends when
    exactly one player has the fewest banks. Otherwise it ends when somebody has 0 banks, or
    somebody has ≥ 6 banks, unless everybody does (then the continuation begins).
    """
    if all(b >= LOSING_BANKS for b in banks_before):
        fewest = min(banks_after)
        return banks_after.count(fewest) == 1
    if any(b <= 0 for b in banks_after):
        return True
    return any(b >= LOSING_BANKS for b in banks_after) and not all(b >= LOSING_BANKS for b in banks_after)
