"""The boards of issue 21 on a phone: a leaderboard with the provisional players apart, a
profile whose rating changes are explained, a season board and its refused range."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from ratings.services import rating_events_process_all
from scorekeeper.matches.services import hand_record, match_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def league(tally, make_players, user):
    """Ada and Bea six matches (Ada wins five), Cid and Dan two: two established, two new."""
    ada, bea, cid, dan = make_players("Ada", "Bea", "Cid", "Dan")
    for i in range(6):
        match = match_create(game="tally", players=[ada, bea], by=user)
        hand_record(match=match, record=hand([10, 3] if i != 2 else [3, 10]), by=user)
    for _ in range(2):
        match = match_create(game="tally", players=[cid, dan], by=user)
        hand_record(match=match, record=hand([10, 4]), by=user)
    rating_events_process_all()
    return {"Ada": ada, "Bea": bea, "Cid": cid, "Dan": dan}


def fits_the_phone(page) -> bool:
    """Nothing wider than the phone: wide tables scroll inside their own box."""
    return page.evaluate("document.scrollingElement.scrollWidth <= window.innerWidth")


def test_the_leaderboard_shows_the_established_players_and_the_provisional_ones_apart(
    live_server, page, league
):
    page.goto(f"{live_server.url}/leaderboards/tally/")

    established = page.locator("#established tbody tr")
    expect(established).to_have_count(2)
    expect(established.first).to_contain_text("Ada")
    expect(established.first.locator("td.rating")).to_contain_text("±")
    expect(page.locator("#established")).to_contain_text("A rating starts at 1500")
    newcomers = page.locator("#provisional tbody tr")
    expect(newcomers).to_have_count(2)
    expect(newcomers.first).to_contain_text("2 of 5")
    assert fits_the_phone(page)


def test_the_profile_explains_each_rating_change(live_server, page, league):
    page.goto(f"{live_server.url}/leaderboards/tally/")
    page.get_by_role("link", name="Bea").first.click()

    expect(page.locator("h1")).to_have_text("Bea")
    expect(page.locator(".rating .figures")).to_contain_text("Rank on the board")
    explained = page.locator(".matches .explained")
    expect(explained).to_have_count(6)
    expect(explained.first).to_contain_text(" % to win, ")
    expect(page.locator(".matches")).to_contain_text(re.compile(r"won \d+–\d+: \+"))  # with the score
    expect(page.locator(".matches")).to_contain_text(re.compile(r"lost \d+–\d+: −"))
    assert fits_the_phone(page)


def test_a_season_board_and_a_refused_range(live_server, page, league):
    page.goto(f"{live_server.url}/leaderboards/tally/")
    page.get_by_role("link", name="this season").click()
    page.get_by_role("link", name="This year").click()

    rows = page.locator("table.season tbody tr")
    expect(rows).to_have_count(4)
    expect(rows.first).to_contain_text("Ada")
    expect(rows.first.locator("td").nth(3)).to_have_text("6")  # his matches in the period
    assert fits_the_phone(page)

    page.get_by_label("From", exact=True).fill("2026-12-31")
    page.get_by_label("To", exact=True).fill("2026-01-01")
    page.get_by_role("button", name="Show").click()
    expect(page.locator(".season-form .error")).to_contain_text("The period ends before it starts")
