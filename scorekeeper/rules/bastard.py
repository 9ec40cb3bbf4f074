"""Bastard (the Australian game Ugly), spec section 10: tricks, jacks and the two sevens.

+1 per trick; the jacks cost 1 (♠), 2 (♣), 3 (♦), 4 (♥). The Ugly card (7♦) doubles its
taker's jack penalties, or doubles his tricks when he took no jack; the Charm (7♣) in the
same pile cancels the doubling, or quadruples the tricks of a taker without jacks.
"""

from __future__ import annotations

from dataclasses import dataclass
from math import ceil
from typing import Any

from .cards import Card
from .errors import CardInvalid
from .fields import MISSING, Fields, describe, is_int, join
from .messages import Message, gettext_noop, pgettext_lazy
from .options import GameOptions, option
from .result import Evaluation, competition_ranking
from .ruleset import Ruleset, register, state_key_problems

JACK_PENALTY = {Card("J", "S"): 1, Card("J", "C"): 2, Card("J", "D"): 3, Card("J", "H"): 4}
UGLY = Card("7", "D")
CHARM = Card("7", "C")
SPECIALS = (*JACK_PENALTY, UGLY, CHARM)
TRUMPS = ("S", "H", "D", "C", "NT")
_TRUMP_ALIASES = {t: t for t in TRUMPS} | {"♠": "S", "♥": "H", "♦": "D", "♣": "C"}
#: Tricks in a hand: 13 cards each with 4 players, 17 each with 3 (one card removed).
TRICKS = {3: 17, 4: 13}
AUTO_HANDS = {3: 9, 4: 7}
JACKS_TOTAL = sum(JACK_PENALTY.values())  # 10


@dataclass(frozen=True)
class BastardOptions(GameOptions):
    charm_alone_quadruples: bool = option(
        False,
        seed=True,
        effect="scoring",
        label=gettext_noop("Charm alone scores four"),
        help=gettext_noop(
            "7♣ without 7♦ and without jacks scores 4 per trick (seed reading); classic: no effect."
        ),
    )
    removed_card_3p: str = option(
        "2S",
        seed="QS",
        effect="recorded",
        choices={"2S": gettext_noop("the two of spades"), "QS": gettext_noop("the queen of spades")},
        label=gettext_noop("Card removed with 3 players"),
        help=gettext_noop("Card removed from the pack with 3 players."),
    )
    hands: int | str = option(
        "auto",
        effect="scoring",
        auto=True,
        minimum=1,
        label=gettext_noop("Hands"),
        help=gettext_noop(
            'Hands per match; "auto" = 7 with 4 players, 9 with 3 (passing then covers the whole hand).'
        ),
    )
    passing: str = option(
        "increasing",
        seed="none",
        effect="check",
        choices={
            "increasing": gettext_noop("1, 3, 5 … cards (pagat)"),
            "none": pgettext_lazy("passing", "none"),
        },
        label=gettext_noop("Passing"),
        help=gettext_noop(
            "Cards passed before each hand: 1, 3, 5 … (pagat), or none (seed); checked as a warning."
        ),
    )


@dataclass(frozen=True, slots=True)
class Pile:
    """What one player took in a hand: his tricks and the special cards among them."""

    tricks: int
    jacks: int  # Σ penalty of the jacks taken
    ugly: bool
    charm: bool


_CHARM_AND_UGLY = Message("bastard.note.charm_and_ugly")
_UGLY_DOUBLES = Message("bastard.note.ugly_doubles")
_CHARM_ALONE = Message("bastard.note.charm_alone")


def hand_score(pile: Pile, charm_alone_quadruples: bool = False) -> list[tuple[str, int, Message]]:
    """The breakdown lines (item, points, note) of one player's hand (spec 10, Computation)."""
    t, j = pile.tricks, pile.jacks
    lines = [("tricks", t, Message("bastard.note.tricks", {"tricks": t}))]
    if pile.ugly and j == 0:
        if pile.charm:
            lines.append(("charm_bonus", 3 * t, _CHARM_AND_UGLY))
        else:
            lines.append(("ugly_bonus", t, _UGLY_DOUBLES))
    elif pile.ugly and not pile.charm:
        lines.append(("jacks", -2 * j, Message("bastard.note.jacks_doubled", {"jacks": j})))
    elif j:
        code = "bastard.note.jacks_cancelled" if pile.ugly else "bastard.note.jacks"
        lines.append(("jacks", -j, Message(code, {"jacks": j})))
    elif pile.charm and charm_alone_quadruples:
        lines.append(("charm_bonus", 3 * t, _CHARM_ALONE))
    return lines


def expected_sum(piles: list[Pile], charm_alone_quadruples: bool = False) -> int:
    """Spec 10 self-check: Σ scores = (Σ tricks − 10) + Δ, Δ from the 7♦ taker (and a clean
    Charm-alone holder under ``charm_alone_quadruples``). Used to explain score mismatches."""
    delta = 0
    for pile in piles:
        if pile.ugly:
            if pile.jacks and not pile.charm:
                delta -= pile.jacks
            elif not pile.jacks:
                delta += 3 * pile.tricks if pile.charm else pile.tricks
        elif pile.charm and not pile.jacks and charm_alone_quadruples:
            delta += 3 * pile.tricks
    return sum(p.tricks for p in piles) - JACKS_TOTAL + delta


RECORD_SCHEMA: dict[str, Any] = {
    "$schema": "https://json-schema.org/draft/2020-12/schema",
    "title": "Bastard hand",
    "type": "object",
    "required": ["dealer", "trump", "tricks", "specials", "declared"],
    "properties": {
        "dealer": {"type": "integer", "minimum": 0, "description": "seat who dealt; rotates clockwise"},
        "trump": {"enum": list(TRUMPS), "description": "trump suit named by the dealer's left, or NT"},
        "pass_count": {
            "type": ["integer", "null"],
            "minimum": 0,
            "description": "cards each player passed left before play (1, 3, 5 … by hand number)",
        },
        "tricks": {
            "type": "array",
            "items": {"type": "integer", "minimum": 0},
            "description": "tricks taken per seat: they add up to 13 with 4 players, 17 with 3",
        },
        "specials": {
            "type": "array",
            "items": {"type": "array", "items": {"enum": [str(c) for c in SPECIALS]}},
            "description": "per seat, which of JS JC JD JH 7D 7C are in that player's tricks",
        },
        "declared": {
            "type": "array",
            "items": {"type": "integer"},
            "description": "the hand score each player claims",
        },
    },
}

STATE_KEYS = ("hands_played", "totals", "last_dealer", "over")


@register
class Bastard(Ruleset):
    key = "bastard"
    title = gettext_noop("Bastard (Ugly)")
    seat_counts = (3, 4)
    Options = BastardOptions
    options: BastardOptions
    record_schema = RECORD_SCHEMA

    @property
    def hands_per_match(self) -> int:
        hands = self.options.hands
        return hands if isinstance(hands, int) else AUTO_HANDS.get(self.seats, 7)  # or "auto"

    def initial_state(self) -> dict[str, Any]:
        return {"hands_played": 0, "totals": [0] * self.seats, "last_dealer": None, "over": False}

    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        n = self.seats
        problems = state_key_problems(state, STATE_KEYS)
        if problems:
            return problems
        played, totals, last, over = (state[k] for k in STATE_KEYS)
        if not is_int(played) or played < 0:
            problems.append(Message("state.count_negative", {"key": "hands_played"}))
        if not (isinstance(totals, list) and len(totals) == n and all(map(is_int, totals))):
            problems.append(Message("state.integers", {"key": "totals", "n": n}))
        if last is not None and not (is_int(last) and 0 <= last < n):
            problems.append(Message("state.seat_or_null", {"key": "last_dealer", "last": n - 1}))
        if not isinstance(over, bool):
            problems.append(Message("state.over_boolean"))
        if problems:
            return problems
        if (last is None) != (played == 0):
            problems.append(Message("bastard.state.last_dealer"))
        if played > self.hands_per_match or (played == self.hands_per_match and not over):
            problems.append(Message("bastard.state.over", {"hands": self.hands_per_match, "played": played}))
        return problems

    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        n = self.seats
        f = Fields(ev, n)
        dealer = f.get(record, "dealer")
        dealer = None if dealer is MISSING else f.seat(dealer, "dealer")
        trump = self._read_trump(f, f.get(record, "trump"))
        pass_count = f.get(record, "pass_count", required=False)
        if pass_count is not MISSING:
            pass_count = f.integer(pass_count, "pass_count", minimum=0)
        tricks = self._read_tricks(f, f.get(record, "tricks"))
        specials = self._read_specials(f, f.get(record, "specials"))
        declared = f.get(record, "declared")
        declared = None if declared is MISSING else f.integers(declared, "declared")
        if tricks is not None and specials is not None:
            for p in range(n):
                k = len(specials[p])
                if tricks[p] < ceil(k / n):
                    ev.error(
                        "specials_without_tricks",
                        join("specials", p),
                        "bastard.specials_without_tricks",
                        seat=p,
                        tricks=tricks[p],
                        specials=k,
                        needed=ceil(k / n),
                        n=n,
                    )
        if (
            ev.errors
            or dealer is None
            or trump is None
            or tricks is None
            or specials is None
            or declared is None
        ):
            return

        piles = [
            Pile(
                tricks=tricks[p],
                jacks=sum(JACK_PENALTY.get(card, 0) for card in specials[p]),
                ugly=UGLY in specials[p],
                charm=CHARM in specials[p],
            )
            for p in range(n)
        ]
        quadruple = self.options.charm_alone_quadruples
        scores = []
        for p, pile in enumerate(piles):
            lines = hand_score(pile, quadruple)
            for item, points, note in lines:
                ev.line(p, item, points, note)
            scores.append(sum(points for _, points, _ in lines))
        ev.scores = scores

        if declared != scores:
            total = expected_sum(piles, quadruple)
            for p in range(n):
                if declared[p] != scores[p]:
                    notes = [note for _, _, note in hand_score(piles[p], quadruple)]
                    ev.mismatch(
                        p,
                        declared[p],
                        scores[p],
                        "bastard.mismatch",
                        notes=notes,
                        score=scores[p],
                        total=total,
                        declared=sum(declared),
                    )

        self._warn(ev, state, dealer, pass_count)

        # Spec 1.6: a disputed hand adds the declared scores.
        counted = declared if (accept_declared and ev.mismatches) else scores
        played = state["hands_played"] + 1
        totals = [t + s for t, s in zip(state["totals"], counted, strict=True)]
        over = played >= self.hands_per_match
        ev.state_after = {"hands_played": played, "totals": totals, "last_dealer": dealer, "over": over}
        ev.match_over = over
        if over:
            ev.result = {"placements": competition_ranking(totals), "totals": totals}

    # -- reading the record ------------------------------------------------------
    def _read_trump(self, f: Fields, value: Any) -> str | None:
        if value is MISSING:
            return None
        trump = _TRUMP_ALIASES.get(value.strip().upper()) if isinstance(value, str) else None
        if trump is None:
            f.error("trump_invalid", "trump", "bastard.trump_invalid", value=describe(value))
        return trump

    def _read_tricks(self, f: Fields, value: Any) -> list[int] | None:
        if value is MISSING:
            return None
        items = f.per_seat(value, "tricks")
        if items is None:
            return None
        out = []
        for p, item in enumerate(items):
            where = join("tricks", p)
            if not is_int(item):
                f.error("field_invalid", where, "field.not_integer", path=where, value=describe(item))
            elif item < 0:
                f.error("tricks_invalid", where, "bastard.tricks_negative", path=where, value=item)
            else:
                out.append(item)
        if len(out) != self.seats:
            return None
        expected = TRICKS[self.seats]
        if sum(out) != expected:
            f.error(
                "tricks_sum",
                "tricks",
                "bastard.tricks_sum",
                total=sum(out),
                seats=self.seats,
                expected=expected,
            )
            return None
        return out

    def _read_specials(self, f: Fields, value: Any) -> list[list[Card]] | None:
        if value is MISSING:
            return None
        items = f.per_seat(value, "specials")
        if items is None:
            return None
        seen: dict[Card, str] = {}
        out: list[list[Card]] = []
        ok = True
        for p, cards in enumerate(items):
            path = join("specials", p)
            cards = f.array(cards, path)
            if cards is None:
                ok = False
                continue
            mine = []
            for i, raw in enumerate(cards):
                where = join(path, i)
                try:
                    card = Card.parse(raw)
                except CardInvalid as exc:
                    f.error("card_invalid", where, "field.card_invalid", path=where, reason=exc.text)
                    ok = False
                    continue
                if card not in SPECIALS:
                    f.error(
                        "special_invalid",
                        where,
                        "bastard.special_invalid",
                        path=where,
                        card=str(card),
                        specials=" ".join(map(str, SPECIALS)),
                    )
                    ok = False
                elif card in seen:
                    f.error(
                        "special_duplicate",
                        where,
                        "field.card_duplicate",
                        path=where,
                        card=str(card),
                        other=seen[card],
                    )
                    ok = False
                else:
                    seen[card] = where
                    mine.append(card)
            out.append(mine)
        if not ok:
            return None
        missing = [str(card) for card in SPECIALS if card not in seen]
        if missing:
            f.error("special_missing", "specials", "bastard.special_missing", cards=", ".join(missing))
            return None
        return out

    # -- warnings ----------------------------------------------------------------
    def _warn(self, ev: Evaluation, state: dict[str, Any], dealer: int, pass_count: Any) -> None:
        last = state["last_dealer"]
        if last is not None and dealer != (last + 1) % self.seats:
            ev.warn(
                "dealer_rotation",
                "dealer",
                "bastard.dealer_rotation",
                last=last,
                expected=(last + 1) % self.seats,
                dealer=dealer,
            )
        if pass_count is MISSING:
            return
        hand = state["hands_played"] + 1
        expected = 2 * hand - 1 if self.options.passing == "increasing" else 0
        if pass_count != expected:
            ev.warn(
                "pass_count_schedule",
                "pass_count",
                "bastard.pass_count",
                hand=hand,
                expected=expected,
                count=pass_count,
            )
