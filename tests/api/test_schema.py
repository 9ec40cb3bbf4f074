"""The OpenAPI 3 schema at /api/schema/ and the Swagger UI at /api/docs/, served without internet."""

from __future__ import annotations

import pytest
from drf_spectacular.generators import SchemaGenerator
from drf_spectacular.validation import validate_schema

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module")
def spec():
    return SchemaGenerator().get_schema(request=None, public=True)


def operations(spec):
    for path, item in spec["paths"].items():
        for method, operation in item.items():
            yield path, method, operation


def test_the_schema_is_served_and_valid_openapi_3(anon, spec):
    response = anon.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")

    assert response.status_code == 200
    assert response.json()["openapi"].startswith("3.")
    validate_schema(spec)


def test_the_error_shape_is_a_component_every_operation_answers_with(spec):
    error = spec["components"]["schemas"]["Error"]
    assert set(error["required"]) == {"code", "message", "field"}
    assert {"errors", "mismatches", "evaluation", "current_version", "last_hand"} <= set(error["properties"])
    for path, method, operation in operations(spec):
        ref = operation["responses"]["4XX"]["content"]["application/json"]["schema"]["$ref"]
        assert ref == "#/components/schemas/Error", (path, method)


def test_every_post_documents_the_idempotency_key_and_its_errors(spec):
    posts = [(p, o) for p, m, o in operations(spec) if m == "post" and p.startswith("/api/v1/")]
    assert len(posts) >= 9
    # These ignore the key: no stored answer may hold a token or a claim code.
    unkeyed = ("/api/v1/auth/token", "/api/v1/matches/{id}/players/{player}/claim-code")
    for path in unkeyed:
        operation = dict(posts)[path]
        assert "Idempotency-Key" not in {p["name"] for p in operation.get("parameters", [])}
        assert {"400", "429"} <= set(operation["responses"]) and "422" not in operation["responses"]
    for path, operation in posts:
        if path in unkeyed:
            continue
        assert "Idempotency-Key" in {p["name"] for p in operation.get("parameters", [])}, path
        if path == "/api/v1/auth/logout":  # no body, only the token it revokes
            assert {"204", "401", "422"} <= set(operation["responses"]), path
            continue
        assert {"400", "422"} <= set(operation["responses"]), path
        if "/rules/" not in path:
            assert {"401", "403"} <= set(operation["responses"]), path


def test_writes_to_a_match_document_versions_and_conflicts(spec):
    for path in ["/api/v1/matches/{id}/hands", "/api/v1/matches/{id}/hands/{number}/corrections"]:
        operation = spec["paths"][path]["post"]
        assert "If-Match" in {p["name"] for p in operation["parameters"]}
        assert {"201", "400", "401", "403", "404", "409", "422"} <= set(operation["responses"])


def test_every_list_is_paginated(spec):
    lists = ["/api/v1/games", "/api/v1/players", "/api/v1/matches", "/api/v1/matches/{id}/hands",
             "/api/v1/matches/{id}/hands/{number}/history"]  # fmt: skip
    for path in lists:
        operation = spec["paths"][path]["get"]
        assert {"page", "page_size"} <= {p["name"] for p in operation["parameters"]}, path
        schema = operation["responses"]["200"]["content"]["application/json"]["schema"]["$ref"]
        assert schema.split("/")[-1].startswith("Paginated"), path


def test_token_authentication_is_documented(spec):
    schemes = spec["components"]["securitySchemes"]
    assert schemes["tokenAuth"]["type"] == "apiKey" and schemes["tokenAuth"]["name"] == "Authorization"


def test_the_swagger_ui_is_served_from_this_site(anon):
    page = anon.get("/api/docs/")

    assert page.status_code == 200
    html = page.content.decode()
    assert "cdn.jsdelivr.net" not in html and "unpkg.com" not in html
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in html


def test_the_swagger_ui_files_are_served_locally(anon):
    response = anon.get("/static/drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js")

    assert response.status_code == 200


def test_every_status_an_operation_can_answer_is_documented_with_the_error_body(spec):
    for path, method, operation in operations(spec):
        statuses = set(operation["responses"])
        if method == "post":
            assert {"400", "413", "415", "429"} <= statuses, (path, method)
        if path != "/api/v1/auth/token":  # the one operation that reads no token
            assert "401" in statuses, (path, method)
        if "{" in path:
            assert "404" in statuses, (path, method)
        for status in statuses - {"4XX"}:
            if status.startswith("4"):
                ref = operation["responses"][status]["content"]["application/json"]["schema"]["$ref"]
                assert ref == "#/components/schemas/Error", (path, method, status)
    hands = spec["paths"]["/api/v1/matches/{id}/hands"]["post"]["responses"]
    assert set(hands) == {"201", "400", "401", "403", "404", "409", "413", "415", "422", "429", "4XX"}


def test_games_are_an_enum_wherever_they_are_named(spec):
    from scorekeeper.rules import RULESETS

    assert spec["components"]["schemas"]["GameEnum"]["enum"] == sorted(RULESETS)
    game = {"$ref": "#/components/schemas/GameEnum"}
    for path in ["/api/v1/games/{game}", "/api/v1/leaderboards/{game}", "/api/v1/rules/{game}/score"]:
        operation = next(iter(spec["paths"][path].values()))
        assert [p["schema"] for p in operation["parameters"] if p["name"] == "game"] == [game], path
    create = spec["components"]["schemas"]["MatchCreateRequest"]["properties"]
    assert create["game"]["allOf"] == [game]
    assert create["players"]["minItems"] == 2 and create["players"]["uniqueItems"] is True


def test_request_components_are_named_once_and_the_token_body_is_json(spec):
    names = set(spec["components"]["schemas"])

    assert not {n for n in names if n.endswith("RequestRequest")}
    assert {"TokenRequest", "PredictRequest", "ScoreRequest", "RecomputeRequest"} <= names
    body = spec["paths"]["/api/v1/auth/token"]["post"]["requestBody"]
    assert list(body["content"]) == ["application/json"]
