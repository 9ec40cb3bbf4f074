"""The base of the hand forms: what every game family's form shares.

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

Here: the workflow fields (version, the JSON area, accepting the declared scores with a
reason), the trip form → record → form, engine errors back onto their fields, and the small
field makers and loaders the game families' modules (``piquet``, ``cul``, ``bank``,
``bastard``) build on.
"""

from __future__ import annotations

import json
import re
from typing import TYPE_CHECKING, Any, ClassVar

from django import forms
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.fields import is_int

from .ranks import read_card, show_card
from .renderer import WidgetsRenderer

if TYPE_CHECKING:
    from django_stubs_ext import StrOrPromise

#: Seat radio buttons and per-seat values use these names; "" means "not given".
BLANK = ""


class Unrepresentable(Exception):
    """A stored value the form cannot show exactly: it goes to the advanced JSON area."""


# -- small helpers ------------------------------------------------------------------------
def seat_choices(names: list[str]) -> list[tuple[str, str]]:
    return [(str(i), name) for i, name in enumerate(names)]


def radio(label: StrOrPromise, choices, help_text: str = "") -> forms.ChoiceField:
    return forms.ChoiceField(
        label=label, choices=choices, required=False, widget=forms.RadioSelect, help_text=help_text
    )


def checks(label: str, choices, help_text: str = "") -> forms.MultipleChoiceField:
    return forms.MultipleChoiceField(
        label=label,
        choices=choices,
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=help_text,
    )


def number(label: str, help_text: str = "", **attrs: Any) -> forms.IntegerField:
    """A whole number, typed on a phone's numeric keypad."""
    return forms.IntegerField(
        label=label,
        required=False,
        help_text=help_text,
        widget=forms.NumberInput(attrs={"inputmode": "numeric", **attrs}),
    )


def signed_number(label: str, help_text: str = "") -> forms.IntegerField:
    """A whole number that may be negative: a phone's numeric keypad has no minus, so the
    field is text with a pattern that allows one (the keyboard with digits and signs)."""
    attrs = {"inputmode": "text", "pattern": "-?[0-9]*", "autocomplete": "off", "spellcheck": "false"}
    return forms.IntegerField(
        label=label, required=False, help_text=help_text, widget=forms.TextInput(attrs=attrs)
    )


def notation(label: str, help_text: str = "", placeholder: str = "") -> forms.CharField:
    """A short text in card notation (cards, runs): upper case, no spelling help."""
    attrs = {"autocomplete": "off", "autocapitalize": "characters", "spellcheck": "false"}
    if placeholder:
        attrs["placeholder"] = placeholder
    return forms.CharField(
        label=label, required=False, help_text=help_text, widget=forms.TextInput(attrs=attrs)
    )


def seat_or_none(value: str | None) -> int | None:
    return int(value) if value not in (None, BLANK) else None


def load_seat(value: Any, n: int) -> str:
    if is_int(value) and 0 <= value < n:
        return str(value)
    raise Unrepresentable


def load_int(value: Any) -> str:
    if is_int(value):
        return str(value)
    raise Unrepresentable


def load_cards(value: Any) -> str:
    """A list of card strings as the form's text ("AS 10S KD", its ranks in the page's language:
    "ТS 10S КD" in Russian); each must survive the split and read back the same."""
    if not isinstance(value, list):
        raise Unrepresentable
    for card in value:
        if not isinstance(card, str) or not card or re.search(r"[\s,]", card):
            raise Unrepresentable
        if read_card(show_card(card)) != card:
            raise Unrepresentable
    return " ".join(show_card(card) for card in value)


def split_cards(text: str) -> list[str]:
    """Cards as typed, split on spaces or commas; the engine checks each (spec 1.3)."""
    return [token for token in re.split(r"[\s,]+", text.strip()) if token]


#: The renderer of the pages' forms (``HandForm``, ``MatchCreateForm``).
WIDGETS_RENDERER = WidgetsRenderer()


# -- the hand forms -----------------------------------------------------------------------
class HandBoundField(forms.BoundField):
    """A hand form's field, described to a screen reader by its help, its error and its live
    check's message (``#live-<name>``, see _field.html), which the page gives those ids."""

    @property
    def aria_describedby(self) -> str | None:
        ids = super().aria_describedby
        if ids is None or self.is_hidden or not getattr(self.field, "live_slot", False):
            return ids
        return " ".join(filter(None, [ids, f"live-{self.html_name}"]))


class HandForm(forms.Form):
    """Base of the per-game hand forms: the record's fields plus the workflow fields.

    Subclasses add their fields in ``add_fields``, turn cleaned data into the record in
    ``build`` and back in ``load`` (for a correction), and lay the fields out in
    ``sections`` for the page.
    """

    bound_field_class = HandBoundField
    #: Its widgets drawn as Django's Jinja2 widget templates draw them (``renderer.py``: the
    #: commonest written in one pass): the same markup at a fraction of Django's template
    #: engine's cost; a hand form has 26 widgets and they were half of the hand form's CPU
    #: (docs/performance.md, "Club night"). Only the pages' forms: the admin keeps Django's.
    default_renderer = WIDGETS_RENDERER

    games: ClassVar[tuple[str, ...]] = ()
    #: The record keys the form shows; a stored record's other keys go to the JSON area.
    covers: ClassVar[tuple[str, ...]] = ()
    #: Keys holding a seat, typed as one radio of seats named like the key ("dealer").
    seat_keys: ClassVar[tuple[str, ...]] = ()
    #: Keys holding one value per seat, typed in fields ``<key>_<seat>`` for every seat or for
    #: none (integers unless ``load`` says otherwise).
    rows: ClassVar[tuple[str, ...]] = ()
    #: The field an engine problem at a record key belongs to, beyond the seat keys and the
    #: per-seat fields.
    path_fields: ClassVar[dict[str, str]] = {}

    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    record_json = forms.CharField(
        label=gettext_lazy("Advanced: JSON record"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "autocapitalize": "off"}),
        help_text=gettext_lazy(
            "Keys given here replace the form's. Paste a whole record, or only what the form "
            'lacks, e.g. {"hands": [[…], […]], "trick_cards": [[…], …]}.'
        ),
    )
    accept_declared = forms.BooleanField(
        label=gettext_lazy("Accept the declared scores"),
        required=False,
        help_text=gettext_lazy("The hand is stored as disputed."),
    )
    reason = forms.CharField(
        label=gettext_lazy("Reason"),
        required=False,
        max_length=2000,
        widget=forms.TextInput(attrs={"autocomplete": "off"}),
        help_text=gettext_lazy("Required to accept declared scores that differ from the rules."),
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
        self._mark_fields()

    def _mark_fields(self) -> None:
        """Stable hooks for a script on the page (live validation): every field gets an empty
        message slot (``#live-<name>``, see _field.html); a per-seat field says its record key
        and seat (``data-key``, ``data-seat``), one of what the players claim (the game's
        ``declared_keys``, which the live check compares) ``data-declared``."""
        for name, field in self.fields.items():
            # This project's mark on Django's field, read by its template (``_field.html``).
            setattr(field, "live_slot", True)  # noqa: B010
            key, _, seat = name.rpartition("_")
            if key in self.rows and seat.isdigit():
                attrs = {"data-key": key, "data-seat": seat}
                if key in find_ruleset(self.game).declared_keys:
                    attrs["data-declared"] = ""
                field.widget.attrs.update(attrs)

    def suggested(self) -> dict[str, str]:
        """Values to pre-fill for the next hand of a match in ``state`` (the usual dealer)."""
        return {}

    def _state(self, key: str) -> Any:
        return self.state.get(key) if self.state else None

    def _state_seat(self, key: str) -> int | None:
        """``state[key]`` if it is a seat of this match (the last dealer …), else None."""
        seat = self._state(key)
        return seat if is_int(seat) and 0 <= seat < self.n else None

    # -- to implement --------------------------------------------------------------------
    def add_fields(self) -> None:
        raise NotImplementedError

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        """The record from cleaned data (keys left out when nothing was typed)."""
        raise NotImplementedError

    def load(self, key: str, value: Any) -> dict[str, Any]:
        """Form values (as POST strings) showing ``record[key]``; raises Unrepresentable.

        Subclasses load their own keys and leave the seat keys and rows to this one."""
        if key in self.seat_keys:
            return {key: load_seat(value, self.n)}
        if key in self.rows:
            return self.load_row(key, value, load_int)
        raise Unrepresentable

    def sections(self) -> list[dict[str, Any]]:
        raise NotImplementedError

    def check_fields(self, data: dict[str, Any]) -> None:
        """Form errors of a family's own fields, found before the rows' (see ``clean``)."""

    def field_for_path(self, path: str) -> str | None:
        """The form field an engine problem at ``path`` belongs to (None: the form as a whole)."""
        key, index = _split_path(path)
        pasted = getattr(self, "cleaned_data", {}).get("record_json") or {}
        if key in pasted:
            return "record_json"  # the JSON area supplied this key: the problem is there
        if index is not None and f"{key}_{index}" in self.fields:
            return f"{key}_{index}"  # a per-seat field
        if f"{key}_0" in self.fields:
            return f"{key}_0"
        if key in self.seat_keys:
            return key
        # A problem with the seats themselves is shown by the seat everyone knows: the dealer.
        return self.path_fields.get(key, "dealer" if key == "seats" else None)

    # -- shared ----------------------------------------------------------------------------
    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        self.check_fields(data)
        for key in self.rows:
            self.per_seat_values(data, key)
        return data

    def seat_label(self, i: int) -> str:
        # People count seats from 1; the record's seat numbers (from 0) never show on the form.
        return _("%(name)s (seat %(seat)s)") % {"name": self.seat_names[i], "seat": i + 1}

    def per_seat_fields(self, key: str, label: str, make) -> None:
        for i in range(self.n):
            self.fields[f"{key}_{i}"] = make(
                label
                if self.n == 1
                else _("%(label)s: %(name)s") % {"label": label, "name": self.seat_names[i]}
            )

    def per_seat_values(self, data: dict[str, Any], key: str) -> list[Any] | None:
        """Every seat's value of ``key``, or None when none was typed; a partly filled row is
        a form error (the engine would only say "not an integer")."""
        values = [data.get(f"{key}_{i}") for i in range(self.n)]
        if all(v in (None, BLANK) for v in values):
            return None
        for i, v in enumerate(values):
            if v in (None, BLANK) and f"{key}_{i}" not in self.errors:
                self.add_error(f"{key}_{i}", _("needed for every seat (0 if nothing)"))
        return values

    # The record from cleaned data, a key at a time: ``build`` calls these in the record's
    # key order, and each leaves its key out when nothing was typed.
    def put_seat(self, record: dict[str, Any], data: dict[str, Any], key: str) -> None:
        if data.get(key) not in (None, BLANK):
            record[key] = int(data[key])

    def put_row(self, record: dict[str, Any], data: dict[str, Any], key: str) -> None:
        values = self.per_seat_values(data, key)
        if values is not None:
            record[key] = values

    def put_cards(self, record: dict[str, Any], data: dict[str, Any], key: str) -> None:
        """Cards per seat, typed as text; left out when every seat's is blank."""
        cards = [[read_card(c) for c in split_cards(data.get(f"{key}_{i}") or "")] for i in range(self.n)]
        if any(cards):
            record[key] = cards

    # Back from a stored record (``load``).
    def seat_list(self, value: Any) -> list[Any]:
        """``value`` if it is a list of one entry per seat."""
        if not isinstance(value, list) or len(value) != self.n:
            raise Unrepresentable
        return value

    def load_row(self, key: str, value: Any, load_one) -> dict[str, Any]:
        return {f"{key}_{i}": load_one(v) for i, v in enumerate(self.seat_list(value))}

    def load_cards_row(self, key: str, value: Any) -> dict[str, Any]:
        if not any(self.seat_list(value)):
            raise Unrepresentable  # every seat's blank: the form would leave the key out
        return self.load_row(key, value, load_cards)

    # Fields and sections the families share.
    def add_declared(self) -> None:
        """The scores the players claim, one number per seat (spec 1.3 ``declared``)."""
        self.per_seat_fields("declared", _("Declared"), number)

    def row_section(self, title: str, key: str, help: str = "") -> dict[str, Any]:
        """A row of per-seat fields, side by side."""
        section = {"title": title, "fields": [self[f"{key}_{i}"] for i in range(self.n)], "grid": True}
        return {**section, "help": help} if help else section

    def seat_section(self, i: int, fields: list[str], more: list[str], more_title: str) -> dict[str, Any]:
        """One seat's fields, with those seldom needed folded away (open when filled in)."""
        folded = [self[name] for name in more]
        return {
            "title": self.seat_label(i),
            "seat": i,
            "fields": [self[name] for name in fields],
            "grid": True,
            "more": folded,
            "more_title": more_title,
            "more_open": any_value(*folded),
        }

    def clean_record_json(self) -> dict[str, Any] | None:
        text = self.cleaned_data.get("record_json", "").strip()
        if not text:
            return None
        try:
            value = json.loads(text, parse_constant=_no_constant)
        except json.JSONDecodeError as exc:
            raise forms.ValidationError(
                _("this is not valid JSON: %(error)s at line %(line)s, column %(column)s"),
                code="json_invalid",
                params={"error": exc.msg, "line": exc.lineno, "column": exc.colno},
            ) from None
        except (ValueError, RecursionError) as exc:
            message = str(exc) if isinstance(exc, ValueError) else _("it is nested too deeply")
            raise forms.ValidationError(
                _("this is not valid JSON: %(error)s"), code="json_invalid", params={"error": message}
            ) from None
        if not isinstance(value, dict):
            raise forms.ValidationError(
                _('the JSON must be an object of record keys, e.g. {"hands": […]}'), code="json_not_object"
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
        out: list[tuple[str, str]] = []
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


def any_value(*fields: forms.BoundField) -> bool:
    """Whether a folded part of the form has something in it (then it is shown open)."""
    return any(field.errors or field.value() for field in fields)


def _no_constant(name: str) -> Any:
    # Python reads NaN and Infinity, but they are not JSON and PostgreSQL refuses them.
    raise ValueError(_("%(name)s is not a JSON number") % {"name": name})


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


class JsonOnlyForm(HandForm):
    """A game without its own form (a test game): the record is typed as JSON."""

    def add_fields(self) -> None:
        self.fields["record_json"].label = _("JSON record")
        self.fields["record_json"].help_text = _("The whole hand record as a JSON object.")
        self.fields["record_json"].widget.attrs["rows"] = 8

    def build(self, data: dict[str, Any]) -> dict[str, Any]:
        return {}

    def sections(self) -> list[dict[str, Any]]:
        return []
