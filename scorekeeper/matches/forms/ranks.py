"""Card ranks as the page's language writes them: Д for a queen in Russian, D for Dame in German.

The engine reads the ranks of its notation only (spec 1.3: 2–10, J, Q, K, A, and T for ten).
The forms read a rank typed in the page's language and hand the engine its own, and show a
stored rank in the page's language; the engine's notation is read in every language too (a
player used to "4Q" may go on typing it). The letters are the initials of the names each
language gives the court cards and the ace; none of them means another rank in the engine's
notation (a Latin T is a ten, the Cyrillic Т of "туз" an ace). Suits are left as typed: the
engine reads its letters (S, H, D, C) and the symbols ♠ ♥ ♦ ♣ alike, and the languages' suit
initials would clash with them (French C is cœur, the engine's C clubs).
"""

from __future__ import annotations

from django.utils.translation import get_language

from scorekeeper.matches import i18n

#: The engine's court ranks and ace in each language's letters (English: the engine's own).
LETTERS: dict[str, dict[str, str]] = {
    "en": {"J": "J", "Q": "Q", "K": "K", "A": "A"},
    "fr": {"J": "V", "Q": "D", "K": "R", "A": "A"},  # valet, dame, roi, as
    "de": {"J": "B", "Q": "D", "K": "K", "A": "A"},  # Bube, Dame, König, Ass
    "ru": {"J": "В", "Q": "Д", "K": "К", "A": "Т"},  # валет, дама, король, туз
}


def letters() -> dict[str, str]:
    """The engine rank → the letter of the active language."""
    language = (get_language() or "en").split("-")[0]
    return LETTERS.get(language, LETTERS["en"])


def read_rank(text: str) -> str:
    """A rank typed in the page's language (any case) as the engine's; anything else upper-cased,
    for the engine to judge."""
    typed = text.strip().upper()
    local = {letter: rank for rank, letter in letters().items()}
    return local.get(typed, typed)


def show_rank(rank: str) -> str:
    return letters().get(rank, rank)


def read_card(token: str) -> str:
    """A card typed as rank then suit ("Д♠", "дS", "QS") in the engine's notation; a token
    whose rank is not a local letter is left exactly as typed."""
    rank, suit = token[:-1], token[-1:]
    engine = read_rank(rank) if rank else rank
    return f"{engine}{suit}" if rank and engine != rank.upper() else token


def show_card(card: str) -> str:
    """A stored card with its rank in the page's language ("QS" → "ДS" in Russian)."""
    rank, suit = card[:-1], card[-1:]
    return f"{show_rank(rank)}{suit}" if rank in letters() else card


def show_cards(text: str) -> str:
    """Cards written in the engine's notation ("AS 10S KD") as the page's language shows them."""
    return " ".join(show_card(card) for card in text.split())


def rank_names() -> str:
    """ "В = jack, Д = queen, К = king, Т = ace": the letters of the active language, in words."""
    return ", ".join(f"{letter} = {i18n.render(f'card.rank.{rank}')}" for rank, letter in letters().items())
