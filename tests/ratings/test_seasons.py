"""The season board (ratings/seasons.py) against its definition, computed here row by row from
the history: for each player who played in the period, his rating after his last match in it,
his matches and wins in it and the change from before his first; the same on any period, after
a full recompute and after incremental updates; its queries flat in the rows shown."""

from __future__ import annotations

import datetime as dt

import pytest
from django.core.paginator import Paginator
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from ratings import display
from ratings.backtest import synthetic_db
from ratings.models import RatingHistory, RatingPool
from ratings.reads.seasons import season_board
from ratings.services import rating_events_process_all, rating_pool_recompute

pytestmark = pytest.mark.django_db

NOW = timezone.now()


def expected(start, end) -> list[tuple]:
    """The board by its definition: (rank, player, matches, wins, rating, deviation, change)."""
    rows = RatingHistory.objects.filter(pool__game="tally", played_at__gte=start, played_at__lt=end)
    by_player: dict[int, list] = {}
    for row in rows.order_by("played_at", "match_id"):
        by_player.setdefault(row.player_id, []).append(row)
    out = []
    for player, history in by_player.items():
        first, last = history[0], history[-1]
        shown = display.displayed(last.mu_after, last.sigma_after)
        before = display.rating(first.mu_before, first.sigma_before)
        wins = sum(row.place == 1 for row in history)
        out.append((shown.rating, player, len(history), wins, shown.deviation, shown.rating - before))
    out.sort(key=lambda item: (-item[0], item[1]))
    board, rank, previous = [], 0, None
    for position, (rating, player, matches, wins, deviation, change) in enumerate(out, start=1):
        if rating != previous:
            rank, previous = position, rating
        board.append((rank, player, matches, wins, rating, deviation, change))
    return board


def shown(board) -> list[tuple]:
    return [(r.rank, r.player_id, r.matches, r.wins, r.rating, r.rating_deviation, r.change) for r in board]


@pytest.fixture
def pool(tally):
    """300 synthetic matches of 2–4 of 12 players, a month's share each month for a year."""
    ids = synthetic_db.players(12)
    tables = synthetic_db.outcomes(players=12, matches=300, seed=5, sizes=(2, 3, 4))
    for month in range(12):
        chunk = tables[month * 25 : (month + 1) * 25]
        synthetic_db.store(
            game="tally", tables=chunk, player_ids=ids, start=NOW - dt.timedelta(days=30 * (12 - month))
        )
    rating_pool_recompute(pool=RatingPool.objects.get_or_create(game="tally")[0])
    return ids


PERIODS = [
    ("every match", NOW - dt.timedelta(days=400), NOW + dt.timedelta(days=1)),
    ("the last quarter", NOW - dt.timedelta(days=95), NOW + dt.timedelta(days=1)),
    ("a middle stretch, ending in the past", NOW - dt.timedelta(days=250), NOW - dt.timedelta(days=100)),
    ("the first month only", NOW - dt.timedelta(days=400), NOW - dt.timedelta(days=335)),
    ("a few hours inside one month", NOW - dt.timedelta(days=180, hours=1), NOW - dt.timedelta(days=179)),
    ("before the pool", NOW - dt.timedelta(days=900), NOW - dt.timedelta(days=800)),
]


@pytest.mark.parametrize(("label", "start", "end"), PERIODS, ids=[p[0] for p in PERIODS])
def test_the_board_is_the_periods_history_player_by_player(pool, label, start, end):
    assert shown(season_board(game="tally", start=start, end=end)) == expected(start, end)


def test_it_stays_so_after_incremental_updates(pool, play):
    for points in ([10, 3], [3, 10], [10, 4]):
        play([0, 1], points)
    rating_events_process_all()
    for _label, start, end in PERIODS:
        assert shown(season_board(game="tally", start=start, end=end)) == expected(start, end)
    today = (NOW - dt.timedelta(hours=1), timezone.now() + dt.timedelta(days=1))
    board = shown(season_board(game="tally", start=today[0], end=today[1]))
    assert board == expected(*today)
    assert {row[2] for row in board} == {3}  # Ada and Bea, three matches each today


def test_a_page_of_it_reads_the_same_few_queries_however_long_the_period(pool):
    _label, start, end = PERIODS[0]
    whole = shown(season_board(game="tally", start=start, end=end))
    for period in (PERIODS[0], PERIODS[3]):
        with CaptureQueriesContext(connection) as queries:
            page = Paginator(season_board(game="tally", start=period[1], end=period[2]), 5).get_page(2)
            list(page.object_list)
        assert len(queries) == 4  # the pool, the ranking, the page's counts and its starts
    page = Paginator(season_board(game="tally", start=start, end=end), 5).get_page(2)
    assert shown(page.object_list) == whole[5:10]
    assert shown([season_board(game="tally", start=start, end=end)[3]]) == whole[3:4]


def test_an_unrated_game_has_an_empty_board(tally):
    assert list(season_board(game="tally", start=NOW - dt.timedelta(days=1), end=NOW)) == []
