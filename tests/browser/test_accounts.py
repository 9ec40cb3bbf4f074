"""Accounts at phone size (issue 36), in Chromium through the pages only: an invited person signs
up, opens the verification link from the captured mail, lands in the club with the invited role
and scores a hand; a forgotten password is reset through its mail; a club admin sets up TOTP and
signs in with it and with a recovery code. Every account page on the way passes axe."""

from __future__ import annotations

import re

import pytest
from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.mfa.recovery_codes.internal.auth import RecoveryCodes
from django.core import mail
from django.core.mail import EmailMultiAlternatives
from playwright.sync_api import Page, expect

from scorekeeper.clubs.models import Role
from scorekeeper.clubs.selectors import membership_of
from scorekeeper.clubs.services import club_create, invitation_create
from scorekeeper.matches.models import Match

from ..accounts.conftest import totp_code
from .piquet_pages import demo_hands, record_piquet_hand, sign_in, start_piquet_in_club
from .test_accessibility import axe_source  # noqa: F401  (the fixture)
from .test_clubs import no_axe_findings

pytestmark = pytest.mark.django_db(transaction=True)

PASSWORD = "table-side-42x"


@pytest.fixture(autouse=True)
def mail_through_the_outbox(settings):
    """The site's own path (the outbox, then the task), delivered into Django's test mailbox:
    the mail a person would open."""
    settings.EMAIL_BACKEND = "scorekeeper.outbox.mail.OutboxEmailBackend"
    settings.EMAIL_DELIVERY_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    mail.outbox = []


def link_in_last_mail(to: str) -> str:
    message = next(m for m in reversed(mail.outbox) if to in m.to)
    assert isinstance(message, EmailMultiAlternatives)
    found = re.search(r"https?://\S+", str(message.body))
    assert found, message.body
    assert found.group(0) in str(message.alternatives[0][0])  # the HTML part carries the same link
    return found.group(0)


def submit(page: Page) -> None:
    page.locator("main form button[type=submit]").first.click()


def test_an_invited_person_signs_up_verifies_joins_and_scores_a_hand(
    live_server,
    phone,
    django_user_model,
    axe_source,  # noqa: F811
):
    base = live_server.url
    alice = django_user_model.objects.create_user("alice", password=PASSWORD)
    club = club_create(by=alice, name="Cercle du Piquet", slug="cercle", public=False)
    _, code = invitation_create(club=club, by=alice, role=Role.SCORER)
    page = phone().new_page()

    page.goto(f"{base}/clubs/cercle/join/?code={code}")
    expect(page.locator("main")).to_contain_text("You are invited to join Cercle du Piquet as scorer.")
    no_axe_findings(page, axe_source, "invited")
    page.get_by_role("link", name="Create an account").click()
    no_axe_findings(page, axe_source, "sign-up")
    page.fill("input[name=email]", "nina@example.org")
    page.fill("input[name=username]", "nina")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    submit(page)
    expect(page).to_have_url(f"{base}/accounts/confirm-email/")
    no_axe_findings(page, axe_source, "verification sent")

    page.goto(link_in_last_mail("nina@example.org"))
    no_axe_findings(page, axe_source, "confirm the address")
    submit(page)
    expect(page).to_have_url(f"{base}/clubs/cercle/")
    expect(page.locator("main")).to_contain_text("You are a member of Cercle du Piquet (scorer).")
    nina = django_user_model.objects.get(username="nina")
    assert membership_of(club, nina).role == Role.SCORER

    match_url = start_piquet_in_club(page, base, "cercle")
    record_piquet_hand(page, match_url, 1, demo_hands("partie-1")[0])
    match = Match.objects.get()
    assert match.club == club and match.hands.count() == 1


def test_a_forgotten_password_is_reset_through_its_mail(live_server, phone, django_user_model, axe_source):  # noqa: F811
    base = live_server.url
    lea = django_user_model.objects.create_user("lea", email="lea@example.org", password="forgotten-1x")
    EmailAddress.objects.create(user=lea, email="lea@example.org", verified=True, primary=True)
    page = phone().new_page()

    page.goto(f"{base}/accounts/login/")
    page.get_by_role("link", name=re.compile("Forgot your password")).click()
    no_axe_findings(page, axe_source, "password reset")
    page.fill("input[name=email]", "lea@example.org")
    submit(page)
    expect(page).to_have_url(f"{base}/accounts/password/reset/done/")
    no_axe_findings(page, axe_source, "reset asked")

    page.goto(link_in_last_mail("lea@example.org"))
    no_axe_findings(page, axe_source, "new password")
    page.fill("input[name=password1]", PASSWORD)
    page.fill("input[name=password2]", PASSWORD)
    submit(page)
    sign_in(page, base, "lea", PASSWORD)


def test_a_club_admin_sets_up_totp_and_signs_in_with_it_and_with_a_recovery_code(
    live_server,
    phone,
    django_user_model,
    settings,
    axe_source,  # noqa: F811
):
    settings.MFA_REQUIRED_FOR_ADMINS = True
    settings.MFA_TOTP_TOLERANCE = 1  # two different codes within one test: the next period's too
    base = live_server.url
    alix = django_user_model.objects.create_user("alix", password=PASSWORD)
    club_create(by=alix, name="Cercle", slug="cercle")
    page = phone().new_page()

    sign_in(page, base, "alix", PASSWORD)  # … and is sent to set up a second factor
    expect(page).to_have_url(re.compile(r"/accounts/reauthenticate/"))
    no_axe_findings(page, axe_source, "confirm the password")
    page.fill("input[name=password]", PASSWORD)
    submit(page)
    expect(page).to_have_url(re.compile(r"/accounts/2fa/totp/activate/"))
    no_axe_findings(page, axe_source, "set up the app")
    secret = page.locator("#authenticator_secret").input_value()
    page.fill("input[name=code]", totp_code(secret))
    submit(page)
    authenticators = Authenticator.objects.filter(user=alix)
    expect(page.locator("main")).not_to_contain_text("Activate Authenticator App")
    codes = RecoveryCodes(authenticators.get(type=Authenticator.Type.RECOVERY_CODES)).get_unused_codes()
    for path in ("/accounts/2fa/", "/accounts/sessions/", "/accounts/email/", "/accounts/delete/"):
        page.goto(f"{base}{path}")
        no_axe_findings(page, axe_source, path)
    page.goto(f"{base}/clubs/cercle/settings/")
    expect(page).to_have_url(f"{base}/clubs/cercle/settings/")  # the club's pages are open now

    for second_factor in (totp_code(secret, step=1), codes[0]):
        other = phone().new_page()
        other.goto(f"{base}/accounts/login/")
        other.fill("input[name=login]", "alix")
        other.fill("input[name=password]", PASSWORD)
        submit(other)
        expect(other).to_have_url(re.compile(r"/accounts/2fa/authenticate/"))
        no_axe_findings(other, axe_source, "second factor")
        other.fill("input[name=code]", second_factor)
        submit(other)
        expect(other.locator("header.top .who")).to_have_text("alix")
    assert (
        codes[0]
        not in RecoveryCodes(authenticators.get(type=Authenticator.Type.RECOVERY_CODES)).get_unused_codes()
    )
