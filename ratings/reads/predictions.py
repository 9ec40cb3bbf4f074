"""Predictions: each side's chances of a table from the players' current ratings, as the
pool's next match would rate them (``/predict``; the new-match page's chances)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.utils import timezone

from scorekeeper.matches.models import Player
from scorekeeper.matches.selectors import SYSTEM, players_seen_by
from scorekeeper.rules import RULESETS

from ..engine import Rating
from ..models import PlayerRating
from ..raters import rater
from .boards import BoardFilter


@dataclass(frozen=True)
class SidePrediction:
    players: list[dict]
    #: The chance of the first place, a draw counted half (the sides' sum to 1): the
    #: expected score, which the API keeps as ``expected_score`` (and, deprecated,
    #: ``win_probability``).
    win_probability: float
    expected_rank: float
    #: Two sides: the chances of a win, a draw and a loss (summing to 1); None otherwise.
    win: float | None
    draw: float | None
    loss: float | None
    #: The chance of each place, 1 … n (ties broken); sums to 1, and so does each place's.
    place_probabilities: list[float]


@dataclass(frozen=True)
class Prediction:
    game: str
    sides: list[SidePrediction]
    draw_probability: float | None


def predict(*, game: str, sides: Sequence[Sequence[Player]], at: datetime | None = None) -> Prediction:
    """Each side's probability of the first place (a draw counted half), its expected rank,
    its chance of each place and, for two sides, its chances of a win, a draw and a loss
    (summing to 1) and the chance of a draw, from the players' current ratings (the prior
    for a player not rated yet), each aged by the days since his last rated match to ``at``
    (default now), as the pool's next match would rate them: the pool's rater
    (``ratings.raters.rater(game)``), the one model behind every number shown."""
    r = rater(game)
    at = at or timezone.now()
    ids = [p.pk for side in sides for p in side]
    current = {row.player_id: row for row in PlayerRating.objects.filter(pool__game=game, player_id__in=ids)}
    prior = r.prior()
    shown = [
        [Rating(current[p.pk].mu, current[p.pk].sigma) if p.pk in current else prior for p in side]
        for side in sides
    ]
    beliefs = [
        [r.aged(belief, _days_away(current.get(p.pk), at)) for p, belief in zip(side, row, strict=True)]
        for side, row in zip(sides, shown, strict=True)
    ]
    wins = r.win_probabilities(beliefs)
    ranks = r.expected_ranks(beliefs)
    places = r.place_probabilities(beliefs)
    outcomes: list[tuple[float, float, float] | tuple[None, None, None]]
    if len(sides) == 2:
        first = r.outcome_probabilities(beliefs)
        outcomes = [first, (first[2], first[1], first[0])]
    else:
        outcomes = [(None, None, None)] * len(sides)
    out = []
    for side, side_beliefs, win, rank, place_chances, (won, drew, lost) in zip(
        sides, shown, wins, ranks, places, outcomes, strict=True
    ):
        players = []
        for player, belief in zip(side, side_beliefs, strict=True):
            row = current.get(player.pk)
            matches = row.matches if row else 0
            players.append({
                "id": player.pk,
                "name": player.name,
                "mu": belief.mu,
                "sigma": belief.sigma,
                "conservative": r.conservative(belief),
                "matches": matches,
                "provisional": r.is_provisional(belief, matches),
            })  # fmt: skip
        out.append(SidePrediction(players, win, rank, won, drew, lost, place_chances))
    return Prediction(game, out, r.draw_probability(beliefs))


def _days_away(row: PlayerRating | None, at: datetime) -> float:
    """Days from the player's last rated match to ``at`` (0 for a player not rated)."""
    if row is None or row.last_played_at is None:
        return 0.0
    return max(0.0, (at - row.last_played_at).total_seconds() / 86400)


def table_prediction(
    *, game: str, seats: list[tuple[str, Any]], viewer: Any = SYSTEM
) -> dict[str, Any] | None:
    """The win probabilities of a table about to start (the new-match page): ``seats`` in seat
    order as the match form gives them, ``("id", pk)`` of a player or ``("new", name)`` of one
    not created yet (he has the prior rating). Partnership games predict per team. None when
    a seat names a player ``viewer`` may not see (issue 33: no prediction tells of him)."""
    ids = [value for kind, value in seats if kind == "id"]
    known = (Player.objects.all() if viewer is SYSTEM else players_seen_by(viewer)).in_bulk(ids)
    if any(value not in known for value in ids):
        return None
    players = [known[value] if kind == "id" else Player(name=value) for kind, value in seats]
    ruleset = RULESETS.get(game)
    teams = getattr(ruleset, "partnerships", None)
    if teams and len(teams) == len(players):
        sides = [[p for p, team in zip(players, teams, strict=True) if team == t] for t in sorted(set(teams))]
    else:
        sides = [[p] for p in players]
    prediction = predict(game=game, sides=sides)
    needed = BoardFilter.default().min_matches
    return {
        "sides": [
            {
                "names": [p["name"] for p in side.players],
                "win": side.win_probability if side.win is None else side.win,
                "loss": side.loss,
                "places": side.place_probabilities,
                "provisional": any(p["matches"] < needed for p in side.players),
                "unrated": [p["name"] for p in side.players if not p["matches"]],
            }
            for side in prediction.sides
        ],
        "draw": prediction.draw_probability,
    }
