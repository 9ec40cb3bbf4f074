"""The settings page: a signed-in user's language and time zone."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils import translation
from django.utils.translation import gettext as _

from .forms import PreferenceForm
from .models import Preference


@login_required
def preferences(request):
    preference = Preference.objects.filter(user=request.user).first() or Preference(user=request.user)
    form = PreferenceForm(request.POST or None, instance=preference)
    if request.method == "POST" and form.is_valid():
        preference = form.save()
        with translation.override(preference.language or translation.get_language()):
            messages.success(request, _("Your settings are saved."))
        response = redirect("preferences")
        # The switcher's cookie is the last explicit choice on this browser: the new
        # preference replaces it here (and applies alone on the user's other browsers).
        if preference.language:
            response.set_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                preference.language,
                max_age=settings.LANGUAGE_COOKIE_AGE,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                secure=settings.LANGUAGE_COOKIE_SECURE,
                httponly=settings.LANGUAGE_COOKIE_HTTPONLY,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        else:
            response.delete_cookie(
                settings.LANGUAGE_COOKIE_NAME,
                path=settings.LANGUAGE_COOKIE_PATH,
                domain=settings.LANGUAGE_COOKIE_DOMAIN,
                samesite=settings.LANGUAGE_COOKIE_SAMESITE,
            )
        return response
    status = 400 if request.method == "POST" else 200
    return render(request, "accounts/preferences.html", {"form": form}, status=status)
