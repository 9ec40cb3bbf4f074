"""The head-to-head page (issue 21): ``/players/<id>/vs/<id>/``, two players' meetings with the
running record and today's chances, in one game (``?game=``) or in all; and the redirect of a
merged player's pages to the player he was merged into. Read-only, for anyone."""

from __future__ import annotations

import functools

from django.core.paginator import Paginator
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse

from scorekeeper.matches import selectors as match_selectors
from scorekeeper.matches.models import Player
from scorekeeper.matches.views.club import MATCHES_PER_PAGE
from scorekeeper.rules import RULESETS

from .reads import head_to_head, visibility


def _merged_target(pk: int) -> int | None:
    """The player a merged player now is (merges never chain, but an old chain is followed)."""
    seen = {pk}
    target = Player.objects.filter(pk=pk).values_list("merged_into_id", flat=True).first()
    while target is not None and target not in seen:
        seen.add(target)
        further = Player.objects.filter(pk=target).values_list("merged_into_id", flat=True).first()
        if further is None:
            return target
        target = further
    return None


def follows_merge(view):
    """A player page of a merged player redirects (permanently) to the same page of the player
    he was merged into, with the same query."""

    @functools.wraps(view)
    def wrapper(request, pk: int, **kwargs):
        target = _merged_target(pk)
        if target is None:
            return view(request, pk, **kwargs)
        visibility.player_seen(target, request.user)  # a 404 for a player the viewer may not see
        url = reverse(request.resolver_match.url_name, kwargs={**kwargs, "pk": target})
        query = request.GET.urlencode()
        return redirect(f"{url}?{query}" if query else url, permanent=True)

    return wrapper


def head_to_head_page(request, pk: int, other: int):
    """``/players/<pk>/vs/<other>/``: their meetings newest first (paged as the match lists
    are), each with the running record after it; the record per game; today's chances."""
    target = _merged_target(other)
    if target is not None:
        return redirect("player-head-to-head", pk, target, permanent=True)
    player = visibility.player_seen(pk, request.user)  # issue 33: the players the viewer sees,
    opponent = visibility.player_seen(other, request.user)  # their meetings in his clubs only
    if player.pk == opponent.pk:
        return redirect(player)
    game = request.GET.get("game") or None
    if game is not None and game not in RULESETS:
        raise Http404(f"unknown game {game!r}")
    both = head_to_head.pair(
        player=player,
        opponent=opponent,
        game=game,
        clubs=visibility.clubs_for_player(player, visibility.clubs_of_viewer(request.user)),
    )
    rows = list(zip(both.meetings, both.running, strict=True))[::-1]  # newest first
    page = Paginator(rows, MATCHES_PER_PAGE).get_page(request.GET.get("page"))
    shown = match_selectors.match_with_seats().in_bulk([meeting.match_id for meeting, _ in page.object_list])
    context = {
        "player": player,
        "opponent": opponent,
        "pair": both,
        "game": game,
        "page": page,
        "rows": [{"meeting": m, "record": r, "match": shown[m.match_id]} for m, r in page.object_list],
    }
    return render(request, "ratings/head_to_head.html", context)
