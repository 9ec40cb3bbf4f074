"""What a scorekeeper does on the pages, step by step, for the browser tests (Playwright, sync)."""

from __future__ import annotations

import json
import re
from typing import Any

from playwright.sync_api import Page, expect

from scorekeeper.devtools import DEMO_DATA

DEMO = DEMO_DATA / "piquet.json"


def demo_hands(case: str) -> list[dict[str, Any]]:
    """The hands of one of the demo's piquet parties (conformance cases, all valid)."""
    return next(c for c in json.loads(DEMO.read_text()) if c["id"] == case)["hands"]


def sign_in(page: Page, base: str, username: str, password: str) -> None:
    page.goto(f"{base}/accounts/login/")
    page.fill("input[name=login]", username)
    page.fill("input[name=password]", password)
    page.click("main form button[type=submit]")
    expect(page.locator("header.top .who")).to_have_text(username)


def choose(page: Page, field: str, value: str) -> None:
    """Tap the option of a radio field (the input is hidden under its button-like label)."""
    page.locator(f'.field[data-field="{field}"] label.opt:has(input[value="{value}"])').click()


def scorer_value(category: dict[str, Any] | None) -> str:
    if category is None:
        return ""  # nobody
    return "equal" if category["scorer"] is None else str(category["scorer"])


def fill_piquet_hand(page: Page, hand: dict[str, Any], *, tap_tricks: bool = False) -> None:
    """Type a two-hand piquet record (spec 2) into the hand form, as a person would."""
    choose(page, "dealer", str(hand["dealer"]))
    point = hand["point"]
    choose(page, "point_scorer", scorer_value(point))
    page.fill("input[name=point_cards]", str(point["cards"]) if point else "")
    page.fill("input[name=point_pips]", str(point["pips"]) if point else "")
    sequences = hand["sequences"]
    choose(page, "sequences_scorer", scorer_value(sequences))
    runs = " ".join(f"{r['length']}{r['top']}" for r in sequences["runs"]) if sequences else ""
    page.fill("input[name=sequences_runs]", runs)
    sets = hand["sets"]
    choose(page, "sets_scorer", scorer_value(sets))
    counts = " ".join(f"{s['count']}{s['rank']}" for s in sets["sets"]) if sets else ""
    page.fill("input[name=sets_sets]", counts)
    if tap_tricks:
        page.fill("input[name=tricks]", "")
        tapper = page.locator(".tapper")
        for seat in hand["tricks"]:
            tapper.locator(f'button[data-seat="{seat}"]').click()
        expect(tapper.locator("[data-count]")).to_have_text(f"{len(hand['tricks'])} tricks")
    else:
        page.fill("input[name=tricks]", "".join(map(str, hand["tricks"])))
    for seat, score in enumerate(hand["declared"]):
        page.fill(f"input[name=declared_{seat}]", str(score))


def wait_checked(page: Page) -> None:
    """Until the live check has answered for the form as it is now."""
    expect(page.locator("#hand-form")).to_have_attribute("data-live-state", re.compile("^done$"))


def save(page: Page) -> None:
    page.locator("#hand-form .actions button[type=submit]").click()


def start_piquet_in_club(page: Page, base: str, club: str, players=("Anne", "Bruno")) -> str:
    """Start a piquet partie in ``club`` with two new players, on the new-match page; its URL."""
    page.goto(f"{base}/matches/new/piquet/")
    page.select_option("select[name=club]", club)
    for seat, name in enumerate(players):
        page.fill(f"input[name=new_{seat}]", name)
    page.click("button:has-text('Start the match')")
    expect(page.locator(".alert.success")).to_contain_text("Match created")
    return page.url.rstrip("/")


def record_piquet_hand(page: Page, match_url: str, number: int, hand: dict[str, Any]) -> None:
    """Record hand ``number`` of the partie at ``match_url`` on its hand form, checked live."""
    page.goto(f"{match_url}/hands/new/")
    expect(page.locator("h1")).to_contain_text(f"Record hand {number}")
    fill_piquet_hand(page, hand)
    wait_checked(page)
    save(page)
    expect(page).to_have_url(re.compile(rf"{re.escape(match_url)}/hands/{number}/$"))
