"""The piquet family (spec 2–7): shared declaration parsing, play input, the reckoning-order
engine, state helpers, and the two-hand rulesets ``piquet``, ``piquet-au-cent`` and
``piquet-auction``.

Usage note for the partnership / three-hand rulesets (``piquet_partners.py``): read the four
categories with :func:`parse_declarations` and a :class:`DeclarationRules`
(``VOLEUR_DECLARATIONS`` or ``NORMAND_DECLARATIONS``, ``.with_aces(sets_exclude_aces)``;
``finished=`` for ``seat_finished``); read the winners with :func:`parse_tricks`
(``tricks_in_deal`` 8, 10 or 12; it reports ``seat_out_of_range`` and too many winners) and
reject the two-hand-only fields with :func:`reject_fields`. Then call :func:`reckon` with the
variant's :class:`ReckoningParams` (:func:`voleur_params`, :func:`normand_params`,
:func:`normand_two_hand_params`), ``first_leader=`` (:func:`first_leader_of`; in normand's
two-hand phase pass the active non-dealer yourself, as the finished seat may sit next to the
dealer), ``before=`` the side totals and ``target=``. The :class:`Reckoning` it returns has
per-side ``points`` (``scores()`` per seat), ``lines`` attributed to the seat that earned them
(:func:`apply_lines`), ``stop_side`` / ``stop_step``, ``short`` (the tricks ran out without a
stop: :func:`report_short_play`), and the facts :func:`explain_mismatch` turns into a human
explanation. State helpers: :func:`piquet_state_problems`, :func:`advance_state`,
:func:`warn_dealer_rotation`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any, ClassVar

from .cards import parse_rank
from .errors import CardInvalid
from .fields import MISSING, Fields, describe, is_int, join
from .options import GameOptions, option
from .piquet_cards import RECORD_SCHEMA_PROPERTIES as CARD_LEVEL_SCHEMA
from .piquet_cards import check_card_level
from .result import Evaluation, Line, competition_ranking
from .ruleset import Ruleset, register, state_key_problems

# -- ranks and values (spec 2.1, 2.2) ---------------------------------------------------------

PIQUET_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {rank: i for i, rank in enumerate(PIQUET_RANKS)}
#: Possible pips for a point of ``cards`` cards (spec 2.2).
PIP_RANGE = {2: (15, 21), 3: (24, 31), 4: (34, 41), 5: (44, 51), 6: (54, 60), 7: (64, 68), 8: (75, 75)}
SET_RANKS = frozenset(("A", "K", "Q", "J", "10"))
SET_RANKS_NO_ACES = frozenset(("K", "Q", "J", "10"))

SEQUENCE_NAMES = {3: "tierce", 4: "quart", 5: "quint", 6: "sixième", 7: "septième", 8: "huitième"}
RANK_NAMES = {"A": "ace", "K": "king", "Q": "queen", "J": "knave", "10": "ten", "9": "nine",
              "8": "eight", "7": "seven"}
RANK_PLURALS = {"A": "aces", "K": "kings", "Q": "queens", "J": "knaves", "10": "tens"}

#: Record fields only the two-hand variants know (spec 2.3, 2.6; voleur and normand reject them).
TWO_HAND_ONLY_FIELDS = ("play", "dealt", "hands", "trick_cards")
CARD_LEVEL_FIELDS = ("dealt", "hands", "trick_cards")


def seqval(length: int) -> int:
    """Value of a sequence: tierce 3, quart 4, quint and longer length + 10 (spec 2.2)."""
    return length if length < 5 else length + 10


def setval(count: int) -> int:
    """Value of a set: trio 3, quatorze 14 (spec 2.2)."""
    return 14 if count == 4 else 3


# -- declaration value types ------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Point:
    scorer: int | None
    cards: int
    pips: int


@dataclass(frozen=True, slots=True)
class Run:
    length: int
    top: str

    def describe(self) -> str:
        return f"{SEQUENCE_NAMES[self.length]} to the {RANK_NAMES[self.top]}"


@dataclass(frozen=True, slots=True)
class Sequences:
    scorer: int | None
    runs: tuple[Run, ...]

    @property
    def value(self) -> int:
        return sum(seqval(run.length) for run in self.runs)

    def describe(self) -> str:
        if not self.runs:
            return "sequences"
        best = max(self.runs, key=lambda r: (r.length, RANK_INDEX[r.top]))
        return best.describe()


@dataclass(frozen=True, slots=True)
class Meld:
    """One set: three or four cards of a rank (a trio or a quatorze)."""

    rank: str
    count: int

    def describe(self) -> str:
        return f"{'quatorze' if self.count == 4 else 'trio'} of {RANK_PLURALS[self.rank]}"


@dataclass(frozen=True, slots=True)
class Sets:
    scorer: int
    sets: tuple[Meld, ...]

    @property
    def value(self) -> int:
        return sum(setval(m.count) for m in self.sets)

    def describe(self) -> str:
        best = max(self.sets, key=lambda m: (m.count, RANK_INDEX[m.rank]))
        return best.describe()


@dataclass(frozen=True, slots=True)
class Declarations:
    """The four categories of one deal, validated (spec 2.2). ``carte_blanche`` lists holders."""

    carte_blanche: tuple[int, ...]
    point: Point | None
    sequences: Sequences | None
    sets: Sets | None


@dataclass(frozen=True, slots=True)
class DeclarationRules:
    """How a variant constrains the declarations (spec 2.2).

    ``card_limit`` bounds Σ lengths and Σ counts (the cards the scorer's side holds);
    ``blanche_list`` admits a list of holders for ``carte_blanche``.
    """

    min_point: int = 3
    card_limit: int = 12
    blanche_list: bool = False
    sets_exclude_aces: bool = False

    def with_aces(self, sets_exclude_aces: bool) -> DeclarationRules:
        return self if sets_exclude_aces == self.sets_exclude_aces else _with_aces(self, sets_exclude_aces)


@lru_cache(maxsize=32)
def _with_aces(rules: DeclarationRules, sets_exclude_aces: bool) -> DeclarationRules:
    return replace(rules, sets_exclude_aces=sets_exclude_aces)


TWO_HAND_DECLARATIONS = DeclarationRules()
VOLEUR_DECLARATIONS = DeclarationRules(min_point=2, card_limit=16, blanche_list=True)
NORMAND_DECLARATIONS = DeclarationRules(card_limit=10, blanche_list=True)


#: Fast lookup of the usual rank spellings; anything else goes through ``parse_rank``.
_RANKS = {r: r for r in PIQUET_RANKS} | {"T": "10", "t": "10", "j": "J", "q": "Q", "k": "K", "a": "A"}


def _rank(raw: Any) -> str | None:
    """A canonical piquet-notation rank, or None (spec 1.3: a bad rank uses the category's code)."""
    rank = _RANKS.get(raw) if isinstance(raw, str) else None
    if rank is not None:
        return rank
    try:
        return parse_rank(raw)
    except CardInvalid:
        return None


def _scorer(f: Fields, raw: Any, path: str, finished: frozenset[int], *, nullable: bool) -> Any:
    """A scorer or holder seat; ``MISSING`` after an error, ``None`` for an allowed null."""
    if raw is None and nullable:
        return None
    seat = f.seat(raw, path)
    if seat is None:
        return MISSING
    if seat in finished:
        f.error("seat_finished", path, f"seat {seat} has finished the match and takes no part")
        return MISSING
    return seat


def parse_declarations(
    record: dict,
    f: Fields,
    rules: DeclarationRules = TWO_HAND_DECLARATIONS,
    *,
    finished: frozenset[int] | tuple[int, ...] = frozenset(),
) -> Declarations | None:
    """Read and validate the four categories of spec 2.2; ``None`` if any error was recorded.

    Every fault is reported (with its spec code and path), not only the first. ``finished`` are
    the seats that may take no part (normand phase 2: ``seat_finished``).
    """
    finished = frozenset(finished)
    ok = True
    values: dict[str, Any] = {}
    for key in ("carte_blanche", "point", "sequences", "sets"):
        if key not in record:
            f.error("field_missing", key, f"{key} is required (null when nothing was declared)")
            ok = False
            continue
        values[key] = record[key]
    # The present categories are checked even after a fault, so one pass reports every fault.
    blanche: tuple[int, ...] = ()
    if "carte_blanche" in values and values["carte_blanche"] is not None:
        raw = values["carte_blanche"]
        if isinstance(raw, list) and rules.blanche_list:
            holders = []
            for i, item in enumerate(raw):
                seat = _scorer(f, item, join("carte_blanche", i), finished, nullable=False)
                if seat is MISSING:
                    ok = False
                elif seat in holders:
                    f.error("field_invalid", join("carte_blanche", i), f"seat {seat} is listed twice")
                    ok = False
                else:
                    holders.append(seat)
            blanche = tuple(holders)
        elif isinstance(raw, list):
            f.error("field_invalid", "carte_blanche", "carte_blanche must be one seat or null here")
            ok = False
        else:
            seat = _scorer(f, raw, "carte_blanche", finished, nullable=False)
            if seat is MISSING:
                ok = False
            else:
                blanche = (seat,)

    point = _parse_point(f, values.get("point"), rules, finished)
    sequences = _parse_sequences(f, values.get("sequences"), rules, finished)
    sets = _parse_sets(f, values.get("sets"), rules, finished)
    if not ok or point is MISSING or sequences is MISSING or sets is MISSING:
        return None
    return Declarations(blanche, point, sequences, sets)


def _not_an_object(f: Fields, raw: Any, key: str) -> Any:
    """What a category that is not an object reads as: ``None`` for null (nothing declared),
    else ``MISSING`` after an error."""
    if raw is None:
        return None
    f.error("field_invalid", key, f"{key} must be an object or null, not {describe(raw)}")
    return MISSING


def _scorer_or_equal(f: Fields, raw: dict, path: str, finished: frozenset[int]) -> Any:
    """The point's or the sequences' scorer (at ``path``): a seat, ``None`` for equal, ``MISSING``
    after an error."""
    if "scorer" not in raw:
        f.error("field_missing", path, f"{path} is required (null for equal)")
        return MISSING
    return _scorer(f, raw["scorer"], path, finished, nullable=True)


def _entries(f: Fields, raw: dict, name: str, path: str) -> list | None:
    """The list a category holds under ``name`` (at ``path``: ``sequences.runs``, ``sets.sets``);
    ``None`` after an error."""
    items = raw.get(name)
    if items is None:
        f.error("field_missing", path, f"{path} is required")
        return None
    if not isinstance(items, list):
        f.error("field_invalid", path, f"{path} must be a list, not {describe(items)}")
        return None
    return items


def _parse_point(f: Fields, raw: Any, rules: DeclarationRules, finished: frozenset[int]) -> Any:
    if not isinstance(raw, dict):
        return _not_an_object(f, raw, "point")
    scorer = _scorer_or_equal(f, raw, "point.scorer", finished)
    ok = scorer is not MISSING
    cards = raw.get("cards")
    pips = raw.get("pips")
    for key, value in (("cards", cards), ("pips", pips)):
        if value is None:
            f.error("field_missing", f"point.{key}", f"point.{key} is required")
            ok = False
        elif not is_int(value):
            f.error("point_invalid", f"point.{key}", f"point.{key} must be an integer, not {describe(value)}")
            ok = False
    if not ok:
        return MISSING
    if not rules.min_point <= cards <= 8:
        f.error("point_invalid", "point.cards", f"a point has {rules.min_point} to 8 cards, not {cards}")
        return MISSING
    low, high = PIP_RANGE[cards]
    if not low <= pips <= high:
        f.error("point_invalid", "point.pips", f"{cards} cards hold {low}–{high} pips, not {pips}")
        return MISSING
    return Point(scorer, cards, pips)


def _parse_sequences(f: Fields, raw: Any, rules: DeclarationRules, finished: frozenset[int]) -> Any:
    if not isinstance(raw, dict):
        return _not_an_object(f, raw, "sequences")
    scorer = _scorer_or_equal(f, raw, "sequences.scorer", finished)
    ok = scorer is not MISSING
    runs_raw = _entries(f, raw, "runs", "sequences.runs")
    if runs_raw is None:
        return MISSING
    runs = []
    for i, item in enumerate(runs_raw):
        path = f"sequences.runs[{i}]"
        run = _parse_run(f, item, path)
        if run is None:
            ok = False
        else:
            runs.append(run)
    if not ok:
        return MISSING
    if scorer is not None and not runs:
        f.error("category_empty", "sequences.runs", f"seat {scorer} scores sequences but none is listed")
        return MISSING
    total = sum(run.length for run in runs)
    if total > rules.card_limit:
        f.error(
            "sequence_invalid",
            "sequences.runs",
            f"the runs hold {total} cards, more than the {rules.card_limit} a side holds",
        )
        return MISSING
    return Sequences(scorer, tuple(runs))


def _parse_run(f: Fields, item: Any, path: str) -> Run | None:
    if not isinstance(item, dict):
        f.error("field_invalid", path, f"{path} must be an object, not {describe(item)}")
        return None
    length = item.get("length")
    top = item.get("top")
    if length is None or top is None:
        key = "length" if length is None else "top"
        f.error("field_missing", join(path, key), f"{join(path, key)} is required")
        return None
    if not is_int(length) or not 3 <= length <= 8:
        where = join(path, "length")
        f.error("sequence_invalid", where, f"a sequence has 3 to 8 cards, not {describe(length)}")
        return None
    rank = _rank(top)
    if rank not in RANK_INDEX:
        f.error("sequence_invalid", join(path, "top"), f"{describe(top)} is not a piquet rank")
        return None
    if RANK_INDEX[rank] < length - 1:
        f.error(
            "sequence_invalid",
            path,
            f"a run of {length} cannot be topped by the {RANK_NAMES[rank]} (the pack starts at the seven)",
        )
        return None
    return Run(length, rank)


def _parse_sets(f: Fields, raw: Any, rules: DeclarationRules, finished: frozenset[int]) -> Any:
    if not isinstance(raw, dict):
        return _not_an_object(f, raw, "sets")
    ok = True
    if "scorer" not in raw:
        f.error("field_missing", "sets.scorer", "sets.scorer is required")
        ok = False
        scorer = MISSING
    elif raw["scorer"] is None:
        f.error("sets_cannot_tie", "sets.scorer", "sets can never be equal: name the scorer")
        ok = False
        scorer = MISSING
    else:
        scorer = _scorer(f, raw["scorer"], "sets.scorer", finished, nullable=False)
        ok = ok and scorer is not MISSING
    items = _entries(f, raw, "sets", "sets.sets")
    if items is None:
        return MISSING
    allowed = SET_RANKS_NO_ACES if rules.sets_exclude_aces else SET_RANKS
    melds: list[Meld] = []
    seen: set[str] = set()
    for i, item in enumerate(items):
        path = f"sets.sets[{i}]"
        if not isinstance(item, dict):
            f.error("field_invalid", path, f"{path} must be an object, not {describe(item)}")
            ok = False
            continue
        rank_raw, count = item.get("rank"), item.get("count")
        if rank_raw is None or count is None:
            key = "rank" if rank_raw is None else "count"
            f.error("field_missing", join(path, key), f"{join(path, key)} is required")
            ok = False
            continue
        if not is_int(count) or count not in (3, 4):
            f.error("set_invalid", join(path, "count"), f"a set has 3 or 4 cards, not {describe(count)}")
            ok = False
            continue
        rank = _rank(rank_raw)
        if rank not in allowed:
            which = "K Q J 10" if rules.sets_exclude_aces else "A K Q J 10"
            message = f"sets are of {which}, not {describe(rank_raw)}"
            f.error("set_rank_not_allowed", join(path, "rank"), message)
            ok = False
            continue
        if rank in seen:
            f.error("set_invalid", join(path, "rank"), f"the {RANK_PLURALS[rank]} are listed twice")
            ok = False
            continue
        seen.add(rank)
        melds.append(Meld(rank, count))
    if not ok:
        return MISSING
    if not melds:
        f.error("category_empty", "sets.sets", f"seat {scorer} scores sets but none is listed")
        return MISSING
    total = sum(m.count for m in melds)
    if total > rules.card_limit:
        message = f"the sets hold {total} cards, more than the {rules.card_limit} a side holds"
        f.error("set_invalid", "sets.sets", message)
        return MISSING
    return Sets(scorer, tuple(melds))


# -- play input (spec 2.3) ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlaySummary:
    """The summary form of the play (two-hand variants)."""

    tricks_won: tuple[int, int]
    play_points: tuple[int, int]
    last_trick: int
    pique: bool


def reject_fields(record: dict, f: Fields, names: tuple[str, ...] = TWO_HAND_ONLY_FIELDS) -> bool:
    """``field_invalid`` for each present field the variant does not know; True if none."""
    ok = True
    for name in names:
        if name in record:
            f.error("field_invalid", name, f"{name} is not part of this game's record")
            ok = False
    return ok


_INT_ONLY = frozenset((int,))


def parse_tricks(
    record: dict,
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
        f.error("field_invalid", "tricks", f"tricks must be a list of seats, not {describe(raw)}")
        return MISSING
    if not raw and not short_allowed:
        f.error("play_missing", "tricks", "the play is required: the trick winners list is empty")
        return MISSING
    if len(raw) > tricks_in_deal or (not short_allowed and len(raw) < tricks_in_deal):
        f.error("tricks_count", "tricks", f"a deal has {tricks_in_deal} tricks, not {len(raw)}")
        return MISSING
    # Hot path: every entry an int seat (type() also keeps out booleans, spec 1.7).
    if not finished and {type(w) for w in raw} <= _INT_ONLY and all(0 <= w < f.seats for w in raw):
        return tuple(raw)
    ok = True
    for i, w in enumerate(raw):
        path = join("tricks", i)
        if not (is_int(w) and 0 <= w < f.seats):
            f.error("seat_out_of_range", path, f"{path} must be a seat 0…{f.seats - 1}, not {describe(w)}")
            ok = False
        elif w in finished:
            f.error("seat_finished", path, f"seat {w} has finished the match and takes no part")
            ok = False
    return tuple(raw) if ok else MISSING


def parse_summary(record: dict, f: Fields) -> Any:
    """The ``play`` summary (spec 2.3); ``None`` when absent, ``MISSING`` after an error."""
    raw = record.get("play")
    if raw is None:
        return None
    if not isinstance(raw, dict):
        f.error("field_invalid", "play", f"play must be an object, not {describe(raw)}")
        return MISSING
    ok = True
    pairs = {}
    for key in ("tricks_won", "play_points"):
        value = raw.get(key)
        path = join("play", key)
        if value is None:
            f.error("field_missing", path, f"{path} is required")
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
    last = raw.get("last_trick")
    if last is None:
        f.error("field_missing", "play.last_trick", "play.last_trick is required")
        ok = False
    elif f.seat(last, "play.last_trick") is None:
        ok = False
    pique = raw.get("pique")
    if pique is None:
        f.error("field_missing", "play.pique", "play.pique is required")
        ok = False
    elif f.boolean(pique, "play.pique") is None:
        ok = False
    if not ok:
        return MISSING
    return PlaySummary(pairs["tricks_won"], pairs["play_points"], last, pique)


def report_short_play(ev: Evaluation, winners: tuple[int, ...] | None, tricks_in_deal: int) -> None:
    """The play ran out before the deal ended and no target stop happened (spec 2.3)."""
    if not winners:
        ev.error("play_missing", "tricks", "the play is required: give the trick winners")
    else:
        ev.error("tricks_count", "tricks", f"a deal has {tricks_in_deal} tricks, not {len(winners)}")


# -- the reckoning-order engine (spec 2.4, 2.5) ---------------------------------------------------


@dataclass(frozen=True, slots=True)
class ReckoningParams:
    """One row of the table of spec 2.4.

    ``side_of[seat]`` is the seat's side (voleur: teams ``seat % 2``; elsewhere the seat itself).
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
VOLEUR_PARAMS = ReckoningParams("voleur", 8, (0, 1, 0, 1), 20, 70, 20, 40, first_leader="dealer_right")
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


# -- summary feasibility (spec 2.3) ------------------------------------------------------------------


@lru_cache(maxsize=4096)
def _summary_outcomes(
    params: ReckoningParams, leader: int, hand_points: tuple[int, int], bonus_done: bool
) -> dict[tuple, tuple[int, ...]]:
    """Every outcome of the 4 096 winner sequences of a two-hand deal, as a dict
    ``(tricks_won, play_points, last_trick, pique) -> one winner sequence``.

    A breadth-first walk over the states (leader, tricks won, play points, pique side); equal
    states merge, so a few hundred states per trick replace the 4 096 sequences.
    """
    Q = params.pique_at

    def check(h, play, pq):
        if pq is not None or bonus_done:
            return pq
        for s in (0, 1):
            if h[s] + play[s] >= Q and h[1 - s] + play[1 - s] == 0:
                return s
        return None

    def bump(play, pq, side, value):
        play = (play[0] + value, play[1]) if side == 0 else (play[0], play[1] + value)
        new_pq = check(hand_points, play, pq)
        return play, new_pq

    start_pq = check(hand_points, (0, 0), None)
    states: dict[tuple, tuple[int, ...]] = {(leader, (0, 0), (0, 0), start_pq): ()}
    last = params.tricks - 1
    for t in range(params.tricks):
        nxt: dict[tuple, tuple[int, ...]] = {}
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
    out: dict[tuple, tuple[int, ...]] = {}
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


# -- state (spec 2.7) -------------------------------------------------------------------------------


def initial_piquet_state(seats: int) -> dict[str, Any]:
    return {"deals_played": 0, "totals": [0] * seats, "last_dealer": None, "over": False}


def piquet_state_problems(state: dict, seats: int, extra: tuple[str, ...] = ()) -> list[str]:
    """Why ``state`` is not a piquet-family state (spec 2.7); ``extra`` keys are the caller's."""
    keys = ("deals_played", "totals", "last_dealer", "over", *extra)
    problems = state_key_problems(state, keys, closed=True)
    if problems:
        return problems
    deals = state["deals_played"]
    if not is_int(deals) or deals < 0:
        problems.append("deals_played must be an integer ≥ 0")
    totals = state["totals"]
    if not isinstance(totals, list) or len(totals) != seats or not all(is_int(t) for t in totals):
        problems.append(f"totals must be a list of {seats} integers")
    last = state["last_dealer"]
    if last is not None and not (is_int(last) and 0 <= last < seats):
        problems.append(f"last_dealer must be a seat 0…{seats - 1} or null")
    if not isinstance(state["over"], bool):
        problems.append("over must be true or false")
    return problems


def advance_state(state: dict, dealer: int, scores: list[int], over: bool = False) -> dict[str, Any]:
    """The state after a deal: deals + 1, totals += scores, last dealer (spec 2.7)."""
    after = dict(state)
    after["deals_played"] = state["deals_played"] + 1
    after["totals"] = [t + s for t, s in zip(state["totals"], scores, strict=True)]
    after["last_dealer"] = dealer
    after["over"] = over
    return after


def warn_dealer_rotation(ev: Evaluation, state: dict, dealer: int) -> None:
    if state.get("last_dealer") is not None and state["last_dealer"] == dealer:
        ev.warn("dealer_rotation", "dealer", f"seat {dealer} also dealt the previous deal")


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


# -- the two-hand rulesets (spec 3, 4, 5) ------------------------------------------------------------


def _play_schema() -> dict[str, Any]:
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


def declaration_schema(
    seats: int, *, min_point: int = 3, blanche_holders: int = 1, blanche_note: str = ""
) -> dict[str, dict[str, Any]]:
    """JSON Schema of the four categories (spec 2.2), for the catalog.

    ``blanche_holders`` > 1 also admits a list of holders (voleur, three-hand normand).
    """
    seat = {"type": "integer", "minimum": 0, "maximum": seats - 1}
    nullable_seat = {"oneOf": [seat, {"type": "null"}]}
    # Lenient like the engine (spec 1.3): any case, T for 10, surrounding spaces.
    rank = {
        "type": "string",
        "pattern": r"^\s*(7|8|9|10|[TtJjQqKkAa])\s*$",
        "description": "7 8 9 10 J Q K A (T for 10, any case)",
    }
    blanche: dict[str, Any] = {"oneOf": [seat, {"type": "null"}]}
    if blanche_holders > 1:
        blanche["oneOf"].append(
            {"type": "array", "items": seat, "uniqueItems": True, "maxItems": blanche_holders}
        )
    if blanche_note:
        blanche["description"] = blanche_note
    low_pips = PIP_RANGE[min_point][0]
    return {
        "carte_blanche": blanche,
        "point": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["scorer", "cards", "pips"],
                    "properties": {
                        "scorer": nullable_seat,
                        "cards": {"type": "integer", "minimum": min_point, "maximum": 8},
                        "pips": {"type": "integer", "minimum": low_pips, "maximum": 75},
                    },
                },
            ]
        },
        "sequences": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["scorer", "runs"],
                    "properties": {
                        "scorer": nullable_seat,
                        "runs": {
                            "type": "array",
                            "items": {
                                "type": "object",
                                "required": ["length", "top"],
                                "properties": {
                                    "length": {"type": "integer", "minimum": 3, "maximum": 8},
                                    "top": rank,
                                },
                            },
                        },
                    },
                },
            ]
        },
        "sets": {
            "oneOf": [
                {"type": "null"},
                {
                    "type": "object",
                    "required": ["scorer", "sets"],
                    "properties": {
                        "scorer": seat,
                        "sets": {
                            "type": "array",
                            "minItems": 1,
                            "items": {
                                "type": "object",
                                "required": ["rank", "count"],
                                "properties": {"rank": rank, "count": {"enum": [3, 4]}},
                            },
                        },
                    },
                },
            ]
        },
    }


def _two_hand_schema(extra_properties: dict | None = None, extra_required: tuple[str, ...] = ()):
    seat = {"type": "integer", "minimum": 0, "maximum": 1}
    properties: dict[str, Any] = {
        "dealer": seat,
        **declaration_schema(2),
        "tricks": {"type": "array", "items": seat, "maxItems": 12},
        "play": _play_schema(),
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


# Options declared alike by several games of the family, here and in piquet_partners.
def sets_exclude_aces_option() -> Any:
    return option(False, seed=True, effect="scoring", help="aces form no trio or quatorze")


def target_option() -> Any:
    return option(100, effect="scoring", minimum=1, help="points for game")


_CAPOT_HELP = "capot = 10 for the cards + 40 instead of 40 in all"
_EXCHANGE_HELP = "who exchanges first"


@dataclass(frozen=True)
class PiquetOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = option(False, seed=True, effect="scoring", help=_CAPOT_HELP)
    exchange_order: str = option(
        "elder_first", seed="dealer_first", effect="recorded", help=_EXCHANGE_HELP,
        choices=("elder_first", "dealer_first"),
    )
    deals: int = option(6, effect="scoring", minimum=1, help="deals in a partie before the tie rule")
    rubicon: int = option(100, effect="scoring", minimum=1, help="the Rubicon line and the game bonus")


@dataclass(frozen=True)
class AuCentOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = option(False, seed=True, effect="scoring", help=_CAPOT_HELP)
    exchange_order: str = option(
        "elder_first", seed="dealer_first", effect="recorded", help=_EXCHANGE_HELP,
        choices=("elder_first", "dealer_first"),
    )
    target: int = target_option()
    finish_hand: bool = option(
        False, seed=True, effect="scoring",
        help="false: the game ends the moment a player reaches the target; "
        "true: the deal is played out and the higher total wins",
    )
    double_when: str = option(
        "loser_below_half", seed="loser_at_least_half", effect="scoring",
        choices=("loser_below_half", "loser_at_least_half"),
        help="when the game counts double (half = target / 2)",
    )


@dataclass(frozen=True)
class AuctionOptions(GameOptions):
    sets_exclude_aces: bool = sets_exclude_aces_option()
    capot_additive: bool = option(False, seed=True, effect="scoring", help=_CAPOT_HELP)
    exchange: str = option(
        "allowed", seed="none", effect="recorded", choices=("allowed", "none"),
        help="whether players exchange",
    )
    deals: int = option(6, effect="scoring", minimum=1, help="deals in a partie")
    rubicon: int = option(150, effect="scoring", minimum=1, help="the Rubicon line and the game bonus")


@dataclass(frozen=True, slots=True)
class Contract:
    declarer: int
    tricks: int
    sign: str
    multiplier: int


class TwoHandPiquet(Ruleset):
    """Shared evaluation of ``piquet``, ``piquet-au-cent`` and ``piquet-auction``."""

    seat_counts: ClassVar[tuple[int, ...]] = (2,)

    # -- hooks -------------------------------------------------------------------------------------
    def _read_contract(self, record: dict, f: Fields) -> Any:
        return None

    def _params(self, contract: Contract | None) -> ReckoningParams:
        return piquet_params(self.options.capot_additive)

    def _target(self) -> int | None:
        """The target of the stop rule (spec 2.5), None when the whole deal is scored."""
        return None

    def _match_end(self, after: dict, reckoning: Reckoning, disputed: bool) -> dict | None:
        raise NotImplementedError

    # -- state ---------------------------------------------------------------------------------------
    def initial_state(self) -> dict[str, Any]:
        return initial_piquet_state(self.seats)

    def state_problems(self, state: dict[str, Any]) -> list[str]:
        problems = piquet_state_problems(state, self.seats)
        if not problems and not state["over"]:
            problems = self._unfinished_problems(state)
        return problems

    def _unfinished_problems(self, state: dict[str, Any]) -> list[str]:
        """Why a state that says ``over: false`` should already be over (none by default)."""
        return []

    # -- evaluation ----------------------------------------------------------------------------------
    def _evaluate(self, state: dict, record: dict, ev: Evaluation, accept_declared: bool) -> None:
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
            other = "tricks" if has_tricks else "trick_cards"
            ev.error("play_conflict", "play", f"give the play either as a summary or as {other}, not both")
        declared = f.get(record, "declared")
        declared = None if declared is MISSING else f.integers(declared, "declared")
        card_level = any(record.get(k) is not None for k in CARD_LEVEL_FIELDS)
        if decl is not None and dealer is not None and card_level:
            from_cards = check_card_level(record, ev, elder=1 - dealer, sets_exclude_aces=o.sets_exclude_aces)
            if from_cards is not None and record.get("trick_cards") is not None:
                winners = tuple(from_cards)
        if ev.errors:
            return
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

    def _reckon_summary(self, ev, params, elder, decl, summary, before, target) -> Reckoning | None:
        winners = summary_winners(params, elder, decl, summary)
        if winners is None:
            ev.error(
                "play_summary_infeasible",
                "play",
                "no sequence of 12 trick winners gives these tricks, play points, last trick and pique",
            )
            return None
        reckoning = reckon(params, first_leader=elder, declarations=decl, winners=winners, before=before,
                           target=target)
        if reckoning.stop_step is not None and reckoning.stop_step not in _NOT_IN_PLAY:
            # Spec 2.5: the order of the tricks decides when the deal stops; a summary cannot tell.
            ev.error("tricks_required", "play", "the target is reached during the play: give the tricks")
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
        return {"placements": [1, 1], "totals": list(totals), "winner": None, "rubiconed": False,
                "points_won": 0, "settlement": [0, 0]}
    winner = 0 if a > b else 1
    w, low = totals[winner], totals[1 - winner]
    rubiconed = low < rubicon
    points = w + low + rubicon if rubiconed else w - low + rubicon
    settlement = [points, -points] if winner == 0 else [-points, points]
    return {"placements": competition_ranking(totals), "totals": list(totals), "winner": winner,
            "rubiconed": rubiconed, "points_won": points, "settlement": settlement}


def _partie_over(state: dict, deals: int) -> bool:
    """After ``deals`` deals the partie ends unless tied; a tie plays two more deals (Law 71).
    After the tie's first extra deal the totals may differ: only deal ``deals + 2`` decides."""
    played, totals = state["deals_played"], state["totals"]
    return played >= deals + 2 or (played == deals and totals[0] != totals[1])


class RubiconPartie(TwoHandPiquet):
    """A partie of ``options.deals`` deals settled by the Rubicon rule (spec 3, 5)."""

    def _match_end(self, after, reckoning, disputed):
        if _partie_over(after, self.options.deals):
            return _rubicon_result(after["totals"], self.options.rubicon)
        return None

    def _unfinished_problems(self, state):
        if _partie_over(state, self.options.deals):
            return [f"after {state['deals_played']} deals with totals {state['totals']} the partie is over"]
        return []


@register
class Piquet(RubiconPartie):
    """Rubicon piquet: a partie of six deals (spec 3)."""

    key = "piquet"
    title = "Piquet (Rubicon, six-deal partie)"
    Options = PiquetOptions
    record_schema = _two_hand_schema()


@register
class PiquetAuCent(TwoHandPiquet):
    """Piquet to a hundred (spec 4)."""

    key = "piquet-au-cent"
    title = "Piquet au cent (to a hundred)"
    Options = AuCentOptions
    record_schema = _two_hand_schema()

    def _target(self):
        return None if self.options.finish_hand else self.options.target

    def _unfinished_problems(self, state):
        totals = state["totals"]
        if max(totals) >= self.options.target and totals[0] != totals[1]:
            return [f"a total has reached {self.options.target}, so the game is over"]
        return []

    def _match_end(self, after, reckoning, disputed):
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
        return {"placements": placements, "totals": list(totals), "winner": winner, "double": double,
                "points_won": points, "settlement": settlement}


@register
class PiquetAuction(RubiconPartie):
    """Auction piquet: a contract to win or to lose tricks (spec 5)."""

    key = "piquet-auction"
    title = "Auction piquet"
    Options = AuctionOptions
    record_schema = _two_hand_schema(
        {
            "contract": {
                "type": "object",
                "required": ["declarer", "tricks", "sign", "multiplier"],
                "properties": {
                    "declarer": {"type": "integer", "minimum": 0, "maximum": 1},
                    "tricks": {"type": "integer", "minimum": 7, "maximum": 12},
                    "sign": {"enum": ["plus", "minus"]},
                    "multiplier": {"enum": [1, 2, 4]},
                },
            }
        },
        ("contract",),
    )

    def _read_contract(self, record: dict, f: Fields) -> Any:
        raw = f.get(record, "contract")
        if raw is MISSING:
            return None
        if not isinstance(raw, dict):
            f.error("contract_invalid", "contract", f"contract must be an object, not {describe(raw)}")
            return None
        ok = True
        checks = (
            ("declarer", lambda v: is_int(v) and 0 <= v < 2, "a seat 0…1"),
            ("tricks", lambda v: is_int(v) and 7 <= v <= 12, "an integer 7…12"),
            ("sign", lambda v: v in ("plus", "minus"), '"plus" or "minus"'),
            ("multiplier", lambda v: is_int(v) and v in (1, 2, 4), "1, 2 or 4"),
        )
        for key, good, what in checks:
            path = join("contract", key)
            value = raw.get(key)
            if value is None:
                f.error("field_missing", path, f"{path} is required")
                ok = False
            elif not (isinstance(value, (int, str)) and good(value)):
                f.error("contract_invalid", path, f"{path} must be {what}, not {describe(value)}")
                ok = False
        if not ok:
            return None
        return Contract(raw["declarer"], raw["tricks"], raw["sign"], raw["multiplier"])

    def _params(self, contract):
        return auction_params(contract.sign, self.options.capot_additive)

    def _score_contract(self, contract: Contract, reckoning: Reckoning) -> None:
        """Spec 5: overtricks to the declarer, a defeat to the opponent; made exactly: nothing."""
        d, k, m = contract.declarer, contract.tricks, contract.multiplier
        t = reckoning.tricks_won[d]
        made = t if contract.sign == "plus" else 12 - t
        doing = "won" if contract.sign == "plus" else "lost"
        what = f"contract {k} {contract.sign}{'' if m == 1 else f' ×{m}'}"
        if made > k:
            points = 10 * (made - k) * m
            reckoning.points[d] += points
            reckoning.lines.append([d, "contract_overtricks", points, f"{what}: {made} tricks {doing}"])
        elif made < k:
            points = 10 * (k - made) * m
            reckoning.points[1 - d] += points
            note = f"{what}: only {made} tricks {doing}"
            reckoning.lines.append([1 - d, "contract_defeated", points, note])
