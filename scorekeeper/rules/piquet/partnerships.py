"""The partnership and three-hand piquet rulesets: ``piquet-voleur`` (spec 6) and
``piquet-normand`` (spec 7).

Both read the declarations with :mod:`.declarations` and the trick winners with :mod:`.play`,
and score a deal with the reckoning-order engine of :mod:`.reckoning` (spec 2.4) under the
target stop (spec 2.5). What
lives here is what differs from two-hand piquet: partnerships (voleur: a team scores as one
side, every seat reports the team's score), the two phases of normand (three hands until the
first player is out, then ordinary two-hand piquet between the other two), the states, match
ends, results and settlements of both, and their disputed hands (spec 1.6).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from ..fields import MISSING, Fields, is_int, join
from ..messages import Message, gettext_noop
from ..options import GameOptions, option
from ..result import Evaluation
from ..ruleset import Ruleset, register
from .declarations import (
    NORMAND_DECLARATIONS,
    TWO_HAND_DECLARATIONS,
    VOLEUR_DECLARATIONS,
    DeclarationRules,
    Declarations,
    declaration_schema,
    parse_declarations,
    sets_exclude_aces_option,
)
from .play import parse_tricks, reject_fields, report_short_play
from .reckoning import (
    VOLEUR_TEAMS,
    Reckoning,
    ReckoningParams,
    apply_lines,
    explain_mismatch,
    first_leader_of,
    normand_params,
    normand_two_hand_params,
    reckon,
    target_option,
    voleur_params,
)
from .state import advance_state, initial_piquet_state, piquet_state_problems, warn_dealer_rotation

#: 12 face cards in the 32-card pack leave 20 others: two hands of 8 or 10 without a face card at
#: most, so a third carte blanche holder cannot exist (voleur and three-hand normand).
MAX_BLANCHE_HOLDERS = 2

#: Who leads trick 1 (spec 6, 7), with their words for people.
FIRST_LEADERS = {
    "dealer_right": gettext_noop("the dealer's right"),
    "dealer_left": gettext_noop("the dealer's left"),
}


# -- options (spec 6, 7) ---------------------------------------------------------------------------


def _first_leader() -> Any:
    return option(
        "dealer_right",
        effect="scoring",
        choices=FIRST_LEADERS,
        label=gettext_noop("First lead"),
        help=gettext_noop("who leads trick 1 of a deal of three or four hands"),
    )


@dataclass(frozen=True)
class VoleurOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = option(
        False,
        seed=True,
        effect="scoring",
        label=gettext_noop("Capot on top of the cards"),
        help=gettext_noop("capot = 10 for the cards + 40"),
    )
    target: int = target_option()
    first_leader: str = _first_leader()


@dataclass(frozen=True)
class NormandOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = option(
        False,
        seed=True,
        effect="scoring",
        label=gettext_noop("Capot on top of the cards"),
        help=gettext_noop("capot is added to the 10 for the cards (three hands: 30)"),
    )
    repique_total: int = option(
        90,
        seed=80,
        effect="scoring",
        choices=(80, 90),
        label=gettext_noop("Repique total"),
        help=gettext_noop("a three-hand repique at 20 counts this total (bonus = total − 20)"),
    )
    target: int = target_option()
    first_leader: str = _first_leader()


# -- record schemas (for the catalog) ----------------------------------------------------------------


def _record_schema(
    title: str, seats: int, *, blanche_list: str, min_point: int, tricks: int
) -> dict[str, Any]:
    seat = {"type": "integer", "minimum": 0, "maximum": seats - 1}
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": title,
        "type": "object",
        "required": ["dealer", "carte_blanche", "point", "sequences", "sets", "declared"],
        "properties": {
            "dealer": seat,
            **declaration_schema(
                seats,
                min_point=min_point,
                blanche_holders=MAX_BLANCHE_HOLDERS,
                blanche_note=f"the holder, or a list of holders ({blanche_list}); null for none",
            ),
            "tricks": {
                "description": "trick winners in order; may stop short when the target is reached (spec 2.5)",
                "type": "array",
                "items": seat,
                "maxItems": tricks,
            },
            "declared": {
                "description": "the deal score each seat claims",
                "type": "array",
                "items": {"type": "integer"},
                "minItems": seats,
                "maxItems": seats,
            },
        },
    }


# -- reading a record ----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PartnersRecord:
    """A structurally valid voleur or normand record."""

    dealer: int
    declarations: Declarations
    winners: tuple[int, ...] | None
    declared: list[int]


def read_record(
    record: dict[str, Any],
    f: Fields,
    rules: DeclarationRules,
    tricks_in_deal: int,
    finished: frozenset[int] = frozenset(),
) -> PartnersRecord | None:
    """Every structural check of spec 2.2, 2.3, 6 and 7; ``None`` when one failed.

    ``finished`` are the seats out of a normand match: they may not deal, score, hold carte blanche
    or win a trick, and must declare 0 (``seat_finished``).
    """
    ok = reject_fields(record, f)

    dealer = f.get(record, "dealer")
    if dealer is not MISSING:
        dealer = f.seat(dealer, "dealer")
        if dealer in finished:
            f.error("seat_finished", "dealer", "piquet.seat_finished_deals", seat=dealer)
            dealer = None
    ok = ok and dealer not in (None, MISSING)

    declarations = parse_declarations(record, f, rules, finished=finished)
    if declarations is not None and len(declarations.carte_blanche) > MAX_BLANCHE_HOLDERS:
        f.error(
            "field_invalid",
            "carte_blanche",
            "piquet.blanche_holders",
            most=MAX_BLANCHE_HOLDERS,
            count=len(declarations.carte_blanche),
        )
        declarations = None
    ok = ok and declarations is not None

    winners = parse_tricks(record, f, tricks_in_deal, finished=finished)
    ok = ok and winners is not MISSING

    declared = _read_declared(record, f, finished)
    ok = ok and declared is not None

    if not ok or declarations is None or declared is None:
        return None
    return PartnersRecord(dealer, declarations, winners, declared)


def _read_declared(record: dict[str, Any], f: Fields, finished: frozenset[int]) -> list[int] | None:
    raw = f.get(record, "declared")
    if raw is MISSING:
        return None
    items = f.per_seat(raw, "declared")
    if items is None:
        return None
    ok = True
    for seat, value in enumerate(items):
        path = join("declared", seat)
        if f.integer(value, path) is None:
            ok = False
        elif seat in finished and value != 0:
            # A finished seat takes no part: its claim is an error, not a dispute (spec 7).
            f.error("seat_finished", path, "piquet.seat_finished_declares", seat=seat)
            ok = False
    return list(items) if ok else None


def record_mismatches(
    ev: Evaluation,
    reckoning: Reckoning,
    declared: list[int],
    scores: list[int],
    *,
    teams: tuple[tuple[int, ...], ...] | None = None,
) -> None:
    """Spec 1.4 step 4: every seat is checked on its own (in voleur also each partner).

    ``teams`` are the seats of each team (voleur's :data:`TEAM_SEATS`), None without partners."""
    for seat, (claim, computed) in enumerate(zip(declared, scores, strict=True)):
        if claim == computed:
            continue
        explanation = explain_mismatch(reckoning, seat, claim, computed)
        if teams and explanation.code == "piquet.rules_give":
            # The listed items are the team's, earned by either partner: say so.
            first, second = next(team for team in teams if seat in team)
            params = {"first": first, "second": second, **explanation.params}
            explanation = Message("piquet.rules_give_team", params)
        ev.mismatch(seat, claim, computed, explanation)


def _score_deal(
    ev: Evaluation,
    params: ReckoningParams,
    read: PartnersRecord,
    first_leader: int,
    before: list[int],
    target: int,
) -> Reckoning | None:
    """Run the engine; report a play that runs out without a target stop (spec 2.3, 2.5)."""
    reckoning = reckon(
        params,
        first_leader=first_leader,
        declarations=read.declarations,
        winners=read.winners,
        before=before,
        target=target,
    )
    if reckoning.short:
        report_short_play(ev, read.winners, params.tricks)
        return None
    return reckoning


# -- piquet-voleur (spec 6) ---------------------------------------------------------------------------

#: The seats of each team, from the one definition of the teams: ``((0, 2), (1, 3))`` (spec 6).
TEAM_SEATS = tuple(
    tuple(seat for seat, team in enumerate(VOLEUR_TEAMS) if team == side)
    for side in sorted(set(VOLEUR_TEAMS))
)
_TEAMS = [Message("piquet.team", {"first": a, "second": b}) for a, b in TEAM_SEATS]


def team_totals(totals: list[int]) -> list[int]:
    """Each team's total, read at its first seat (partners' totals are equal, spec 6)."""
    return [totals[seats[0]] for seats in TEAM_SEATS]


def partners_differ(values: list[int]) -> bool:
    """Whether two partners hold different values (totals or claims)."""
    return any(values[a] != values[b] for a, b in TEAM_SEATS)


@register
class PiquetVoleur(Ruleset):
    key = "piquet-voleur"
    title = gettext_noop("Piquet voleur (four-hand partnership piquet)")
    seat_counts = (4,)
    Options = VoleurOptions
    options: VoleurOptions
    partnerships = VOLEUR_TEAMS
    record_schema: ClassVar[dict[str, Any]] = _record_schema(
        "piquet-voleur hand record", 4, blanche_list="8-card hands", min_point=2, tricks=8
    )

    def initial_state(self) -> dict[str, Any]:
        return initial_piquet_state(4)

    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        problems = piquet_state_problems(state, 4)
        if problems:
            return problems
        totals = state["totals"]
        if partners_differ(totals):
            problems.append(Message("piquet.state.partners_equal", {"teams": _TEAMS}))
        elif not state["over"] and max(totals) >= self.options.target:
            problems.append(Message("piquet.state.team_reached", {"target": self.options.target}))
        return problems

    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        opts = self.options
        f = Fields(ev, 4)
        read = read_record(record, f, VOLEUR_DECLARATIONS.with_aces(opts.sets_exclude_aces), 8)
        if read is None:
            return
        params = voleur_params(opts.capot_additive, opts.first_leader)
        before = team_totals(state["totals"])
        reckoning = _score_deal(ev, params, read, first_leader_of(params, read.dealer), before, opts.target)
        if reckoning is None:
            return
        scores = reckoning.scores()
        ev.scores = scores
        apply_lines(ev, reckoning)
        record_mismatches(ev, reckoning, read.declared, scores, teams=TEAM_SEATS)
        warn_dealer_rotation(ev, state, read.dealer)

        if accept_declared and ev.mismatches:
            declared = read.declared
            if partners_differ(declared):
                # A disputed deal stands on its claims; partners claiming different team scores
                # would break the equal-totals invariant, so such a claim cannot be accepted.
                claims = [
                    Message(
                        "piquet.partners_claim", {"first": a, "second": b, "a": declared[a], "b": declared[b]}
                    )
                    for a, b in TEAM_SEATS
                ]
                ev.error("declared_partners_differ", "declared", "piquet.partners_disagree", claims=claims)
                return
            after = advance_state(state, read.dealer, declared)
            by_team = team_totals(after["totals"])
            # Spec 1.6: the order of events inside the deal is unknown; any total at or above the
            # target ends the match and the highest total wins.
            over = max(by_team) >= opts.target
            winner = None if by_team[0] == by_team[1] else by_team.index(max(by_team))
        else:
            after = advance_state(state, read.dealer, scores)
            over = reckoning.stop_side is not None
            winner = reckoning.stop_side
        after["over"] = over
        ev.state_after = after
        ev.match_over = over
        ev.result = voleur_result(after["totals"], winner) if over else None


def voleur_result(totals: list[int], winning_team: int | None) -> dict[str, Any]:
    """Spec 6: the winners' seats receive W − L each, the losers' pay it.

    ``winning_team`` is None only for a disputed deal that leaves the teams equal at or above the
    target: the match is then drawn (every seat placed 1, nothing settled).
    """
    if winning_team is None:
        return {
            "placements": [1] * 4,
            "totals": list(totals),
            "winning_team": None,
            "points_won": 0,
            "settlement": [0] * 4,
        }
    won = totals[winning_team] - totals[1 - winning_team]
    return {
        "placements": [1 if team == winning_team else 2 for team in VOLEUR_TEAMS],
        "totals": list(totals),
        "winning_team": winning_team,
        "points_won": won,
        "settlement": [won if team == winning_team else -won for team in VOLEUR_TEAMS],
    }


# -- piquet-normand (spec 7) ----------------------------------------------------------------------------


@register
class PiquetNormand(Ruleset):
    key = "piquet-normand"
    title = gettext_noop("Piquet normand (three-hand piquet)")
    seat_counts = (3,)
    Options = NormandOptions
    options: NormandOptions
    record_schema: ClassVar[dict[str, Any]] = _record_schema(
        "piquet-normand hand record",
        3,
        blanche_list="three-hand phase only",
        min_point=3,
        tricks=12,
    )

    def initial_state(self) -> dict[str, Any]:
        return {**initial_piquet_state(3), "finished": []}

    def state_problems(self, state: dict[str, Any]) -> list[Message]:
        problems = piquet_state_problems(state, 3, extra=("finished",))
        if problems:
            return problems
        finished = state["finished"]
        if not (isinstance(finished, list) and all(is_int(s) and 0 <= s < 3 for s in finished)):
            return [Message("piquet.state.finished_seats")]
        if len(set(finished)) != len(finished):
            return [Message("piquet.state.finished_twice")]
        if len(finished) not in (0, 1, 3):
            # The second stop appends the second and the last player together (spec 7).
            return [Message("piquet.state.finished_count")]
        if state["over"] != (len(finished) == 3):
            return [Message("piquet.state.finished_over")]
        totals, target = state["totals"], self.options.target
        winners = finished[:2]
        if any(totals[s] < target for s in winners):
            problems.append(Message("piquet.state.finisher_below", {"target": target}))
        if not state["over"] and any(totals[s] >= target for s in range(3) if s not in finished):
            problems.append(Message("piquet.state.reached_not_finished", {"target": target}))
        return problems

    def _evaluate(
        self, state: dict[str, Any], record: dict[str, Any], ev: Evaluation, accept_declared: bool
    ) -> None:
        opts = self.options
        finished = tuple(state["finished"])
        active = [seat for seat in range(3) if seat not in finished]
        two_hand = len(finished) == 1
        f = Fields(ev, 3)
        if two_hand:
            # Phase 2: ordinary two-hand piquet (12 cards each, thresholds 30, point of 3+).
            rules, tricks = TWO_HAND_DECLARATIONS, 12
        else:
            rules, tricks = NORMAND_DECLARATIONS, 10
        read = read_record(record, f, rules.with_aces(opts.sets_exclude_aces), tricks, frozenset(finished))
        if read is None:
            return
        if two_hand:
            params = normand_two_hand_params(opts.capot_additive)
            elder = next(seat for seat in active if seat != read.dealer)  # the non-dealer of the two
        else:
            params = normand_params(opts.repique_total, opts.capot_additive, opts.first_leader)
            elder = first_leader_of(params, read.dealer)
        reckoning = _score_deal(ev, params, read, elder, list(state["totals"]), opts.target)
        if reckoning is None:
            return
        scores = reckoning.scores()
        ev.scores = scores
        apply_lines(ev, reckoning)
        record_mismatches(ev, reckoning, read.declared, scores)
        warn_dealer_rotation(ev, state, read.dealer)

        order = list(finished)
        if accept_declared and ev.mismatches:
            after = advance_state(state, read.dealer, read.declared)
            totals = after["totals"]
            # Spec 1.6: every player at or above the target finishes, in decreasing order of total
            # (equal totals: the lower seat first, the deal's order of events being unknown).
            reached = sorted((s for s in active if totals[s] >= opts.target), key=lambda s: (-totals[s], s))
            order += reached
        else:
            after = advance_state(state, read.dealer, scores)
            totals = after["totals"]
            if reckoning.stop_side is not None:
                order.append(reckoning.stop_side)
        if len(order) >= 2:
            # The second finisher ends the match; whoever remains is last.
            order += sorted((s for s in range(3) if s not in order), key=lambda s: (-totals[s], s))
        over = len(order) == 3
        after["finished"] = order
        after["over"] = over
        ev.state_after = after
        ev.match_over = over
        ev.result = normand_result(totals, order) if over else None


def normand_result(totals: list[int], finish_order: list[int]) -> dict[str, Any]:
    """Spec 7: places by finishing order; the last player pays each winner the difference between
    that winner's total and his own."""
    first, second, last = finish_order
    placements = [0, 0, 0]
    for place, seat in enumerate(finish_order, start=1):
        placements[seat] = place
    settlement = [0, 0, 0]
    settlement[first] = totals[first] - totals[last]
    settlement[second] = totals[second] - totals[last]
    settlement[last] = -(settlement[first] + settlement[second])
    return {
        "placements": placements,
        "totals": list(totals),
        "finish_order": list(finish_order),
        "settlement": settlement,
    }
