"""Throttles: the token endpoint per address and per username, before any password is checked;
every write per user, generously; 429 with Retry-After in the error shape."""

from __future__ import annotations

import pytest
from django.contrib.auth.hashers import check_password
from rest_framework.test import APIClient

from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db

TOKEN = "/api/v1/auth/token"


@pytest.fixture
def rates(settings):
    def set_rates(**rates):
        settings.REST_FRAMEWORK = {
            **settings.REST_FRAMEWORK,
            "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], **rates},
        }

    return set_rates


@pytest.fixture
def carl(django_user_model):
    return django_user_model.objects.create_user("carl", password="a-long-password-1")


def attempt(client, username="carl", password="wrong", **extra):
    return client.post(TOKEN, {"username": username, "password": password}, format="json", **extra)


def test_repeated_bad_passwords_for_one_username_are_a_429_with_retry_after(anon, carl, rates, monkeypatch):
    rates(token_username="3/minute", token_address="100/minute")
    for _ in range(3):
        assert_error(attempt(anon), 400)
    checked = []
    monkeypatch.setattr(
        "django.contrib.auth.models.AbstractBaseUser.check_password",
        lambda self, raw: checked.append(raw) or check_password(raw, self.password),
    )

    response = attempt(anon, password="a-long-password-1", REMOTE_ADDR="10.0.0.9")

    body = assert_error(response, 429, "throttled")
    assert 0 < int(response["Retry-After"]) <= 60 and body["retry_after"] == int(response["Retry-After"])
    assert checked == []  # refused before the password was looked at
    assert attempt(anon, username="CARL", REMOTE_ADDR="10.0.0.9").status_code == 429  # any case
    assert attempt(anon, username="dora", REMOTE_ADDR="10.0.0.9").status_code == 400  # others go on


def test_one_address_trying_many_usernames_is_a_429(anon, rates):
    rates(token_address="4/minute", token_username="100/minute")
    for i in range(4):
        assert_error(attempt(anon, username=f"user{i}"), 400)

    assert_error(attempt(anon, username="user9"), 429, "throttled")
    assert attempt(APIClient(REMOTE_ADDR="10.1.2.3"), username="user9").status_code == 400


def test_a_form_body_counts_as_the_same_username(anon, carl, rates):
    rates(token_username="1/minute")
    assert attempt(anon).status_code == 400

    assert anon.post(TOKEN, {"username": "carl", "password": "x"}).status_code == 429  # multipart


def test_a_client_behind_the_proxy_is_counted_by_its_forwarded_address(anon, rates, settings):
    rates(token_address="1/minute", token_username="100/minute")
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "NUM_PROXIES": 1}

    assert attempt(anon, username="a", HTTP_X_FORWARDED_FOR="203.0.113.1").status_code == 400
    assert attempt(anon, username="b", HTTP_X_FORWARDED_FOR="203.0.113.2").status_code == 400
    assert attempt(anon, username="c", HTTP_X_FORWARDED_FOR="203.0.113.1").status_code == 429


def test_writes_are_throttled_per_user_and_reads_are_not(ann, bob, rates):
    rates(write="2/minute")
    for name in ("Ada", "Bea"):
        assert ann.post("/api/v1/players", {"name": name}, format="json").status_code == 201

    assert_error(ann.post("/api/v1/players", {"name": "Cy"}, format="json"), 429, "throttled")
    assert ann.get("/api/v1/players").status_code == 200
    assert bob.post("/api/v1/players", {"name": "Cy"}, format="json").status_code == 201


def test_anonymous_dry_runs_are_throttled_per_address(anon, tally, rates):
    rates(write="1/minute")
    body = {"seats": 2, "hand": {}}
    assert anon.post("/api/v1/rules/tally/score", body, format="json").status_code == 200

    assert_error(anon.post("/api/v1/rules/tally/score", body, format="json"), 429, "throttled")


def test_the_default_write_rate_is_generous(settings):
    rate = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]["write"]
    count, period = rate.split("/")
    assert int(count) >= 300 and period.startswith("min")


def test_one_throttle_counts_requests_after_its_first(rates):
    """DRF keeps a request's cache key in the throttle's ``key`` attribute: a method of that
    name was shadowed by the first request's key, and a second request broke the throttle."""
    from rest_framework.request import Request
    from rest_framework.test import APIRequestFactory

    from api.throttles import WriteThrottle

    rates(write="2/minute")
    throttle = WriteThrottle()
    posts = [Request(APIRequestFactory().post("/api/v1/matches", {}), parsers=[]) for _ in range(3)]
    assert [throttle.allow_request(post, None) for post in posts] == [True, True, False]
