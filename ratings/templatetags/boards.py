"""The rows of a board's table (ratings/_board.html): ``{% load boards %}``, then
``{% board_rows rows newcomers=… compact=… %}`` with rows ``ratings.reads.boards.mark``ed.

Written here in one pass, the rows as the template's loop wrote them byte for byte (a tag or a
filter a cell: ``{{ number }}``, ``{% url %}``, ``|date``, ``{% blocktranslate %}``; the test
tests/pages/test_board_rendering.py renders both), with the language's formats looked up once
for the board instead of once per cell: at 50 rows a page the loop was half of the board
page's Python calls.
"""

from __future__ import annotations

from functools import partial

from django import template
from django.conf import settings
from django.urls import reverse
from django.utils import dateformat, numberformat, timezone
from django.utils.formats import get_format
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import get_language, gettext

register = template.Library()

#: A row of each list: the established players' (rank, rating, matches and wins, last match),
#: the overview's compact one (rank and rating), the provisional list's (matches of those
#: needed, last match). The lines of the template's loop, its cells left out kept as blanks.
_ESTABLISHED = (
    '\n  <tr{provisional}>\n    <td class="num">{rank}</td>\n'
    '    <td class="name"><a href="{url}">{name}</a></td>\n'
    '    <td class="num rating">{rating} <span class="muted deviation">± {deviation}</span></td>\n'
    '    <td class="num">{matches}</td><td class="num">{wins}</td>\n'
    '    <td><time datetime="{played_at}">{played_on}</time></td>\n  </tr>\n  '
)
_COMPACT = (
    '\n  <tr{provisional}>\n    <td class="num">{rank}</td>\n'
    '    <td class="name"><a href="{url}">{name}</a></td>\n'
    '    <td class="num rating">{rating} <span class="muted deviation">± {deviation}</span></td>\n'
    "    \n    \n  </tr>\n  "
)
_NEWCOMERS = (
    "\n  <tr{provisional}>\n    \n"
    '    <td class="name"><a href="{url}">{name}</a></td>\n'
    '    <td class="num rating">{rating} <span class="muted deviation">± {deviation}</span></td>\n'
    '    <td class="num">{matches_of}</td>\n'
    '    <td><time datetime="{played_at}">{played_on}</time></td>\n  </tr>\n  '
)
_PROVISIONAL = mark_safe(' class="provisional"')


def number_formatter():
    """``number_format`` of a whole number (what ``{{ number }}`` shows) with the language's
    formats looked up once: its three ``get_format`` look-ups cost more than the formatting."""
    lang = get_language()
    grouping = get_format("NUMBER_GROUPING", lang)
    if not (settings.USE_THOUSAND_SEPARATOR and grouping != 0):
        # numberformat.format's own shortcut for a whole number not grouped: its digits, safe.
        return SafeString
    return partial(
        numberformat.format,
        decimal_sep=get_format("DECIMAL_SEPARATOR", lang),
        grouping=grouping,
        thousand_sep=get_format("THOUSAND_SEPARATOR", lang),
        use_l10n=True,
    )


@register.simple_tag
def board_rows(rows, *, newcomers: bool = False, compact: bool = False) -> str:
    """The ``<tr>`` of each row, in the page's language and time zone."""
    number = number_formatter()
    zone = timezone.get_current_timezone()  # the |date filter's localtime
    short_date = get_format("SHORT_DATE_FORMAT")
    days: dict = {}  # a day's label formatted once (SHORT_DATE_FORMAT has no time in it)
    # {% blocktranslate %}'s: the translation as it is, the numbers in it escaped.
    matches_of = gettext("%(matches)s of %(needed)s")
    row_format = _NEWCOMERS if newcomers else _COMPACT if compact else _ESTABLISHED
    out = []
    for row in rows:
        played = row.last_played_at.astimezone(zone)
        day = played.date()
        if day not in days:
            days[day] = dateformat.format(played, short_date)
        cells = {
            "provisional": _PROVISIONAL if row.provisional else "",
            "url": reverse("player-detail", args=[row.player_id]),
            "name": row.player.name,
            "rating": number(row.shown.rating),
            "deviation": number(row.shown.deviation),
            "played_at": played.isoformat(),  # the date filter's "c"
            "played_on": days[day],
        }
        if newcomers:
            cells["matches_of"] = mark_safe(
                matches_of % {
                    "matches": conditional_escape(number(row.matches)),
                    "needed": conditional_escape(number(row.matches_needed)),
                }
            )  # fmt: skip
        else:
            cells["rank"] = number(row.rank)
        if not (newcomers or compact):
            cells["matches"] = number(row.matches)
            cells["wins"] = number(row.wins)
        out.append(format_html(row_format, **cells))
    return mark_safe("".join(out))
