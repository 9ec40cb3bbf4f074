"""``{% fixed %}`` (scorekeeper/matches/templatetags/fixed.py): a fragment drawn once a language
and then given back as it was. The pages' frame, and every page whose templates use it, draw in
every language, signed in and not, the same bytes as the same templates without the blocks, the
first time and from the memo; and the tag refuses, when the template is read, anything that may
depend on the request."""

from __future__ import annotations

import re

import pytest
from django.conf import settings
from django.contrib.auth.models import AnonymousUser
from django.template import TemplateSyntaxError, engines
from django.template.loader import get_template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import translation

from scorekeeper.matches.services import hand_record, match_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db

ENGINE = engines["django"]
LANGUAGES = [code for code, _ in settings.LANGUAGES]
TEMPLATE_DIR = settings.BASE_DIR / "templates"
FIXED = sorted(
    str(path.relative_to(TEMPLATE_DIR))
    for path in TEMPLATE_DIR.rglob("*.html")
    if "{% fixed %}" in path.read_text()
)


FRAME = ["base.html", "matches/_offline_banner.html"]


def test_the_pages_frame_and_banner_use_it():
    assert set(FRAME) <= set(FIXED)


def unfixed(name: str):
    """The template as it reads without the blocks: every tag inside drawn at each render."""
    return ENGINE.from_string(re.sub(r"{% (end)?fixed %}", "", (TEMPLATE_DIR / name).read_text()))


def draw(template, language: str, reader, path: str = "/matches/?page=2&q=<&>") -> str:
    request = RequestFactory().get(path)
    request.user = reader
    with translation.override(language):
        return template.render({"csrf_token": "a-token-of-the-request"}, request)


@pytest.mark.parametrize("signed_in", [True, False], ids=["signed in", "anonymous"])
@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", FRAME)
def test_a_template_draws_the_same_bytes_with_and_without_its_fixed_blocks(name, language, signed_in, user):
    reader = user if signed_in else AnonymousUser()
    expected = draw(unfixed(name), language, reader)
    template = get_template(name)

    assert draw(template, language, reader) == expected
    assert draw(template, language, reader) == expected  # the memo's


def without_blocks(settings):
    """The site's templates as before, those with ``{% fixed %}`` read without its blocks."""
    sources = {name: re.sub(r"{% (end)?fixed %}", "", (TEMPLATE_DIR / name).read_text()) for name in FIXED}
    (engine,) = settings.TEMPLATES
    settings.TEMPLATES = [
        {
            **engine,
            "APP_DIRS": False,
            "OPTIONS": {
                **engine["OPTIONS"],
                "loaders": [
                    ("django.template.loaders.locmem.Loader", sources),
                    "django.template.loaders.filesystem.Loader",
                    "django.template.loaders.app_directories.Loader",
                ],
            },
        }
    ]


def pages(client, language: str, urls: list[str]) -> tuple[list[str], set[str]]:
    """Each page's bytes (its CSRF token, new each request, left out) and the templates drawn."""
    texts, drawn = [], set()
    for url in urls:
        response = client.get(url, HTTP_ACCEPT_LANGUAGE=language)
        assert response.status_code in (200, 302, 403), url  # the hand forms are the scorer's
        texts.append(re.sub(rb'(csrfmiddlewaretoken" value=")[^"]+', rb"\1", response.content).decode())
        drawn |= {template.name for template in response.templates}
    return texts, drawn


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_pages_draw_the_same_bytes_with_and_without_the_blocks(
    language, client, settings, tally_match, user, other_user, make_players
):
    hand_record(match=tally_match, record=hand([6, 1]), by=user)
    max_ = tally_match.seats.get(position=1).player
    max_.user = other_user
    max_.save()
    piquet = match_create(game="piquet", players=make_players("Luc", "Léa"), by=user)
    urls = [
        reverse("home"),
        reverse("leaderboards"),
        reverse("hand-detail", args=[tally_match.pk, 1]),
        tally_match.get_absolute_url(),
        reverse("hand-new", args=[tally_match.pk]),
        reverse("hand-new", args=[piquet.pk]),
    ]
    readers = {"scorer": user, "a player of the other side": other_user, "anonymous": None}
    drawn_with = {}
    for who, reader in readers.items():
        client.logout()
        if reader is not None:
            client.force_login(reader)
        first, drawn = pages(client, language, urls)
        assert pages(client, language, urls)[0] == first, who  # the memo's
        drawn_with[who] = (first, drawn)
    without_blocks(settings)
    for who, reader in readers.items():
        client.logout()
        if reader is not None:
            client.force_login(reader)
        assert pages(client, language, urls)[0] == drawn_with[who][0], who

    scorer_page = drawn_with["scorer"][0][2]
    assert 'class="confirm-table"' in scorer_page and 'class="confirm-own"' not in scorer_page
    assert 'class="confirm-own"' in drawn_with["a player of the other side"][0][2]
    assert 'class="undo"' in drawn_with["scorer"][0][5]  # the piquet form's pickers
    assert set(FIXED) <= drawn_with["scorer"][1]


def test_the_frame_carries_each_readers_own_parts(user, other_user):
    template = get_template("base.html")
    ann = draw(template, "fr", user, "/leaderboards/")
    bob = draw(template, "fr", other_user, "/matches/")

    assert f'data-user="{user.pk}"' in ann and f'data-user="{other_user.pk}"' in bob
    assert ">ann</a>" in ann and ">bob</a>" in bob
    assert 'name="next" value="/leaderboards/"' in ann and 'name="next" value="/matches/"' in bob
    assert '<option value="fr" lang="fr" selected>Français</option>' in ann
    assert '<option value="en" lang="en">English</option>' in ann


def test_a_fragment_is_drawn_in_each_language_and_binds_nothing_outside():
    template = ENGINE.from_string(
        "{% load i18n fixed %}{% fixed %}{% get_current_language as code %}{{ code }}:"
        '{% translate "Matches" %}{% endfixed %}[{{ code }}]'
    )
    words = {}
    for language in ["en", "fr", "en", "de", "fr"]:
        with translation.override(language):
            words.setdefault(language, set()).add(template.render({}))

    assert words == {"en": {"en:Matches[]"}, "fr": {"fr:Parties[]"}, "de": {"de:Partien[]"}}


def test_a_setting_changed_drops_the_memo(settings):
    template = ENGINE.from_string("{% load static fixed %}{% fixed %}{% static 'a.css' %}{% endfixed %}")
    before = template.render({})
    settings.STATIC_URL = "/elsewhere/"

    assert before == "/static/a.css" and template.render({}) == "/elsewhere/a.css"


@pytest.mark.parametrize(
    "inside",
    [
        "{{ user }}",
        "{% csrf_token %}",
        "{{ request.get_full_path }}",
        "{% translate name %}",
        "{% translate 'Matches' as words %}",
        "{% translate 'Matches' context user.username %}",
        "{% blocktranslate %}{{ name }}{% endblocktranslate %}",
        "{% blocktranslate with name=user.username %}x{% endblocktranslate %}",
        "{% blocktranslate count counter=n %}a{% plural %}b{% endblocktranslate %}",
        "{% url 'hand-new' match.pk %}",
        "{% url 'admin:index' %}",
        "{% url 'home' as home %}",
        "{% static path %}",
        "{% include 'matches/_when.html' %}",
        "{% if user.is_authenticated %}x{% endif %}",
        "{% get_current_language as code %}{% if code == user.username %}x{% endif %}",
        "{% get_current_language as code %}{% if not user %}x{% endif %}",
        "{% for x in request.GET %}{{ x }}{% endfor %}",
        "{% get_site_languages as all %}{% for code, name in all %}{{ user }}{% endfor %}",
        "{{ code }}{% get_current_language as code %}",
        "{% get_current_language as code %}{{ code|default:user }}",
        "{% with a=1 %}{% endwith %}",
    ],
)
def test_it_refuses_what_may_depend_on_the_request(inside):
    with pytest.raises(TemplateSyntaxError, match="may depend on the request"):
        ENGINE.from_string("{% load i18n static fixed %}{% fixed %}" + inside + "{% endfixed %}")


def test_it_takes_words_addresses_and_the_language_switch():
    template = ENGINE.from_string(
        "{% load i18n static fixed %}{% fixed %}{% translate 'Matches' %} {% blocktranslate trimmed %}"
        " Sign in {% endblocktranslate %} {% url 'home' %} {% static 'a.css' %} "
        "{% get_current_language as here %}{% get_site_languages as all %}"
        "{% for code, name in all %}{% if code == here %}[{{ name|upper }}]"
        "{% else %}{{ code }}{% endif %}{% endfor %}{% endfixed %}"
    )
    with translation.override("de"):
        assert template.render({}) == "Partien Anmelden / /static/a.css enfr[DEUTSCH]ru"
