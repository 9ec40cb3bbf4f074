"""What a locked-out sign-in gets (django-axes' ``AXES_LOCKOUT_CALLABLE``): a readable page on
the sign-in forms, 429 with ``Retry-After``; the API's token endpoint answers in its own error
shape instead (api/auth.py)."""

from __future__ import annotations

from django.conf import settings
from django.shortcuts import render


def retry_after_seconds() -> int:
    return int(settings.AXES_COOLOFF_TIME.total_seconds())


def signin_locked_out(request, original_response=None, credentials=None):
    seconds = retry_after_seconds()
    context = {"minutes": max(1, round(seconds / 60)), "username": signin_username(request, credentials)}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response


def signin_username(request, credentials=None) -> str:
    """The name a sign-in's failures are counted under (``AXES_USERNAME_CALLABLE``): the
    username, or the email address one signs in with on the pages (allauth passes either as
    the credentials; its form's field is ``login``), as typed."""
    credentials = credentials or {}
    for field in ("username", "email"):
        if credentials.get(field):
            return str(credentials[field]).strip()
    data = getattr(request, "POST", None) or {}
    return str(data.get("login") or data.get("username") or "").strip()
