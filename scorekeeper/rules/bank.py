"""Bank («Банк»), spec section 9.

A party is scored from the card points each player captured, a bonus for going out
(by finishing position, more with a king, four of a kind or a same-suit run of four),
and, under rule B, a penalty for the cards a player is left holding. The first to
248 wins; players tied on top at or above it play one more party.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

from .cards import SHORT_PACK, Card
from .fields import MISSING, Fields, describe, is_int, join
from .messages import Message, gettext_noop, term
from .options import GameOptions, option
from .result import Evaluation, competition_ranking
from .ruleset import Ruleset, register, state_key_problems

#: Card points (spec 9); 9 8 7 6 are worth nothing.
CARD_POINTS = {"A": 12, "10": 10, "K": 5, "Q": 3, "J": 1}
PACK_POINTS = 124
#: Going-out bonuses by finishing position (spec 9, computation).
BASE = {1: 20, 2: 10, 3: 10}
KING = {1: 30, 2: 20, 3: 10}
RUN = {1: 30, 2: 25, 3: 20}
FOUR_OF_KIND = 75
FLAGS = ("king", "trump_king", "four_of_kind", "four_kings", "four_run")
#: Finishing positions as the notes name them ("1st").
PLACES = {1: term("bank.place.1"), 2: term("bank.place.2"), 3: term("bank.place.3")}
STATE_KEYS = ("parties", "totals", "last_dealer", "last_loser", "tiebreak_seats", "over")

PENALTY_FLAT_AMOUNTS = (15, 23, 31, 40, 48, 56)
PENALTY_PER_CARD_AMOUNTS = (3, 6)


def card_points(card: Card) -> int:
    return CARD_POINTS.get(card.rank, 0)


@dataclass(frozen=True)
class BankOptions(GameOptions):
    target: int = option(
        248,
        effect="scoring",
        minimum=1,
        label=gettext_noop("Target"),
        help=gettext_noop("points to win (≥ target, spec 1.9)"),
    )
    leftover_rule: str = option(
        "penalty",
        choices={"penalty": gettext_noop("penalty (rule B)"), "none": gettext_noop("no penalty (rule A)")},
        effect="scoring",
        label=gettext_noop("Cards left in hand"),
        help=gettext_noop(
            "rule B: the cards left in a loser's hand cost points; rule A (none): they cost nothing"
        ),
    )
    penalty_option: str = option(
        "cards",
        choices={
            "cards": gettext_noop("the cards' points (1)"),
            "flat": gettext_noop("a fixed amount (2a)"),
            "per_card": gettext_noop("an amount per card (2b)"),
        },
        effect="scoring",
        label=gettext_noop("Penalty"),
        help=gettext_noop(
            "option 1: the left cards' points; 2a: a fixed amount; 2b: an amount per left card"
        ),
    )
    penalty_reading: str = option(
        "additive",
        choices={
            "additive": gettext_noop("added to the cards' points"),
            "replace": gettext_noop("instead of the cards' points"),
            "pointless_only": gettext_noop("only for cards worth nothing"),
        },
        effect="scoring",
        label=gettext_noop("Reading of the penalty"),
        help=gettext_noop(
            "options 2a/2b: added to the cards' points, instead of them, or only for cards worth nothing"
        ),
    )
    penalty_flat: int = option(
        31,
        choices=PENALTY_FLAT_AMOUNTS,
        effect="scoring",
        label=gettext_noop("Fixed penalty"),
        help=gettext_noop("option 2a amount"),
    )
    penalty_per_card: int = option(
        3,
        choices=PENALTY_PER_CARD_AMOUNTS,
        effect="scoring",
        label=gettext_noop("Penalty per card"),
        help=gettext_noop("option 2b amount per card"),
    )
    king_bonus: str = option(
        "additive",
        choices={"additive": gettext_noop("added"), "replace": gettext_noop("replaces the going-out bonus")},
        effect="scoring",
        label=gettext_noop("Going-out bonus with a king"),
        help=gettext_noop(
            "the bonus for going out with a king is added to the going-out bonus or replaces it"
        ),
    )
    tiebreak_players: str = option(
        "tied_only",
        seed="all",
        choices={"tied_only": gettext_noop("the tied players only"), "all": gettext_noop("everybody")},
        effect="scoring",
        label=gettext_noop("Tie-break party"),
        help=gettext_noop(
            "who plays the party that breaks a tie on top: the tied players only, or everybody"
        ),
    )
    trump_scheme: int = option(
        1,
        choices=(1, 2, 3, 4, 5),
        effect="check",
        label=gettext_noop("Trumps"),
        help=gettext_noop(
            "1 each a different trump; 2 no trumps; 3 one common; 4 two common; 5 junior and senior trumps"
        ),
    )
    seven_rule: int = option(
        1,
        choices=(1, 2, 3, 4),
        effect="recorded",
        label=gettext_noop("After a seven"),
        help=gettext_noop("what the next player does after a seven"),
    )
    next_dealer_rule: str = option(
        "free",
        choices={
            "free": gettext_noop("anybody"),
            "loser": gettext_noop("the loser"),
            "finisher": gettext_noop("the first to go out"),
            "starter": gettext_noop("the one who started"),
            "most_points": gettext_noop("the most points"),
            "fewest_points": gettext_noop("the fewest points"),
        },
        effect="check",
        label=gettext_noop("Next dealer"),
        help=gettext_noop("who deals the next party (loser, most_points and fewest_points are checked)"),
    )


# -- scoring -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class SeatHand:
    """One participant's part of a party, already validated."""

    captured: int
    position: int | None
    flags: frozenset[str]
    left: tuple[Card, ...]


def penalty(o: BankOptions, left: tuple[Card, ...]) -> tuple[int, Message]:
    """The points a player who did not go out loses under rule B, and how they add up (spec 9)."""
    p0 = sum(card_points(c) for c in left)
    count = len(left)
    zero = sum(1 for c in left if card_points(c) == 0)
    if o.penalty_option == "cards":
        return p0, Message("bank.penalty.cards", {"p0": p0})
    reading = o.penalty_reading
    if o.penalty_option == "flat":
        fixed = {"p0": p0, "fixed": o.penalty_flat}
        if reading == "additive":
            return p0 + o.penalty_flat, Message("bank.penalty.flat_additive", fixed)
        if reading == "replace":
            return o.penalty_flat, Message("bank.penalty.flat_replace", fixed)
        if p0 > 0:
            return p0, Message("bank.penalty.flat_not_pointless", fixed)
        return o.penalty_flat, Message("bank.penalty.flat_pointless", fixed)
    k = o.penalty_per_card
    per_card = {"p0": p0, "k": k, "count": count, "zero": zero}
    if reading == "additive":
        return p0 + k * count, Message("bank.penalty.per_card_additive", per_card)
    if reading == "replace":
        return k * count, Message("bank.penalty.per_card_replace", per_card)
    return p0 + k * zero, Message("bank.penalty.per_card_pointless", per_card)


def seat_lines(o: BankOptions, hand: SeatHand) -> list[tuple[str, int, Message]]:
    """The breakdown lines ``(item, points, note)`` of one participant (spec 9, computation)."""
    lines = [("captured", hand.captured, Message("bank.note.captured", {"points": hand.captured}))]
    r = hand.position
    if r is not None:
        place = PLACES[r]
        finish = Message("bank.note.finish", {"points": BASE[r], "place": place})
        if "king" in hand.flags:
            if o.king_bonus == "additive":
                lines.append(("finish", BASE[r], finish))
                note = Message("bank.note.king_additive", {"points": KING[r]})
                lines.append(("finish_king", KING[r], note))
            else:
                params = {"points": KING[r], "base": BASE[r], "place": place}
                note = Message("bank.note.king_replacing", params)
                lines.append(("finish_king", KING[r], note))
        else:
            lines.append(("finish", BASE[r], finish))
        if "four_of_kind" in hand.flags:
            note = Message("bank.note.four_of_kind", {"points": FOUR_OF_KIND})
            lines.append(("four_of_kind", FOUR_OF_KIND, note))
        if "four_run" in hand.flags:
            note = Message("bank.note.four_run", {"points": RUN[r], "place": place})
            lines.append(("four_run", RUN[r], note))
        # Trump king and four kings take the pile back: its points are in `captured`,
        # and they count as going out with a king (spec 1.9); no further bonus.
    elif o.leftover_rule == "penalty":
        amount, why = penalty(o, hand.left)
        held = Message("bank.note.penalty_held", {"amount": amount, "cards": " ".join(map(str, hand.left))})
        lines.append(("penalty", -amount, Message("bank.note.penalty", {"held": held, "why": why})))
    return lines


def seat_score(o: BankOptions, hand: SeatHand) -> int:
    return sum(points for _, points, _ in seat_lines(o, hand))


def headline(o: BankOptions, hand: SeatHand) -> Message:
    """A short description of how the seat's party went, for explanations.

    How a player went out is told by phrases that each wrap the one before
    ("{head} with a king"), so every language orders them its own way.
    """
    if hand.position is None:
        return Message("bank.headline.out" if o.leftover_rule == "penalty" else "bank.headline.out_rule_a")
    text = Message("bank.headline.finished", {"place": PLACES[hand.position]})
    if "four_kings" in hand.flags:
        text = Message("bank.headline.four_kings", {"head": text})
    elif "trump_king" in hand.flags:
        text = Message("bank.headline.trump_king", {"head": text})
    elif "king" in hand.flags:
        text = Message("bank.headline.king", {"head": text})
    if "four_of_kind" in hand.flags:
        text = Message("bank.headline.four_of_kind", {"head": text})
    if "four_run" in hand.flags:
        text = Message("bank.headline.four_run", {"head": text})
    return text


def explain(o: BankOptions, hand: SeatHand, declared: int) -> Message:
    """Why the seat scores what it does, and what the declared value most likely came from."""
    lines = seat_lines(o, hand)
    total = sum(points for _, points, _ in lines)
    terms = lines[0][2]
    for _, points, note in lines[1:]:
        terms = Message("bank.minus" if points < 0 else "bank.plus", {"a": terms, "b": note})
    hints = []
    for changes in _alternative_options(o):
        alt = dataclasses.replace(o, **changes)
        if seat_score(alt, hand) == declared:
            setting = ", ".join(f"{name} = {value}" for name, value in changes.items())
            hints.append(Message("bank.hint.option", {"declared": declared, "setting": setting}))
    for item, points, note in lines:
        if points and total - points == declared:
            left_out = note.params["held"] if item == "penalty" else note
            hints.append(Message("bank.hint.left_out", {"declared": declared, "item": left_out}))
    params = {"headline": headline(o, hand), "terms": terms, "total": total}
    if hints:
        return Message("bank.explain_hints", {**params, "hints": hints[:2]})
    return Message("bank.explain", params)


def _alternative_options(o: BankOptions) -> list[dict[str, Any]]:
    """Scoring option settings other than ``o`` a table may have played by, fewest changes first."""
    return sorted(_option_changes(o), key=len)


def _option_changes(o: BankOptions) -> Iterator[dict[str, Any]]:
    yield from ({"king_bonus": v} for v in ("additive", "replace") if v != o.king_bonus)
    yield from ({"leftover_rule": v} for v in ("penalty", "none") if v != o.leftover_rule)
    current = (o.penalty_option, o.penalty_reading, o.penalty_flat, o.penalty_per_card)
    for option_, reading, flat, per_card in itertools.product(
        ("cards", "flat", "per_card"),
        ("additive", "replace", "pointless_only"),
        PENALTY_FLAT_AMOUNTS,
        PENALTY_PER_CARD_AMOUNTS,
    ):
        # Only settings that change the penalty: the reading and amounts of the other option are moot.
        if option_ == "cards" and (reading, flat, per_card) != current[1:]:
            continue
        if option_ == "flat" and per_card != o.penalty_per_card:
            continue
        if option_ == "per_card" and flat != o.penalty_flat:
            continue
        candidate = (option_, reading, flat, per_card)
        if candidate == current or o.leftover_rule != "penalty":
            continue
        names = ("penalty_option", "penalty_reading", "penalty_flat", "penalty_per_card")
        yield {n: v for n, v, c in zip(names, candidate, current, strict=True) if v != c}


# -- the hand record -------------------------------------------------------------

_CARD_SCHEMA = {
    "type": "string",
    "description": "a card of the 36-card pack: rank 6–10 (or T), J, Q, K, A, then suit S H D C or ♠ ♥ ♦ ♣",
    "pattern": r"^\s*([6-9]|10|[TtJjQqKkAa])\s*[SsHhDdCc♠♥♦♣]\s*$",
}


def _per_seat(items: dict[str, Any], description: str) -> dict[str, Any]:
    return {"type": "array", "minItems": 2, "maxItems": 4, "items": items, "description": description}


RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Bank party",
    "type": "object",
    "required": ["dealer", "finish", "declared"],
    "anyOf": [{"required": ["captured_points"]}, {"required": ["captured"]}],
    "properties": {
        "dealer": {"type": "integer", "minimum": 0, "maximum": 3, "description": "the dealer's seat"},
        "captured_points": _per_seat(
            {"type": "integer", "minimum": 0, "maximum": PACK_POINTS},
            "per seat, the card points in the piles taken (a pile taken back with the trump king or "
            "the four kings included)",
        ),
        "captured": _per_seat(
            {"type": "array", "items": _CARD_SCHEMA},
            "per seat, the cards taken, instead of (or as well as) captured_points",
        ),
        "finish": _per_seat(
            {"type": ["integer", "null"], "minimum": 1, "maximum": 3},
            "per seat, the going-out position 1, 2, 3, or null for a player who did not go out",
        ),
        "finish_bonus": {
            "type": ["array", "null"],
            "minItems": 2,
            "maxItems": 4,
            "description": "per seat, how the player went out (null or a missing flag: false)",
            "items": {
                "type": ["object", "null"],
                "additionalProperties": False,
                "properties": {
                    "king": {"type": ["boolean", "null"], "description": "went out with a king"},
                    "trump_king": {
                        "type": ["boolean", "null"],
                        "description": "with the trump king (also a king; the pile is in captured_points)",
                    },
                    "four_of_kind": {
                        "type": ["boolean", "null"],
                        "description": "laid four of a kind, not kings",
                    },
                    "four_kings": {
                        "type": ["boolean", "null"],
                        "description": "laid the four kings (also a king; the pile is in captured_points)",
                    },
                    "four_run": {"type": ["boolean", "null"], "description": "a same-suit run of four"},
                },
            },
        },
        "left_cards": {
            "type": ["array", "null"],
            "minItems": 2,
            "maxItems": 4,
            "items": {"type": "array", "items": _CARD_SCHEMA},
            "description": "per seat, the cards left in hand; required under leftover_rule = penalty, "
            "where every player who did not go out has at least one",
        },
        "declared": _per_seat({"type": "integer"}, "per seat, the party score the player claims"),
    },
}


_BAD: Any = object()  # a per-seat entry that failed to read (its error is already recorded)


@dataclass(slots=True)
class _Record:
    dealer: int | None
    captured: list[Any]
    captured_path: str
    finish: list[Any]
    flags: list[Any]
    left: list[Any]
    declared: list[Any]


# -- the ruleset ---------------------------------------------------------------


#: Reads one seat's entry of a per-seat list: ``read(f, value, path)``, ``_BAD`` when rejected.
_EntryReader = Callable[[Fields, Any, str], Any]


@register
class Bank(Ruleset):
    key = "bank"
    title = gettext_noop("Bank («Банк»)")
    seat_counts = (2, 3, 4)
    Options = BankOptions
    options: BankOptions
    record_schema = RECORD_SCHEMA

    def initial_state(self) -> dict[str, Any]:
        return {
            "parties": 0,
            "totals": [0] * self.seats,
            "last_dealer": None,
            "last_loser": None,
            "tiebreak_seats": None,
            "over": False,
        }

    def judge(self, totals: list[int]) -> tuple[bool, list[int] | None]:
        """Spec 9, match end: (over, tiebreak_seats) for the totals after a party."""
        top = max(totals)
        if top < self.options.target:
            return False, None
        leaders = [seat for seat, total in enumerate(totals) if total == top]
        return (True, None) if len(leaders) == 1 else (False, leaders)

    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        n = self.seats
        problems = state_key_problems(state, STATE_KEYS)
        if problems:
            return problems
        if not is_int(state["parties"]) or state["parties"] < 0:
            problems.append(Message("state.count_negative", {"key": "parties"}))
        totals = state["totals"]
        if not isinstance(totals, list) or len(totals) != n or not all(map(is_int, totals)):
            problems.append(Message("state.integers", {"key": "totals", "n": n}))
        for key in ("last_dealer", "last_loser"):
            value = state[key]
            if value is not None and not (is_int(value) and 0 <= value < n):
                problems.append(Message("state.seat_or_null", {"key": key, "last": n - 1}))
        tied = state["tiebreak_seats"]
        if tied is not None and not (
            isinstance(tied, list)
            and len(tied) >= 2
            and all(is_int(s) and 0 <= s < n for s in tied)
            and tied == sorted(set(tied))
        ):
            problems.append(Message("bank.state.tiebreak_seats"))
        if not isinstance(state["over"], bool):
            problems.append(Message("state.over_boolean"))
        if problems:
            return problems
        # Match end depends on the totals alone (spec 9), so over and tiebreak_seats must agree with them.
        over, expected_tied = self.judge(totals)
        if (state["over"], tied) != (over, expected_tied):
            problems.append(
                Message(
                    "bank.state.judge",
                    {
                        "over": describe(state["over"]),
                        "tied": str(tied),
                        "totals": str(totals),
                        "target": self.options.target,
                    },
                )
            )
        if state["parties"] == 0 and (any(totals) or state["last_dealer"] is not None):
            problems.append(Message("bank.state.nothing_played"))
        return problems

    # -- evaluation --------------------------------------------------------
    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        o = self.options
        n = self.seats
        tied = state["tiebreak_seats"]
        if tied is not None and o.tiebreak_players == "tied_only":
            playing = frozenset(tied)
        else:
            playing = frozenset(range(n))
        f = Fields(ev, n)
        rec = self._read(f, record)
        self._cross_check(f, rec, playing)
        if ev.errors:
            return

        hands: dict[int, SeatHand] = {}
        scores = [0] * n  # non-participants of a tie-break party score 0 (spec 9)
        for p in sorted(playing):
            hands[p] = SeatHand(rec.captured[p], rec.finish[p], rec.flags[p], rec.left[p])
            for item, points, note in seat_lines(o, hands[p]):
                ev.line(p, item, points, note)
                scores[p] += points
        ev.scores = scores

        for p in range(n):
            declared = rec.declared[p]
            if declared == scores[p]:
                continue
            if p in hands:
                ev.mismatch(p, declared, scores[p], explain(o, hands[p], declared))
            else:
                ev.mismatch(p, declared, 0, "bank.mismatch_non_participant")

        self._warn(ev, state, rec, playing)

        counted = rec.declared if accept_declared and ev.mismatches else scores
        totals = [t + s for t, s in zip(state["totals"], counted, strict=True)]
        losers = [p for p in sorted(playing) if rec.finish[p] is None]
        over, tiebreak = self.judge(totals)
        ev.state_after = {
            "parties": state["parties"] + 1,
            "totals": totals,
            "last_dealer": rec.dealer,
            "last_loser": losers[0] if len(losers) == 1 else None,
            "tiebreak_seats": tiebreak,
            "over": over,
        }
        ev.match_over = over
        if over:
            ev.result = {
                "placements": competition_ranking(totals),
                "totals": totals,
                "winner": totals.index(max(totals)),
            }

    def _read(self, f: Fields, record: dict[str, Any]) -> _Record:
        """Structural reading of the record; entries that fail are ``_BAD`` after an error."""
        n = self.seats
        penalty_rule = self.options.leftover_rule == "penalty"

        raw = f.get(record, "dealer")
        dealer = None if raw is MISSING else f.seat(raw, "dealer")

        seen: dict[Card, str] = {}
        raw_points = f.get(record, "captured_points", required=False)
        raw_cards = f.get(record, "captured", required=False)
        if raw_points is MISSING and raw_cards is MISSING:
            f.error("field_missing", "captured_points", "bank.captured_needed")
        points = cards = None
        if raw_points is not MISSING:
            points = self._each(f, raw_points, "captured_points", self._read_points)
        if raw_cards is not MISSING:
            cards = self._each(f, raw_cards, "captured", self._cards(seen))
        if points is not None and cards is not None:
            for p in range(n):
                if points[p] is _BAD or cards[p] is _BAD:
                    continue
                worth = sum(map(card_points, cards[p]))
                if worth != points[p]:
                    f.error(
                        "captured_conflict",
                        f"captured_points[{p}]",
                        "bank.captured_conflict",
                        seat=p,
                        points=points[p],
                        worth=worth,
                    )
        if points is not None:
            captured, captured_path = points, "captured_points"
        elif cards is not None:
            captured = [c if c is _BAD else sum(map(card_points, c)) for c in cards]
            captured_path = "captured"
        else:
            captured, captured_path = [_BAD] * n, "captured_points"

        raw = f.get(record, "left_cards", required=penalty_rule)
        if raw is MISSING:
            left: list[Any] = [()] * n if not penalty_rule else [_BAD] * n
        else:
            left = self._each(f, raw, "left_cards", self._cards(seen)) or [_BAD] * n

        raw = f.get(record, "finish")
        finish = None if raw is MISSING else self._each(f, raw, "finish", self._read_position)

        raw = f.get(record, "finish_bonus", required=False)
        no_bonus: list[Any] = [frozenset()] * n
        flags = no_bonus if raw is MISSING else self._each(f, raw, "finish_bonus", self._read_flags)

        raw = f.get(record, "declared")
        declared = None if raw is MISSING else f.integers(raw, "declared")

        return _Record(
            dealer=dealer,
            captured=captured,
            captured_path=captured_path,
            finish=finish or [_BAD] * n,
            flags=flags or [_BAD] * n,
            left=left,
            declared=declared or [_BAD] * n,
        )

    @staticmethod
    def _each(f: Fields, value: Any, path: str, read: _EntryReader) -> list[Any] | None:
        """Read a per-seat list entry by entry; ``None`` if the list itself is unusable.

        ``read(f, value, path)`` returns ``_BAD`` for an entry it rejected.
        """
        items = f.per_seat(value, path)
        if items is None:
            return None
        out = []
        for i, item in enumerate(items):
            out.append(read(f, item, join(path, i)))
        return out

    @staticmethod
    def _cards(seen: dict[Card, str]) -> _EntryReader:
        """A reader of one seat's cards; ``seen`` spans captured and left_cards (card_duplicate)."""

        def read(f: Fields, value: Any, path: str) -> Any:
            cards = f.cards(value, path, SHORT_PACK, seen)
            return _BAD if cards is None else tuple(cards)

        return read

    @staticmethod
    def _read_points(f: Fields, value: Any, path: str) -> Any:
        if not is_int(value):
            f.error("field_invalid", path, "field.not_integer", path=path, value=describe(value))
            return _BAD
        if not 0 <= value <= PACK_POINTS:
            f.error(
                "captured_points_invalid",
                path,
                "bank.captured_points_range",
                path=path,
                value=value,
                maximum=PACK_POINTS,
            )
            return _BAD
        return value

    @staticmethod
    def _read_position(f: Fields, value: Any, path: str) -> Any:
        """A going-out position, or ``None`` (did not go out). Range is judged with the others."""
        if value is None or is_int(value):
            return value
        f.error("field_invalid", path, "bank.position_invalid", path=path, value=describe(value))
        return _BAD

    @staticmethod
    def _read_flags(f: Fields, value: Any, path: str) -> Any:
        """The set of true flags; ``null`` and missing flags are false (spec 9)."""
        if value is None:
            return frozenset()
        if not isinstance(value, dict):
            f.error("field_invalid", path, "bank.flags_invalid", path=path, value=describe(value))
            return _BAD
        flags = set()
        ok = True
        for key, flag in value.items():
            where = join(path, str(key))
            if key not in FLAGS:
                f.error("field_invalid", where, "bank.flag_unknown", key=repr(key), flags=", ".join(FLAGS))
                ok = False
            elif flag is not None and not isinstance(flag, bool):
                f.error("field_invalid", where, "field.not_boolean", path=where, value=describe(flag))
                ok = False
            elif flag:
                flags.add(key)
        return frozenset(flags) if ok else _BAD

    def _cross_check(self, f: Fields, rec: _Record, playing: frozenset[int]) -> None:
        """Spec 9, validation: the errors that relate fields and seats to each other."""
        o = self.options
        n = self.seats
        if rec.dealer is not None and rec.dealer not in playing:
            f.error(
                "seat_not_participating",
                "dealer",
                "bank.dealer_not_playing",
                seat=rec.dealer,
                seats=str(sorted(playing)),
            )

        for p in range(n):
            if p in playing:
                continue
            if rec.captured[p] not in (_BAD, 0):
                where = f"{rec.captured_path}[{p}]"
                f.error("non_participant_scored", where, "bank.non_participant.captured", seat=p)
            if rec.finish[p] not in (_BAD, None):
                f.error("non_participant_scored", f"finish[{p}]", "bank.non_participant.finish", seat=p)
            if rec.flags[p] is not _BAD and rec.flags[p]:
                f.error("non_participant_scored", f"finish_bonus[{p}]", "bank.non_participant.bonus", seat=p)
            if rec.left[p] is not _BAD and rec.left[p]:
                f.error("non_participant_scored", f"left_cards[{p}]", "bank.non_participant.cards", seat=p)

        if _BAD not in rec.finish:
            positions = sorted(rec.finish[p] for p in playing if rec.finish[p] is not None)
            m = len(positions)
            if positions != list(range(1, m + 1)):
                f.error(
                    "finish_positions_invalid",
                    "finish",
                    "bank.positions_invalid",
                    positions=str(positions),
                    m=m,
                )
            if m > len(playing) - 1:
                f.error("finish_all_out", "finish", "bank.all_out", m=m, n=len(playing))

        for p in sorted(playing):
            position, flags, left = rec.finish[p], rec.flags[p], rec.left[p]
            if flags is not _BAD and flags:
                where = f"finish_bonus[{p}]"
                if position is None:
                    f.error("finish_bonus_for_non_finisher", where, "bank.bonus_not_out", seat=p)
                if ("trump_king" in flags or "four_kings" in flags) and "king" not in flags:
                    f.error("finish_flags_inconsistent", where, "bank.flags_king")
                if "four_kings" in flags and "four_of_kind" in flags:
                    f.error("finish_flags_inconsistent", where, "bank.flags_four_kings")
                if "trump_king" in flags and o.trump_scheme == 2:
                    f.error("trump_king_without_trumps", join(where, "trump_king"), "bank.no_trump_king")
            if left is _BAD or position is _BAD:
                continue
            if position is not None and left:
                f.error("left_cards_for_finisher", f"left_cards[{p}]", "bank.left_cards_finisher", seat=p)
            if position is None and not left and o.leftover_rule == "penalty":
                f.error("left_cards_missing", f"left_cards[{p}]", "bank.left_cards_missing", seat=p)

        if _BAD not in rec.captured and _BAD not in rec.left:
            captured = sum(rec.captured)
            held = sum(card_points(c) for cards in rec.left for c in cards)
            if captured + held > PACK_POINTS:
                f.error(
                    "points_exceed_deck",
                    rec.captured_path,
                    "bank.points_exceed_deck",
                    captured=captured,
                    held=held,
                    total=captured + held,
                    pack=PACK_POINTS,
                )

    def _warn(self, ev: Evaluation, state: dict[str, Any], rec: _Record, playing: frozenset[int]) -> None:
        went_out = sum(1 for p in playing if rec.finish[p] is not None)
        if went_out < len(playing) - 1:
            ev.warn("play_blocked", "finish", "bank.play_blocked", went_out=went_out, n=len(playing))
        rule = self.options.next_dealer_rule
        if state["parties"] == 0 or rec.dealer is None:
            return
        dealer = rec.dealer
        totals = [state["totals"][p] for p in sorted(playing)]
        if rule == "loser" and state["last_loser"] in playing and dealer != state["last_loser"]:
            loser = state["last_loser"]
            ev.warn("dealer_rule", "dealer", "bank.dealer_loser", seat=dealer, rule=rule, loser=loser)
        elif rule == "most_points" and state["totals"][dealer] != max(totals):
            ev.warn("dealer_rule", "dealer", "bank.dealer_most", seat=dealer, rule=rule, points=max(totals))
        elif rule == "fewest_points" and state["totals"][dealer] != min(totals):
            ev.warn("dealer_rule", "dealer", "bank.dealer_fewest", seat=dealer, rule=rule, points=min(totals))
