"""Template helpers of the club's pages: a match's players with their scores on a list, a
probability in percent (a game's title is ``games.game_title``)."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.formats import number_format

from ..selectors import running_values

register = template.Library()


@register.filter
def seat_scores(match) -> list[dict[str, Any]]:
    """Each seat of a listed match: the player, the running total (banks in cul) and, once the
    match is over, the place. Reads only the prefetched seats and the match row."""
    seats = sorted(match.seats.all(), key=lambda s: s.position)
    values = running_values(match.state) or []
    result = match.result if isinstance(match.result, dict) else {}
    placements = result.get("placements")
    places = placements if isinstance(placements, list) else []
    return [
        {
            "player": seat.player,
            "value": values[i] if i < len(values) else None,
            "place": places[i] if i < len(places) else None,
        }
        for i, seat in enumerate(seats)
    ]


@register.filter
def percent(value: Any) -> str:
    """0.4321 → "43 %", 0.369 → "37 %" (rounded, localised); "—" for nothing."""
    if not isinstance(value, int | float) or isinstance(value, bool):
        return "—"
    # Rounded here: number_format cuts the decimals off (Django's numberformat truncates).
    return f"{number_format(round(value * 100), 0)} %"
