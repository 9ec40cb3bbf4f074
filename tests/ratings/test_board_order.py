"""The boards' order and ranks from the stored displayed rating (issue 20, "Scale"): the same
rows, in the same order, with the same ranks as the board computed them over the whole pool
before (a SQL rank over the displayed rating of every row), on every page; ties share a rank
across a page's edge; provisional players ranked apart; the activity filter; the profile's rank."""

from __future__ import annotations

import datetime as dt
import random

import pytest
from django.db.models import F, Value, Window
from django.db.models.functions import Rank, Round
from django.urls import reverse
from django.utils import timezone

from ratings import display
from ratings.models import PlayerRating, RatingPool
from ratings.raters import rater
from ratings.reads.boards import (
    BoardFilter,
    leaderboard,
    leaderboard_page,
    leaderboard_rank,
    leaderboard_ranks,
)
from scorekeeper.matches.models import Player

pytestmark = pytest.mark.django_db


def old_board(game: str, board: BoardFilter, *, provisional: bool) -> list[tuple[int, int]]:
    """(player, rank) as the board gave them before the rating was stored: the displayed
    rating computed in SQL for every row of the pool, ranked by a window over all of them."""
    model = rater()
    k = display.points_per_mu(model)
    shown = Round(Value(float(display.NEWCOMER)) + Value(k) * (F("mu") - Value(model.mu)))
    rows = PlayerRating.objects.filter(pool__game=game)
    rows = (
        rows.filter(matches__lt=board.min_matches)
        if provisional
        else rows.filter(matches__gte=board.min_matches)
    )
    if board.active_since() is not None:
        rows = rows.filter(last_played_at__gte=board.active_since())
    return list(
        rows.annotate(shown_rating=shown, rank=Window(Rank(), order_by=shown.desc()))
        .order_by("-shown_rating", "sigma", "player_id")
        .values_list("player_id", "rank")
    )


def paged(game: str, board: BoardFilter, *, provisional: bool, size: int) -> list[tuple[int, int]]:
    ids = leaderboard(game=game, board=board, provisional=provisional).values_list("pk", flat=True)
    out: list[tuple[int, int]] = []
    for start in range(0, ids.count(), size):
        page = leaderboard_page(
            ids[start : start + size], game=game, board=board, provisional=provisional, offset=start
        )
        out.extend((row.player_id, row.rank) for row in page)
    return out


@pytest.fixture
def crowded_pool(tally):
    """60 players of the test game whose displayed ratings bunch on a few values: equal
    ratings from different mu, equal ratings and sigma told apart by id, a third provisional,
    a quarter not seen for two months."""
    rng = random.Random(20)
    pool = RatingPool.objects.create(game="tally")
    model = rater()
    now = timezone.now()
    people = Player.objects.bulk_create([Player(name=f"p{i}") for i in range(60)])
    rows = []
    for i, player in enumerate(people):
        points = rng.choice([1480, 1500, 1500, 1512, 1540, 1540, 1540, 1601])
        # Within the rounding of one displayed point: a different mu, the same rating shown.
        mu = display.as_mu(points + rng.uniform(-0.45, 0.45), model=model)
        sigma = rng.choice([2.0, 3.5, 3.5, 5.0])
        rows.append(PlayerRating(
            pool=pool, player=player, mu=mu, sigma=sigma, rating=display.rating(mu, sigma),
            conservative=model.conservative(model.prior()), matches=rng.choice([1, 3, 5, 8, 20]), wins=0,
            last_played_at=now - dt.timedelta(days=60 if i % 4 == 0 else 1),
        ))  # fmt: skip
    PlayerRating.objects.bulk_create(rows)
    return pool


@pytest.mark.parametrize("provisional", [False, True])
@pytest.mark.parametrize("active_days", [None, 30])
@pytest.mark.parametrize("size", [1, 4, 7, 50])
def test_each_page_has_the_rows_and_ranks_of_the_board_over_the_whole_pool(
    crowded_pool, provisional, active_days, size
):
    board = BoardFilter(5, active_days)

    expected = old_board("tally", board, provisional=provisional)

    assert len(expected) > 8 and len({rank for _, rank in expected}) < len(expected)  # ties
    assert paged("tally", board, provisional=provisional, size=size) == expected


def test_a_tie_across_a_pages_edge_keeps_the_rank_of_its_first_row(crowded_pool):
    board = BoardFilter(5)
    expected = old_board("tally", board, provisional=False)
    ranks = [rank for _, rank in expected]
    # A page starting inside a run of equal ratings.
    edge = next(i for i in range(1, len(ranks)) if ranks[i] == ranks[i - 1])

    page = leaderboard_ranks(
        leaderboard(game="tally", board=board)[edge : edge + 5], game="tally", board=board
    )

    assert [(row.player_id, row.rank) for row in page] == expected[edge : edge + 5]
    assert page[0].rank < edge + 1


def test_the_profiles_rank_is_the_boards(crowded_pool):
    board = BoardFilter(5, 30)
    expected = dict(old_board("tally", board, provisional=False))

    for rating in PlayerRating.objects.select_related("pool"):
        assert leaderboard_rank(rating=rating, board=board) == expected.get(rating.player_id)


def test_the_page_and_the_api_give_the_boards_ranks_page_by_page(client, crowded_pool, settings):
    settings.RATINGS_LEADERBOARD_ACTIVE_DAYS = 30
    expected = old_board("tally", BoardFilter.default(), provisional=False)
    expected_new = old_board("tally", BoardFilter.default(), provisional=True)

    api = []
    for page in (1, 2, 3):
        body = client.get("/api/v1/leaderboards/tally", {"page_size": 4, "page": page}).json()
        api.extend((row["player"]["id"], row["rank"]) for row in body["results"])
    newcomers = client.get("/api/v1/leaderboards/tally", {"provisional": "true", "page_size": 200}).json()
    page = client.get(reverse("leaderboard", args=["tally"])).context["page"]

    assert api == expected[:12]
    assert [(row["player"]["id"], row["rank"]) for row in newcomers["results"]] == expected_new
    assert [(row.player_id, row.rank) for row in page.object_list] == expected


def test_the_stored_rating_is_the_displayed_one_after_a_replay(play, players):
    for _ in range(3):
        play([0, 1], [10, 3])
        play([2, 3, 1], [10, 3, 1])
    from ratings.services import rating_events_process_all, rating_pool_recompute

    rating_events_process_all()
    incremental = {r.player_id: (r.rating, display.rating(r.mu, r.sigma)) for r in PlayerRating.objects.all()}
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    recomputed = {r.player_id: (r.rating, display.rating(r.mu, r.sigma)) for r in PlayerRating.objects.all()}

    assert len(incremental) == 4 and all(stored == shown for stored, shown in incremental.values())
    assert recomputed == incremental


def test_a_page_takes_two_queries_whatever_its_size_or_place(crowded_pool, django_assert_num_queries):
    board = BoardFilter(1)
    ids = leaderboard(game="tally", board=board).values_list("pk", flat=True)
    for start, size in ((0, 1), (0, 10), (30, 30)):
        page = list(ids[start : start + size])
        with django_assert_num_queries(2):  # the rows with their players, the count for the ranks
            rows = leaderboard_page(page, game="tally", board=board)
            assert [row.player.name for row in rows]
        with django_assert_num_queries(1):
            leaderboard_ranks(rows, game="tally", board=board)
        # A page at the board's top (its offset 0, as the paginator knows it): no count at all.
        with django_assert_num_queries(1 if start == 0 else 2):
            leaderboard_page(page, game="tally", board=board, offset=start)


def test_the_boards_top_ranks_as_counted_from_the_index(crowded_pool):
    board = BoardFilter(1)
    expected = old_board("tally", board, provisional=False)
    assert expected[0][1] == expected[1][1]  # a tie at the top
    for size in (1, 2, 5):
        top = list(leaderboard(game="tally", board=board)[:size])
        ranked = [
            (row.player_id, row.rank) for row in leaderboard_ranks(top, game="tally", board=board, offset=0)
        ]
        assert ranked == expected[:size]
