"""The other side's word, in real browsers at phone size: a hand confirmed at the table on the
scorer's phone right after its save, and one disputed from the opponent's own signed-in phone
(a second browser context), after he linked his account with the code the scorer gave him."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from scorekeeper.matches.models import AuditEntry, HandConfirmation, Player
from scorekeeper.matches.services import match_create, player_create

from .piquet_pages import demo_hands, fill_piquet_hand, save, sign_in, wait_checked

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def table(django_user_model):
    """marie scores Anne (her own player) against Bruno; Bruno has an account, not yet linked."""
    marie = django_user_model.objects.create_user("marie", password="table-side-42")
    django_user_model.objects.create_user("bruno", password="other-side-42")
    anne = player_create(name="Anne", by=marie, user=marie)
    bruno = player_create(name="Bruno", by=marie)
    return match_create(game="piquet", players=[anne, bruno], by=marie)


def record(page, base, match, hand):
    page.goto(f"{base}/matches/{match.pk}/hands/new/")
    fill_piquet_hand(page, hand)
    wait_checked(page)
    save(page)
    expect(page).to_have_url(re.compile(rf"/matches/{match.pk}/hands/\d+/$"))


def test_confirmed_at_the_table_then_disputed_from_the_opponents_own_phone(live_server, phone, table):
    base = live_server.url
    hands = demo_hands("partie-1")
    scorer = phone().new_page()
    sign_in(scorer, base, "marie", "table-side-42")

    # Hand 1, and the phone passed across the table: one tap.
    record(scorer, base, table, hands[0])
    box = scorer.locator("#confirmation")
    expect(box).to_contain_text("Waiting for the other side")
    box.get_by_role("button", name="Confirmed at the table by Bruno").click()
    expect(scorer.locator(".messages, main")).to_contain_text("Hand 1 confirmed at the table by Bruno.")
    expect(scorer.locator("#confirmation [data-confirmation=confirmed]")).to_have_text(
        "Confirmed at the table by Bruno."
    )
    assert scorer.evaluate("document.documentElement.scrollWidth") <= 390  # fits the phone

    # Marie gives Bruno a code for his own account.
    scorer.goto(f"{base}/matches/{table.pk}/")
    scorer.get_by_role("button", name="A code for Bruno").click()
    code = scorer.locator("[data-claim-code]").inner_text()
    assert re.fullmatch(r"[0-9A-Z]{4}-[0-9A-Z]{4}", code)

    # Bruno, on his own phone, links his account with it.
    opponent = phone().new_page()
    sign_in(opponent, base, "bruno", "other-side-42")
    opponent.goto(f"{base}/players/claim/")
    opponent.fill("input[name=code]", code.lower().replace("-", " "))
    opponent.get_by_role("button", name="Link my player").click()
    expect(opponent.locator("main")).to_contain_text("Your account is now Bruno's")
    assert Player.objects.get(name="Bruno").user.username == "bruno"

    # Hand 2 on the scorer's phone; Bruno sees it waiting on the match page and disputes it.
    record(scorer, base, table, hands[1])
    opponent.goto(f"{base}/matches/{table.pk}/")
    waiting = opponent.locator(".confirm-waiting")
    expect(waiting).to_contain_text("1 hand waits for your confirmation")
    waiting.get_by_role("link", name="Dispute…").click()
    dispute = opponent.locator("#confirmation form.confirm-own details.dispute")
    dispute.locator("summary").click()
    dispute.locator("textarea[name=reason]").fill("My point was 5 cards, not 4")
    dispute.get_by_role("button", name="Dispute").click()
    expect(opponent.locator("#confirmation [data-confirmation=disputed]")).to_have_text(
        "Disputed by Bruno: “My point was 5 cards, not 4”."
    )

    # The scorer's sheet marks both.
    scorer.goto(f"{base}/matches/{table.pk}/")
    expect(scorer.locator("#hand-1 .badge.confirmed")).to_be_visible()
    expect(scorer.locator("#hand-2 .badge.answer-disputed")).to_have_text("disputed by Bruno")
    answers = list(HandConfirmation.objects.order_by("id").values_list("answer", "at_table", "by__username"))
    assert answers == [("confirmed", True, "marie"), ("disputed", False, "bruno")]
    assert list(
        AuditEntry.objects.filter(action__in=["hand_confirm", "hand_dispute"])
        .order_by("id")
        .values_list("action", flat=True)
    ) == ["hand_confirm", "hand_dispute"]
