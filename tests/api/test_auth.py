"""Who may do what: tokens for apps, the session for pages; anyone reads, scorers write."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.http import HttpRequest
from django.utils import timezone
from django.utils.crypto import get_random_string
from knox.models import AuthToken
from rest_framework import serializers
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
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {token}")
    assert app.post("/api/v1/players", {"name": "Ada"}, format="json").status_code == 201
    assert Player.objects.get().created_by == carl


def test_tokens_are_stored_hashed_one_per_device_with_an_expiry(anon, carl, settings):
    from knox.crypto import hash_token

    body = {"username": "carl", "password": "a-long-password-1"}

    phone = anon.post("/api/v1/auth/token", body, format="json").json()
    tablet = anon.post("/api/v1/auth/token", body).json()  # a form post, as curl -d sends

    assert phone["token"] != tablet["token"] and AuthToken.objects.filter(user=carl).count() == 2
    stored = AuthToken.objects.get(token_key=phone["token"][:15])
    assert stored.digest == hash_token(phone["token"]) and phone["token"] not in stored.digest
    assert not AuthToken.objects.filter(digest=phone["token"]).exists()
    expiry = serializers.DateTimeField().to_internal_value(phone["expiry"])
    ttl = settings.REST_KNOX["TOKEN_TTL"]
    assert abs(expiry - (timezone.now() + ttl)) < timedelta(minutes=1) and ttl == timedelta(days=30)


def test_an_expired_token_is_refused(anon, carl):
    body = {"username": "carl", "password": "a-long-password-1"}
    key = anon.post("/api/v1/auth/token", body).json()["token"]
    AuthToken.objects.filter(user=carl).update(expiry=timezone.now() - timedelta(seconds=1))
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    assert_error(app.post("/api/v1/players", {"name": "Ada"}, format="json"), 401, "authentication_failed")
    assert not Player.objects.exists()
    assert not AuthToken.objects.filter(user=carl).exists()  # deleted when presented


def test_a_request_checks_only_its_own_token_and_beat_deletes_the_expired_ones(carl, settings):
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from api.tasks import tokens_expire
    from api.tokens import token_create

    _, key = token_create(user=carl)
    old_phone, _ = token_create(user=carl)
    AuthToken.objects.filter(pk=old_phone.pk).update(expiry=timezone.now() - timedelta(days=1))
    app = APIClient()
    app.credentials(HTTP_AUTHORIZATION=f"Token {key}")

    with CaptureQueriesContext(connection) as queries:
        assert app.post("/api/v1/players", {"name": "Ada"}, format="json").status_code == 201
    token_reads = [q["sql"] for q in queries if "knox_authtoken" in q["sql"]]

    assert len(token_reads) == 1  # the presented token with its user; not all of the user's
    assert AuthToken.objects.filter(user=carl).count() == 2  # the expired one waits for beat
    assert settings.CELERY_BEAT_SCHEDULE["tokens-expire"] == {"task": "api.tokens_expire", "schedule": 3600.0}
    assert tokens_expire.run() == 1
    assert list(AuthToken.objects.filter(user=carl).values_list("digest", flat=True)) == [
        AuthToken.objects.exclude(pk=old_phone.pk).get().digest
    ]
    assert app.post("/api/v1/players", {"name": "Bea"}, format="json").status_code == 201


def test_signing_out_revokes_this_devices_token_only(client_for, carl):
    phone, tablet = client_for(carl), client_for(carl)

    response = phone.post("/api/v1/auth/logout")

    assert response.status_code == 204
    assert_error(phone.post("/api/v1/players", {"name": "Ada"}, format="json"), 401)
    assert tablet.post("/api/v1/players", {"name": "Ada"}, format="json").status_code == 201
    assert AuthToken.objects.filter(user=carl).count() == 1
    assert_error(APIClient().post("/api/v1/auth/logout"), 401)


def test_a_token_that_is_not_text_is_a_401(anon):
    forged = "Token \xff\xfe"  # the bytes of a WSGI header, not UTF-8
    response = anon.post("/api/v1/players", {"name": "Ada"}, format="json", HTTP_AUTHORIZATION=forged)

    assert_error(response, 401, "authentication_failed")


def test_the_admin_lists_a_users_tokens(admin_client, client_for, carl):
    client_for(carl)
    key = AuthToken.objects.get(user=carl).token_key

    page = admin_client.get(f"/admin/auth/user/{carl.pk}/change/").content.decode()

    assert "API token" in page and key in page


def test_an_administrator_creates_a_token_with_manage_py(carl):
    from io import StringIO

    from django.core.management import call_command

    out = StringIO()
    call_command("token_create", "carl", stdout=out, stderr=StringIO())

    key = out.getvalue().strip()
    assert len(key) == 64 and AuthToken.objects.get(user=carl).token_key == key[:15]


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
    assert not AuthToken.objects.exists()


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
