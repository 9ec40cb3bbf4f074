"""Idempotency keys expire: after IDEMPOTENCY_KEY_TTL a key is forgotten (a new request), and the
hourly sweep deletes expired rows in batches."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.idempotency.services import idempotency_claim, idempotency_expire, idempotency_store

pytestmark = pytest.mark.django_db


def claim(user, key, fingerprint="f"):
    with transaction.atomic():
        entry, first = idempotency_claim(
            user=user, key=key, fingerprint=fingerprint, method="POST", path="/x"
        )
        if first:
            idempotency_store(entry=entry, status_code=201, response={"n": key})
    return entry, first


def age(hours, **filters):
    IdempotencyKey.objects.filter(**filters).update(created_at=timezone.now() - timedelta(hours=hours))


def test_the_window_is_24_hours_by_default(settings):
    assert settings.IDEMPOTENCY_KEY_TTL == 24 * 3600
    assert settings.CELERY_BEAT_SCHEDULE["idempotency-expire"] == {
        "task": "idempotency.expire",
        "schedule": 3600.0,
    }


def test_a_key_within_the_window_is_replayed_and_an_expired_one_is_a_new_request(user):
    claim(user, "k")
    age(23, key="k")
    assert claim(user, "k")[1] is False  # replayed
    with pytest.raises(Exception, match="already used"):
        claim(user, "k", fingerprint="other-body")  # still within the window: refused

    age(25, key="k")
    _, first = claim(user, "k", fingerprint="other-body")

    assert first and IdempotencyKey.objects.get(key="k").fingerprint == "other-body"


def test_the_sweep_deletes_expired_keys_in_batches_and_keeps_the_rest(user, other_user, settings):
    for i in range(7):
        claim(user, f"old-{i}")
    claim(other_user, "recent")
    claim(None, "anonymous-old")
    age(30, key__startswith="old-")
    age(30, key="anonymous-old")
    age(1, key="recent")

    assert idempotency_expire(batch=3) == 8

    assert list(IdempotencyKey.objects.values_list("key", flat=True)) == ["recent"]
    assert idempotency_expire(batch=3) == 0


def test_a_shorter_window_from_the_settings(user, settings):
    settings.IDEMPOTENCY_KEY_TTL = 60
    claim(user, "k")
    age(0.5, key="k")  # 30 minutes

    assert idempotency_expire() == 1


def test_the_beat_task_calls_the_sweep(user):
    from scorekeeper.idempotency.tasks import idempotency_expire as task

    claim(user, "old")
    age(48, key="old")

    assert task.name == "idempotency.expire"
    assert task.run() == 1


def test_the_task_still_runs_under_its_name_from_the_matches_app(user):
    """A beat message sent before the task moved apps names it so; it must not be refused."""
    from scorekeeper.celery import app

    app.loader.import_default_modules()  # as a worker does on start: every app's tasks module
    claim(user, "old")
    age(48, key="old")

    assert app.tasks["matches.idempotency_expire"].run() == 1
    assert app.tasks["idempotency.expire"].run() == 0
