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


class AccountDeleteForm(forms.Form):
    """Closing one's account asks for the password again: a phone left signed in at the club
    must not be enough."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )
    confirm = forms.BooleanField(
        label=_("I understand: my name leaves every match and list, and the account cannot be reopened."),
    )

    def __init__(self, *args, user, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("This is not your password."), code="password_wrong")
        return password
