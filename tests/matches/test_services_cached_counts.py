"""What the services cache on the match row and in memory agrees with the rows it stands for.

``Match.hand_count`` (the number of current hands, read under the match lock to number the
next hand), ``Match.seat_count`` (the number of seats, which never change) and the rulesets
shared by every match with the same game, options and seats.
"""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import transaction

from scorekeeper.matches import errors, services
from scorekeeper.matches.models import Hand, Match
from scorekeeper.matches.services import (
    hand_correct,
    hand_record,
    match_create,
    match_recompute,
    match_reopen,
    match_void,
)
from tests.fakes import hand

pytestmark = pytest.mark.django_db

migration = __import__("scorekeeper.matches.migrations.0003_match_hand_count", fromlist=["count_hands"])
seat_migration = __import__("scorekeeper.matches.migrations.0009_match_seat_count", fromlist=["count_seats"])


def current_hands(match) -> int:
    return Hand.objects.filter(match=match).exclude(status=Hand.Status.SUPERSEDED).count()


def assert_counts_agree(match) -> None:
    match = Match.objects.get(pk=match.pk)
    assert match.hand_count == current_hands(match)


def test_hand_count_follows_recordings_corrections_recomputes_voids_and_reopens(tally_match, user):
    assert_counts_agree(tally_match)
    for i, points in enumerate([[3, 1], [2, 2], [1, 3]]):
        hand_record(match=tally_match, record=hand(points, dealer=i % 2), by=user)
        assert_counts_agree(tally_match)
    hand_correct(match=tally_match, number=1, record=hand([5, 4]), by=user, reason="miscounted")
    assert_counts_agree(tally_match)
    assert Hand.objects.filter(match=tally_match).count() > 3  # superseded versions are not counted
    match_recompute(match=tally_match)
    match_void(match=tally_match, by=user, reason="abandoned")
    match_reopen(match=tally_match, by=user, reason="resumed")
    assert_counts_agree(tally_match)
    assert hand_record(match=tally_match, record=hand([0, 0]), by=user).number == 4


def test_a_rejected_hand_leaves_the_count_alone(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    with pytest.raises(errors.HandRefused):
        hand_record(match=tally_match, record=hand([3, 1], declared=[0, 0], dealer=1), by=user)

    assert_counts_agree(tally_match)
    assert Match.objects.get(pk=tally_match.pk).hand_count == 1


def test_the_migration_counts_the_current_hands_of_existing_matches(tally_match, user, make_players):
    empty = match_create(game="tally", players=make_players("Cy", "Di"), by=user)
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)
    hand_correct(match=tally_match, number=2, record=hand([1, 1], dealer=1), by=user, reason="typo")
    Match.objects.update(hand_count=7)

    migration.count_hands(apps, None)

    assert Match.objects.get(pk=tally_match.pk).hand_count == 2
    assert Match.objects.get(pk=empty.pk).hand_count == 0


def test_seat_count_is_the_number_of_seats_and_the_migration_counts_them(tally, user, make_players):
    players = make_players("Ada", "Bea", "Cy")
    two = match_create(game="tally", players=players[:2], by=user)
    three = match_create(game="tally", players=players, by=user)
    assert [m.seat_count for m in Match.objects.order_by("pk")] == [2, 3]
    assert [m.seats.count() for m in (two, three)] == [2, 3]
    Match.objects.update(seat_count=0)

    seat_migration.count_seats(apps, None)

    assert [m.seat_count for m in Match.objects.order_by("pk")] == [2, 3]


def test_matches_with_the_same_game_options_and_seats_share_one_ruleset(tally, user, make_players):
    players = make_players("Ada", "Bea", "Cy")
    one = match_create(game="tally", players=players[:2], by=user, options={"target": 20})
    two = match_create(game="tally", players=players[1:], by=user, options={"target": 20})
    other = match_create(game="tally", players=players[:2], by=user, options={"target": 30})
    three = match_create(game="tally", players=players, by=user, options={"target": 20})

    def ruleset(match):
        with transaction.atomic():  # the lock needs one on PostgreSQL
            return services._ruleset(services._lock(match))

    assert ruleset(one) is ruleset(two)
    assert ruleset(one) is not ruleset(other) and ruleset(other).options.target == 30
    assert ruleset(three) is not ruleset(one) and ruleset(three).seats == 3
    # The same options in another key order are the same ruleset.
    Match.objects.filter(pk=two.pk).update(options=dict(reversed(list(one.options.items()))))
    assert ruleset(two) is ruleset(one)
