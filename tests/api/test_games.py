"""GET /api/v1/games and /api/v1/games/<key>: the catalog apps build their forms from."""

from __future__ import annotations

import pytest
from jsonschema import Draft202012Validator

from tests.api.conftest import assert_error
from tests.rules.conformance import GAMES as CONFORMANCE_GAMES

pytestmark = pytest.mark.django_db

GAMES = set(CONFORMANCE_GAMES)


def test_the_catalog_lists_every_game_with_seats_options_and_record_schema(anon):
    response = anon.get("/api/v1/games")

    assert response.status_code == 200
    body = response.json()
    assert set(body) == {"count", "next", "previous", "results"}
    games = {g["key"]: g for g in body["results"]}
    assert set(games) >= GAMES
    for key in GAMES:
        game = games[key]
        assert game["seats"] and game["presets"] == ["classic", "seed"] and game["title"]
        Draft202012Validator.check_schema(game["record_schema"])
        assert game["record_schema"].get("type") == "object"
        for option in game["options"]:
            assert set(option) >= {"name", "type", "effect", "help", "defaults"}
            assert set(option["defaults"]) == {"classic", "seed"}
            if option["type"] == "enum":
                assert option["defaults"]["classic"] in option["choices"]


def test_one_game_can_be_read_and_an_unknown_one_is_a_404(anon):
    piquet = anon.get("/api/v1/games/piquet")

    assert piquet.status_code == 200 and piquet.json()["seats"] == [2]
    assert_error(anon.get("/api/v1/games/chess"), 404, "game_unknown", "game")


def test_the_catalog_is_paginated_like_every_list(anon):
    body = anon.get("/api/v1/games", {"page_size": 3}).json()

    assert len(body["results"]) == 3 and body["next"]
    assert_error(anon.get("/api/v1/games", {"page": 99}), 404, "not_found")
