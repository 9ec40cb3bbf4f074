"""Card-level checks of the two-hand piquet variants (spec 2.6).

The optional record fields ``dealt``, ``hands`` and ``trick_cards`` let the engine check a
hand against the cards actually held: carte blanche against the cards dealt, every
declaration against the hands after the exchange (sinking allowed), every trick's
legality and winner. :mod:`.two_hand` calls :func:`check_card_level` once the declarations
passed structural validation; the function adds errors and warnings to the evaluation and
returns the trick winners derived from the cards.

Cards are small ints here, ``suit * 8 + rank`` with ranks ``7 8 9 10 J Q K A`` = 0…7 and
suits ``S H D C`` = 0…3, and a hand is a 32-bit mask, so every check is a few integer
operations against tables built once at import.

:func:`maximal_declarations` gives the four categories as the cards give them when nobody
sinks. Random real deals (shuffle, deal, exchange, play) are not production code: they live
in ``tests/rules/deals.py``, for the property tests and the benchmark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from ..cards import SUITS, Card
from ..errors import CardInvalid
from ..fields import is_int
from ..messages import Message, term
from ..result import Evaluation
from .declarations import PIQUET_RANKS as RANKS
from .declarations import (
    RANK_INDEX,
    RANK_PIPS,
    RANK_PLURALS,
    RUN_NAMES,
    SET_NAMES,
    piquet_rank,
)

#: The optional card-level record fields (spec 2.6).
CARD_LEVEL_FIELDS = ("dealt", "hands", "trick_cards")
#: Card names in index order: ``CARD_NAMES[suit * 8 + rank]``.
CARD_NAMES = tuple(rank + suit for suit in SUITS for rank in RANKS)
HAND_SIZE = 12
TRICKS = 12

_PIPS = tuple(RANK_PIPS[rank] for rank in RANKS)  # spec 2.1: the point's values
SUIT_MASKS = tuple(0xFF << (8 * s) for s in range(4))
_RANK_MASKS = tuple(0x01010101 << r for r in range(8))
_FACE_MASK = _RANK_MASKS[4] | _RANK_MASKS[5] | _RANK_MASKS[6]  # J, Q, K (spec 2.1)
_SET_RANKS = (7, 6, 5, 4, 3)  # A K Q J 10, best first
_SET_RANKS_NO_ACES = (6, 5, 4, 3)
#: Per category, the warning that a better combination is held than the one declared, or when
#: nothing was declared.
_BETTER_HELD = {
    "point": ("piquet.better_point", "piquet.better_point_none"),
    "sequences": ("piquet.better_sequence", "piquet.better_sequence_none"),
    "sets": ("piquet.better_set", "piquet.better_set_none"),
}


def _card_lookup() -> dict[str, int]:
    """Every exact spelling of a piquet card the fast path accepts (spec 1.3: T for 10, suit
    symbols, any case); anything else falls back to ``Card.parse`` for its lenient rules."""
    ranks = {rank: i for i, rank in enumerate(RANKS)} | {"T": 3}
    suits = {"S": 0, "H": 1, "D": 2, "C": 3, "♠": 0, "♥": 1, "♦": 2, "♣": 3}
    table = {}
    for rank, r in ranks.items():
        for suit, s in suits.items():
            for text in {rank + suit, rank.lower() + suit, rank + suit.lower(), (rank + suit).lower()}:
                table[text] = s * 8 + r
    return table


_CARD_LOOKUP = _card_lookup()
_CARD_BITS = {text: 1 << index for text, index in _CARD_LOOKUP.items()}


def _suit_tables() -> tuple[
    tuple[frozenset[int], ...], tuple[int, ...], tuple[tuple[tuple[int, int], ...], ...], tuple[int, ...]
]:
    """Per 8-bit suit mask: the (cards, pips) every subset reaches, the best point, the maximal
    runs of 3+ and the best run. Points and runs are encoded as comparable ints:
    ``cards * 128 + pips`` and ``length * 8 + top`` (pips < 128 and top < 8)."""
    subset_points: list[frozenset[int]] = []
    best_point: list[int] = []
    runs: list[tuple[tuple[int, int], ...]] = []
    best_run: list[int] = []
    for mask in range(256):
        reach = set()
        sub = mask
        while sub:
            reach.add(sub.bit_count() * 128 + sum(_PIPS[r] for r in range(8) if sub >> r & 1))
            sub = (sub - 1) & mask
        subset_points.append(frozenset(reach))
        best_point.append(max(reach) if reach else -1)
        found: list[tuple[int, int]] = []
        length = 0
        for r in range(9):
            if r < 8 and mask >> r & 1:
                length += 1
                continue
            if length >= 3:
                found.append((length, r - 1))
            length = 0
        runs.append(tuple(found))
        best_run.append(max((length * 8 + top for length, top in found), default=-1))
    return tuple(subset_points), tuple(best_point), tuple(runs), tuple(best_run)


_SUBSET_POINTS, _BEST_POINT, _RUNS, _BEST_RUN = _suit_tables()


# -- small queries on a hand mask ------------------------------------------------------------
def _suits(hand: int) -> tuple[int, int, int, int]:
    return hand & 0xFF, hand >> 8 & 0xFF, hand >> 16 & 0xFF, hand >> 24 & 0xFF


def best_point(hand: int) -> int:
    """The best (cards, pips) of a hand mask, encoded ``cards * 128 + pips``; -1 for none."""
    table = _BEST_POINT
    return max(table[hand & 0xFF], table[hand >> 8 & 0xFF], table[hand >> 16 & 0xFF], table[hand >> 24])


def best_run(hand: int) -> int:
    """The best (length, top) of a hand mask, encoded ``length * 8 + top``; -1 for none."""
    table = _BEST_RUN
    return max(table[hand & 0xFF], table[hand >> 8 & 0xFF], table[hand >> 16 & 0xFF], table[hand >> 24])


def best_set(hand: int, sets_exclude_aces: bool) -> int:
    """The best (count, rank) of a hand mask, encoded ``count * 8 + rank``; -1 for none."""
    best = -1
    for r in _SET_RANKS_NO_ACES if sets_exclude_aces else _SET_RANKS:
        count = (hand & _RANK_MASKS[r]).bit_count()
        if count >= 3 and count * 8 + r > best:
            best = count * 8 + r
    return best


def _holds_point(hand: int, key: int) -> bool:
    table = _SUBSET_POINTS
    return (
        key in table[hand & 0xFF]
        or key in table[hand >> 8 & 0xFF]
        or key in table[hand >> 16 & 0xFF]
        or key in table[hand >> 24]
    )


def _fit_runs(run_masks: list[int], suits: list[int]) -> bool:
    """Whether the runs (8-bit masks, longest first) fit disjointly into the suits."""
    if not run_masks:
        return True
    first, rest = run_masks[0], run_masks[1:]
    for s in range(4):
        if suits[s] & first == first:
            suits[s] ^= first
            fits = _fit_runs(rest, suits)
            suits[s] ^= first
            if fits:
                return True
    return False


def _run_mask(length: int, top: int) -> int:
    return ((1 << length) - 1) << (top - length + 1)


# -- reading card fields -----------------------------------------------------------------------
def parse_card(text: object) -> int:
    """The index of a piquet card (lenient notation of spec 1.3); raises CardInvalid."""
    if isinstance(text, str):
        index = _CARD_LOOKUP.get(text)
        if index is not None:
            return index
    card = Card.parse(text)  # raises CardInvalid with the reason
    index = _CARD_LOOKUP.get(card.rank + card.suit)
    if index is None:
        raise CardInvalid(Message("piquet.card_not_in_pack", {"card": str(card)}))
    return index


def hand_mask(cards: Sequence[object]) -> int:
    """The mask of a list of cards; raises CardInvalid (duplicates are not checked)."""
    mask = 0
    for text in cards:
        mask |= 1 << parse_card(text)
    return mask


def mask_cards(mask: int) -> list[str]:
    """The canonical card names of a mask, spades to clubs, high to low."""
    return [CARD_NAMES[i] for s in range(4) for i in range(s * 8 + 7, s * 8 - 1, -1) if mask >> i & 1]


def _read_card(raw: object, path: str, ev: Evaluation) -> int | None:
    try:
        return parse_card(raw)
    except CardInvalid as exc:
        ev.error("card_invalid", path, "field.card_invalid", path=path, reason=exc.text)
        return None


def _read_hands(record: dict[str, Any], key: str, ev: Evaluation) -> list[int] | None:
    """``dealt`` or ``hands``: two lists of 12 distinct piquet cards, as two masks."""
    value = record[key]
    masks = _fast_hands(value)
    if masks is not None:
        return masks
    return _read_hands_reporting(key, value, ev)


def _fast_hands(value: Any) -> list[int] | None:
    """The masks of a well-formed pair of hands, None on any doubt (the reporting path then
    runs). The sum of 12 distinct bits has 12 bits set; a repeated card carries and has fewer."""
    if type(value) is not list or len(value) != 2:
        return None
    first, second = value
    if type(first) is not list or type(second) is not list or len(first) != 12 or len(second) != 12:
        return None
    try:
        a = sum(map(_CARD_BITS.__getitem__, first))
        b = sum(map(_CARD_BITS.__getitem__, second))
    except (KeyError, TypeError):
        return None
    if a.bit_count() != 12 or b.bit_count() != 12 or a & b:
        return None
    return [a, b]


def _read_hands_reporting(key: str, value: Any, ev: Evaluation) -> list[int] | None:
    if not isinstance(value, list):
        ev.error("field_invalid", key, "piquet.hands_not_lists", key=key)
        return None
    if len(value) != 2:
        ev.error("array_length", key, "piquet.hands_length", key=key, count=len(value))
        return None
    masks, ok = [], True
    seen: dict[int, str] = {}
    for seat, cards in enumerate(value):
        where = f"{key}[{seat}]"
        if not isinstance(cards, list):
            ev.error("field_invalid", where, "piquet.hand_not_list", path=where)
            ok = False
            continue
        if len(cards) != HAND_SIZE:
            ev.error("hand_size", where, "piquet.hand_size", path=where, count=len(cards), size=HAND_SIZE)
            ok = False
        mask = 0
        for i, raw in enumerate(cards):
            path = f"{where}[{i}]"
            index = _read_card(raw, path, ev)
            if index is None:
                ok = False
                continue
            if index in seen:
                ev.error(
                    "card_duplicate",
                    path,
                    "field.card_duplicate",
                    path=path,
                    card=CARD_NAMES[index],
                    other=seen[index],
                )
                ok = False
                continue
            seen[index] = path
            mask |= 1 << index
        masks.append(mask)
    return masks if ok else None


def _present(record: dict[str, Any], key: str) -> bool:
    return record.get(key) is not None


# -- the checks of spec 2.6 ------------------------------------------------------------------
def check_card_level(
    record: dict[str, Any], ev: Evaluation, *, elder: int, sets_exclude_aces: bool
) -> list[int] | None:
    """Spec 2.6 checks. Adds errors/warnings to ev; returns the trick winners derived from
    trick_cards, or None when there are none (or they are invalid).

    Call it only for the two-hand variants and once the four declaration categories passed
    structural validation (their shapes and ranks are then trusted; anything else in the
    record may be arbitrary JSON). An empty ``trick_cards`` list gives ``[]``.
    """
    names = _seat_names(elder)
    dealt = _read_hands(record, "dealt", ev) if _present(record, "dealt") else None
    has_hands = _present(record, "hands")
    hands = _read_hands(record, "hands", ev) if has_hands else None
    if dealt is not None:
        _check_carte_blanche(record.get("carte_blanche"), dealt, ev, names)
    if hands is not None:
        _check_point(record.get("point"), hands, ev, names)
        _check_sequences(record.get("sequences"), hands, ev, names)
        _check_sets(record.get("sets"), hands, ev, names, sets_exclude_aces)
    if not _present(record, "trick_cards"):
        return None
    if not has_hands:
        ev.error("hands_required", "trick_cards", "piquet.hands_required")
        return None
    tricks = _read_trick_cards(record["trick_cards"], ev)
    if tricks is None or hands is None:
        return None
    winners = _play_tricks(tricks, hands, elder, ev, names)
    if winners is not None:
        _compare_winners(record.get("tricks"), winners, ev)
    return winners


#: How the card-level checks name the two seats (elder, younger), by seat number.
_SeatNames = tuple[Message, Message]


def _seat_names(elder: int) -> _SeatNames:
    younger = 1 - elder
    names: list[Any] = [None, None]
    names[elder] = Message("piquet.who", {"hand": _ELDER, "seat": elder})
    names[younger] = Message("piquet.who", {"hand": _YOUNGER, "seat": younger})
    return names[0], names[1]


_ELDER, _YOUNGER = term("piquet.elder"), term("piquet.younger")


def _seats(value: Any) -> list[int]:
    """The seats a scorer/holder field names: one seat, a list of seats (voleur form), or none."""
    if is_int(value):
        return [value] if value in (0, 1) else []
    if isinstance(value, list):
        return [v for v in value if is_int(v) and v in (0, 1)]
    return []


def _check_carte_blanche(value: Any, dealt: list[int], ev: Evaluation, names: _SeatNames) -> None:
    """Spec 2.6: a declared holder must have been dealt no K, Q or J; a player who was and did
    not declare it gets a warning (he may have forgotten: Cavendish's Law 58 lets it go)."""
    holders = _seats(value)
    for seat in holders:
        face = dealt[seat] & _FACE_MASK
        if face:
            shown = ", ".join(mask_cards(face))
            ev.error(
                "carte_blanche_unsupported",
                "carte_blanche",
                "piquet.blanche_unsupported",
                who=names[seat],
                cards=shown,
            )
    for seat in (0, 1):
        if seat not in holders and not dealt[seat] & _FACE_MASK:
            ev.warn(
                "carte_blanche_not_declared", "carte_blanche", "piquet.blanche_not_declared", who=names[seat]
            )


def _better_held(
    category: str,
    holders: list[int],
    best: list[int],
    declared: int,
    ev: Evaluation,
    names: _SeatNames,
    what: Callable[[int], Message],
) -> None:
    """Spec 2.6 warning: a non-scorer holds a strictly better combination than the best declared
    one (so he sank it, or the record gives the category to the wrong player)."""
    than, none = _BETTER_HELD[category]
    for seat in holders:
        if best[seat] > declared:
            if declared >= 0:
                ev.warn(
                    "better_combination_held",
                    category,
                    than,
                    who=names[seat],
                    better=what(best[seat]),
                    declared=what(declared),
                )
            else:
                ev.warn("better_combination_held", category, none, who=names[seat], better=what(best[seat]))


def _point_text(key: int) -> Message:
    return Message("piquet.point", {"cards": key // 128, "pips": key % 128})


def _run_text(key: int) -> Message:
    length, top = divmod(key, 8)
    return RUN_NAMES[length, RANKS[top]]


def _set_text(key: int) -> Message:
    count, rank = divmod(key, 8)
    return SET_NAMES[count, RANKS[rank]]


def _rank(value: Any) -> int | None:
    """A declaration rank (lenient, spec 1.3) as an index 0…7, None if not a piquet rank."""
    index = RANK_INDEX.get(value) if isinstance(value, str) else None  # the usual spelling, fast
    if index is not None:
        return index
    rank = piquet_rank(value)
    return None if rank is None else RANK_INDEX.get(rank)


def _check_point(point: Any, hands: list[int], ev: Evaluation, names: _SeatNames) -> None:
    best = [best_point(hands[0]), best_point(hands[1])]
    if not isinstance(point, dict):
        _better_held("point", [0, 1], best, -1, ev, names, _point_text)
        return
    scorer, cards, pips = point.get("scorer"), point.get("cards"), point.get("pips")
    if not (is_int(cards) and is_int(pips)):
        return
    key = cards * 128 + pips
    tied = not is_int(scorer)
    supporters = [0, 1] if tied else _seats(scorer)
    for seat in supporters:
        if not _holds_point(hands[seat], key):
            code = "piquet.point_unsupported_equal" if tied else "piquet.point_unsupported"
            ev.error("point_unsupported", "point", code, who=names[seat], cards=cards, pips=pips)
    others = [0, 1] if tied else [1 - s for s in supporters]
    _better_held("point", others, best, key, ev, names, _point_text)


def _check_sequences(sequences: Any, hands: list[int], ev: Evaluation, names: _SeatNames) -> None:
    best = [best_run(hands[0]), best_run(hands[1])]
    if not isinstance(sequences, dict):
        _better_held("sequences", [0, 1], best, -1, ev, names, _run_text)
        return
    scorer, raw_runs = sequences.get("scorer"), sequences.get("runs")
    runs = []  # (length, top, index in the record)
    for i, run in enumerate(raw_runs if isinstance(raw_runs, list) else ()):
        length = run.get("length") if isinstance(run, dict) else None
        top = _rank(run.get("top")) if isinstance(run, dict) else None
        if not is_int(length) or top is None or not 3 <= length <= top + 1:
            return  # structural validation reports it
        runs.append((length, top, i))
    tied = not is_int(scorer)
    if tied:
        if not runs:
            # "Equal" without naming the run: consistent iff both players' best runs are equal.
            if best[0] != best[1]:
                _better_held("sequences", [0, 1], best, min(best), ev, names, _run_text)
            return
        length, top, _ = runs[0]
        mask = _run_mask(length, top)
        for seat in (0, 1):
            if not _fit_runs([mask], list(_suits(hands[seat]))):
                ev.error(
                    "sequence_unsupported",
                    "sequences.runs[0]",
                    "piquet.run_unsupported_equal",
                    who=names[seat],
                    run=_run_text(length * 8 + top),
                )
        others = [0, 1]
    else:
        if scorer not in (0, 1):
            return
        suits = list(_suits(hands[scorer]))
        alone_ok = True
        for length, top, i in runs:
            if not _fit_runs([_run_mask(length, top)], suits):
                alone_ok = False
                ev.error(
                    "sequence_unsupported",
                    f"sequences.runs[{i}]",
                    "piquet.run_unsupported",
                    who=names[scorer],
                    run=_run_text(length * 8 + top),
                )
        if alone_ok:
            masks = [_run_mask(length, top) for length, top, _ in runs]
            if not _fit_runs(sorted(masks, key=int.bit_count, reverse=True), suits):
                ev.error("sequence_unsupported", "sequences.runs", "piquet.runs_overlap", who=names[scorer])
        others = [1 - scorer]
    declared = max((length * 8 + top for length, top, _ in runs), default=-1)
    _better_held("sequences", others, best, declared, ev, names, _run_text)


def _check_sets(
    sets: Any, hands: list[int], ev: Evaluation, names: _SeatNames, sets_exclude_aces: bool
) -> None:
    best = [best_set(hands[0], sets_exclude_aces), best_set(hands[1], sets_exclude_aces)]
    if not isinstance(sets, dict):
        _better_held("sets", [0, 1], best, -1, ev, names, _set_text)
        return
    scorer, raw_sets = sets.get("scorer"), sets.get("sets")
    if not is_int(scorer) or scorer not in (0, 1):
        return  # sets cannot tie (spec 2.2): structural validation reports it
    declared = -1
    for i, item in enumerate(raw_sets if isinstance(raw_sets, list) else ()):
        count = item.get("count") if isinstance(item, dict) else None
        rank = _rank(item.get("rank")) if isinstance(item, dict) else None
        if not is_int(count) or rank is None:
            return
        held = (hands[scorer] & _RANK_MASKS[rank]).bit_count()
        if held < count:
            ev.error(
                "set_unsupported",
                f"sets.sets[{i}]",
                "piquet.set_unsupported",
                who=names[scorer],
                count=count,
                ranks=RANK_PLURALS[RANKS[rank]],
                held=held,
            )
        declared = max(declared, count * 8 + rank)
    _better_held("sets", [1 - scorer], best, declared, ev, names, _set_text)


def _read_trick_cards(value: Any, ev: Evaluation) -> list[tuple[int, int]] | None:
    """``trick_cards``: a list of [leader's card, follower's card] pairs."""
    if type(value) is list:
        lookup = _CARD_LOOKUP
        try:
            tricks = [(lookup[p[0]], lookup[p[1]]) for p in value if type(p) is list and len(p) == 2]
            if len(tricks) == len(value):
                return tricks
        except (KeyError, TypeError):
            pass  # the reporting path below says what is wrong
    if not isinstance(value, list):
        ev.error("field_invalid", "trick_cards", "piquet.trick_cards_not_list")
        return None
    tricks, ok = [], True
    for t, pair in enumerate(value):
        where = f"trick_cards[{t}]"
        if not isinstance(pair, list) or len(pair) != 2:
            ev.error("field_invalid", where, "piquet.trick_not_pair", path=where)
            ok = False
            continue
        lead = _read_card(pair[0], f"{where}[0]", ev)
        follow = _read_card(pair[1], f"{where}[1]", ev)
        if lead is None or follow is None:
            ok = False
            continue
        tricks.append((lead, follow))
    return tricks if ok else None


def _play_tricks(
    tricks: list[tuple[int, int]], hands: list[int], elder: int, ev: Evaluation, names: _SeatNames
) -> list[int] | None:
    """Spec 2.6: elder leads trick 1, then the previous winner; each card must be in its player's
    remaining hand and the follower must follow suit when he can. The first illegal trick stops
    the check: the cards after it no longer say who held what."""
    remaining = list(hands)
    leader = elder
    winners: list[int] = []
    append = winners.append
    suit_masks = SUIT_MASKS
    for t, (lead, follow) in enumerate(tricks):
        follower = 1 - leader
        if not remaining[leader] >> lead & 1:
            code = "piquet.leads_played" if hands[leader] >> lead & 1 else "piquet.leads_not_held"
            _illegal(ev, t, 0, Message(code, {"who": names[leader], "card": CARD_NAMES[lead]}))
            return None
        if not remaining[follower] >> follow & 1:
            code = "piquet.plays_played" if hands[follower] >> follow & 1 else "piquet.plays_not_held"
            _illegal(ev, t, 1, Message(code, {"who": names[follower], "card": CARD_NAMES[follow]}))
            return None
        suit = lead >> 3
        if follow >> 3 != suit and remaining[follower] & suit_masks[suit]:
            held = ", ".join(mask_cards(remaining[follower] & SUIT_MASKS[suit]))
            _illegal(ev, t, 1, Message("piquet.must_follow", {
                "who": names[follower], "card": CARD_NAMES[follow], "lead": CARD_NAMES[lead], "cards": held,
            }))  # fmt: skip
            return None
        remaining[leader] ^= 1 << lead
        remaining[follower] ^= 1 << follow
        if follow >> 3 == suit and follow > lead:
            leader = follower
        append(leader)
    return winners


def _illegal(ev: Evaluation, trick: int, position: int, problem: Message) -> None:
    path = f"trick_cards[{trick}][{position}]"
    ev.error("trick_illegal", path, "piquet.trick_illegal", trick=trick + 1, problem=problem)


def _compare_winners(recorded: Any, winners: list[int], ev: Evaluation) -> None:
    """Spec 2.6: recorded ``tricks`` must agree with the winners the cards give. Entries that
    are not seats are left to the play validation (seat_out_of_range)."""
    if not isinstance(recorded, list):
        return
    for t, (seat, winner) in enumerate(zip(recorded, winners, strict=False)):
        if seat != winner and type(seat) is int and seat in (0, 1):
            ev.error(
                "trick_winner_mismatch",
                f"tricks[{t}]",
                "piquet.winner_mismatch",
                index=t,
                seat=seat,
                trick=t + 1,
                winner=winner,
            )
    if len(recorded) != len(winners):
        ev.error(
            "trick_winner_mismatch",
            "tricks",
            "piquet.winners_count",
            listed=len(recorded),
            tricks=len(winners),
        )


# -- maximal declarations --------------------------------------------------------------------
def maximal_declarations(
    dealt: Sequence[Sequence[object]] | None,
    hands: Sequence[Sequence[object]],
    *,
    sets_exclude_aces: bool,
    elder: int,
) -> dict[str, Any]:
    """The four category fields of a record as the cards give them when nobody sinks (spec 2.6).

    ``dealt`` may be None (carte blanche is then null). Cards in any notation of spec 1.3;
    raises CardInvalid on a card outside the piquet pack. In two-hand piquet the outcome does
    not depend on who is elder; ``elder`` is accepted so callers state the deal completely.
    """
    del elder  # equal combinations cancel whoever holds them (spec 2.2)
    dealt_masks = None if dealt is None else [hand_mask(cards) for cards in dealt]
    return maximal_from_masks(dealt_masks, [hand_mask(cards) for cards in hands], sets_exclude_aces)


def maximal_from_masks(dealt: list[int] | None, hands: list[int], sets_exclude_aces: bool) -> dict[str, Any]:
    """:func:`maximal_declarations` on hand masks."""
    blanche = None
    if dealt is not None:
        holders = [seat for seat in (0, 1) if not dealt[seat] & _FACE_MASK]
        # 24 cards without K, Q, J would need more than the 20 the pack has: one holder at most.
        blanche = holders[0] if holders else None

    points = [best_point(hands[0]), best_point(hands[1])]
    best = max(points)
    point = None
    if best >= 0:
        scorer = None if points[0] == points[1] else points.index(best)
        point = {"scorer": scorer, "cards": best // 128, "pips": best % 128}

    runs = [best_run(hands[0]), best_run(hands[1])]
    best = max(runs)
    sequences = None
    if best >= 0:
        if runs[0] == runs[1]:
            listed = [best]
            scorer = None
        else:
            scorer = runs.index(best)
            listed = sorted(
                (length * 8 + top for m in _suits(hands[scorer]) for length, top in _RUNS[m]), reverse=True
            )
        sequences = {
            "scorer": scorer,
            "runs": [{"length": key // 8, "top": RANKS[key % 8]} for key in listed],
        }

    best_sets = [best_set(hands[0], sets_exclude_aces), best_set(hands[1], sets_exclude_aces)]
    sets = None
    if max(best_sets) >= 0:
        scorer = best_sets.index(max(best_sets))  # no two players hold three of one rank
        held_sets = []
        for r in _SET_RANKS_NO_ACES if sets_exclude_aces else _SET_RANKS:
            count = (hands[scorer] & _RANK_MASKS[r]).bit_count()
            if count >= 3:
                held_sets.append((count, r))
        held_sets.sort(reverse=True)
        sets = {"scorer": scorer, "sets": [{"rank": RANKS[r], "count": count} for count, r in held_sets]}

    return {"carte_blanche": blanche, "point": point, "sequences": sequences, "sets": sets}


#: JSON Schema (draft 2020-12) of the card-level fields, for the rulesets' ``record_schema``.
_CARD = {"type": "string", "description": 'a piquet card, e.g. "10H" (spec 1.3)'}
_TWO_HANDS = {
    "type": "array",
    "minItems": 2,
    "maxItems": 2,
    "items": {"type": "array", "minItems": HAND_SIZE, "maxItems": HAND_SIZE, "items": _CARD},
}
RECORD_SCHEMA_PROPERTIES: dict[str, Any] = {
    "dealt": {**_TWO_HANDS, "description": "each seat's 12 cards as dealt, before the exchange"},
    "hands": {**_TWO_HANDS, "description": "each seat's 12 cards after the exchange"},
    "trick_cards": {
        "type": "array",
        "maxItems": TRICKS,
        "description": "per trick in order: [leader's card, follower's card]",
        "items": {"type": "array", "minItems": 2, "maxItems": 2, "items": _CARD},
    },
}
