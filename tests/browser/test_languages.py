"""The hand form (with its live check) and the score sheet in French and Russian, on a phone
whose browser asks for that language (Accept-Language from the browser's locale).

The expected words are the catalogs' own (looked up with Django's gettext), so the test
follows the translators' choices. What it checks is what is translated on main today: the
page's language (<html lang>), which the live check sends on; its messages (in the site's
catalog, locale/) and the engine's (scorekeeper/rules/locale); the game's title on
the score sheet. The pages' own words come with the site's catalogs (branch site-i18n).
"""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from scorekeeper.matches.services import hand_record, match_create, player_create

from .piquet_pages import demo_hands, fill_piquet_hand, save, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)


def words(language: str, text: str, **params) -> str:
    with translation.override(language):
        out = translation.gettext(text)
    return out % params if params else out


@pytest.fixture
def table(django_user_model):
    user = django_user_model.objects.create_user("marie", password="table-side-42")
    players = [player_create(name=name, by=user) for name in ("Anne", "Bruno")]
    return match_create(game="piquet", players=players, by=user)


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_hand_form_and_its_live_check_in(language, live_server, phone, table):
    page = phone(locale=language).new_page()
    sent = []
    page.on("request", lambda r: "/check/" in r.url and sent.append(r.headers.get("accept-language")))
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{table.pk}/hands/new/")

    expect(page.locator("html")).to_have_attribute("lang", language)

    hand = demo_hands("partie-1")[0]
    fill_piquet_hand(page, {**hand, "declared": [40, 23]})
    wait_checked(page)
    note = page.locator("#live-declared_0")
    opening = words(language, "The rules give %(computed)s, not %(declared)s: %(why)s").split("%(why)s")[0]
    expect(note).to_contain_text(opening % {"computed": 43, "declared": 40})
    assert "The rules give" not in note.inner_text()
    engine_part = note.inner_text().split(opening % {"computed": 43, "declared": 40}, 1)[1]
    # The engine's part too: not its English words.
    assert not re.search(r"\b(lead|capture|sequences|cards|last_trick)\b", engine_part), engine_part
    differ = words(language, "The declared scores differ from the rules.")
    expect(page.locator("#live-summary")).to_contain_text(differ)
    assert set(sent) == {language}

    page.fill("input[name=declared_0]", "43")
    wait_checked(page)
    expect(page.locator("#live-summary")).to_have_text(words(language, "The hand is valid."))
    save(page)
    expect(page).to_have_url(re.compile(r"/hands/1/$"))


@pytest.mark.parametrize("language", ["fr", "ru"])
def test_the_score_sheet_in(language, live_server, phone, table):
    for record in demo_hands("partie-rubicon"):
        hand_record(match=table, record=record, by=table.created_by)
    english = phone().new_page()
    english.goto(f"{live_server.url}/matches/{table.pk}/")
    english_game = english.locator("h1 small").inner_text()

    page = phone(locale=language).new_page()
    page.goto(f"{live_server.url}/matches/{table.pk}/")

    expect(page.locator("html")).to_have_attribute("lang", language)
    # The game's title is the engine catalog's, in the reader's language.
    assert page.locator("h1 small").inner_text() != english_game
    headline = page.locator("section.result .headline").first
    expect(headline).to_contain_text("Anne")
    expect(headline).to_contain_text("332")
    for hand in range(1, 7):
        expect(page.locator("table a", has_text=re.compile(rf"^{hand}$")).first).to_be_visible()
