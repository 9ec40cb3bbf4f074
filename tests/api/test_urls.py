"""Every API URL resolves to its own view; any other URL under /api/ is the API's 404."""

from __future__ import annotations

import re

import pytest
from django.urls import URLPattern, URLResolver, resolve, reverse

from api.urls import v1


def named_patterns(patterns):
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from named_patterns(entry.url_patterns)
        elif isinstance(entry, URLPattern) and entry.name:
            yield entry


def argument_names(pattern: URLPattern) -> list[str]:
    return re.findall(r"\(\?P<(\w+)>", pattern.pattern.regex.pattern)


def sample_arguments(pattern: URLPattern) -> dict:
    """Values for a pattern's arguments: ids and numbers 7, formats json."""
    return {name: "json" if name == "format" else 7 for name in argument_names(pattern)}


@pytest.mark.parametrize("pattern", list(named_patterns(v1)), ids=lambda p: p.name)
def test_each_v1_url_resolves_back_to_its_own_name(pattern):
    path = reverse(f"api:{pattern.name}", kwargs=sample_arguments(pattern))
    assert resolve(path).url_name == pattern.name
    assert path.startswith("/api/v1/")


def test_the_schema_and_its_ui_keep_their_urls():
    assert (reverse("schema"), reverse("docs")) == ("/api/schema/", "/api/docs/")


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_an_unknown_url_under_the_api_is_the_json_404_in_debug_mode_too(anon, settings, debug):
    settings.DEBUG = debug

    for response in (anon.get("/api/v1/nope"), anon.get("/api/nope/"), anon.post("/api/v1/nope", {})):
        assert response.status_code == 404 and response["Content-Type"] == "application/json"
        assert response.json() == {
            "code": "not_found",
            "message": f"no endpoint at {response.request['PATH_INFO']}",
            "field": "",
        }


@pytest.mark.django_db
@pytest.mark.parametrize("debug", [False, True], ids=["production", "debug"])
def test_an_api_page_asked_for_without_its_last_slash_is_redirected_to_it(anon, settings, debug):
    settings.DEBUG = debug

    for path in ("/api/v1", "/api/schema", "/api/docs"):
        response = anon.get(path, {"format": "json"})
        assert (response.status_code, response["Location"]) == (301, f"{path}/?format=json")


@pytest.mark.django_db
def test_a_page_outside_the_api_keeps_django_s_debug_page(anon, settings):
    settings.DEBUG = True

    response = anon.get("/no-such-page/")

    assert response.status_code == 404 and "text/html" in response["Content-Type"]


#: Beyond every database's integer: SQLite's driver cannot even send it (OverflowError).
TOO_BIG = 2**64 + 5


def id_arguments(pattern: URLPattern) -> list[str]:
    return [name for name in argument_names(pattern) if name != "format"]


@pytest.mark.django_db
@pytest.mark.parametrize("pattern", [p for p in named_patterns(v1) if id_arguments(p)], ids=lambda p: p.name)
def test_an_id_beyond_the_databases_integers_is_a_4xx_in_every_url(pattern, ann, tally_match, record_hand):
    """Each id of the path in turn too big, the others naming what exists: the scorer's match,
    its first hand, its first player (found by Schemathesis: a 500 on SQLite)."""
    record_hand(tally_match, [3, 1])
    first_player = tally_match.seats.first().player_id
    real = {"pk": tally_match.pk, "number": 1, "player": first_player, "format": "json"}
    existing = {name: real.get(name, 7) for name in argument_names(pattern)}
    for big in id_arguments(pattern):
        path = reverse(f"api:{pattern.name}", kwargs={**existing, big: TOO_BIG})
        for method in ("get", "post"):
            response = getattr(ann, method)(path, {}, format="json")
            assert response.status_code < 500, (method, path, response.content[:300])
            if response.status_code != 405:
                assert response.status_code in (400, 403, 404), (method, path, response.content[:300])
