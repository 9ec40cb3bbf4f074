"""Token authentication for the recording endpoints, leaner than DRF's and with its semantics.

DRF's ``TokenAuthentication`` reads the token with ``select_related("user").get(key=...)``;
compiling that ORM query cost more than PostgreSQL took to run it, on every request. This
subclass reads the same row with one hand-written query (``scorekeeper.rawrows``): same
header parsing (inherited), same 401 bodies (an unknown key: "Invalid token."; an inactive
user: "User inactive or deleted."), ``request.user`` the token's user and ``request.auth``
its ``Token``. Nothing is cached, so a deleted token or a deactivated user is refused on the
next request.

A view may ask for its match to be read in the same statement (``read_ahead_match``): then
``request.match_read`` is that match as a write reads it for the token's user, one round
trip less on the hot path (recording a hand). See ``services.MatchRead``.
"""

from __future__ import annotations

import functools

from django.contrib.auth import get_user_model
from django.db import router
from django.utils.translation import gettext_lazy as _
from drf_spectacular.drainage import set_override
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token

from scorekeeper.matches import services
from scorekeeper.matches.models import Match
from scorekeeper.rawrows import RowReader, fetch_one


class TokenAuthentication(authentication.TokenAuthentication):
    """DRF makes one instance per request, so ``authenticate`` may keep the request on it."""

    def authenticate(self, request):
        self.request = request
        return super().authenticate(request)

    def authenticate_credentials(self, key):
        match_pk = _match_to_read_ahead(getattr(self, "request", None))
        user_reader, match_reader, sql = _token_user_query(read_ahead=match_pk is not None)
        using = router.db_for_read(Token)
        params = [match_pk, key] if match_pk is not None else [key]
        row = fetch_one(using, sql, params, own_health_check=True)
        if row is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        user = user_reader.read(row[: user_reader.width], using)
        if not user.is_active:
            raise exceptions.AuthenticationFailed(_("User inactive or deleted."))
        token = Token(key=key, user=user, created=user.token_created)
        token._state.adding = False
        token._state.db = using
        if match_pk is not None and row[user_reader.width] is not None:  # NULLs: no such match
            match = match_reader.read(row[user_reader.width :], using)
            self.request.match_read = services.MatchRead(match=match, user_pk=user.pk)
        return user, token


# drf-spectacular describes it as DRF's class (its token scheme matches subclasses): one
# "tokenAuth" component for both classes, which is no name collision.
set_override(TokenAuthentication, "suppress_collision_warning", True)


def _match_to_read_ahead(request) -> int | None:
    """The id of the match a view wants read with the token (``read_ahead_match``: the name
    of its URL argument, for POSTs), if it can be a match's id."""
    context = getattr(request, "parser_context", None) or {}
    argument = getattr(context.get("view"), "read_ahead_match", None)
    if argument is None or request.method != "POST":
        return None
    pk = context.get("kwargs", {}).get(argument)
    return pk if isinstance(pk, int) and services.is_match_id(pk) else None


@functools.cache
def _token_user_query(*, read_ahead: bool) -> tuple[RowReader, RowReader | None, str]:
    """The token's user with every column (as ``select_related`` read it) and the token's date;
    with ``read_ahead``, then the match of the first parameter as a write reads it for that
    user (``services.match_read_columns``), NULLs when there is none."""
    user_model = get_user_model()
    user_reader = RowReader(user_model, "u", extra=[("token_created", Token._meta.get_field("created"))])
    token_join = (
        f' FROM "{user_model._meta.db_table}" u'
        f' JOIN "{Token._meta.db_table}" t ON t."user_id" = u."{user_model._meta.pk.column}"'
    )
    if not read_ahead:
        return user_reader, None, f'SELECT {user_reader.columns}, t."created"{token_join} WHERE t."key" = %s'
    match_reader, match_columns = services.match_read_columns('t."user_id"')
    sql = (
        f'SELECT {user_reader.columns}, t."created", {match_columns}{token_join}'
        f' LEFT JOIN "{Match._meta.db_table}" m ON m."id" = %s WHERE t."key" = %s'
    )
    return user_reader, match_reader, sql
