"""Quicker entry at the table (issue 22), on a phone: a piquet deal typed in Russian with its
ranks in Russian letters and its tricks tapped by initials; a wrong declared score taken from
the rules with one tap; Save saying why it is held; Cancel asking before it discards."""

from __future__ import annotations

import re

import pytest
from django.utils import translation
from playwright.sync_api import expect

from scorekeeper.matches.models import Hand
from scorekeeper.matches.services import hand_record, match_create, player_create

from .piquet_pages import choose, demo_hands, fill_piquet_hand, save, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)


def words(language: str, text: str, **params) -> str:
    with translation.override(language):
        out = translation.gettext(text)
    return out % params if params else out


@pytest.fixture
def marie(django_user_model):
    return django_user_model.objects.create_user("marie", password="table-side-42")


def piquet(user, names):
    return match_create(game="piquet", players=[player_create(name=n, by=user) for n in names], by=user)


def test_a_deal_typed_in_russian_with_russian_ranks_and_tricks_tapped_by_initials(live_server, phone, marie):
    match = piquet(marie, ["Анна", "Борис"])
    page = phone(locale="ru").new_page()
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{match.pk}/hands/new/")
    expect(page.locator("html")).to_have_attribute("lang", "ru")
    expect(page.locator(".field[data-field=dealer] legend")).to_be_visible()

    # Cavendish's deal (partie-1, deal 1): Anna's point of six and quint and tierce to the jack,
    # Boris's quatorze of queens and trio of kings.
    choose(page, "dealer", "1")
    choose(page, "point_scorer", "0")
    page.fill("input[name=point_cards]", "6")
    page.fill("input[name=point_pips]", "55")
    choose(page, "sequences_scorer", "0")
    page.fill("input[name=sequences_runs]", "5в 3в")  # typed, lower case: валет
    choose(page, "sets_scorer", "1")
    sets = page.locator('.picker[data-target="id_sets_sets"]')
    for button in ('[data-count="4"]', '[data-rank="Д"]', '[data-count="3"]', '[data-rank="К"]'):
        sets.locator(button).click()
    expect(page.locator("input[name=sets_sets]")).to_have_value("4Д 3К")
    tapper = page.locator(".tapper")
    for seat in demo_hands("partie-1")[0]["tricks"]:
        tapper.locator(f'button[data-seat="{seat}"]').click()
    expect(page.locator("input[name=tricks]")).to_have_value("АБББ ББАА АААА")
    with translation.override("ru"):
        twelve = translation.ngettext("%(count)s trick", "%(count)s tricks", 12) % {"count": 12}
    expect(tapper.locator("[data-count]")).to_have_text(twelve)
    page.fill("input[name=declared_0]", "43")
    page.fill("input[name=declared_1]", "23")
    wait_checked(page)
    expect(page.locator("#live-summary")).to_have_text(words("ru", "The hand is valid."))
    save(page)

    expect(page.locator("[role=status].alert.success")).to_have_text(
        words("ru", "Hand %(number)s recorded.", number=1)
    )
    record = Hand.objects.get(match=match).record
    assert record["sequences"]["runs"] == [{"length": 5, "top": "J"}, {"length": 3, "top": "J"}]
    assert record["sets"]["sets"] == [{"count": 4, "rank": "Q"}, {"count": 3, "rank": "K"}]
    assert record["tricks"] == demo_hands("partie-1")[0]["tricks"]

    page.goto(f"{live_server.url}/matches/{match.pk}/hands/1/correct/")  # shown in Russian letters
    expect(page.locator("input[name=sets_sets]")).to_have_value("4Д 3К")
    expect(page.locator("input[name=sequences_runs]")).to_have_value("5В 3В")
    expect(page.locator("input[name=tricks]")).to_have_value("АБББ ББАА АААА")


def test_a_wrong_declared_score_is_fixed_with_the_use_tap_and_a_held_save_says_why(live_server, page, marie):
    match = piquet(marie, ["Anne", "Bruno"])
    hands = demo_hands("partie-1")
    for record in hands[:2]:
        hand_record(match=match, record=record, by=marie)
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{match.pk}/hands/new/")
    fill_piquet_hand(page, {**hands[2], "declared": [31, 8]})
    wait_checked(page)

    button = page.locator("#hand-form .actions button[type=submit]")
    held = page.locator("#save-held")
    expect(button).to_have_attribute("aria-disabled", "true")
    expect(held).to_have_text(
        "Not saved yet: a declared score differs. Use the rules' score, or accept with a reason."
    )
    expect(button).to_have_attribute("aria-describedby", "save-held")
    expect(page.locator("input[name=declared_0]")).to_have_attribute("aria-invalid", "true")
    button.evaluate("button => button.click()")  # a tap on it, held: nothing is sent
    expect(page).to_have_url(re.compile(r"/hands/new/$"))

    page.locator("#live-declared_0 button.use").click()  # "Use 27"
    expect(page.locator("input[name=declared_0]")).to_have_value("27")
    wait_checked(page)
    expect(page.locator("#live-summary")).to_have_text("The hand is valid.")
    expect(held).to_be_hidden()
    expect(button).not_to_have_attribute("aria-disabled", "true")
    expect(page.locator("input[name=declared_0]")).not_to_have_attribute("aria-invalid", "true")
    save(page)
    expect(page.locator("[role=status].alert.success")).to_have_text("Hand 3 recorded.")
    assert Hand.objects.get(match=match, number=3).declared == [27, 8]


def test_cancel_asks_before_it_discards_what_was_typed(live_server, page, marie):
    match = piquet(marie, ["Anne", "Bruno"])
    sign_in(page, live_server.url, "marie", "table-side-42")
    form_url = f"{live_server.url}/matches/{match.pk}/hands/new/"
    page.goto(form_url)
    cancel = page.locator("#hand-form [data-cancel]")
    question = page.locator("#cancel-confirm")

    page.fill("input[name=declared_0]", "43")
    cancel.click()
    expect(question).to_be_visible()
    expect(question).to_contain_text("Discard what you typed in this form?")
    expect(page).to_have_url(form_url)
    question.locator("[data-keep]").click()  # back to the form, nothing lost
    expect(question).to_be_hidden()
    expect(page.locator("input[name=declared_0]")).to_have_value("43")

    cancel.click()
    question.locator("[data-discard]").click()
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")

    page.goto(form_url)  # nothing typed: Cancel simply leaves
    cancel.click()
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")


def test_without_javascript_cancel_still_leaves(live_server, phone, marie):
    match = piquet(marie, ["Anne", "Bruno"])
    page = phone(java_script_enabled=False).new_page()
    sign_in(page, live_server.url, "marie", "table-side-42")
    page.goto(f"{live_server.url}/matches/{match.pk}/hands/new/")
    page.fill("input[name=declared_0]", "43")
    expect(page.locator("#cancel-confirm")).to_be_hidden()
    page.locator("#hand-form [data-cancel]").click()
    expect(page).to_have_url(f"{live_server.url}/matches/{match.pk}/")
