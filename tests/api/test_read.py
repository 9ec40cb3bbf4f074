"""The first API endpoints: root, players, matches, the token endpoint, the schema, errors."""

import pytest
from knox.models import AuthToken
from rest_framework.test import APIClient

from scorekeeper.matches.services import hand_record, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def api():
    return APIClient()


def test_the_api_root_lists_the_endpoints(api):
    response = api.get("/api/v1/")

    assert response.status_code == 200
    assert set(response.json()) >= {"players", "matches", "token", "schema", "docs"}


def test_players_are_listed_paginated_and_searchable(api, make_players):
    make_players("Ada", "Bea", "Adele")

    everyone = api.get("/api/v1/players").json()
    found = api.get("/api/v1/players", {"search": "ad"}).json()

    assert everyone["count"] == 3
    assert [p["name"] for p in found["results"]] == ["Ada", "Adele"]


def test_a_player_detail_and_a_missing_one_in_the_error_shape(api, make_players):
    (ada,) = make_players("Ada")

    assert api.get(f"/api/v1/players/{ada.pk}").json()["name"] == "Ada"
    missing = api.get("/api/v1/players/999")
    assert missing.status_code == 404
    assert missing.json() == {"code": "not_found", "message": "Not found.", "field": ""}


def test_matches_filter_by_game_status_and_player(api, tally_match, user, make_players):
    from scorekeeper.matches.services import match_create

    other = match_create(game="tally", players=make_players("Cid", "Dan"), by=user)
    match_void(match=other, by=user, reason="test")
    ada = tally_match.seats.get(position=0).player

    def ids(**params):
        return [m["id"] for m in api.get("/api/v1/matches", params).json()["results"]]

    assert ids() == [other.pk, tally_match.pk]
    assert ids(status="void") == [other.pk]
    assert ids(player=ada.pk) == [tally_match.pk]
    assert ids(game="piquet") == []


def test_the_match_detail_is_the_score_sheet(api, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)

    body = api.get(f"/api/v1/matches/{tally_match.pk}").json()

    assert body["version"] == 1 and body["totals"] == [3, 1]
    assert body["options"] == {"target": 10, "dealer_check": True}
    assert [s["name"] for s in body["seats"]] == ["Ada", "Bea"]
    assert body["hands"][0] | {"recorded_at": None} == {
        "number": 1, "version": 1, "dealer": 0, "status": "valid", "declared": [3, 1], "computed": [3, 1],
        "running": [3, 1], "accepted_declared": False, "reason": "", "errors": [], "mismatches": [],
        "warnings": [], "recorded_by": "ann", "recorded_at": None,
        "confirmation": "waiting", "confirmed_by": None, "confirmed_at_table": False, "dispute_reason": "",
    }  # fmt: skip
    assert body["confirmed_at"] is None


def test_a_token_is_issued_for_a_username_and_password(api, django_user_model):
    user = django_user_model.objects.create_user("carl", password="a-long-password-1")

    response = api.post("/api/v1/auth/token", {"username": "carl", "password": "a-long-password-1"})

    assert response.status_code == 200
    assert AuthToken.objects.get(user=user).token_key == response.json()["token"][:15]


def test_a_wrong_password_gets_the_common_error_shape(api):
    response = api.post("/api/v1/auth/token", {"username": "nobody", "password": "x"})

    assert response.status_code == 400
    body = response.json()
    assert set(body) == {"code", "message", "field", "errors"}


def test_writes_need_authentication(api):
    response = api.post("/api/v1/players", {"name": "Ada"})
    assert response.status_code in (401, 403)
    assert response.json()["code"] in ("not_authenticated", "authentication_failed")


def test_the_openapi_schema_and_docs_are_served(api):
    assert api.get("/api/schema/").status_code == 200
    assert api.get("/api/docs/").status_code == 200
