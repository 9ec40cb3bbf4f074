"""What the ratings add to the matches' pages, so that matches' views need not know them:
``{% load ratings %}``, then ``{% match_rating_changes match %}`` on the score sheet and
``{% table_chances game seats %}`` on the new-match page. Each tag makes its own reads, in a
number of queries that does not grow with the match."""

from __future__ import annotations

from decimal import Decimal
from typing import Any

from django import template
from django.utils import numberformat
from django.utils.formats import date_format, get_format, localize
from django.utils.html import conditional_escape
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime  # type: ignore[attr-defined]  # not in django-stubs 6.1.2
from django.utils.translation import get_language, gettext

from scorekeeper.matches.templatetags.club import seat_scores
from scorekeeper.matches.templatetags.games import game_title

from .. import display
from ..reads.player_history import match_rating_changes as rating_changes_of
from ..reads.predictions import table_prediction

register = template.Library()


@register.filter
def signed(points: int) -> str:
    """A change of displayed points with its sign: "+23", "−7" (a true minus), "0"."""
    return display.signed(points)


def _numbers():
    """``number_format`` (and so ``localize`` of a number) in the active language, its three
    formats looked up once: a page writes hundreds of numbers, and the look-ups were most of
    each one's cost."""
    lang = get_language()
    separator, grouping, thousands = (
        get_format(name, lang, use_l10n=True)
        for name in ("DECIMAL_SEPARATOR", "NUMBER_GROUPING", "THOUSAND_SEPARATOR")
    )

    def number(value) -> str:
        if type(value) not in _NUMBERS:
            return localize(value)
        return numberformat.format(
            value, separator, None, grouping, thousands, force_grouping=False, use_l10n=True
        )

    return number


_NUMBERS = {int, float, Decimal}


@register.simple_tag
def chart_points(chart) -> str:
    """The chart's points as SVG circles with their titles, the last one larger: built here in
    one pass (a long history has hundreds), the labels escaped. A history repeats its days and
    its ratings: each distinct label is escaped and each distinct rating formatted once (what
    format_html would do for every point: a busy player's profile spent a fifth of its time here)."""
    labels: dict[str, str] = {}
    values: dict[float, str] = {}
    number = _numbers()
    out = []
    last = len(chart.points) - 1
    for i, point in enumerate(chart.points):
        label = labels.get(point.label)
        if label is None:
            label = labels[point.label] = conditional_escape(point.label)
        value = values.get(point.value)
        if value is None:
            value = values[point.value] = conditional_escape(number(point.value))
        radius = "3.5" if i == last else "2.2"
        # ``point.cx`` and ``point.cy``, formatted in place (two calls fewer a point).
        out.append(
            f'<circle cx="{point.x:.1f}" cy="{point.y:.1f}" r="{radius}">'
            f"<title>{label}: {value}</title></circle>"
        )
    # Every part above is escaped or a number formatted here.
    return mark_safe("".join(out))


@register.simple_tag
def seat_score_spans(match) -> str:
    """A listed match's seats as the profile and the head-to-head show them (the name, the
    running total in bold, the winner marked ``won``), joined by " · ": built here in one pass,
    where the template's loop of four conditions a seat was half the match list's rendering.
    The same escaping and number localisation as ``{{ }}`` in a template."""
    return _seat_spans(match, {}, localize)


def _seat_spans(match, names: dict, number) -> str:
    """``seat_score_spans`` with the escaped names of a page's players kept in ``names`` and
    the numbers written by ``number`` (``localize`` or ``_numbers()``)."""
    spans = []
    for seat in seat_scores(match):
        won = " won" if seat["place"] == 1 else ""
        player = seat["player"]
        name = names.get(player.pk)
        if name is None:
            name = names[player.pk] = conditional_escape(player.name)
        value = "" if seat["value"] is None else f" <b>{conditional_escape(number(seat['value']))}</b>"
        spans.append(f'<span class="seat{won}">{name}{value}</span>')
    # Every part above is escaped or fixed markup.
    return mark_safe(" · ".join(spans))


@register.simple_tag
def profile_match_rows(rows) -> str:
    """The profile's list of matches (templates/ratings/player_detail.html), each item its link
    and title, status, game and day, seats, and his place with the explained rating change.
    Written here in one pass, where the template's row (a dozen variables, filters and
    translations) was a third of the page's Python calls; a page's statuses, games and days
    are each written once. The same escaping, localisation and translations as the template
    had (``{{ }}`` escapes and localises; ``{% translate %}`` of a literal and
    ``{% blocktranslate %}``'s text are not escaped, its variables are)."""
    statuses: dict[str, str] = {}
    games: dict[str, str] = {}
    days: dict = {}
    finished_in, rating = gettext("Finished in place %(place)s"), gettext("rating")
    names: dict[int, str] = {}
    number = _numbers()
    out = []
    for row in rows:
        match, place, change = row["match"], row["place"], row["change"]
        status = statuses.get(match.status)
        if status is None:
            status = statuses[match.status] = conditional_escape(match.get_status_display())
        game = games.get(match.game)
        if game is None:
            game = games[match.game] = conditional_escape(game_title(match.game))
        local = template_localtime(match.created_at)
        day = days.get(local.date())
        if day is None:
            day = days[local.date()] = conditional_escape(date_format(local, "DATE_FORMAT"))
        out.append(
            f'\n  <li>\n    <a href="{conditional_escape(match.get_absolute_url())}">'
            f"{conditional_escape(match.display_title)}</a>\n"
            f'    <span class="badge {conditional_escape(match.status)}">{status}</span>\n'
            f'    <div class="muted">{game} · {day}</div>\n'
            f'    <div class="scores">{_seat_spans(match, names, number)}</div>\n    '
        )
        if place:
            out.append(f"<div>{finished_in % {'place': conditional_escape(number(place))}}")
            if change:
                direction = "up" if change.delta >= 0 else "down"
                out.append(
                    f" · {rating} {conditional_escape(number(change.before))} → "
                    f'{conditional_escape(number(change.after))} <span class="explained {direction}">'
                    f"({conditional_escape(change.explanation)})</span>"
                )
            out.append("</div>")
        out.append("\n  </li>\n  ")
    # Every part above is escaped, localised, a translation the template did not escape, or markup.
    return mark_safe("".join(out))


@register.inclusion_tag("ratings/_match_rating_changes.html")
def match_rating_changes(match) -> dict[str, Any]:
    """The score sheet's section: each player's rating before and after the match, once the
    match is rated (nothing while it is not)."""
    return {"rating_changes": rating_changes_of(match=match)}


@register.inclusion_tag("ratings/_table_chances.html", takes_context=True)
def table_chances(context, game: str, seats: list[tuple[str, Any]] | None) -> dict[str, Any]:
    """The new-match page's chances of the table ``seats`` (the match form's cleaned seats),
    or nothing when ``seats`` is None (the chances were not asked for, or the table is not
    valid), or names a player the page's viewer may not see (issue 33)."""
    if seats is None:
        return {"prediction": None}
    request = context.get("request")
    return {"prediction": table_prediction(game=game, seats=seats, viewer=getattr(request, "user", None))}
