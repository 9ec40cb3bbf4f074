"""Helpers of the accounts' tests: the mails the site sent (read from the outbox, where every
message is stored before it is delivered: the same on SQLite and PostgreSQL), and TOTP codes."""

from __future__ import annotations

import re
import time

import pytest


def sent_mails() -> list[dict]:
    from scorekeeper.outbox.mail import MAIL_TASK
    from scorekeeper.outbox.models import OutboxMessage

    return [m.kwargs["message"] for m in OutboxMessage.objects.filter(task=MAIL_TASK).order_by("id")]


def link_in(mail: dict) -> str:
    """The first address of this site in a mail's text, as a path."""
    found = re.search(r"https?://[^/\s]+(/\S+)", mail["body"])
    assert found, mail["body"]
    return found.group(1)


def totp_code(secret: str, step: int = 0) -> str:
    """The code an authenticator app shows for ``secret`` now (``step`` periods on)."""
    from allauth.mfa import app_settings
    from allauth.mfa.totp.internal.auth import format_hotp_value, hotp_value

    return format_hotp_value(hotp_value(secret, int(time.time()) // app_settings.TOTP_PERIOD + step))


@pytest.fixture(autouse=True)
def mail_through_the_outbox(settings):
    """As in production (Django's test set-up puts its own in-memory backend in its place):
    every message is stored in the outbox, and delivered into Django's test mailbox."""
    settings.EMAIL_BACKEND = "scorekeeper.outbox.mail.OutboxEmailBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"


@pytest.fixture(autouse=True)
def totp_window(settings):
    """A code of the next period is good too, so that one test can use two different codes
    (a used code is refused for its whole window) without waiting 30 seconds."""
    settings.MFA_TOTP_TOLERANCE = 1
