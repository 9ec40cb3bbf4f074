"""The two-hand rulesets of the piquet family: ``piquet`` (spec 3), ``piquet-au-cent`` (spec 4)
and ``piquet-auction`` (spec 5), their options, record schemas, contracts and match ends.

A hand is read with :mod:`.declarations` and :mod:`.play`, checked against the cards by
:mod:`.cards` when the record gives them (spec 2.6), and scored by :mod:`.reckoning`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..fields import MISSING, Fields, describe, is_int, join
from ..messages import Message, gettext_noop, pgettext_lazy, term
from ..options import GameOptions, option
from ..result import Evaluation, competition_ranking
from ..ruleset import Ruleset, register
from .cards import CARD_LEVEL_FIELDS, check_card_level
from .cards import RECORD_SCHEMA_PROPERTIES as CARD_LEVEL_SCHEMA
from .declarations import (
    TWO_HAND_DECLARATIONS,
    Declarations,
    declaration_schema,
    parse_declarations,
    sets_exclude_aces_option,
)
from .play import PlaySummary, parse_summary, parse_tricks, play_schema, report_short_play, summary_winners
from .reckoning import (
    Reckoning,
    ReckoningParams,
    apply_lines,
    auction_params,
    explain_mismatch,
    piquet_params,
    reckon,
    target_option,
)
from .state import advance_state, initial_piquet_state, piquet_state_problems, warn_dealer_rotation


def _two_hand_schema(
    extra_properties: dict[str, Any] | None = None, extra_required: tuple[str, ...] = ()
) -> dict[str, Any]:
    seat = {"type": "integer", "minimum": 0, "maximum": 1}
    properties: dict[str, Any] = {
        "dealer": seat,
        **declaration_schema(2),
        "tricks": {"type": "array", "items": seat, "maxItems": 12},
        "play": play_schema(),
        **CARD_LEVEL_SCHEMA,
        "declared": {"type": "array", "items": {"type": "integer"}, "minItems": 2, "maxItems": 2},
        **(extra_properties or {}),
    }
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "type": "object",
        "required": ["dealer", "carte_blanche", "point", "sequences", "sets", "declared", *extra_required],
        "properties": properties,
    }


# Declared alike by the two-hand games.
def _capot_additive_option() -> Any:
    text = gettext_noop("capot = 10 for the cards + 40 instead of 40 in all")
    label = gettext_noop("Capot on top of the cards")
    return option(False, seed=True, effect="scoring", label=label, help=text)


def _exchange_order_option() -> Any:
    return option(
        "elder_first",
        seed="dealer_first",
        effect="recorded",
        label=gettext_noop("Exchange order"),
        help=gettext_noop("who exchanges first"),
        choices={"elder_first": gettext_noop("elder first"), "dealer_first": gettext_noop("dealer first")},
    )


@dataclass(frozen=True)
class PiquetOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = _capot_additive_option()
    exchange_order: str = _exchange_order_option()
    deals: int = option(
        6,
        effect="scoring",
        minimum=1,
        label=gettext_noop("Deals"),
        help=gettext_noop("deals in a partie before the tie rule"),
    )
    rubicon: int = option(
        100,
        effect="scoring",
        minimum=1,
        label=gettext_noop("Rubicon"),
        help=gettext_noop("the Rubicon line and the game bonus"),
    )


@dataclass(frozen=True)
class AuCentOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = _capot_additive_option()
    exchange_order: str = _exchange_order_option()
    target: int = target_option()
    finish_hand: bool = option(
        False,
        seed=True,
        effect="scoring",
        label=gettext_noop("Play the deal out"),
        help=gettext_noop(
            "false: the game ends the moment a player reaches the target; "
            "true: the deal is played out and the higher total wins"
        ),
    )
    double_when: str = option(
        "loser_below_half",
        seed="loser_at_least_half",
        effect="scoring",
        choices={
            "loser_below_half": gettext_noop("the loser below half the target"),
            "loser_at_least_half": gettext_noop("the loser at half the target or more"),
        },
        label=gettext_noop("Double game"),
        help=gettext_noop("when the game counts double (half = target / 2)"),
    )


@dataclass(frozen=True)
class AuctionOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = _capot_additive_option()
    exchange: str = option(
        "allowed",
        seed="none",
        effect="recorded",
        choices={"allowed": gettext_noop("allowed"), "none": pgettext_lazy("exchange", "none")},
        label=gettext_noop("Exchange"),
        help=gettext_noop("whether players exchange"),
    )
    deals: int = option(
        6, effect="scoring", minimum=1, label=gettext_noop("Deals"), help=gettext_noop("deals in a partie")
    )
    rubicon: int = option(
        150,
        effect="scoring",
        minimum=1,
        label=gettext_noop("Rubicon"),
        help=gettext_noop("the Rubicon line and the game bonus"),
    )


@dataclass(frozen=True, slots=True)
class Contract:
    declarer: int
    tricks: int
    sign: str
    multiplier: int


#: What each part of an auction contract may be (spec 5), as the record schema states it, and
#: the message of a value outside it: the schema and the reading of a record are both built
#: from this table.
CONTRACT_PARTS: dict[str, tuple[dict[str, Any], str]] = {
    "declarer": ({"type": "integer", "minimum": 0, "maximum": 1}, "piquet.contract_declarer"),
    "tricks": ({"type": "integer", "minimum": 7, "maximum": 12}, "piquet.contract_tricks"),
    "sign": ({"enum": ["plus", "minus"]}, "piquet.contract_sign"),
    "multiplier": ({"enum": [1, 2, 4]}, "piquet.contract_multiplier"),
}


def contract_part_allows(part: str, value: Any) -> bool:
    """Whether ``value`` is allowed for that part of a contract: an integer within the bounds,
    or one of the listed values and of its type (``True`` is not the multiplier 1)."""
    bounds = CONTRACT_PARTS[part][0]
    if "enum" in bounds:
        return any(type(value) is type(allowed) and value == allowed for allowed in bounds["enum"])
    return is_int(value) and bounds["minimum"] <= value <= bounds["maximum"]


class TwoHandPiquet(Ruleset):
    """Shared evaluation of ``piquet``, ``piquet-au-cent`` and ``piquet-auction``."""

    seat_counts: ClassVar[tuple[int, ...]] = (2,)
    options: PiquetOptions | AuCentOptions | AuctionOptions

    # -- hooks -------------------------------------------------------------------------------------
    def _read_contract(self, record: dict[str, Any], f: Fields) -> Contract | None:
        return None

    def _params(self, contract: Contract | None) -> ReckoningParams:
        return piquet_params(self.options.capot_additive)

    def _target(self) -> int | None:
        """The target of the stop rule (spec 2.5), None when the whole deal is scored."""
        return None

    def _match_end(
        self, after: dict[str, Any], reckoning: Reckoning, disputed: bool
    ) -> dict[str, Any] | None:
        raise NotImplementedError

    # -- state ---------------------------------------------------------------------------------------
    def initial_state(self) -> dict[str, Any]:
        return initial_piquet_state(self.seats)

    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        problems = piquet_state_problems(state, self.seats)
        if not problems and not state["over"]:
            problems = self._unfinished_problems(state)
        return problems

    def _unfinished_problems(self, state: dict[str, Any]) -> list[Message]:
        """Why a state that says ``over: false`` should already be over (none by default)."""
        return []

    # -- evaluation ----------------------------------------------------------------------------------
    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        f = Fields(ev, 2)
        o = self.options
        dealer = None
        raw = f.get(record, "dealer")
        if raw is not MISSING:
            dealer = f.seat(raw, "dealer")
        contract = self._read_contract(record, f)
        rules = TWO_HAND_DECLARATIONS.with_aces(o.sets_exclude_aces)
        decl = parse_declarations(record, f, rules)
        winners = parse_tricks(record, f, 12, short_allowed=self._target() is not None)
        summary = parse_summary(record, f)
        has_tricks = record.get("tricks") is not None
        if summary is not None and (has_tricks or record.get("trick_cards") is not None):
            code = "piquet.play_conflict_tricks" if has_tricks else "piquet.play_conflict_cards"
            ev.error("play_conflict", "play", code)
        declared = f.get(record, "declared")
        declared = None if declared is MISSING else f.integers(declared, "declared")
        card_level = any(record.get(k) is not None for k in CARD_LEVEL_FIELDS)
        if decl is not None and dealer is not None and card_level:
            from_cards = check_card_level(record, ev, elder=1 - dealer, sets_exclude_aces=o.sets_exclude_aces)
            if from_cards is not None and record.get("trick_cards") is not None:
                winners = tuple(from_cards)
        if ev.errors or dealer is None or decl is None or declared is None:
            return  # each missing part reported its error
        elder = 1 - dealer
        params = self._params(contract)
        target = self._target()
        before = state["totals"]
        if summary is not None:
            reckoning = self._reckon_summary(ev, params, elder, decl, summary, before, target)
            if reckoning is None:
                return
        else:
            reckoning = reckon(
                params, first_leader=elder, declarations=decl, winners=winners, before=before, target=target
            )
            if reckoning.short:
                report_short_play(ev, winners, params.tricks)
                return
        if contract is not None:
            self._score_contract(contract, reckoning)
        apply_lines(ev, reckoning)
        scores = reckoning.scores()
        ev.scores = scores
        for seat in (0, 1):
            if declared[seat] != scores[seat]:
                why = explain_mismatch(reckoning, seat, declared[seat], scores[seat])
                ev.mismatch(seat, declared[seat], scores[seat], why)
        warn_dealer_rotation(ev, state, dealer)
        disputed = accept_declared and bool(ev.mismatches)
        after = advance_state(state, dealer, list(declared) if disputed else scores)
        result = self._match_end(after, reckoning, disputed)
        after["over"] = result is not None
        ev.state_after = after
        ev.match_over = result is not None
        ev.result = result

    def _reckon_summary(
        self,
        ev: Evaluation,
        params: ReckoningParams,
        elder: int,
        decl: Declarations,
        summary: PlaySummary,
        before: list[int],
        target: int | None,
    ) -> Reckoning | None:
        winners = summary_winners(params, elder, decl, summary)
        if winners is None:
            ev.error("play_summary_infeasible", "play", "piquet.summary_infeasible")
            return None
        reckoning = reckon(
            params, first_leader=elder, declarations=decl, winners=winners, before=before, target=target
        )
        if reckoning.stop_step is not None and reckoning.stop_step not in _NOT_IN_PLAY:
            # Spec 2.5: the order of the tricks decides when the deal stops; a summary cannot tell.
            ev.error("tricks_required", "play", "piquet.tricks_required")
            return None
        return reckoning

    def _score_contract(self, contract: Contract, reckoning: Reckoning) -> None:
        pass


#: Stop steps whose place in the deal a summary does not hide: the hand phase and the cards.
_NOT_IN_PLAY = frozenset(("carte_blanche", "point", "sequences", "sets", "as play begins", "the cards"))


def _rubicon_result(totals: list[int], rubicon: int) -> dict[str, Any]:
    """Rubicon settlement (Cavendish Laws 72–73); a tie is a draw."""
    a, b = totals
    if a == b:
        return {
            "placements": [1, 1],
            "totals": list(totals),
            "winner": None,
            "rubiconed": False,
            "points_won": 0,
            "settlement": [0, 0],
        }
    winner = 0 if a > b else 1
    w, low = totals[winner], totals[1 - winner]
    rubiconed = low < rubicon
    points = w + low + rubicon if rubiconed else w - low + rubicon
    settlement = [points, -points] if winner == 0 else [-points, points]
    return {
        "placements": competition_ranking(totals),
        "totals": list(totals),
        "winner": winner,
        "rubiconed": rubiconed,
        "points_won": points,
        "settlement": settlement,
    }


def _partie_over(state: dict[str, Any], deals: int) -> bool:
    """After ``deals`` deals the partie ends unless tied; a tie plays two more deals (Law 71).
    After the tie's first extra deal the totals may differ: only deal ``deals + 2`` decides."""
    played: int = state["deals_played"]
    totals: list[int] = state["totals"]
    return played >= deals + 2 or (played == deals and totals[0] != totals[1])


class RubiconPartie(TwoHandPiquet):
    """A partie of ``options.deals`` deals settled by the Rubicon rule (spec 3, 5)."""

    options: PiquetOptions | AuctionOptions

    def _match_end(
        self, after: dict[str, Any], reckoning: Reckoning, disputed: bool
    ) -> dict[str, Any] | None:
        if _partie_over(after, self.options.deals):
            return _rubicon_result(after["totals"], self.options.rubicon)
        return None

    def _unfinished_problems(self, state: dict[str, Any]) -> list[Message]:
        if _partie_over(state, self.options.deals):
            params = {"deals": state["deals_played"], "totals": str(state["totals"])}
            return [Message("piquet.state.partie_over", params)]
        return []


@register
class Piquet(RubiconPartie):
    """Rubicon piquet: a partie of six deals (spec 3)."""

    key = "piquet"
    title = gettext_noop("Piquet (Rubicon, six-deal partie)")
    Options = PiquetOptions
    options: PiquetOptions
    record_schema = _two_hand_schema()


@register
class PiquetAuCent(TwoHandPiquet):
    """Piquet to a hundred (spec 4)."""

    key = "piquet-au-cent"
    title = gettext_noop("Piquet au cent (to a hundred)")
    Options = AuCentOptions
    options: AuCentOptions
    record_schema = _two_hand_schema()

    def _target(self) -> int | None:
        return None if self.options.finish_hand else self.options.target

    def _unfinished_problems(self, state: dict[str, Any]) -> list[Message]:
        totals = state["totals"]
        if max(totals) >= self.options.target and totals[0] != totals[1]:
            return [Message("piquet.state.game_over", {"target": self.options.target})]
        return []

    def _match_end(
        self, after: dict[str, Any], reckoning: Reckoning, disputed: bool
    ) -> dict[str, Any] | None:
        o = self.options
        totals = after["totals"]
        if not o.finish_hand and not disputed:
            if reckoning.stop_side is None:
                return None
            winner = reckoning.stop_side
        else:
            # Played out (or disputed, spec 1.6): any total at the target ends the game if the
            # totals differ; the higher wins. Equal totals play another deal.
            if max(totals) < o.target or totals[0] == totals[1]:
                return None
            winner = 0 if totals[0] > totals[1] else 1
        w, low = totals[winner], totals[1 - winner]
        below_half = 2 * low < o.target
        double = below_half if o.double_when == "loser_below_half" else not below_half
        points = (w - low) * (2 if double else 1)
        settlement = [points, -points] if winner == 0 else [-points, points]
        placements = [1, 2] if winner == 0 else [2, 1]
        return {
            "placements": placements,
            "totals": list(totals),
            "winner": winner,
            "double": double,
            "points_won": points,
            "settlement": settlement,
        }


@register
class PiquetAuction(RubiconPartie):
    """Auction piquet: a contract to win or to lose tricks (spec 5)."""

    key = "piquet-auction"
    title = gettext_noop("Auction piquet")
    Options = AuctionOptions
    options: AuctionOptions
    record_schema = _two_hand_schema(
        {
            "contract": {
                "type": "object",
                "required": list(CONTRACT_PARTS),
                "properties": {part: bounds for part, (bounds, _) in CONTRACT_PARTS.items()},
            }
        },
        ("contract",),
    )

    def _read_contract(self, record: dict[str, Any], f: Fields) -> Contract | None:
        raw = f.get(record, "contract")
        if raw is MISSING:
            return None
        if not isinstance(raw, dict):
            f.error("contract_invalid", "contract", "piquet.contract_not_object", value=describe(raw))
            return None
        ok = True
        for key, (_, what) in CONTRACT_PARTS.items():
            path = join("contract", key)
            value = raw.get(key)
            if value is None:
                f.error("field_missing", path, "field.required", path=path)
                ok = False
            elif not contract_part_allows(key, value):
                f.error("contract_invalid", path, what, path=path, value=describe(value))
                ok = False
        if not ok:
            return None
        return Contract(raw["declarer"], raw["tricks"], raw["sign"], raw["multiplier"])

    def _params(self, contract: Contract | None) -> ReckoningParams:
        assert contract is not None, "read before the reckoning: a missing contract is an error"
        return auction_params(contract.sign, self.options.capot_additive)

    def _score_contract(self, contract: Contract, reckoning: Reckoning) -> None:
        """Spec 5: overtricks to the declarer, a defeat to the opponent; made exactly: nothing."""
        d, k, m = contract.declarer, contract.tricks, contract.multiplier
        t = reckoning.tricks_won[d]
        made = t if contract.sign == "plus" else 12 - t
        won = contract.sign == "plus"
        sign = _SIGNS[contract.sign]
        if m == 1:
            what = Message("piquet.contract", {"tricks": k, "sign": sign})
        else:
            what = Message("piquet.contract_multiplied", {"tricks": k, "sign": sign, "multiplier": m})
        note = {"contract": what, "made": made}
        if made > k:
            points = 10 * (made - k) * m
            reckoning.points[d] += points
            code = "piquet.note.overtricks_won" if won else "piquet.note.overtricks_lost"
            reckoning.lines.append([d, "contract_overtricks", points, code, note])
        elif made < k:
            points = 10 * (k - made) * m
            reckoning.points[1 - d] += points
            code = "piquet.note.defeated_won" if won else "piquet.note.defeated_lost"
            reckoning.lines.append([1 - d, "contract_defeated", points, code, note])


#: The two signs of an auction contract, as its notes name them.
_SIGNS = {"plus": term("piquet.sign.plus"), "minus": term("piquet.sign.minus")}
