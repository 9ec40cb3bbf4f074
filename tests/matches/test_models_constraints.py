"""What the database itself refuses, whatever code writes to it."""

import pytest
from django.db import IntegrityError, transaction

from scorekeeper.matches.models import Hand, Seat
from scorekeeper.matches.services import hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def insert_hand(match, number, version=1, status="valid", supersedes=None):
    return Hand.objects.create(
        match=match, number=number, version=version, status=status, supersedes=supersedes, record={}
    )


def test_the_database_refuses_a_duplicate_current_hand_number(tally_match, user):
    hand_record(match=tally_match, record=hand([1, 0]), by=user)

    with pytest.raises(IntegrityError), transaction.atomic():
        insert_hand(tally_match, number=1, version=2, supersedes=Hand.objects.get())


def test_a_superseded_version_may_share_its_number_with_the_current_one(tally_match):
    old = insert_hand(tally_match, number=1, status="superseded")
    insert_hand(tally_match, number=1, version=2, supersedes=old)

    assert Hand.objects.filter(match=tally_match, number=1).count() == 2


def test_the_database_refuses_a_version_number_twice(tally_match):
    old = insert_hand(tally_match, number=1, status="superseded")
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_hand(tally_match, number=1, version=1, status="superseded")
    assert old.pk


@pytest.mark.parametrize(
    ("number", "version", "status"),
    # number from 1; version from 1; a known status; a second version must supersede one
    [(0, 1, "valid"), (1, 0, "valid"), (1, 1, "lost"), (1, 2, "valid")],
)
def test_the_database_refuses_impossible_hand_rows(tally_match, number, version, status):
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_hand(tally_match, number=number, version=version, status=status)


def test_a_hand_is_superseded_at_most_once(tally_match):
    old = insert_hand(tally_match, number=1, status="superseded")
    insert_hand(tally_match, number=1, version=2, supersedes=old, status="superseded")
    with pytest.raises(IntegrityError), transaction.atomic():
        insert_hand(tally_match, number=1, version=3, supersedes=old)


def test_the_database_refuses_a_seat_taken_twice_or_a_player_seated_twice(tally_match, make_players):
    (cid,) = make_players("Cid")
    ada = tally_match.seats.get(position=0).player
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(match=tally_match, player=cid, position=0)
    with pytest.raises(IntegrityError), transaction.atomic():
        Seat.objects.create(match=tally_match, player=ada, position=2)
