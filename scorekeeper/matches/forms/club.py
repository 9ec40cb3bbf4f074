"""The clubs' page forms: found a club, its settings, members, invitations and joining.

They check the shape of what is typed; the services (``services.py``) decide the rest, and
their refusals are put next to the field they name (``add_domain_error``).
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from scorekeeper.clubs.models import Club, Role
from scorekeeper.clubs.services import INVITATION_DAYS, INVITATION_MAX_USES
from scorekeeper.errors import DomainError
from scorekeeper.rules import RULESETS
from scorekeeper.rules.options import PRESETS

from ..terms import PRESET_LABELS, describe_game


def add_domain_error(form: forms.Form, exc: DomainError, fields: dict[str, str] | None = None) -> None:
    """A service's refusal on the form: next to its field when the form has it, else on top."""
    field = (fields or {}).get(exc.field, exc.field)
    form.add_error(field if field in form.fields else None, exc.message)


class ClubFoundForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    slug = forms.SlugField(
        label=gettext_lazy("Address (optional)"),
        max_length=50,
        required=False,
        help_text=gettext_lazy("Lowercase letters, digits and hyphens; made from the name when blank."),
    )
    description = forms.CharField(
        label=gettext_lazy("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public: anyone may see its matches and board"), required=False, initial=True
    )


class ClubSettingsForm(forms.Form):
    name = forms.CharField(label=gettext_lazy("Name"), max_length=100)
    description = forms.CharField(
        label=gettext_lazy("Description"), required=False, widget=forms.Textarea(attrs={"rows": 3})
    )
    languages = forms.MultipleChoiceField(
        label=gettext_lazy("Languages"),
        choices=settings.LANGUAGES,
        required=False,
        widget=forms.CheckboxSelectMultiple,
    )
    time_zone = forms.CharField(
        label=gettext_lazy("Time zone"), max_length=64, help_text=gettext_lazy("For example Europe/Paris.")
    )
    public = forms.BooleanField(
        label=gettext_lazy("Public: anyone may see its matches and board"), required=False
    )

    def __init__(self, *args: Any, club: Club, **kwargs: Any) -> None:
        initial = {
            "name": club.name,
            "description": club.description,
            "languages": club.languages,
            "time_zone": club.time_zone,
            "public": club.public,
        }
        for game in self.games():
            initial[f"preset_{game}"] = club.house_presets.get(game, "")
            options = club.house_options.get(game)
            initial[f"options_{game}"] = json.dumps(options, ensure_ascii=False) if options else ""
        kwargs["initial"] = initial
        super().__init__(*args, **kwargs)
        for game in self.games():
            title = describe_game(RULESETS[game])["title"]
            self.fields[f"preset_{game}"] = forms.ChoiceField(
                label=_("%(game)s: house preset") % {"game": title},
                choices=[("", _("none (classic)")), *[(p, PRESET_LABELS.get(p, p)) for p in PRESETS]],
                required=False,
            )
            self.fields[f"options_{game}"] = forms.CharField(
                label=_("%(game)s: house options") % {"game": title},
                required=False,
                help_text=_('A JSON object, e.g. {"target": 100}; blank for none.'),
            )

    @staticmethod
    def games() -> list[str]:
        return sorted(RULESETS)

    def game_fields(self) -> list[tuple[forms.BoundField, forms.BoundField]]:
        return [(self[f"preset_{game}"], self[f"options_{game}"]) for game in self.games()]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        presets: dict[str, str] = {}
        options: dict[str, Any] = {}
        for game in self.games():
            if data.get(f"preset_{game}"):
                presets[game] = data[f"preset_{game}"]
            text = (data.get(f"options_{game}") or "").strip()
            if not text:
                continue
            try:
                value = json.loads(text)
            except ValueError:
                value = None
            if not isinstance(value, dict):
                self.add_error(
                    f"options_{game}", _('write the options as a JSON object, e.g. {"target": 100}')
                )
                continue
            options[game] = value
        data["house_presets"], data["house_options"] = presets, options
        return data

    def field_of(self, path: str) -> str:
        """The form's field for a service's field path ("house_options.piquet" …)."""
        if path.startswith("house_options."):
            return f"options_{path.removeprefix('house_options.')}"
        if path.startswith("house_presets."):
            return f"preset_{path.removeprefix('house_presets.')}"
        return path


class MemberAddForm(forms.Form):
    username = forms.CharField(label=gettext_lazy("User name"), max_length=150)
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.MEMBER)


class RoleForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices)


class InvitationForm(forms.Form):
    role = forms.ChoiceField(label=gettext_lazy("Role"), choices=Role.choices, initial=Role.MEMBER)
    max_uses = forms.IntegerField(
        label=gettext_lazy("Uses allowed"), min_value=1, max_value=INVITATION_MAX_USES, initial=1
    )
    days = forms.IntegerField(
        label=gettext_lazy("Days it lasts"), min_value=1, max_value=365, initial=INVITATION_DAYS
    )


class JoinForm(forms.Form):
    code = forms.CharField(
        label=gettext_lazy("Invitation code (optional)"),
        max_length=64,
        required=False,
        help_text=gettext_lazy("Without a code your request goes to the club's admins."),
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    message = forms.CharField(
        label=gettext_lazy("Message to the admins (optional)"),
        max_length=2000,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2}),
    )
