"""django-allauth fitted to the site (settings.ACCOUNT_ADAPTER).

- Sign-up is open to whoever holds a club's invitation (``invitations.invitation_held``), and to
  everyone only when ``SIGNUP_OPEN`` says so.
- A verified address is required to sign in for an account that gave one through the site;
  an account staff made without one signs in as before (``EmailVerificationStage``).
- Every message goes out as plain text and HTML: the HTML is the text's own words (allauth's
  templates, translated by its catalogs) laid out by ``account/email/layout.html``, so that the
  two never say different things.
- After the verification that let him join a club, a person lands on that club's page.
"""

from __future__ import annotations

from typing import Any

from allauth.account import stages
from allauth.account.adapter import DefaultAccountAdapter
from allauth.account.models import EmailAddress
from django.conf import settings
from django.core.mail import EmailMessage, EmailMultiAlternatives
from django.template.loader import render_to_string

from .invitations import JOINED_CLUB_SESSION_KEY, invitation_held


class AccountAdapter(DefaultAccountAdapter):
    def is_open_for_signup(self, request) -> bool:
        return settings.SIGNUP_OPEN or invitation_held(request) is not None

    def get_login_stages(self) -> list[str]:
        return [
            f"{EmailVerificationStage.__module__}.{EmailVerificationStage.__qualname__}"
            if path == "allauth.account.stages.EmailVerificationStage"
            else path
            for path in super().get_login_stages()
        ]

    def render_mail(
        self, template_prefix: str, email: str | list[str], context: dict[str, Any], headers=None
    ) -> EmailMessage:
        message = super().render_mail(template_prefix, email, context, headers=headers)
        if isinstance(message, EmailMultiAlternatives) and not message.alternatives:
            html = render_to_string(
                "account/email/layout.html", {"subject": message.subject, "body": message.body}
            )
            message.attach_alternative(html, "text/html")
        return message

    def get_login_redirect_url(self, request) -> str:
        return self._joined_club_url(request) or super().get_login_redirect_url(request)

    def post_login(self, request, user, *, redirect_url: str | None, **kwargs: Any):
        # The sign-in that follows the verification: to the club he just joined, not to the
        # page the sign-up form had in mind.
        return super().post_login(
            request, user, redirect_url=self._joined_club_url(request) or redirect_url, **kwargs
        )

    @staticmethod
    def _joined_club_url(request) -> str:
        session = getattr(request, "session", None)
        return session.pop(JOINED_CLUB_SESSION_KEY, "") if session is not None else ""


def email_unverified(user) -> bool:
    """Whether ``user`` gave an address through the site and has verified none yet (such an
    account may not sign in: not on the pages, and not for an API token)."""
    addresses = EmailAddress.objects.filter(user_id=user.pk)
    return addresses.exists() and not addresses.filter(verified=True).exists()


class EmailVerificationStage(stages.EmailVerificationStage):
    """allauth's mandatory verification, for the accounts that gave an address through the site
    (they have allauth's record of it). An account staff created in the admin before or without
    one has none, and signs in as it always did."""

    def handle(self):
        if not EmailAddress.objects.filter(user_id=self.login.user.pk).exists():
            return None, True
        return super().handle()
