"""The recovery bound in numbers (scorekeeper/outbox/checks.py, docs/ratings.md "Recovery"): the
production defaults keep a lost task within 2 minutes of the fault, ``manage.py check`` warns
when the settings do not; a running task beats and the sweep leaves it alone; a retried task
keeps its message. The faults themselves, with real processes: tests/integration/test_recovery.py.
"""

from __future__ import annotations

import logging
import runpy
import time
from datetime import timedelta

import pytest
from celery import shared_task
from celery.exceptions import Retry
from django.db import OperationalError
from django.test import override_settings
from django.utils import timezone

import scorekeeper.settings as settings_module
from scorekeeper.matches.tasks import match_recompute
from scorekeeper.outbox import checks
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_heartbeat, outbox_sweep
from scorekeeper.outbox.tasks import OutboxTask

OUTBOX_SETTINGS = (
    "OUTBOX_GRACE", "OUTBOX_HEARTBEAT", "OUTBOX_REDELIVER_AFTER", "OUTBOX_SWEEP_INTERVAL",
    "OUTBOX_TASK_BUDGET", "CELERY_VISIBILITY_TIMEOUT",
)  # fmt: skip


@pytest.fixture
def defaults(monkeypatch):
    """The settings module read afresh with none of the outbox's variables set: production's."""
    for name in OUTBOX_SETTINGS:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:6379/0")
    module = runpy.run_path(settings_module.__file__)
    return {name: module[name] for name in (*OUTBOX_SETTINGS, "CELERY_BEAT_SCHEDULE")}


def test_the_production_defaults_bound_recovery_to_two_minutes(defaults):
    with override_settings(**defaults):
        bound = checks.recovery_bound()
        assert checks.check_recovery_bound() == []
    grace, redeliver, sweep, budget = (
        bound["grace"], bound["redeliver_after"], bound["sweep_interval"], bound["task_budget"]
    )  # fmt: skip
    # The sum of every term, as if none overlapped, is within the promise, the worker's
    # reconnection to Redis included; the bound itself (docs/ratings.md, Recovery) is lower.
    assert grace + redeliver + sweep + budget <= checks.RECOVERY_PROMISE == 120
    assert bound["conservative"] == grace + redeliver + sweep + budget + bound["broker_reconnect"] <= 120
    assert bound["bound"] == max(redeliver, grace, bound["broker_reconnect"]) + sweep + budget <= 120
    print(f"recovery bound with the defaults: {bound}")
    # A live task beats twice within the redelivery window, so the sweep never hands it over.
    assert 2 * defaults["OUTBOX_HEARTBEAT"] <= redeliver
    # Redis's own redelivery comes after the outbox's, never before it.
    assert defaults["CELERY_VISIBILITY_TIMEOUT"] > redeliver + sweep
    assert defaults["CELERY_BEAT_SCHEDULE"]["outbox-sweep"] == {
        "task": "outbox.sweep",
        "schedule": sweep,
        "options": {"expires": sweep},
    }


@pytest.mark.parametrize(
    ("overrides", "code"),
    [
        ({"OUTBOX_REDELIVER_AFTER": 960}, "outbox.W001"),  # the old 16 minutes
        ({"OUTBOX_TASK_BUDGET": 90}, "outbox.W001"),
        ({"OUTBOX_HEARTBEAT": 30}, "outbox.W002"),
    ],
)
def test_the_check_warns_when_the_settings_break_the_bound(overrides, code):
    with override_settings(**overrides):
        assert [found.id for found in checks.check_recovery_bound()] == [code]


def test_the_check_warns_when_beat_does_not_sweep_at_the_interval(settings):
    settings.CELERY_BEAT_SCHEDULE = {
        **settings.CELERY_BEAT_SCHEDULE, "outbox-sweep": {"task": "outbox.sweep", "schedule": 60.0}
    }  # fmt: skip
    assert [found.id for found in checks.check_recovery_bound()] == ["outbox.W003"]


@pytest.mark.django_db
def test_the_sweep_hands_over_only_a_message_whose_last_sign_of_life_is_old(tally_match, settings):
    now = timezone.now()
    old = now - timedelta(seconds=settings.OUTBOX_REDELIVER_AFTER + 30)
    recent = now - timedelta(seconds=settings.OUTBOX_HEARTBEAT)

    def message(alive_at):
        return OutboxMessage.objects.create(
            task="tests.never_run", kwargs={}, created_at=now - timedelta(hours=1), dispatched_at=old,
            attempts=1, alive_at=alive_at,
        )  # fmt: skip

    running = message(recent)  # a long task that still beats
    frozen = message(old)  # beat once, then stopped: died or froze
    lost = message(None)  # never beat: lost before its first beat
    assert outbox_sweep()["due"] == 2  # (the test's task name is no task: the hand-over fails)
    attempts = dict(OutboxMessage.objects.values_list("pk", "attempts"))
    assert attempts == {running.pk: 1, frozen.pk: 2, lost.pk: 2}


@pytest.mark.django_db(transaction=True)  # the beats are written by a thread, on its own connection
def test_a_heartbeat_notes_that_the_task_runs_and_writes_nothing_for_a_short_one(tally_match):
    message = OutboxMessage.objects.create(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
    with outbox_heartbeat(message_id=message.pk, every=0.1):
        pass  # done before the first beat
    message.refresh_from_db()
    assert message.alive_at is None

    with outbox_heartbeat(message_id=message.pk, every=0.1):
        deadline = time.monotonic() + 10
        while not OutboxMessage.objects.filter(pk=message.pk, alive_at__isnull=False).exists():
            assert time.monotonic() < deadline, "no heartbeat written"
            time.sleep(0.05)
    message.refresh_from_db()
    first = message.alive_at
    assert timezone.now() - first < timedelta(seconds=5)
    time.sleep(0.3)  # the block is over: no more beats
    message.refresh_from_db()
    assert message.alive_at == first


_flaky_runs: list[dict] = []


@shared_task(bind=True, name="tests.outbox_flaky", base=OutboxTask, autoretry_for=(OperationalError,))
def _flaky(self, n: int) -> int:
    _flaky_runs.append(dict(self.request.kwargs))
    raise OperationalError("the database went away")


@pytest.mark.django_db
def test_a_retried_outbox_task_keeps_its_message(tally_match):
    """``autoretry_for`` sends the retry from the request: it must carry ``outbox_id``, or the retry
    that succeeds would leave the message pending for the sweep to run it once more."""
    message = OutboxMessage.objects.create(task=_flaky.name, kwargs={"n": 1})
    _flaky_runs.clear()
    with pytest.raises(Retry) as retry:
        _flaky.apply(kwargs={"n": 1, "outbox_id": message.pk}, throw=True)
    assert retry.value.sig.kwargs == {"n": 1, "outbox_id": message.pk}
    assert _flaky_runs == [{"n": 1, "outbox_id": message.pk}]
    message.refresh_from_db()
    assert message.pending  # the task did not end: not done


@pytest.mark.django_db
def test_a_task_over_its_budget_is_logged_and_still_done(tally_match, settings, caplog):
    settings.OUTBOX_TASK_BUDGET = 0
    message = OutboxMessage.objects.create(task=match_recompute.name, kwargs={"match_id": tally_match.pk})
    with caplog.at_level(logging.WARNING, logger="scorekeeper.outbox.tasks"):
        match_recompute.apply(kwargs={"match_id": tally_match.pk, "outbox_id": message.pk}, throw=True)
    message.refresh_from_db()
    assert message.done_at is not None
    assert "over OUTBOX_TASK_BUDGET (0 s)" in caplog.text and f"outbox message {message.pk}" in caplog.text
