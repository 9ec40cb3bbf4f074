"""A whole piquet partie scored on a phone (390×844) in Chromium, through the pages only.

Sign in, start a match with two new players, record the six deals of the demo's partie: one
by the trick tapper, one with a declared score typed wrong (the live message appears by the
seat, Save is held back, the scorer fixes it), one with a rule error on its field. Then the
fourth deal is corrected to the Rubicon partie's (tests/data/conformance/piquet.json
``partie-rubicon``): the later deals are re-checked and the result becomes a rubicon. The
result and the rating it gave are then on the score sheet, the leaderboard and the profile.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.matches.models import Hand, Match

from .piquet_pages import demo_hands, fill_piquet_hand, save, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)


def test_a_whole_partie_with_a_live_fix_and_a_correction(live_server, page, django_user_model):
    django_user_model.objects.create_user("marie", password="table-side-42")
    base = live_server.url
    sign_in(page, base, "marie", "table-side-42")

    # A new match: piquet, two new players.
    page.click("header.top >> text=New match")
    page.click('a[href="/matches/new/piquet/"]')
    page.fill("input[name=new_0]", "Anne")
    page.fill("input[name=new_1]", "Bruno")
    page.click("button:has-text('Start the match')")
    expect(page.locator(".alert.success")).to_contain_text("Match created")
    match_url = page.url
    match = Match.objects.get()

    partie = demo_hands("partie-1")  # deal 4 as partie-1's, corrected to the rubicon's below
    rubicon = demo_hands("partie-rubicon")
    assert partie[4:] == rubicon[4:] and partie[3] != rubicon[3]
    summary = page.locator("#live-summary")
    for n, hand in enumerate(partie, 1):
        page.goto(match_url)
        page.click(f"a:has-text('Record hand {n}')")
        expect(page.locator("h1")).to_contain_text(f"Record hand {n}")
        fill_piquet_hand(page, hand, tap_tricks=n == 1)
        if n == 2:
            # A's 12 typed as 21: the live check says so by A's score before anything is saved.
            page.fill("input[name=declared_0]", "21")
            wait_checked(page)
            expect(page.locator("#live-declared_0")).to_contain_text("The rules give 12, not 21")
            expect(page.locator("input[name=declared_0]")).to_have_class(re.compile(r"\blive-mismatch\b"))
            expect(page.locator("#live-declared_1")).to_have_text("The rules give 30.")
            expect(page.locator("[data-live-accept]")).to_be_visible()
            expect(summary).to_contain_text("The declared scores differ from the rules")
            button = page.locator("#hand-form .actions button[type=submit]")
            expect(button).to_have_attribute("aria-disabled", "true")
            button.click(force=True)  # a tap is held back: the page says why instead of sending
            expect(page).to_have_url(re.compile(r"/hands/new/$"))
            assert Hand.objects.filter(match=match).count() == 1
            page.fill("input[name=declared_0]", "12")
            wait_checked(page)
            expect(page.locator("#live-declared_0")).to_have_text("The rules give 12.")
            expect(page.locator("input[name=declared_0]")).not_to_have_class(re.compile("live-mismatch"))
            expect(button).not_to_have_attribute("aria-disabled", "true")
        if n == 3:
            # A point of five cards cannot count 80: the rule's message by the pips.
            page.fill("input[name=point_pips]", "80")
            wait_checked(page)
            expect(page.locator("#live-point_pips")).not_to_be_empty()
            expect(summary).to_contain_text("The rules refuse this hand")
            page.fill("input[name=point_pips]", str(hand["point"]["pips"]))
        wait_checked(page)
        expect(summary).to_contain_text("The hand is valid.")
        save(page)
        expect(page.locator("[role=status].alert.success")).to_have_text(f"Hand {n} recorded.")

    match.refresh_from_db()
    assert match.status == "finished"
    result = match.result
    assert (result["totals"], result["rubiconed"], result["points_won"]) == ([134, 119], False, 115)

    # Deal 4 was not what was played: correct it to the rubicon partie's.
    page.goto(match_url)
    page.locator("table a", has_text=re.compile(r"^4\b")).first.click()
    page.click("text=Correct this hand")
    expect(page.locator("h1")).to_contain_text("Correct hand 4")
    wait_checked(page)  # pre-filled: checked at once, valid as stored
    expect(summary).to_contain_text("The hand is valid.")
    fill_piquet_hand(page, rubicon[3])
    page.fill("input[name=declared_1]", "41")  # the old claim: the live check objects
    wait_checked(page)
    expect(page.locator("#live-declared_1")).to_contain_text("The rules give 20, not 41")
    page.fill("input[name=declared_1]", "20")
    page.fill("input[name=reason]", "deal 4 was misread")
    wait_checked(page)
    expect(summary).to_contain_text("The hand is valid.")
    save(page)
    expect(page.locator("[role=status].alert.success")).to_have_text("Hand 4 corrected.")

    match.refresh_from_db()
    assert match.status == "finished"
    result = match.result
    assert (result["totals"], result["rubiconed"], result["points_won"]) == ([134, 98], True, 332)

    # The result on the score sheet, in words.
    page.goto(match_url)
    result = page.locator("section.result")
    expect(result).to_contain_text("Anne")
    expect(result).to_contain_text(re.compile("rubicon", re.I))
    expect(result).to_contain_text("332")
    expect(result.locator("tr.first")).to_contain_text("Anne")

    # The leaderboard: both players rated, Anne above Bruno.
    page.goto(f"{base}/leaderboards/piquet/")
    rows = page.locator("table.board tbody tr")
    expect(rows).to_have_count(2)
    expect(rows.nth(0)).to_contain_text("Anne")
    expect(rows.nth(1)).to_contain_text("Bruno")

    # Anne's profile: her rating, its chart, the match with the rating change.
    rows.nth(0).locator("a").click()
    expect(page.locator("h1")).to_contain_text("Anne")
    rating = page.locator("#rating-piquet")
    expect(rating).to_contain_text("Rating")
    expect(rating.locator("svg")).to_have_count(1)
    explained = re.compile(r"rating \d+ → \d+ \(\d+ % to win, \w+ \d+–\d+: [+−]\d+\)")
    expect(page.locator("main")).to_contain_text(explained)
