"""Migration 0005: the match table leaves room for HOT updates on PostgreSQL."""

import pytest
from django.db import connection

from scorekeeper.matches.models import Match

pytestmark = pytest.mark.django_db


@pytest.mark.skipif(connection.vendor != "postgresql", reason="a PostgreSQL storage parameter")
def test_the_match_table_has_free_room_in_its_pages():
    with connection.cursor() as cursor:
        cursor.execute("SELECT reloptions FROM pg_class WHERE relname = %s", [Match._meta.db_table])
        assert cursor.fetchone()[0] == ["fillfactor=70"]
