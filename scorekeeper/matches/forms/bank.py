"""The hand form of bank (spec 9)."""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

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
    seat_or_none,
)
from .ranks import show_cards


class BankForm(HandForm):
    """Bank: per seat the points taken, the going-out position and bonus, the cards left (spec 9)."""

    games = ("bank",)
    covers = ("dealer", "captured_points", "captured", "finish", "finish_bonus", "left_cards", "declared")
    seat_keys = ("dealer",)
    rows = ("captured_points", "declared")
    FLAGS = (("king", gettext_lazy("with a king")), ("trump_king", gettext_lazy("with the trump king")),
             ("four_of_kind", gettext_lazy("four of a kind")), ("four_kings", gettext_lazy("the four kings")),
             ("four_run", gettext_lazy("a run of four")))  # fmt: skip

    def add_fields(self) -> None:
        self.fields["dealer"] = radio(_("Dealer"), seat_choices(self.seat_names))
        positions = [
            (BLANK, _("did not go out")),
            ("1", _("1st out")),
            ("2", _("2nd out")),
            ("3", _("3rd out")),
        ]
        for i in range(self.n):
            self.fields[f"captured_points_{i}"] = number(_("Points taken"), min=0, max=124)
            self.fields[f"finish_{i}"] = radio(_("Went out"), positions[: self.n])
            self.fields[f"finish_bonus_{i}"] = checks(_("How (bonuses)"), self.FLAGS)
            self.fields[f"left_cards_{i}"] = notation(
                _("Cards left in hand"), placeholder=show_cards("AC 9D")
            )
            self.fields[f"captured_{i}"] = notation(
                _("Cards taken (instead of points)"), placeholder=show_cards("AS 10S KD")
            )
            self.fields[f"declared_{i}"] = number(_("Declared score"))

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        n = self.n
        record: dict[str, Any] = {}
        self.put_seat(record, data, "dealer")
        self.put_row(record, data, "captured_points")
        self.put_cards(record, data, "captured")
        finish = [seat_or_none(data.get(f"finish_{i}")) for i in range(n)]
        record["finish"] = finish
        flags = [set(data.get(f"finish_bonus_{i}") or []) for i in range(n)]
        if any(flags) or any(p is not None for p in finish):
            # Every finisher gets all five flags spelled out; a non-finisher null unless ticked.
            record["finish_bonus"] = [
                {name: name in flags[i] for name, _ in self.FLAGS}
                if finish[i] is not None or flags[i]
                else None
                for i in range(n)
            ]
        self.put_cards(record, data, "left_cards")
        self.put_row(record, data, "declared")
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        if key == "finish":
            last = min(3, self.n - 1)  # the last to go out ends the party
            if not all(v is None or (is_int(v) and 1 <= v <= last) for v in self.seat_list(value)):
                raise Unrepresentable
            return {f"finish_{i}": BLANK if v is None else str(v) for i, v in enumerate(value)}
        if key in ("captured", "left_cards"):
            return self.load_cards_row(key, value)
        if key == "finish_bonus":
            return self._load_flags(self.seat_list(value))
        return super().load(key, value)

    def _load_flags(self, value: list[Any]) -> dict[str, Any]:
        """Ticked flags per seat; whether ``build`` writes them back alike (null for a
        non-finisher without flags, all five for the others) is checked by ``initial_from``."""
        names = [name for name, _ in self.FLAGS]
        out: dict[str, Any] = {}
        for i, item in enumerate(value):
            if item is None:
                out[f"finish_bonus_{i}"] = []
            elif (
                isinstance(item, dict)
                and list(item) == names
                and all(isinstance(v, bool) for v in item.values())
            ):
                out[f"finish_bonus_{i}"] = [name for name in names if item[name]]
            else:
                raise Unrepresentable
        return out

    def sections(self) -> list[dict[str, Any]]:
        shown = ("captured_points", "declared", "finish", "finish_bonus", "left_cards")
        seats = [
            self.seat_section(
                i, [f"{key}_{i}" for key in shown], more=[f"captured_{i}"], more_title=_("cards taken")
            )
            for i in range(self.n)
        ]
        return [{"title": _("The party"), "fields": [self["dealer"]]}, *seats]
