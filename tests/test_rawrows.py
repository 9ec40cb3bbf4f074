"""scorekeeper.rawrows: a row of hand-written SQL read into the instance the ORM would give."""

import pytest
from django.db import connection, transaction
from rest_framework.authtoken.models import Token

from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record
from scorekeeper.rawrows import RowReader, fetch_one
from tests.conftest import other_connection
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def fetch(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def read_username(user):
    return fetch_one(
        "default", "SELECT username FROM auth_user WHERE id = %s", [user.pk], own_health_check=True
    )


def fields(instance):
    return {f.attname: getattr(instance, f.attname) for f in type(instance)._meta.concrete_fields}


def test_a_match_row_reads_as_the_orm_reads_it_json_and_datetimes_included(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)
    reader = RowReader(Match, "m", extra=[("answer", None)])

    row = fetch(f'SELECT {reader.columns}, 42 FROM "matches_match" m WHERE m."id" = %s', [tally_match.pk])
    read = reader.read(row, "default")

    orm = Match.objects.get(pk=tally_match.pk)
    assert fields(read) == fields(orm)
    assert read.state["totals"] == [3, 1] and read.updated_at.tzinfo is not None
    assert read.answer == 42 and read._state.db == "default" and not read._state.adding


def test_an_extra_column_gets_its_fields_converters(user):
    token = Token.objects.create(user=user)
    reader = RowReader(type(user), "u", extra=[("token_created", Token._meta.get_field("created"))])

    row = fetch(
        f'SELECT {reader.columns}, t."created" FROM "auth_user" u'
        ' JOIN "authtoken_token" t ON t."user_id" = u."id" WHERE t."key" = %s',
        [token.key],
    )
    read = reader.read(row, "default")

    assert fields(read) == fields(type(user).objects.get(pk=user.pk))
    assert read.is_active is True  # a bool, even where the database stores 1
    assert read.token_created == Token.objects.get(pk=token.pk).created
    assert read.token_created.tzinfo is not None


@pytest.mark.django_db(transaction=True)  # outside the test's own transaction, as a request's first read
def test_a_first_read_is_its_own_health_check_and_survives_a_dead_connection(user, monkeypatch):
    pings = []
    real_is_usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: pings.append(1) or real_is_usable())
    connection.ensure_connection()

    connection.close_if_unusable_or_obsolete()  # what Django does as a request starts
    assert read_username(user) == ("ann",)
    assert pings == [] and connection.health_check_done

    if connection.vendor == "postgresql":  # the server drops the idle connection
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            (pid,) = cursor.fetchone()
        with other_connection() as other:
            other.execute("SELECT pg_terminate_backend(%s)", [pid])
        connection.close_if_unusable_or_obsolete()
        assert read_username(user) == ("ann",)
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_backend_pid()")
            assert cursor.fetchone()[0] != pid
    assert pings == []


@pytest.mark.django_db(transaction=True)
def test_in_a_transaction_django_still_pings_first(user, monkeypatch):
    pings = []
    real_is_usable = connection.is_usable
    monkeypatch.setattr(connection, "is_usable", lambda: pings.append(1) or real_is_usable())
    connection.ensure_connection()
    connection.close_if_unusable_or_obsolete()

    with transaction.atomic():
        assert fetch_one(
            "default", "SELECT id FROM auth_user WHERE id = %s", [user.pk], own_health_check=True
        ) == (user.pk,)
    assert fetch_one("default", "SELECT id FROM auth_user WHERE id = %s", [-1], own_health_check=True) is None
    assert pings == [1]  # once, before the read in the transaction; none again after it
