"""Sign-up from a club's invitation: the email address verified by a link before the account may
sign in or score; the invitation's club and role applied on verification; open sign-up off by
default (issue 36)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from scorekeeper.accounts.models import PendingInvitation
from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Role
from scorekeeper.clubs.selectors import membership_of

from .conftest import link_in, sent_mails

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"


@pytest.fixture
def club(django_user_model):
    admin = django_user_model.objects.create_user("admin", password=PASSWORD)
    return clubs.club_create(by=admin, name="Cercle", slug="cercle", public=False)


def invitation_link(club, role=Role.SCORER, max_uses=1) -> tuple[str, object]:
    invitation, code = clubs.invitation_create(club=club, by=club.created_by, role=role, max_uses=max_uses)
    return f"{reverse('club-join', args=[club.slug])}?code={code}", invitation


def sign_up(client: Client, username="nina", email="nina@example.org"):
    return client.post(
        reverse("account_signup"),
        {"username": username, "email": email, "password1": PASSWORD, "password2": PASSWORD},
    )


def test_an_invited_person_signs_up_verifies_and_joins_in_the_invited_role(club, django_user_model):
    link, invitation = invitation_link(club)
    client = Client()

    landing = client.get(link, follow=True)
    assert landing.status_code == 200 and "Cercle" in landing.content.decode()
    assert client.get(reverse("account_signup")).status_code == 200
    response = sign_up(client)

    assert response.status_code == 302 and response.url == reverse("account_email_verification_sent")
    nina = django_user_model.objects.get(username="nina")
    assert membership_of(club, nina) is None  # not before the address is verified
    assert PendingInvitation.objects.get(user=nina).invitation == invitation
    [mail] = sent_mails()
    assert mail["to"] == ["nina@example.org"]
    assert [mimetype for _, mimetype in mail["alternatives"]] == ["text/html"]
    html = mail["alternatives"][0][0]
    assert link_in(mail) in html  # the HTML says what the text says

    # Not signed in, and no token, until the link is opened.
    fresh = Client()
    assert fresh.post(reverse("login"), {"login": "nina", "password": PASSWORD}).url == reverse(
        "account_email_verification_sent"
    )
    assert "_auth_user_id" not in fresh.session
    token = APIClient().post("/api/v1/auth/token", {"username": "nina", "password": PASSWORD}, format="json")
    assert token.status_code == 400 and token.json()["code"] == "email_unverified"

    confirm = link_in(mail)
    assert client.get(confirm).status_code == 200  # a page with a button: mail scanners only look
    assert membership_of(club, nina) is None
    verified = client.post(confirm)

    assert verified.status_code == 302 and verified.url == reverse("club-home", args=["cercle"])
    assert membership_of(club, nina).role == Role.SCORER
    assert PendingInvitation.objects.get(user=nina).applied_at is not None
    home = client.get(verified.url)
    assert home.status_code == 200 and "You are a member of Cercle (scorer)." in home.content.decode()


def test_an_invitation_used_up_before_the_verification_leaves_the_account_outside(club, django_user_model):
    link, invitation = invitation_link(club, max_uses=1)
    client = Client()
    client.get(link, follow=True)
    sign_up(client)
    taker = django_user_model.objects.create_user("taker")
    clubs.invitation_accept(invitation=invitation, by=taker)  # the last use, taken meanwhile

    verified = client.post(link_in(sent_mails()[0]))

    nina = django_user_model.objects.get(username="nina")
    assert verified.status_code == 302 and membership_of(club, nina) is None
    assert PendingInvitation.objects.get(user=nina).refused_at is not None


def test_sign_up_is_closed_without_an_invitation_unless_the_site_opens_it(settings, club):
    closed = Client().get(reverse("account_signup"))
    refused = sign_up(Client())

    assert closed.status_code == 200 and 'name="password1"' not in closed.content.decode()
    assert refused.status_code == 200 and not sent_mails()

    settings.SIGNUP_OPEN = True
    assert 'name="password1"' in Client().get(reverse("account_signup")).content.decode()


def test_a_bad_invitation_link_says_so_and_opens_nothing(club):
    client = Client()

    response = client.get(reverse("account-invited"), {"club": "cercle", "code": "not-a-code"})

    assert response.status_code == 400 and "not valid" in response.content.decode()
    assert 'name="password1"' not in client.get(reverse("account_signup")).content.decode()


def test_a_code_given_at_the_table_is_typed_on_the_invitation_page(club, django_user_model):
    _, code = clubs.invitation_create(club=club, by=club.created_by, role=Role.MEMBER)
    client = Client()

    form = client.get(reverse("account-invited"))
    found = client.get(reverse("account-invited"), {"code": code})
    sign_up(client, username="paul", email="paul@example.org")
    client.post(link_in(sent_mails()[-1]))

    assert form.status_code == 200 and 'name="code"' in form.content.decode()
    assert found.status_code == 200 and "Cercle" in found.content.decode()
    assert membership_of(club, django_user_model.objects.get(username="paul")).role == Role.MEMBER


def test_a_person_with_an_account_signs_in_and_joins_from_the_link(club, django_user_model):
    django_user_model.objects.create_user("marc", password=PASSWORD)
    link, _ = invitation_link(club, role=Role.DIRECTOR)
    client = Client()
    landing = client.get(link, follow=True).content.decode()
    signin = re.search(r'href="([^"]+)">Sign in and join<', landing).group(1).replace("&amp;", "&")

    signed_in = client.post(signin, {"login": "marc", "password": PASSWORD})
    assert signed_in.url == link  # back to the link, now signed in
    joined = client.post(link, {"code": link.split("code=")[1]})

    assert joined.status_code == 302 and joined.url == reverse("club-home", args=["cercle"])
    assert membership_of(club, django_user_model.objects.get(username="marc")).role == Role.DIRECTOR


def test_the_messages_speak_the_readers_language(club):
    link, _ = invitation_link(club)
    client = Client(HTTP_ACCEPT_LANGUAGE="fr")
    client.get(link, follow=True)

    sign_up(client)

    [mail] = sent_mails()
    with translation.override("fr"):
        subject = translation.gettext("Please Confirm Your Email Address")
    assert subject != "Please Confirm Your Email Address" and subject in mail["subject"]
    assert "adresse" in mail["body"] and "adresse" in mail["alternatives"][0][0]
