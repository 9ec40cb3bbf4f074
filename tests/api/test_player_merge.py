"""The staff merge of a duplicate player (issue 21): POST /api/v1/players/<id>/merge."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RecomputeJob
from ratings.services import rating_events_process_all, rating_pool_recompute
from scorekeeper.matches.models import Player, Seat
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client_for, django_user_model):
    return client_for(django_user_model.objects.create_user("staff", is_staff=True))


@pytest.fixture
def duplicate(play, players, make_players):
    (ada_s,) = make_players("Ada S.")
    players.append(ada_s)
    play([4, 1], [10, 3])
    play([0, 2], [10, 3])
    rating_events_process_all()
    return ada_s


def merge(client, player, into, **kwargs):
    return client.post(f"/api/v1/players/{player}/merge", {"into": into}, format="json", **kwargs)


def test_staff_merge_a_duplicate_and_follow_the_recompute(staff, duplicate, players):
    ada = players[0]
    response = merge(staff, duplicate.pk, ada.pk)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["player"] == {"id": duplicate.pk, "name": "Ada S.", "merged_into": ada.pk}
    assert body["into"] == {"id": ada.pk, "name": "Ada"}
    assert body["games"] == ["tally"] and len(body["matches"]) == 1
    job = staff.get(body["recompute"]).json()
    assert job["total"] == 1
    for pool in RecomputeJob.objects.get(pk=job["id"]).pools:  # its tasks run after the commit
        rating_pool_recompute(pool=pool, job=job["id"])
    assert PlayerRating.objects.get(player=ada).matches == 2
    assert not PlayerRating.objects.filter(player=duplicate).exists()
    assert Seat.objects.filter(player=duplicate).count() == 0


def test_a_merged_player_is_no_longer_listed_and_shows_where_he_went(staff, anon, duplicate, players):
    merge(staff, duplicate.pk, players[0].pk)
    names = [row["name"] for row in anon.get("/api/v1/players").json()["results"]]
    assert "Ada S." not in names and "Ada" in names
    board = anon.get("/api/v1/leaderboards/tally").json()["results"]
    assert duplicate.pk not in [row["player"]["id"] for row in board]


def test_only_staff_may_merge(anon, ann, duplicate, players):
    assert_error(merge(anon, duplicate.pk, players[0].pk), 401)
    assert_error(merge(ann, duplicate.pk, players[0].pk), 403)
    assert Player.objects.get(pk=duplicate.pk).merged_into is None


def test_the_refusals_have_their_status_and_code(staff, duplicate, players):
    ada, bea = players[0], players[1]
    assert_error(merge(staff, duplicate.pk, duplicate.pk), 400, "merge_into_self", "into")
    assert_error(merge(staff, duplicate.pk, 999999), 400, "player_unknown", "into")
    assert_error(merge(staff, 999999, ada.pk), 404)
    assert_error(merge(staff, duplicate.pk, bea.pk), 409, "players_met", "into")
    assert_error(staff.post(f"/api/v1/players/{duplicate.pk}/merge", {}, format="json"), 400, field="into")
    assert merge(staff, duplicate.pk, ada.pk).status_code == 200
    assert_error(merge(staff, duplicate.pk, players[3].pk), 409, "player_merged")
    assert_error(merge(staff, players[3].pk, duplicate.pk), 409, "merge_chain", "into")


def test_a_merged_players_detail_names_the_real_player(staff, anon, duplicate, players):
    assert anon.get(f"/api/v1/players/{duplicate.pk}").json()["merged_into"] is None
    merge(staff, duplicate.pk, players[0].pk)
    body = anon.get(f"/api/v1/players/{duplicate.pk}").json()
    assert body["merged_into"] == players[0].pk and body["match_count"] == 0
