"""Fixtures of the API tests: clients signed in as the scorer, another user, nobody."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.fakes import hand

#: The keys every 4xx body has (api/exceptions.py).
ERROR_KEYS = {"code", "message", "field"}


@pytest.fixture
def anon():
    return APIClient()


@pytest.fixture
def client_for():
    """An API client signed in with ``user``'s token, as an app would be."""
    from api.tokens import token_create

    def make(user):
        client = APIClient()
        _, key = token_create(user=user)  # a device of its own (knox: hashed, with an expiry)
        client.credentials(HTTP_AUTHORIZATION=f"Token {key}")
        return client

    return make


@pytest.fixture
def ann(client_for, user):
    """``user`` (ann), who creates the tally matches and so scores them."""
    return client_for(user)


@pytest.fixture
def bob(client_for, other_user):
    """``other_user`` (bob), signed in but not a scorer of ann's matches."""
    return client_for(other_user)


@pytest.fixture
def record_hand(ann):
    """POST a tally hand to a match as ann with its current version; returns the response."""
    from scorekeeper.matches.models import Match

    def post(match, points, declared=None, dealer=0, **extra):
        version = Match.objects.get(pk=match.pk).version
        body = {"record": hand(points, declared, dealer), "version": version, **extra}
        return ann.post(f"/api/v1/matches/{match.pk}/hands", body, format="json")

    return post


def assert_error(response, status: int, code: str | None = None, field: str | None = None) -> dict:
    """The response is a ``status`` in the common error shape (with ``code`` / ``field``)."""
    assert response.status_code == status, response.content
    body = response.json()
    assert set(body) >= ERROR_KEYS, body
    if code is not None:
        assert body["code"] == code, body
    if field is not None:
        assert body["field"] == field, body
    return body
