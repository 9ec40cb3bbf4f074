"""``services._store_recorded``: the three writes of a recorded hand, as the database holds them.

On PostgreSQL they are one statement, elsewhere three ORM writes; either way the rows read back
must be what the returned objects say.
"""

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.matches import errors, services
from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import _hand_payload, hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db

HAND_COLUMNS = [f.attname for f in Hand._meta.concrete_fields]
MATCH_COLUMNS = ["state", "result", "status", "version", "hand_count", "updated_at"]


def test_the_stored_rows_are_the_returned_hand_and_match(tally_match, user):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)

    row = Hand.objects.get(pk=stored.pk)
    assert {c: getattr(row, c) for c in HAND_COLUMNS} == {c: getattr(stored, c) for c in HAND_COLUMNS}
    assert (row.match_id, row.number, row.version, row.recorded_by_id) == (tally_match.pk, 1, 1, user.pk)
    match = Match.objects.get(pk=tally_match.pk)
    returned = stored.match
    assert {c: getattr(match, c) for c in MATCH_COLUMNS} == {c: getattr(returned, c) for c in MATCH_COLUMNS}
    assert (match.version, match.hand_count, match.state["totals"]) == (1, 1, [3, 1])
    assert match.created_at <= match.updated_at and match.title == tally_match.title


def test_the_audit_entry_names_the_hand_its_match_and_the_recorder(tally_match, user):
    first = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
    second = hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user, version=1)

    entries = list(AuditEntry.objects.filter(action="hand_record").order_by("id"))
    assert [(e.hand_id, e.match_id, e.actor_id, e.player_id) for e in entries] == [
        (first.pk, tally_match.pk, user.pk, None),
        (second.pk, tally_match.pk, user.pk, None),
    ]
    assert entries[1].payload == _hand_payload(second)
    assert entries[0].at <= entries[1].at


def test_a_hand_recorded_by_the_system_has_no_actor(tally_match):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=None)

    entry = AuditEntry.objects.get(action="hand_record")
    assert (entry.hand_id, entry.actor_id) == (stored.pk, None)
    assert Hand.objects.get(pk=stored.pk).recorded_by_id is None


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement write is PostgreSQL's")
def test_on_postgresql_the_three_writes_are_one_statement_after_an_unlocked_read(tally_match, user):
    with CaptureQueriesContext(connection) as queries:
        hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
    statements = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(statements) == 2  # the read, then the write
    assert statements[0].startswith("SELECT m.") and "FOR UPDATE" not in statements[0]
    assert statements[1].startswith('WITH match AS (UPDATE "matches_match"')
    stored = Hand.objects.get()
    assert stored.recorded_at == Match.objects.get().updated_at == AuditEntry.objects.get(hand=stored).at


def test_a_write_whose_version_moved_on_since_the_read_writes_nothing(tally_match, user):
    read = services._read(tally_match.pk, by=user)
    hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)  # lands in between
    late = Hand(match=read, number=1, recorded_by=user, record=hand([2, 2]), evaluation={})
    read.hand_count += 1

    assert services._store_recorded(read, late, user) is False
    assert read.version == 0 and late.pk is None
    assert Hand.objects.count() == 1 and AuditEntry.objects.filter(action="hand_record").count() == 1
    match = Match.objects.get(pk=tally_match.pk)
    assert (match.version, match.hand_count, match.state["totals"]) == (1, 1, [3, 1])


def test_a_recording_that_loses_the_race_after_its_read_is_a_version_conflict(tally_match, user, monkeypatch):
    real_read = services._read

    def read_then_someone_records(*args, **kwargs):
        match = real_read(*args, **kwargs)
        monkeypatch.setattr(services, "_read", real_read)
        hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
        return match

    monkeypatch.setattr(services, "_read", read_then_someone_records)
    with pytest.raises(errors.VersionConflict) as conflict:
        hand_record(match=tally_match, record=hand([0, 4], dealer=1), by=user, version=0)

    assert conflict.value.extra["current_version"] == 1
    assert list(Hand.objects.values_list("number", "declared")) == [(1, [3, 1])]


@pytest.mark.skipif(connection.vendor != "postgresql", reason="prepared statements are PostgreSQL's")
def test_on_postgresql_the_read_and_the_write_become_prepared_statements(tally_match, user):
    for version in range(3):
        hand_record(match=tally_match, record=hand([1, 0], dealer=version % 2), by=user, version=version)

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any(s.startswith("SELECT m.") and "matches_match_scorers" in s for s in prepared)
    assert any(s.startswith('WITH match AS (UPDATE "matches_match"') for s in prepared)


@pytest.mark.skipif(connection.vendor != "postgresql", reason="the one-statement write is PostgreSQL's")
def test_the_writes_parameters_are_what_get_db_prep_save_gives(tally_match, user):
    from psycopg.types.json import Jsonb

    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0, reason=" ")
    audit = AuditEntry.objects.get(hand=stored)
    _, match_fields, hand_fields, audit_fields = services._store_recorded_sql()

    def plain(value):
        """A JSON parameter as the value its text stands for: jsonb keeps that, not the text."""
        if isinstance(value, Jsonb):
            text = value.dumps(value.obj)
            return "jsonb", json.loads(text), value.obj
        return value

    for instance, fields in ((stored.match, match_fields), (stored, hand_fields), (audit, audit_fields)):
        lean = services._db_values(instance, fields, connection)
        general = [f.get_db_prep_save(getattr(instance, f.attname), connection) for f in fields]
        assert list(map(plain, lean)) == list(map(plain, general))


@pytest.mark.parametrize(
    "value",
    [
        {"scores": [3, 1], "note": "quatorze — é \u2028", "ratio": 0.1, "none": None, "yes": True},
        {"big": 2**70},  # beyond orjson's 64 bits: json.dumps writes it
        {1: "a key that is not a string"},  # json.dumps makes it "1"
        [],
    ],
)
def test_json_text_is_the_value_json_dumps_would_write(value):
    text = services._json_text_for(None)(value)
    assert json.loads(text) == json.loads(json.dumps(value))


def test_json_text_refuses_what_json_dumps_refuses():
    import datetime

    with pytest.raises(TypeError):
        services._json_text_for(None)({"at": datetime.datetime(2026, 11, 29)})
