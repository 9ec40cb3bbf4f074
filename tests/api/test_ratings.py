"""The ratings API: leaderboards, a player's ratings and history, predictions, the staff recompute."""

from __future__ import annotations

import re

import pytest

from ratings import display
from ratings.models import RecomputeJob
from ratings.services import rating_events_process_all
from scorekeeper.matches.services import hand_record, match_create, match_void
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(tally, make_players):
    return make_players("Ada", "Bea", "Cid")


@pytest.fixture
def listed_from_one(settings):
    """The boards list players from their first rated match on (the default of 5 is tested in
    tests/api/test_boards.py)."""
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 1


@pytest.fixture
def rated(players, user, listed_from_one):
    """Ada beats Bea twice, Bea beats Cid once; ratings processed."""
    matches = []
    for a, b in [(0, 1), (0, 1), (1, 2)]:
        match = match_create(game="tally", players=[players[a], players[b]], by=user)
        hand_record(match=match, record=hand([10, 2]), by=user)
        matches.append(match)
    rating_events_process_all()
    return matches


def test_a_leaderboard_lists_players_best_first_with_their_figures(anon, players, rated):
    response = anon.get("/api/v1/leaderboards/tally")

    assert response.status_code == 200
    body = response.json()
    assert body["count"] == 3 and body["next"] is None
    first = body["results"][0]
    assert set(first) == {"rank", "player", "rating", "rating_deviation", "mu", "sigma", "matches",
                          "matches_needed", "wins", "last_played_at", "provisional"}  # fmt: skip
    assert [row["player"]["name"] for row in body["results"]] == ["Ada", "Bea", "Cid"]
    assert [row["rank"] for row in body["results"]] == [1, 2, 3]
    assert (first["matches"], first["wins"], first["provisional"]) == (2, 2, False)
    assert (first["rating"], first["rating_deviation"]) == display.displayed(first["mu"], first["sigma"])


def test_a_leaderboard_is_paginated_and_ranks_run_on_across_pages(anon, rated):
    second = anon.get("/api/v1/leaderboards/tally?page_size=2&page=2").json()
    assert second["count"] == 3 and [row["rank"] for row in second["results"]] == [3]


def test_a_leaderboard_lists_only_players_with_the_minimum_of_matches(anon, players, rated, settings):
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 2
    names = [row["player"]["name"] for row in anon.get("/api/v1/leaderboards/tally").json()["results"]]
    assert names == ["Ada", "Bea"]


def test_equal_ratings_share_a_rank(anon, players, user, listed_from_one):
    match = match_create(game="tally", players=players[:2], by=user)
    hand_record(match=match, record=hand([10, 10]), by=user)
    rating_events_process_all()
    assert [row["rank"] for row in anon.get("/api/v1/leaderboards/tally").json()["results"]] == [1, 1]


def test_a_void_match_leaves_no_trace_on_the_leaderboard(anon, players, rated, user):
    match_void(match=rated[2], by=user, reason="recorded by mistake")
    rating_events_process_all()
    body = anon.get("/api/v1/leaderboards/tally").json()
    assert [row["player"]["name"] for row in body["results"]] == ["Ada", "Bea"]
    assert body["results"][1]["matches"] == 2


def test_an_unknown_game_has_no_leaderboard(anon):
    assert_error(anon.get("/api/v1/leaderboards/chess"), 404, "game_unknown", "game")


def test_a_known_game_nobody_is_rated_in_has_an_empty_leaderboard(anon):
    assert anon.get("/api/v1/leaderboards/piquet").json()["count"] == 0


def test_a_players_ratings_give_each_game_with_place_and_a_link_to_the_history(anon, players, rated):
    body = anon.get(f"/api/v1/players/{players[1].pk}/ratings").json()

    assert body["player"] == {"id": players[1].pk, "name": "Bea"}
    [entry] = body["ratings"]
    assert entry["game"] == "tally" and entry["rank"] == 2 and entry["matches"] == 3 and entry["wins"] == 1
    assert entry["overall_cul_rating"] is None
    assert entry["history"].endswith(f"/api/v1/players/{players[1].pk}/ratings/tally/history")

    history = anon.get(entry["history"]).json()
    assert history["count"] == 3
    newest = history["results"][0]
    assert newest["match"] == rated[2].pk and newest["place"] == 1 and newest["side"] == 0
    assert set(newest["before"]) == {"mu", "sigma", "rating", "rating_deviation"}
    assert newest["after"]["mu"] > newest["before"]["mu"]
    assert newest["change"] == newest["after"]["rating"] - newest["before"]["rating"] > 0
    assert newest["sides"] == 2
    assert re.search(rf"to win, won \d+–\d+: \+{newest['change']}$", newest["explanation"])
    assert 0 < newest["win_probability"] < 1
    oldest = history["results"][-1]
    assert oldest["before"]["mu"] == 25.0 and oldest["win_probability"] == pytest.approx(0.5)


def test_a_player_not_rated_yet_has_no_ratings(anon, players):
    assert anon.get(f"/api/v1/players/{players[0].pk}/ratings").json()["ratings"] == []
    assert_error(anon.get("/api/v1/players/999999/ratings"), 404, "not_found")
    assert_error(anon.get(f"/api/v1/players/{players[0].pk}/ratings/chess/history"), 404, "game_unknown")


def test_a_history_answers_an_unknown_player_first_and_reads_a_known_one_only_when_it_must(
    anon, players, rated, django_assert_num_queries
):
    """The player is read only for a refusal or an empty page: the answers are those of a view
    that read him first."""
    url = "/api/v1/players/{}/ratings/{}/history{}"
    unknown = assert_error(anon.get(url.format(999999, "tally", "")), 404, "not_found")
    for game, query in [("chess", ""), ("tally", "?page=9"), ("tally", "?page_size=x"), ("chess", "?page=x")]:
        assert anon.get(url.format(999999, game, query)).json() == unknown
    ada, cid = players[0].pk, players[2].pk
    assert_error(anon.get(url.format(ada, "chess", "")), 404, "game_unknown")
    assert anon.get(url.format(ada, "tally", "?page=9")).json()["message"] != unknown["message"]
    assert_error(anon.get(url.format(ada, "tally", "?page_size=x")), 400, field="page_size")
    assert anon.get(url.format(ada, "piquet", "")).json() == {
        "count": 0, "next": None, "previous": None, "results": []
    }  # fmt: skip
    with django_assert_num_queries(4):  # the count, the page, the rows of its matches, their points
        assert anon.get(url.format(cid, "tally", "?page_size=1")).json()["count"] == 1


def test_the_cul_entry_carries_the_overall_cul_rating(anon, players, user):
    from ratings.cul import figures_from_state, overall_cul_rating_pct
    from ratings.models import PlayerRating, RatingPool
    from scorekeeper.matches.models import Match, Seat

    state = {"parties": 3, "points_total": [30, 12], "dropped": [2, 0], "gained": [0, 2],
             "required_total": [40, 40], "over": True}  # fmt: skip
    match = Match.objects.create(
        game="cul", status="finished", state=state, result={"placements": [1, 2]}, seat_count=2
    )
    Seat.objects.create(match=match, player=players[0], position=0)
    Seat.objects.create(match=match, player=players[1], position=1)
    pool = RatingPool.objects.create(game="cul")
    PlayerRating.objects.create(
        pool=pool, player=players[0], mu=26, sigma=8, rating=1530, conservative=2, matches=1, wins=1,
        last_played_at=match.created_at,
    )  # fmt: skip

    [entry] = anon.get(f"/api/v1/players/{players[0].pk}/ratings").json()["ratings"]

    expected = overall_cul_rating_pct([figures_from_state(state, 0)], "literal")
    assert entry["overall_cul_rating"] == {
        "matches": 1,
        "literal": expected,
        "normalised": overall_cul_rating_pct([figures_from_state(state, 0)], "normalised"),
    }


# -- predict -------------------------------------------------------------------------------
def test_predict_gives_win_probabilities_that_sum_to_one_expected_ranks_and_a_draw_chance(
    anon, players, rated
):
    response = anon.post("/api/v1/predict", {"game": "tally", "players": [players[0].pk, players[2].pk]},
                         format="json")  # fmt: skip

    assert response.status_code == 200, response.content
    body = response.json()
    ada, cid = body["sides"]
    assert ada["win_probability"] > 0.5 > cid["win_probability"]
    assert ada["win_probability"] + cid["win_probability"] == pytest.approx(1)
    assert ada["expected_rank"] < cid["expected_rank"]
    assert 0 < body["draw_probability"] < 1
    assert ada["players"][0]["id"] == players[0].pk and ada["players"][0]["matches"] == 2
    # win, draw and loss add up, and the old field keeps its meaning under its new name
    for side in (ada, cid):
        assert side["win"] + side["draw"] + side["loss"] == pytest.approx(1)
        assert side["draw"] == body["draw_probability"]
        assert (
            side["expected_score"] == side["win_probability"] == pytest.approx(side["win"] + side["draw"] / 2)
        )
        assert sum(side["place_probabilities"]) == pytest.approx(1)
    assert ada["win"] == pytest.approx(cid["loss"]) and ada["win"] > cid["win"]


def test_predict_starts_players_not_rated_yet_from_the_prior_and_has_no_draw_for_three_sides(anon, players):
    body = anon.post(
        "/api/v1/predict", {"game": "tally", "players": [p.pk for p in players]}, format="json"
    ).json()
    assert [side["win_probability"] for side in body["sides"]] == [pytest.approx(1 / 3)] * 3
    assert body["draw_probability"] is None
    assert all(side["win"] is side["draw"] is side["loss"] is None for side in body["sides"])
    places = [side["place_probabilities"] for side in body["sides"]]
    assert places == [[pytest.approx(1 / 3)] * 3] * 3
    assert body["sides"][0]["players"][0]["mu"] == 25.0 and body["sides"][0]["players"][0]["provisional"]


def test_predict_plays_piquet_voleur_as_two_teams(anon, make_players):
    four = make_players("A", "B", "C", "D")
    body = anon.post("/api/v1/predict", {"game": "piquet-voleur", "players": [p.pk for p in four]},
                     format="json").json()  # fmt: skip
    assert [[p["name"] for p in side["players"]] for side in body["sides"]] == [["A", "C"], ["B", "D"]]
    assert body["draw_probability"] is not None


def test_predict_takes_teams(anon, make_players, tally):
    four = make_players("A", "B", "C", "D")
    request = {"game": "tally", "players": [p.pk for p in four], "teams": [1, 1, 0, 0]}
    body = anon.post("/api/v1/predict", request, format="json").json()
    assert [[p["name"] for p in side["players"]] for side in body["sides"]] == [["C", "D"], ["A", "B"]]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"game": "chess", "players": [1, 2]}, "game_unknown", "game"),
        ({"game": "piquet", "players": "ab"}, "not_a_list", "players"),
        ({"players": [1, 2]}, "required", "game"),
        ({"game": "piquet", "players": [1]}, "min_length", "players"),
        ({"game": "piquet", "players": [0, 1]}, "min_value", "players[0]"),
        ({"game": "tally", "players": [1, 2], "teams": [0]}, "teams_length", "teams"),
        ({"game": "tally", "players": [1, 2], "teams": [3, 3]}, "teams_one_side", "teams"),
    ],
)
def test_predict_refuses_bad_input_in_the_error_shape(anon, players, body, code, field):
    if body.get("players") == [1, 2]:
        body = {**body, "players": [players[0].pk, players[1].pk]}
    assert_error(anon.post("/api/v1/predict", body, format="json"), 400, code, field)


def test_predict_refuses_a_wrong_seat_count_unknown_players_and_a_player_twice(anon, players):
    a, b, c = (p.pk for p in players)
    assert_error(anon.post("/api/v1/predict", {"game": "piquet", "players": [a, b, c]}, format="json"),
                 400, "seat_count", "players")  # fmt: skip
    assert_error(anon.post("/api/v1/predict", {"game": "piquet", "players": [a, 999999]}, format="json"),
                 400, "player_unknown", "players[1]")  # fmt: skip
    assert_error(anon.post("/api/v1/predict", {"game": "piquet", "players": [a, a]}, format="json"),
                 400, "player_twice", "players[1]")  # fmt: skip
    assert_error(anon.post("/api/v1/predict", [a, b], format="json"), 400, "body_not_object")


# -- the staff recompute -----------------------------------------------------------------------
def test_staff_start_a_recompute_and_follow_its_progress(client_for, admin_user, rated):
    staff = client_for(admin_user)

    response = staff.post("/api/v1/ratings/recompute", {}, format="json")

    assert response.status_code == 202, response.content
    job = response.json()
    assert (job["status"], job["done"], job["total"], job["requested_by"]) == (
        "running",
        0,
        1,
        admin_user.username,
    )
    assert response["Location"] == job["url"]
    assert staff.get(job["url"]).json()["id"] == job["id"]
    assert staff.get("/api/v1/ratings/recompute").json()["count"] == 1


def test_only_staff_may_recompute(anon, ann, rated):
    assert_error(anon.post("/api/v1/ratings/recompute", {}, format="json"), 401)
    assert_error(ann.post("/api/v1/ratings/recompute", {}, format="json"), 403)
    assert_error(ann.get("/api/v1/ratings/recompute"), 403)
    assert not RecomputeJob.objects.exists()


def test_a_recompute_of_an_unknown_game_is_refused(client_for, admin_user):
    response = client_for(admin_user).post("/api/v1/ratings/recompute", {"games": ["chess"]}, format="json")
    assert_error(response, 400, "game_unknown", "games[0]")


def test_the_ratings_endpoints_are_in_the_schema(anon):
    paths = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").json()["paths"]
    for path in ["/api/v1/leaderboards/{game}", "/api/v1/players/{id}/ratings",
                 "/api/v1/players/{id}/ratings/{game}/history", "/api/v1/predict",
                 "/api/v1/ratings/recompute", "/api/v1/ratings/recompute/{id}"]:  # fmt: skip
        assert path in paths, path
    board = paths["/api/v1/leaderboards/{game}"]["get"]["responses"]["200"]["content"]["application/json"]
    assert board["schema"]["$ref"].endswith("PaginatedLeaderboardEntryList")
