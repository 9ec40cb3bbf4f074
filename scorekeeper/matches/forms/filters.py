"""The match list's filters: a GET form whose bad values are told, never a server error."""

from __future__ import annotations

from typing import Any, cast

from django import forms
from django.utils.translation import gettext_lazy as _

from scorekeeper.rules import RULESETS

from .. import terms
from ..models import Match, Player
from .base import BLANK


class MatchFilterForm(forms.Form):
    """Game, status, player and days (inclusive, in UTC like the API's ``date_from``)."""

    game = forms.ChoiceField(label=_("Game"), required=False)
    status = forms.ChoiceField(
        label=_("Status"),
        required=False,
        choices=[
            (BLANK, _("any")),
            (Match.Status.IN_PROGRESS, _("in progress")),
            (Match.Status.FINISHED, _("finished")),
            (Match.Status.VOID, _("void")),
        ],
    )
    player = forms.ModelChoiceField(
        label=_("Player"),
        required=False,
        queryset=Player.objects.filter(merged_into__isnull=True).order_by("name", "id"),  # not merged ones
        empty_label=_("anyone"),
    )
    date_from = forms.DateField(
        label=_("From"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )
    date_to = forms.DateField(
        label=_("To"), required=False, widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d")
    )

    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        cast(forms.ChoiceField, self.fields["game"]).choices = [
            (BLANK, _("every game")),
            *[(key, terms.game_title(key)) for key in sorted(RULESETS)],
        ]
        self.fields["player"].error_messages["invalid_choice"] = _("There is no such player.")
        self.fields["game"].error_messages["invalid_choice"] = _("There is no game %(value)s.")

    def clean(self) -> dict[str, Any]:
        super().clean()
        data = self.cleaned_data
        start, end = data.get("date_from"), data.get("date_to")
        if start and end and start > end:
            self.add_error("date_to", _("The last day comes before the first."))
        return data

    def filters(self) -> dict[str, Any]:
        """The keyword arguments of ``selectors.match_list`` for every valid filter: a bad
        value is left out (and told on the page), the others still apply."""
        self.is_valid()
        data = {name: value for name, value in self.cleaned_data.items() if name not in self.errors}
        return {
            "game": data.get("game") or None,
            "status": data.get("status") or None,
            "player": data.get("player"),
            "created_from": data.get("date_from"),
            "created_to": data.get("date_to") if "date_to" not in self.errors else None,
        }

    def active(self) -> bool:
        return any(value not in (None, "") for value in self.filters().values())
