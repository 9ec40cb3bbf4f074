"""The rows of a player's matches that explain his rating changes (ratings/changes.py)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from ratings import services as ratings
from ratings.models import RatingHistory
from ratings.reads import changes

pytestmark = pytest.mark.django_db


def test_the_rows_of_a_players_matches_are_every_row_of_them_read_without_a_join(play, players):
    play([0, 1], [10, 3])
    play([1, 2, 3], [2, 10, 5])
    play([3, 1], [4, 10])
    ratings.rating_events_process_all()
    own = list(RatingHistory.objects.filter(player=players[1]))
    assert len(own) == 3

    with CaptureQueriesContext(connection) as read:
        rows = changes.rows_of_matches(own)

    [statement] = read.captured_queries
    assert "JOIN" not in statement["sql"] and "ORDER BY" not in statement["sql"]
    everything = list(RatingHistory.objects.filter(match_id__in={row.match_id for row in own}))
    assert sorted(row.pk for row in rows) == sorted(row.pk for row in everything) and len(rows) == 7
    assert [(r.match_id, r.side, r.player_id) for r in rows] == sorted(
        (r.match_id, r.side, r.player_id) for r in rows
    )
    # Explained as from the rows in the model's order (the player's name first within a side).
    assert changes.explain(rows) == changes.explain(everything)


def test_a_players_own_changes_are_those_of_every_row_and_the_score_is_his_sides_first(play, players):
    play([0, 1], [10, 3])
    play([1, 2, 3], [2, 10, 5])
    ratings.rating_events_process_all()
    rows = list(RatingHistory.objects.all())
    results = changes.match_results({row.match_id for row in rows})
    everyone = changes.explain(rows, results)

    his = changes.explain(rows, results, players={players[1].pk})

    assert len(everyone) == 5 and len(his) == 2
    assert his == {key: change for key, change in everyone.items() if key[1] == players[1].pk}
    two_sided = next(match for match, player in his if everyone[match, player].sides == 2)
    assert his[two_sided, players[1].pk].score == "3–10"
    assert everyone[two_sided, players[0].pk].score == "10–3"
