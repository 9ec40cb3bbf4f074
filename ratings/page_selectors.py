"""Reads of the ratings that the club's web pages need beyond ``ratings.selectors``: every
leaderboard at a glance, a player's whole history in one query, the provisional mark.

Kept apart from ``ratings.selectors`` (the API's), on which they build; each returns a bounded
number of queries whatever the number of players or matches shown.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from typing import Any

from django.db.models import Count, Subquery

from scorekeeper.matches.models import Match, Player
from scorekeeper.rules import RULESETS

from .engine import Rating
from .models import PlayerRating, RatingEvent, RatingHistory, RatingPool
from .selectors import leaderboard, leaderboard_places, min_matches, predict
from .services import rater


def is_provisional(row: PlayerRating) -> bool:
    """Too few matches (or too uncertain) to rank: marked on the leaderboards."""
    return rater().is_provisional(Rating(row.mu, row.sigma), row.matches)


def conservative(mu: float, sigma: float) -> float:
    """The displayed rating of a belief (``mu − z·sigma``)."""
    return rater().conservative(Rating(mu, sigma))


def leaderboards_overview(*, top: int = 5) -> list[dict[str, Any]]:
    """Every rated game with its ``top`` players and how many are listed: one query for the
    pools, one for the counts, one per pool (a handful of games, not of players)."""
    pools = list(RatingPool.objects.order_by("game"))
    listed = dict(
        PlayerRating.objects.filter(matches__gte=min_matches())
        .values("pool")
        .annotate(n=Count("id"))
        .values_list("pool", "n")
    )
    return [
        {"game": pool.game, "pool": pool, "listed": listed.get(pool.pk, 0),
         "top": leaderboard_places(leaderboard(game=pool.game)[:top])}
        for pool in pools
    ]  # fmt: skip


def player_histories(*, player: Player | int) -> dict[str, list[RatingHistory]]:
    """The player's rated matches per game, oldest first, in one query."""
    rows = (
        RatingHistory.objects.filter(player=player)
        .select_related("pool")
        .order_by("pool__game", "played_at", "match_id")
    )
    out: dict[str, list[RatingHistory]] = defaultdict(list)
    for row in rows:
        out[row.pool.game].append(row)
    return dict(out)


def rating_changes(histories: dict[str, list[RatingHistory]]) -> dict[int, dict[str, float]]:
    """Per rated match (by id): the displayed rating before and after it, and the change."""
    out = {}
    for history in histories.values():
        for row in history:
            before = conservative(row.mu_before, row.sigma_before)
            after = conservative(row.mu_after, row.sigma_after)
            out[row.match_id] = {"before": before, "after": after, "delta": after - before}
    return out


def match_rating_changes(*, match: Match) -> list[dict[str, Any]]:
    """Each player's displayed rating before and after a rated match, in seat order (empty
    while the match is not rated: in progress, void, or its event not processed yet)."""
    # The match's place in the pool's order (when it was played: the time its scorer gave, else
    # its first rating event) leads to its rows through the history's order index, instead of a
    # scan of the pool's rows for the match.
    played = match.played_at or Subquery(
        RatingEvent.objects.filter(match=match).order_by("at").values("at")[:1]
    )
    rows = (
        RatingHistory.objects.filter(match=match, pool__game=match.game, played_at=played)
        .select_related("player")
        .order_by("side", "player_id")
    )
    seat_of = {seat.player_id: seat.position for seat in match.seats.all()}
    changes = []
    for row in rows:
        before = conservative(row.mu_before, row.sigma_before)
        after = conservative(row.mu_after, row.sigma_after)
        change = {"player": row.player, "place": row.place, "before": before, "after": after}
        changes.append({**change, "delta": after - before})
    return sorted(changes, key=lambda change: seat_of.get(change["player"].pk, 0))


def places_count(history: list[RatingHistory]) -> list[tuple[int, int]]:
    """(place, how many times) over a player's rated matches of one game, best place first."""
    return sorted(Counter(row.place for row in history).items())


def table_prediction(*, game: str, seats: list[tuple[str, Any]]) -> dict[str, Any]:
    """The win probabilities of a table about to start (the new-match page): ``seats`` in seat
    order as the match form gives them, ``("id", pk)`` of a player or ``("new", name)`` of one
    not created yet (he has the prior rating). Partnership games predict per team."""
    ids = [value for kind, value in seats if kind == "id"]
    known = Player.objects.in_bulk(ids)
    players = [known[value] if kind == "id" else Player(name=value) for kind, value in seats]
    ruleset = RULESETS.get(game)
    teams = getattr(ruleset, "partnerships", None)
    if teams and len(teams) == len(players):
        sides = [[p for p, team in zip(players, teams, strict=True) if team == t] for t in sorted(set(teams))]
    else:
        sides = [[p] for p in players]
    prediction = predict(game=game, sides=sides)
    return {
        "sides": [
            {
                "names": [p["name"] for p in side.players],
                "win": side.win_probability,
                "provisional": any(p["provisional"] for p in side.players),
                "unrated": [p["name"] for p in side.players if not p["matches"]],
            }
            for side in prediction.sides
        ],
        "draw": prediction.draw_probability,
    }
