"""API tokens (django-rest-knox): stored hashed, one per device, each with an expiry, revocable.

A client sends ``Authorization: Token <key>`` as before. The database holds only the first
characters of a key (to find it) and a SHA-512 digest of the whole: a leaked table or backup
signs nobody in. Each sign-in (POST /api/v1/auth/token) makes a new token, for that device;
``POST /api/v1/auth/logout`` revokes the one it is sent with; the admin lists a user's tokens
and revokes any. An expired token is refused (401) and deleted.
"""

from __future__ import annotations

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.contrib.knox_auth_token import KnoxTokenScheme
from knox import auth
from knox.models import AuthToken
from knox.settings import knox_settings
from knox.signals import token_expired
from rest_framework import exceptions


class TokenAuthentication(auth.TokenAuthentication):
    """knox's scheme, with a key that is not text refused as any wrong key (knox decodes the
    header as UTF-8 and would fail with a 500 on other bytes)."""

    def authenticate_credentials(self, token: bytes):
        try:
            token.decode("utf-8")
        except UnicodeDecodeError:
            raise exceptions.AuthenticationFailed(_("Invalid token.")) from None
        return super().authenticate_credentials(token)

    def _cleanup_token(self, auth_token) -> bool:
        """Whether ``auth_token`` has expired (and is now deleted); others: ``tokens_expire``."""
        if auth_token.expiry is not None and auth_token.expiry < timezone.now():
            username = auth_token.user.get_username()
            auth_token.delete()
            token_expired.send(sender=self.__class__, username=username, source="auth_token")
            return True
        return False


def token_create(*, user) -> tuple[AuthToken, str]:
    """A new token for ``user`` (a new device): the stored row and the key, shown only once."""
    return AuthToken.objects.create(user=user, expiry=knox_settings.TOKEN_TTL)


def token_revoke(*, token: AuthToken) -> None:
    token.delete()


def tokens_expire() -> int:
    """Delete every expired token; how many."""
    return AuthToken.objects.filter(expiry__lt=timezone.now()).delete()[0]


class TokenScheme(KnoxTokenScheme):
    """The OpenAPI security scheme of this class (drf-spectacular knows knox's own only)."""

    target_class = "api.tokens.TokenAuthentication"
    name = "tokenAuth"


def tokens_of_deleted_account_revoke(sender, user, **kwargs) -> None:
    """``account_deleted``: every token of the closed account goes."""
    AuthToken.objects.filter(user=user).delete()
