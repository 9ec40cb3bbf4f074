"""The boards' rows as {% board_rows %} (ratings/templatetags/boards.py) writes them are byte for byte
the rows the per-cell template tags and filters gave (``{{ number }}``, ``{% url %}``, ``|date``),
in every language, with and without thousand separators, in a viewer's time zone."""

from __future__ import annotations

import datetime as dt

import pytest
from django.template import engines
from django.urls import reverse
from django.utils import timezone, translation

from ratings import services as ratings
from ratings.models import PlayerRating
from scorekeeper.accounts.middleware import TIME_ZONE_COOKIE

pytestmark = pytest.mark.django_db

#: ratings/_board.html's rows as its loop rendered them before {% board_rows %}: a tag or filter a cell.
PER_CELL_ROWS = """{% load i18n %}{% for row in rows %}
  <tr{% if row.provisional %} class="provisional"{% endif %}>
    {% if not newcomers %}<td class="num">{{ row.rank }}</td>{% endif %}
    <td class="name"><a href="{% url 'player-detail' row.player_id %}">{{ row.player.name }}</a></td>
    <td class="num rating">{{ row.shown.rating }} <span class="muted deviation">± {{ row.shown.deviation }}</span></td>
    {% if newcomers %}<td class="num">{% blocktranslate with matches=row.matches needed=row.matches_needed %}{{ matches }} of {{ needed }}{% endblocktranslate %}</td>{% elif not compact %}<td class="num">{{ row.matches }}</td><td class="num">{{ row.wins }}</td>{% endif %}
    {% if not compact %}<td><time datetime="{{ row.last_played_at|date:'c' }}">{{ row.last_played_at|date:"SHORT_DATE_FORMAT" }}</time></td>{% endif %}
  </tr>
  {% endfor %}"""  # noqa: E501 (the template's lines as they were)


@pytest.fixture
def board(tally, make_players, user):
    """Twelve established players (three tied pairs, a name to escape) and three provisional,
    their last matches on several days, one just before midnight in UTC."""
    from scorekeeper.matches.services import hand_record, match_create
    from tests.fakes import hand

    names = [f"Joueur {i}" for i in range(11)] + ["Zoë <b>&\"'</b>"]
    people = make_players(*names, "Neu 1", "Neu 2", "Neu 3")
    for round_ in range(5):
        for i in range(0, 12, 2):
            a, b = people[i], people[i + 1]
            match = match_create(game="tally", players=[a, b] if round_ % 2 or i % 4 else [b, a], by=user)
            hand_record(match=match, record=hand([10, 3]), by=user)
    for a, b in [(12, 13), (13, 14)]:
        match = match_create(game="tally", players=[people[a], people[b]], by=user)
        hand_record(match=match, record=hand([10, 3]), by=user)
    ratings.rating_events_process_all()
    # Thousands of matches (grouped digits where the language groups them), on several days.
    base = dt.datetime(2026, 11, 30, 23, 40, tzinfo=dt.UTC)
    for n, rating in enumerate(PlayerRating.objects.order_by("pk")):
        if rating.matches >= 5:  # the newcomers stay provisional
            rating.matches += 1000 * (n % 3)
        rating.last_played_at = base - dt.timedelta(days=n % 4, minutes=7 * n)
        rating.save(update_fields=["matches", "last_played_at"])
    return people


def per_cell(rows, **flags) -> str:
    return engines["django"].from_string(PER_CELL_ROWS).render({"rows": rows, **flags})


@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
@pytest.mark.parametrize("grouped", [False, True])
@pytest.mark.parametrize("zone", ["", "Asia/Kolkata", "America/Los_Angeles"])
def test_the_boards_rows_are_those_the_per_cell_tags_gave(client, board, settings, language, grouped, zone):
    settings.USE_THOUSAND_SEPARATOR = grouped
    if zone:
        client.cookies[TIME_ZONE_COOKIE] = zone
    headers = {"HTTP_ACCEPT_LANGUAGE": language}

    page = client.get(reverse("leaderboard", args=["tally"]), **headers)
    overview = client.get(reverse("leaderboards"), **headers)

    body = page.content.decode()
    established = list(page.context["page"].object_list)
    newcomers = list(page.context["newcomers"].object_list)
    assert len(established) == 12 and len(newcomers) == 3
    assert len({row.rank for row in established}) < 12  # ties share a rank
    with translation.override(language), timezone.override(zone or "UTC"):
        expected_established = per_cell(established, newcomers=False, compact=False)
        expected_newcomers = per_cell(newcomers, newcomers=True, compact=False)
        expected_top = per_cell(overview.context["boards"][0]["top"], newcomers=False, compact=True)
    assert expected_established in body
    assert expected_newcomers in body
    assert expected_top in overview.content.decode()
    assert "Zoë &lt;b&gt;&amp;&quot;&#x27;&lt;/b&gt;" in body
    if grouped and language == "en":
        assert ">1,0" in body  # the thousands grouped as {{ number }} groups them
