"""POST …/hands/<n>/corrections and GET …/hands/<n>/history: corrections never lose a version."""

from __future__ import annotations

import pytest

from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import hand_record, match_void
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def record(match, user, *points_lists):
    for i, points in enumerate(points_lists):
        hand_record(match=match, record=hand(points, dealer=i % 2), by=user)


def correct(client, match, number, points, version=None, **extra):
    version = Match.objects.get(pk=match.pk).version if version is None else version
    body = {"record": hand(points), "version": version, **extra}
    return client.post(f"/api/v1/matches/{match.pk}/hands/{number}/corrections", body, format="json")


def test_a_correction_supersedes_the_hand_and_recomputes_the_later_ones(ann, tally_match, user):
    record(tally_match, user, [3, 1], [2, 2])

    response = correct(ann, tally_match, 1, [1, 1], reason="miscounted")

    assert response.status_code == 201
    body = response.json()
    assert (body["hand"]["number"], body["hand"]["version"], body["hand"]["supersedes"]) == (1, 2, 1)
    assert body["hand"]["reason"] == "miscounted"
    assert body["reevaluated"] == [2]
    assert body["match"]["totals"] == [3, 3] and body["version"] == 3
    assert response["ETag"] == '"3"'
    assert Hand.objects.filter(match=tally_match).count() == 4
    assert Hand.objects.get(match=tally_match, number=1, version=1).status == "superseded"
    assert AuditEntry.objects.filter(action="hand_correct", hand__match=tally_match).count() == 1


def test_a_correction_that_ends_the_match_earlier_sets_the_result(ann, tally_match, user):
    record(tally_match, user, [3, 1], [2, 2])

    body = correct(ann, tally_match, 1, [10, 1]).json()

    assert body["match"]["status"] == "finished" and body["match"]["result"]["totals"] == [10, 1]
    sheet = ann.get(f"/api/v1/matches/{tally_match.pk}").json()
    assert [h["status"] for h in sheet["hands"]] == ["valid", "disputed"]
    assert sheet["result"]["winner"] == 0


def test_the_history_lists_every_version_oldest_first(anon, ann, tally_match, user):
    record(tally_match, user, [3, 1])
    correct(ann, tally_match, 1, [2, 1])
    correct(ann, tally_match, 1, [1, 1])

    history = anon.get(f"/api/v1/matches/{tally_match.pk}/hands/1/history").json()

    assert history["count"] == 3
    assert [(h["version"], h["status"], h["computed"]) for h in history["results"]] == [
        (1, "superseded", [3, 1]),
        (2, "superseded", [2, 1]),
        (3, "valid", [1, 1]),
    ]


def test_the_history_of_a_missing_hand_or_match_is_a_404(anon, tally_match):
    assert_error(anon.get(f"/api/v1/matches/{tally_match.pk}/hands/1/history"), 404, "hand_not_found")
    assert_error(anon.get("/api/v1/matches/999999/hands/1/history"), 404, "not_found")


def test_correcting_a_missing_hand_is_a_404(ann, tally_match):
    assert_error(correct(ann, tally_match, 3, [1, 1]), 404, "hand_not_found", "number")


def test_a_correction_with_a_stale_version_is_a_409_and_changes_nothing(ann, tally_match, user):
    record(tally_match, user, [3, 1])

    body = assert_error(correct(ann, tally_match, 1, [1, 1], version=0), 409, "version_conflict")

    assert body["current_version"] == 1 and body["last_hand"]["number"] == 1
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_correction_is_validated_like_a_recording(ann, tally_match, user):
    record(tally_match, user, [3, 1])
    url = f"/api/v1/matches/{tally_match.pk}/hands/1/corrections"

    invalid = ann.post(url, {"record": {"dealer": 0}, "version": 1}, format="json")
    mismatch = ann.post(url, {"record": hand([2, 2], [3, 2]), "version": 1}, format="json")

    assert_error(invalid, 400, "hand_invalid")
    assert [m["seat"] for m in assert_error(mismatch, 400, "score_mismatch")["mismatches"]] == [0]
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_a_disputed_correction_keeps_the_reason(ann, tally_match, user):
    record(tally_match, user, [3, 1])
    url = f"/api/v1/matches/{tally_match.pk}/hands/1/corrections"
    body = {"record": hand([2, 2], [3, 2]), "version": 1, "accept_declared": True, "reason": "agreed"}

    response = ann.post(url, body, format="json")

    assert response.status_code == 201 and response.json()["hand"]["status"] == "disputed"
    assert Hand.objects.get(match=tally_match, version=2).reason == "agreed"


def test_only_scorers_may_correct_and_not_a_void_match(ann, bob, anon, tally_match, user):
    record(tally_match, user, [3, 1])

    assert_error(correct(bob, tally_match, 1, [1, 1]), 403, "not_a_scorer")
    assert_error(correct(anon, tally_match, 1, [1, 1]), 401)
    match_void(match=tally_match, by=user, reason="abandoned")
    assert_error(correct(ann, tally_match, 1, [1, 1]), 409, "match_void")
    assert Hand.objects.filter(match=tally_match).count() == 1
