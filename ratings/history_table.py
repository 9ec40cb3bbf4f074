"""PostgreSQL: a pool's rating history swapped in whole after a full recompute.

The history is partitioned by pool (migration 0005). A full recompute writes its rows into a
fresh table that has no indexes yet (``fresh_partition``), then ``swap_partition`` builds the
indexes once over all of it, drops the pool's old partition (or deletes the pool's rows from
the default partition, where a pool lives until its first full recompute) and attaches the
fresh one in its place. All of it runs in the recompute's transaction: a worker killed on the
way leaves the old partition as it was.

Why: written into indexed pages row by row, 400,000 history rows took seven seconds, six of
them in the indexes; loaded bare and indexed afterwards, under two. Dropping the old partition
also leaves no dead rows behind for a vacuum.

Locks: the fresh table is made from the model's own columns, not ``LIKE`` the partitioned
table, so that a recompute touches the partitioned table only at the swap. There it takes the
table's ACCESS EXCLUSIVE lock first, before the drop, the delete and the attach (each of which
wants a lock of its own, on the table or its default partition), and holds it until its commit:
readers of the history wait those milliseconds, and two pools swapped at once go in turn
instead of each waiting for a lock the other holds.
"""

from __future__ import annotations

import secrets

from django.db import connection

from .models import RatingHistory

TABLE = RatingHistory._meta.db_table
SEQUENCE = f"{TABLE}_id_seq"
#: The partitioned table's indexes (migrations 0005, 0011), built on a fresh partition so that
#: the attach adopts them: (name suffix, columns). The per-player one carries the place, so that
#: a season page counts its players' matches and wins from the index alone.
INDEXES = (
    ("order", "(pool_id, played_at, match_id)"),
    ("player", "(pool_id, player_id, played_at, match_id) INCLUDE (place)"),
)


def partition_name(pool_id: int) -> str:
    return f"{TABLE}_p{int(pool_id)}"


def _definition(cursor) -> str:
    """The model's columns and the partitioned table's checks (read from the catalog, which
    locks nothing), as a table definition; ids from the partitioned table's sequence."""
    out = []
    for field in RatingHistory._meta.concrete_fields:
        default = f" DEFAULT nextval('{SEQUENCE}')" if field.primary_key else ""
        out.append(f'"{field.column}" {field.db_type(connection)} NOT NULL{default}')
    cursor.execute(
        "SELECT conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE conrelid = %s::regclass AND contype = 'c' ORDER BY conname",
        [TABLE],
    )
    out.extend(f'CONSTRAINT "{name}" {check}' for name, check in cursor.fetchall())
    return ", ".join(out)


def fresh_partition(pool_id: int) -> str:
    """A new, empty table for the pool's history, with no index yet; its name."""
    pool_id = int(pool_id)
    table = f"{partition_name(pool_id)}_{secrets.token_hex(4)}"
    with connection.cursor() as cursor:
        # The bound as a check, so that the attach need not scan the table to prove it.
        cursor.execute(f'CREATE TABLE "{table}" ({_definition(cursor)}, CHECK ("pool_id" = {pool_id}))')
    return table


def swap_partition(pool_id: int, table: str) -> None:
    """Index ``table`` (from ``fresh_partition``) and make it the pool's partition."""
    pool_id = int(pool_id)
    name = partition_name(pool_id)
    with connection.cursor() as cursor:
        # The index builds sort in memory (the default 64 MB spills 4,000,000 rows to disk).
        cursor.execute("SET LOCAL maintenance_work_mem = '256MB'")
        cursor.execute(f'ALTER TABLE "{table}" ADD CONSTRAINT "{table}_pkey" PRIMARY KEY ("pool_id", "id")')
        for suffix, columns in INDEXES:
            cursor.execute(f'CREATE INDEX "{table}_{suffix}" ON "{table}" {columns}')
        # Every lock the swap needs, at once and first: two swaps take it in turn.
        cursor.execute(f'LOCK TABLE "{TABLE}" IN ACCESS EXCLUSIVE MODE')
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [name])
        if cursor.fetchone()[0]:
            cursor.execute(f'DROP TABLE "{name}"')
        else:
            # The rows the pool had in the default partition go; the attach checks none is left.
            cursor.execute(f'DELETE FROM "{TABLE}" WHERE "pool_id" = %s', [pool_id])
        cursor.execute(f'ALTER TABLE "{table}" RENAME TO "{name}"')
        cursor.execute(f'ALTER TABLE "{TABLE}" ATTACH PARTITION "{name}" FOR VALUES IN ({pool_id})')
        # Statistics of the new rows at once: the replays' range reads of the order index are
        # planned from them (autovacuum may be off, or hours away).
        cursor.execute(f'ANALYZE "{name}"')
