"""Token authentication for the recording endpoints, leaner than DRF's and with its semantics.

DRF's ``TokenAuthentication`` reads the token with ``select_related("user").get(key=...)``;
compiling that ORM query cost more than PostgreSQL took to run it, on every request. This
subclass reads the same row with one raw query: same header parsing (inherited), same 401
bodies (an unknown key: "Invalid token."; an inactive user: "User inactive or deleted."),
``request.user`` the token's user and ``request.auth`` its ``Token``. Nothing is cached,
so a deleted token or a deactivated user is refused on the next request.
"""

from __future__ import annotations

import datetime
import functools

from django.conf import settings
from django.contrib.auth import get_user_model
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        found = list(get_user_model().objects.raw(_token_user_sql(), [key]))
        if not found:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = found[0]
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        created = user.token_created
        # A raw query's extra column skips the backend's converters: SQLite gives a naive UTC time.
        if settings.USE_TZ and timezone.is_naive(created):
            created = timezone.make_aware(created, datetime.UTC)
        token = Token(key=key, user=user, created=created)
        token._state.adding = False
        token._state.db = user._state.db
        return user, token


# drf-spectacular describes it as DRF's class (its token scheme matches subclasses): one
# "tokenAuth" component for both classes, which is no name collision.
set_override(TokenAuthentication, "suppress_collision_warning", True)


@functools.cache
def _token_user_sql() -> str:
    """The token's user with every column (as ``select_related`` read it) and the token's date."""
    user_table = get_user_model()._meta.db_table
    user_pk = get_user_model()._meta.pk.column
    return (
        f'SELECT u.*, t."created" AS token_created FROM "{user_table}" u'
        f' JOIN "{Token._meta.db_table}" t ON t."user_id" = u."{user_pk}" WHERE t."key" = %s'
    )
