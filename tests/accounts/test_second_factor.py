"""Two-factor sign-in (allauth's TOTP and recovery codes): offered to everyone, required of club
admins and staff on the pages and for an API token (issue 36)."""

from __future__ import annotations

import re

import pytest
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Role

from .conftest import totp_code

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"


@pytest.fixture(autouse=True)
def required(settings):
    settings.MFA_REQUIRED_FOR_ADMINS = True


@pytest.fixture
def people(django_user_model):
    admin = django_user_model.objects.create_user("alix", password=PASSWORD)
    member = django_user_model.objects.create_user("mo", password=PASSWORD)
    club = clubs.club_create(by=admin, name="Cercle", slug="cercle")
    clubs.member_set(club=club, user=member, role=Role.MEMBER, by=admin)
    return {"admin": admin, "member": member, "club": club}


def sign_in(username: str, password: str = PASSWORD) -> tuple[Client, object]:
    client = Client()
    return client, client.post(reverse("login"), {"login": username, "password": password})


def enrol(client: Client) -> str:
    """Set up TOTP on the page as a person does: confirm the password (allauth asks for it again
    before a change of second factor), read the secret, type the app's code."""
    asked = client.get(reverse("mfa_activate_totp"))
    assert asked.status_code == 302 and asked["Location"].startswith(reverse("account_reauthenticate"))
    assert client.post(asked["Location"], {"password": PASSWORD}).status_code == 302
    page = client.get(reverse("mfa_activate_totp")).content.decode()
    assert "<svg" in page and "data:image" not in page  # drawn inline: the CSP keeps img-src 'self'
    found = re.search(r'id="authenticator_secret" type="text" value="([A-Z2-7]+)"', page)
    assert found, page
    secret = found.group(1)
    assert client.post(reverse("mfa_activate_totp"), {"code": totp_code(secret)}).status_code == 302
    return secret


def token(username: str, **extra):
    return APIClient().post(
        "/api/v1/auth/token", {"username": username, "password": PASSWORD, **extra}, format="json"
    )


def test_a_club_admin_is_sent_to_set_up_a_second_factor_before_any_page(people):
    client, _ = sign_in("alix")
    club_page = reverse("club-home", args=["cercle"])

    sent = client.get(club_page)
    assert sent.status_code == 302 and sent.url.startswith(reverse("mfa_activate_totp"))
    enrol(client)

    assert client.get(club_page).status_code == 200
    assert Authenticator.objects.filter(user=people["admin"], type=Authenticator.Type.TOTP).exists()


def test_a_member_is_offered_it_and_not_made_to(people):
    client, _ = sign_in("mo")

    assert client.get(reverse("club-home", args=["cercle"])).status_code == 200
    assert client.get(reverse("mfa_index")).status_code == 200


def test_an_enrolled_admin_signs_in_with_the_apps_code_and_with_a_recovery_code(people):
    client, _ = sign_in("alix")
    secret = enrol(client)
    codes = RecoveryCodes(
        Authenticator.objects.get(user=people["admin"], type=Authenticator.Type.RECOVERY_CODES)
    ).get_unused_codes()

    phone, first_step = sign_in("alix")
    assert first_step.url == reverse("mfa_authenticate") and "_auth_user_id" not in phone.session
    wrong = phone.post(reverse("mfa_authenticate"), {"code": "000000"})
    right = phone.post(reverse("mfa_authenticate"), {"code": totp_code(secret, step=1)})
    assert wrong.status_code == 200 and right.status_code == 302 and "_auth_user_id" in phone.session

    laptop, _ = sign_in("alix")
    assert laptop.post(reverse("mfa_authenticate"), {"code": codes[0]}).status_code == 302
    again, _ = sign_in("alix")
    assert again.post(reverse("mfa_authenticate"), {"code": codes[0]}).status_code == 200  # spent


def test_the_api_gives_a_token_only_after_the_second_factor(people):
    assert token("alix").json()["code"] == "second_factor_setup_required"
    client, _ = sign_in("alix")
    secret = enrol(client)
    codes = RecoveryCodes(
        Authenticator.objects.get(user=people["admin"], type=Authenticator.Type.RECOVERY_CODES)
    ).get_unused_codes()

    missing, wrong = token("alix"), token("alix", code="123456")
    by_app, by_recovery = token("alix", code=totp_code(secret, step=1)), token("alix", code=codes[1])
    spent = token("alix", code=codes[1])

    assert (missing.status_code, missing.json()["code"], missing.json()["field"]) == (
        400,
        "second_factor_required",
        "code",
    )
    assert (wrong.status_code, wrong.json()["code"]) == (400, "second_factor_invalid")
    assert by_app.status_code == 200 and by_app.json()["token"]
    assert by_recovery.status_code == 200
    assert spent.json()["code"] == "second_factor_invalid"
    assert token("mo").status_code == 200  # a member without one: as before


def test_staff_are_held_to_it_in_the_admin_too(django_user_model):
    django_user_model.objects.create_user("sid", password=PASSWORD, is_staff=True)
    client, _ = sign_in("sid")

    response = client.get("/admin/")

    assert response.status_code == 302 and response.url.startswith(reverse("mfa_activate_totp"))
