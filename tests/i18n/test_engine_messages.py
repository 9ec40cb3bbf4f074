"""The rules engine's messages in English, French, German and Russian: the catalog against its
.po files, the API's dry run in each language, the pages, and stored hands of before the codes."""

from __future__ import annotations

import dataclasses
import string
from pathlib import Path
from typing import Any

import polib
import pytest
from django.conf import settings
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.utils import translation
from rest_framework.test import APIClient

from scorekeeper.matches import i18n
from scorekeeper.rules import RULESETS
from scorekeeper.rules.messages import MESSAGES, Plural, Term

ENGINE_LOCALE = Path(settings.BASE_DIR) / "scorekeeper" / "rules" / "locale"
TRANSLATED = ("fr", "de", "ru")


def _po(language: str) -> polib.POFile:
    return polib.pofile(str(ENGINE_LOCALE / language / "LC_MESSAGES" / "django.po"))


def _placeholders(text: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(text) if name}


def _allowed(english: str) -> set[str]:
    """A translation may use a named seat in either form: ``seat`` or its possessive ``seat_of``."""
    names = _placeholders(english)
    return names | {f"{n}_of" for n in names} | {n.removesuffix("_of") for n in names}


def _key(entry) -> tuple[str | None, str]:
    if type(entry) is Term:
        return entry.context, entry.message
    if type(entry) is Plural:
        return None, entry.singular
    return None, entry


def test_the_engines_catalog_folder_is_served_after_the_sites():
    assert [Path(p) for p in settings.LOCALE_PATHS] == [Path(settings.BASE_DIR) / "locale", ENGINE_LOCALE]


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_engine_message_code_has_a_translation_with_the_same_placeholders(language):
    entries = {(e.msgctxt, e.msgid): e for e in _po(language).translated_entries()}
    for code, entry in MESSAGES.items():
        po = entries.get(_key(entry))
        assert po is not None, f"{code} has no {language} translation: run makemessages, translate, compile"
        if type(entry) is Plural:
            assert po.msgid_plural == entry.plural, code
            for form in po.msgstr_plural.values():
                assert form and _placeholders(form) <= _allowed(entry.plural), (code, form)
        else:
            english = entry.message if type(entry) is Term else entry
            assert _placeholders(po.msgstr) <= _allowed(english), (code, po.msgstr)
            assert {n.removesuffix("_of") for n in _placeholders(po.msgstr)} == {
                n.removesuffix("_of") for n in _placeholders(english)
            }, (code, po.msgstr)


def _catalog_texts() -> set[tuple[str | None, str]]:
    """The games' titles and their options' help, labels and choices' words (``Ruleset.describe()``),
    as the games mark them."""
    texts = []
    for cls in RULESETS.values():
        texts.append(cls.title)
        for field in dataclasses.fields(cls.Options):
            meta = field.metadata
            texts += [meta["help"], meta["label"], *meta["choice_labels"].values()]
    return {_key(text) for text in texts}


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_po_file_holds_only_the_catalogs_entries_and_the_game_catalogs_texts(language):
    keys = {_key(entry) for entry in MESSAGES.values()} | _catalog_texts()
    assert {(e.msgctxt, e.msgid) for e in _po(language)} == keys
    assert {(e.msgctxt, e.msgid) for e in _po(language).translated_entries()} >= _catalog_texts()


@pytest.mark.django_db
def test_the_game_catalog_gives_titles_and_option_help_in_the_requests_language():
    response = APIClient().get("/api/v1/games/cul", HTTP_ACCEPT_LANGUAGE="ru")

    entry = response.json()
    assert entry["key"] == "cul" and entry["title"] == "Жопа"
    help_of = {o["name"]: o["help"] for o in entry["options"]}
    assert help_of["rating_scale"].startswith("Формула рейтинга")
    assert {o["name"] for o in entry["options"]} == {o["name"] for o in RULESETS["cul"].Options.specs()}


# -- the API's dry run in each language ----------------------------------------------------------

CUL_MISMATCH = {
    "seats": 2,
    "hand": {"dealer": 0, "bets": ["go", "not_go"], "points": [43, 141], "declared_banks": [3, 3]},
}
CUL_ERROR = {"seats": 2, "hand": {"dealer": 0, "bets": ["go", "not_go"], "points": [43, 141]}}

EXPLANATIONS = {
    "en": "bet go, made 43 of 44: a failed go gains a bank (3 → 4 banks)",
    "fr": "pari « je vais », 43 points sur 44 : un « je vais » manqué ajoute une banque (3 → 4 banques)",
    "de": (
        "Ansage „ich gehe“, 43 von 44 Punkten: ein verfehltes „ich gehe“ bringt eine Bank dazu (3 → 4 Banken)"
    ),
    "ru": "ставка «иду», набрано 43 из 44: несостоявшееся «иду» добавляет банк (3 → 4 банка)",
}
REQUIRED = {
    "en": "declared_banks is required",
    "fr": "declared_banks est obligatoire",
    "de": "declared_banks ist erforderlich",
    "ru": "declared_banks обязательно",
}


def _dry_run(game: str, body: dict, language: str) -> dict:
    response = APIClient().post(
        f"/api/v1/rules/{game}/score", body, format="json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.json()


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_a_mismatch_explanation_is_in_the_requests_language_with_the_same_codes(language):
    result = _dry_run("cul", CUL_MISMATCH, language)

    mismatch = result["mismatches"][0]
    assert mismatch["explanation"] == EXPLANATIONS[language]
    assert mismatch["explanation_code"] == "cul.mismatch"
    assert mismatch["explanation_params"]["why"]["code"] == "cul.note.gained"


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_a_rule_error_message_is_in_the_requests_language_with_the_same_code(language):
    result = _dry_run("cul", CUL_ERROR, language)

    (error,) = result["errors"]
    assert error["code"] == "field_missing" and error["path"] == "declared_banks"
    assert error["message_code"] == "field.required"
    assert error["message"] == REQUIRED[language]


PIQUET_DISPUTE: dict[str, Any] = {
    "seats": 2,
    "hand": {
        "dealer": 1, "carte_blanche": None, "point": {"scorer": 0, "cards": 6, "pips": 56},
        "sequences": {"scorer": 0, "runs": [{"length": 5, "top": "A"}]},
        "sets": {"scorer": 1, "sets": [{"rank": "K", "count": 3}]},
        "tricks": [0] * 6 + [1] * 6, "declared": [58, 10],
    },
}  # fmt: skip
PIQUET_REVOKE = {
    "seats": 2,
    "hand": {
        **PIQUET_DISPUTE["hand"],
        "point": {"scorer": 0, "cards": 4, "pips": 39},
        "sequences": {"scorer": 0, "runs": [{"length": 3, "top": "J"}]},
        "sets": {"scorer": 1, "sets": [{"rank": "A", "count": 3}]},
        "hands": [["7H", "10D", "JD", "9C", "KS", "9H", "KD", "KH", "9D", "9S", "JS", "AC"],
                  ["JC", "QD", "7D", "AS", "KC", "7S", "7C", "JH", "AD", "10S", "8H", "AH"]],
        "trick_cards": [["10D", "JC"]], "declared": [17, 12],
    },
}  # fmt: skip
NO_PIQUE = {
    "en": "younger's trio of kings reckons before elder's play: no pique",
    "fr": "brelan de rois du cadet se compte avant le jeu de l'aîné : pas de pic",
    "de": "Drilling Könige der Hinterhand zählt vor dem Spiel der Vorhand: kein Pique",
    "ru": "трио королей младшего засчитывается раньше розыгрыша старшего: пика нет",
}
REVOKE = {
    "en": "trick 1: younger (seat 1) plays JC to 10D but holds AD, QD, 7D: he must follow suit",
    "fr": "pli 1 : le cadet (place 1) joue JC sur 10D mais a AD, QD, 7D : il doit fournir",
    "de": "Stich 1: Hinterhand (Platz 1) spielt JC auf 10D, hält aber AD, QD, 7D: Farbe muss bedient werden",
    "ru": "взятка 1: младший (место 1) кладёт JC на 10D, хотя у него есть AD, QD, 7D: нужно ходить в масть",
}


@pytest.mark.django_db
@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_a_piquet_explanation_and_error_speak_the_players_terms(language):
    (mismatch,) = _dry_run("piquet", PIQUET_DISPUTE, language)["mismatches"]
    (error,) = _dry_run("piquet", PIQUET_REVOKE, language)["errors"]

    assert mismatch["explanation_code"] == "piquet.barred_pique"
    assert mismatch["explanation"] == NO_PIQUE[language]
    assert (error["code"], error["message_code"]) == ("trick_illegal", "piquet.trick_illegal")
    assert error["message"] == REVOKE[language]


@pytest.mark.django_db
def test_a_breakdown_note_is_translated_too():
    result = _dry_run(
        "bastard",
        {
            "seats": 4,
            "hand": {
                "dealer": 0,
                "trump": "H",
                "tricks": [5, 3, 3, 2],
                "specials": [["JH"], ["7D"], ["JS", "JD", "7C"], ["JC"]],
                "declared": [1, 6, 0, 0],
            },
        },
        "ru",
    )
    notes = [line["note"] for line in result["breakdown"] if line["seat"] == 0]
    assert notes == ["5 взяток", "валеты 4"]


# -- a rejected hand: the API's error body ---------------------------------------------------------


@pytest.mark.django_db
def test_a_rejected_hands_error_body_is_in_the_requests_language(user, make_players):
    from api.tokens import token_create
    from scorekeeper.matches.services import match_create

    match = match_create(game="cul", players=make_players("Anna", "Boris"), by=user)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
    body = {"record": CUL_MISMATCH["hand"], "version": 0}

    url = f"/api/v1/matches/{match.pk}/hands"
    response = client.post(url, body, format="json", HTTP_ACCEPT_LANGUAGE="fr")

    assert response.status_code == 400
    data = response.json()
    assert data["code"] == "score_mismatch"
    assert data["message"] == (
        "les scores annoncés diffèrent des règles pour la ou les places 0, 1 : " + EXPLANATIONS["fr"]
    )
    assert data["mismatches"][0]["explanation"] == EXPLANATIONS["fr"]
    assert data["evaluation"]["breakdown"][0]["note"].startswith("pari « je vais »")


# -- a hand stored before messages had codes ---------------------------------------------------------

#: The evaluation of the CUL_MISMATCH party as the engine stored it before issue 12.
OLD_EVALUATION = {
    "valid": False,
    "scores": [1, -1],
    "breakdown": [
        {
            "seat": 0,
            "item": "bank_change",
            "points": 1,
            "note": "bet go, made 43 of 44: a failed go gains a bank",
        },
        {
            "seat": 1,
            "item": "bank_change",
            "points": -1,
            "note": "bet not go, made 141 of 68: reaching the target drops a bank",
        },
    ],
    "state_after": {
        "parties": 1,
        "banks": [3, 3],
        "points_total": [43, 141],
        "dropped": [0, 0],
        "gained": [0, 0],
        "required_total": [44, 68],
        "last_first_leader": None,
        "over": False,
    },
    "match_over": False,
    "result": None,
    "errors": [],
    "mismatches": [
        {"seat": 0, "declared": 3, "computed": 4, "explanation": EXPLANATIONS["en"]},
        {
            "seat": 1,
            "declared": 3,
            "computed": 2,
            "explanation": "bet not go, made 141 of 68: reaching the target drops a bank (3 → 2 banks)",
        },
    ],
    "warnings": [
        {"code": "dealer_rule", "path": "dealer", "message": "an old text the engine no longer writes"}
    ],
}


@pytest.mark.django_db(transaction=True)
def test_an_old_hands_evaluation_is_shown_in_french_after_the_migration(client):
    executor = MigrationExecutor(connection)
    executor.migrate([("matches", "0005_match_fillfactor")])
    apps = executor.loader.project_state([("matches", "0005_match_fillfactor")]).apps
    User = apps.get_model("auth", "User")
    Player, Match, Seat, Hand = (apps.get_model("matches", m) for m in ("Player", "Match", "Seat", "Hand"))
    by = User.objects.create(username="old-scorer")
    match = Match.objects.create(
        game="cul",
        preset="classic",
        options={},
        created_by=by,
        state=OLD_EVALUATION["state_after"],
        version=1,
        hand_count=1,
    )
    for position, name in enumerate(("Anna", "Boris")):
        Seat.objects.create(match=match, player=Player.objects.create(name=name), position=position)
    record = CUL_MISMATCH["hand"]
    hand = Hand.objects.create(
        match=match,
        number=1,
        record=record,
        declared=[3, 3],
        computed=[1, -1],
        status="disputed",
        accepted_declared=True,
        reason="we agreed",
        state_after=OLD_EVALUATION["state_after"],
        evaluation=OLD_EVALUATION,
        recorded_by=by,
    )
    facts = (
        Hand.objects.filter(pk=hand.pk)
        .values(
            "record",
            "declared",
            "computed",
            "state_after",
            "status",
            "accepted_declared",
            "reason",
            "version",
        )
        .get()
    )

    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(executor.loader.graph.leaf_nodes())

    from scorekeeper.matches.models import Hand as CurrentHand

    stored = CurrentHand.objects.get(pk=hand.pk)
    assert CurrentHand.objects.filter(pk=hand.pk).values(*facts).get() == facts
    assert stored.evaluation["scores"] == OLD_EVALUATION["scores"]
    assert stored.evaluation["mismatches"][0]["explanation_code"] == "cul.mismatch"
    assert stored.evaluation["breakdown"][1]["note_code"] == "cul.note.dropped"
    # A text the engine cannot reproduce keeps its English, without a code.
    assert stored.evaluation["warnings"] == OLD_EVALUATION["warnings"]

    with translation.override("fr"):
        shown = i18n.evaluation(stored.evaluation)
    assert shown["mismatches"][0]["explanation"] == EXPLANATIONS["fr"]
    assert shown["breakdown"][1]["note"] == (
        "pari « je ne vais pas », 141 points sur 68 : atteindre l'objectif fait perdre une banque"
    )
    assert shown["warnings"][0]["message"] == "an old text the engine no longer writes"

    page = client.get(f"/matches/{match.pk}/hands/1/", HTTP_ACCEPT_LANGUAGE="fr")
    assert page.status_code == 200
    assert "un « je vais » manqué ajoute une banque" in page.content.decode()


@pytest.mark.parametrize(
    ("language", "name"),
    [("en", "ace of hearts"), ("fr", "as de cœur"), ("de", "Herz-Ass"), ("ru", "туз червей")],
)
def test_a_card_is_named_in_each_language_while_its_notation_stays(language, name):
    from scorekeeper.rules.cards import Card, card_name

    card = Card.parse("AH")
    with translation.override(language):
        assert i18n.render(*card_name(card)) == name
    assert str(card) == "AH"
