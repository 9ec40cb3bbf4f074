"""api/authentication.py: the recording endpoint's token look-up answers as DRF's does."""

from __future__ import annotations

import pytest
from rest_framework import authentication, exceptions
from rest_framework.authtoken.models import Token
from rest_framework.test import APIRequestFactory

from api.authentication import TokenAuthentication
from scorekeeper.matches.models import Hand
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def outcome(auth_class, header):
    request = APIRequestFactory().post("/", HTTP_AUTHORIZATION=header)
    try:
        found = auth_class().authenticate(request)
    except exceptions.AuthenticationFailed as exc:
        return ("401", str(exc.detail))
    if found is None:
        return None
    user, token = found
    return (user.pk, user.get_username(), user.is_active, token.key, token.user_id, token.created)


@pytest.mark.parametrize(
    "header",
    [
        "Token {key}",
        "token {key}",
        "Token {key}x",
        "Token",
        "Token a b",
        "Token ",
        "Bearer {key}",
        "",
    ],
)
def test_every_header_gets_what_drf_gives_it(user, header):
    key = Token.objects.create(user=user).key
    header = header.format(key=key)

    assert outcome(TokenAuthentication, header) == outcome(authentication.TokenAuthentication, header)


def test_it_gives_the_tokens_user_with_every_column_and_the_token(user):
    token = Token.objects.create(user=user)

    found_user, found_token = TokenAuthentication().authenticate_credentials(token.key)

    assert found_user == user and found_user.username == "ann" and found_user.password == user.password
    assert (found_token.pk, found_token.created, found_token.user) == (token.key, token.created, user)


def test_an_inactive_user_and_a_deleted_token_are_refused_at_once(client_for, user, tally_match):
    app = client_for(user)
    url = f"/api/v1/matches/{tally_match.pk}/hands"
    assert app.post(url, {"record": hand([3, 1]), "version": 0}, format="json").status_code == 201

    user.is_active = False
    user.save()
    inactive = app.post(url, {"record": hand([2, 2], dealer=1), "version": 1}, format="json")
    user.is_active = True
    user.save()
    Token.objects.filter(user=user).delete()
    deleted = app.post(url, {"record": hand([2, 2], dealer=1), "version": 1}, format="json")

    assert assert_error(inactive, 401, "authentication_failed")["message"] == "User inactive or deleted."
    assert assert_error(deleted, 401, "authentication_failed")["message"] == "Invalid token."
    assert inactive["WWW-Authenticate"] == deleted["WWW-Authenticate"] == "Token"
    assert Hand.objects.count() == 1
