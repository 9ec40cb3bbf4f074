"""Reads: match lists, score sheets, hand histories."""

from datetime import timedelta

import pytest

from scorekeeper.matches.selectors import hand_history, match_list, match_score_sheet, running_values
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
