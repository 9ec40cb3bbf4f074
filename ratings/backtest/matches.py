"""The back-test's matches: ``BacktestMatch`` (a game, its sides and places, when it was
played; a synthetic one with the truth beside), read from and written to JSON lines
(``read_jsonl``, ``write_jsonl``; ``BacktestInputError`` names a line that cannot be read), and
``play_order``, the order a pool would rate them in."""

from __future__ import annotations

import json
import math
from collections.abc import Hashable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any


@dataclass(frozen=True, slots=True)
class BacktestMatch:
    game: str
    sides: tuple[tuple[Hashable, ...], ...]
    places: tuple[int, ...]
    #: Synthetic matches only: each side's true probability of the first place.
    oracle: tuple[float, ...] | None = None
    #: Synthetic matches only: each side's true strength (its players' skills summed).
    truth: tuple[float, ...] | None = None
    #: When it was played, in days since 1970-01-01 UTC (``"played_at"``); None: not given.
    day: float | None = None
    #: Synthetic two-sided matches only: the true probability of a draw.
    oracle_draw: float | None = None
    #: Each side's points in the match, more is better (``"scores"``); None: not given.
    scores: tuple[float, ...] | None = None
    #: Synthetic matches only: each side's performance in the match (its points come from it).
    performance: tuple[float, ...] | None = None

    def outcome(self) -> list[float]:
        """y: 1 for the winner, 1/t to each of t sides sharing the first place."""
        best = min(self.places)
        winners = self.places.count(best)
        return [1 / winners if p == best else 0.0 for p in self.places]


class BacktestInputError(ValueError):
    """A JSON-lines back-test input that cannot be read; the message names the line."""


def _fail(number: int, message: str) -> BacktestInputError:
    return BacktestInputError(f"line {number}: {message}")


def _player(value: Any) -> bool:
    if isinstance(value, str):
        return value != ""
    return isinstance(value, int) and not isinstance(value, bool)


def parse_match(data: Any, number: int = 1) -> BacktestMatch:
    """One decoded line ``{"game", "sides": [[player, …], …], "places": [1, 2, …]}``, with
    optionally ``"played_at"`` and ``"scores": [points, …]`` (one number per side)."""
    if not isinstance(data, dict):
        raise _fail(number, f"a match must be a JSON object, not {type(data).__name__}")
    for key in ("game", "sides", "places"):
        if key not in data:
            raise _fail(number, f'"{key}" is missing')
    game, sides, places = data["game"], data["sides"], data["places"]
    if not isinstance(game, str) or not game:
        raise _fail(number, '"game" must be a non-empty string')
    if not isinstance(sides, list) or len(sides) < 2:
        raise _fail(number, '"sides" must be a list of at least two sides')
    seen: set[Hashable] = set()
    for i, side in enumerate(sides):
        if not isinstance(side, list) or not side:
            raise _fail(number, f"sides[{i}] must be a non-empty list of players")
        for player in side:
            if not _player(player):
                raise _fail(
                    number, f"sides[{i}]: a player is a non-empty string or an integer, not {player!r}"
                )
            if player in seen:
                raise _fail(number, f"player {player!r} appears twice")
            seen.add(player)
    if not isinstance(places, list) or len(places) != len(sides):
        raise _fail(number, f'"places" must be a list of {len(sides)} places, one per side')
    for i, place in enumerate(places):
        if isinstance(place, bool) or not isinstance(place, int) or place < 1:
            raise _fail(number, f"places[{i}] must be an integer ≥ 1, not {place!r}")
    day = None
    if data.get("played_at") is not None:
        day = _day(data["played_at"], number)
    scores = None
    if data.get("scores") is not None:
        scores = _scores(data["scores"], len(sides), number)
    return BacktestMatch(game, tuple(tuple(s) for s in sides), tuple(places), day=day, scores=scores)


def _scores(value: Any, sides: int, number: int) -> tuple[float, ...]:
    """``"scores"``: one finite number per side, the side's points (more is better)."""
    if not isinstance(value, list) or len(value) != sides:
        raise _fail(number, f'"scores" must be a list of {sides} numbers, one per side')
    for i, score in enumerate(value):
        if isinstance(score, bool) or not isinstance(score, int | float) or not math.isfinite(score):
            raise _fail(number, f"scores[{i}] must be a finite number, not {score!r}")
    return tuple(float(score) for score in value)


_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _day(value: Any, number: int) -> float:
    """An ISO date or date and time as days since 1970-01-01 UTC (a time without a zone is UTC)."""
    if isinstance(value, str):
        try:
            when = datetime.fromisoformat(value)
        except ValueError:
            when = None
        if when is not None:
            if when.tzinfo is None:
                when = when.replace(tzinfo=UTC)
            return (when - _EPOCH).total_seconds() / 86400
        try:
            return float((date.fromisoformat(value) - _EPOCH.date()).days)
        except ValueError:
            pass
    raise _fail(number, f'"played_at" must be an ISO date or date and time, not {value!r}')


def play_order(matches: Sequence[BacktestMatch]) -> list[int]:
    """The matches' indices in the order they were played, as a pool orders them: by
    ``day``, the given order among equals. A match without a day keeps its place after the
    one before it (the first ones stay first) and lets no time pass."""
    key = -math.inf
    keys = []
    for m in matches:
        if m.day is not None:
            key = m.day
        keys.append(key)
    return sorted(range(len(matches)), key=keys.__getitem__)


def read_jsonl(lines: Iterable[str]) -> Iterator[BacktestMatch]:
    """Matches from JSON lines, one a line (blank lines skipped); BacktestInputError names the line."""
    for number, line in enumerate(lines, 1):
        if not line.strip():
            continue
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise _fail(number, f"not JSON: {error.msg} (column {error.colno})") from None
        yield parse_match(data, number)


def write_jsonl(matches: Iterable[BacktestMatch]) -> Iterator[str]:
    """The JSON lines ``read_jsonl`` reads (the oracle is not written; a day as ``played_at``,
    the points as ``scores``)."""
    for m in matches:
        line: dict[str, Any] = {"game": m.game, "sides": [list(s) for s in m.sides], "places": list(m.places)}
        if m.day is not None:
            line["played_at"] = datetime.fromtimestamp(m.day * 86400, UTC).isoformat()
        if m.scores is not None:
            line["scores"] = list(m.scores)
        yield json.dumps(line)
