"""Offline capture's server side: the service worker at /sw.js, and /matches/<id>/hands/send/,
where the browser's queue sends each hand saved without a network, with its Idempotency-Key:
a hand is stored once however often it is sent, a refusal says why, a version conflict gives
the hand recorded meanwhile."""

import pytest
from django.urls import reverse

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import Hand
from scorekeeper.matches.services import hand_record, match_create
from tests.pages.test_live_check import DEAL_1, RECORD_1

pytestmark = pytest.mark.django_db


@pytest.fixture
def piquet_match(user, make_players):
    return match_create(game="piquet", players=make_players("Anne", "Bruno"), by=user)


def send(client, match, data, key="k-1"):
    headers = {"HTTP_IDEMPOTENCY_KEY": key} if key else {}
    response = client.post(reverse("hand-send", args=[match.pk]), data, **headers)
    assert response["Content-Type"] == "application/json"
    return response, response.json()


def test_the_service_worker_is_served_from_the_root_with_its_shell_and_version(client):
    response = client.get("/sw.js")

    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert response["Cache-Control"] == "no-cache"
    text = response.content.decode()
    assert '"/static/matches/offline.js"' in text and '"/static/scorekeeper/site.css"' in text
    assert 'var CACHE_VERSION = "' in text and 'addEventListener("fetch"' in text


def test_every_page_names_the_worker_and_the_user_the_hand_form_its_queue(scorer, piquet_match, user):
    page = scorer.get(reverse("hand-new", args=[piquet_match.pk])).content.decode()

    assert 'data-sw="/sw.js"' in page and f'data-user="{user.pk}"' in page
    assert f'data-offline-send="{reverse("hand-send", args=[piquet_match.pk])}"' in page
    assert 'id="offline-banner"' in page and "matches/offline.js" in page


def test_a_queued_hand_is_recorded_once_however_often_it_is_sent(scorer, piquet_match):
    data = {**DEAL_1, "version": piquet_match.version}

    first, body = send(scorer, piquet_match, data)
    again, replayed = send(scorer, piquet_match, data)

    assert first.status_code == again.status_code == 201
    assert body == replayed and again["Idempotent-Replayed"] == "true"
    assert body["code"] == "recorded" and body["number"] == 1
    assert body["version"] == piquet_match.version + 1
    assert body["url"] == reverse("hand-detail", args=[piquet_match.pk, 1])
    assert Hand.objects.filter(match=piquet_match).count() == 1
    assert Hand.objects.get(match=piquet_match).record == RECORD_1


def test_the_same_key_with_another_hand_is_refused(scorer, piquet_match):
    send(scorer, piquet_match, {**DEAL_1, "version": piquet_match.version})
    response, body = send(scorer, piquet_match, {**DEAL_1, "declared_0": "44", "version": 1})

    assert response.status_code == 422 and body["code"] == "idempotency_key_reused"
    assert Hand.objects.filter(match=piquet_match).count() == 1


def test_a_version_conflict_gives_the_hand_recorded_meanwhile_and_keeps_no_key(
    scorer, piquet_match, other_user
):
    seen = piquet_match.version
    piquet_match.scorers.add(other_user)
    hand_record(match=piquet_match, record=RECORD_1, by=other_user, version=seen)

    response, body = send(scorer, piquet_match, {**DEAL_1, "version": seen})

    assert response.status_code == 409 and body["code"] == "version_conflict"
    assert body["message"] == "bob recorded hand 1 meanwhile."
    assert body["version"] == seen + 1 and body["hand_count"] == 1
    theirs = body["theirs"]
    assert (theirs["number"], theirs["by"]) == (1, "bob")
    assert [(s["name"], s["score"]) for s in theirs["seats"]] == [("Anne", 43), ("Bruno", 23)]
    assert not IdempotencyKey.objects.exists()  # sent again, it is checked again

    response, body = send(scorer, piquet_match, {**DEAL_1, "dealer": "0", "version": seen + 1})
    assert response.status_code in (201, 400)  # checked afresh against hand 2's state


def test_a_refused_hand_says_why_and_stores_nothing(scorer, piquet_match):
    response, body = send(
        scorer, piquet_match, {**DEAL_1, "declared_0": "44", "version": piquet_match.version}
    )

    assert response.status_code == 400 and body["code"] == "refused"
    assert "Anne" in body["message"] and "43" in body["message"]
    assert not Hand.objects.exists() and not IdempotencyKey.objects.exists()


def test_a_hand_without_a_key_is_refused(scorer, piquet_match):
    response, body = send(scorer, piquet_match, {**DEAL_1, "version": piquet_match.version}, key="")

    assert response.status_code == 400 and body["code"] == "idempotency_key_invalid"
    assert not Hand.objects.exists()


def test_only_a_scorer_sends(scorer, piquet_match, other_user):
    scorer.force_login(other_user)
    response = scorer.post(reverse("hand-send", args=[piquet_match.pk]), DEAL_1, HTTP_IDEMPOTENCY_KEY="x")

    assert response.status_code == 403 and not Hand.objects.exists()


def test_after_a_conflict_a_queued_hand_may_be_sent_as_a_correction(scorer, piquet_match, other_user):
    piquet_match.scorers.add(other_user)
    hand_record(match=piquet_match, record=RECORD_1, by=other_user, version=piquet_match.version)
    piquet_match.refresh_from_db()
    url = reverse("hand-send-correction", args=[piquet_match.pk, 1])
    mine = {**DEAL_1, "declared_0": "43", "version": piquet_match.version}

    response = scorer.post(url, {**mine, "reason": "typed offline at the table"}, HTTP_IDEMPOTENCY_KEY="c-2")
    body = response.json()
    assert response.status_code == 201 and body["number"] == 1
    assert body["version"] == piquet_match.version + 1
    assert Hand.objects.filter(match=piquet_match, number=1).count() == 2  # the old version stays
    missing = scorer.post(
        reverse("hand-send-correction", args=[piquet_match.pk, 9]), mine, HTTP_IDEMPOTENCY_KEY="c-3"
    )
    assert missing.status_code == 404 and missing.json()["code"] == "not_found"
