"""The pages of the other side's answers and of the player ↔ account link: a hand's page, a
match's page, the code page and **Link my player** (scorekeeper/matches/views/confirm.py)."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.matches import player_accounts
from scorekeeper.matches.models import AuditEntry, HandConfirmation, Player
from scorekeeper.matches.services import hand_correct, hand_record, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(tally_match, user, django_user_model):
    """ann (Ada, the scorer) records hand 1 against Bea (account ``bea``)."""
    ada, bea = (seat.player for seat in tally_match.seats.order_by("position"))
    bea_user = django_user_model.objects.create_user("bea")
    player_accounts.player_link(player=ada, user=user, by=None)
    player_accounts.player_link(player=bea, user=bea_user, by=None)
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    bea_client = Client()
    bea_client.force_login(bea_user)
    return {"match": tally_match, "ada": ada, "bea": bea, "bea_client": bea_client}


def hand_page(client, match, number=1):
    return client.get(reverse("hand-detail", args=[match.pk, number]))


def answer(client, match, number=1, **data):
    return client.post(reverse("hand-answer", args=[match.pk, number]), data)


def test_after_the_save_the_scorer_sees_one_button_per_player_of_the_other_side(scorer, table):
    page = hand_page(scorer, table["match"]).content.decode()

    assert "Waiting for the other side" in page
    assert "Confirmed at the table by Bea" in page and "Confirmed at the table by Ada" not in page
    assert f'name="confirm_player" value="{table["bea"].pk}"' in page


def test_one_tap_at_the_table_confirms_the_hand_and_the_sheet_says_so(scorer, table):
    response = answer(scorer, table["match"], confirm_player=table["bea"].pk, hand_version=1)

    assert response.status_code == 302
    assert response["Location"].endswith("/hands/1/#confirmation")
    row = HandConfirmation.objects.get()
    assert (row.player, row.at_table, row.answer) == (table["bea"], True, "confirmed")
    followed = scorer.get(response["Location"]).content.decode()
    assert (
        "Hand 1 confirmed at the table by Bea." in followed and "Confirmed at the table by Bea." in followed
    )
    sheet = scorer.get(table["match"].get_absolute_url()).content.decode()
    assert 'class="badge confirmed"' in sheet and "confirmed by the other side" in sheet  # the match too


def test_a_dispute_at_the_table_needs_a_reason(scorer, table):
    refused = answer(scorer, table["match"], answer="dispute", dispute_player=table["bea"].pk, reason=" ")
    assert "say why the hand is disputed" in scorer.get(refused["Location"]).content.decode()

    answer(scorer, table["match"], answer="dispute", dispute_player=table["bea"].pk, reason="I had 2")

    assert HandConfirmation.objects.get().reason == "I had 2"
    assert "Disputed at the table by Bea: “I had 2”." in hand_page(scorer, table["match"]).content.decode()


def test_the_other_player_confirms_from_the_match_page_on_his_own_account(table):
    bea = table["bea_client"]
    page = bea.get(table["match"].get_absolute_url()).content.decode()
    assert "1 hand waits for your confirmation" in page and "Confirm hand 1" in page

    response = answer(bea, table["match"], answer="confirm", hand_version=1, back="match")

    assert response["Location"] == table["match"].get_absolute_url()
    row = HandConfirmation.objects.get()
    assert (row.player, row.at_table, row.by.username) == (table["bea"], False, "bea")
    page = bea.get(response["Location"]).content.decode()
    assert "Hand 1 confirmed by Bea." in page and "waits for your confirmation" not in page


def test_the_other_player_disputes_on_the_hand_page(table):
    bea = table["bea_client"]
    page = hand_page(bea, table["match"]).content.decode()
    assert "Confirm, as Bea" in page and "Confirmed at the table by" not in page  # not a scorer

    answer(bea, table["match"], answer="dispute", reason="I had 2", hand_version=1)

    page = hand_page(bea, table["match"]).content.decode()
    assert "Disputed by Bea: “I had 2”." in page
    assert AuditEntry.objects.filter(action="hand_dispute", actor__username="bea").exists()
    sheet = bea.get(table["match"].get_absolute_url()).content.decode()
    assert "disputed by Bea" in sheet


def test_the_recording_side_gets_no_buttons_and_a_403_if_it_posts_anyway(scorer, table, user):
    page = hand_page(scorer, table["match"]).content.decode()
    assert "Confirm, as Ada" not in page

    assert answer(scorer, table["match"], answer="confirm").status_code == 403
    assert answer(scorer, table["match"], confirm_player=table["ada"].pk).status_code == 403
    assert not HandConfirmation.objects.exists()


def test_readers_see_the_state_but_no_buttons_and_anonymous_posts_go_to_sign_in(client, table):
    page = hand_page(client, table["match"]).content.decode()
    assert (
        "Waiting for the other side" in page
        and "<form" not in page.split('id="confirmation"')[1].split("</section>")[0]
    )

    response = answer(client, table["match"], answer="confirm")
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_stale_version_a_repeat_a_bad_player_and_no_such_hand_are_said_in_words(table, scorer, user):
    bea = table["bea_client"]
    hand_correct(match=table["match"], number=1, record=hand([4, 1]), by=user)

    stale = answer(bea, table["match"], answer="confirm", hand_version=1)
    assert "is now at version 2, not 1" in bea.get(stale["Location"]).content.decode()
    answer(bea, table["match"], answer="confirm", hand_version=2)
    again = answer(bea, table["match"], answer="confirm")
    assert "already confirmed" in bea.get(again["Location"]).content.decode()
    bad = answer(scorer, table["match"], confirm_player="x1")
    assert "choose a player of this match" in scorer.get(bad["Location"]).content.decode()
    assert answer(bea, table["match"], number=9, answer="confirm").status_code == 404
    nothing = answer(bea, table["match"])
    assert "choose to confirm or to dispute" in bea.get(nothing["Location"]).content.decode()


def test_a_correction_asks_again(table, user):
    bea = table["bea_client"]
    answer(bea, table["match"], answer="confirm")
    hand_correct(match=table["match"], number=1, record=hand([4, 1]), by=user)

    page = hand_page(bea, table["match"]).content.decode()
    assert "Waiting for the other side" in page and "Confirm, as Bea" in page


def test_a_void_match_offers_no_answers(scorer, table, user):
    match_void(match=table["match"], by=user, reason="mistake")

    assert "Confirmed at the table by" not in hand_page(scorer, table["match"]).content.decode()


# -- account codes ---------------------------------------------------------------------------
def test_a_scorer_gives_a_code_on_the_match_page_and_the_player_links_his_account(
    scorer, tally_match, django_user_model
):
    bea = tally_match.seats.get(position=1).player
    page = scorer.get(tally_match.get_absolute_url()).content.decode()
    assert "A code for Bea" in page

    shown = scorer.post(reverse("player-claim-code", args=[tally_match.pk, bea.pk]))

    assert shown.status_code == 200 and "no-cache" in shown["Cache-Control"]
    code = re.search(r"data-claim-code>([0-9A-Z]{4}-[0-9A-Z]{4})<", shown.content.decode())[1]
    newcomer = Client()
    newcomer.force_login(django_user_model.objects.create_user("bea"))
    assert newcomer.get(reverse("player-claim")).status_code == 200
    linked = newcomer.post(reverse("player-claim"), {"code": code.lower()})

    assert linked.status_code == 302 and linked["Location"] == bea.get_absolute_url()
    assert Player.objects.get(pk=bea.pk).user.username == "bea"
    again = newcomer.post(reverse("player-claim"), {"code": code})
    assert again.status_code == 409 and "already been used" in again.content.decode()


def test_wrong_codes_are_said_and_throttled(client, django_user_model, settings):
    settings.PLAYER_CLAIM_ATTEMPTS = 2
    client.force_login(django_user_model.objects.create_user("bea"))

    first = client.post(reverse("player-claim"), {"code": "ZZZZ-ZZZZ"})
    assert first.status_code == 400 and "not a valid code" in first.content.decode()
    client.post(reverse("player-claim"), {"code": "ZZZZ-ZZZY"})
    third = client.post(reverse("player-claim"), {"code": "ZZZZ-ZZZX"})
    assert third.status_code == 429 and "too many wrong codes" in third.content.decode()
    assert client.post(reverse("player-claim"), {"code": ""}).status_code == 400


def test_only_scorers_give_codes(client, tally_match, other_user):
    bea = tally_match.seats.get(position=1).player
    client.force_login(other_user)

    assert client.post(reverse("player-claim-code", args=[tally_match.pk, bea.pk])).status_code == 403
    assert "A code for" not in client.get(tally_match.get_absolute_url()).content.decode()


def test_the_claim_page_needs_a_sign_in(client):
    assert "/accounts/login/" in client.get(reverse("player-claim"))["Location"]


@pytest.mark.parametrize(
    ("language", "said"),
    [
        ("fr", "Confirmée à la table par Bea."),
        ("de", "Am Tisch von Bea bestätigt."),
        ("ru", "Подтверждена за столом: Bea."),
    ],
)
def test_the_answer_is_said_in_the_pages_language(scorer, table, language, said):
    answer(scorer, table["match"], confirm_player=table["bea"].pk)

    page = scorer.get(reverse("hand-detail", args=[table["match"].pk, 1]), HTTP_ACCEPT_LANGUAGE=language)

    assert said in page.content.decode()


def test_the_history_shows_every_answer_to_every_version(scorer, table, user):
    bea = table["bea_client"]
    answer(bea, table["match"], answer="dispute", reason="I had 2")
    answer(bea, table["match"], answer="confirm")
    hand_correct(match=table["match"], number=1, record=hand([4, 1]), by=user)

    page = scorer.get(reverse("hand-history", args=[table["match"].pk, 1])).content.decode()

    version_2, version_1 = page.split("Version 2")[1].split("Version 1")
    assert "No answer from the other side to this version." in version_2
    assert version_1.index("Disputed by Bea: “I had 2”.") < version_1.index(
        "Confirmed by Bea on their own account."
    )
