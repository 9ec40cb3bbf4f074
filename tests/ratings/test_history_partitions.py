"""PostgreSQL: a pool's history lives in a partition of its own once it has been recomputed in
full; the recompute writes a fresh partition and swaps it in whole (ratings/history_table.py),
giving the very rows the incremental path gives, and leaving no old rows behind."""

from __future__ import annotations

import threading

import pytest
from django.db import connection, connections

from ratings import services as ratings
from ratings.history_table import TABLE, partition_name
from ratings.models import RatingHistory, RatingPool
from tests.ratings.test_services import recompute_from_nothing, snapshot

pytestmark = [
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's partitions"),
]


def partitions() -> dict[str, str]:
    """Each partition of the history: its name → its bound."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) FROM pg_inherits i "
            "JOIN pg_class c ON c.oid = i.inhrelid WHERE i.inhparent = %s::regclass ORDER BY 1",
            [TABLE],
        )
        return dict(cursor.fetchall())


def rows_in(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT count(*) FROM "{table}"')
        return cursor.fetchone()[0]


def oid_of(table: str) -> int:
    with connection.cursor() as cursor:
        cursor.execute("SELECT %s::regclass::oid", [table])
        return cursor.fetchone()[0]


@pytest.mark.django_db
def test_a_full_recompute_swaps_in_a_partition_of_the_pools_own(play):
    play([0, 1], [10, 3])
    play([1, 2, 3], [2, 10, 5])
    ratings.rating_events_process_all()
    pool = RatingPool.objects.get(game="tally")
    incremental = snapshot()
    assert partitions() == {f"{TABLE}_default": "DEFAULT"}  # a new pool's rows: the default one
    assert rows_in(f"{TABLE}_default") == 5

    assert recompute_from_nothing() == incremental
    own = partition_name(pool.pk)
    assert partitions() == {f"{TABLE}_default": "DEFAULT", own: f"FOR VALUES IN ('{pool.pk}')"}
    assert rows_in(own) == 5 and rows_in(f"{TABLE}_default") == 0
    first = oid_of(own)

    assert recompute_from_nothing() == incremental  # again: a new table, the old one dropped
    assert oid_of(own) != first and rows_in(own) == 5
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_class WHERE relname LIKE %s", [f"{own}%"])
        tables_and_indexes = cursor.fetchone()[0]
    assert tables_and_indexes == 1 + 3  # the partition, its key and its two indexes: no leftovers


@pytest.mark.django_db
def test_after_the_swap_new_matches_go_to_the_pools_partition_and_a_replay_agrees(play):
    play([0, 1], [10, 3])
    ratings.rating_events_process_all()
    recompute_from_nothing()
    pool = RatingPool.objects.get(game="tally")

    play([2, 3, 0], [1, 10, 4])
    ratings.rating_events_process_all()

    assert rows_in(partition_name(pool.pk)) == 5 == RatingHistory.objects.filter(pool=pool).count()
    incremental = snapshot()
    assert recompute_from_nothing() == incremental


@pytest.mark.django_db(transaction=True)
def test_two_pools_recomputed_at_once_both_finish(play):
    play([0, 1], [10, 3])
    play([2, 3], [4, 10])
    ratings.rating_events_process_all()
    tally = RatingPool.objects.get(game="tally")
    empty = RatingPool.objects.create(game="piquet")  # no matches: an empty partition
    outcomes, errors = {}, []
    start = threading.Barrier(2)

    def recompute(pool):
        try:
            start.wait(timeout=10)
            outcomes[pool.game] = ratings.rating_pool_recompute(pool=pool)
        except BaseException as error:  # reported below
            errors.append(error)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=recompute, args=(pool,)) for pool in (tally, empty)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)

    assert not errors, errors
    assert outcomes == {
        "tally": {"pool": "tally", "replayed": 2},
        "piquet": {"pool": "piquet", "replayed": 0},
    }
    assert {partition_name(tally.pk), partition_name(empty.pk)} <= set(partitions())
    assert rows_in(partition_name(tally.pk)) == 4
