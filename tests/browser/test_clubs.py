"""A club at phone size (issue 33), in Chromium through the pages only: its admin makes an
invitation for a scorer; the scorer, on her own phone, opens its link and joins; she starts a
piquet partie in the club with two new players and scores its six deals; the club's home leads
to its board, which ranks them. Every club page on the way passes axe (no violation, nothing
serious left to review)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.clubs.models import Role
from scorekeeper.clubs.selectors import membership_of
from scorekeeper.clubs.services import club_create
from scorekeeper.matches.models import Match

from .piquet_pages import demo_hands, record_piquet_hand, sign_in, start_piquet_in_club
from .test_accessibility import axe, axe_source  # noqa: F401  (axe_source: the fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def no_axe_findings(page, source: str, name: str) -> None:
    found = axe(page, source)
    assert found == {"violations": [], "review": []}, f"{name}: {found}"
    wider = page.evaluate(
        """() => [...document.querySelectorAll("body *")]
          .filter((e) => e.getBoundingClientRect().right > 390)
          .map((e) => `${e.tagName}.${e.className} ${Math.round(e.getBoundingClientRect().right)}`)"""
    )
    assert page.evaluate("document.documentElement.scrollWidth") <= 390, f"{name} is too wide: {wider}"


def test_an_admin_invites_a_scorer_who_scores_a_partie_the_clubs_board_ranks(
    live_server,
    phone,
    django_user_model,
    axe_source,  # noqa: F811
):
    base = live_server.url
    alice = django_user_model.objects.create_user("alice", password="club-admin-42")
    club = club_create(by=alice, name="Cercle du Piquet", slug="cercle", description="Tuesdays at eight.")
    nina = django_user_model.objects.create_user("nina", password="table-side-42")

    # The admin makes an invitation for a scorer.
    admin = phone().new_page()
    sign_in(admin, base, "alice", "club-admin-42")
    admin.goto(f"{base}/clubs/cercle/invitations/")
    no_axe_findings(admin, axe_source, "invitations")
    admin.select_option("select[name=role]", Role.SCORER.value)
    admin.get_by_role("button", name="Make the invitation").click()
    link = admin.locator("a.invitation-link").get_attribute("href")
    assert link and "code=" in link
    no_axe_findings(admin, axe_source, "invitations with the new code")
    for path in ("/clubs/cercle/settings/", "/clubs/cercle/members/", "/clubs/cercle/requests/"):
        admin.goto(f"{base}{path}")
        no_axe_findings(admin, axe_source, path)

    # The scorer opens the link on her own phone and joins.
    scorer = phone().new_page()
    sign_in(scorer, base, "nina", "table-side-42")
    scorer.goto(link)
    expect(scorer.locator("h1")).to_contain_text("Join Cercle du Piquet")
    no_axe_findings(scorer, axe_source, "join")
    scorer.get_by_role("button", name="Join").click()
    expect(scorer).to_have_url(f"{base}/clubs/cercle/")
    expect(scorer.locator("main")).to_contain_text("You are a member (scorer).")
    assert membership_of(club, nina).role == Role.SCORER

    # She starts a piquet partie in the club with two new players …
    match_url = start_piquet_in_club(scorer, base, "cercle")
    match = Match.objects.get()
    assert match.club == club

    # … and scores its six deals.
    for number, hand in enumerate(demo_hands("partie-1"), 1):
        record_piquet_hand(scorer, match_url, number, hand)
    match.refresh_from_db()
    assert match.status == Match.Status.FINISHED

    # The club's home shows the match and leads to the club's piquet board, which ranks both.
    scorer.goto(f"{base}/clubs/cercle/")
    expect(scorer.locator("main")).to_contain_text("Anne")
    no_axe_findings(scorer, axe_source, "club home")
    scorer.locator("ul.boards").get_by_role("link", name=re.compile("Piquet")).click()
    expect(scorer).to_have_url(f"{base}/clubs/cercle/board/piquet/")
    board = scorer.locator("main")
    expect(board).to_contain_text("Anne")
    expect(board).to_contain_text("Bruno")
    no_axe_findings(scorer, axe_source, "club board")

    # An outsider signed in elsewhere sees the public club's board too; the club list names it.
    scorer.goto(f"{base}/clubs/")
    expect(scorer.locator("main")).to_contain_text("Cercle du Piquet")
    no_axe_findings(scorer, axe_source, "club list")
