"""Piquet, all five: declarations by category (spec 2.2), tricks, declared scores.

One form serves the two-hand games and the partnerships (voleur, normand): what differs is
only the number of seats (and so of tricks) and the auction's contract.
"""

from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext as _

from scorekeeper.matches import i18n
from scorekeeper.rules.fields import is_int
from scorekeeper.rules.piquet.two_hand import CONTRACT_PARTS, contract_part_allows

from .base import (
    BLANK,
    HandForm,
    Unrepresentable,
    checks,
    load_int,
    load_seat,
    notation,
    number,
    radio,
    seat_choices,
    seat_or_none,
)
from .ranks import rank_names, read_rank, show_rank


def trick_marks(names: list[str]) -> list[str]:
    """Each seat's mark in the tricks field: its player's initial ("A" for Anne, "Б" for Борис).

    When two players share an initial, their first two letters ("AN", "AL"); when that does
    not tell them apart either (or a name has no letters), the seats' letters A, B, C, D. All
    marks have the same length, so a run of them typed without spaces reads one way only.
    """
    letters = ["".join(ch for ch in name if ch.isalpha()).upper() for name in names]
    for size in (1, 2):
        marks = [word[:size] for word in letters]
        if all(len(mark) == size for mark in marks) and len(set(marks)) == len(marks):
            return marks
    return [chr(ord("A") + i) for i in range(len(names))]


def show_tricks(winners: list[int], marks: list[str]) -> str:
    """Trick winners by their marks, four to a group ("ABBB BBAA AAAA"), or spaced when longer."""
    if len(marks[0]) == 1:
        text = "".join(marks[seat] for seat in winners)
        return " ".join(text[i : i + 4] for i in range(0, len(text), 4))
    return " ".join(marks[seat] for seat in winners)


def parse_tricks(text: str, marks: list[str]) -> list[int]:
    """Trick winners, one per trick, by their marks ("ABBB BBAA AAAA", any case; spaces and
    commas free) or as the record's seat numbers from 0 ("0111 1100 0000", as in JSON)."""
    compact = re.sub(r"[\s,]+", "", text).upper()
    if compact.isdigit() and compact.isascii():
        return [int(ch) for ch in compact]
    size = len(marks[0])
    chunks = [compact[i : i + size] for i in range(0, len(compact), size)]
    unknown = next((chunk for chunk in chunks if chunk not in marks), None)
    if unknown is not None:
        raise forms.ValidationError(
            _("“%(mark)s” is nobody's initial here: write one initial per trick, e.g. %(example)s"),
            code="tricks_format",
            params={"mark": unknown, "example": show_tricks([0, 1, 1, 1, 1, 0], marks)},
        )
    return [marks.index(chunk) for chunk in chunks]


# One digit, then a rank: a number or one letter of any alphabet (Д, a Russian queen).
_COMBO = re.compile(r"^([0-9])([0-9]{1,2}|[^\W\d_])$")


def parse_combos(text: str, first: str, second: str, example: str) -> list[dict[str, Any]]:
    """Runs ("5J 3J": length then top) or sets ("4Q 3K": count then rank) as the spec's objects,
    the ranks typed in the page's language or the engine's notation (``ranks.read_rank``).

    Only the shape is checked here; the engine judges lengths, counts and ranks (spec 2.2)
    and reports them with the category's own code.
    """
    out = []
    for token in re.split(r"[\s,;]+", text.strip()):
        if not token:
            continue
        match = _COMBO.match(token)
        if not match:
            raise forms.ValidationError(
                _("“%(token)s”: write each as one digit then a rank, e.g. %(example)s"),
                code="combo_format",
                params={"token": token, "example": example},
            )
        out.append({first: int(match.group(1)), second: read_rank(match.group(2))})
    return out


def format_combos(items: Any, first: str, second: str) -> str:
    if not isinstance(items, list):
        raise Unrepresentable
    out = []
    for item in items:
        if not (isinstance(item, dict) and set(item) == {first, second}):
            raise Unrepresentable
        count, rank = item[first], item[second]
        token = f"{count}{show_rank(rank)}" if is_int(count) and isinstance(rank, str) else ""
        match = _COMBO.match(token)
        # Only what parses back to exactly the same object (ranks in upper case).
        if not match or int(match.group(1)) != count or read_rank(match.group(2)) != rank:
            raise Unrepresentable
        out.append(token)
    return " ".join(out)


#: The tops a run can have (a tierce at least reaches the nine) and the ranks of the sets that
#: count (tens and up), for the buttons that type them (spec 2.2).
RUN_TOPS = ("9", "10", "J", "Q", "K", "A")
SET_RANKS = ("10", "J", "Q", "K", "A")


def picker(field: forms.BoundField, *, counts, ranks) -> dict[str, Any]:
    """Buttons that type a declaration into ``field``: a count (or length) starts one, a rank
    ends it; each rank shown in the page's language with its name for a screen reader."""
    return {
        "target": field.id_for_label,
        "counts": [str(c) for c in counts],
        "ranks": [{"letter": show_rank(r), "name": i18n.render(f"card.rank.{r}")} for r in ranks],
    }


class PiquetForm(HandForm):
    """The five piquet keys: declarations by category (spec 2.2), tricks, declared scores."""

    games = ("piquet", "piquet-au-cent", "piquet-auction", "piquet-voleur", "piquet-normand")
    covers = ("dealer", "carte_blanche", "point", "sequences", "sets", "tricks", "declared", "contract")
    seat_keys = ("dealer",)
    rows = ("declared",)
    path_fields = {
        "carte_blanche": "carte_blanche",
        "point": "point_scorer",
        "sequences": "sequences_runs",
        "sets": "sets_sets",
        "tricks": "tricks",
        "play": "tricks",
        "trick_cards": "tricks",
        "contract": "contract_declarer",
    }

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        nobody = (BLANK, _("nobody"))
        scorer = [nobody, ("equal", _("equal")), *seats]
        self.fields["dealer"] = radio(_("Dealer"), seats)
        self.fields["carte_blanche"] = checks(
            _("Carte blanche"), seats, _("A hand dealt without king, queen or jack (10 points).")
        )
        self.fields["point_scorer"] = radio(_("Who scored"), scorer)
        self.fields["point_cards"] = number(_("cards"), min=2, max=8, placeholder="6")
        self.fields["point_pips"] = number(_("pips"), min=15, max=75, placeholder="55")
        self.fields["sequences_scorer"] = radio(_("Who scored"), scorer)
        jack, queen, king = show_rank("J"), show_rank("Q"), show_rank("K")
        self.fields["sequences_runs"] = notation(
            _("runs"),
            _("Length then top card, e.g. %(example)s = quint to the jack and tierce to the jack.")
            % {"example": f"5{jack} 3{jack}"}
            + " "
            + _("Ranks: %(ranks)s.") % {"ranks": rank_names()},
            f"5{jack} 3{jack}",
        )
        self.fields["sets_scorer"] = radio(_("Who scored"), [nobody, *seats])
        self.fields["sets_sets"] = notation(
            _("sets"),
            _("Count then rank, e.g. %(example)s = quatorze of queens and trio of kings.")
            % {"example": f"4{queen} 3{king}"},
            f"4{queen} 3{king}",
        )
        self.marks = trick_marks(self.seat_names)
        names = ", ".join(f"{mark} = {name}" for mark, name in zip(self.marks, self.seat_names, strict=True))
        self.fields["tricks"] = forms.CharField(
            label=_("Tricks won, in order"),
            required=False,
            help_text=_("One initial per trick, its winner's (%(seats)s).") % {"seats": names},
            widget=forms.TextInput(
                attrs={
                    "autocomplete": "off",
                    "autocapitalize": "characters",
                    "spellcheck": "false",
                    "placeholder": show_tricks(self._tricks_example(), self.marks),
                }
            ),
        )
        if self.game == "piquet-auction":
            self.fields["contract_declarer"] = radio(_("Declarer"), seats)
            bid = CONTRACT_PARTS["tricks"][0]
            tricks = range(bid["minimum"], bid["maximum"] + 1)
            self.fields["contract_tricks"] = radio(_("tricks bid"), [(str(t), str(t)) for t in tricks])
            self.fields["contract_sign"] = radio(
                _("to win or to lose"), [("plus", _("plus")), ("minus", _("minus"))]
            )
            self.fields["contract_multiplier"] = radio(
                _("multiplier"), [("1", _("plain")), ("2", _("doubled")), ("4", _("redoubled"))]
            )
        self.add_declared()

    def _tricks_example(self) -> list[int]:
        # A deal has 12 tricks two-handed, 8 in voleur, 10 in three-hand normand (spec 2.4).
        example = {4: "01233012", 3: "0120120120"}.get(self.n, "011110000000")
        return [int(seat) for seat in example]

    def suggested(self) -> dict[str, str]:
        # Two-hand deals alternate (spec 3); the three- and four-hand games are left alone.
        last = self._state_seat("last_dealer")
        return {"dealer": str(1 - last)} if self.n == 2 and last is not None else {}

    def check_fields(self, data: dict[str, Any]) -> None:
        for category, extra in (("point", ("point_cards", "point_pips")), ("sequences", ("sequences_runs",))):
            if data.get(f"{category}_scorer") in (None, BLANK) and any(data.get(f) for f in extra):
                self.add_error(f"{category}_scorer", _("choose who scored it, or “equal”"))
        if data.get("sets_scorer") in (None, BLANK) and data.get("sets_sets"):
            self.add_error("sets_scorer", _("choose who scored the sets"))
        for name, parse in (
            ("sequences_runs", lambda t: parse_combos(t, "length", "top", f"5{show_rank('J')}")),
            ("sets_sets", lambda t: parse_combos(t, "count", "rank", f"4{show_rank('Q')}")),
            ("tricks", lambda t: parse_tricks(t, self.marks)),
        ):
            text = data.get(name) or ""
            if name in data and text.strip():
                try:
                    data[f"{name}_parsed"] = parse(text)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        self.put_seat(record, data, "dealer")
        holders = [int(s) for s in data.get("carte_blanche") or []]
        record["carte_blanche"] = None if not holders else holders[0] if len(holders) == 1 else holders
        record["point"] = self._category(
            data.get("point_scorer"),
            lambda: {"cards": data.get("point_cards"), "pips": data.get("point_pips")},
        )
        record["sequences"] = self._category(
            data.get("sequences_scorer"), lambda: {"runs": data.get("sequences_runs_parsed", [])}
        )
        record["sets"] = self._category(
            data.get("sets_scorer"), lambda: {"sets": data.get("sets_sets_parsed", [])}
        )
        if "tricks_parsed" in data:
            record["tricks"] = data["tricks_parsed"]
        if self.game == "piquet-auction":
            contract = {
                "declarer": seat_or_none(data.get("contract_declarer")),
                "tricks": int(data["contract_tricks"]) if data.get("contract_tricks") else None,
                "sign": data.get("contract_sign") or None,
                "multiplier": int(data["contract_multiplier"]) if data.get("contract_multiplier") else None,
            }
            if any(v is not None for v in contract.values()):
                record["contract"] = contract
        self.put_row(record, data, "declared")
        return record

    @staticmethod
    def _category(scorer: str | None, rest) -> dict[str, Any] | None:
        if scorer in (None, BLANK):
            return None
        return {"scorer": None if scorer == "equal" else int(scorer), **rest()}

    def load(self, key: str, value: Any) -> dict[str, Any]:
        n = self.n
        if key == "carte_blanche":
            if value is None:
                return {"carte_blanche": []}
            if is_int(value):
                return {"carte_blanche": [load_seat(value, n)]}
            # A list shows as ticked seats; only a sorted list of 2+ seats rebuilds the same.
            if (
                isinstance(value, list)
                and len(value) > 1
                and all(is_int(v) for v in value)
                and value == sorted(set(value))
            ):
                return {"carte_blanche": [load_seat(v, n) for v in value]}
            raise Unrepresentable
        if key == "tricks":
            if isinstance(value, list) and value and all(is_int(v) and 0 <= v < n for v in value):
                return {"tricks": show_tricks(value, self.marks)}
            raise Unrepresentable
        if value is None and key in ("point", "sequences", "sets"):
            return {f"{key}_scorer": BLANK}
        if key not in ("point", "sequences", "sets", "contract"):
            return super().load(key, value)
        if not isinstance(value, dict):
            raise Unrepresentable
        if key == "contract":
            return self._load_contract(value)
        scorer = value.get("scorer", "missing")
        shown = "equal" if scorer is None and key != "sets" else load_seat(scorer, n)
        if key == "point" and set(value) == {"scorer", "cards", "pips"}:
            return {
                "point_scorer": shown,
                "point_cards": load_int(value["cards"]),
                "point_pips": load_int(value["pips"]),
            }
        if key == "sequences" and set(value) == {"scorer", "runs"}:
            return {
                "sequences_scorer": shown,
                "sequences_runs": format_combos(value["runs"], "length", "top"),
            }
        if key == "sets" and set(value) == {"scorer", "sets"}:
            return {"sets_scorer": shown, "sets_sets": format_combos(value["sets"], "count", "rank")}
        raise Unrepresentable

    def _load_contract(self, value: dict[str, Any]) -> dict[str, Any]:
        if self.game != "piquet-auction" or set(value) != set(CONTRACT_PARTS):
            raise Unrepresentable
        if not all(contract_part_allows(part, value[part]) for part in ("tricks", "sign", "multiplier")):
            raise Unrepresentable  # the declarer is a seat of this match: load_seat reads it
        return {
            "contract_declarer": load_seat(value["declarer"], self.n),
            "contract_tricks": str(value["tricks"]),
            "contract_sign": value["sign"],
            "contract_multiplier": str(value["multiplier"]),
        }

    def field_for_path(self, path: str) -> str | None:
        fine = {"point.cards": "point_cards", "point.pips": "point_pips", "point.scorer": "point_scorer",
                "sequences.scorer": "sequences_scorer", "sets.scorer": "sets_scorer",
                "contract.tricks": "contract_tricks", "contract.sign": "contract_sign",
                "contract.multiplier": "contract_multiplier"}  # fmt: skip
        if path in fine and fine[path] in self.fields:
            return fine[path]
        return super().field_for_path(path)

    def sections(self) -> list[dict[str, Any]]:
        f = self.__getitem__
        out: list[dict[str, Any]] = [
            {"title": _("The deal"), "fields": [f("dealer"), f("carte_blanche")]},
            {
                "title": _("Point"),
                "fields": [f("point_scorer"), f("point_cards"), f("point_pips")],
                "grid": True,
            },
            {
                "title": _("Sequences"),
                "fields": [f("sequences_scorer"), f("sequences_runs")],
                "picker": picker(f("sequences_runs"), counts=range(3, 9), ranks=RUN_TOPS),
            },
            {
                "title": _("Sets"),
                "fields": [f("sets_scorer"), f("sets_sets")],
                "picker": picker(f("sets_sets"), counts=(4, 3), ranks=SET_RANKS),
            },
        ]
        if self.game == "piquet-auction":
            out.insert(
                1,
                {
                    "title": _("Contract"),
                    "fields": [
                        f("contract_declarer"),
                        f("contract_tricks"),
                        f("contract_sign"),
                        f("contract_multiplier"),
                    ],
                },
            )
        tapper = [
            {"seat": i, "mark": mark, "name": name}
            for i, (mark, name) in enumerate(zip(self.marks, self.seat_names, strict=True))
        ]
        out.append({"title": _("Play"), "fields": [f("tricks")], "tapper": tapper})
        out.append(
            self.row_section(_("Declared scores"), "declared", _("What each player claims for this deal."))
        )
        return out
