"""The hand form of bastard (spec 10)."""

from __future__ import annotations

from typing import Any

from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext

from scorekeeper.rules.fields import is_int

from .base import BLANK, HandForm, Unrepresentable, load_int, number, radio, seat_choices


class BastardForm(HandForm):
    """Bastard: trump, tricks per seat, who took each special card, declared (spec 10)."""

    games = ("bastard",)
    covers = ("dealer", "trump", "pass_count", "tricks", "specials", "declared")
    seat_keys = ("dealer",)
    rows = ("tricks", "declared")
    path_fields = {"trump": "trump", "pass_count": "pass_count", "specials": "special_JS"}
    SPECIALS = (("JS", gettext_lazy("J♠ (1)")), ("JC", gettext_lazy("J♣ (2)")),
                ("JD", gettext_lazy("J♦ (3)")), ("JH", gettext_lazy("J♥ (4)")),
                ("7D", gettext_lazy("7♦ the Ugly card")), ("7C", gettext_lazy("7♣ the Charm")))  # fmt: skip
    TRUMPS = (("S", "♠"), ("H", mark_safe('<span class="red">♥</span>')),
              ("D", mark_safe('<span class="red">♦</span>')), ("C", "♣"),
              ("NT", gettext_lazy("no trumps")))  # fmt: skip

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        self.fields["dealer"] = radio(_("Dealer"), seats)
        self.fields["trump"] = radio(_("Trumps"), self.TRUMPS)
        self.fields["pass_count"] = number(_("Cards passed (optional)"), self._pass_hint(), min=0)
        for card, label in self.SPECIALS:
            self.fields[f"special_{card}"] = radio(label, [(BLANK, "?"), *seats])
        self.per_seat_fields("tricks", _("Tricks"), lambda label: number(label, min=0))
        self.add_declared()

    def suggested(self) -> dict[str, str]:
        last = self._state_seat("last_dealer")
        return {"dealer": str((last + 1) % self.n)} if last is not None else {}

    def _pass_hint(self) -> str:
        played = self._state("hands_played")
        if self.game_options.get("passing") == "increasing" and is_int(played):
            # pagat: 1, 3, 5 … cards before hand 1, 2, 3 … (spec 10, pass_count_schedule)
            cards = 2 * played + 1
            return ngettext(
                "Hand %(hand)s: %(cards)s card each, passed to the left.",
                "Hand %(hand)s: %(cards)s cards each, passed to the left.",
                cards,
            ) % {"hand": played + 1, "cards": cards}
        return _("Cards each player passed to the left.")

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        self.put_seat(record, data, "dealer")
        if data.get("trump"):
            record["trump"] = data["trump"]
        if data.get("pass_count") is not None:
            record["pass_count"] = data["pass_count"]
        self.put_row(record, data, "tricks")
        specials: list[list[str]] = [[] for _ in range(self.n)]
        for card, _label in self.SPECIALS:
            holder = data.get(f"special_{card}")
            if holder not in (None, BLANK):
                specials[int(holder)].append(card)
        record["specials"] = specials
        self.put_row(record, data, "declared")
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        if key == "trump":
            if isinstance(value, str) and value in dict(self.TRUMPS):
                return {"trump": value}
            raise Unrepresentable
        if key == "pass_count":
            return {"pass_count": load_int(value)}
        if key == "specials":
            order = [card for card, _ in self.SPECIALS]
            out = {f"special_{card}": BLANK for card in order}
            for seat, cards in enumerate(self.seat_list(value)):
                if not isinstance(cards, list):
                    raise Unrepresentable
                for card in cards:
                    if card not in order or out[f"special_{card}"] != BLANK:
                        raise Unrepresentable  # not a special, or twice: only JSON can say that
                    out[f"special_{card}"] = str(seat)
            return out
        return super().load(key, value)

    def normal(self, key: str, value: Any) -> Any:
        # Each seat's specials are a set of cards: their order in the list means nothing.
        order = [card for card, _ in self.SPECIALS]
        if (
            key == "specials"
            and isinstance(value, list)
            and all(isinstance(cards, list) and all(c in order for c in cards) for cards in value)
        ):
            return [sorted(cards, key=order.index) for cards in value]
        return value

    def sections(self) -> list[dict[str, Any]]:
        f = self.__getitem__
        return [
            {"title": _("The hand"), "fields": [f("dealer"), f("trump"), f("pass_count")]},
            self.row_section(_("Tricks taken"), "tricks"),
            {
                "title": _("Special cards"),
                "help": _("Who took each one in their tricks."),
                "fields": [f(f"special_{card}") for card, _ in self.SPECIALS],
            },
            self.row_section(_("Declared scores"), "declared"),
        ]
