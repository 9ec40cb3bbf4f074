"""The games' words on the pages: ``{% load games %}{{ match.game|game_title }}``."""

from django import template

from scorekeeper.matches import terms

register = template.Library()


@register.filter
def game_title(game: str) -> str:
    return terms.game_title(game)
