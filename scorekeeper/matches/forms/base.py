"""Forms of the web pages: a new match, and one hand-record form per game family.

A hand form only converts what was typed into the JSON record of the spec (section "Hand
record" of each game); it judges nothing itself. The rules engine, called by the services,
reports every problem with its spec code and path, and the page puts each one back next to
the field it came from (``HandForm.field_for_path``). So a blank required field is not a
form error: it becomes a missing key and the engine's ``field_missing`` explains it.

Every form also has an advanced JSON area: the keys of the object pasted there replace the
form's keys, so a whole record can be pasted, or just what the form lacks (card level:
``dealt``, ``hands``, ``trick_cards``; a piquet ``play`` summary). When a form is pre-filled
from a stored record (a correction), every key it cannot show exactly goes to that area, so
nothing of the stored record is lost.
"""

from __future__ import annotations

import json
import re
from typing import Any, ClassVar

from django import forms
from django.utils.safestring import mark_safe

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.fields import is_int

from ..models import Player

#: Seat radio buttons and per-seat values use these names; "" means "not given".
BLANK = ""


class Unrepresentable(Exception):
    """A stored value the form cannot show exactly: it goes to the advanced JSON area."""


# -- small helpers ------------------------------------------------------------------------
def seat_choices(names: list[str]) -> list[tuple[str, str]]:
    return [(str(i), name) for i, name in enumerate(names)]


def _radio(label: str, choices, help_text: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label, choices=choices, required=False, widget=forms.RadioSelect, help_text=help_text
    )


def _checks(label: str, choices, help_text: str = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=help_text,
    )


def _number(label: str, help_text: str = "", **attrs: Any) -> forms.IntegerField:
    return forms.IntegerField(
        label=label, required=False, help_text=help_text, widget=forms.NumberInput(attrs=attrs)
    )


def _text(label: str, help_text: str = "", placeholder: str = "") -> forms.CharField:
    attrs = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
    if placeholder:
        attrs["placeholder"] = placeholder
    return forms.CharField(
        label=label, required=False, help_text=help_text, widget=forms.TextInput(attrs=attrs)
    )


def _seat_or_none(value: str) -> int | None:
    return int(value) if value not in (None, BLANK) else None


def _load_seat(value: Any, n: int) -> str:
    if is_int(value) and 0 <= value < n:
        return str(value)
    raise Unrepresentable


def _load_int(value: Any) -> str:
    if is_int(value):
        return str(value)
    raise Unrepresentable


def _load_cards(value: Any) -> str:
    """A list of card strings as the form's text ("AS 10S KD"); each must survive the split."""
    if not isinstance(value, list):
        raise Unrepresentable
    for card in value:
        if not isinstance(card, str) or not card or re.search(r"[\s,]", card):
            raise Unrepresentable
    return " ".join(value)


def split_cards(text: str) -> list[str]:
    """Cards as typed, split on spaces or commas; the engine checks each (spec 1.3)."""
    return [token for token in re.split(r"[\s,]+", text.strip()) if token]


def parse_tricks(text: str) -> list[int]:
    """Trick winners written as digits, one per trick ("0111 1000 0000"); spaces and commas free."""
    compact = re.sub(r"[\s,]+", "", text)
    if not compact.isdigit() or not compact.isascii():
        raise forms.ValidationError(
            "write one seat number per trick, e.g. 011110000000 (spaces allowed)", code="tricks_format"
        )
    return [int(ch) for ch in compact]


_COMBO = re.compile(r"^([0-9])([0-9]{1,2}|[A-Za-z])$")


def parse_combos(text: str, first: str, second: str, example: str) -> list[dict[str, Any]]:
    """Runs ("5J 3J": length then top) or sets ("4Q 3K": count then rank) as the spec's objects.

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
                f"{token!r}: write each as one digit then a rank, e.g. {example}", code="combo_format"
            )
        out.append({first: int(match.group(1)), second: match.group(2).upper()})
    return out


def format_combos(items: Any, first: str, second: str) -> str:
    if not isinstance(items, list):
        raise Unrepresentable
    out = []
    for item in items:
        if not (isinstance(item, dict) and set(item) == {first, second}):
            raise Unrepresentable
        number, rank = item[first], item[second]
        token = f"{number}{rank}" if is_int(number) and isinstance(rank, str) else ""
        match = _COMBO.match(token)
        # Only what parses back to exactly the same object (ranks in upper case).
        if not match or int(match.group(1)) != number or match.group(2).upper() != rank:
            raise Unrepresentable
        out.append(token)
    return " ".join(out)


# -- the hand forms -----------------------------------------------------------------------
class HandForm(forms.Form):
    """Base of the per-game hand forms: the record's fields plus the workflow fields.

    Subclasses add their fields in ``add_fields``, turn cleaned data into the record in
    ``build`` and back in ``load`` (for a correction), and lay the fields out in
    ``sections`` for the page.
    """

    games: ClassVar[tuple[str, ...]] = ()
    #: The record keys the form shows; a stored record's other keys go to the JSON area.
    covers: ClassVar[tuple[str, ...]] = ()

    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    record_json = forms.CharField(
        label="Advanced: JSON record",
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocapitalize": "off"}),
        help_text="Keys given here replace the form's. Paste a whole record, or only what the form "
        'lacks, e.g. {"hands": [[…], […]], "trick_cards": [[…], …]}.',
    )
    accept_declared = forms.BooleanField(
        label="Accept the declared scores", required=False, help_text="The hand is stored as disputed."
    )
    reason = forms.CharField(
        label="Reason",
        required=False,
        max_length=2000,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text="Required to accept declared scores that differ from the rules.",
    )

    def __init__(
        self,
        *args: Any,
        game: str,
        seats: list[str],
        options: dict[str, Any],
        state: dict[str, Any] | None = None,
        **kwargs: Any,
    ):
        self.game = game
        self.seat_names = list(seats)
        self.n = len(self.seat_names)
        self.game_options = options
        #: The match state before a new hand (spec 1.1), for hints; None for a correction.
        self.state = state if isinstance(state, dict) else None
        super().__init__(*args, **kwargs)
        self.add_fields()

    def suggested(self) -> dict[str, str]:
        """Values to pre-fill for the next hand of a match in ``state`` (the usual dealer)."""
        return {}

    def _state(self, key: str) -> Any:
        return self.state.get(key) if self.state else None

    # -- to implement --------------------------------------------------------------------
    def add_fields(self) -> None:
        raise NotImplementedError

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        """The record from cleaned data (keys left out when nothing was typed)."""
        raise NotImplementedError

    def load(self, key: str, value: Any) -> dict[str, Any]:
        """Form values (as POST strings) showing ``record[key]``; raises Unrepresentable."""
        raise NotImplementedError

    def sections(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def field_for_path(self, path: str) -> str | None:
        """The form field an engine problem at ``path`` belongs to (None: the form as a whole)."""
        key, index = _split_path(path)
        pasted = getattr(self, "cleaned_data", {}).get("record_json") or {}
        if key in pasted:
            return "record_json"  # the JSON area supplied this key: the problem is there
        if key in self.covers_per_seat() and index is not None and f"{key}_{index}" in self.fields:
            return f"{key}_{index}"
        if key in self.covers_per_seat() and f"{key}_0" in self.fields:
            return f"{key}_0"
        return self.path_fields().get(key)

    def path_fields(self) -> dict[str, str]:
        return {}

    def covers_per_seat(self) -> tuple[str, ...]:
        return ()

    # -- shared ----------------------------------------------------------------------------
    def seat_label(self, i: int) -> str:
        return f"{self.seat_names[i]} (seat {i})"

    def per_seat_fields(self, key: str, label: str, make) -> None:
        for i in range(self.n):
            self.fields[f"{key}_{i}"] = make(label if self.n == 1 else f"{label}: {self.seat_names[i]}")

    def per_seat_values(self, data: dict[str, Any], key: str) -> list[Any] | None:
        """Every seat's value of ``key``, or None when none was typed; a partly filled row is
        a form error (the engine would only say "not an integer")."""
        values = [data.get(f"{key}_{i}") for i in range(self.n)]
        if all(v in (None, BLANK) for v in values):
            return None
        for i, v in enumerate(values):
            if v in (None, BLANK) and f"{key}_{i}" not in self.errors:
                self.add_error(f"{key}_{i}", "needed for every seat (0 if nothing)")
        return values

    def clean_record_json(self) -> dict[str, Any] | None:
        text = self.cleaned_data.get("record_json", "").strip()
        if not text:
            return None
        try:
            value = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                f"this is not valid JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}",
                code="json_invalid",
            ) from None
        except (ValueError, RecursionError) as exc:
            message = str(exc) if isinstance(exc, ValueError) else "it is nested too deeply"
            raise forms.ValidationError(f"this is not valid JSON: {message}", code="json_invalid") from None
        if not isinstance(value, dict):
            raise forms.ValidationError(
                'the JSON must be an object of record keys, e.g. {"hands": […]}', code="json_not_object"
            )
        return value

    def record(self) -> dict[str, Any]:
        """The hand record: the form's keys, then the JSON area's keys on top (call after is_valid)."""
        record = self.build(self.cleaned_data)
        record.update(self.cleaned_data.get("record_json") or {})
        return record

    @classmethod
    def initial_from(cls, record: Any, **kwargs: Any) -> dict[str, Any]:
        """Form values showing a stored ``record``; what they cannot show goes to the JSON area."""
        form = cls(**kwargs)
        initial: dict[str, Any] = {}
        leftover: dict[str, Any] = {}
        if not isinstance(record, dict):
            return {"record_json": json.dumps(record, ensure_ascii=False)}
        for key, value in record.items():
            if key not in cls.covers:
                leftover[key] = value
                continue
            try:
                initial.update(form.load(key, value))
            except (Unrepresentable, TypeError, ValueError):
                # Stored data of any shape (an import, an older engine): what a loader cannot
                # read is simply left to the JSON area.
                leftover[key] = value
        # What the form would send back: a key it does not rebuild exactly keeps its stored
        # value in the JSON area (which wins over the form's keys).
        check = cls(data=initial, **kwargs)
        built = check.build(check.cleaned_data) if check.is_valid() else {}
        for key, value in record.items():
            if key in leftover:
                continue
            if key not in built or _json(form.normal(key, built[key])) != _json(form.normal(key, value)):
                leftover[key] = value
        if leftover:
            initial["record_json"] = json.dumps(leftover, ensure_ascii=False)
        return initial

    def error_summary(self) -> list[tuple[str, str]]:
        """(field label, message) for every form error, for the list at the top of the page."""
        out = []
        for name, messages in self.errors.items():
            label = self.fields[name].label if name in self.fields else ""
            out.extend((str(label or ""), str(m)) for m in messages)
        return out

    def normal(self, key: str, value: Any) -> Any:
        """``record[key]`` in a form where equal meanings compare equal (see BastardForm)."""
        return value

    def json_overrides(self) -> list[str]:
        """The keys of the JSON area that replace fields shown on the form (a warning)."""
        text = self["record_json"].value() or ""
        try:
            value = json.loads(text) if text.strip() else {}
        except json.JSONDecodeError:
            return []
        return [key for key in value if key in self.covers] if isinstance(value, dict) else []

    def attach_problems(self, problems: list[dict[str, Any]]) -> None:
        """Show each engine error next to its field (the page also lists them all)."""
        for problem in problems:
            name = self.field_for_path(str(problem.get("path", "")))
            message = f"{problem.get('message', '')} ({problem.get('code', '')})"
            if name is not None and name in self.fields:
                self.errors.setdefault(name, self.error_class(renderer=self.renderer)).append(message)


def _any_value(*fields: forms.BoundField) -> bool:
    """Whether a folded part of the form has something in it (then it is shown open)."""
    return any(field.errors or field.value() for field in fields)


def _no_constant(name: str) -> Any:
    # Python reads NaN and Infinity, but they are not JSON and PostgreSQL refuses them.
    raise ValueError(f"{name} is not a JSON number")


def _json(value: Any) -> str:
    """A type-strict comparison key (``True == 1`` in Python, not in JSON)."""
    return json.dumps(value, sort_keys=True)


def _split_path(path: str) -> tuple[str, int | None]:
    """ "declared[1]" → ("declared", 1); "point.pips" → ("point", None)."""
    head = re.split(r"[.]", path, maxsplit=1)[0]
    match = re.match(r"^([^\[]*)\[(\d+)\]", head)
    if match:
        return match.group(1), int(match.group(2))
    return head, None


class PiquetForm(HandForm):
    """The five piquet keys: declarations by category (spec 2.2), tricks, declared scores."""

    games = ("piquet", "piquet-au-cent", "piquet-auction", "piquet-voleur", "piquet-normand")
    covers = ("dealer", "carte_blanche", "point", "sequences", "sets", "tricks", "declared", "contract")

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        scorer = [(BLANK, "nobody"), ("equal", "equal"), *seats]
        self.fields["dealer"] = _radio("Dealer", seats)
        self.fields["carte_blanche"] = _checks(
            "Carte blanche", seats, "A hand dealt without king, queen or jack (10 points)."
        )
        self.fields["point_scorer"] = _radio("Who scored", scorer)
        self.fields["point_cards"] = _number("cards", min=2, max=8, placeholder="6")
        self.fields["point_pips"] = _number("pips", min=15, max=75, placeholder="55")
        self.fields["sequences_scorer"] = _radio("Who scored", scorer)
        self.fields["sequences_runs"] = _text(
            "runs", "Length then top card, e.g. 5J 3J = quint to the jack and tierce to the jack.", "5J 3J"
        )
        self.fields["sets_scorer"] = _radio("Who scored", [(BLANK, "nobody"), *seats])
        self.fields["sets_sets"] = _text(
            "sets", "Count then rank, e.g. 4Q 3K = quatorze of queens and trio of kings.", "4Q 3K"
        )
        names = ", ".join(f"{i} = {name}" for i, name in enumerate(self.seat_names))
        self.fields["tricks"] = forms.CharField(
            label="Tricks won, in order",
            required=False,
            help_text=f"One digit per trick: the seat that won it ({names}).",
            widget=forms.TextInput(
                attrs={"inputmode": "numeric", "autocomplete": "off", "placeholder": self._tricks_example()}
            ),
        )
        if self.game == "piquet-auction":
            self.fields["contract_declarer"] = _radio("Declarer", seats)
            self.fields["contract_tricks"] = _radio("tricks bid", [(str(t), str(t)) for t in range(7, 13)])
            self.fields["contract_sign"] = _radio("to win or to lose", [("plus", "plus"), ("minus", "minus")])
            self.fields["contract_multiplier"] = _radio(
                "multiplier", [("1", "plain"), ("2", "doubled"), ("4", "redoubled")]
            )
        self.per_seat_fields("declared", "Declared", lambda label: _number(label))

    def _tricks_example(self) -> str:
        # A deal has 12 tricks two-handed, 8 in voleur, 10 in three-hand normand (spec 2.4).
        return {4: "0123 3012", 3: "0120 1201 20"}.get(self.n, "0111 1000 0000")

    def suggested(self) -> dict[str, str]:
        # Two-hand deals alternate (spec 3); the three- and four-hand games are left alone.
        last = self._state("last_dealer")
        if self.n == 2 and last in (0, 1) and is_int(last):
            return {"dealer": str(1 - last)}
        return {}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for category, extra in (("point", ("point_cards", "point_pips")), ("sequences", ("sequences_runs",))):
            if data.get(f"{category}_scorer") in (None, BLANK) and any(data.get(f) for f in extra):
                self.add_error(f"{category}_scorer", "choose who scored it, or “equal”")
        if data.get("sets_scorer") in (None, BLANK) and data.get("sets_sets"):
            self.add_error("sets_scorer", "choose who scored the sets")
        for name, parse in (
            ("sequences_runs", lambda t: parse_combos(t, "length", "top", "5J")),
            ("sets_sets", lambda t: parse_combos(t, "count", "rank", "4Q")),
            ("tricks", parse_tricks),
        ):
            text = data.get(name) or ""
            if name in data and text.strip():
                try:
                    data[f"{name}_parsed"] = parse(text)
                except forms.ValidationError as exc:
                    self.add_error(name, exc)
        self.per_seat_values(data, "declared")
        return data

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if data.get("dealer") not in (None, BLANK):
            record["dealer"] = int(data["dealer"])
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
                "declarer": _seat_or_none(data.get("contract_declarer")),
                "tricks": int(data["contract_tricks"]) if data.get("contract_tricks") else None,
                "sign": data.get("contract_sign") or None,
                "multiplier": int(data["contract_multiplier"]) if data.get("contract_multiplier") else None,
            }
            if any(v is not None for v in contract.values()):
                record["contract"] = contract
        declared = self.per_seat_values(data, "declared")
        if declared is not None:
            record["declared"] = declared
        return record

    @staticmethod
    def _category(scorer: str | None, rest) -> dict[str, Any] | None:
        if scorer in (None, BLANK):
            return None
        return {"scorer": None if scorer == "equal" else int(scorer), **rest()}

    def load(self, key: str, value: Any) -> dict[str, Any]:
        n = self.n
        if key == "dealer":
            return {"dealer": _load_seat(value, n)}
        if key == "carte_blanche":
            if value is None:
                return {"carte_blanche": []}
            if is_int(value):
                return {"carte_blanche": [_load_seat(value, n)]}
            # A list shows as ticked seats; only a sorted list of 2+ seats rebuilds the same.
            if (
                isinstance(value, list)
                and len(value) > 1
                and all(is_int(v) for v in value)
                and value == sorted(set(value))
            ):
                return {"carte_blanche": [_load_seat(v, n) for v in value]}
            raise Unrepresentable
        if key == "tricks":
            if isinstance(value, list) and value and all(is_int(v) and 0 <= v <= 9 for v in value):
                return {"tricks": "".join(map(str, value))}
            raise Unrepresentable
        if key == "declared":
            return self._load_per_seat("declared", value, _load_int)
        if value is None and key in ("point", "sequences", "sets"):
            return {f"{key}_scorer": BLANK}
        if not isinstance(value, dict):
            raise Unrepresentable
        if key == "contract":
            return self._load_contract(value)
        scorer = value.get("scorer", "missing")
        shown = "equal" if scorer is None and key != "sets" else _load_seat(scorer, n)
        if key == "point" and set(value) == {"scorer", "cards", "pips"}:
            return {
                "point_scorer": shown,
                "point_cards": _load_int(value["cards"]),
                "point_pips": _load_int(value["pips"]),
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
        if self.game != "piquet-auction" or set(value) != {"declarer", "tricks", "sign", "multiplier"}:
            raise Unrepresentable
        if value["tricks"] not in range(7, 13) or not is_int(value["tricks"]):
            raise Unrepresentable
        if value["sign"] not in ("plus", "minus") or value["multiplier"] not in (1, 2, 4):
            raise Unrepresentable
        if not is_int(value["multiplier"]):
            raise Unrepresentable
        return {
            "contract_declarer": _load_seat(value["declarer"], self.n),
            "contract_tricks": str(value["tricks"]),
            "contract_sign": value["sign"],
            "contract_multiplier": str(value["multiplier"]),
        }

    def _load_per_seat(self, key: str, value: Any, load_one) -> dict[str, Any]:
        if not isinstance(value, list) or len(value) != self.n:
            raise Unrepresentable
        return {f"{key}_{i}": load_one(v) for i, v in enumerate(value)}

    def covers_per_seat(self) -> tuple[str, ...]:
        return ("declared",)

    def path_fields(self) -> dict[str, str]:
        return {
            "dealer": "dealer",
            "carte_blanche": "carte_blanche",
            "point": "point_scorer",
            "sequences": "sequences_runs",
            "sets": "sets_sets",
            "tricks": "tricks",
            "play": "tricks",
            "trick_cards": "tricks",
            "contract": "contract_declarer",
            "seats": "dealer",
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
        out = [
            {"title": "The deal", "fields": [f("dealer"), f("carte_blanche")]},
            {
                "title": "Point",
                "fields": [f("point_scorer"), f("point_cards"), f("point_pips")],
                "grid": True,
            },
            {"title": "Sequences", "fields": [f("sequences_scorer"), f("sequences_runs")]},
            {"title": "Sets", "fields": [f("sets_scorer"), f("sets_sets")]},
        ]
        if self.game == "piquet-auction":
            out.insert(
                1,
                {
                    "title": "Contract",
                    "fields": [
                        f("contract_declarer"),
                        f("contract_tricks"),
                        f("contract_sign"),
                        f("contract_multiplier"),
                    ],
                },
            )
        out.append({"title": "Play", "fields": [f("tricks")], "tricks": True})
        out.append(
            {
                "title": "Declared scores",
                "help": "What each player claims for this deal.",
                "fields": [f(f"declared_{i}") for i in range(self.n)],
                "grid": True,
            }
        )
        return out


class CulForm(HandForm):
    """cul: per seat a bet, the points made and the banks declared (spec 8)."""

    games = ("cul",)
    covers = ("dealer", "first_leader", "bets", "points", "captured", "bonuses", "declared_banks")
    BONUSES = (("queen_king", "queen + king (25)"), ("diamonds_spades", "♦ + ♠ (15)"),
               ("four_of_suit", "four of a suit (10)"))  # fmt: skip

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        self.fields["dealer"] = _radio("Dealer", seats)
        self.fields["first_leader"] = _radio("First lead", [(BLANK, "not noted"), *seats])
        for i in range(self.n):
            self.fields[f"bets_{i}"] = _radio("Bet", [("go", "go"), ("not_go", "not go")])
            self.fields[f"points_{i}"] = _number("Points", min=-4, max=238)
            banks = self._state("banks")
            now = banks[i] if isinstance(banks, list) and i < len(banks) else None
            self.fields[f"declared_banks_{i}"] = _number(
                "Banks after", f"{now} before this party" if now is not None else "", min=0
            )
            self.fields[f"captured_{i}"] = _text("Cards taken (optional)", placeholder="AS 10S KS")
            self.fields[f"bonuses_{i}"] = _checks("Bonuses claimed", self.BONUSES)

    def suggested(self) -> dict[str, str]:
        # The previous party's first leader deals the next (spec 8, dealer_rule).
        leader = self._state("last_first_leader")
        return {"dealer": str(leader)} if is_int(leader) and 0 <= leader < self.n else {}

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for key in ("bets", "points", "declared_banks"):
            self.per_seat_values(data, key)
        return data

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if data.get("dealer") not in (None, BLANK):
            record["dealer"] = int(data["dealer"])
        if data.get("first_leader") not in (None, BLANK):
            record["first_leader"] = int(data["first_leader"])
        for key in ("bets", "points"):
            values = self.per_seat_values(data, key)
            if values is not None:
                record[key] = values
        captured = [split_cards(data.get(f"captured_{i}") or "") for i in range(self.n)]
        if any(captured):
            record["captured"] = captured
        bonuses = [data.get(f"bonuses_{i}") or [] for i in range(self.n)]
        if any(bonuses):
            order = [item for item, _ in self.BONUSES]
            record["bonuses"] = [[{"item": b} for b in sorted(chosen, key=order.index)] for chosen in bonuses]
        banks = self.per_seat_values(data, "declared_banks")
        if banks is not None:
            record["declared_banks"] = banks
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        n = self.n
        if key in ("dealer", "first_leader"):
            return {key: _load_seat(value, n)}
        if not isinstance(value, list) or len(value) != n:
            raise Unrepresentable
        if key == "bets":
            if not all(v in ("go", "not_go") for v in value):
                raise Unrepresentable
            return {f"bets_{i}": v for i, v in enumerate(value)}
        if key in ("points", "declared_banks"):
            return {f"{key}_{i}": _load_int(v) for i, v in enumerate(value)}
        if key == "captured":
            out = {f"captured_{i}": _load_cards(v) for i, v in enumerate(value)}
            if not any(value):
                raise Unrepresentable  # all empty: the form would leave the key out
            return out
        if key == "bonuses":
            order = [item for item, _ in self.BONUSES]
            out = {}
            for i, items in enumerate(value):
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
        raise Unrepresentable

    def covers_per_seat(self) -> tuple[str, ...]:
        return ("bets", "points", "captured", "bonuses", "declared_banks")

    def path_fields(self) -> dict[str, str]:
        return {"dealer": "dealer", "first_leader": "first_leader", "seats": "dealer"}

    def sections(self) -> list[dict[str, Any]]:
        f = self.__getitem__
        go = 44 + 12 * (self.n - 2)
        not_go = go + 24 if self.n < 6 else self.game_options.get("not_go_target_6p", go + 24)
        out = [
            {
                "title": "The party",
                "help": f"Targets with {self.n} players: go {go}, not go {not_go}.",
                "fields": [f("dealer"), f("first_leader")],
            }
        ]
        for i in range(self.n):
            out.append(
                {
                    "title": self.seat_label(i),
                    "seat": i,
                    "fields": [f(f"bets_{i}"), f(f"points_{i}"), f(f"declared_banks_{i}")],
                    "grid": True,
                    "more": [f(f"captured_{i}"), f(f"bonuses_{i}")],
                    "more_title": "cards taken, bonuses",
                    "more_open": _any_value(f(f"captured_{i}"), f(f"bonuses_{i}")),
                }
            )
        return out


class BankForm(HandForm):
    """Bank: per seat the points taken, the going-out position and bonus, the cards left (spec 9)."""

    games = ("bank",)
    covers = ("dealer", "captured_points", "captured", "finish", "finish_bonus", "left_cards", "declared")
    FLAGS = (("king", "with a king"), ("trump_king", "with the trump king"),
             ("four_of_kind", "four of a kind"), ("four_kings", "the four kings"),
             ("four_run", "a run of four"))  # fmt: skip

    def add_fields(self) -> None:
        self.fields["dealer"] = _radio("Dealer", seat_choices(self.seat_names))
        positions = [(BLANK, "did not go out"), ("1", "1st out"), ("2", "2nd out"), ("3", "3rd out")]
        for i in range(self.n):
            self.fields[f"captured_points_{i}"] = _number("Points taken", min=0, max=124)
            self.fields[f"finish_{i}"] = _radio("Went out", positions[: self.n])
            self.fields[f"finish_bonus_{i}"] = _checks("How (bonuses)", self.FLAGS)
            self.fields[f"left_cards_{i}"] = _text("Cards left in hand", placeholder="AC 9D")
            self.fields[f"captured_{i}"] = _text("Cards taken (instead of points)", placeholder="AS 10S KD")
            self.fields[f"declared_{i}"] = _number("Declared score")

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        for key in ("captured_points", "declared"):
            self.per_seat_values(data, key)
        return data

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        n = self.n
        record: dict[str, Any] = {}
        if data.get("dealer") not in (None, BLANK):
            record["dealer"] = int(data["dealer"])
        points = self.per_seat_values(data, "captured_points")
        if points is not None:
            record["captured_points"] = points
        captured = [split_cards(data.get(f"captured_{i}") or "") for i in range(n)]
        if any(captured):
            record["captured"] = captured
        finish = [_seat_or_none(data.get(f"finish_{i}")) for i in range(n)]
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
        left = [split_cards(data.get(f"left_cards_{i}") or "") for i in range(n)]
        if any(left):
            record["left_cards"] = left
        declared = self.per_seat_values(data, "declared")
        if declared is not None:
            record["declared"] = declared
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        n = self.n
        if key == "dealer":
            return {"dealer": _load_seat(value, n)}
        if not isinstance(value, list) or len(value) != n:
            raise Unrepresentable
        if key in ("captured_points", "declared"):
            return {f"{key}_{i}": _load_int(v) for i, v in enumerate(value)}
        if key == "finish":
            if not all(v is None or (is_int(v) and 1 <= v <= min(3, n - 1)) for v in value):
                raise Unrepresentable
            return {f"finish_{i}": BLANK if v is None else str(v) for i, v in enumerate(value)}
        if key in ("captured", "left_cards"):
            if not any(value):
                raise Unrepresentable
            return {f"{key}_{i}": _load_cards(v) for i, v in enumerate(value)}
        if key == "finish_bonus":
            return self._load_flags(value)
        raise Unrepresentable

    def _load_flags(self, value: list[Any]) -> dict[str, Any]:
        """Ticked flags per seat; whether ``build`` writes them back alike (null for a
        non-finisher without flags, all five for the others) is checked by ``initial_from``."""
        names = [name for name, _ in self.FLAGS]
        out = {}
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

    def covers_per_seat(self) -> tuple[str, ...]:
        return ("captured_points", "captured", "finish", "finish_bonus", "left_cards", "declared")

    def path_fields(self) -> dict[str, str]:
        return {"dealer": "dealer", "seats": "dealer"}

    def sections(self) -> list[dict[str, Any]]:
        f = self.__getitem__
        out = [{"title": "The party", "fields": [f("dealer")]}]
        for i in range(self.n):
            out.append(
                {
                    "title": self.seat_label(i),
                    "seat": i,
                    "fields": [
                        f(f"captured_points_{i}"),
                        f(f"declared_{i}"),
                        f(f"finish_{i}"),
                        f(f"finish_bonus_{i}"),
                        f(f"left_cards_{i}"),
                    ],
                    "grid": True,
                    "more": [f(f"captured_{i}")],
                    "more_title": "cards taken",
                    "more_open": _any_value(f(f"captured_{i}")),
                }
            )
        return out


class BastardForm(HandForm):
    """Bastard: trump, tricks per seat, who took each special card, declared (spec 10)."""

    games = ("bastard",)
    covers = ("dealer", "trump", "pass_count", "tricks", "specials", "declared")
    SPECIALS = (("JS", "J♠ (1)"), ("JC", "J♣ (2)"), ("JD", "J♦ (3)"), ("JH", "J♥ (4)"),
                ("7D", "7♦ the Ugly card"), ("7C", "7♣ the Charm"))  # fmt: skip
    TRUMPS = (("S", "♠"), ("H", mark_safe('<span class="red">♥</span>')),
              ("D", mark_safe('<span class="red">♦</span>')), ("C", "♣"), ("NT", "no trumps"))  # fmt: skip

    def add_fields(self) -> None:
        seats = seat_choices(self.seat_names)
        self.fields["dealer"] = _radio("Dealer", seats)
        self.fields["trump"] = _radio("Trumps", self.TRUMPS)
        self.fields["pass_count"] = _number("Cards passed (optional)", self._pass_hint(), min=0)
        for card, label in self.SPECIALS:
            self.fields[f"special_{card}"] = _radio(label, [(BLANK, "?"), *seats])
        self.per_seat_fields("tricks", "Tricks", lambda label: _number(label, min=0))
        self.per_seat_fields("declared", "Declared", lambda label: _number(label))

    def suggested(self) -> dict[str, str]:
        last = self._state("last_dealer")
        return {"dealer": str((last + 1) % self.n)} if is_int(last) and 0 <= last < self.n else {}

    def _pass_hint(self) -> str:
        played = self._state("hands_played")
        if self.game_options.get("passing") == "increasing" and is_int(played):
            # pagat: 1, 3, 5 … cards before hand 1, 2, 3 … (spec 10, pass_count_schedule)
            return f"Hand {played + 1}: {2 * played + 1} cards each, passed to the left."
        return "Cards each player passed to the left."

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        self.per_seat_values(data, "tricks")
        self.per_seat_values(data, "declared")
        return data

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        record: dict[str, Any] = {}
        if data.get("dealer") not in (None, BLANK):
            record["dealer"] = int(data["dealer"])
        if data.get("trump"):
            record["trump"] = data["trump"]
        if data.get("pass_count") is not None:
            record["pass_count"] = data["pass_count"]
        tricks = self.per_seat_values(data, "tricks")
        if tricks is not None:
            record["tricks"] = tricks
        specials: list[list[str]] = [[] for _ in range(self.n)]
        for card, _ in self.SPECIALS:
            holder = data.get(f"special_{card}")
            if holder not in (None, BLANK):
                specials[int(holder)].append(card)
        record["specials"] = specials
        declared = self.per_seat_values(data, "declared")
        if declared is not None:
            record["declared"] = declared
        return record

    def load(self, key: str, value: Any) -> dict[str, Any]:
        n = self.n
        if key == "dealer":
            return {"dealer": _load_seat(value, n)}
        if key == "trump":
            if isinstance(value, str) and value in dict(self.TRUMPS):
                return {"trump": value}
            raise Unrepresentable
        if key == "pass_count":
            if value is None:
                raise Unrepresentable
            return {"pass_count": _load_int(value)}
        if not isinstance(value, list) or len(value) != n:
            raise Unrepresentable
        if key in ("tricks", "declared"):
            return {f"{key}_{i}": _load_int(v) for i, v in enumerate(value)}
        if key == "specials":
            order = [card for card, _ in self.SPECIALS]
            out = {f"special_{card}": BLANK for card in order}
            for seat, cards in enumerate(value):
                if not isinstance(cards, list):
                    raise Unrepresentable
                for card in cards:
                    if card not in order or out[f"special_{card}"] != BLANK:
                        raise Unrepresentable  # not a special, or twice: only JSON can say that
                    out[f"special_{card}"] = str(seat)
            return out
        raise Unrepresentable

    def covers_per_seat(self) -> tuple[str, ...]:
        return ("tricks", "declared")

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

    def path_fields(self) -> dict[str, str]:
        return {"dealer": "dealer", "trump": "trump", "pass_count": "pass_count", "specials": "special_JS",
                "seats": "dealer"}  # fmt: skip

    def sections(self) -> list[dict[str, Any]]:
        f = self.__getitem__
        return [
            {"title": "The hand", "fields": [f("dealer"), f("trump"), f("pass_count")]},
            {"title": "Tricks taken", "fields": [f(f"tricks_{i}") for i in range(self.n)], "grid": True},
            {
                "title": "Special cards",
                "help": "Who took each one in their tricks.",
                "fields": [f(f"special_{card}") for card, _ in self.SPECIALS],
            },
            {
                "title": "Declared scores",
                "fields": [f(f"declared_{i}") for i in range(self.n)],
                "grid": True,
            },
        ]


HAND_FORMS: dict[str, type[HandForm]] = {
    game: form for form in (PiquetForm, CulForm, BankForm, BastardForm) for game in form.games
}


class JsonOnlyForm(HandForm):
    """A game without its own form (a test game): the record is typed as JSON."""

    def add_fields(self) -> None:
        self.fields["record_json"].label = "JSON record"
        self.fields["record_json"].help_text = "The whole hand record as a JSON object."
        self.fields["record_json"].widget.attrs["rows"] = 8

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        return {}

    def load(self, key: str, value: Any) -> dict[str, Any]:
        raise Unrepresentable

    def sections(self) -> list[dict[str, Any]]:
        return []


def hand_form_class(game: str) -> type[HandForm]:
    return HAND_FORMS.get(game, JsonOnlyForm)


# -- a new match ---------------------------------------------------------------------------
class MatchCreateForm(forms.Form):
    """Game options from the engine's catalog (spec 1.2) and the players in seat order."""

    title = forms.CharField(
        label="Title (optional)",
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": "Friday at Luc's"}),
    )
    preset = forms.ChoiceField(
        label="Rules",
        choices=[("classic", "classic (the authorities)"), ("seed", "seed (the literal house text)")],
        initial="classic",
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, game: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ruleset = find_ruleset(game)
        self.catalog = self.ruleset.describe()
        self.max_seats = max(self.catalog["seats"])
        for spec in self.catalog["options"]:
            self.fields[f"opt_{spec['name']}"] = self._option_field(spec)
        players = [
            (BLANK, "— choose —"),
            *[(str(p.pk), p.name) for p in Player.objects.order_by("name", "id")],
        ]
        for i in range(self.max_seats):
            self.fields[f"seat_{i}"] = forms.ChoiceField(label=f"Seat {i}", choices=players, required=False)
            self.fields[f"new_{i}"] = forms.CharField(
                label="or a new player",
                required=False,
                max_length=100,
                widget=forms.TextInput(attrs={"placeholder": "new player's name", "autocomplete": "off"}),
            )

    @staticmethod
    def _option_field(spec: dict[str, Any]) -> forms.Field:
        defaults = spec["defaults"]
        shown = {k: _show(v) for k, v in defaults.items()}
        default_text = (
            f"default {shown['classic']}"
            if shown["classic"] == shown["seed"]
            else f"classic {shown['classic']}, seed {shown['seed']}"
        )
        label = spec["name"].replace("_", " ")
        help_text = f"{spec['help']} ({default_text})"
        if spec["type"] == "bool":
            choices = [(BLANK, "preset default"), ("true", "yes"), ("false", "no")]
            return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
        if spec["type"] == "enum":
            choices = [
                (BLANK, "preset default"),
                *[(str(c), str(c).replace("_", " ")) for c in spec["choices"]],
            ]
            return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
        attrs = {"placeholder": "preset default", "autocomplete": "off"}
        if spec["type"] == "int":
            return forms.IntegerField(
                label=label, required=False, min_value=spec.get("minimum"), help_text=help_text,
                widget=forms.NumberInput(attrs=attrs),
            )  # fmt: skip
        return forms.CharField(label=label, required=False, help_text=f"a number or “auto” · {help_text}",
                               widget=forms.TextInput(attrs=attrs))  # fmt: skip

    def options_open(self) -> bool:
        return _any_value(*self.option_fields())

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{spec['name']}"] for spec in self.catalog["options"]]

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {"index": i, "player": self[f"seat_{i}"], "new": self[f"new_{i}"]} for i in range(self.max_seats)
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        overrides: dict[str, Any] = {}
        for spec in self.catalog["options"]:
            name = f"opt_{spec['name']}"
            value = data.get(name)
            if value in (None, BLANK):
                continue
            if spec["type"] == "bool":
                overrides[spec["name"]] = value == "true"
            elif spec["type"] == "enum":
                # Choices keep their JSON type: 90 stays an integer, "literal" a string.
                overrides[spec["name"]] = next(c for c in spec["choices"] if str(c) == value)
            elif spec["type"] == "auto_int":
                text = str(value).strip().lower()
                overrides[spec["name"]] = "auto" if text == "auto" else int(text) if text.isdigit() else text
            else:
                overrides[spec["name"]] = value
        data["overrides"] = overrides
        seats: list[tuple[str, Any]] = []
        gap = False
        for i in range(self.max_seats):
            chosen, new = data.get(f"seat_{i}") or BLANK, (data.get(f"new_{i}") or "").strip()
            if chosen and new:
                self.add_error(f"new_{i}", "choose a player or type a new name, not both")
                continue
            if not chosen and not new:
                gap = True
                continue
            if gap:
                self.add_error(f"seat_{i}", "fill the seats in order, without gaps")
            seats.append(("id", int(chosen)) if chosen else ("new", new))
        ids = [v for kind, v in seats if kind == "id"]
        if len(ids) != len(set(ids)):
            self.add_error(None, "a player can sit only once in a match")
        counts = self.catalog["seats"]
        if len(seats) not in counts and not self.errors:
            allowed = " or ".join(map(str, counts))
            self.add_error(None, f"{self.catalog['title']} is played by {allowed} players, not {len(seats)}")
        data["seats"] = seats
        return data


def _show(value: Any) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return str(value).replace("_", " ")


class ReasonForm(forms.Form):
    """Void or reopen: a reason is required (it goes to the audit log)."""

    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(
        label="Reason", max_length=2000, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class ScorerAddForm(forms.Form):
    username = forms.CharField(label="Add a scorer (their user name)", max_length=150)
