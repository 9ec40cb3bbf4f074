"""The API answers in the request's Accept-Language, says so, and never translates a code."""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "no endpoint at /api/v1/nowhere"),
        ("fr", "aucun point d’accès à /api/v1/nowhere"),
        ("de", "kein Endpunkt unter /api/v1/nowhere"),
        ("ru", "по адресу /api/v1/nowhere ничего нет"),
    ],
)
def test_an_error_message_is_in_the_requests_language_and_its_code_is_not(anon, language, message):
    response = anon.get("/api/v1/nowhere", HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"
    assert response.json()["message"] == message
    assert response["Content-Language"] == language
    assert "Accept-Language" in response["Vary"]


def test_drfs_own_messages_are_translated_too(anon, tally_match):
    response = anon.post(
        f"/api/v1/matches/{tally_match.pk}/hands", {}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    )

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert response.json()["message"] == "Anmeldedaten fehlen."
    assert response["Content-Language"] == "de"


def test_an_answer_without_accept_language_is_in_english(anon):
    response = anon.get("/api/v1/games")

    assert response.status_code == 200
    assert response["Content-Language"] == "en"
