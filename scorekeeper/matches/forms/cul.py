"""The hand form of cul (spec 8)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.rules.cul import START_BANKS
from scorekeeper.rules.fields import is_int

from .base import (
    BLANK,
    HandForm,
    Unrepresentable,
    checks,
    notation,
    number,
    radio,
    seat_choices,
    signed_number,
)
from .ranks import show_cards


class CulForm(HandForm):
    """cul: per seat a bet, the points made and the banks declared (spec 8)."""

    games = ("cul",)
    covers = ("dealer", "first_leader", "bets", "points", "captured", "bonuses", "declared_banks")
    seat_keys = ("dealer", "first_leader")
    rows = ("bets", "points", "declared_banks")
    BONUSES = (("queen_king", gettext_lazy("queen + king (25)")), ("diamonds_spades", "♦ + ♠ (15)"),
               ("four_of_suit", gettext_lazy("four of a suit (10)")))  # fmt: skip

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        self.fields["dealer"] = radio(_("Dealer"), seats)
        self.fields["first_leader"] = radio(_("First lead"), [(BLANK, _("not noted")), *seats])
        for i in range(self.n):
            self.fields[f"bets_{i}"] = radio(_("Bet"), [("go", _("go")), ("not_go", _("not go"))])
            # Points run from -4 to 238 (spec 8): a six counts -1, so four sixes make -4.
            self.fields[f"points_{i}"] = signed_number(_("Points"))
            banks = self._state("banks")
            now = banks[i] if isinstance(banks, list) and i < len(banks) else None
            before = _("%(banks)s before this party") % {"banks": now} if now is not None else ""
            self.fields[f"declared_banks_{i}"] = number(_("Banks after"), before, min=0)
            self.fields[f"captured_{i}"] = notation(
                _("Cards taken (optional)"), placeholder=show_cards("AS 10S KS")
            )
            self.fields[f"bonuses_{i}"] = checks(_("Bonuses claimed"), self.BONUSES)

    def suggested(self) -> dict[str, str]:
        # The previous party's first leader deals the next (spec 8, dealer_rule).
        leader = self._state_seat("last_first_leader")
        out = {"dealer": str(leader)} if leader is not None else {}
        # Each player's banks as they stand: the scorer changes only those that moved (and a
        # bank forgotten is a mismatch the rules explain, not a blank row refused).
        banks = self._state("banks") if self.state else [START_BANKS] * self.n
        if isinstance(banks, list) and len(banks) == self.n and all(is_int(b) for b in banks):
            out.update({f"declared_banks_{i}": str(b) for i, b in enumerate(banks)})
        return out

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        self.put_seat(record, data, "dealer")
        self.put_seat(record, data, "first_leader")
        self.put_row(record, data, "bets")
        self.put_row(record, data, "points")
        self.put_cards(record, data, "captured")
        bonuses = [data.get(f"bonuses_{i}") or [] for i in range(self.n)]
        if any(bonuses):
            order = [item for item, _ in self.BONUSES]
            record["bonuses"] = [[{"item": b} for b in sorted(chosen, key=order.index)] for chosen in bonuses]
        self.put_row(record, data, "declared_banks")
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        if key == "bets":
            if not all(v in ("go", "not_go") for v in self.seat_list(value)):
                raise Unrepresentable
            return {f"bets_{i}": v for i, v in enumerate(value)}
        if key == "captured":
            return self.load_cards_row("captured", value)
        if key == "bonuses":
            return self._load_bonuses(value)
        return super().load(key, value)

    def _load_bonuses(self, value: Any) -> dict[str, Any]:
        order = [item for item, _ in self.BONUSES]
        out = {}
        for i, items in enumerate(self.seat_list(value)):
            if not isinstance(items, list) or not all(
                isinstance(x, dict) and set(x) == {"item"} for x in items
            ):
                raise Unrepresentable
            names = [x["item"] for x in items]
            if (
                not all(isinstance(name, str) for name in names)
                or any(name not in order for name in names)
                or names != sorted(set(names), key=order.index)
            ):
                raise Unrepresentable
            out[f"bonuses_{i}"] = names
        if not any(value):
            raise Unrepresentable
        return out

    def sections(self) -> list[dict[str, Any]]:
        go = 44 + 12 * (self.n - 2)
        not_go = go + 24 if self.n < 6 else self.game_options.get("not_go_target_6p", go + 24)
        party = {
            "title": _("The party"),
            "help": _("Targets with %(players)s players: go %(go)s, not go %(not_go)s.")
            % {"players": self.n, "go": go, "not_go": not_go},
            "fields": [self["dealer"], self["first_leader"]],
        }
        return [
            party,
            *(
                self.seat_section(
                    i,
                    [f"bets_{i}", f"points_{i}", f"declared_banks_{i}"],
                    more=[f"captured_{i}", f"bonuses_{i}"],
                    more_title=_("cards taken, bonuses"),
                )
                for i in range(self.n)
            ),
        ]
