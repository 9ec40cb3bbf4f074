"""Token authentication for the recording endpoints, leaner than DRF's and with its semantics.

DRF's ``TokenAuthentication`` reads the token with ``select_related("user").get(key=...)``;
compiling that ORM query cost more than PostgreSQL took to run it, on every request. This
subclass reads the same row with one hand-written query (``scorekeeper.rawrows``): same
header parsing (inherited), same 401 bodies (an unknown key: "Invalid token."; an inactive
user: "User inactive or deleted."), ``request.user`` the token's user and ``request.auth``
its ``Token``. Nothing is cached,
so a deleted token or a deactivated user is refused on the next request.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import connections, router
from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from scorekeeper.rawrows import RowReader


class TokenAuthentication(authentication.TokenAuthentication):
    def authenticate_credentials(self, key):
        reader, sql = _token_user_query()
        using = router.db_for_read(Token)
        with connections[using].cursor() as cursor:
            cursor.execute(sql, [key])
            row = cursor.fetchone()
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = reader.read(row, using)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token(key=key, user=user, created=user.token_created)
        token._state.adding = False
        token._state.db = using
        return user, token


# drf-spectacular describes it as DRF's class (its token scheme matches subclasses): one
# "tokenAuth" component for both classes, which is no name collision.
set_override(TokenAuthentication, "suppress_collision_warning", True)


@functools.cache
def _token_user_query() -> tuple[RowReader, str]:
    """The token's user with every column (as ``select_related`` read it) and the token's date."""
    user_model = get_user_model()
    reader = RowReader(user_model, "u", extra=[("token_created", Token._meta.get_field("created"))])
    sql = (
        f'SELECT {reader.columns}, t."created" FROM "{user_model._meta.db_table}" u'
        f' JOIN "{Token._meta.db_table}" t ON t."user_id" = u."{user_model._meta.pk.column}"'
        ' WHERE t."key" = %s'
    )
    return reader, sql
