from __future__ import annotations

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from .models import Preference, available_time_zones


class PreferenceForm(forms.ModelForm):
    language = forms.ChoiceField(
        label=_("Language"),
        required=False,
        choices=[("", _("the browser's language")), *settings.LANGUAGES],
    )
    time_zone = forms.ChoiceField(
        label=_("Time zone"),
        required=False,
        choices=lambda: [
            ("", _("the browser's time zone")),
            *((z, z) for z in sorted(available_time_zones())),
        ],
        help_text=_("Times on the pages are shown in this zone, with its name."),
    )

    class Meta:
        model = Preference
        fields = ["language", "time_zone"]
