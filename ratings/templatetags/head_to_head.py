"""``{% load head_to_head %}{% rivals_of player as rivals %}``: the players ``player`` met most
often, for the profile's head-to-head section (templates/ratings/_head_to_head.html), read in
a number of queries that does not grow with his matches."""

from __future__ import annotations

from django import template

from ..reads.head_to_head import rivals

register = template.Library()


@register.simple_tag
def rivals_of(player):
    return rivals(player=player)
