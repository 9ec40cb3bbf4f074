"""Sign-in on the pages (django-allauth's form, which the admin's sign-in sends to) and django-axes:
after AXES_FAILURE_LIMIT failures for a username or from an address, a readable 429 page with
Retry-After, before any password check."""

from __future__ import annotations

import pytest
from django.test import Client

pytestmark = pytest.mark.django_db

PAGE = "/accounts/login/"
ADMIN = "/admin/login/"


@pytest.fixture
def carl(django_user_model):
    return django_user_model.objects.create_user("carl", password="a-long-password-1", is_staff=True)


def sign_in(url, username="carl", password="wrong", address="10.0.0.1"):
    # allauth's form: one field for a username or an email address
    return Client(REMOTE_ADDR=address).post(url, {"login": username, "password": password})


def test_the_admin_signs_in_through_the_sites_form(carl):
    response = Client().get(ADMIN)

    assert response.status_code == 302 and response["Location"].startswith(PAGE)


@pytest.mark.parametrize("login", ["carl", "carl@example.org"])
def test_repeated_bad_passwords_lock_the_username_out_with_a_readable_429(carl, settings, login):
    url = PAGE
    carl.email = "carl@example.org"
    carl.save()
    for i in range(settings.AXES_FAILURE_LIMIT - 1):
        # the form again, with its error
        assert sign_in(url, username=login, address=f"10.0.0.{i}").status_code == 200
    assert sign_in(url, username=login, address="10.0.0.99").status_code == 429  # reaches the limit

    response = sign_in(url, username=login, password="a-long-password-1", address="10.9.9.9")

    assert response.status_code == 429
    assert int(response["Retry-After"]) == settings.AXES_COOLOFF_TIME.total_seconds()
    page = response.content.decode()
    assert "Too many sign-in attempts" in page and "Try again in 15 minutes" in page
    assert "_auth_user_id" not in response.client.session


def test_one_address_trying_many_usernames_is_locked_out(carl, settings):
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(PAGE, username=f"user{i}")

    assert sign_in(PAGE, password="a-long-password-1").status_code == 429
    assert sign_in(PAGE, password="a-long-password-1", address="10.7.7.7").status_code == 302  # signed in


def test_a_locked_out_password_is_not_checked(carl, settings, monkeypatch):
    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(PAGE, address=f"10.0.1.{i}")
    checked = []
    monkeypatch.setattr(
        "django.contrib.auth.models.AbstractBaseUser.check_password", lambda s, raw: checked.append(1)
    )

    assert sign_in(PAGE, address="10.0.2.1").status_code == 429
    assert checked == []


def test_a_success_before_the_limit_starts_the_count_again(carl, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        sign_in(PAGE)
    assert sign_in(PAGE, password="a-long-password-1").status_code == 302

    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        assert sign_in(PAGE).status_code == 200


def test_the_token_endpoint_answers_a_locked_out_username_in_the_api_shape(carl, settings):
    from rest_framework.test import APIClient

    for i in range(settings.AXES_FAILURE_LIMIT):
        sign_in(PAGE, address=f"10.0.3.{i}")

    response = APIClient(REMOTE_ADDR="10.0.4.1").post(
        "/api/v1/auth/token", {"username": "carl", "password": "a-long-password-1"}, format="json"
    )

    assert response.status_code == 429 and response["Content-Type"] == "application/json"
    assert response.json()["code"] == "throttled" and int(response["Retry-After"]) > 0
