"""Tokens are stored hashed (django-rest-knox): every key of DRF's token table, kept in clear,
becomes a knox token with the same key (apps stay signed in) and an expiry counted from now,
and that table is dropped."""

from datetime import timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone

OLD_TABLE = "authtoken_token"


def hash_old_tokens(apps, schema_editor):
    from knox.crypto import hash_token
    from knox.settings import CONSTANTS

    connection = schema_editor.connection
    if OLD_TABLE not in connection.introspection.table_names():
        return
    AuthToken = apps.get_model("knox", "AuthToken")
    ttl = settings.REST_KNOX.get("TOKEN_TTL", timedelta(days=30))
    with connection.cursor() as cursor:
        cursor.execute(f'SELECT "key", "user_id", "created" FROM "{OLD_TABLE}"')
        rows = cursor.fetchall()
    AuthToken.objects.bulk_create(
        AuthToken(
            digest=hash_token(key),
            token_key=key[: CONSTANTS.TOKEN_KEY_LENGTH],
            user_id=user_id,
            created=created,
            expiry=timezone.now() + ttl if ttl else None,
        )
        for key, user_id, created in rows
    )
    schema_editor.execute(f'DROP TABLE "{OLD_TABLE}"')


class Migration(migrations.Migration):
    dependencies = [
        ("knox", "0009_extend_authtoken_field"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [migrations.RunPython(hash_old_tokens, migrations.RunPython.noop)]
