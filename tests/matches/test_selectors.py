"""Reads: match lists, score sheets, hand histories."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import AnonymousUser

from scorekeeper.matches.models import Match
from scorekeeper.matches.selectors import (
    hand_history,
    match_list,
    match_score_sheet,
    match_with_seats,
    running_values,
    seats_of,
    user_scores_match,
)
from scorekeeper.matches.services import hand_correct, hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_matches_are_selected_by_day(tally_match):
    today = tally_match.created_at.date()

    assert list(match_list(created_from=today, created_to=today)) == [tally_match]
    assert not match_list(created_from=today + timedelta(days=1)).exists()
    assert not match_list(created_to=today - timedelta(days=1)).exists()


def test_the_score_sheet_shows_only_current_hands_with_running_totals(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)
    hand_correct(match=tally_match, number=1, record=hand([1, 1]), by=user)

    tally_match.refresh_from_db()
    sheet = match_score_sheet(match=tally_match)

    assert [(h["number"], h["version"], h["running"]) for h in sheet["hands"]] == [
        (1, 2, [1, 1]),
        (2, 2, [3, 3]),
    ]
    assert sheet["totals"] == [3, 3] and sheet["result"] is None
    assert [s["name"] for s in sheet["seats"]] == ["Ada", "Bea"]


def test_a_hand_history_lists_every_version_oldest_first(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_correct(match=tally_match, number=1, record=hand([2, 1]), by=user)

    assert [(h.version, h.status) for h in hand_history(match=tally_match, number=1)] == [
        (1, "superseded"),
        (2, "valid"),
    ]


@pytest.mark.parametrize(
    ("state", "shown"),
    [
        (None, None),
        ({"totals": [1, 2]}, [1, 2]),
        ({"banks": [3, 4], "points_total": [0, 0]}, [3, 4]),
        ({}, None),
    ],
)
def test_running_values_are_the_totals_or_cul_banks(state, shown):
    assert running_values(state) == shown


def test_whether_a_user_scores_a_match_is_read_once_for_the_match_object(
    tally_match, user, other_user, django_assert_num_queries
):
    match = Match.objects.get(pk=tally_match.pk)
    # One for each user (and for one who is not a scorer, his role in the match's club), then
    # kept on the match.
    with django_assert_num_queries(3):
        assert user_scores_match(user=user, match=match) and user_scores_match(user=user, match=match)
        assert not user_scores_match(user=other_user, match=match)
        assert not user_scores_match(user=other_user, match=match)
    assert not user_scores_match(user=AnonymousUser(), match=match)
    other_user.is_superuser = True
    assert user_scores_match(user=other_user, match=Match.objects.get(pk=tally_match.pk))


def test_scorers_and_seats_read_with_the_match_are_used_as_they_are(
    tally_match, user, other_user, django_assert_num_queries
):
    read_now = [(seat.position, seat.player.name) for seat in seats_of(Match.objects.get(pk=tally_match.pk))]
    listed = match_list().get(pk=tally_match.pk)  # with its seats and its scorers
    with django_assert_num_queries(0):
        assert user_scores_match(user=user, match=listed)
    with django_assert_num_queries(1):  # not a scorer: his role in the match's club
        assert not user_scores_match(user=other_user, match=listed)
    with django_assert_num_queries(0):
        assert [(seat.position, seat.player.name) for seat in seats_of(listed)] == read_now
    assert len(read_now) == 2 and read_now == sorted(read_now)
    assert seats_of(match_with_seats().get(pk=tally_match.pk)) == seats_of(
        Match.objects.get(pk=tally_match.pk)
    )
