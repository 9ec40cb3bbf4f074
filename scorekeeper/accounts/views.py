"""The account's own pages beside django-allauth's: the settings (language, time zone), the landing
page of an invitation's link for someone without an account, and closing one's account."""

from __future__ import annotations

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import logout
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import translation
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from scorekeeper.clubs.models import Invitation, Role
from scorekeeper.clubs.selectors import invitation_digest
from scorekeeper.clubs.services import invitation_usable
from scorekeeper.errors import DomainError

from . import services
from .forms import AccountDeleteForm, PreferenceForm
from .invitations import invitation_hold
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


@require_GET
def invited(request):
    """``/accounts/invited/?club=…&code=…``: where an invitation's link brings someone who is not
    signed in; ``?code=…`` alone for a code given at the table (an invitation's code names its
    club), typed into this page's form. A good code is held in his session, so that the account
    he creates joins the club (once its address is verified); with an account already, he signs
    in and joins."""
    slug, code = request.GET.get("club", "").strip(), request.GET.get("code", "").strip()
    if not code:
        return render(request, "accounts/invited.html", {})
    invitation = _invitation(slug, code)
    if invitation is None:
        context = {
            "error": _("This invitation is not valid: it may have expired or been used up."),
            "code": code,
        }
        return render(request, "accounts/invited.html", context, status=400)
    join_url = f"{reverse('club-join', args=[invitation.club.slug])}?{urlencode({'code': code})}"
    if request.user.is_authenticated:
        return redirect(join_url)
    invitation_hold(request, invitation)
    context = {
        "club": invitation.club,
        "role": Role(invitation.role).label,
        "signin_url": f"{reverse('login')}?{urlencode({'next': join_url})}",
    }
    return render(request, "accounts/invited.html", context)


def _invitation(slug: str, code: str) -> Invitation | None:
    """The usable invitation of this code (of the club ``slug`` names, if it names one)."""
    invitation = Invitation.objects.select_related("club").filter(digest=invitation_digest(code)).first()
    if invitation is None or (slug and invitation.club.slug != slug) or not invitation_usable(invitation):
        return None
    return invitation


@login_required
def account_delete(request):
    """``/accounts/delete/``: close one's own account (``services.account_delete``)."""
    form = AccountDeleteForm(request.POST or None, user=request.user)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                services.account_delete(user=request.user)
            except DomainError as exc:
                form.add_error(None, exc.message)
            else:
                logout(request)
                messages.success(request, _("Your account is closed. Your name is gone from every match."))
                return redirect("home")
    return render(request, "accounts/delete.html", {"form": form}, status=status)
