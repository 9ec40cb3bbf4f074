"""The idempotency keys move to their own app (scorekeeper.idempotency): the matches app
forgets the model, and the table and its rows stay for idempotency's 0001, which takes them
over and renames the table."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("matches", "0010_field_names_for_people")]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyKey")],
            database_operations=[],
        ),
    ]
