"""scorekeeper.rawrows: a row of hand-written SQL read into the instance the ORM would give."""

import pytest
from django.db import connection
from rest_framework.authtoken.models import Token

from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record
from scorekeeper.rawrows import RowReader
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def fetch(sql, params):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


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
