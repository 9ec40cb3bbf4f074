"""POST /api/v1/matches/<id>/hands/<n>/confirm and …/dispute, POST …/players/<id>/claim-code and
POST /api/v1/players/claim: the other side's word and the player ↔ account link through the API."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from ratings import services as ratings
from ratings.models import RatingHistory
from scorekeeper.matches.models import AuditEntry, HandConfirmation, Match, PlayerClaimCode
from scorekeeper.matches.services import hand_correct, hand_record
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def bea_user(django_user_model):
    return django_user_model.objects.create_user("bea")


@pytest.fixture
def bea(client_for, bea_user):
    return client_for(bea_user)


@pytest.fixture
def linked(tally_match, bea_user):
    """ann's tally match of Ada (account ``ann``) and Bea (account ``bea``), one hand recorded by ann."""
    for position, account in ((0, tally_match.created_by), (1, bea_user)):
        player = tally_match.seats.get(position=position).player
        player.user = account
        player.save()
    hand_record(match=tally_match, record=hand([3, 1]), by=tally_match.created_by)
    return tally_match


def answer(client, match, number=1, what="confirm", **body):
    return client.post(f"/api/v1/matches/{match.pk}/hands/{number}/{what}", body, format="json")


def test_the_other_side_confirms_on_its_own_phone(bea, linked):
    response = answer(bea, linked, hand_version=1)

    assert response.status_code == 201, response.content
    body = response.json()
    keys = ("match", "number", "hand_version", "answer", "player_name", "at_table", "by")
    assert {k: body[k] for k in keys} == {
        "match": linked.pk, "number": 1, "hand_version": 1, "answer": "confirmed", "player_name": "Bea",
        "at_table": False, "by": "bea",
    }  # fmt: skip
    assert body["match_confirmed_at"] is not None
    sheet = bea.get(f"/api/v1/matches/{linked.pk}").json()
    assert sheet["confirmed_at"] is not None
    assert (sheet["hands"][0]["confirmation"], sheet["hands"][0]["confirmed_by"]) == ("confirmed", "Bea")
    assert sheet["version"] == Match.objects.get(pk=linked.pk).version == 1  # unchanged by the answer


def test_the_scorer_records_an_answer_at_the_table_naming_the_player(ann, linked):
    bea_player = linked.seats.get(position=1).player

    response = answer(ann, linked, what="dispute", player=bea_player.pk, reason="I had 2")

    assert response.status_code == 201, response.content
    assert (response.json()["at_table"], response.json()["by"], response.json()["reason"]) == (
        True,
        "ann",
        "I had 2",
    )
    assert response.json()["match_confirmed_at"] is None
    assert AuditEntry.objects.filter(action="hand_dispute", actor__username="ann").exists()


def test_who_may_not_answer_is_told_why(ann, bob, anon, linked):
    ada_player = linked.seats.get(position=0).player

    assert_error(answer(anon, linked), 401)
    assert_error(answer(bob, linked), 403, "not_a_player")
    assert_error(answer(bob, linked, player=ada_player.pk), 403, "not_a_scorer")
    assert_error(answer(ann, linked, player=ada_player.pk), 403, "same_side")
    assert_error(answer(ann, linked, player=10**9), 400, "player_not_seated", "player")
    assert not HandConfirmation.objects.exists()


def test_missing_things_and_conflicts_have_their_codes(bea, linked):
    assert_error(answer(bea, linked, number=2), 404, "hand_not_found")
    assert_error(bea.post("/api/v1/matches/999999/hands/1/confirm", {}, format="json"), 404)
    assert_error(answer(bea, linked, what="dispute"), 400, "required", "reason")
    assert_error(answer(bea, linked, what="dispute", reason="  "), 400, field="reason")
    assert_error(answer(bea, linked, hand_version=2), 409, "hand_version_conflict")
    assert answer(bea, linked).status_code == 201
    body = assert_error(answer(bea, linked), 409, "already_confirmed")
    assert "Bea" in body["message"]


def test_a_correction_needs_a_fresh_answer(ann, bea, linked):
    answer(bea, linked)
    hand_correct(match=linked, number=1, record=hand([4, 1]), by=linked.created_by)

    sheet = bea.get(f"/api/v1/matches/{linked.pk}").json()
    assert (sheet["hands"][0]["confirmation"], sheet["confirmed_at"]) == ("waiting", None)
    assert_error(answer(bea, linked, hand_version=1), 409, "hand_version_conflict")
    assert answer(bea, linked, hand_version=2).status_code == 201


#: What the score sheet and every hand of the API say of the other side's word on a version.
ANSWER_KEYS = ("confirmation", "confirmed_by", "confirmed_at_table", "dispute_reason")


def answer_of(hand_body):
    return tuple(hand_body[k] for k in ANSWER_KEYS)


def test_every_hand_the_api_shows_carries_its_answer_as_the_sheet_does(ann, bea, linked):
    bea_player = linked.seats.get(position=1).player
    assert answer(bea, linked).status_code == 201
    recorded = ann.post(
        f"/api/v1/matches/{linked.pk}/hands", {"record": hand([1, 1], dealer=1), "version": 1}, format="json"
    )
    assert recorded.status_code == 201, recorded.content
    assert answer_of(recorded.json()["hand"]) == ("waiting", None, False, "")
    disputed = answer(ann, linked, number=2, what="dispute", player=bea_player.pk, reason="I had 2")
    assert disputed.status_code == 201

    sheet = bea.get(f"/api/v1/matches/{linked.pk}").json()["hands"]
    listed = bea.get(f"/api/v1/matches/{linked.pk}/hands").json()["results"]
    one_by_one = [bea.get(f"/api/v1/matches/{linked.pk}/hands/{n}").json() for n in (1, 2)]

    expected = [("confirmed", "Bea", False, ""), ("disputed", "Bea", True, "I had 2")]
    assert [answer_of(h) for h in sheet] == expected
    assert [answer_of(h) for h in listed] == expected
    assert [answer_of(h) for h in one_by_one] == expected


def test_the_history_gives_each_version_the_answer_it_got(ann, bea, linked):
    answer(bea, linked, what="dispute", reason="I had 2")
    answer(bea, linked)  # talked over: the later answer is the version's
    body = {"record": hand([3, 2]), "version": 1}
    corrected = ann.post(f"/api/v1/matches/{linked.pk}/hands/1/corrections", body, format="json")
    assert corrected.status_code == 201, corrected.content
    assert (corrected.json()["hand"]["version"], answer_of(corrected.json()["hand"])) == (
        2,
        ("waiting", None, False, ""),
    )

    def history():
        body = bea.get(f"/api/v1/matches/{linked.pk}/hands/1/history").json()["results"]
        return [(h["version"], *answer_of(h)) for h in body]

    assert history() == [(1, "confirmed", "Bea", False, ""), (2, "waiting", None, False, "")]
    assert answer(bea, linked, what="dispute", reason="still 2", hand_version=2).status_code == 201
    assert history() == [(1, "confirmed", "Bea", False, ""), (2, "disputed", "Bea", False, "still 2")]
    assert answer_of(bea.get(f"/api/v1/matches/{linked.pk}/hands/1").json()) == (
        "disputed", "Bea", False, "still 2",
    )  # fmt: skip


def test_ratings_wait_for_the_confirmation_when_the_setting_says_so(ann, bea, linked, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = True
    ann.post(
        f"/api/v1/matches/{linked.pk}/hands", {"record": hand([8, 0], dealer=1), "version": 1}, format="json"
    )
    assert Match.objects.get(pk=linked.pk).status == "finished"
    ratings.rating_events_process_all()
    assert not RatingHistory.objects.filter(match_id=linked.pk).exists()

    assert answer(bea, linked, number=1).status_code == 201
    assert answer(bea, linked, number=2).status_code == 201
    ratings.rating_events_process_all()

    assert RatingHistory.objects.filter(match_id=linked.pk).count() == 2


# -- account codes ---------------------------------------------------------------------------
def test_a_scorer_gets_a_code_and_the_player_claims_his_account_with_it(ann, bea, tally_match):
    bea_player = tally_match.seats.get(position=1).player

    given = ann.post(f"/api/v1/matches/{tally_match.pk}/players/{bea_player.pk}/claim-code")
    assert given.status_code == 201, given.content
    code = given.json()["code"]
    assert given.json()["player"] == bea_player.pk and len(code) == 9
    claimed = bea.post("/api/v1/players/claim", {"code": code}, format="json")

    assert claimed.status_code == 200, claimed.content
    assert claimed.json()["id"] == bea_player.pk
    assert Match.objects.get(pk=tally_match.pk).seats.get(position=1).player.user.username == "bea"
    assert_error(bea.post("/api/v1/players/claim", {"code": code}, format="json"), 409, "claim_code_used")
    assert_error(
        ann.post(f"/api/v1/matches/{tally_match.pk}/players/{bea_player.pk}/claim-code"),
        409,
        "player_already_linked",
    )


def test_codes_only_from_scorers_for_seated_players(bob, ann, anon, tally_match, make_players):
    bea_player = tally_match.seats.get(position=1).player
    (outsider,) = make_players("Cid")

    assert_error(anon.post(f"/api/v1/matches/{tally_match.pk}/players/{bea_player.pk}/claim-code"), 401)
    assert_error(
        bob.post(f"/api/v1/matches/{tally_match.pk}/players/{bea_player.pk}/claim-code"), 403, "not_a_scorer"
    )
    assert_error(
        ann.post(f"/api/v1/matches/{tally_match.pk}/players/{outsider.pk}/claim-code"),
        404,
        "player_not_seated",
    )


def test_wrong_expired_and_malformed_codes_and_the_throttle(ann, bea, tally_match, settings):
    settings.PLAYER_CLAIM_ATTEMPTS = 3
    bea_player = tally_match.seats.get(position=1).player
    code = ann.post(f"/api/v1/matches/{tally_match.pk}/players/{bea_player.pk}/claim-code").json()["code"]

    assert_error(bea.post("/api/v1/players/claim", {"code": "abc-12"}, format="json"), 400, "invalid", "code")
    assert_error(
        bea.post("/api/v1/players/claim", {"code": "ZZZZ-ZZZZ"}, format="json"), 400, "claim_code_invalid"
    )
    PlayerClaimCode.objects.update(expires_at=timezone.now() - timedelta(minutes=1))
    assert_error(bea.post("/api/v1/players/claim", {"code": code}, format="json"), 400, "claim_code_expired")
    assert_error(
        bea.post("/api/v1/players/claim", {"code": "YYYY-YYYY"}, format="json"), 400, "claim_code_invalid"
    )

    throttled = bea.post("/api/v1/players/claim", {"code": "XXXX-XXXX"}, format="json")
    body = assert_error(throttled, 429, "claim_throttled")
    assert throttled["Retry-After"] == str(settings.PLAYER_CLAIM_WINDOW_SECONDS) == str(body["retry_after"])


def test_a_user_already_linked_cannot_claim_another_player(ann, bea, linked):
    ada_player = linked.seats.get(position=0).player
    ada_player.user = None  # Ada without an account, so that a code can be given for her
    ada_player.save()
    code = ann.post(f"/api/v1/matches/{linked.pk}/players/{ada_player.pk}/claim-code").json()["code"]

    assert_error(bea.post("/api/v1/players/claim", {"code": code}, format="json"), 409, "user_already_linked")
