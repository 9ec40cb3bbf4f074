"""Piquet declarations (spec 2.1, 2.2): the piquet ranks and their names, the four categories
(carte blanche, point, sequences, sets) as value types, their values, how a variant constrains
them (:class:`DeclarationRules`), the parser that reads them from a record reporting every fault,
and their JSON Schema for the catalog.

The rank names here are the one table of the piquet family: breakdown notes, explanations and
the card-level messages (:mod:`.cards`) all name ranks and combinations from it, as catalog
terms (``messages``) a reader sees in his own language.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from functools import lru_cache
from typing import Any

from ..cards import parse_rank
from ..errors import CardInvalid
from ..fields import MISSING, Fields, describe, is_int, join
from ..messages import Message, gettext_noop, term
from ..options import option

# -- the piquet ranks, their names and values (spec 2.1, 2.2) ----------------------------------

#: The 32-card pack's ranks, low to high: a rank's index orders sequences and sets (spec 2.1).
PIQUET_RANKS = ("7", "8", "9", "10", "J", "Q", "K", "A")
RANK_INDEX = {rank: i for i, rank in enumerate(PIQUET_RANKS)}
#: What a card counts towards the point: ace 11, court cards 10, the others their pips (spec 2.1).
RANK_PIPS = {"7": 7, "8": 8, "9": 9, "10": 10, "J": 10, "Q": 10, "K": 10, "A": 11}
#: Possible pips for a point of ``cards`` cards (spec 2.2).
PIP_RANGE = {2: (15, 21), 3: (24, 31), 4: (34, 41), 5: (44, 51), 6: (54, 60), 7: (64, 68), 8: (75, 75)}
SET_RANKS = frozenset(("A", "K", "Q", "J", "10"))
SET_RANKS_NO_ACES = frozenset(("K", "Q", "J", "10"))

#: The names of the ranks and combinations in every text the piquet family writes, as catalog
#: terms: a run by (length, top) ("quint to the ace"), a set by (count, rank) ("quatorze of kings"),
#: a rank as the top of a run ("the seven") and in the plural ("the kings").
RUN_NAMES = {
    (length, top): term(f"piquet.run.{length}.{top}")
    for length in range(3, 9)
    for top in PIQUET_RANKS[length - 1 :]
}
SET_NAMES = {(count, rank): term(f"piquet.set.{count}.{rank}") for count in (3, 4) for rank in SET_RANKS}
RANK_NAMES = {rank: term(f"piquet.top.{rank}") for rank in PIQUET_RANKS}
RANK_PLURALS = {rank: term(f"piquet.ranks.{rank}") for rank in SET_RANKS}
_SEQUENCES = term("piquet.item.sequences")


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

    def describe(self) -> Message:
        return RUN_NAMES[self.length, self.top]


@dataclass(frozen=True, slots=True)
class Sequences:
    scorer: int | None
    runs: tuple[Run, ...]

    @property
    def value(self) -> int:
        return sum(seqval(run.length) for run in self.runs)

    def describe(self) -> Message:
        if not self.runs:
            return _SEQUENCES
        best = max(self.runs, key=lambda r: (r.length, RANK_INDEX[r.top]))
        return best.describe()


@dataclass(frozen=True, slots=True)
class Meld:
    """One set: three or four cards of a rank (a trio or a quatorze)."""

    rank: str
    count: int

    def describe(self) -> Message:
        return SET_NAMES[self.count, self.rank]


@dataclass(frozen=True, slots=True)
class Sets:
    scorer: int
    sets: tuple[Meld, ...]

    @property
    def value(self) -> int:
        return sum(setval(m.count) for m in self.sets)

    def describe(self) -> Message:
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


def piquet_rank(raw: Any) -> str | None:
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
        f.error("seat_finished", path, "piquet.seat_finished", seat=seat)
        return MISSING
    return seat


def parse_declarations(
    record: dict[str, Any],
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
            f.error("field_missing", key, "piquet.category_required", key=key)
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
                    f.error("field_invalid", join("carte_blanche", i), "piquet.listed_twice", seat=seat)
                    ok = False
                else:
                    holders.append(seat)
            blanche = tuple(holders)
        elif isinstance(raw, list):
            f.error("field_invalid", "carte_blanche", "piquet.blanche_one_seat")
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
    f.error("field_invalid", key, "piquet.category_not_object", key=key, value=describe(raw))
    return MISSING


def _scorer_or_equal(f: Fields, raw: dict[str, Any], path: str, finished: frozenset[int]) -> Any:
    """The point's or the sequences' scorer (at ``path``): a seat, ``None`` for equal, ``MISSING``
    after an error."""
    if "scorer" not in raw:
        f.error("field_missing", path, "piquet.scorer_required", path=path)
        return MISSING
    return _scorer(f, raw["scorer"], path, finished, nullable=True)


def _entries(f: Fields, raw: dict[str, Any], name: str, path: str) -> list[Any] | None:
    """The list a category holds under ``name`` (at ``path``: ``sequences.runs``, ``sets.sets``);
    ``None`` after an error."""
    items = raw.get(name)
    if items is None:
        f.error("field_missing", path, "field.required", path=path)
        return None
    if not isinstance(items, list):
        f.error("field_invalid", path, "field.not_a_list", path=path, value=describe(items))
        return None
    return items


def _parse_point(f: Fields, raw: Any, rules: DeclarationRules, finished: frozenset[int]) -> Any:
    if not isinstance(raw, dict):
        return _not_an_object(f, raw, "point")
    scorer = _scorer_or_equal(f, raw, "point.scorer", finished)
    ok = scorer is not MISSING
    # JSON values, checked below: ints once ``ok`` holds.
    cards: Any = raw.get("cards")
    pips: Any = raw.get("pips")
    for key, value in (("cards", cards), ("pips", pips)):
        if value is None:
            f.error("field_missing", f"point.{key}", "field.required", path=f"point.{key}")
            ok = False
        elif not is_int(value):
            f.error(
                "point_invalid",
                f"point.{key}",
                "field.not_integer",
                path=f"point.{key}",
                value=describe(value),
            )
            ok = False
    if not ok:
        return MISSING
    if not rules.min_point <= cards <= 8:
        f.error("point_invalid", "point.cards", "piquet.point_cards", least=rules.min_point, cards=cards)
        return MISSING
    low, high = PIP_RANGE[cards]
    if not low <= pips <= high:
        f.error(
            "point_invalid", "point.pips", "piquet.point_pips", cards=cards, low=low, high=high, pips=pips
        )
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
        f.error("category_empty", "sequences.runs", "piquet.no_sequence_listed", seat=scorer)
        return MISSING
    total = sum(run.length for run in runs)
    if total > rules.card_limit:
        f.error(
            "sequence_invalid",
            "sequences.runs",
            "piquet.runs_too_many_cards",
            total=total,
            limit=rules.card_limit,
        )
        return MISSING
    return Sequences(scorer, tuple(runs))


def _parse_run(f: Fields, item: Any, path: str) -> Run | None:
    if not isinstance(item, dict):
        f.error("field_invalid", path, "piquet.not_object", path=path, value=describe(item))
        return None
    length = item.get("length")
    top = item.get("top")
    if length is None or top is None:
        key = "length" if length is None else "top"
        f.error("field_missing", join(path, key), "field.required", path=join(path, key))
        return None
    if not is_int(length) or not 3 <= length <= 8:
        where = join(path, "length")
        f.error("sequence_invalid", where, "piquet.sequence_length", value=describe(length))
        return None
    rank = piquet_rank(top)
    if rank not in RANK_INDEX:
        f.error("sequence_invalid", join(path, "top"), "piquet.not_a_rank", value=describe(top))
        return None
    if RANK_INDEX[rank] < length - 1:
        f.error(
            "sequence_invalid", path, "piquet.run_too_low", length=length, rank=RANK_NAMES[rank], top=rank
        )
        return None
    return Run(length, rank)


def _parse_sets(f: Fields, raw: Any, rules: DeclarationRules, finished: frozenset[int]) -> Any:
    if not isinstance(raw, dict):
        return _not_an_object(f, raw, "sets")
    ok = True
    if "scorer" not in raw:
        f.error("field_missing", "sets.scorer", "field.required", path="sets.scorer")
        ok = False
        scorer = MISSING
    elif raw["scorer"] is None:
        f.error("sets_cannot_tie", "sets.scorer", "piquet.sets_cannot_tie")
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
            f.error("field_invalid", path, "piquet.not_object", path=path, value=describe(item))
            ok = False
            continue
        rank_raw, count = item.get("rank"), item.get("count")
        if rank_raw is None or count is None:
            key = "rank" if rank_raw is None else "count"
            f.error("field_missing", join(path, key), "field.required", path=join(path, key))
            ok = False
            continue
        if not is_int(count) or count not in (3, 4):
            f.error("set_invalid", join(path, "count"), "piquet.set_count", value=describe(count))
            ok = False
            continue
        rank = piquet_rank(rank_raw)
        if rank not in allowed:
            which = "K Q J 10" if rules.sets_exclude_aces else "A K Q J 10"
            f.error(
                "set_rank_not_allowed",
                join(path, "rank"),
                "piquet.set_rank",
                allowed=which,
                value=describe(rank_raw),
            )
            ok = False
            continue
        if rank in seen:
            f.error(
                "set_invalid", join(path, "rank"), "piquet.set_twice", ranks=RANK_PLURALS[rank], rank=rank
            )
            ok = False
            continue
        seen.add(rank)
        melds.append(Meld(rank, count))
    if not ok:
        return MISSING
    if not melds:
        f.error("category_empty", "sets.sets", "piquet.no_set_listed", seat=scorer)
        return MISSING
    total = sum(m.count for m in melds)
    if total > rules.card_limit:
        f.error("set_invalid", "sets.sets", "piquet.sets_too_many_cards", total=total, limit=rules.card_limit)
        return MISSING
    return Sets(scorer, tuple(melds))


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


# Declared alike by every game of the family (spec 3–7).
def sets_exclude_aces_option() -> Any:
    return option(
        False,
        seed=True,
        effect="scoring",
        label=gettext_noop("No sets of aces"),
        help=gettext_noop("aces form no trio or quatorze"),
    )
