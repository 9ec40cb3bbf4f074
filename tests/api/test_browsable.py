"""The API's HTML pages (DRF's browsable API), for a browser that asks for HTML: never a 500."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.fakes import hand

pytestmark = pytest.mark.django_db

PAGES = [
    "/api/v1/",
    "/api/v1/games",
    "/api/v1/games/piquet",
    "/api/v1/players",
    "/api/v1/matches",
    "/api/v1/matches/{match}",
    "/api/v1/matches/{match}/hands",
    "/api/v1/matches/{match}/hands/1",
    "/api/v1/matches/{match}/hands/1/history",
    "/api/v1/rules/piquet/score",
]


@pytest.mark.parametrize("page", PAGES)
@pytest.mark.parametrize("signed_in", [False, True], ids=["anonymous", "scorer"])
def test_every_page_renders_as_html(page, signed_in, user, tally_match, ann):
    ann.post(f"/api/v1/matches/{tally_match.pk}/hands", {"record": hand([1, 0]), "version": 0}, format="json")
    browser = APIClient()
    if signed_in:
        browser.force_login(user)

    response = browser.get(page.format(match=tally_match.pk), HTTP_ACCEPT="text/html")

    assert response.status_code in (200, 405), response.content[:300]
    assert response["Content-Type"].startswith("text/html")


def test_the_token_view_answers_json_only_with_the_error_shape():
    response = APIClient().get("/api/v1/auth/token", HTTP_ACCEPT="text/html")
    assert response.status_code == 406
    assert response.json()["code"] == "not_acceptable"
