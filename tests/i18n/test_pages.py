"""Every page in English, French, German and Russian, chosen by Accept-Language, by the
switcher's cookie or by the signed-in user's preference; times in the viewer's time zone."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.urls import reverse
from django.utils import translation
from django.utils.html import escape

from scorekeeper.accounts.models import Preference
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record, match_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]


@pytest.fixture
def recorded(tally_match, user):
    hand_record(match=tally_match, record=hand([6, 1]), by=user)
    tally_match.refresh_from_db()
    return tally_match


@pytest.fixture
def piquet_match(user, make_players):
    return match_create(game="piquet", players=make_players("Luc", "Max"), by=user)


def _pages(match: Match, piquet: Match) -> dict[str, tuple[str, str]]:
    """Each page: its URL and a string it shows, as the catalog knows it (English)."""
    return {
        "home": (reverse("home"), "Recent matches"),
        "match": (match.get_absolute_url(), "Score sheet"),
        "match (a real game)": (piquet.get_absolute_url(), "Piquet (Rubicon, six-deal partie)"),
        "hand": (reverse("hand-detail", args=[match.pk, 1]), "Breakdown"),
        "hand history": (reverse("hand-history", args=[match.pk, 1]), "newest first"),
        "new hand": (reverse("hand-new", args=[match.pk]), "The whole hand record as a JSON object."),
        "new piquet hand": (reverse("hand-new", args=[piquet.pk]), "Tricks won, in order"),
        "correct a hand": (reverse("hand-correct", args=[match.pk, 1]), "Save correction"),
        "void": (reverse("match-void", args=[match.pk]), "Void this match?"),
        "new match": (reverse("match-new"), "Which game?"),
        "new piquet match": (reverse("match-new-game", args=["piquet"]), "Players, in seat order"),
        "player": (reverse("player-detail", args=[match.seats.get(position=0).player_id]), "Matches"),
        "settings": (reverse("preferences"), "Settings"),
        "not found": ("/matches/999999/", "There is nothing at this address."),
    }


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_page_speaks_the_language_of_accept_language(scorer, recorded, piquet_match, language):
    for page, (url, msgid) in _pages(recorded, piquet_match).items():
        response = scorer.get(url, HTTP_ACCEPT_LANGUAGE=f"{language},en;q=0.5")

        body = response.content.decode()
        with translation.override(language):
            expected = translation.gettext(msgid)
        if language != "en":
            assert expected != msgid, f"{page}: {msgid!r} has no {language} translation"
        assert f'<html lang="{language}">' in body, page
        assert escape(expected) in body, f"{page} in {language}: {expected!r}"
        assert response["Content-Language"] == language, page


def test_the_pages_of_a_visitor_and_the_refusal_page_are_translated(client, recorded, other_user):
    response = client.get(reverse("login"), HTTP_ACCEPT_LANGUAGE="de")
    assert '<html lang="de">' in response.content.decode()
    assert "Anmelden" in response.content.decode()

    client.force_login(other_user)  # not a scorer of the match
    response = client.get(reverse("match-void", args=[recorded.pk]), HTTP_ACCEPT_LANGUAGE="ru")
    assert response.status_code == 403
    body = response.content.decode()
    assert "Нет доступа" in body
    assert "Записывать, исправлять, аннулировать и возобновлять эту партию могут только её счётчики." in body


def test_the_words_players_say_at_the_table(scorer, piquet_match):
    french = scorer.get(
        reverse("hand-new", args=[piquet_match.pk]), HTTP_ACCEPT_LANGUAGE="fr"
    ).content.decode()
    assert "Séquences" in french and "quatorze de dames" in french and "Carte blanche" in french
    russian = scorer.get(reverse("match-new"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Жопа" in russian and "Банк" in russian and "Пикет" in russian
    german = scorer.get(
        reverse("match-new-game", args=["piquet"]), HTTP_ACCEPT_LANGUAGE="de"
    ).content.decode()
    assert "Asse bilden weder Drilling noch Quatorze" in german  # an option's help


def test_plural_forms_follow_the_language(scorer, recorded, user):
    url = reverse("hand-detail", args=[recorded.pk, 1])
    assert "История (1 версия)" in scorer.get(url, HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Historique (1 version)" in scorer.get(url, HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    counts = scorer.get(reverse("hand-new", args=[recorded.pk]), HTTP_ACCEPT_LANGUAGE="ru").context[
        "trick_counts"
    ]
    assert counts[1:6] == ["1 взятка", "2 взятки", "3 взятки", "4 взятки", "5 взяток"]
    assert counts[21] == "21 взятка"


def test_every_page_has_the_language_switcher(client, recorded):
    body = client.get(reverse("home")).content.decode()
    assert f'action="{reverse("set_language")}"' in body
    assert all(f'<option value="{code}"' in body for code in LANGUAGES)


def test_the_switcher_remembers_the_language_in_its_cookie(client, recorded):
    response = client.post(reverse("set_language"), {"language": "de", "next": reverse("home")})

    assert response.status_code == 302
    assert client.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    # The cookie wins over the browser's Accept-Language from now on.
    body = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert '<html lang="de">' in body and "Neueste Partien" in body


def test_a_signed_in_users_preference_wins_over_accept_language(scorer, user, recorded):
    Preference.objects.create(user=user, language="ru")

    body = scorer.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert '<html lang="ru">' in body and "Недавние партии" in body


def test_the_switcher_wins_over_the_preference_on_this_browser(scorer, user, recorded):
    Preference.objects.create(user=user, language="ru")
    scorer.post(reverse("set_language"), {"language": "fr", "next": "/"})

    assert '<html lang="fr">' in scorer.get(reverse("home")).content.decode()


def test_the_settings_page_saves_the_preference_and_sets_the_language_here(scorer, user):
    response = scorer.post(reverse("preferences"), {"language": "de", "time_zone": "Europe/Berlin"})

    assert response.status_code == 302
    preference = Preference.objects.get(user=user)
    assert (preference.language, preference.time_zone) == ("de", "Europe/Berlin")
    assert scorer.cookies[settings.LANGUAGE_COOKIE_NAME].value == "de"
    page = scorer.get(response.url)
    assert "Ihre Einstellungen sind gespeichert." in page.content.decode()
    assert "Europe/Berlin" in page.content.decode()


def test_the_settings_page_refuses_an_unknown_time_zone(scorer, user):
    response = scorer.post(reverse("preferences"), {"language": "", "time_zone": "Mars/Olympus"})

    assert response.status_code == 400
    assert not Preference.objects.filter(user=user).exists()


def test_the_settings_page_wants_a_signed_in_user(client):
    response = client.get(reverse("preferences"))
    assert response.status_code == 302 and reverse("login") in response.url


# -- time zones ---------------------------------------------------------------------------
def _started_at_noon_utc(match: Match) -> Match:
    Match.objects.filter(pk=match.pk).update(created_at=dt.datetime(2026, 7, 14, 12, 0, tzinfo=dt.UTC))
    match.refresh_from_db()
    return match


def test_times_are_shown_in_the_browsers_time_zone_with_its_name(client, tally_match):
    match = _started_at_noon_utc(tally_match)
    client.cookies["tz"] = "Europe/Paris"

    body = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    assert "14/07/2026 14:00 <span" in body  # French short format, summer time in Paris
    assert "Europe/Paris" in body
    assert 'datetime="2026-07-14T14:00:00+02:00"' in body


def test_without_a_time_zone_times_are_in_utc(client, tally_match):
    match = _started_at_noon_utc(tally_match)
    client.cookies["tz"] = "../../etc/passwd"  # not a zone of the tz database: ignored

    body = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="de").content.decode()

    assert "14.07.2026 12:00" in body and "UTC" in body


def test_the_users_time_zone_wins_over_the_browsers(scorer, user, tally_match):
    match = _started_at_noon_utc(tally_match)
    Preference.objects.create(user=user, time_zone="Asia/Vladivostok")
    scorer.cookies["tz"] = "Europe/Paris"

    body = scorer.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="ru").content.decode()

    assert "14.07.2026 22:00" in body and "Asia/Vladivostok" in body


def test_every_page_sets_the_browsers_time_zone_cookie(client):
    body = client.get(reverse("home")).content.decode()
    assert '<script src="/static/scorekeeper/site.js" defer></script>' in body  # a file: the CSP
    script = Path(finders.find("scorekeeper/site.js")).read_text(encoding="utf-8")
    assert "Intl.DateTimeFormat().resolvedOptions().timeZone" in script
    assert 'document.cookie = "tz="' in script
