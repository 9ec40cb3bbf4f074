"""The live check's traffic in a real browser: debounced, one request in flight, a stale
answer dropped, the page's language sent; and the page without JavaScript as before.

The check requests are held in Playwright's router and let through one at a time, so what
the page sends, and when, is seen exactly.
"""

from __future__ import annotations

import re
from urllib.parse import parse_qs

import pytest
from playwright.sync_api import expect

from scorekeeper.matches.services import match_create, player_create

from .piquet_pages import demo_hands, fill_piquet_hand, save, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(django_user_model):
    user = django_user_model.objects.create_user("marie", password="table-side-42")
    players = [player_create(name=name, by=user) for name in ("Anne", "Bruno")]
    return match_create(game="piquet", players=players, by=user)


def test_checks_are_debounced_one_at_a_time_and_stale_answers_dropped(live_server, page, table):
    sign_in(page, live_server.url, "marie", "table-side-42")
    held = []
    page.route("**/hands/check/", lambda route: held.append(route))
    page.goto(f"{live_server.url}/matches/{table.pk}/hands/new/")
    fill_piquet_hand(page, demo_hands("partie-1")[0])
    page.wait_for_timeout(600)
    assert len(held) == 1, "a burst of typing makes one request, 300 ms after the last key"
    sent = parse_qs(held[0].request.post_data)
    assert sent["declared_0"] == ["43"] and sent["tricks"] == ["011111000000"]
    assert held[0].request.headers["accept-language"] == "en"

    page.locator("input[name=declared_0]").press_sequentially("9", delay=30)  # 439, while one is out
    page.wait_for_timeout(600)
    assert len(held) == 1, "the next check waits for the one in flight"

    held[0].continue_()  # the answer to "43": stale now, dropped
    page.wait_for_timeout(300)
    assert len(held) == 2, "the waiting check goes out when the first answers"
    assert parse_qs(held[1].request.post_data)["declared_0"] == ["439"]
    expect(page.locator("#live-declared_0")).to_be_empty()  # "43" valid was never shown
    held[1].continue_()
    expect(page.locator("#live-declared_0")).to_contain_text("The rules give 43, not 439")


def test_the_form_works_without_javascript_as_before(live_server, phone, table):
    page = phone(java_script_enabled=False).new_page()
    sign_in(page, live_server.url, "marie", "table-side-42")
    checks = []
    page.on("request", lambda r: checks.append(r.url) if "/check/" in r.url else None)
    page.goto(f"{live_server.url}/matches/{table.pk}/hands/new/")
    hand = demo_hands("partie-1")[0]
    fill_piquet_hand(page, {**hand, "declared": [40, 23]})
    save(page)
    # The server's own check: the mismatch and why, the accept box offered, nothing saved.
    expect(page).to_have_url(re.compile(r"/hands/new/$"))
    expect(page.locator("[data-live-accept]")).to_be_visible()
    expect(page.locator("main")).to_contain_text("rules give 43")
    page.fill("input[name=declared_0]", "43")
    save(page)
    expect(page.locator("[role=status].alert.success")).to_have_text("Hand 1 recorded.")
    assert checks == []


def test_a_valid_hand_says_so_and_each_seats_score(live_server, page, table):
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{table.pk}/hands/new/")
    expect(page.locator("[data-live-accept]")).to_be_hidden()  # until a mismatch appears
    expect(page.locator("#live-summary")).to_be_hidden()  # nothing typed: nothing said
    fill_piquet_hand(page, demo_hands("partie-1")[0])
    wait_checked(page)
    expect(page.locator("#live-summary")).to_have_text("The hand is valid.")
    expect(page.locator("[data-live-accept]")).to_be_hidden()
    expect(page.locator("#live-declared_0")).to_have_text("The rules give 43.")


def test_a_mismatch_kept_with_a_reason_can_be_saved_as_disputed(live_server, page, table):
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{table.pk}/hands/new/")
    fill_piquet_hand(page, {**demo_hands("partie-1")[0], "declared": [40, 23]})
    wait_checked(page)
    button = page.locator("#hand-form .actions button[type=submit]")
    expect(button).to_have_attribute("aria-disabled", "true")

    page.locator("[data-live-accept] label.check").click()
    wait_checked(page)
    expect(button).to_have_attribute("aria-disabled", "true")  # accepting needs a reason
    page.fill("input[name=reason]", "we agreed on 40 at the table")
    wait_checked(page)
    expect(button).not_to_have_attribute("aria-disabled", "true")
    save(page)
    expect(page.locator("[role=status].alert:not(#offline-banner)")).to_contain_text("recorded as disputed")
