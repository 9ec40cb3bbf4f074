"""Who may do what: tokens for apps, the session for pages; anyone reads, scorers write."""

from __future__ import annotations

import pytest
from django.http import HttpRequest
from django.utils.crypto import get_random_string
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from scorekeeper.matches.models import Hand, Player
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def carl(django_user_model):
    return django_user_model.objects.create_user("carl", password="a-long-password-1")


def test_an_app_gets_a_token_with_json_and_uses_it(anon, carl):
    response = anon.post(
        "/api/v1/auth/token", {"username": "carl", "password": "a-long-password-1"}, format="json"
    )

    assert response.status_code == 200
    token = response.json()["token"]
    assert token == Token.objects.get(user=carl).key
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert app.post("/api/v1/players", {"name": "Ada"}, format="json").status_code == 201
    assert Player.objects.get().created_by == carl


def test_the_same_token_comes_back_each_time(anon, carl):
    body = {"username": "carl", "password": "a-long-password-1"}

    first = anon.post("/api/v1/auth/token", body, format="json").json()
    second = anon.post("/api/v1/auth/token", body).json()  # a form post, as curl -d sends

    assert first == second and Token.objects.count() == 1


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"username": "carl", "password": "wrong"}, "authorization", ""),
        ({"username": "carl"}, "required", "password"),
        ([], "invalid", ""),
    ],
)
def test_a_bad_token_request_is_a_400(anon, carl, body, code, field):
    assert_error(anon.post("/api/v1/auth/token", body, format="json"), 400, code, field)
    assert not Token.objects.exists()


def test_an_inactive_users_token_is_refused(client_for, carl):
    app = client_for(carl)
    carl.is_active = False
    carl.save()

    assert_error(app.post("/api/v1/players", {"name": "Ada"}, format="json"), 401, "authentication_failed")


def test_the_session_works_for_pages_with_the_csrf_check(carl):
    browser = APIClient(enforce_csrf_checks=True)
    # django-axes checks every sign-in against its request: the test client's login has none.
    browser.login(request=HttpRequest(), username="carl", password="a-long-password-1")

    refused = browser.post("/api/v1/players", {"name": "Ada"}, format="json")
    # What a page does: the CSRF cookie it was served, echoed in the X-CSRFToken header.
    secret = get_random_string(32)
    browser.cookies["csrftoken"] = secret
    accepted = browser.post("/api/v1/players", {"name": "Ada"}, format="json", HTTP_X_CSRFTOKEN=secret)

    assert_error(refused, 403, "permission_denied")
    assert "CSRF" in refused.json()["message"]
    assert accepted.status_code == 201


def test_anyone_reads_without_signing_in(anon, tally_match, user):
    from scorekeeper.matches.services import hand_record

    hand_record(match=tally_match, record=hand([1, 2]), by=user)
    m = f"/api/v1/matches/{tally_match.pk}"

    for url in ["/api/v1/", "/api/v1/games", "/api/v1/players", "/api/v1/matches", m, f"{m}/hands",
                f"{m}/hands/1", f"{m}/hands/1/history"]:  # fmt: skip
        assert anon.get(url).status_code == 200, url


def test_writes_to_a_match_are_for_its_scorers_and_superusers(
    client_for, bob, tally_match, django_user_model
):
    admin = client_for(django_user_model.objects.create_superuser("root", password="x"))
    body = {"record": hand([1, 2]), "version": 0}
    url = f"/api/v1/matches/{tally_match.pk}/hands"

    assert_error(bob.post(url, body, format="json"), 403, "not_a_scorer")
    assert admin.post(url, body, format="json").status_code == 201
    assert Hand.objects.get().recorded_by.username == "root"
