"""Accessibility of the main pages at phone size, measured with axe-core 4.14 (vendored in
tests/browser/vendor/axe-core/, the version package.json names): no violation, and nothing critical or serious
left in axe's "incomplete" (needs review) list. Beside it, direct checks that axe does not make:
every aria-describedby names ids that exist, every score field has an inputmode (one that
allows a minus where the points may be negative), the header's links are 44 px tap targets,
the skip link leads to the content, and a focused control shows it.

Without axe (AXE_CORE naming a file that is not there) the test skips with the reason, except
under CI=true, where it fails.

The script is run by Playwright's evaluate (the DevTools protocol), not added as a <script>:
the pages' Content-Security-Policy would refuse an inline one, and every test here fails on a
violation (conftest.py).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from playwright.sync_api import expect

from scorekeeper.matches.services import hand_record, match_create, player_create

from .piquet_pages import demo_hands, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)

#: The vendored axe (AXE_CORE=/path/to/axe.min.js points elsewhere).
VENDORED = Path(__file__).resolve().parent / "vendor" / "axe-core" / "axe.min.js"
AXE = Path(os.environ.get("AXE_CORE") or VENDORED)
SERIOUS = ("critical", "serious")


@pytest.fixture(scope="module")
def axe_source() -> str:
    if not AXE.exists():
        why = f"axe-core is missing ({AXE})"
        if os.environ.get("CI", "").lower() in ("1", "true", "yes"):
            pytest.fail(f"CI runs the accessibility check, but {why}", pytrace=False)
        pytest.skip(why)
    return AXE.read_text()


def test_the_vendored_axe_is_the_version_package_json_names():
    pinned = json.loads((Path(__file__).resolve().parents[2] / "package.json").read_text())
    version = pinned["devDependencies"]["axe-core"].lstrip("~^=")
    assert VENDORED.read_text(encoding="utf-8").startswith(f"/*! axe v{version}\n")


def load_axe_at_the_end(page, source: str) -> None:
    """The page scrolled to its end, and axe loaded into it."""
    # At the end of the page the save bar (sticky at the screen's bottom) sits in its own place,
    # over nothing. Higher up it lies over the text at the screen's bottom, and axe leaves any
    # text with an element on top of it to review ("overlapped"), whatever that element's
    # colours: its grid spans the whole page, so from here every text is measured in its place.
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")
    page.evaluate(source)


def axe(page, source: str) -> dict:
    """axe's verdict on the page as it is: its violations and its serious "needs review" items."""
    load_axe_at_the_end(page, source)
    result = page.evaluate(
        """async () => {
          const r = await axe.run(document, {resultTypes: ["violations", "incomplete"]});
          const brief = (items) => items.map((i) => ({id: i.id, impact: i.impact,
            nodes: i.nodes.map((n) => ({target: n.target.join(" "), why: n.failureSummary
              || n.any.concat(n.all, n.none).map((c) => c.message).join("; ")}))}));
          return {violations: brief(r.violations), incomplete: brief(r.incomplete), version: axe.version};
        }"""
    )
    assert result["version"].startswith("4.14."), result["version"]
    return {
        "violations": result["violations"],
        "review": [item for item in result["incomplete"] if item["impact"] in SERIOUS],
    }


def direct_checks(page) -> list[str]:
    """What axe leaves out: dangling aria-describedby ids, score fields without inputmode."""
    return page.evaluate(
        """() => {
          const out = [];
          document.querySelectorAll("[aria-describedby]").forEach((el) => {
            el.getAttribute("aria-describedby").split(/\\s+/).filter(Boolean).forEach((id) => {
              if (!document.getElementById(id)) out.push(`${el.name || el.id}: no #${id}`);
            });
          });
          const scores = "#hand-form input[type=number], #hand-form input[data-key]:not([type=radio])";
          document.querySelectorAll(scores).forEach((el) => {
            if (!el.getAttribute("inputmode")) out.push(`${el.name}: no inputmode`);
          });
          return out;
        }"""
    )


@pytest.fixture
def club(django_user_model):
    """A scorer, a finished piquet partie (so the boards and the profile have ratings), one match
    in progress of each game family."""
    user = django_user_model.objects.create_user("marie", password="table-side-42")
    names = ["Anne", "Bruno", "Chloé", "David"]
    players = [player_create(name=name, by=user) for name in names]
    finished = match_create(game="piquet", players=players[:2], by=user)
    for record in demo_hands("partie-1"):
        finished = hand_record(match=finished, record=record, by=user).match
    matches = {"finished": finished}
    for game, seats in (("piquet", 2), ("cul", 3), ("bank", 3), ("bastard", 4)):
        matches[game] = match_create(game=game, players=players[:seats], by=user)
    hand_record(match=matches["piquet"], record=demo_hands("partie-1")[0], by=user)
    return {"user": user, "players": players, "matches": matches}


def pages(club) -> list[tuple[str, str]]:
    m = club["matches"]
    return [
        ("home", "/"),
        ("match list", "/matches/"),
        ("new match", "/matches/new/"),
        ("new piquet match", "/matches/new/piquet/"),
        ("new cul match", "/matches/new/cul/"),
        ("piquet hand form", f"/matches/{m['piquet'].pk}/hands/new/"),
        ("piquet correction form", f"/matches/{m['piquet'].pk}/hands/1/correct/"),
        ("cul hand form", f"/matches/{m['cul'].pk}/hands/new/"),
        ("bank hand form", f"/matches/{m['bank'].pk}/hands/new/"),
        ("bastard hand form", f"/matches/{m['bastard'].pk}/hands/new/"),
        ("score sheet", f"/matches/{m['finished'].pk}/"),
        ("hand", f"/matches/{m['finished'].pk}/hands/1/"),
        ("leaderboards", "/leaderboards/"),
        ("piquet leaderboard", "/leaderboards/piquet/"),
        ("profile", f"/players/{club['players'][0].pk}/"),
        ("settings", "/accounts/settings/"),
    ]


def test_the_main_pages_have_no_violation_and_nothing_serious_to_review(live_server, phone, club, axe_source):
    page = phone().new_page()
    found = {}
    page.goto(f"{live_server.url}/accounts/login/")
    found["login"] = {**axe(page, axe_source), "direct": direct_checks(page)}
    sign_in(page, live_server.url, "marie", "table-side-42")
    for name, path in pages(club):
        page.goto(f"{live_server.url}{path}")
        if "form" in name:
            page.wait_for_load_state("networkidle")
        found[name] = {**axe(page, axe_source), "direct": direct_checks(page)}

    problems = {name: result for name, result in found.items() if any(result.values())}
    assert not problems, problems


def measured_contrast(page, source: str, selector: str) -> dict:
    """axe's colour-contrast verdict on the text of ``selector``'s elements: how many are shown,
    how many passed, and axe's words on any it could not measure or found too faint."""
    load_axe_at_the_end(page, source)
    return page.evaluate(
        """async (selector) => {
          const r = await axe.run(document, {runOnly: {type: "rule", values: ["color-contrast"]},
            resultTypes: ["passes", "incomplete", "violations"], elementRef: true});
          const ours = (items) => items.flatMap((i) => i.nodes).filter((n) => n.element.matches(selector));
          const words = (nodes) => nodes.map((n) => `${n.html}: ${n.any.map((c) => c.message).join("; ")}`);
          const shown = [...document.querySelectorAll(selector)].filter((e) => e.checkVisibility());
          return {elements: shown.length, passed: ours(r.passes).length,
                  unmeasured: words(ours(r.incomplete)), faint: words(ours(r.violations))};
        }""",
        selector,
    )


def test_the_chart_labels_a_section_heading_and_the_options_summary_have_a_measured_contrast(
    live_server, page, club, axe_source
):
    """The three texts axe once left to review (issue 32), each measured and passing: the rating
    chart's axis labels (SVG text: axe stops at the <svg> unless the text names its background),
    the hand form's section headings and New match's options summary (the save bar lay over
    them: measured at the page's end, where it covers nothing)."""
    sign_in(page, live_server.url, "marie", "table-side-42")
    m = club["matches"]
    for path, selector in (
        (f"/players/{club['players'][0].pk}/", "svg.chart text"),
        (f"/matches/{m['bastard'].pk}/hands/new/", "#hand-form section > h2"),
        (f"/matches/{m['piquet'].pk}/hands/new/", "#hand-form section > h2"),
        ("/matches/new/piquet/", "#match-form summary"),
    ):
        page.goto(f"{live_server.url}{path}")
        page.wait_for_load_state("networkidle")
        verdict = measured_contrast(page, axe_source, selector)
        count = verdict["elements"]
        assert count > 0, (path, selector)
        assert verdict == {"elements": count, "passed": count, "unmeasured": [], "faint": []}, path


def test_the_hand_form_after_the_live_check_and_a_refused_save(live_server, page, club, axe_source):
    """The states that only appear with typing: live messages, a mismatch, the accept box, a held
    Save; and the page a refused save comes back as (server errors by their fields)."""
    match = club["matches"]["piquet"]
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{match.pk}/hands/new/")
    page.fill("input[name=declared_0]", "40")
    page.fill("input[name=declared_1]", "23")
    wait_checked(page)
    assert axe(page, axe_source) == {"violations": [], "review": []}
    assert direct_checks(page) == []

    page.locator("#hand-form .actions button[type=submit]").evaluate("b => b.form.submit()")
    expect(page.locator(".alert.bad").first).to_be_visible()
    assert axe(page, axe_source) == {"violations": [], "review": []}
    assert direct_checks(page) == []


def test_score_fields_have_a_keypad_and_cul_points_allow_a_minus(live_server, page, club):
    sign_in(page, live_server.url, "marie", "table-side-42")
    m = club["matches"]
    for game, names in (("piquet", ["declared_0", "point_cards", "point_pips"]),
                        ("bastard", ["tricks_0", "declared_0", "pass_count"]),
                        ("bank", ["captured_points_0", "declared_0"]),
                        ("cul", ["declared_banks_0"])):  # fmt: skip
        page.goto(f"{live_server.url}/matches/{m[game].pk}/hands/new/")
        for name in names:
            expect(page.locator(f"input[name={name}]")).to_have_attribute("inputmode", "numeric")
    # Cul's points go down to -4 (spec 8): a numeric keypad has no minus, so the field is text
    # with a pattern that allows one.
    points = page.locator("input[name=points_0]")
    expect(points).to_have_attribute("type", "text")
    expect(points).to_have_attribute("inputmode", "text")
    expect(points).to_have_attribute("pattern", "-?[0-9]*")


def test_a_skip_link_header_tap_targets_and_visible_focus(live_server, page, club):
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{club['matches']['piquet'].pk}/hands/new/")
    page.keyboard.press("Tab")
    skip = page.locator("a.skip")
    expect(skip).to_be_focused()
    expect(skip).to_be_visible()
    skip.press("Enter")
    expect(page.locator("main#content")).to_be_focused()

    for link in page.locator("header.top a, header.top button, header.top select").all():
        box = link.bounding_box()
        assert box["height"] >= 44 and box["width"] >= 44, (link.inner_text(), box)

    # Every focusable control shows its focus (an outline or a box shadow).
    page.locator("input[name=declared_0]").focus()
    outline = page.evaluate(
        """() => { const s = getComputedStyle(document.activeElement);
                   return s.outlineStyle !== "none" && parseFloat(s.outlineWidth) >= 2; }"""
    )
    assert outline
