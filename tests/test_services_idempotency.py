"""services.idempotency_claim: one INSERT … ON CONFLICT DO NOTHING, no savepoint around it."""

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from scorekeeper.matches import errors
from scorekeeper.matches.models import IdempotencyKey
from scorekeeper.matches.services import idempotency_claim

pytestmark = pytest.mark.django_db


def claim(user, key="k-1", fingerprint="f" * 64):
    return idempotency_claim(user=user, key=key, fingerprint=fingerprint, method="POST", path="/api/v1/x")


def test_a_first_claim_is_one_statement_and_a_second_finds_it_in_the_same_transaction(user):
    with transaction.atomic():
        with CaptureQueriesContext(connection) as queries:
            entry, first = claim(user)
        again, second = claim(user)  # the transaction is still usable: no error was raised in it
        assert IdempotencyKey.objects.count() == 1

    sql = [q["sql"] for q in queries.captured_queries]
    assert len(sql) == 1 and "ON CONFLICT DO NOTHING" in sql[0] and "SAVEPOINT" not in sql[0]
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
