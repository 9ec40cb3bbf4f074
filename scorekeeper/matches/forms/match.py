"""The forms about a match as a whole: a new match, a void or reopen, another scorer."""

from __future__ import annotations

from collections.abc import Sequence
from html import escape
from typing import Any

from django import forms
from django.forms.utils import flatatt
from django.utils.choices import BaseChoiceIterator
from django.utils.functional import cached_property
from django.utils.html import format_html
from django.utils.safestring import mark_safe
from django.utils.text import get_text_list
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.clubs.models import Club
from scorekeeper.rules import find_ruleset
from scorekeeper.rules.options import PRESETS

from ..models import Player
from ..selectors import players_seen_by
from ..terms import PRESET_LABELS, PRESET_NAMES, describe_game, show_value
from .base import BLANK, WIDGETS_RENDERER, any_value


class PlayerChoices(BaseChoiceIterator):
    """The players every seat's select lists, normalized and written once for the whole form.

    Django normalizes a list of choices anew for each field and again for its widget (a call per
    option, each), and ``PlayerSelect`` escaped each option's value and label per seat: for
    piquet in a club of 400 that was 3,200 normalizing and 1,600 escaping calls per new-match
    page, a third of its Python calls. Choices given as a ``BaseChoiceIterator`` are taken as
    they are (Django's own lazy choices are), so every seat's field and widget share this one
    list, and its options' markup is built on the first select drawn.
    """

    def __init__(self, choices: list[tuple[str, str]]):
        self.choices = choices

    def __iter__(self):
        return iter(self.choices)

    @cached_property
    def _markup(self) -> tuple[list[str], dict[str, list[int]]]:
        """Each option's markup, none selected, and where each value's options are."""
        options: list[str] = []
        where: dict[str, list[int]] = {}
        for i, (key, label) in enumerate(self.choices):
            # The standard library's escape is Django's (``django.utils.html.escape`` calls it),
            # without the lazy-string wrapper that ``format_html`` pays per argument.
            # A player's value is his id: digits, which escaping leaves as they are.
            value = str(key)
            value = value if value.isdigit() else escape(value)
            options.append(f'<option value="{value}">{escape(str(label))}</option>')
            where.setdefault(str(key), []).append(i)
        return options, where

    def options(self, chosen: set[str]) -> str:
        """The options' markup, those whose value is in ``chosen`` selected."""
        options, where = self._markup
        marked = [i for key in chosen for i in where.get(key, ())]
        if marked:
            options = options.copy()
            for i in marked:
                options[i] = options[i].replace(">", " selected>", 1)
        return "".join(options)


class PlayerSelect(forms.Select):
    """A seat's select of every player, its options written here in one pass.

    Django's ``Select`` renders each option through two templates (its own and the attributes'),
    some 90 µs an option on the development machine: the new-match page has a select of every
    player per seat, 800 options for piquet in a club of 400, and they were nine tenths of the
    page's time (docs/performance.md, "Club night"). The markup is the stock widget's: the
    select's attributes as the bound field gives them, each option's value and label escaped,
    the current value selected.
    """

    def render(self, name, value, attrs=None, renderer=None):
        choices = self.choices
        if not isinstance(choices, PlayerChoices):
            choices = PlayerChoices(list(choices))
        options = choices.options(set(self.format_value(value)))
        attributes = flatatt(self.build_attrs(self.attrs, attrs))
        return format_html('<select name="{}"{}>{}</select>', name, attributes, mark_safe(options))


class MatchCreateForm(forms.Form):
    """Game options from the engine's catalog (spec 1.2) and the players in seat order."""

    default_renderer = WIDGETS_RENDERER  # Jinja2, as the hand forms'

    title = forms.CharField(
        label=gettext_lazy("Title (optional)"),
        required=False,
        max_length=200,
        widget=forms.TextInput(attrs={"placeholder": gettext_lazy("Friday at Luc's")}),
    )
    played_at = forms.DateTimeField(
        label=gettext_lazy("Played on (optional)"),
        required=False,
        help_text=gettext_lazy(
            "For a score sheet entered afterwards: when the match was played. Its ratings then "
            "count it in its place among the matches played since."
        ),
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
    )
    preset = forms.ChoiceField(
        label=gettext_lazy("Rules"),
        choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
        initial=PRESETS[0],  # classic: the engine's default
        widget=forms.RadioSelect,
        required=False,  # left out: the club's house preset for the game (match_create)
    )

    def __init__(self, *args: Any, game: str, clubs: Sequence[Club] = (), club: Club | None = None,
                 viewer: Any = None, **kwargs: Any):  # fmt: skip
        """``clubs``: those the user may start a match in (his scorer role), ``club`` the one
        chosen first (the home club); its house preset for the game is the rules' default.
        ``viewer``: whose players the seats offer (those he may see; everyone's when None)."""
        super().__init__(*args, **kwargs)
        self.clubs = {c.slug: c for c in clubs}
        if self.clubs:
            first = club if club is not None and club.slug in self.clubs else next(iter(self.clubs.values()))
            self.fields["club"] = forms.ChoiceField(
                label=_("Club"),
                choices=[(c.slug, c.name) for c in self.clubs.values()],
                initial=first.slug,
                required=False,  # left out: the club chosen first (the home club)
                help_text=_("The match belongs to this club; its house rules are where it starts."),
            )
            self.fields["preset"].initial = first.house_presets.get(game, PRESETS[0])
        self.ruleset_class = find_ruleset(game)
        self.catalog = describe_game(self.ruleset_class)
        self.max_seats = max(self.catalog["seats"])
        for spec in self.catalog["options"]:
            self.fields[f"opt_{spec['name']}"] = self._option_field(spec)
        players = PlayerChoices(
            [
                (BLANK, _("— choose —")),
                *[
                    (str(pk), name)
                    for pk, name in (Player.objects.all() if viewer is None else players_seen_by(viewer))
                    .filter(merged_into__isnull=True)
                    .order_by("name", "id")
                    .values_list("pk", "name")
                ],
            ]
        )
        for i in range(self.max_seats):
            self.fields[f"seat_{i}"] = forms.ChoiceField(
                label=_("Seat %(seat)s") % {"seat": i + 1},
                choices=players,
                required=False,
                widget=PlayerSelect,
            )
            self.fields[f"new_{i}"] = forms.CharField(
                label=_("or a new player"),
                required=False,
                max_length=100,
                widget=forms.TextInput(attrs={"placeholder": _("new player's name"), "autocomplete": "off"}),
            )
            if self.clubs:
                self.fields[f"guest_{i}"] = forms.BooleanField(
                    label=_("a guest (from another club)"), required=False
                )

    @staticmethod
    def _option_field(spec: dict[str, Any]) -> forms.Field:
        defaults = spec["defaults"]
        shown = {preset: show_value(spec, defaults[preset]) for preset in PRESETS}
        if len(set(shown.values())) == 1:
            help_text = _("%(help)s (default %(value)s)") % {
                "help": spec["help"],
                "value": shown[PRESETS[0]],
            }
        else:
            values = ", ".join(
                _("%(preset)s %(value)s") % {"preset": PRESET_NAMES.get(preset, preset), "value": value}
                for preset, value in shown.items()
            )
            help_text = _("%(help)s (%(values)s)") % {"help": spec["help"], "values": values}
        label = spec["label"]
        preset_default = _("preset default")
        if spec["type"] == "bool":
            choices = [
                (BLANK, preset_default),
                ("true", show_value(None, True)),
                ("false", show_value(None, False)),
            ]
            return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
        if spec["type"] == "enum":
            choices = [
                (BLANK, preset_default),
                *zip(map(str, spec["choices"]), spec["choice_labels"], strict=True),
            ]
            return forms.ChoiceField(label=label, choices=choices, required=False, help_text=help_text)
        attrs = {"placeholder": preset_default, "autocomplete": "off"}
        if spec["type"] == "int":
            return forms.IntegerField(
                label=label, required=False, min_value=spec.get("minimum"), help_text=help_text,
                widget=forms.NumberInput(attrs=attrs),
            )  # fmt: skip
        help_text = _("a number or “auto” · %(help)s") % {"help": help_text}
        return forms.CharField(label=label, required=False, help_text=help_text,
                               widget=forms.TextInput(attrs=attrs))  # fmt: skip

    def options_open(self) -> bool:
        return any_value(*self.option_fields())

    def option_fields(self) -> list[forms.BoundField]:
        return [self[f"opt_{spec['name']}"] for spec in self.catalog["options"]]

    def seat_rows(self) -> list[dict[str, Any]]:
        return [
            {
                "index": i,
                "player": self[f"seat_{i}"],
                "new": self[f"new_{i}"],
                "guest": self[f"guest_{i}"] if f"guest_{i}" in self.fields else None,
            }
            for i in range(self.max_seats)
        ]

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
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
        guests: list[int] = []
        gap = False
        for i in range(self.max_seats):
            chosen, new = data.get(f"seat_{i}") or BLANK, (data.get(f"new_{i}") or "").strip()
            if chosen and new:
                self.add_error(f"new_{i}", _("choose a player or type a new name, not both"))
                continue
            if not chosen and not new:
                gap = True
                continue
            if gap:
                self.add_error(f"seat_{i}", _("fill the seats in order, without gaps"))
            seats.append(("id", int(chosen)) if chosen else ("new", new))
            if data.get(f"guest_{i}"):
                if chosen:
                    guests.append(int(chosen))
                else:
                    self.add_error(f"guest_{i}", _("a guest is a player chosen from the list, not a new one"))
        data["guests"] = guests
        data["club"] = self.clubs.get(data.get("club") or self.fields["club"].initial) if self.clubs else None
        ids = [v for kind, v in seats if kind == "id"]
        if len(ids) != len(set(ids)):
            self.add_error(None, _("a player can sit only once in a match"))
        counts = self.catalog["seats"]
        if len(seats) not in counts and not self.errors:
            allowed = get_text_list([str(c) for c in counts], _("or"))
            self.add_error(
                None,
                _("%(game)s is played by %(allowed)s players, not %(count)s")
                % {"game": self.catalog["title"], "allowed": allowed, "count": len(seats)},
            )
        data["seats"] = seats
        return data


class ReasonForm(forms.Form):
    """Void or reopen: a reason is required (it goes to the audit log)."""

    version = forms.IntegerField(required=False, widget=forms.HiddenInput)
    reason = forms.CharField(
        label=gettext_lazy("Reason"), max_length=2000, widget=forms.TextInput(attrs={"autocomplete": "off"})
    )


class ScorerAddForm(forms.Form):
    default_renderer = WIDGETS_RENDERER  # the score sheet draws it on every reading by a scorer

    username = forms.CharField(label=gettext_lazy("Add a scorer (their user name)"), max_length=150)


class PlayerClaimForm(forms.Form):
    """A user links his account to his player with the code a scorer gave him."""

    code = forms.CharField(
        label=gettext_lazy("Your code"),
        max_length=40,
        help_text=gettext_lazy("Eight letters and digits, e.g. 7KQ2-M9XD; case and dashes do not matter."),
        widget=forms.TextInput(attrs={"autocomplete": "one-time-code", "autocapitalize": "characters",
                                      "spellcheck": "false"}),
    )  # fmt: skip
