"""The idempotency keys moved from the matches app to their own (matches 0011, idempotency
0001): on a database that has keys, every row comes along, under the new app's table, with its
constraints by their names and the permissions granted on the keys."""

from __future__ import annotations

import pytest
from django.contrib.contenttypes.models import ContentType
from django.db import connection, transaction
from django.db.migrations.executor import MigrationExecutor

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.idempotency.services import idempotency_claim

#: The last migration before the move: the keys are the matches app's there.
BEFORE = [("matches", "0010_field_names_for_people")]
MOVE = [("matches", "0011_idempotency_key_to_its_app"), ("idempotency", "0001_initial")]

# Schema changes outside the test's transaction (SQLite's schema editor refuses one).
pytestmark = pytest.mark.django_db(transaction=True)


def migrate_to_before_the_move():
    """Migrate the test database back to before the move; the models as they were then (every
    other app at its last migration, contenttypes' included)."""
    MigrationExecutor(connection).migrate(BEFORE)
    # The state of what is applied now: the other apps' migrations that need the move (or a
    # later matches migration) were unapplied with it.
    applied = MigrationExecutor(connection).loader.applied_migrations
    return MigrationExecutor(connection).loader.project_state(list(applied)).apps


def migrate_to_the_end():
    executor = MigrationExecutor(connection)
    executor.migrate(executor.loader.graph.leaf_nodes())
    ContentType.objects.clear_cache()  # the move relabelled a content type under the cache


@pytest.fixture
def before_the_move():
    """The database as it was before the move; migrated to the end again afterwards."""
    yield migrate_to_before_the_move()
    migrate_to_the_end()


def tables():
    with connection.cursor():
        return set(connection.introspection.table_names())


def test_a_fresh_database_forgets_the_model_in_matches_before_idempotency_takes_it_over():
    plan = MigrationExecutor(connection).loader.graph.forwards_plan(MOVE[1])
    assert plan.index(MOVE[0]) < plan.index(MOVE[1])
    assert IdempotencyKey._meta.db_table == "idempotency_idempotencykey"
    assert IdempotencyKey._meta.db_table in tables() and "matches_idempotencykey" not in tables()


def test_the_keys_rows_move_with_the_model_and_still_guard_their_requests(before_the_move):
    User = before_the_move.get_model("auth", "User")
    OldKey = before_the_move.get_model("matches", "IdempotencyKey")
    ann = User.objects.create(username="ann")
    OldKey.objects.create(
        user=ann,
        key="k-1",
        fingerprint="f" * 64,
        method="POST",
        path="/api/v1/players",
        status_code=201,
        response={"id": 7},
        headers={"Location": "/api/v1/players/7"},
    )
    OldKey.objects.create(key="k-anon", fingerprint="g" * 64, method="POST", path="/x", status_code=200)
    assert "matches_idempotencykey" in tables()

    migrate_to_the_end()

    moved = IdempotencyKey.objects.get(key="k-1")
    assert (moved.user.username, moved.status_code, moved.response, moved.headers) == (
        "ann",
        201,
        {"id": 7},
        {"Location": "/api/v1/players/7"},
    )
    assert IdempotencyKey.objects.get(key="k-anon").user is None
    assert "matches_idempotencykey" not in tables()
    with connection.cursor() as cursor:
        constraints = connection.introspection.get_constraints(cursor, IdempotencyKey._meta.db_table)
    assert {"idempotency_key_unique_per_user", "idempotency_key_unique_anonymous"} <= set(constraints)
    with transaction.atomic():  # a retry of the request from before the move is replayed
        entry, first = idempotency_claim(
            user=moved.user, key="k-1", fingerprint="f" * 64, method="POST", path="/api/v1/players"
        )
    assert (first, entry.pk) == (False, moved.pk)


def test_a_permission_granted_on_the_keys_stays_granted(before_the_move):
    ContentTypeThen = before_the_move.get_model("contenttypes", "ContentType")
    Permission = before_the_move.get_model("auth", "Permission")
    User = before_the_move.get_model("auth", "User")
    # As on a database made before the move: the keys' content type is the matches app's.
    ContentTypeThen.objects.filter(model="idempotencykey").delete()
    content_type = ContentTypeThen.objects.create(app_label="matches", model="idempotencykey")
    view = Permission.objects.create(content_type=content_type, codename="view_idempotencykey", name="view")
    User.objects.create(username="ann").user_permissions.add(view)

    migrate_to_the_end()

    from django.contrib.auth import get_user_model

    assert get_user_model().objects.get(username="ann").has_perm("idempotency.view_idempotencykey")
    assert ContentType.objects.get_for_model(IdempotencyKey).pk == content_type.pk


def test_the_move_goes_back_with_its_rows(before_the_move):
    migrate_to_the_end()
    IdempotencyKey.objects.create(key="k-1", fingerprint="f" * 64, method="POST", path="/x", status_code=201)

    apps = migrate_to_before_the_move()

    assert "matches_idempotencykey" in tables() and "idempotency_idempotencykey" not in tables()
    assert apps.get_model("matches", "IdempotencyKey").objects.get().key == "k-1"
