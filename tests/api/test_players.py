"""/api/v1/players: create (signed in), list with search, detail with the player's matches."""

from __future__ import annotations

import pytest

from scorekeeper.matches.models import AuditEntry, Player
from scorekeeper.matches.services import match_create
from tests.api.conftest import assert_error

pytestmark = pytest.mark.django_db


def test_a_signed_in_user_adds_a_player(ann):
    response = ann.post("/api/v1/players", {"name": "  Ada  "}, format="json")

    assert response.status_code == 201
    player = Player.objects.get()
    assert response.json() | {"created_at": None} == {"id": player.pk, "name": "Ada", "created_at": None}
    assert response["Location"].endswith(f"/api/v1/players/{player.pk}")
    assert player.created_by.username == "ann"
    assert AuditEntry.objects.filter(action="player_create", player=player).exists()


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({}, "required"),
        ({"name": ""}, "blank"),
        ({"name": "x" * 101}, "max_length"),
        ({"name": ["Ada"]}, "invalid"),
    ],
)
def test_a_player_needs_a_name(ann, body, code):
    assert_error(ann.post("/api/v1/players", body, format="json"), 400, code, "name")
    assert not Player.objects.exists()


def test_a_blank_name_after_trimming_is_refused(ann):
    assert_error(ann.post("/api/v1/players", {"name": "   "}, format="json"), 400, "blank", "name")


def test_adding_a_player_needs_a_sign_in(anon):
    response = anon.post("/api/v1/players", {"name": "Ada"}, format="json")

    assert_error(response, 401, "not_authenticated")
    assert response["WWW-Authenticate"] == "Token"
    assert not Player.objects.exists()


def test_players_are_listed_by_name_and_searchable(anon, make_players):
    make_players("Bea", "Ada", "Adele")

    everyone = anon.get("/api/v1/players").json()
    found = anon.get("/api/v1/players", {"search": "AD"}).json()
    paged = anon.get("/api/v1/players", {"page_size": 1, "page": 2}).json()

    assert [p["name"] for p in everyone["results"]] == ["Ada", "Adele", "Bea"]
    assert [p["name"] for p in found["results"]] == ["Ada", "Adele"] and found["count"] == 2
    assert [p["name"] for p in paged["results"]] == ["Adele"] and paged["previous"]


def test_a_player_detail_lists_their_matches(anon, tally, user, make_players):
    ada, bea, cid = make_players("Ada", "Bea", "Cid")
    first = match_create(game="tally", players=[ada, bea], by=user)
    second = match_create(game="tally", players=[cid, ada], by=user)
    match_create(game="tally", players=[bea, cid], by=user)

    body = anon.get(f"/api/v1/players/{ada.pk}").json()

    assert body["name"] == "Ada" and body["match_count"] == 2
    assert [m["id"] for m in body["matches"]] == [second.pk, first.pk]
    assert body["matches"][0]["seats"][1]["name"] == "Ada"
    assert body["matches_url"].endswith(f"/api/v1/matches?player={ada.pk}")
    assert [m["id"] for m in anon.get(body["matches_url"]).json()["results"]] == [second.pk, first.pk]


def test_a_missing_player_is_a_404(anon):
    assert_error(anon.get("/api/v1/players/999999"), 404, "not_found")
    assert_error(anon.get("/api/v1/players/99999999999999999999999999"), 404, "not_found")
