"""The profile's match list is written by one tag (``profile_match_rows``) where the template
had a row of variables, filters and translations: the same HTML byte for byte, in every
language, for matches finished (a rating up, down, a multiplayer table), in progress, void and
titled with markup."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.urls import reverse
from django.utils import translation

from ratings.services import rating_events_process_all
from scorekeeper.matches.services import match_void

pytestmark = pytest.mark.django_db

#: The row as templates/ratings/player_detail.html wrote it before the tag.
TEMPLATE_ROW = (
    "{% load i18n club games ratings %}<ul>\n  {% for row in rows %}{% with match=row.match %}\n  <li>\n    "
    '<a href="{{ match.get_absolute_url }}">{{ match.display_title }}</a>\n'
    '    <span class="badge {{ match.status }}">{{ match.get_status_display }}</span>\n'
    '    <div class="muted">{{ match.game|game_title }} · {{ match.created_at|date:"DATE_FORMAT" }}</div>\n'
    '    <div class="scores">{% seat_score_spans match %}</div>\n'
    "    {% if row.place %}<div>{% blocktranslate with place=row.place %}Finished in place {{ place }}"
    '{% endblocktranslate %}{% if row.change %} · {% translate "rating" %} {{ row.change.before }} → '
    '{{ row.change.after }} <span class="explained '
    '{% if row.change.delta >= 0 %}up{% else %}down{% endif %}">'
    "({{ row.change.explanation }})</span>{% endif %}</div>{% endif %}\n  </li>\n  "
    "{% endwith %}{% empty %}\n  "
    '<li class="muted">{% translate "No matches yet." %}</li>\n  {% endfor %}\n</ul>'
)
TAG_ROW = (
    "{% load i18n ratings %}<ul>\n  {% if rows %}{% profile_match_rows rows %}{% else %}\n  "
    '<li class="muted">{% translate "No matches yet." %}</li>\n  {% endif %}\n</ul>'
)


@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_the_tag_writes_the_rows_the_template_wrote(client, play, players, user, language):
    play([0, 1], [10, 3], title="<b>Ada & Bea's</b>")
    play([1, 0], [10, 4])
    play([0, 1, 2], [2, 10, 5])
    play([0, 2], [10, 10])
    play([0, 3], [4, 2])  # in progress
    void = play([0, 1], [10, 1])
    rating_events_process_all()
    match_void(match=void, by=user, reason="entered twice")
    play([3, 0], [12, 1000])  # a score with a thousands' place
    rating_events_process_all()
    response = client.get(reverse("player-detail", args=[players[0].pk]), HTTP_ACCEPT_LANGUAGE=language)
    rows = response.context["rows"]
    assert len(rows) == 7 and {row["match"].status for row in rows} == {"finished", "in_progress", "void"}
    assert any(row["change"] and row["change"].delta < 0 for row in rows)
    with translation.override(language):
        expected = Template(TEMPLATE_ROW).render(Context({"rows": rows}))
        written = Template(TAG_ROW).render(Context({"rows": rows}))
    assert written == expected
    with translation.override(language):
        assert Template(TAG_ROW).render(Context({"rows": []})) == Template(TEMPLATE_ROW).render(
            Context({"rows": []})
        )
    assert "&lt;b&gt;Ada &amp; Bea&#x27;s&lt;/b&gt;" in written


@pytest.mark.parametrize("grouping", [False, True])
@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_the_pages_number_writer_writes_what_localize_does(settings, language, grouping):
    from decimal import Decimal

    from django.utils.formats import localize

    from ratings.templatetags.ratings import _numbers

    settings.USE_THOUSAND_SEPARATOR = grouping
    values = [0, 7, -23, 1500, 1234567, 2.5, -0.125, 12345.678, Decimal("1234.50"), True, None, "12"]
    with translation.override(language):
        number = _numbers()
        assert [number(v) for v in values] == [localize(v) for v in values]


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/New_York", "Asia/Kolkata"])
def test_the_chart_s_days_are_those_of_the_page_s_time_zone(play, players, zone):
    import datetime as dt
    from zoneinfo import ZoneInfo

    from django.utils import timezone

    from ratings.models import RatingHistory
    from ratings.reads.player_history import player_histories

    play([0, 1], [10, 3])
    play([1, 0], [10, 4])
    rating_events_process_all()
    moments = [dt.datetime(2026, 3, 1, 23, 30, tzinfo=dt.UTC), dt.datetime(2026, 3, 29, 0, 45, tzinfo=dt.UTC)]
    rows = RatingHistory.objects.filter(player=players[0]).order_by("played_at", "match_id")
    for row, moment in zip(list(rows), moments, strict=True):
        RatingHistory.objects.filter(pk=row.pk).update(played_at=moment)
    with timezone.override(ZoneInfo(zone)):
        (history,) = player_histories(player=players[0]).values()
    assert [row.day for row in history] == [m.astimezone(ZoneInfo(zone)).date() for m in moments]
