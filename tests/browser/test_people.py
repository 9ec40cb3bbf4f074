"""Head-to-head and the player merge on a phone (issue 21): a profile's head-to-head section
leads to the two players' page with their matches, running record and chances; a staff user
merges a duplicate in the admin, and his matches and ratings move to the real player, whose
page his old address now opens."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ratings.models import PlayerRating
from scorekeeper.matches.models import Seat
from scorekeeper.matches.services import hand_record, match_create, player_create
from tests.fakes import hand

from .piquet_pages import sign_in

pytestmark = pytest.mark.django_db(transaction=True)


def finish(players, points, by):
    match = match_create(game="tally", players=players, by=by)
    hand_record(match=match, record=hand(points), by=by)
    return match


def fits_the_phone(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def test_a_profile_shows_the_head_to_head_and_leads_to_the_pair_page(
    live_server, phone, tally, django_user_model
):
    user = django_user_model.objects.create_user("marie", password="table-side-42")
    ada, bea, cid = (player_create(name=name, by=user) for name in ("Ada", "Bea", "Cid"))
    finish([ada, bea], [10, 3], user)
    finish([bea, ada], [10, 2], user)
    finish([ada, bea], [10, 4], user)
    finish([ada, cid], [10, 1], user)
    page = phone().new_page()

    page.goto(f"{live_server.url}/players/{ada.pk}/")
    section = page.locator("#head-to-head")
    expect(section).to_be_visible()
    first = section.locator("tbody tr").first
    expect(first).to_contain_text("Bea")
    expect(first).to_contain_text("2–1–0")
    expect(first).to_contain_text(re.compile(r"\d+ %"))
    assert fits_the_phone(page)

    first.get_by_role("link", name="Bea").click()
    expect(page).to_have_url(f"{live_server.url}/players/{ada.pk}/vs/{bea.pk}/")
    expect(page.locator("h1")).to_have_text("Ada vs Bea")
    expect(page.locator("li.meeting")).to_have_count(3)
    expect(page.locator("li.meeting").first).to_contain_text("2–1–0")
    expect(page.locator("#chances tbody tr")).to_have_count(1)
    assert fits_the_phone(page)


def test_a_staff_merge_in_the_admin_moves_the_matches_and_ratings(
    live_server, phone, tally, django_user_model
):
    staff = django_user_model.objects.create_user(
        "clerk", password="table-side-42", is_staff=True, is_superuser=True
    )
    jakob, duplicate, bea = (player_create(name=name, by=staff) for name in ("Jakob", "Jakob S.", "Bea"))
    finish([jakob, bea], [10, 3], staff)
    finish([duplicate, bea], [10, 3], staff)
    finish([bea, duplicate], [10, 3], staff)
    assert PlayerRating.objects.get(player=jakob).matches == 1
    page = phone().new_page()
    sign_in(page, live_server.url, "clerk", "table-side-42")

    page.goto(f"{live_server.url}/admin/matches/player/")
    page.locator(f'input[name="_selected_action"][value="{duplicate.pk}"]').check()
    page.select_option('select[name="action"]', "merge")
    page.locator('button[name="index"], input[name="index"]').first.click()
    page.select_option('select[name="into"]', str(jakob.pk))
    page.locator('input[name="apply"]').click()
    expect(page.locator(".messagelist")).to_contain_text("Jakob S. merged into Jakob: 2 matches moved")

    assert Seat.objects.filter(player=duplicate).count() == 0
    rating = PlayerRating.objects.get(player=jakob)  # the recompute ran after the merge's commit
    assert rating.matches == 3 and not PlayerRating.objects.filter(player=duplicate).exists()
    page.goto(f"{live_server.url}/players/{duplicate.pk}/")
    expect(page).to_have_url(f"{live_server.url}/players/{jakob.pk}/")
    expect(page.locator("ul.matches > li")).to_have_count(3)
    page.goto(f"{live_server.url}/players/{bea.pk}/")
    expect(page.locator("#head-to-head tbody tr")).to_have_count(1)  # Jakob only, three meetings
    expect(page.locator("#head-to-head tbody tr")).to_contain_text("Jakob")
