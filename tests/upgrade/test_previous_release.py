"""Upgrading a populated site from the previous release loses nothing (docs/operations.md,
"Upgrading").

The test database is emptied and built again as the previous release built it: every app
migrated forwards from nothing to its latest migration of then (Django's ``MigrationExecutor``;
django-test-migrations truncates one plan across the apps, which here would apply this
release's ``matches 0011`` and ``idempotency 0001`` as well), and ``post_migrate`` sent with that
schema's models, as ``migrate`` sends it (the content types and permissions of then). It is
populated with a row in every table: the site's own rows through this release's services,
whose tables the previous release had in exactly this shape (checked first, table by table),
and the idempotency key, whose table moved, through the previous release's model. Then
``manage.py migrate`` upgrades it, as an operator would, and every row of every table must
be as it was (but for what the upgrade is meant to change: the key's table renamed, its
content type relabelled), every score sheet the same, every rating the same and the same
again after a full recompute; the old token still signs in, the old key still replays.

Runs on the test database's engine: SQLite, and PostgreSQL in CI.
"""

from __future__ import annotations

import hashlib
import hmac
import json
import re

import pytest
from django.apps import apps as django_apps
from django.conf import settings
from django.contrib.contenttypes.models import ContentType
from django.core.management import call_command
from django.core.management.sql import emit_post_migrate_signal
from django.db import connection, models
from django.db.migrations.executor import MigrationExecutor
from rest_framework.test import APIClient

from ratings import display
from ratings.services import rating_recompute_request
from scorekeeper.backup.site import migrations
from scorekeeper.matches.models import Hand, Match, Player
from scorekeeper.matches.services import player_create
from tests.upgrade.populated import every_rating, every_sheet, populate

pytestmark = pytest.mark.django_db(transaction=True)

#: The previous release: each of the site's apps at its latest migration of commit 46a836a,
#: before the idempotency keys moved from the matches app to their own. At the next release,
#: put this release's latest migrations here (and in the two constants below what it changes).
PREVIOUS_RELEASE = {
    "accounts": "0001_initial",
    "api": "0001_tokens_hashed",
    "matches": "0010_field_names_for_people",
    "outbox": "0002_field_names_for_people",
    "ratings": "0005_history_partitioned_by_pool",
}
#: Apps the previous release did not have (django-allauth's three came with issue 36).
NEW_APPS = {"idempotency", "clubs", "events", "account", "mfa", "usersessions"}
#: The tables the upgrade renames (with every row), and the models whose content type it moves.
RENAMED_TABLES = {"matches_idempotencykey": "idempotency_idempotencykey"}
MOVED_CONTENT_TYPES = {("matches", "idempotencykey"): ("idempotency", "idempotencykey")}
#: The columns the upgrade adds to a table of the previous release (model, field names), every
#: one nullable or with a default: the rows written before it have NULL or the default there.
#: The site's rows are written by this release's services, so these columns exist while they
#: write and are dropped before the upgrade.
ADDED_FIELDS = {
    ("outbox", "OutboxMessage"): ("alive_at",),
    ("matches", "Match"): ("played_at", "confirmed_at", "club"),
    ("matches", "Player"): ("merged_into",),
    ("ratings", "RatingPool"): ("fit_report", "parameters"),
}
#: The tables the upgrade creates in an app of the previous release (app, model): empty after it.
#: This release's services and score sheets read them, so they exist while the site's rows are
#: written and read, and are dropped just before the upgrade.
ADDED_MODELS = [
    ("matches", "HandConfirmation"), ("matches", "PlayerClaimCode"),
    # The events, a new app (issue 34): its tables, as the clubs', made by the upgrade, empty.
    ("events", "Event"), ("events", "Entrant"), ("events", "Round"), ("events", "EventTable"),
    ("events", "EventAuditEntry"),
    # Accounts (issue 36): the invitation a person signed up with, in an app of the previous
    # release, and django-allauth's tables.
    ("accounts", "PendingInvitation"), ("account", "EmailAddress"), ("account", "EmailConfirmation"),
    ("mfa", "Authenticator"), ("usersessions", "UserSession"),
]  # fmt: skip
#: The clubs' tables: made by the upgrade and filled (clubs 0002, matches 0016–0018): one home club,
#: every account a scorer in it, every player on its roster, every match its (``Match.club``,
#: above). Made first while the site is populated (``Match.club`` refers to them), dropped last.
CLUB_MODELS = [
    ("clubs", "Club"), ("clubs", "Invitation"), ("clubs", "Membership"), ("clubs", "JoinRequest"),
    ("clubs", "ClubAuditEntry"), ("matches", "ClubPlayer"),
]  # fmt: skip
#: The columns the upgrade renames, keeping their values: (app, model, field) → its old column.
#: Given their new names while this release's services populate the site, the old ones again
#: before the upgrade.
RENAMED_FIELDS = {("ratings", "RatingHistory", "played_at"): "finished_at"}
#: PostgreSQL: the indexes the upgrade rebuilds with more columns, by their columns before →
#: after (ratings 0011: the history's per-player index, its partitions' too, carries the place).
_PLAYER_INDEX = ("pool_id", "player_id", "played_at", "match_id")
WIDENED_INDEXES = {_PLAYER_INDEX: (*_PLAYER_INDEX, "place")}
#: The columns the upgrade adds and fills from each row's other columns: (app, model, field) →
#: the value an old row must hold after it, from the row read through this release's model.
#: Written by this release's services while they populate the site, dropped before the upgrade.
FILLED_FIELDS = {("ratings", "PlayerRating", "rating"): lambda row: display.rating(row.mu, row.sigma)}
#: The indexes the upgrade replaces: (app, model) → the previous release's index, and the name
#: of this release's (the model's) in its place. This release's while the site is populated.
REPLACED_INDEXES = {
    ("ratings", "PlayerRating"): (
        models.Index(fields=["pool", "-conservative", "player"], name="rating_leaderboard_idx"),
        "rating_board_idx",
    )
}


def added_fields():
    for (app, model_name), names in ADDED_FIELDS.items():
        model = django_apps.get_model(app, model_name)
        for name in names:
            field = model._meta.get_field(name)
            assert field.null or field.has_default(), (
                f"{model_name}.{name}: a column added to old rows must be nullable or have a default"
            )
            yield model, field


def filled_fields():
    for (app, model_name, name), value in FILLED_FIELDS.items():
        model = django_apps.get_model(app, model_name)
        yield model, model._meta.get_field(name), value


def replaced_indexes():
    """(model, the previous release's index, this release's)."""
    for (app, model_name), (old, name) in REPLACED_INDEXES.items():
        model = django_apps.get_model(app, model_name)
        yield model, old, next(index for index in model._meta.indexes if index.name == name)


def has_index(model, index) -> bool:
    with connection.cursor() as cursor:
        return index.name in connection.introspection.get_constraints(cursor, model._meta.db_table)


def added_models():
    return [django_apps.get_model(app, name) for app, name in ADDED_MODELS]


def club_models():
    return [django_apps.get_model(app, name) for app, name in CLUB_MODELS]


def renamed_fields():
    """(model, field as this release has it, the field under its old column)."""
    for (app, model_name, name), old_column in RENAMED_FIELDS.items():
        model = django_apps.get_model(app, model_name)
        field = model._meta.get_field(name)
        old = field.clone()
        old.set_attributes_from_name(old_column)
        old.model = model
        yield model, field, old


def drop_every_table():
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        tables = connection.introspection.table_names(cursor)
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA foreign_keys = OFF")
        for table in tables:
            cursor.execute(
                f"DROP TABLE {quote(table)}" + (" CASCADE" if connection.vendor == "postgresql" else "")
            )
        if connection.vendor == "sqlite":
            cursor.execute("PRAGMA foreign_keys = ON")


def migrate_to_the_previous_release():
    """The database as the previous release's ``migrate`` left it; its models (historical)."""
    drop_every_table()
    executor = MigrationExecutor(connection)
    targets = [
        (app, PREVIOUS_RELEASE.get(app, name))
        for app, name in executor.loader.graph.leaf_nodes()
        if app not in NEW_APPS
    ]
    plan = executor.migration_plan(targets)
    executor.migrate(targets, plan=plan)
    old = executor.loader.project_state(targets).apps
    emit_post_migrate_signal(0, False, connection.alias, apps=old, plan=plan)
    ContentType.objects.clear_cache()
    return old


def widened(schema: dict[str, tuple]) -> dict[str, tuple]:
    """``schema`` with its indexes as the upgrade widens them (``WIDENED_INDEXES``)."""
    if connection.vendor != "postgresql":
        return schema
    out = {}
    for table, (columns, constraints) in schema.items():
        constraints = sorted(
            (name, WIDENED_INDEXES.get(cols, cols) if index else cols, *rest, index)
            for name, cols, *rest, index in constraints
        )
        out[table] = (columns, constraints)
    return out


def database_schema() -> dict[str, tuple]:
    """Each table as the database has it (introspected): its columns with their types and
    nullability, its constraints and indexes with their columns and kinds."""
    introspection = connection.introspection
    tables = {}
    with connection.cursor() as cursor:
        for table in introspection.table_names(cursor):
            if table == "django_migrations":
                continue
            columns = sorted(
                (c.name, str(c.type_code), c.null_ok)
                for c in introspection.get_table_description(cursor, table)
            )
            constraints = sorted(
                (
                    # SQLite's unnamed constraints and foreign keys are numbered in the order of
                    # the table's SQL, which a table rebuilt by adding or dropping a column may
                    # change: their name is no shape.
                    "" if name.startswith("__unnamed_constraint_") or re.fullmatch(r"fk_\d+", name) else name,
                    tuple(c["columns"]),
                    c["primary_key"],
                    c["unique"],
                    c["foreign_key"],
                    c["check"],
                    c["index"],
                )
                for name, c in introspection.get_constraints(cursor, table).items()
            )
            tables[table] = (columns, constraints)
    return tables


def every_table() -> dict[str, list]:
    """Every row of every table (but the migration history), read raw, columns by name."""
    quote = connection.ops.quote_name
    found = {}
    with connection.cursor() as cursor:
        for table in connection.introspection.table_names(cursor):
            if table == "django_migrations":
                continue
            cursor.execute(f"SELECT * FROM {quote(table)}")
            columns = [column[0] for column in cursor.description]
            found[table] = sorted(
                (dict(zip(columns, row, strict=True)) for row in cursor.fetchall()), key=repr
            )
    return found


def assert_everything_is_in_the_home_club(before: dict[str, list]) -> None:
    """After the upgrade: one club, the home club; every account of before a scorer in it,
    every player on its roster, every match its (a single-club site goes on as it was)."""
    from django.contrib.auth import get_user_model

    from scorekeeper.clubs.models import Club, Membership
    from scorekeeper.matches.models import ClubPlayer

    (home,) = Club.objects.all()
    assert (home.slug, home.name, home.public) == (settings.HOME_CLUB_SLUG, settings.HOME_CLUB_NAME, True)
    users = {row["id"] for row in before[get_user_model()._meta.db_table]}
    assert users and sorted(
        Membership.objects.values_list("club_id", "user_id", "role", "ended_at")
    ) == sorted((home.pk, user, "scorer", None) for user in users)
    players = {row["id"] for row in before["matches_player"]}
    assert players and sorted(ClubPlayer.objects.values_list("club_id", "player_id", "guest")) == sorted(
        (home.pk, player, False) for player in players
    )
    assert set(Match.objects.values_list("club_id", flat=True)) == {home.pk}


def fingerprint(method: str, path: str, body) -> str:
    """An idempotency key's fingerprint as the previous release computed it (api/idempotency.py
    then): the HMAC of the request's method, path, If-Match and body."""
    payload = {"method": method, "path": path, "if_match": None, "body": body}
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"))
    return hmac.new(settings.SECRET_KEY.encode(), text.encode(), hashlib.sha256).hexdigest()


@pytest.fixture
def previous_release():
    """The database at the previous release's migrations (its models, and this release's
    schema as the test database had it before); at the end at this release's migrations again,
    whatever happened, for the tests that follow."""
    this_release = database_schema()
    try:
        yield migrate_to_the_previous_release(), this_release
    finally:
        call_command("migrate", verbosity=0)
        ContentType.objects.clear_cache()


def test_an_upgrade_from_the_previous_release_keeps_every_row_sheet_and_rating(
    previous_release, tasks_in_process, client
):
    old, this_release = previous_release
    old_schema = database_schema()
    assert {app: name for app, name in migrations().items() if app in PREVIOUS_RELEASE} == PREVIOUS_RELEASE
    assert not set(migrations()) & NEW_APPS
    # This release's services write the site's rows at the previous release's schema: its
    # tables are this release's, but for the ones the upgrade renames.
    with connection.schema_editor() as editor:
        for model in club_models():
            editor.create_model(model)
        for model, field in added_fields():
            editor.add_field(model, field)
        for model, field, former in renamed_fields():
            editor.alter_field(model, former, field)
        for model, old_index, _ in replaced_indexes():
            editor.remove_index(model, old_index)
        for model, field, _ in filled_fields():
            editor.add_field(model, field)
        for model, _, index in replaced_indexes():
            if not has_index(model, index):  # SQLite rebuilt the table with the model's indexes
                editor.add_index(model, index)
        for model in added_models():
            editor.create_model(model)
    then = widened(database_schema())
    # The added tables as this release makes them (their shape is the migration's, checked by
    # makemigrations); the others as the previous release had them.
    assert {RENAMED_TABLES.get(table, table) for table in then} == set(this_release)
    new_tables = {model._meta.db_table for model in added_models()}
    assert {
        RENAMED_TABLES.get(table, table): shape for table, shape in then.items() if table not in new_tables
    } == {table: shape for table, shape in this_release.items() if table not in new_tables}
    site = populate(client)
    ann = site.users["ann"]
    zoe = player_create(name="Zoé", by=ann)
    stored = {"id": zoe.pk, "name": "Zoé", "user": None}
    old.get_model("matches", "IdempotencyKey").objects.create(
        user_id=ann.pk, key="retry-1", fingerprint=fingerprint("POST", "/api/v1/players", {"name": "Zoé"}),
        method="POST", path="/api/v1/players", status_code=201, response=stored,
        headers={"Location": f"http://testserver/api/v1/players/{zoe.pk}"},
    )  # fmt: skip
    for model, field in added_fields():  # the previous release had no such values
        old_value = None if field.null else field.get_default()
        assert [getattr(row, field.attname) for row in model.objects.all()] == [
            old_value
        ] * model.objects.count()
    assert (
        Hand.objects.filter(status="superseded").exists() and Hand.objects.filter(status="disputed").exists()
    )
    # Read through this release's models, so while their columns are there.
    sheets, ratings = every_sheet(), every_rating()
    assert ratings[0] and ratings[1]
    with connection.schema_editor() as editor:
        # Last added, first dropped: SQLite drops a foreign key (Match.club) by rebuilding the
        # table from the model, which would bring back the columns dropped before it.
        for model, field in reversed(list(added_fields())):
            editor.remove_field(model, field)
        for model, field, former in renamed_fields():
            editor.alter_field(model, field, former)
        for model, _, index in replaced_indexes():
            editor.remove_index(model, index)
        for model, field, _ in filled_fields():
            editor.remove_field(model, field)
        for model, old_index, index in replaced_indexes():
            if has_index(model, index):  # SQLite rebuilt the table with the model's indexes
                editor.remove_index(model, index)
            editor.add_index(model, old_index)
        for model in reversed(added_models()):  # the events' tables name one another
            editor.delete_model(model)
        for model in reversed(club_models()):
            editor.delete_model(model)
    assert database_schema() == old_schema  # the previous release's, exactly
    before = every_table()
    assert [table for table, rows in before.items() if not rows] == []  # a row in every table

    call_command("migrate", verbosity=0)  # the upgrade
    ContentType.objects.clear_cache()

    expected = {RENAMED_TABLES.get(table, table): rows for table, rows in before.items()}
    expected.update({table: [] for table in new_tables})
    for model, field, former in renamed_fields():
        table = model._meta.db_table
        expected[table] = sorted(
            ({(field.column if key == former.column else key): value for key, value in row.items()}
             for row in expected[table]),
            key=repr,
        )  # fmt: skip
    added = {(model._meta.db_table, field.column) for model, field in added_fields()}
    added |= {(model._meta.db_table, field.column) for model, field, _ in filled_fields()}

    def without_added(tables):  # compared below through the models: NULL or the default
        return {
            table: sorted(
                ({key: value for key, value in row.items() if (table, key) not in added} for row in rows),
                key=repr,
            )
            for table, rows in tables.items()
        }

    expected["django_content_type"] = sorted(
        (
            dict(zip(("id", "app_label", "model"), (row["id"], *moved), strict=True))
            if (moved := MOVED_CONTENT_TYPES.get((row["app_label"], row["model"])))
            else row
            for row in before["django_content_type"]
        ),
        key=repr,
    )
    after = every_table()
    club_tables = {model._meta.db_table for model in club_models()}
    assert_everything_is_in_the_home_club(before)
    after = {table: rows for table, rows in after.items() if table not in club_tables}
    # migrate's post_migrate gives the added models their content types and permissions.
    added_types = {
        (model._meta.app_label, model._meta.model_name) for model in [*added_models(), *club_models()]
    }
    types = {
        row["id"] for row in after["django_content_type"] if (row["app_label"], row["model"]) in added_types
    }
    assert len(types) == len(added_types)
    after["django_content_type"] = [row for row in after["django_content_type"] if row["id"] not in types]
    after["auth_permission"] = [
        row for row in after["auth_permission"] if row["content_type_id"] not in types
    ]
    assert without_added(after) == without_added(expected)
    for model, field in added_fields():
        old_value = None if field.null else field.get_default()
        assert [getattr(row, field.attname) for row in model.objects.all()] == [
            old_value
        ] * model.objects.count()
    for model, field, value in filled_fields():
        rows = list(model.objects.all())
        assert rows and [getattr(row, field.attname) for row in rows] == [value(row) for row in rows]
    assert every_sheet() == sheets
    assert every_rating() == ratings
    rating_recompute_request()  # a full recompute gives them again
    assert every_rating() == ratings

    # The site goes on: the old token signs in, the old key replays, a new key is kept.
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {site.token}")
    replay = api.post("/api/v1/players", {"name": "Zoé"}, format="json", HTTP_IDEMPOTENCY_KEY="retry-1")
    assert (replay.status_code, replay.json(), replay["Idempotent-Replayed"]) == (201, stored, "true")
    assert Player.objects.filter(name="Zoé").count() == 1
    match = Match.objects.get(pk=site.in_progress[0].pk)
    body = {
        "record": site.next_records[match.pk], "version": match.version,
        "accept_declared": True, "reason": "after the upgrade",
    }  # fmt: skip
    recorded = api.post(
        f"/api/v1/matches/{match.pk}/hands", body, format="json", HTTP_IDEMPOTENCY_KEY="new-1"
    )
    assert recorded.status_code == 201, recorded.json()
    assert recorded.json()["hand"]["number"] == 2
    again = api.post(f"/api/v1/matches/{match.pk}/hands", body, format="json", HTTP_IDEMPOTENCY_KEY="new-1")
    assert again["Idempotent-Replayed"] == "true" and again.json() == recorded.json()
