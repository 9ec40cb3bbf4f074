"""The viewer's language and time zone, for the pages (the API answers by Accept-Language).

Language, first that applies: the switcher's cookie (the last explicit choice on this
browser, set by Django's ``set_language``), the signed-in user's preference (it follows them
to a new phone), Accept-Language, English. Django's LocaleMiddleware does the first and the
third; this one, after the authentication middleware, puts the preference in between.

Time zone: the signed-in user's preference, else the browser's own zone, which a small script
on every page stores in the ``tz`` cookie (``Intl.DateTimeFormat().resolvedOptions().timeZone``),
else UTC. Every zone is checked against the tz database before it is activated.
"""

from __future__ import annotations

from allauth.mfa.utils import is_mfa_enabled
from django.conf import settings
from django.contrib import messages
from django.shortcuts import redirect
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Membership, Role

from .models import Preference, available_time_zones

#: The cookie the page's script writes the browser's time zone to.
TIME_ZONE_COOKIE = "tz"


def valid_time_zone(name: str | None) -> str | None:
    return name if name and name in available_time_zones() else None


def preference_of(user) -> Preference | None:
    if not getattr(user, "is_authenticated", False):
        return None
    try:
        return user.preference
    except Preference.DoesNotExist:
        return None


class PreferenceMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.path.startswith("/api/"):
            # The API: the language LocaleMiddleware found (Accept-Language), times in UTC.
            return self.get_response(request)
        preference = preference_of(request.user)
        if (
            preference is not None
            and preference.language
            and settings.LANGUAGE_COOKIE_NAME not in request.COOKIES
        ):
            translation.activate(preference.language)
            request.LANGUAGE_CODE = translation.get_language()
        zone = valid_time_zone(preference and preference.time_zone) or valid_time_zone(
            request.COOKIES.get(TIME_ZONE_COOKIE)
        )
        if zone:
            timezone.activate(zone)
        else:
            timezone.deactivate()  # settings.TIME_ZONE: UTC
        try:
            return self.get_response(request)
        finally:
            timezone.deactivate()


def second_factor_required(user) -> bool:
    """Whether ``user`` must sign in with a second factor: staff, and the admins of any club."""
    if not settings.MFA_REQUIRED_FOR_ADMINS or not getattr(user, "is_authenticated", False):
        return False
    return (
        user.is_staff
        or user.is_superuser
        or Membership.objects.filter(user=user, role=Role.ADMIN, ended_at=None).exists()
    )


def second_factor_missing(user) -> bool:
    """Required of ``user`` but not set up yet."""
    return second_factor_required(user) and not is_mfa_enabled(user)


class SecondFactorRequiredMiddleware:
    """A club admin or a member of staff without a second factor is sent to set one up before
    any other page (the admin included); the account pages (where he sets it up, or signs out)
    stay open. The API refuses him a token instead (api/auth.py)."""

    #: Open without a second factor: the account's own pages, files, the language switch, the API.
    OPEN = ("/accounts/", "/static/", "/i18n/", "/api/", "/sw.js")

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if not request.path.startswith(self.OPEN) and second_factor_missing(request.user):
            messages.warning(
                request,
                _("Club admins and staff sign in with a second factor: set up an authenticator app first."),
            )
            return redirect(f"{reverse('mfa_activate_totp')}?{urlencode({'next': request.get_full_path()})}")
        return self.get_response(request)
