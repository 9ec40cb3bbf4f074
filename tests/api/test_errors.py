"""One error shape for every 4xx, and never a 5xx on bad input, whatever the body."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.matches.models import Hand, Match
from tests.api.conftest import ERROR_KEYS, assert_error

pytestmark = pytest.mark.django_db

#: Raw bodies that are not acceptable JSON objects, sent as application/json.
GARBAGE = [
    "",
    "null",
    "[]",
    "1",
    '"record"',
    "{",
    '{"a": }',
    "NaN",
    '{"version": Infinity}',
    '{"version": 1e400}',
    '{"record": {"dealer": 1e400}, "version": 0}',
    "9" * 5000,
    '{"record": ' + "[" * 5000 + "]" * 5000 + ', "version": 0}',
    '{"version": ' + "9" * 50 + "}",
    "\udcff",
    # PostgreSQL stores no U+0000: refused as a parse error, not a database error.
    '{"record": {"dealer": 0, "points": [1, 1], "declared": [1, 1], "note": "\\u0000"}, "version": 1}',
    '{"name": "A\\u0000", "username": "\\u0000", "reason": "x", "version": 1}',
]
WRONG_TYPES: list[object] = [None, True, -1, 10**30, 1.5, "x", [], {}, [[{}]], "0" * 300]


@pytest.fixture
def post_urls(tally_match, make_players):
    """Every POST of the API, with the ids of a real match and players."""
    from scorekeeper.matches.services import hand_record

    hand_record(match=tally_match, record={"dealer": 0, "points": [1, 1], "declared": [1, 1]}, by=None)
    m = f"/api/v1/matches/{tally_match.pk}"
    return {
        "/api/v1/auth/token": ["username", "password"],
        "/api/v1/rules/piquet/score": ["preset", "options", "seats", "state", "hand", "accept_declared"],
        "/api/v1/players": ["name"],
        "/api/v1/matches": ["game", "preset", "options", "players", "teams", "title"],
        f"{m}/scorers": ["username"],
        f"{m}/void": ["reason", "version"],
        f"{m}/reopen": ["reason", "version"],
        f"{m}/hands": ["record", "version", "accept_declared", "reason"],
        f"{m}/hands/1/corrections": ["record", "version", "accept_declared", "reason"],
    }


def assert_client_error(response):
    assert 400 <= response.status_code < 500, (response.status_code, response.content[:300])
    assert set(response.json()) >= ERROR_KEYS


def test_garbage_bodies_are_400s_on_every_post(ann, post_urls):
    for url in post_urls:
        for raw in GARBAGE:
            data = raw.encode("utf-8", "surrogateescape")
            response = ann.generic("POST", url, data, content_type="application/json")
            assert_client_error(response)
            assert response.status_code == 400, (url, raw[:40], response.json())
    assert Hand.objects.count() == 1 and Match.objects.count() == 1


def test_every_field_of_every_post_with_a_wrong_type_is_never_a_5xx(ann, post_urls):
    for url, fields in post_urls.items():
        for name in fields:
            for value in WRONG_TYPES:
                response = ann.post(url, {name: value}, format="json")
                assert response.status_code < 500, (url, name, value, response.content[:300])
                if response.status_code >= 400:
                    assert set(response.json()) >= ERROR_KEYS


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    record=st.recursive(
        st.none()
        | st.booleans()
        | st.integers()
        | st.floats(allow_nan=False, allow_infinity=False)
        | st.text(),
        lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
        max_leaves=12,
    )
    | st.fixed_dictionaries(
        {"dealer": st.integers(-2, 3) | st.booleans(), "tricks": st.lists(st.integers(-1, 2), max_size=13)}
    )
)
def test_any_json_as_a_piquet_record_is_a_201_or_a_400(ann, piquet_match, record):
    version = Match.objects.get(pk=piquet_match.pk).version
    before = Hand.objects.filter(match=piquet_match).count()

    response = ann.post(
        f"/api/v1/matches/{piquet_match.pk}/hands", {"record": record, "version": version}, format="json"
    )

    assert response.status_code in (201, 400, 409), response.content[:300]
    stored = Hand.objects.filter(match=piquet_match).count()
    assert stored == before + (response.status_code == 201)


@pytest.fixture
def piquet_match(user, make_players):
    from scorekeeper.matches.services import match_create

    return match_create(game="piquet", players=make_players("Ada", "Bea"), by=user)


def test_an_unknown_url_under_the_api_is_a_json_404(anon):
    assert_error(anon.get("/api/v1/nothing-here"), 404, "not_found")
    assert_error(anon.get("/api/v1/matches/abc"), 404, "not_found")
    assert_error(anon.get("/api/v1/matches/"), 404, "not_found")


def test_a_page_outside_the_api_keeps_the_html_404(anon):
    response = anon.get("/no-such-page/")

    assert response.status_code == 404 and "text/html" in response["Content-Type"]


def test_a_wrong_method_is_a_405_in_the_common_shape(ann, anon, tally_match):
    assert_error(anon.delete(f"/api/v1/matches/{tally_match.pk}"), 401)
    assert_error(ann.delete(f"/api/v1/matches/{tally_match.pk}"), 405, "method_not_allowed")
    assert_error(ann.put("/api/v1/games", {}), 405, "method_not_allowed")


def test_a_body_that_is_not_json_is_a_415(ann):
    response = ann.post("/api/v1/players", "name=Ada", content_type="application/x-www-form-urlencoded")

    assert_error(response, 415, "unsupported_media_type")


def test_an_unacceptable_format_is_a_406(anon):
    assert_error(anon.get("/api/v1/games", HTTP_ACCEPT="application/xml"), 406, "not_acceptable")


def test_a_bad_token_is_a_401(anon):
    anon.credentials(HTTP_AUTHORIZATION="Token not-a-token")

    assert_error(anon.get("/api/v1/games"), 401, "authentication_failed")


def test_a_validation_error_lists_every_field(ann):
    body = assert_error(ann.post("/api/v1/matches", {"players": "x", "preset": 3}, format="json"), 400)

    assert {e["field"] for e in body["errors"]} == {"game", "players", "preset"}
    assert all(set(e) == {"field", "code", "message"} for e in body["errors"])
    assert body["field"] == body["errors"][0]["field"]


def test_a_search_with_a_nul_character_is_not_an_error(anon, make_players):
    make_players("Ada")

    assert anon.get("/api/v1/players", {"search": "A\x00"}).json()["count"] == 1


def test_a_body_over_the_upload_limit_is_a_413(ann, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 1000
    body = '{"name": "' + "a" * 1000 + '"}'

    response = ann.generic("POST", "/api/v1/players", body, content_type="application/json")

    assert_error(response, 413, "body_too_large")


def test_ids_beyond_the_database_range_are_404s(ann, tally_match):
    big = 10**30
    m = f"/api/v1/matches/{tally_match.pk}"
    body = {"record": {}, "version": 0, "reason": "x", "username": "ann"}

    posts = [f"/api/v1/matches/{big}/hands", f"{m}/hands/{big}/corrections", f"/api/v1/matches/{big}/void"]
    for url in posts:
        assert_error(ann.post(url, body, format="json"), 404)
    for url in [f"{m}/hands/{big}", f"{m}/hands/{big}/history", f"/api/v1/players/{big}"]:
        assert_error(ann.get(url), 404)
