"""Card notation shared by every game (spec 1.3).

Input is lenient (``t`` for 10, suit symbols, any case, surrounding spaces);
output is canonical (``"10H"``, ``"QS"``).
"""

from __future__ import annotations

from dataclasses import dataclass

from .errors import CardInvalid
from .messages import Message, term

RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUITS = ("S", "H", "D", "C")
_SUIT_ALIASES = {"S": "S", "H": "H", "D": "D", "C": "C", "♠": "S", "♥": "H", "♦": "D", "♣": "C"}
_RANK_ALIASES = {r: r for r in RANKS} | {"T": "10"}


def parse_rank(text: object) -> str:
    """Return the canonical rank for ``text`` ("t" -> "10", "q" -> "Q"), or raise CardInvalid."""
    if not isinstance(text, str):
        raise CardInvalid(Message("card.rank_not_string", {"type": type(text).__name__}))
    rank = _RANK_ALIASES.get(text.strip().upper())
    if rank is None:
        raise CardInvalid(Message("card.not_a_rank", {"text": repr(text)}))
    return rank


@dataclass(frozen=True, slots=True)
class Card:
    rank: str
    suit: str

    @classmethod
    def parse(cls, text: object) -> Card:
        if not isinstance(text, str):
            raise CardInvalid(Message("card.not_string", {"type": type(text).__name__}))
        body = text.strip().upper()
        if len(body) < 2:
            raise CardInvalid(Message("card.not_a_card", {"text": repr(text)}))
        suit = _SUIT_ALIASES.get(body[-1])
        rank = _RANK_ALIASES.get(body[:-1].strip())
        if suit is None or rank is None:
            raise CardInvalid(Message("card.not_a_card", {"text": repr(text)}))
        return cls(rank, suit)

    def __str__(self) -> str:
        return self.rank + self.suit

    def __repr__(self) -> str:
        return f"Card.parse({str(self)!r})"


#: The names of ranks and suits for people, as catalog terms (records keep the notation).
RANK_NAMES = {rank: term(f"card.rank.{rank}") for rank in RANKS}
SUIT_NAMES = {suit: term(f"card.suit.{suit}") for suit in SUITS}


def card_name(card: Card) -> Message:
    """A card's name in words ("queen of spades", «dame de pique», «Pik-Dame», «дама пик»)."""
    return Message("card.name", {"rank": RANK_NAMES[card.rank], "suit": SUIT_NAMES[card.suit]})


def make_pack(ranks: tuple[str, ...]) -> frozenset[Card]:
    return frozenset(Card(rank, suit) for rank in ranks for suit in SUITS)


PIQUET_PACK = make_pack(("7", "8", "9", "10", "J", "Q", "K", "A"))
SHORT_PACK = make_pack(("6", "7", "8", "9", "10", "J", "Q", "K", "A"))  # cul and Bank, 36 cards
FULL_PACK = make_pack(RANKS)  # Bastard, 52 cards
