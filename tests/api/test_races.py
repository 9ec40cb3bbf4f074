"""Retries and races through the API, with real concurrent transactions (PostgreSQL only).

20 identical POSTs with one Idempotency-Key at once store one hand and all get the same
201; two devices recording hand n at once end as one 201 and one 409 that says what is
now current, and nothing is lost.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import Hand, Match
from tests.conftest import require_services
from tests.fakes import hand

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def run_at_once(*calls):
    """Run the calls in threads released together; returns their results in order."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, call):
        try:
            barrier.wait(timeout=30)
            results[i] = call()
        except Exception as exc:  # reported by the assertions
            results[i] = exc
        finally:
            connection.close()  # each thread has its own connection

    threads = [threading.Thread(target=run, args=(i, call)) for i, call in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert not any(t.is_alive() for t in threads), "a request never finished"
    return results


def token_client(user):
    from api.tokens import token_create

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
    return client


def test_twenty_concurrent_identical_posts_with_one_key_store_one_hand(tally_match, user):
    require_services(redis=False, why="concurrent transactions")
    url = f"/api/v1/matches/{tally_match.pk}/hands"
    body = {"record": hand([3, 1]), "version": 0}
    client = token_client(user)

    def post():
        response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="retry-storm")
        return response.status_code, response.json()

    results = run_at_once(*[post] * 20)

    assert [r for r in results if isinstance(r, Exception)] == []
    assert {status for status, _ in results} == {201}
    assert all(body == results[0][1] for _, body in results)
    assert Hand.objects.filter(match=tally_match).count() == 1
    assert Match.objects.get(pk=tally_match.pk).version == 1
    assert IdempotencyKey.objects.filter(key="retry-storm").count() == 1


def test_two_devices_racing_for_hand_n_end_as_one_201_and_one_409_with_nothing_lost(
    tally_match, user, other_user
):
    require_services(redis=False, why="concurrent transactions")
    from scorekeeper.matches.services import hand_record, match_scorer_add

    match_scorer_add(match=tally_match, user=other_user, by=user)
    hand_record(match=tally_match, record=hand([1, 1]), by=user)  # hand 1; the race is for hand 2
    url = f"/api/v1/matches/{tally_match.pk}/hands"

    def device(scorer, points, key):
        client = token_client(scorer)

        def post():
            body = {"record": hand(points, dealer=1), "version": 1}
            response = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=key)
            return response.status_code, response.json()

        return post

    results = run_at_once(device(user, [3, 1], "ann-2"), device(other_user, [1, 3], "bob-2"))

    assert sorted(status for status, _ in results) == [201, 409]
    (_, won), (_, lost) = sorted(results, key=lambda r: r[0])
    assert lost["code"] == "version_conflict"
    assert (lost["current_version"], lost["hand_count"]) == (2, 2)
    assert lost["last_hand"]["number"] == 2
    assert lost["last_hand"]["computed"] == won["hand"]["computed"]
    hands = list(Hand.objects.filter(match=tally_match).order_by("number"))
    assert [(h.number, h.version, h.status) for h in hands] == [(1, 1, "valid"), (2, 1, "valid")]
    assert hands[1].computed == won["hand"]["computed"]
    assert Match.objects.get(pk=tally_match.pk).version == 2
