"""Leave room in the match table's pages for HOT updates (PostgreSQL only).

Every write to a match UPDATEs its row (state, version, hand count). With full pages the new
row version lands on another page and every index of the table gets a new entry; with free
room on the page PostgreSQL makes a heap-only (HOT) update, which touches no index, since
none of the indexed columns changes.
"""

from django.db import migrations

FILLFACTOR = 70


def set_fillfactor(value):
    def run(apps, schema_editor):
        if schema_editor.connection.vendor != "postgresql":
            return
        table = schema_editor.quote_name(apps.get_model("matches", "Match")._meta.db_table)
        if value is None:
            schema_editor.execute(f"ALTER TABLE {table} RESET (fillfactor)")
        else:
            schema_editor.execute(f"ALTER TABLE {table} SET (fillfactor = {int(value)})")

    return run


class Migration(migrations.Migration):
    dependencies = [("matches", "0004_fewer_write_indexes")]

    operations = [migrations.RunPython(set_fillfactor(FILLFACTOR), set_fillfactor(None), elidable=False)]
