"""The ratings a club's events show (``scorekeeper.events.ratings_source``): an entrant's
rating at the start, and each player's rating change over an event's matches, in displayed
points as the boards and the score sheets show them."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence

from .. import display
from ..models import PlayerRating, RatingHistory


class EventRatings:
    def at_start(self, game: str, players: Sequence[int]) -> dict[int, int]:
        rows = PlayerRating.objects.filter(pool__game=game, player__in=list(players))
        return dict(rows.values_list("player_id", "rating"))

    def changes(self, game: str, matches: Sequence[int]) -> dict[int, int]:
        out: dict[int, int] = defaultdict(int)
        rows = RatingHistory.objects.filter(pool__game=game, match__in=list(matches)).values_list(
            "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after"
        )
        for player, *belief in rows:
            out[player] += display.change(*belief)
        return dict(out)
