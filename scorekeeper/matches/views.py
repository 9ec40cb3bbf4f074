"""The web pages: home (recent matches, players), a match's score sheet, a player's matches."""

from __future__ import annotations

from django.shortcuts import get_object_or_404, render

from . import selectors
from .models import Player


def home(request):
    context = {
        "matches": selectors.match_list()[:20],
        "players": selectors.player_list()[:50],
    }
    return render(request, "matches/home.html", context)


def match_detail(request, pk: int):
    match = get_object_or_404(selectors.match_list(), pk=pk)
    sheet = selectors.match_score_sheet(match=match)
    n = len(sheet["seats"])
    for hand in sheet["hands"]:
        # A seat's claim is shown only where it differs from the rules: cul declares banks,
        # not the hand's score, so a plain declared column would mislead there.
        claims = {m["seat"]: m["declared"] for m in hand["mismatches"]}
        hand["cells"] = [
            {"computed": _at(hand["computed"], i), "running": _at(hand["running"], i), "claim": claims.get(i)}
            for i in range(n)
        ]
    result = sheet["result"] or {}
    per_seat = {k: v for k, v in result.items() if isinstance(v, list) and len(v) == n}
    context = {
        "match": match,
        "sheet": sheet,
        "result_keys": list(per_seat),
        "result_rows": [
            {"name": seat["name"], "values": [per_seat[k][i] for k in per_seat]}
            for i, seat in enumerate(sheet["seats"])
        ],
        "result_other": {k: v for k, v in result.items() if k not in per_seat},
    }
    return render(request, "matches/match_detail.html", context)


def _at(values, i: int):
    """The i-th per-seat value, or None when the hand has none (errors) or another shape."""
    return values[i] if isinstance(values, list) and i < len(values) else None


def player_detail(request, pk: int):
    player = get_object_or_404(Player, pk=pk)
    matches = selectors.match_list(player=player)[:50]
    return render(request, "matches/player_detail.html", {"player": player, "matches": matches})
