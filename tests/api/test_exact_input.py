"""The server takes what its schema allows and refuses the rest (docs/api.md, "The schema, checked").

DRF converts what it can (``"5"`` to 5, ``1`` to True, ``5`` to ``"5"``), trims text before
counting it and reads unparsable pagination as the default; the API does not, so that a request
the schema calls invalid is a 400 (or a 404), never quietly taken.
"""

from __future__ import annotations

import pytest

from scorekeeper.matches.models import Hand, Match, Player
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"name": 5}, "invalid", "name"),
        ({"name": ["Ada"]}, "invalid", "name"),
        ({"name": "   "}, "blank", "name"),
        # Counted as sent: 101 characters, even if trimming would leave 100.
        ({"name": "A" * 100 + " "}, "max_length", "name"),
    ],
)
def test_a_player_body_takes_text_as_text(ann, body, code, field):
    assert_error(ann.post("/api/v1/players", body, format="json"), 400, code, field)
    assert not Player.objects.exists()


@pytest.mark.parametrize(
    ("extra", "code", "field"),
    [
        ({"version": "0"}, "invalid", "version"),
        ({"version": 0.0}, "invalid", "version"),
        ({"version": 0, "accept_declared": 1}, "invalid", "accept_declared"),
        ({"version": 0, "reason": 5}, "invalid", "reason"),
    ],
)
def test_a_hand_body_takes_the_types_its_schema_says(ann, tally_match, extra, code, field):
    body = {"record": hand([1, 2]), **extra}

    assert_error(ann.post(f"/api/v1/matches/{tally_match.pk}/hands", body, format="json"), 400, code, field)
    assert not Hand.objects.exists()


def test_every_wrong_field_is_listed_with_the_others(ann):
    body = assert_error(ann.post("/api/v1/matches", {"players": [1, "2"], "preset": 3}, format="json"), 400)

    assert {(e["field"], e["code"]) for e in body["errors"]} == {
        ("game", "required"),
        ("preset", "invalid_choice"),
        ("players[1]", "invalid"),
    }


@pytest.mark.parametrize(
    "header", ['"0"', 'W/"0"', "0", ' "0"\t'], ids=["etag", "weak", "bare", "optional whitespace"]
)
def test_if_match_takes_one_version(ann, tally_match, header):
    response = ann.post(
        f"/api/v1/matches/{tally_match.pk}/hands",
        {"record": hand([1, 2])},
        format="json",
        HTTP_IF_MATCH=header,
    )

    assert response.status_code == 201, response.content


@pytest.mark.parametrize("header", ['"0", "1"', '"0",', "*", '"x"', "\x0b0"])
def test_if_match_refuses_anything_else(ann, tally_match, header):
    response = ann.post(
        f"/api/v1/matches/{tally_match.pk}/hands",
        {"record": hand([1, 2])},
        format="json",
        HTTP_IF_MATCH=header,
    )

    assert_error(response, 400, "if_match_invalid", "If-Match")
    assert Match.objects.get(pk=tally_match.pk).version == 0


@pytest.mark.parametrize("value", ["null", "0", "-1", " 5", "5.0", "", "٥"])
def test_a_page_size_that_is_no_positive_integer_is_a_400(anon, value):
    assert_error(anon.get("/api/v1/games", {"page_size": value}), 400, field="page_size")


def test_a_large_page_size_is_read_as_200(anon, make_players):
    make_players(*(f"P{i}" for i in range(3)))

    body = anon.get("/api/v1/players", {"page_size": "5000"}).json()

    assert body["count"] == 3 and body["next"] is None


@pytest.mark.parametrize("value", ["", "x", " 1", "1.0"])
def test_a_page_that_is_no_number_is_a_404(anon, value):
    assert_error(anon.get("/api/v1/games", {"page": value}), 404)


def test_the_last_page_is_still_last(anon):
    assert anon.get("/api/v1/games", {"page": "last"}).status_code == 200


@pytest.mark.parametrize("query", ["status=", "game=", "player=", "player=+1", "player=%201", "date="])
def test_an_empty_or_loose_match_filter_is_a_400(anon, query):
    assert_error(anon.get(f"/api/v1/matches?{query}"), 400)


def test_an_empty_export_format_is_a_404_like_an_unknown_one(anon, tally_match):
    for query in ("format=", "format=xml"):
        assert anon.get(f"/api/v1/matches/{tally_match.pk}/export?{query}").status_code == 404
    assert anon.get(f"/api/v1/matches/{tally_match.pk}/export?format=csv").status_code == 200


def test_wrong_credentials_are_a_400_authorization(anon, user):
    response = anon.post("/api/v1/auth/token", {"username": "ann", "password": "wrong"}, format="json")

    assert_error(response, 400, "authorization")
