"""The ratings an event shows, supplied by the app built on the events.

The events stand beneath the ratings (the layers go one way): they cannot ask the ratings
themselves. The ratings app registers a source here when it starts (``ratings/apps.py``), as
it listens to the matches' signals; without one (a site without ratings, a test of the events
alone) an entrant has no rating at the start and a player's event no rating change.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol


class RatingSource(Protocol):
    def at_start(self, game: str, players: Sequence[int]) -> dict[int, int]:
        """Each rated player's displayed rating of ``game`` now (unrated players left out)."""
        ...

    def changes(self, game: str, matches: Sequence[int]) -> dict[int, int]:
        """Each player's displayed rating change summed over the rated ``matches``."""
        ...


_source: RatingSource | None = None


def register(source: RatingSource | None) -> None:
    global _source
    _source = source


def at_start(game: str, players: Sequence[int]) -> dict[int, int]:
    return _source.at_start(game, players) if _source is not None and players else {}


def changes(game: str, matches: Sequence[int]) -> dict[int, int]:
    return _source.changes(game, matches) if _source is not None and matches else {}
