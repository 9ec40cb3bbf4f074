"""api.negotiation.ContentNegotiation chooses what DRF's negotiation chooses, once per kind of request."""

from __future__ import annotations

import pytest
from django.http import Http404
from rest_framework import exceptions, renderers
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from api import negotiation
from api.exchange import ScoreSheetCSVRenderer
from api.negotiation import ContentNegotiation
from api.renderers import JSONRenderer

ACCEPTS = [
    None,
    "*/*",
    "application/json",
    "application/json; indent=4",
    "text/html",
    "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "text/csv",
    "application/*",
    "text/csv;q=0.5, application/json",
]


@pytest.fixture(autouse=True)
def forget():
    negotiation.ContentNegotiation._chosen.clear()
    yield
    negotiation.ContentNegotiation._chosen.clear()


def request_with(accept, query=""):
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    return Request(APIRequestFactory().get(f"/api/v1/games{query}", **headers))


def choose(negotiator, accept, renderer_classes, query="", suffix=None):
    candidates = [cls() for cls in renderer_classes]
    try:
        renderer, media_type = negotiator.select_renderer(request_with(accept, query), candidates, suffix)
    except exceptions.NotAcceptable:
        return "406"
    except Http404:  # a format no renderer has
        return "404"
    return type(renderer), media_type, any(renderer is c for c in candidates)


@pytest.mark.parametrize("renderer_classes", [
    [JSONRenderer, renderers.BrowsableAPIRenderer],
    [JSONRenderer, ScoreSheetCSVRenderer],
    [renderers.BrowsableAPIRenderer, JSONRenderer],
])
@pytest.mark.parametrize(
    "query, suffix", [("", None), ("?format=json", None), ("?format=csv", None), ("", "api")]
)
def test_the_first_and_the_remembered_choice_are_drfs(renderer_classes, query, suffix):
    for accept in ACCEPTS:
        drfs = choose(DefaultContentNegotiation(), accept, renderer_classes, query, suffix)
        first = choose(ContentNegotiation(), accept, renderer_classes, query, suffix)
        again = choose(ContentNegotiation(), accept, renderer_classes, query, suffix)
        assert first == again == drfs, accept


def test_a_406_is_not_remembered():
    assert choose(ContentNegotiation(), "image/png", [JSONRenderer]) == "406"
    assert ContentNegotiation._chosen == {}
    assert choose(ContentNegotiation(), "image/png", [JSONRenderer]) == "406"


def test_the_choices_remembered_are_bounded(monkeypatch):
    monkeypatch.setattr(negotiation, "MAX_REMEMBERED", 3)
    for n in range(10):
        assert choose(ContentNegotiation(), f"application/json; q=0.{n}", [JSONRenderer])[0] is JSONRenderer
    assert len(ContentNegotiation._chosen) == 3


@pytest.mark.django_db
def test_the_api_negotiates_through_it(anon):
    assert anon.get("/api/v1/games", HTTP_ACCEPT="text/html").accepted_renderer.format == "api"
    assert anon.get("/api/v1/games").accepted_renderer.format == "json"
    assert anon.get("/api/v1/games", HTTP_ACCEPT="image/png").status_code == 406
