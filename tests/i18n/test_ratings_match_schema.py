"""What issue 12 translated last: the ratings admin (its models' names, columns and choices), a
match's name without a title, the sign-in lockout page, and the API schema's texts, each in
the language the request or the code asks for."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation
from rest_framework.test import APIClient

from ratings.models import RatingPool, RecomputeJob
from ratings.services import rating_events_process_all
from scorekeeper.matches.services import hand_record, match_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def rated(admin_client, tally_match, user):
    hand_record(match=tally_match, record=hand([10, 3]), by=user)
    rating_events_process_all()
    return admin_client


def test_the_ratings_admin_changelist_speaks_french(rated):
    response = rated.get(reverse("admin:ratings_ratingpool_changelist"), HTTP_ACCEPT_LANGUAGE="fr")

    assert response.status_code == 200
    page = response.content.decode()
    with translation.override("fr"):
        title = translation.gettext("Select %s to view") % RatingPool._meta.verbose_name
    assert title == "Sélectionnez l’objet groupe de classement à afficher"
    assert f"<title>{title} |" in page
    assert "Groupes de classement" in page  # the breadcrumbs, the model's plural name
    assert "Parties classées" in page and "Dernière partie classée" in page  # column headers
    assert "Recalculer les groupes sélectionnés" in page  # the action
    assert "Rating pools" not in page and "Rated matches" not in page


def test_the_recompute_jobs_list_in_german_names_its_columns_and_the_status(rated):
    pool = RatingPool.objects.get(game="tally")
    RecomputeJob.objects.create(total=1, pools=[pool.pk])

    page = rated.get(
        reverse("admin:ratings_recomputejob_changelist"), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()

    assert "Neuberechnungen" in page and "Fortschritt (Pools)" in page and "Angefordert von" in page
    assert "läuft" in page  # RecomputeJob.Status.RUNNING's label


def test_the_recompute_message_names_the_translated_section(rated):
    pool = RatingPool.objects.get(game="tally")
    response = rated.post(
        reverse("admin:ratings_ratingpool_changelist"),
        {"action": "recompute", "_selected_action": [pool.pk]},
        follow=True,
        HTTP_ACCEPT_LANGUAGE="ru",
    )

    job = RecomputeJob.objects.get()
    assert f"Пересчёт №{job.pk} для 1 пула запущен: ход выполнения — в разделе Задачи пересчёта." in (
        response.content.decode()
    )


def test_the_ratings_models_str_follows_the_language(rated):
    pool = RatingPool.objects.get(game="tally")
    job = RecomputeJob.objects.create(total=2, done=1, pools=[pool.pk])

    with translation.override("fr"):
        assert str(job) == f"recalcul n°{job.pk} : 1/2 groupes, en cours"
    with translation.override("en"):
        assert str(job) == f"recompute #{job.pk}: 1/2 pools, running"


def test_a_match_without_a_title_is_named_by_its_games_title_in_german(user, make_players):
    match = match_create(game="piquet", players=make_players("Ada", "Bea"), by=user)

    with translation.override("de"):
        assert str(match) == f"Piquet (Rubicon, Partie zu sechs Spielen) Nr. {match.pk}"
    with translation.override("ru"):
        assert str(match) == f"Пикет (рубикон, партия из шести сдач) №{match.pk}"
    with translation.override("en"):
        assert str(match) == f"Piquet (Rubicon, six-deal partie) #{match.pk}"

    match.title = "Friday at Luc's"
    with translation.override("de"):
        assert str(match) == "Friday at Luc's"  # a title is the players' own words


def test_the_lockout_page_is_translated(client, settings):
    from scorekeeper.lockout import signin_locked_out

    request = client.get("/", HTTP_ACCEPT_LANGUAGE="fr").wsgi_request
    with translation.override("fr"):
        page = signin_locked_out(request, credentials={"username": "carl"}).content.decode()

    assert "Trop de tentatives de connexion" in page
    assert "La connexion a échoué trop de fois pour carl ou depuis cette adresse." in page
    assert "Réessayez dans" in page and "Too many" not in page


def schema(language: str) -> dict:
    response = APIClient().get(
        "/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 200
    return response.json()


def test_the_api_schema_is_served_in_russian():
    spec = schema("ru")

    entry = spec["components"]["schemas"]["LeaderboardEntry"]["properties"]
    assert entry["rank"]["description"] == (
        "позиция в этом списке, 1 — лучший; при равном отображаемом рейтинге позиция общая"
    )
    error = spec["components"]["schemas"]["Error"]["properties"]
    assert error["message"]["description"] == "для людей"
    players = spec["paths"]["/api/v1/players"]["get"]
    assert players["summary"] == "Игроки по имени"
    assert (
        players["responses"]["4XX"]["description"]
        == "Любая другая ошибка клиента (405, 406, 415 …) в общем виде"
    )
    export = spec["components"]["schemas"]["MatchExport"]["properties"]
    assert export["format"]["description"].startswith("всегда ")


def test_the_api_schema_stays_english_without_accept_language():
    spec = schema("")

    entry = spec["components"]["schemas"]["LeaderboardEntry"]["properties"]
    assert (
        entry["rank"]["description"]
        == "the rank on this list, 1 for the best; equal displayed ratings share a rank"
    )
    assert spec["paths"]["/api/v1/players"]["get"]["summary"] == "Players by name"


def test_the_match_admin_changelist_in_french_names_its_columns_and_filters(rated):
    page = rated.get(reverse("admin:matches_match_changelist"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    for header in ("Jeu", "Préréglage", "État", "Version", "Créé par", "Date de création"):
        assert f">{header}<" in page or f">{header}</a>" in page, header
    assert "Par jeu" in page and "Par préréglage" in page  # the filters' titles
    assert "classique" in page  # the preset filter's choice, and the column
    assert "Created by" not in page and "By game" not in page


def test_the_hand_admin_filters_games_by_their_titles(rated):
    page = rated.get(reverse("admin:matches_hand_changelist"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "Enregistrée par" in page and "Donneur" in page
    with translation.override("fr"):
        from scorekeeper.matches.terms import game_title

        assert f"{game_title('tally')}</a>" in page


def test_the_outbox_admin_speaks_german(rated):
    page = rated.get(
        reverse("admin:outbox_outboxmessage_changelist"), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()

    assert "Nachrichten im Postausgang" in page
    assert "Aufgabe" in page and "Versuche" in page and "Übergeben am" in page and "Erledigt am" in page
    assert "Attempts" not in page


def test_the_audit_log_names_its_actions_in_russian(rated):
    page = rated.get(
        reverse("admin:matches_auditentry_changelist"), HTTP_ACCEPT_LANGUAGE="ru"
    ).content.decode()

    assert "раздача записана" in page and "партия начата" in page
    assert "hand_record" not in page.replace("?action__exact=hand_record", "")


def test_the_api_schema_describes_itself_in_french():
    response = APIClient().get("/api/schema/?format=json", HTTP_ACCEPT_LANGUAGE="fr")

    info = response.json()["info"]
    assert info["title"] == "API de Scorekeeper"
    assert info["description"].startswith(
        "Vérifie et enregistre les points des jeux de cartes joués à une vraie table.\n\n**Connexion** : "
    )
    assert "**Erreurs** : chaque 4xx a le corps `Error`" in info["description"]
    assert schema("")["info"]["description"].startswith("Checks and records the scores")


def test_a_rating_pool_is_named_by_its_games_title(rated):
    pool = RatingPool.objects.get(game="tally")
    from scorekeeper.matches.terms import game_title

    with translation.override("ru"):
        assert str(pool) == game_title("tally")
    piquet = RatingPool(game="piquet")
    with translation.override("ru"):
        assert str(piquet) == "Пикет (рубикон, партия из шести сдач)"
    with translation.override("en"):
        assert str(piquet) == "Piquet (Rubicon, six-deal partie)"


def test_the_api_errors_about_an_unknown_game_and_the_body_follow_the_language(user):
    client = APIClient()
    client.force_authenticate(user)

    board = client.get("/api/v1/leaderboards/nogame", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert board["code"] == "game_unknown" and board["message"].startswith("jeu inconnu 'nogame'")
    created = client.post(
        "/api/v1/matches", {"game": "nogame", "players": [1, 2]}, format="json", HTTP_ACCEPT_LANGUAGE="de"
    ).json()
    assert created["code"] == "game_unknown" and "nogame" in created["message"]
    assert "unknown game" not in created["message"]
    predict = client.post("/api/v1/predict", [1], format="json", HTTP_ACCEPT_LANGUAGE="ru").json()
    assert predict == {"code": "body_not_object", "message": "тело должно быть объектом JSON", "field": ""}
    bad = client.post(
        "/api/v1/matches", '{"a": 1e400}', content_type="application/json", HTTP_ACCEPT_LANGUAGE="fr"
    ).json()
    assert bad["message"] == "erreur d’analyse JSON - le nombre 1e400 est hors limites"
