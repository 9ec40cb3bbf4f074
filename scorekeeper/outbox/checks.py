"""The outbox's promise in numbers: a task lost to any single fault (Redis restarted and its
queue lost, a worker killed, a worker frozen then killed) has run within ``RECOVERY_PROMISE``
seconds of the fault. docs/ratings.md, "Recovery", derives the bound; ``manage.py check`` warns
when the settings break it.
"""

from __future__ import annotations

import inspect

from django.conf import settings
from django.core import checks

#: Seconds from a fault to the lost task's end (issue 23: every rating event within 2 minutes).
RECOVERY_PROMISE = 120


def broker_reconnect_max() -> float:
    """The longest pause between a worker's attempts to reach Redis again after losing it: Celery's
    consumer reconnects with kombu's defaults (2 s, then 2 s more each time, at most this)."""
    from kombu import Connection

    return float(inspect.signature(Connection._ensure_connection).parameters["interval_max"].default)


def recovery_bound() -> dict[str, float]:
    """The terms of the bound and the bound itself, from the settings.

    A lost message's last sign of life (its hand-over, its task's last heartbeat) is no later
    than the fault; one that was never handed over (Redis was down) is at least ``grace`` old
    once Redis is back. The first sweep after ``max(redeliver_after, grace, broker_reconnect)``
    (the worker, which runs the sweeps, may take that long to reach Redis again) comes within
    ``sweep_interval``, hands the message over, and its task takes at most ``task_budget``
    (waiting in the queue or on the pool's lock included). ``conservative`` adds every term up,
    as if none overlapped.
    """
    terms = {
        "grace": float(settings.OUTBOX_GRACE),
        "redeliver_after": float(settings.OUTBOX_REDELIVER_AFTER),
        "sweep_interval": float(settings.OUTBOX_SWEEP_INTERVAL),
        "task_budget": float(settings.OUTBOX_TASK_BUDGET),
        "broker_reconnect": broker_reconnect_max(),
    }
    first_due = max(terms["redeliver_after"], terms["grace"], terms["broker_reconnect"])
    return {
        **terms,
        "bound": first_due + terms["sweep_interval"] + terms["task_budget"],
        "conservative": sum(terms.values()),
    }


@checks.register()
def check_recovery_bound(app_configs=None, **kwargs) -> list[checks.CheckMessage]:
    found: list[checks.CheckMessage] = []
    bound = recovery_bound()
    if bound["bound"] > RECOVERY_PROMISE:
        found.append(
            checks.Warning(
                f"The outbox's settings let a lost task wait {bound['bound']:.0f} s after a fault, over "
                f"the {RECOVERY_PROMISE} s promised.",
                hint="Lower OUTBOX_REDELIVER_AFTER, OUTBOX_SWEEP_INTERVAL or OUTBOX_TASK_BUDGET "
                "(docs/ratings.md, Recovery).",
                id="outbox.W001",
            )
        )
    if 2 * settings.OUTBOX_HEARTBEAT > settings.OUTBOX_REDELIVER_AFTER:
        found.append(
            checks.Warning(
                "OUTBOX_HEARTBEAT is over half of OUTBOX_REDELIVER_AFTER: the sweep may hand over "
                "again a task that is still running.",
                hint="A running task beats every OUTBOX_HEARTBEAT seconds; keep two beats within "
                "OUTBOX_REDELIVER_AFTER.",
                id="outbox.W002",
            )
        )
    beat = settings.CELERY_BEAT_SCHEDULE.get("outbox-sweep", {})
    if beat.get("task") != "outbox.sweep" or beat.get("schedule") != settings.OUTBOX_SWEEP_INTERVAL:
        found.append(
            checks.Warning(
                "Beat does not run outbox.sweep every OUTBOX_SWEEP_INTERVAL seconds: nothing hands "
                "a lost task over again in time.",
                id="outbox.W003",
            )
        )
    return found
