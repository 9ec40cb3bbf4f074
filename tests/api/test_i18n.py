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


def test_the_game_catalog_speaks_french_and_keeps_its_machine_parts(anon):
    response = anon.get("/api/v1/games/piquet-au-cent", HTTP_ACCEPT_LANGUAGE="fr")

    assert response.status_code == 200
    assert response["Content-Language"] == "fr"
    game = response.json()
    assert game["key"] == "piquet-au-cent" and game["title"] == "Piquet au cent"
    options = {spec["name"]: spec for spec in game["options"]}
    assert options["sets_exclude_aces"]["help"] == "les as ne forment ni brelan ni quatorze"
    assert options["sets_exclude_aces"]["label"] == "Pas de quatorze ni de brelan d’as"
    double = options["double_when"]
    assert double["choices"] == ["loser_below_half", "loser_at_least_half"]
    assert double["choice_labels"] == [
        "le perdant sous la moitié de l’objectif",
        "le perdant à la moitié de l’objectif ou plus",
    ]


@pytest.mark.parametrize("language", ["en", "de", "ru"])
def test_every_game_in_the_list_has_its_words_in_the_language(anon, language):
    english = {game["key"]: game for game in anon.get("/api/v1/games").json()["results"]}

    games = anon.get("/api/v1/games", HTTP_ACCEPT_LANGUAGE=language).json()["results"]

    for game in games:
        assert [s["name"] for s in game["options"]] == [s["name"] for s in english[game["key"]]["options"]]
        for spec in game["options"]:
            assert spec["label"] and spec["help"]
            if language != "en":
                assert spec["help"] != next(
                    s["help"] for s in english[game["key"]]["options"] if s["name"] == spec["name"]
                ), (game["key"], spec["name"])


@pytest.mark.parametrize(
    ("language", "message"),
    [
        ("en", "the match is at version 0, not 7: reload it and try again"),
        ("fr", "la partie en est à la version 0, pas 7 : rechargez-la et réessayez"),
        ("de", "die Partie ist bei Version 0, nicht 7: laden Sie sie neu und versuchen Sie es erneut"),
        ("ru", "партия в версии 0, а не 7: обновите её и попробуйте снова"),
    ],
)
def test_a_refused_write_says_why_in_the_language_with_the_same_code(ann, tally_match, language, message):
    body = {"reason": "spilt wine", "version": 7}
    response = ann.post(
        f"/api/v1/matches/{tally_match.pk}/void", body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )

    assert response.status_code == 409
    assert response.json()["code"] == "version_conflict"
    assert response.json()["message"] == message
    assert response.json()["current_version"] == 0
