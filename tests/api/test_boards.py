"""The leaderboards of issue 21 in the API: the established and provisional lists and their
filters, explained changes in the history, season boards; bad parameters are 400s."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.utils import timezone

from ratings import display
from ratings.engine import Rater
from ratings.services import rating_events_process_all
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(play):
    """Ada and Bea play six times (Ada wins five), Cid plays Dan twice."""
    for i in range(6):
        play([0, 1], [10, 3] if i != 2 else [3, 10])
    play([2, 3], [10, 3])
    play([2, 3], [10, 4])
    rating_events_process_all()


def names(response) -> list[str]:
    assert response.status_code == 200, response.content
    return [row["player"]["name"] for row in response.json()["results"]]


def test_the_board_lists_the_established_players_and_provisional_true_the_newcomers(anon, league):
    board = anon.get("/api/v1/leaderboards/tally").json()["results"]
    assert [row["player"]["name"] for row in board] == ["Ada", "Bea"]
    assert [row["rank"] for row in board] == [1, 2]
    assert all(not row["provisional"] and row["matches_needed"] == 5 for row in board)
    assert board[0]["rating"] > 1500 > board[1]["rating"]
    assert (board[0]["rating"], board[0]["rating_deviation"]) == display.displayed(
        board[0]["mu"], board[0]["sigma"]
    )

    newcomers = anon.get("/api/v1/leaderboards/tally?provisional=true").json()["results"]
    assert [(row["player"]["name"], row["matches"], row["provisional"]) for row in newcomers] == [
        ("Cid", 2, True),
        ("Dan", 2, True),
    ]


def test_min_matches_and_active_days_filter_the_board(anon, league, players):
    assert sorted(names(anon.get("/api/v1/leaderboards/tally?min_matches=2"))) == ["Ada", "Bea", "Cid", "Dan"]
    assert names(anon.get("/api/v1/leaderboards/tally?min_matches=7")) == []
    players[1].ratings.update(last_played_at=timezone.now() - dt.timedelta(days=10))
    assert names(anon.get("/api/v1/leaderboards/tally?active_days=9")) == ["Ada"]
    assert names(anon.get("/api/v1/leaderboards/tally?active_days=0")) == ["Ada", "Bea"]


def test_the_settings_are_the_filters_defaults(anon, league, players, settings):
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 2
    settings.RATINGS_LEADERBOARD_ACTIVE_DAYS = 9
    players[1].ratings.update(last_played_at=timezone.now() - dt.timedelta(days=10))
    assert names(anon.get("/api/v1/leaderboards/tally")) == ["Ada", "Cid", "Dan"]


@pytest.mark.parametrize(
    ("query", "field"),
    [
        ("min_matches=0", "min_matches"),
        ("min_matches=x", "min_matches"),
        ("min_matches=%205", "min_matches"),
        ("active_days=-1", "active_days"),
        ("active_days=99999999", "active_days"),
        ("provisional=maybe", "provisional"),
    ],
)
def test_bad_board_parameters_are_400s(anon, league, query, field):
    assert_error(anon.get(f"/api/v1/leaderboards/tally?{query}"), 400, field=field)


def test_the_history_explains_each_change_from_the_displayed_values(anon, league, players):
    body = anon.get(f"/api/v1/players/{players[1].pk}/ratings/tally/history").json()
    for row in body["results"]:
        assert row["change"] == row["after"]["rating"] - row["before"]["rating"]
        assert row["sides"] == 2 and 1 <= row["expected_place"] <= 2
        word = "won" if row["place"] == 1 else "lost"
        # The chance to win, a draw not counted (the history's counts it half), and the score.
        p = row["win_probability"]
        win = p - Rater.default().draw_from_win(p) / 2
        assert re.match(rf"{round(win * 100)} % to win, {word} \d+–\d+: ", row["explanation"])
    french = anon.get(f"/api/v1/players/{players[1].pk}/ratings/tally/history", HTTP_ACCEPT_LANGUAGE="fr")
    assert "de chances de gagner" in french.json()["results"][0]["explanation"]


def test_a_season_board_gives_each_players_period(anon, league):
    today = timezone.now().date()
    body = anon.get(f"/api/v1/leaderboards/tally/season?from={today.replace(day=1)}&to={today}").json()
    ada = body["results"][0]
    assert set(ada) == {
        "rank",
        "player",
        "rating",
        "rating_deviation",
        "mu",
        "sigma",
        "matches",
        "wins",
        "change",
    }
    assert ada["player"]["name"] == "Ada" and (ada["matches"], ada["wins"]) == (6, 5)
    assert ada["change"] == ada["rating"] - 1500
    assert body["count"] == 4
    assert anon.get("/api/v1/leaderboards/tally/season").json()["count"] == 4  # this month by default
    empty = anon.get("/api/v1/leaderboards/tally/season?from=2001-01-01&to=2001-12-31").json()
    assert empty["count"] == 0


@pytest.mark.parametrize(
    ("query", "code", "field"),
    [
        ("from=2026-12-01&to=2026-11-30", "period_inverted", "to"),
        ("from=2000-01-01&to=2020-01-01", "period_too_long", "to"),
        ("from=2026-13-01", "invalid", "from"),
        ("to=tomorrow", "invalid", "to"),
        ("to=", "invalid", "to"),
    ],
)
def test_bad_season_ranges_are_400s(anon, query, code, field, tally):
    assert_error(anon.get(f"/api/v1/leaderboards/tally/season?{query}"), 400, code, field)


def test_an_unknown_games_season_is_a_404(anon):
    assert_error(anon.get("/api/v1/leaderboards/chess/season"), 404, "game_unknown")


def test_the_predictions_players_carry_the_displayed_rating(anon, league, players):
    body = anon.post(
        "/api/v1/predict", {"game": "tally", "players": [players[0].pk, players[2].pk]}, format="json"
    ).json()
    ada = body["sides"][0]["players"][0]
    assert (ada["rating"], ada["rating_deviation"]) == display.displayed(ada["mu"], ada["sigma"])
    assert ada["provisional"] is False and body["sides"][1]["players"][0]["provisional"] is True


def test_the_season_and_board_queries_do_not_grow_with_the_rows(
    anon, league, play, django_assert_max_num_queries
):
    urls = ["/api/v1/leaderboards/tally", "/api/v1/leaderboards/tally/season",
            "/api/v1/leaderboards/tally?provisional=true"]  # fmt: skip
    counts = []
    for url in urls:
        with django_assert_max_num_queries(50) as ctx:
            anon.get(url)
        counts.append(len(ctx))
    for _ in range(5):
        play([2, 3], [10, 3])
        play([1, 3], [10, 3])
    rating_events_process_all()
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert anon.get(url).status_code == 200


@pytest.mark.parametrize("provisional", [False, True])
def test_a_board_rows_answer_is_what_its_declared_fields_give(league, provisional):
    # LeaderboardEntrySerializer builds a row's answer at once: the same JSON, key for key and
    # in the same order, as DRF's field-by-field path over the fields it declares.
    import json

    from rest_framework import serializers

    from api.ratings import LeaderboardEntrySerializer
    from ratings.reads import boards

    board = boards.BoardFilter.default()
    board_rows = boards.leaderboard(game="tally", board=board, provisional=provisional)
    ids = board_rows.values_list("pk", flat=True)
    rows = boards.leaderboard_page(ids, game="tally", board=board, provisional=provisional)
    assert len(rows) == 2
    serializer = LeaderboardEntrySerializer(context={"board": board})
    for row in rows:
        for zone in ("UTC", "Asia/Kolkata"):
            with timezone.override(zone):
                fast = serializer.to_representation(row)
                per_field = serializers.Serializer.to_representation(serializer, row)
            assert json.dumps(fast) == json.dumps(per_field)
