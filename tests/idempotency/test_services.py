"""services.idempotency_claim: the first request with a key claims it, the next finds the claim."""

import pytest
from django.db import transaction

from scorekeeper.idempotency import errors
from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.idempotency.services import idempotency_claim

pytestmark = pytest.mark.django_db


def claim(user, key="k-1", fingerprint="f" * 64):
    return idempotency_claim(user=user, key=key, fingerprint=fingerprint, method="POST", path="/api/v1/x")


def test_a_second_claim_finds_the_first_and_the_transaction_goes_on(user):
    with transaction.atomic():
        entry, first = claim(user)
        again, second = claim(user)  # the taken key did not spoil the transaction
        assert IdempotencyKey.objects.count() == 1

    assert (first, second) == (True, False) and again.pk == entry.pk
    stored = IdempotencyKey.objects.get()
    assert (stored.user, stored.key, stored.status_code, stored.headers) == (user, "k-1", 0, {})
    assert stored.created_at is not None and entry.created_at == stored.created_at


def test_keys_are_per_user_and_anonymous_requests_share_one_space(user, other_user):
    with transaction.atomic():
        assert claim(user)[1] and claim(other_user)[1]
        assert claim(None)[1] and not claim(None)[1]
        with pytest.raises(errors.IdempotencyKeyReused):
            claim(user, fingerprint="g" * 64)
    assert IdempotencyKey.objects.count() == 3


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_claim_outside_a_transaction_is_refused(user):
    with pytest.raises(RuntimeError):
        claim(user)
