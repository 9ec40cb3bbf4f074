"""``{% load head_to_head %}{% rivals_of player as rivals %}``: the players ``player`` met most
often, for the profile's head-to-head section (templates/ratings/_head_to_head.html), read in
a number of queries that does not grow with his matches."""

from __future__ import annotations

from django import template

from ..reads.head_to_head import rivals
from ..reads.visibility import clubs_for_player, clubs_of_viewer

register = template.Library()


@register.simple_tag(takes_context=True)
def rivals_of(context, player):
    """His rivals met in the clubs the page's viewer sees (issue 33): the clubs the view read
    his matches in (``player_clubs``, the profile's), else found here."""
    if "player_clubs" in context:
        clubs = context["player_clubs"]
    else:
        request = context.get("request")
        clubs = clubs_for_player(player, clubs_of_viewer(getattr(request, "user", None)))
    return rivals(player=player, clubs=clubs)
