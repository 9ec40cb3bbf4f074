"""The head-to-head API (issue 21): a player's opponents with the record and today's chance,
two players' record, per game, chances and their meetings with the running record."""

from __future__ import annotations

import pytest

from ratings.services import rating_events_process_all
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def met(play, players):
    """Ada–Bea: Ada wins twice, Bea once, one draw; Ada–Cid once, Cid wins."""
    play([0, 1], [10, 3])
    play([0, 1], [10, 2])
    play([1, 0], [10, 4])
    play([0, 1], [10, 10])
    play([0, 2], [1, 10])
    rating_events_process_all()
    return players


def test_the_opponents_are_listed_most_met_first_with_record_games_and_chance(anon, met):
    ada = met[0]
    body = anon.get(f"/api/v1/players/{ada.pk}/opponents").json()
    assert body["count"] == 2
    first, second = body["results"]
    assert first["player"] == {"id": met[1].pk, "name": "Bea"}
    assert first["record"] == {"met": 4, "wins": 2, "losses": 1, "draws": 1}
    assert first["games"] == {"tally": 4}
    chances = first["chances"]
    assert chances["game"] == "tally" and chances["rated"] is True
    assert chances["win"] + chances["draw"] + chances["loss"] == pytest.approx(1)
    assert second["player"]["name"] == "Cid"
    assert second["record"] == {"met": 1, "wins": 0, "losses": 1, "draws": 0}


def test_the_head_to_head_gives_the_record_per_game_chances_and_a_link_to_the_matches(anon, met):
    ada, bea, *_ = met
    body = anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}").json()
    assert body["player"]["name"] == "Ada" and body["opponent"]["name"] == "Bea" and body["game"] is None
    assert body["record"] == {"met": 4, "wins": 2, "losses": 1, "draws": 1}
    assert body["by_game"] == [{"game": "tally", "met": 4, "wins": 2, "losses": 1, "draws": 1}]
    assert [c["game"] for c in body["chances"]] == ["tally"]
    assert body["matches"].endswith(f"/api/v1/players/{ada.pk}/vs/{bea.pk}/matches")


def test_the_meetings_come_newest_first_with_the_running_record(anon, met):
    ada, bea, *_ = met
    body = anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}/matches").json()
    assert [row["outcome"] for row in body["results"]] == ["draw", "loss", "win", "win"]
    assert [row["record"]["met"] for row in body["results"]] == [4, 3, 2, 1]
    assert body["results"][1]["place"] == 2 and body["results"][1]["opponent_place"] == 1


def test_one_game_only_and_an_unknown_game_is_a_400(anon, met):
    ada, bea, *_ = met
    body = anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}?game=piquet").json()
    assert body["game"] == "piquet" and body["record"]["met"] == 0
    assert body["matches"].endswith("?game=piquet")
    assert body["by_game"][0]["game"] == "tally"  # the other games' records stay whole
    assert anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}/matches?game=piquet").json()["count"] == 0
    assert_error(anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}?game=nope"), 400, field="game")
    assert_error(anon.get(f"/api/v1/players/{ada.pk}/vs/{bea.pk}/matches?game=nope"), 400, field="game")


def test_an_unknown_player_is_a_404(anon, met):
    ada = met[0]
    assert_error(anon.get(f"/api/v1/players/{ada.pk}/vs/999999"), 404)
    assert_error(anon.get(f"/api/v1/players/999999/vs/{ada.pk}/matches"), 404)
    assert_error(anon.get("/api/v1/players/999999/opponents"), 404)
