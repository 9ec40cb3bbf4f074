"""PostgreSQL: the history's per-player index carries each row's place (``INCLUDE (place)``).

A season board's page counts its players' matches and wins in the period (ratings/seasons.py):
with the place in the index, that count reads the index alone (an index-only scan, once the
table's pages are all-visible, as autovacuum leaves them) instead of a heap page for nearly
every row of those players, which on a 100,000-match pool are spread over the whole table
(20 ms against 3 ms for a page of 50 players over the whole pool). A fresh partition of a full
recompute gets the same index (ratings/history_table.py), so that the attach adopts it. The
model's ``Meta.indexes`` keeps the key columns only: Django does not compare an index's
included columns, and SQLite has none (the other databases keep the plain index).
"""

from django.db import migrations

TABLE = "ratings_ratinghistory"
KEY = "pool_id, player_id, played_at, match_id"


def _rebuild(schema_editor, tail: str) -> None:
    if schema_editor.connection.vendor != "postgresql":
        return
    run = schema_editor.execute
    # On the partitioned table: dropped with its partitions' indexes, then built on every
    # partition under the same names (in the migration's transaction: no reader sees it gone).
    run("DROP INDEX rating_history_player_idx")
    run(f"CREATE INDEX rating_history_player_idx ON {TABLE} ({KEY}){tail}")


def cover_place(apps, schema_editor):
    _rebuild(schema_editor, " INCLUDE (place)")


def uncover_place(apps, schema_editor):
    _rebuild(schema_editor, "")


class Migration(migrations.Migration):
    dependencies = [("ratings", "0010_player_rating_displayed")]

    operations = [migrations.RunPython(cover_place, uncover_place, elidable=False)]
