"""The forms about a match as a whole: a new match, a void or reopen, another scorer."""

from __future__ import annotations

from typing import Any

from django import forms

from scorekeeper.rules import find_ruleset
from scorekeeper.rules.options import PRESETS

from .. import i18n
from ..models import Player
from .base import BLANK, any_value

#: The engine's presets (``PRESETS``) in the words of the page.
PRESET_LABELS = {"classic": "classic (the authorities)", "seed": "seed (the literal house text)"}


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
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial=PRESETS[0],  # classic: the engine's default
        widget=forms.RadioSelect,
    )

    def __init__(self, *args: Any, game: str, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.ruleset = find_ruleset(game)
        self.catalog = i18n.game(self.ruleset.describe())
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
        shown = {preset: _show(defaults[preset]) for preset in PRESETS}
        default_text = (
            f"default {shown[PRESETS[0]]}"
            if len(set(shown.values())) == 1
            else ", ".join(f"{preset} {value}" for preset, value in shown.items())
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
        return any_value(*self.option_fields())

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
