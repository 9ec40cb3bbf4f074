"""The ratings' pages (issue 13): the leaderboards and a player's profile with his ratings.
Read-only, for anyone; read through the selectors (the ratings' and the matches'), each page in
a number of queries that does not grow with what it lists.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import get_object_or_404, render
from django.utils.formats import date_format
from django.utils.timezone import localtime
from django.utils.translation import ngettext

from scorekeeper.matches import selectors as match_selectors
from scorekeeper.matches.models import Player
from scorekeeper.matches.views_club import MATCHES_PER_PAGE
from scorekeeper.rules import RULESETS

from . import page_selectors, selectors
from .charts import line_chart

PLAYERS_PER_PAGE = 50


def leaderboards(request):
    """``/leaderboards/``: every rated game, its best players."""
    boards = page_selectors.leaderboards_overview(top=5)
    for board in boards:
        _mark(board["top"])
    rated = {board["game"] for board in boards}
    context = {
        "boards": boards,
        "unrated": [key for key in sorted(RULESETS) if key not in rated],
    }
    return render(request, "ratings/leaderboards.html", context)


def leaderboard(request, game: str):
    """``/leaderboards/<game>/``: the game's players by conservative rating, paged."""
    if game not in RULESETS:
        raise Http404(f"unknown game {game!r}")
    page = Paginator(selectors.leaderboard(game=game), PLAYERS_PER_PAGE).get_page(request.GET.get("page"))
    page.object_list = selectors.leaderboard_places(page.object_list)
    _mark(page.object_list)
    context = {"game": game, "page": page, "min_matches": selectors.min_matches()}
    return render(request, "ratings/leaderboard.html", context)


def _mark(rows) -> None:
    for row in rows:
        row.provisional = page_selectors.is_provisional(row)


def player_detail(request, pk: int):
    """``/players/<id>/``: per game his rating, place, chart, matches, wins and places; the
    overall cul rating; his matches with their results (paged as the match list is)."""
    player = get_object_or_404(Player, pk=pk)
    histories = page_selectors.player_histories(player=player)
    games = []
    for rating in selectors.player_ratings(player=player):
        game = rating.pool.game
        history = histories.get(game, [])
        rating.provisional = page_selectors.is_provisional(rating)
        games.append({
            "game": game,
            "rating": rating,
            "places": page_selectors.places_count(history),
            "chart": _rating_chart(history),
            "chart_desc": _chart_desc(history),
        })  # fmt: skip
    changes = page_selectors.rating_changes(histories)
    matches = match_selectors.match_list(player=player)
    page = Paginator(matches, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    rows = []
    for match in page.object_list:
        rows.append({"match": match, "place": _place_of(match, player), "change": changes.get(match.pk)})
    context: dict[str, Any] = {"player": player, "games": games, "page": page, "rows": rows}
    return render(request, "ratings/player_detail.html", context)


def _place_of(match, player: Player) -> int | None:
    result = match.result if isinstance(match.result, dict) else {}
    places = result.get("placements")
    for seat in match.seats.all():
        if seat.player_id == player.pk and isinstance(places, list) and seat.position < len(places):
            return places[seat.position]
    return None


def _rating_chart(history):
    """His displayed rating before his first rated match, then after each one."""
    if not history:
        return None
    first = history[0]
    values = [page_selectors.conservative(first.mu_before, first.sigma_before)]
    labels = [""]
    for row in history:
        values.append(page_selectors.conservative(row.mu_after, row.sigma_after))
        labels.append(_day(row.played_at))
    return line_chart(values, labels)


def _chart_desc(history) -> str:
    if not history:
        return ""
    first, last = history[0], history[-1]
    return ngettext(
        "%(count)s rated match on %(first)s; the rating went from %(start).1f to %(end).1f.",
        "%(count)s rated matches from %(first)s to %(last)s; the rating went from %(start).1f to %(end).1f.",
        len(history),
    ) % {
        "count": len(history),
        "first": _day(first.played_at),
        "last": _day(last.played_at),
        "start": page_selectors.conservative(first.mu_before, first.sigma_before),
        "end": page_selectors.conservative(last.mu_after, last.sigma_after),
    }


def _day(moment) -> str:
    return date_format(localtime(moment), "SHORT_DATE_FORMAT")
