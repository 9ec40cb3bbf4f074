"""The Idempotency-Key header: a retry gets the original response and never stores twice."""

from __future__ import annotations

import pytest

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import Hand, Match, Player
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def post_hand(client, match, points, key, version=0, **extra):
    body = {"record": hand(points), "version": version, **extra}
    return client.post(f"/api/v1/matches/{match.pk}/hands", body, format="json", HTTP_IDEMPOTENCY_KEY=key)


def test_a_retry_with_the_same_key_and_body_gets_the_original_response_and_stores_once(ann, tally_match):
    first = post_hand(ann, tally_match, [3, 1], "k-1")
    retry = post_hand(ann, tally_match, [3, 1], "k-1")

    assert first.status_code == retry.status_code == 201
    assert retry.json() == first.json()
    assert retry["Idempotent-Replayed"] == "true" and not first.has_header("Idempotent-Replayed")
    assert retry["ETag"] == first["ETag"] == '"1"' and retry["Location"] == first["Location"]
    assert Hand.objects.filter(match=tally_match).count() == 1
    assert Match.objects.get(pk=tally_match.pk).version == 1
    stored = IdempotencyKey.objects.get(key="k-1")
    assert (stored.user.username, stored.status_code, stored.method) == ("ann", 201, "POST")


def test_the_same_key_with_another_body_is_a_422_and_nothing_is_stored(ann, tally_match):
    post_hand(ann, tally_match, [3, 1], "k-1")

    response = post_hand(ann, tally_match, [1, 3], "k-1", version=1)

    assert_error(response, 422, "idempotency_key_reused", "Idempotency-Key")
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_the_same_key_on_another_endpoint_is_a_422(ann, tally_match):
    post_hand(ann, tally_match, [3, 1], "k-1")

    response = ann.post("/api/v1/players", {"name": "Cid"}, format="json", HTTP_IDEMPOTENCY_KEY="k-1")

    assert_error(response, 422, "idempotency_key_reused")
    assert not Player.objects.filter(name="Cid").exists()


def test_a_rejected_request_is_replayed_as_rejected(ann, tally_match):
    first = post_hand(ann, tally_match, [3, 1], "k-1", version=7)
    post_hand(ann, tally_match, [1, 1], "k-2")  # the match is now at version 1

    retry = post_hand(ann, tally_match, [3, 1], "k-1", version=7)

    assert first.status_code == retry.status_code == 409
    assert retry.json() == first.json() and retry.json()["current_version"] == 0
    assert Hand.objects.filter(match=tally_match).count() == 1


def test_keys_belong_to_their_user(ann, bob, user, other_user, make_players):
    first = ann.post("/api/v1/players", {"name": "Cid"}, format="json", HTTP_IDEMPOTENCY_KEY="same")
    second = bob.post("/api/v1/players", {"name": "Dan"}, format="json", HTTP_IDEMPOTENCY_KEY="same")

    assert first.status_code == second.status_code == 201
    assert first.json()["id"] != second.json()["id"]
    assert IdempotencyKey.objects.filter(key="same").count() == 2


def test_a_whitespace_difference_in_the_json_is_the_same_request(ann):
    url = "/api/v1/players"
    first = ann.generic("POST", url, '{"name": "Cid"}', "application/json", HTTP_IDEMPOTENCY_KEY="k")
    retry = ann.generic("POST", url, '{ "name" :"Cid" }', "application/json", HTTP_IDEMPOTENCY_KEY="k")

    assert first.status_code == retry.status_code == 201
    assert Player.objects.filter(name="Cid").count() == 1


@pytest.mark.parametrize("key", ["", "   ", "x" * 256, "clé", "a\x00b"])
def test_a_malformed_key_is_a_400(ann, tally_match, key):
    response = post_hand(ann, tally_match, [3, 1], key)

    assert_error(response, 400, "idempotency_key_invalid", "Idempotency-Key")
    assert not Hand.objects.exists() and not IdempotencyKey.objects.exists()


def test_an_unauthenticated_request_does_not_use_up_the_key(anon, ann, tally_match):
    assert_error(post_hand(anon, tally_match, [3, 1], "k-1"), 401)

    assert post_hand(ann, tally_match, [3, 1], "k-1").status_code == 201


def test_every_post_but_the_token_request_takes_the_key(ann, anon, bob, tally_match, user):
    from scorekeeper.matches.services import hand_record

    hand_record(match=tally_match, record=hand([1, 1]), by=user)
    m = f"/api/v1/matches/{tally_match.pk}"
    players = list(tally_match.seats.values_list("player", flat=True))
    posts = [
        (anon, "/api/v1/rules/tally/score", {"seats": 2, "hand": hand([1, 2])}),
        (ann, "/api/v1/players", {"name": "Eve"}),
        (ann, "/api/v1/matches", {"game": "tally", "players": players}),
        (ann, f"{m}/scorers", {"username": "bob"}),
        (ann, f"{m}/hands/1/corrections", {"record": hand([2, 1]), "version": 1}),
        (ann, f"{m}/hands", {"record": hand([1, 1]), "version": 2}),
        (ann, f"{m}/void", {"reason": "test", "version": 3}),
        (ann, f"{m}/reopen", {"reason": "test", "version": 4}),
    ]  # fmt: skip
    for i, (client, url, body) in enumerate(posts):
        first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"key-{i}")
        retry = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"key-{i}")
        assert first.status_code < 300, (url, first.json())
        assert (retry.status_code, retry.json()) == (first.status_code, first.json()), url
        assert retry["Idempotent-Replayed"] == "true"
    assert Match.objects.get(pk=tally_match.pk).version == 5
    assert Hand.objects.filter(match=tally_match).count() == 3  # hand 1 in two versions, hand 2


def test_the_token_endpoint_is_never_replayed_from_storage(anon, django_user_model):
    django_user_model.objects.create_user("carl", password="a-long-password-1")
    body = {"username": "carl", "password": "a-long-password-1"}

    first = anon.post("/api/v1/auth/token", body, format="json", HTTP_IDEMPOTENCY_KEY="token-key")
    retry = anon.post("/api/v1/auth/token", body, format="json", HTTP_IDEMPOTENCY_KEY="token-key")

    assert first.status_code == retry.status_code == 200 and "Idempotent-Replayed" not in retry
    assert not IdempotencyKey.objects.exists()


def test_a_refused_request_keeps_none_of_its_writes_and_is_replayed_refused(ann, tally_match, monkeypatch):
    """A view that wrote, then refused: the write is rolled back, the refusal stored under the key."""
    from scorekeeper.matches import errors, services

    def write_then_refuse(**kwargs):
        Player.objects.create(name="Written before the refusal")
        raise errors.Invalid("refused after a write", field="record", code="hand_invalid")

    monkeypatch.setattr(services, "hand_record", write_then_refuse)
    first = post_hand(ann, tally_match, [3, 1], "k-1")
    monkeypatch.undo()
    retry = post_hand(ann, tally_match, [3, 1], "k-1")

    assert_error(first, 400, "hand_invalid")
    assert (retry.status_code, retry.json()) == (400, first.json())
    assert retry["Idempotent-Replayed"] == "true"
    assert not Player.objects.filter(name="Written before the refusal").exists()
    assert not Hand.objects.filter(match=tally_match).exists()
    assert IdempotencyKey.objects.get(key="k-1").status_code == 400


def test_an_outcome_a_twin_stored_after_the_refusal_is_the_keys(ann, tally_match, user, monkeypatch):
    """Between the rollback of a refused request and the storing of its refusal, a twin may
    claim the key and commit: the refused request then answers with the twin's outcome."""
    from scorekeeper.idempotency import services as idempotency
    from scorekeeper.matches import services

    claim = idempotency.idempotency_claim
    calls = []

    def twin_commits_before_the_second_claim(**kwargs):
        calls.append(kwargs["key"])
        if len(calls) == 2:  # the twin ran and recorded the hand in the meantime
            entry, _ = claim(**kwargs)
            services.hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
            idempotency.idempotency_store(entry=entry, status_code=201, response={"by": "the twin"})
        return claim(**kwargs)

    monkeypatch.setattr(idempotency, "idempotency_claim", twin_commits_before_the_second_claim)
    response = post_hand(ann, tally_match, [3, 1], "k-1", version=5)  # stale: 409, then the twin

    assert (response.status_code, response.json()) == (201, {"by": "the twin"})
    assert response["Idempotent-Replayed"] == "true"
    assert Hand.objects.filter(match=tally_match).count() == 1
