"""Random real two-hand piquet deals, for the property tests and ``benchmarks/bench_rules.py``.

A real deal is shuffled, dealt 12/12/8, exchanged legally (elder 1–5, younger up to the rest,
spec 3) and played legally (follow suit); its declarations are the maximal ones the cards give
(spec 2.6). Test code, not production code: the engine never deals.
"""

from __future__ import annotations

import random
from typing import Any

from scorekeeper.rules.piquet.cards import CARD_NAMES, SUIT_MASKS, TRICKS, hand_mask, maximal_declarations


def deal_cards(rng: random.Random) -> tuple[list[list[str]], list[str]]:
    """Shuffle the 32 cards and deal 12 to each seat and 8 to the talon (spec 3)."""
    pack = list(CARD_NAMES)
    rng.shuffle(pack)
    return [pack[:12], pack[12:24]], pack[24:]


def random_exchange(
    rng: random.Random, dealt: list[list[str]], talon: list[str], *, elder: int
) -> list[list[str]]:
    """A legal exchange (spec 3): elder discards 1–5 cards and takes as many from the top of the
    talon; younger then discards up to the rest and takes them. Returns the hands."""
    hands = [list(cards) for cards in dealt]
    younger = 1 - elder
    taken = rng.randint(1, 5)
    _exchange(rng, hands[elder], talon[:taken], taken)
    rest = talon[taken:]
    count = rng.randint(0, len(rest))
    _exchange(rng, hands[younger], rest[:count], count)
    return hands


def _exchange(rng: random.Random, hand: list[str], drawn: list[str], count: int) -> None:
    for index in sorted(rng.sample(range(len(hand)), count), reverse=True):
        del hand[index]
    hand.extend(drawn)


def random_play(
    rng: random.Random, hands: list[list[str]], *, elder: int
) -> tuple[list[list[str]], list[int]]:
    """A legal play of all 12 tricks: the leader plays any card, the follower a random card of
    the suit led when he has one. Returns the trick cards and the winners."""
    remaining = [hand_mask(cards) for cards in hands]
    leader, trick_cards, winners = elder, [], []
    for _ in range(TRICKS):
        follower = 1 - leader
        lead = rng.choice(_indices(remaining[leader]))
        suited = remaining[follower] & SUIT_MASKS[lead >> 3]
        follow = rng.choice(_indices(suited or remaining[follower]))
        remaining[leader] ^= 1 << lead
        remaining[follower] ^= 1 << follow
        trick_cards.append([CARD_NAMES[lead], CARD_NAMES[follow]])
        if follow >> 3 == lead >> 3 and follow > lead:
            leader = follower
        winners.append(leader)
    return trick_cards, winners


def _indices(mask: int) -> list[int]:
    return [i for i in range(32) if mask >> i & 1]


def random_real_deal(rng: random.Random, *, dealer: int, sets_exclude_aces: bool = False) -> dict[str, Any]:
    """A two-hand record of a real deal with its maximal declarations, its cards and both play
    forms (``trick_cards`` and the derived ``tricks``); ``declared`` is left to the caller."""
    elder = 1 - dealer
    dealt, talon = deal_cards(rng)
    hands = random_exchange(rng, dealt, talon, elder=elder)
    trick_cards, winners = random_play(rng, hands, elder=elder)
    record: dict[str, Any] = {"dealer": dealer}
    record.update(maximal_declarations(dealt, hands, sets_exclude_aces=sets_exclude_aces, elder=elder))
    record.update({"dealt": dealt, "hands": hands, "trick_cards": trick_cards, "tricks": winners})
    return record
