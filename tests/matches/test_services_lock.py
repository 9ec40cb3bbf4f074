"""``services._lock``: the statement that locks a match for a write and reads what it checks."""

from __future__ import annotations

import contextvars
import threading

import psycopg
import pytest
from django.db import connection, transaction

from scorekeeper.matches import errors, services
from scorekeeper.matches.models import Hand, Match
from scorekeeper.matches.services import hand_record, match_scorer_add
from tests.conftest import other_connection, require_services
from tests.fakes import hand


def lock(match, by=None):
    with transaction.atomic():
        return services._lock(match, by=by)


@pytest.mark.django_db
def test_it_reads_the_match_with_its_seat_count_and_whether_the_user_scores_it(
    tally, tally_match, user, other_user, make_players
):
    from scorekeeper.matches.services import match_create

    three = match_create(game="tally", players=make_players("Cy", "Di", "Ed"), by=other_user)
    hand_record(match=tally_match, record=hand([3, 1]), by=user)

    mine = lock(tally_match, by=user)
    assert (mine.pk, mine.game, mine.seat_count, bool(mine.is_scorer)) == (tally_match.pk, "tally", 2, True)
    assert (mine.version, mine.hand_count, mine.state["totals"]) == (1, 1, [3, 1])
    assert lock(three.pk, by=user).seat_count == 3
    assert not lock(three, by=user).is_scorer and lock(three, by=other_user).is_scorer
    assert not lock(tally_match).is_scorer  # nobody (the system): no scorer check applies
    match_scorer_add(match=three, user=user, by=other_user)
    assert lock(three, by=user).is_scorer


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction
def test_a_missing_match_is_not_found_and_a_lock_outside_a_transaction_is_refused(tally_match, user):
    for missing in (tally_match.pk + 1000, 0, 2**63, 10**30):
        with pytest.raises(errors.NotFound), transaction.atomic():
            services._lock(missing, by=user)
    with pytest.raises(RuntimeError):
        services._lock(tally_match, by=user)


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_it_locks_the_match_row_and_nothing_else(tally_match, user):
    require_services(redis=False, why="concurrent transactions")
    with transaction.atomic():
        services._lock(tally_match, by=user)
        with other_connection() as other:
            with pytest.raises(psycopg.errors.LockNotAvailable):
                other.execute("SELECT 1 FROM matches_match WHERE id = %s FOR UPDATE NOWAIT", [tally_match.pk])
            seats = other.execute(
                "SELECT id FROM matches_seat WHERE match_id = %s FOR UPDATE NOWAIT", [tally_match.pk]
            )
            assert len(seats.fetchall()) == 2


@pytest.mark.integration
@pytest.mark.django_db(transaction=True)
def test_concurrent_recordings_without_a_version_get_consecutive_numbers(tally_match, user):
    """A write that waited for the lock numbers its hand after the one that held it."""
    require_services(redis=False, why="concurrent transactions")
    barrier = threading.Barrier(5)
    failures = []

    def record(i):
        try:
            barrier.wait()
            hand_record(match=tally_match.pk, record=hand([1, 0], dealer=i % 2), by=user)
        except Exception as exc:
            failures.append(repr(exc))
        finally:
            connection.close()

    # Each thread in a copy of the test's context: site-wide, as the test (a new thread's
    # context is empty, and the clubs' guard refuses a query in no scope).
    threads = [threading.Thread(target=contextvars.copy_context().run, args=(record, i)) for i in range(5)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=30)

    assert failures == []
    numbers = sorted(Hand.objects.filter(match=tally_match).values_list("number", flat=True))
    assert numbers == [1, 2, 3, 4, 5]
    match = Match.objects.get(pk=tally_match.pk)
    assert (match.hand_count, match.version) == (5, 5)
