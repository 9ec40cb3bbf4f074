"""``{% breakdown_table outcome.seats %}``: a hand's breakdown per seat (``views._outcome``'s
seats), written in one pass with the markup of ``matches/_breakdown.html``, its reference.

The recorded hand draws it on every hand; as a template loop it cost some thirty variable
lookups a seat and three a line, each resolved, localised and escaped by the template engine
(about 1,800 Python calls a page). Each value goes through the engine's own
``render_value_in_context`` (the same localisation and escaping as ``{{ … }}``), and the words
are the template's: ``tests/pages/test_breakdown_markup.py`` holds the two equal."""

from __future__ import annotations

from typing import Any

from django import template
from django.template.base import render_value_in_context
from django.utils.safestring import SafeString
from django.utils.translation import gettext

register = template.Library()


@register.simple_tag(takes_context=True)
def breakdown_table(context, seats: list[dict[str, Any]]) -> SafeString:
    missing = context.template.engine.string_if_invalid  # what ``{{ line.note }}`` draws for no note

    def value(item: dict[str, Any], key: str) -> str:
        return render_value_in_context(item[key], context) if key in item else missing

    # {% translate "…" %} of a literal is not escaped (its words are the catalog's), nor is
    # {% blocktranslate %}'s text: only the values put into it.
    seat_words = gettext("seat %(seat)s")
    parts = [f'<div class="scroll" tabindex="0" role="group" aria-label="{gettext("Breakdown")}">\n']
    parts.append('<table class="breakdown">\n  ')
    for seat in seats:
        number = seat_words % {"seat": value(seat, "number")}
        parts.append(
            f'\n  <tbody>\n    <tr class="seat-total"><td>{value(seat, "name")} <span class="muted">'
            f'{number}</span></td><td class="num">{value(seat, "score")}</td></tr>\n    '
        )
        for line in seat["lines"]:
            parts.append(
                f'<tr><td><span class="muted">{value(line, "label")}</span> {value(line, "note")}</td>'
                f'<td class="num">{value(line, "points")}</td></tr>'
            )
        parts.append("\n  </tbody>\n  ")
    parts.append("\n</table>\n</div>")
    return SafeString("".join(parts))
