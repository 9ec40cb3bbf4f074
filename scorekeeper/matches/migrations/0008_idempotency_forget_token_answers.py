"""Idempotency keys no longer cover the token endpoint: forget the answers stored for it,
which held tokens in clear."""

from django.db import migrations


def forget(apps, schema_editor):
    IdempotencyKey = apps.get_model("matches", "IdempotencyKey")
    IdempotencyKey.objects.filter(path__endswith="/auth/token").delete()


class Migration(migrations.Migration):
    dependencies = [("matches", "0007_model_names_for_people")]

    operations = [migrations.RunPython(forget, migrations.RunPython.noop)]
