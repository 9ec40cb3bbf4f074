"""The event pages' forms: a new event, an entrant, a club night's tables, a swap, a forfeit.

They check the shape of what is typed; the services (``services.py``) decide the rest, and
their refusals are put next to the field they name (``add_domain_error``).
"""

from __future__ import annotations

import re
from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.errors import DomainError
from scorekeeper.matches.terms import game_title
from scorekeeper.rules import RULESETS

from .models import Event
from .services import DEFAULT_TIEBREAKS, MAX_ROUNDS
from .standings import TIEBREAKS

#: How many tie-breaks after the points the new event's form offers, each its own choice.
TIEBREAK_SLOTS = 5

#: Every tie-break's name on the pages, by key (docs/events.md defines them).
TIEBREAK_LABELS = {
    "points": _("Points"),
    "wins": _("Wins"),
    "game_points": _("Game points"),
    "difference": _("Difference"),
    "head_to_head": _("Head to head"),
    "buchholz": _("Buchholz"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn–Berger"),
    "rating": _("Rating at the start"),
    "lots": _("Lots"),
}


def add_domain_error(form: forms.Form, exc: DomainError) -> None:
    """A service's refusal on the form: next to its field when the form has it, else on top."""
    field = form.field_of(exc.field) if hasattr(form, "field_of") else exc.field
    form.add_error(field if field in form.fields else None, exc.message)


def split_points(text: str) -> list[str]:
    """Points by place as typed: separated by spaces or semicolons (a comma is then a decimal
    comma: "1 0,5 0"), or by commas alone ("3,2,1,0")."""
    text = text.strip()
    if not text:
        return []
    if re.search(r"[\s;]", text):
        return [part.replace(",", ".") for part in re.split(r"[\s;]+", text) if part]
    return [part for part in text.split(",") if part]


class EventForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    game = forms.ChoiceField(label=_("Game"))
    format = forms.ChoiceField(label=_("Format"), choices=Event.Format.choices, initial=Event.Format.SWISS)
    rounds = forms.IntegerField(
        label=_("Rounds"),
        min_value=1,
        max_value=MAX_ROUNDS,
        required=False,
        help_text=_("A Swiss needs them; blank for a club night, or a round robin of every pairing."),
    )
    table_size = forms.IntegerField(
        label=_("Players at a table"),
        min_value=2,
        max_value=12,
        required=False,
        help_text=_("Blank: two for a Swiss, the game's usual count otherwise."),
    )
    points = forms.CharField(
        label=_("Points by place"),
        max_length=200,
        required=False,
        help_text=_("First place first, separated by spaces (for example 3 2 1 0); blank: the usual."),
    )
    bye_points = forms.CharField(label=_("Points for a bye"), max_length=16, initial="1")
    seating = forms.ChoiceField(
        label=_("Seats at a table"),
        choices=Event.Seating.choices,
        initial=Event.Seating.DRAW,
        widget=forms.RadioSelect,
    )
    starts_on = forms.DateField(
        label=_("Starts on"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
        help_text=_("A league's first fixture day (each next round a week later); blank: today."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = sorted(
            ((key, game_title(key)) for key in RULESETS), key=lambda choice: str(choice[1])
        )
        defaults = [key for key in DEFAULT_TIEBREAKS if key != "points"]
        choices = [("", "—"), *((key, TIEBREAK_LABELS[key]) for key in TIEBREAKS if key != "points")]
        for i in range(1, TIEBREAK_SLOTS + 1):
            self.fields[f"tiebreak_{i}"] = forms.ChoiceField(
                label=_("Tie-break %(number)s") % {"number": i},
                choices=choices,
                required=False,
                initial=defaults[i - 1] if i <= len(defaults) else "",
                help_text=_("After the points, in this order.") if i == 1 else "",
            )

    def field_of(self, service_field: str) -> str:
        """The form's field for a service error's ``field`` ("points[2]" → "points")."""
        if service_field.startswith("tiebreaks"):
            return "tiebreak_1"
        return service_field.split("[", 1)[0]

    def service_fields(self) -> dict[str, Any]:
        """What ``services.event_create`` takes from the form."""
        data = self.cleaned_data
        points = split_points(data.get("points") or "")
        tiebreaks = [data[f"tiebreak_{i}"] for i in range(1, TIEBREAK_SLOTS + 1) if data.get(f"tiebreak_{i}")]
        return {
            "name": data["name"],
            "game": data["game"],
            "format": data["format"],
            "rounds": data.get("rounds"),
            "table_size": data.get("table_size"),
            "points": points or None,
            "bye_points": (data.get("bye_points") or "1").replace(",", "."),
            "tiebreaks": ["points", *tiebreaks],
            "seating": data["seating"],
            "starts_on": data.get("starts_on"),
        }


class EntrantForm(forms.Form):
    player = forms.TypedChoiceField(label=_("Player"), coerce=int)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["player"]).choices = [("", "—"), *players]


class OpenTablesForm(forms.Form):
    """A club night's tables: for each, its players in seat order (blank seats left out)."""

    def __init__(
        self, *args: Any, players: list[tuple[int, str]], tables: int, seats: int, **kwargs: Any
    ) -> None:
        super().__init__(*args, **kwargs)
        self.table_count, self.seat_count = tables, seats
        choices = [("", "—"), *players]
        for t in range(1, tables + 1):
            for s in range(1, seats + 1):
                self.fields[f"t{t}s{s}"] = forms.TypedChoiceField(
                    label=_("Table %(table)s, seat %(seat)s") % {"table": t, "seat": s},
                    choices=choices,
                    coerce=int,
                    required=False,
                    empty_value=None,
                )

    def field_of(self, service_field: str) -> str:
        match = re.fullmatch(r"tables\[(\d+)\](?:\[(\d+)\])?", service_field)
        if match is None:
            return service_field
        return f"t{int(match[1]) + 1}s{int(match[2] or 0) + 1}"

    def table_rows(self) -> list[list[forms.BoundField]]:
        return [
            [self[f"t{t}s{s}"] for s in range(1, self.seat_count + 1)] for t in range(1, self.table_count + 1)
        ]

    def tables(self) -> list[list[int]]:
        """The tables with at least one player, their players in seat order."""
        out = []
        for t in range(1, self.table_count + 1):
            players = [self.cleaned_data.get(f"t{t}s{s}") for s in range(1, self.seat_count + 1)]
            seated = [p for p in players if p is not None]
            if seated:
                out.append(seated)
        return out


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=_("Swap"), coerce=int)
    second = forms.TypedChoiceField(label=_("with"), coerce=int)

    def __init__(self, *args: Any, players: list[tuple[int, str]], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        for name in ("first", "second"):
            cast(forms.ChoiceField, self.fields[name]).choices = [("", "—"), *players]


class ForfeitForm(forms.Form):
    reason = forms.CharField(label=_("Reason"), max_length=500)

    def __init__(self, *args: Any, seats: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seats = seats
        for i in range(seats):
            self.fields[f"place_{i}"] = forms.IntegerField(
                label=_("Place of seat %(seat)s") % {"seat": i + 1}, min_value=1, max_value=seats
            )

    def places(self) -> list[int]:
        return [self.cleaned_data[f"place_{i}"] for i in range(self.seats)]
