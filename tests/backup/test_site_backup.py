"""Backup and restore (``manage.py site_export`` / ``site_import`` / ``site_check``): a populated
site, exported and imported into a fresh database, gives back every row of every carried table
(every hand version, the audit log, users with their password hashes, groups, permissions,
preferences, tokens, players with their accounts), every score sheet, and after the recompute
the very same ratings. An import that would not give that back stores nothing.

Runs on the test database's engine (SQLite, or PostgreSQL in CI); the round trip onto a fresh
machine runs ``manage.py`` in subprocesses against a database of its own.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from urllib.parse import quote

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from rest_framework.test import APIClient

from scorekeeper.backup import site as backup
from scorekeeper.matches import services
from scorekeeper.matches.models import Hand, Player
from tests.conftest import other_connection
from tests.upgrade.populated import PASSWORD, every_rating, every_sheet, populate

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def site(tasks_in_process, client):
    return populate(client)


def carried_rows() -> dict[str, list]:
    return {model._meta.label_lower: list(backup.rows(model)) for model in backup.carried_models()}


def command(*args) -> list[str]:
    from io import StringIO

    out = StringIO()
    call_command(*args, stdout=out, stderr=StringIO())
    return out.getvalue().splitlines()


def empty_the_database():
    """As on a fresh machine after ``migrate``: no rows but the content types and permissions,
    made anew (with other ids: the file names them by natural key)."""
    call_command("flush", interactive=False, verbosity=0)
    assert backup.occupied() == {}


def head_to_head_records() -> list[tuple]:
    """Every player's rivals as his profile shows them (read from the seats), with their
    records, games and chances."""
    from ratings.reads import head_to_head

    return [
        (
            player.pk,
            [(r.player.pk, r.record, dict(r.games), r.chances) for r in head_to_head.rivals(player=player)],
        )
        for player in Player.objects.order_by("pk")
    ]


def test_every_model_is_carried_or_left_out_with_its_reason():
    labels = {model._meta.label_lower for model in apps.get_models()}
    assert set(backup.CARRIED).isdisjoint(backup.LEFT_OUT)
    assert labels == set(backup.CARRIED) | set(backup.LEFT_OUT)


def test_an_import_gives_back_every_row_every_sheet_and_after_the_recompute_the_ratings(site, tmp_path):
    rows, sheets, ratings = carried_rows(), every_sheet(), every_rating()
    assert (
        Hand.objects.filter(status="superseded").exists() and Hand.objects.filter(status="disputed").exists()
    )
    assert ratings[0] and ratings[1]
    records = head_to_head_records()
    assert any(rivals for _, rivals in records)
    path = tmp_path / "site.json.gz"
    exported = command("site_export", str(path))
    assert path.stat().st_mode & 0o777 == 0o600  # it holds the password hashes

    empty_the_database()
    imported = command("site_import", str(path))

    assert carried_rows() == rows
    assert every_sheet() == sheets
    assert every_rating() == ratings
    assert head_to_head_records() == records  # read from the restored seats and ratings
    assert imported == exported  # the same counts and digests, printed the same way
    assert command("site_check", "--file", str(path)) == exported
    # The users sign in with their passwords and their tokens, the new rows get new ids.
    assert get_user_model().objects.get(username="bob").check_password(PASSWORD)
    response = APIClient().post(
        "/api/v1/players", {"name": "Nouveau"}, format="json", HTTP_AUTHORIZATION=f"Token {site.token}"
    )
    assert response.status_code == 201
    assert response.json()["id"] > max(row["pk"] for row in rows["matches.player"])
    seated = sorted(row["pk"] for row in rows["matches.player"])[:2]  # restored, with their ids
    match = services.match_create(game="piquet", players=seated, by=site.users["ann"])
    assert match.pk > max(row["pk"] for row in rows["matches.match"])
    # A site that changed since the file no longer passes the check against it.
    services.match_void(match=site.in_progress[0], by=site.users["ann"], reason="changed after the backup")
    with pytest.raises(CommandError, match=r"matches.match: \d+ rows, the file has \d+.*sheets of 1 match"):
        command("site_check", "--file", str(path))


def test_an_import_that_would_not_give_back_the_file_stores_nothing(site, tmp_path):
    path = tmp_path / "site.json"
    command("site_export", str(path))
    document = json.loads(path.read_text(encoding="utf-8"))

    with pytest.raises(CommandError, match=r"the database is not empty .*matches.match"):
        command("site_import", str(path))

    empty_the_database()

    def refused(change, message):
        altered = json.loads(json.dumps(document))
        change(altered)
        bad = tmp_path / "altered.json"
        bad.write_text(json.dumps(altered), encoding="utf-8")
        with pytest.raises(CommandError, match=message):
            command("site_import", str(bad))
        assert backup.occupied() == {}  # rolled back whole

    some_match = next(iter(document["check"]["sheets"]["matches"]))

    def a_sheet(doc):
        doc["check"]["sheets"]["matches"][some_match] = "0" * 64

    def a_hand(doc):
        hand = next(row for row in doc["objects"] if row["model"] == "matches.hand")
        hand["fields"]["reason"] = "written in afterwards"

    def a_row_lost(doc):
        doc["objects"] = [row for row in doc["objects"] if row["model"] != "matches.auditentry"]

    def other_migrations(doc):
        doc["migrations"]["matches"] = "0010_field_names_for_people"

    def not_an_export(doc):
        doc["format"] = "scorekeeper-match"

    def incomplete(doc):
        del doc["check"]["sheets"]

    refused(a_sheet, rf"score sheets of 1 match\(es\) differ: {some_match}")
    refused(a_hand, "matches.hand: the rows differ from the file's")
    refused(a_row_lost, r"matches.auditentry: 0 rows, the file has \d+")
    refused(other_migrations, r"matches: file 0010_field_names_for_people, here \d{4}_\w+.*manage.py migrate")
    refused(not_an_export, "is not a site export")
    refused(incomplete, "lacks check.sheets: it is not a complete export")

    # --force loads the file over rows that are there (an administrator made to set the site
    # up, say), and keeps them.
    root = get_user_model().objects.create_superuser("root", "root@example.org", PASSWORD, id=1000)
    command("site_import", "--force", str(path))
    assert backup.occupied()["matches.match"] == len(document["check"]["sheets"]["matches"])
    users = [
        json.loads(backup.canonical(row)) for row in backup.rows(get_user_model()) if row["pk"] != root.pk
    ]
    assert users == [row for row in document["objects"] if row["model"] == "auth.user"]
    assert get_user_model().objects.filter(pk=root.pk, username="root").exists()


def test_a_failed_export_leaves_no_file(tmp_path, monkeypatch):
    def broken():
        raise RuntimeError("the disk is full")

    monkeypatch.setattr(backup, "ratings", broken)
    path = tmp_path / "site.json"
    with pytest.raises(RuntimeError, match="disk is full"):
        command("site_export", str(path))
    assert list(tmp_path.iterdir()) == []


# -- onto a fresh machine ----------------------------------------------------------------
@pytest.fixture
def fresh_database(tmp_path):
    """The URL of an empty database of the test database's engine, dropped afterwards."""
    if connection.vendor != "postgresql":
        yield f"sqlite:///{tmp_path / 'fresh.sqlite3'}"
        return
    settings = connection.settings_dict
    name = f"{settings['NAME']}_restore"
    with other_connection() as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{name}"')
        admin.execute(f'CREATE DATABASE "{name}"')
    credentials = quote(settings["USER"] or "") + (
        f":{quote(settings['PASSWORD'])}" if settings["PASSWORD"] else ""
    )
    host = f"{settings['HOST'] or '127.0.0.1'}:{settings['PORT'] or 5432}"
    try:
        yield f"postgres://{credentials}@{host}/{name}"
    finally:
        with other_connection() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def manage(database_url: str, *args: str) -> list[str]:
    env = {**os.environ, "DATABASE_URL": database_url}
    env.pop("REDIS_URL", None)  # tasks in-process: the restored site's recompute runs in the command
    done = subprocess.run(
        [sys.executable, "manage.py", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return done.stdout.splitlines()


def test_a_restore_onto_a_fresh_machine_shows_the_same_sheets_and_ratings(site, tmp_path, fresh_database):
    path = tmp_path / "site.json.gz"
    command("site_export", str(path))
    here = command("site_check", "--sheets")

    manage(fresh_database, "migrate", "--verbosity", "0")
    manage(fresh_database, "site_import", str(path))
    there = manage(fresh_database, "site_check", "--sheets")

    assert there == here
    assert any(line.startswith("ratings ") and not line.startswith("ratings 0 ") for line in there)
