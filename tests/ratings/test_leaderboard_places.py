"""A page of a leaderboard gets its places from one count, not a rank over the whole pool:
the same places as the rank (competition ranking, ties share), on every page."""

from __future__ import annotations

import pytest
from django.utils import timezone

from ratings.models import PlayerRating, RatingPool
from ratings.selectors import leaderboard, leaderboard_places

pytestmark = pytest.mark.django_db


def test_every_page_of_a_leaderboard_has_the_places_of_a_rank_over_the_whole_pool(tally, make_players):
    pool = RatingPool.objects.create(game="tally")
    ratings = [30.0, 28.0, 28.0, 28.0, 25.0, 25.0, 20.0, 19.0, 19.0, 10.0]
    players = make_players(*[f"P{i}" for i in range(len(ratings))])
    for player, value in zip(players, ratings, strict=True):
        PlayerRating.objects.create(pool=pool, player=player, mu=value, sigma=1.0, conservative=value,
                                    matches=20, wins=1, last_played_at=timezone.now())  # fmt: skip
    ranked = [1, 2, 2, 2, 5, 5, 7, 8, 8, 10]

    board = leaderboard(game="tally")
    for size in (1, 2, 3, 4, 10):
        places = [
            row.place
            for start in range(0, 10, size)
            for row in leaderboard_places(board[start : start + size])
        ]
        assert places == ranked, size
    assert leaderboard_places(board[20:30]) == []
