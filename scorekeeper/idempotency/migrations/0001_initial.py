"""The idempotency keys, moved here from the matches app with every row.

The model enters this app's state over the table the matches app created (its name then), and
``AlterModelTable`` renames that table to this app's default name: rows, constraints and
indexes stay as they are, and the constraints keep their names. The content type follows, so
permissions granted on the keys stay granted.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

def content_type_follows(apps, schema_editor):
    _move_content_type(apps, schema_editor, source="matches", target="idempotency")


def content_type_goes_back(apps, schema_editor):
    _move_content_type(apps, schema_editor, source="idempotency", target="matches")


def _move_content_type(apps, schema_editor, *, source, target):
    """Relabel the model's content type, unless the target app has one already (made by a
    ``migrate`` in between); a fresh database has none yet (post_migrate makes them)."""
    content_types = apps.get_model("contenttypes", "ContentType").objects.using(schema_editor.connection.alias)
    if not content_types.filter(app_label=target, model="idempotencykey").exists():
        content_types.filter(app_label=source, model="idempotencykey").update(app_label=target)


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("matches", "0011_idempotency_key_to_its_app"),
        ("contenttypes", "0002_remove_content_type_name"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyKey",
                    fields=[
                        ("id", models.BigAutoField(auto_created=True, primary_key=True, serialize=False, verbose_name="ID")),
                        ("key", models.CharField(max_length=255)),
                        ("fingerprint", models.CharField(max_length=64)),
                        ("method", models.CharField(max_length=8)),
                        ("path", models.CharField(max_length=255)),
                        ("status_code", models.PositiveSmallIntegerField()),
                        ("response", models.JSONField(blank=True, null=True)),
                        ("headers", models.JSONField(blank=True, default=dict)),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        ("user", models.ForeignKey(blank=True, null=True, on_delete=django.db.models.deletion.CASCADE, related_name="+", to=settings.AUTH_USER_MODEL)),
                    ],
                    options={
                        "verbose_name": "idempotency key",
                        "verbose_name_plural": "idempotency keys",
                        "constraints": [
                            models.UniqueConstraint(condition=models.Q(("user__isnull", False)), fields=("user", "key"), name="idempotency_key_unique_per_user"),
                            models.UniqueConstraint(condition=models.Q(("user__isnull", True)), fields=("key",), name="idempotency_key_unique_anonymous"),
                        ],
                        # The table's name from the matches app's 0002, until the rename below:
                        # history, which is why a migration may spell it out.
                        "db_table": "matches_idempotencykey",
                    },
                ),
            ],
            database_operations=[],
        ),
        migrations.AlterModelTable(name="idempotencykey", table=None),
        migrations.RunPython(content_type_follows, content_type_goes_back),
    ]
