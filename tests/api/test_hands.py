"""POST/GET /api/v1/matches/<id>/hands and GET …/hands/<n>: recording a hand through the API."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scorekeeper.matches.confirmations import hand_confirm, hand_dispute
from scorekeeper.matches.models import AuditEntry, Hand, HandConfirmation, Match
from scorekeeper.matches.services import hand_correct, hand_record, match_create, match_void
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def url(match, suffix=""):
    return f"/api/v1/matches/{match.pk}/hands{suffix}"


def test_it_stores_a_valid_hand_and_answers_with_the_hand_the_result_and_the_new_version(
    ann, tally_match, record_hand
):
    response = record_hand(tally_match, [3, 1])

    assert response.status_code == 201
    body = response.json()
    assert body["version"] == 1 and body["match"]["version"] == 1
    assert body["match"]["totals"] == [3, 1] and body["match"]["status"] == "in_progress"
    assert body["hand"]["number"] == 1 and body["hand"]["status"] == "valid"
    assert body["hand"]["declared"] == [3, 1] and body["hand"]["computed"] == [3, 1]
    assert body["evaluation"]["valid"] is True and body["evaluation"]["scores"] == [3, 1]
    assert response["ETag"] == '"1"'
    assert response["Location"] == "http://testserver" + reverse("api:hand-detail", args=[tally_match.pk, 1])
    stored = Hand.objects.get(match=tally_match)
    assert (stored.number, stored.status, stored.recorded_by.username) == (1, "valid", "ann")
    assert Match.objects.get(pk=tally_match.pk).state["totals"] == [3, 1]


@pytest.mark.parametrize("if_match", ['"0"', 'W/"0"', ' "0" ', "0"], ids=["etag", "weak", "spaced", "bare"])
def test_the_version_may_come_in_the_if_match_header(ann, tally_match, if_match):
    response = ann.post(url(tally_match), {"record": hand([2, 2])}, format="json", HTTP_IF_MATCH=if_match)

    assert response.status_code == 201
    assert Hand.objects.filter(match=tally_match).count() == 1


@pytest.mark.parametrize(
    ("body", "if_match", "code", "field"),
    [
        ({}, None, "version_required", "version"),
        ({}, "three", "if_match_invalid", "If-Match"),
        ({}, "*", "if_match_invalid", "If-Match"),
        ({}, '"0", "1"', "if_match_invalid", "If-Match"),
        ({}, '"-1"', "if_match_invalid", "If-Match"),
        ({"version": 0}, '"4"', "version_ambiguous", "version"),
        ({"version": -1}, None, "min_value", "version"),
        ({"version": 2**40}, None, "max_value", "version"),
        ({"version": 10**30}, None, "number_out_of_range", "version"),
        ({"version": "zero"}, None, "invalid", "version"),
        ({"version": 0, "accept_declared": "perhaps"}, None, "invalid", "accept_declared"),
        ({"version": 0, "reason": ["a"]}, None, "invalid", "reason"),
    ],
)
def test_a_missing_or_malformed_version_is_a_400_and_nothing_is_stored(
    ann, tally_match, body, if_match, code, field
):
    headers = {"HTTP_IF_MATCH": if_match} if if_match is not None else {}
    response = ann.post(url(tally_match), {"record": hand([2, 2]), **body}, format="json", **headers)

    assert_error(response, 400, code, field)
    assert not Hand.objects.exists()


def test_a_stale_version_is_a_409_that_says_what_is_now_current(ann, tally_match, record_hand, user):
    record_hand(tally_match, [3, 1])

    response = ann.post(url(tally_match), {"record": hand([1, 3]), "version": 0}, format="json")

    body = assert_error(response, 409, "version_conflict", "version")
    assert (body["current_version"], body["hand_count"], body["status"]) == (1, 1, "in_progress")
    assert body["last_hand"] | {"recorded_at": None} == {
        "number": 1, "version": 1, "status": "valid", "declared": [3, 1], "computed": [3, 1],
        "recorded_by": "ann", "recorded_at": None,
    }  # fmt: skip
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_record_with_errors_is_a_400_with_the_rule_errors_and_nothing_is_stored(ann, tally_match):
    record = {"dealer": 5, "points": [1, 2], "declared": [1]}

    response = ann.post(url(tally_match), {"record": record, "version": 0}, format="json")

    body = assert_error(response, 400, "hand_invalid", "record.dealer")
    assert {(e["code"], e["field"], e["path"]) for e in body["errors"]} == {
        ("seat_out_of_range", "record.dealer", "dealer"),
        ("array_length", "record.declared", "declared"),
    }
    assert body["evaluation"]["valid"] is False and body["evaluation"]["scores"] is None
    assert not Hand.objects.exists()
    assert Match.objects.get(pk=tally_match.pk).version == 0


@pytest.mark.parametrize("record", [None, [], "a hand", 3, {"points": "many"}])
def test_a_record_that_is_not_a_hand_is_a_400(ann, tally_match, record):
    response = ann.post(url(tally_match), {"record": record, "version": 0}, format="json")

    body = assert_error(response, 400)
    # Not an object: the body's shape (as the schema says), before the engine looks at it.
    assert body["code"] in ("hand_invalid", "null", "not_a_dict")
    assert not Hand.objects.exists()


def test_declared_scores_that_differ_are_a_400_listing_each_seat_and_nothing_is_stored(
    record_hand, tally_match
):
    response = record_hand(tally_match, [3, 1], declared=[4, 0])

    body = assert_error(response, 400, "score_mismatch", "record")
    assert [(m["seat"], m["declared"], m["computed"]) for m in body["mismatches"]] == [(0, 4, 3), (1, 0, 1)]
    assert all(m["explanation"] for m in body["mismatches"])
    assert body["evaluation"]["scores"] == [3, 1]
    assert not Hand.objects.exists()


def test_accepting_declared_scores_needs_a_reason(record_hand, tally_match):
    response = record_hand(tally_match, [3, 1], declared=[4, 0], accept_declared=True, reason="  ")

    body = assert_error(response, 400, "reason_required", "reason")
    assert len(body["mismatches"]) == 2
    assert not Hand.objects.exists()


def test_accepted_declared_scores_are_stored_disputed_with_the_reason_audited(record_hand, tally_match):
    response = record_hand(tally_match, [3, 1], declared=[4, 0], accept_declared=True, reason="table vote")

    assert response.status_code == 201
    body = response.json()
    assert body["hand"]["status"] == "disputed" and body["hand"]["accepted_declared"] is True
    assert body["match"]["totals"] == [4, 0]  # the declared values stand (spec 1.6)
    assert body["evaluation"]["valid"] is False and len(body["evaluation"]["mismatches"]) == 2
    stored = Hand.objects.get(match=tally_match)
    assert (stored.status, stored.reason, stored.computed) == ("disputed", "table vote", [3, 1])
    audit = AuditEntry.objects.get(action="hand_record", hand=stored)
    assert audit.payload["reason"] == "table vote" and audit.actor.username == "ann"


def test_a_hand_for_a_finished_match_is_a_409(record_hand, tally_match):
    assert record_hand(tally_match, [10, 2]).json()["match"]["status"] == "finished"

    response = record_hand(tally_match, [1, 1])

    body = assert_error(response, 409, "match_over")
    assert body["result"]["winner"] == 0
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_hand_for_a_void_match_is_a_409(record_hand, tally_match, user):
    match_void(match=tally_match, by=user, reason="abandoned")

    assert_error(record_hand(tally_match, [1, 1]), 409, "match_void")
    assert not Hand.objects.exists()


def test_only_scorers_may_record(bob, anon, tally_match):
    body = {"record": hand([1, 1]), "version": 0}

    assert_error(bob.post(url(tally_match), body, format="json"), 403, "not_a_scorer")
    anonymous = assert_error(anon.post(url(tally_match), body, format="json"), 401, "not_authenticated")
    assert anonymous["field"] == ""
    assert not Hand.objects.exists()


def test_a_hand_for_a_missing_match_is_a_404(ann, tally):
    response = ann.post("/api/v1/matches/999999/hands", {"record": hand([1, 1]), "version": 0}, format="json")

    assert_error(response, 404, "match_not_found")


def test_the_current_hands_are_listed_paginated_and_one_can_be_read(anon, tally_match, user):
    for points in ([1, 2], [2, 1], [0, 0]):
        hand_record(match=tally_match, record=hand(points), by=user)

    page = anon.get(url(tally_match), {"page_size": 2}).json()
    one = anon.get(url(tally_match, "/2"))

    assert page["count"] == 3 and [h["number"] for h in page["results"]] == [1, 2]
    assert page["next"].endswith("page=2&page_size=2")
    assert one.status_code == 200 and one.json()["computed"] == [2, 1]
    assert_error(anon.get(url(tally_match, "/4")), 404, "not_found")
    assert_error(anon.get("/api/v1/matches/999999/hands"), 404, "not_found")


def _queries(client, path, method="get", **kwargs):
    """(every query, those reading the other side's answers) of one request."""
    with CaptureQueriesContext(connection) as captured:
        response = getattr(client, method)(path, **kwargs)
    assert response.status_code in (200, 201), response.content
    table = HandConfirmation._meta.db_table
    return len(captured), sum(table in query["sql"] for query in captured)


def test_the_hands_answers_are_one_query_however_many_hands_and_versions(ann, user, tally, make_players):
    """Every hand representation gives its answer (tests/api/test_confirmations.py), read in one
    query: the counts of a match of one hand and of one of six, each version answered, are equal."""

    def counts(hands: int) -> dict[str, tuple[int, int]]:
        match = match_create(game="tally", players=make_players(f"Ada {hands}", f"Bea {hands}"), by=user)
        bea = match.seats.get(position=1).player
        for _ in range(hands):
            hand_record(match=match, record=hand([1, 0]), by=user)
        for version in range(1, hands + 1):  # hand 1 in as many versions, each answered
            if version > 1:
                hand_correct(match=match, number=1, record=hand([0, 1]), by=user)
            hand_dispute(match=match, number=1, by=user, player=bea, reason="no")
        for number in range(2, hands + 1):
            hand_confirm(match=match, number=number, by=user, player=bea)
        base = f"/api/v1/matches/{match.pk}"
        version = Match.objects.get(pk=match.pk).version
        return {
            "sheet": _queries(ann, base),
            "list": _queries(ann, f"{base}/hands"),
            "detail": _queries(ann, f"{base}/hands/1"),
            "history": _queries(ann, f"{base}/hands/1/history"),
            # A version just written has no answer: its write reads none.
            "record": _queries(
                ann, f"{base}/hands", "post", data={"record": hand([1, 0]), "version": version}, format="json"
            ),
        }

    one, six = counts(1), counts(6)

    assert one == six
    assert {name: answers for name, (_, answers) in six.items()} == {
        "sheet": 1, "list": 1, "detail": 1, "history": 1, "record": 0,
    }  # fmt: skip
