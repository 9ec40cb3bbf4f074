"""Two devices recording the same hand at once: one wins, the other gets a conflict, nothing is lost.

The match row lock (select_for_update) makes the version check exact; this needs real
concurrent transactions, so PostgreSQL.
"""

import contextvars
import threading

import pytest
from django.db import connection

from scorekeeper.matches import errors
from scorekeeper.matches.models import Hand, Match
from scorekeeper.matches.services import hand_record
from tests.conftest import require_services
from tests.fakes import hand

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]


def test_two_scorers_racing_for_the_same_hand_end_as_one_hand_and_one_conflict(tally_match, user):
    require_services(redis=False, why="concurrent transactions")
    barrier = threading.Barrier(2)
    outcomes = []

    def record(points):
        try:
            barrier.wait()
            hand_record(match=tally_match.pk, record=hand(points), by=user, version=0)
            outcomes.append("stored")
        except errors.VersionConflict as exc:
            outcomes.append(exc.to_dict())
        finally:
            connection.close()

    # Each thread in a copy of the test's context: site-wide, as the test (a new thread's
    # context is empty, and the clubs' guard refuses a query in no scope).
    threads = [
        threading.Thread(target=contextvars.copy_context().run, args=(record, p)) for p in ([3, 1], [1, 3])
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)

    assert outcomes.count("stored") == 1 and len(outcomes) == 2
    conflict = next(o for o in outcomes if o != "stored")
    assert (conflict["code"], conflict["current_version"], conflict["hand_count"]) == (
        "version_conflict",
        1,
        1,
    )
    assert Hand.objects.filter(match=tally_match).count() == 1
    assert Match.objects.get(pk=tally_match.pk).version == 1
