"""``/api/v1/auth/``: a device signs in for an API token (``token``) and out again (``logout``);
the tokens themselves are ``api/tokens.py``."""

from __future__ import annotations

from allauth.mfa.base.forms import BaseAuthenticateForm
from allauth.mfa.utils import is_mfa_enabled
from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions as drf_exceptions
from rest_framework import serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper import lockout
from scorekeeper.accounts.adapter import email_unverified
from scorekeeper.accounts.middleware import second_factor_missing

from . import schema, tokens
from .idempotency import idempotent
from .parsers import CappedFormParser, CappedMultiPartParser, StrictJSONParser
from .schema import ErrorSerializer
from .throttles import TokenAddressThrottle, TokenUsernameThrottle


class TokenCreate(APIView):
    """Trade a username and password for a new API token for this device, and its expiry.

    Send it on every request as `Authorization: Token <key>`. Each sign-in makes a token of
    its own (one per device), valid `API_TOKEN_TTL_DAYS`; `POST /api/v1/auth/logout` revokes it.

    An account with two-factor sign-in also sends `code`: the six digits of its authenticator
    app, or one of its recovery codes (`second_factor_required` without it,
    `second_factor_invalid` when wrong). Club admins and staff get no token before they set up
    a second factor on the site (`second_factor_setup_required`).
    """

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]  # a key is for apps: no HTML page of it
    parser_classes = [StrictJSONParser, CappedFormParser, CappedMultiPartParser]
    # Before the view, so before any password is checked (api/throttles.py).
    throttle_classes = [TokenAddressThrottle, TokenUsernameThrottle]

    @extend_schema(
        # The view also takes the same fields as a form (curl -d, an HTML form), but the schema
        # documents the JSON body alone: a generator folds several media types of one schema
        # into a union it cannot tell apart (openapi-python-client's does), and apps send JSON.
        request={
            "application/json": inline_serializer(
                "TokenRequest",
                {
                    "username": serializers.CharField(),
                    "password": serializers.CharField(trim_whitespace=False),
                    "code": serializers.CharField(
                        required=False,
                        help_text=gettext_lazy(
                            "the second factor, for an account that has one: a code of its "
                            "authenticator app or one of its recovery codes"
                        ),
                    ),
                },
            )
        },
        responses={
            200: inline_serializer(
                "TokenResponse",
                {
                    "token": serializers.CharField(help_text=gettext_lazy("the key: shown only this once")),
                    "expiry": serializers.DateTimeField(allow_null=True),
                },
            ),
            400: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "Wrong username or password (`authorization`); an address not verified yet "
                    "(`email_unverified`); the second factor missing "
                    "(`second_factor_required`), wrong (`second_factor_invalid`) or not set up by a "
                    "club admin or staff (`second_factor_setup_required`); or a malformed body"
                ),
            ),
            **schema.errors(429),
        },
        auth=[],
    )
    # Not @idempotent: an Idempotency-Key is ignored here, so that no stored answer ever holds
    # a token (a replay from storage would hand it to whoever knows the key).
    def post(self, request, *args, **kwargs):
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except drf_exceptions.ValidationError:
            if getattr(request, "axes_locked_out", False):
                # django-axes refused the sign-in before checking the password (too many failures
                # for this username or address, also on the pages): a 429 like the throttles'.
                request._request.axes_locked_out = False  # the API answers, not axes' page
                raise drf_exceptions.Throttled(wait=lockout.retry_after_seconds()) from None
            raise
        user = serializer.validated_data["user"]
        second_factor_check(user, request.data.get("code"))
        instance, key = tokens.token_create(user=user)
        user_logged_in.send(sender=type(user), request=request, user=user)
        expiry = serializers.DateTimeField().to_representation(instance.expiry) if instance.expiry else None
        return Response({"token": key, "expiry": expiry})


class TokenLogout(APIView):
    """Sign this device out: the token the request is sent with is revoked (204); others stay."""

    authentication_classes = [tokens.TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None, **schema.errors(401, 422)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, *args, **kwargs):
        tokens.token_revoke(token=request.auth)
        user_logged_out.send(sender=type(request.user), request=request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


def second_factor_check(user, code: object) -> None:
    """Refuses a token to an account whose address is not verified yet (``email_unverified``),
    and otherwise is the token sign-in's second step, as the pages' (allauth's form: its TOTP and recovery
    codes, a used recovery code spent, wrong codes counted by its rate limit)."""
    if email_unverified(user):
        raise _refused(
            gettext_lazy("open the link we emailed you to verify your address first"),
            "email_unverified",
            field="non_field_errors",
        )
    if second_factor_missing(user):
        raise _refused(
            gettext_lazy("club admins and staff set up two-factor sign-in on the site before a token"),
            "second_factor_setup_required",
        )
    if not is_mfa_enabled(user):
        return
    if not isinstance(code, str) or not code.strip():
        raise _refused(
            gettext_lazy("this account signs in with a second factor: send its code as `code`"),
            "second_factor_required",
        )
    form = BaseAuthenticateForm(data={"code": code.strip()}, user=user)
    if not form.is_valid():
        raise _refused(gettext_lazy("the second factor's code is wrong or spent"), "second_factor_invalid")
    form.authenticator.record_usage()


def _refused(message, code: str, field: str = "code") -> drf_exceptions.ValidationError:
    return drf_exceptions.ValidationError({field: [drf_exceptions.ErrorDetail(message, code=code)]})
