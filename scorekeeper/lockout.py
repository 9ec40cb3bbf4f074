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
    context = {"minutes": max(1, round(seconds / 60)), "username": (credentials or {}).get("username", "")}
    response = render(request, "registration/locked_out.html", context, status=429)
    response["Retry-After"] = str(seconds)
    return response
