"""The pool's reading: its rated matches in the pool's order, as the replay rates them.

A pool rates the finished matches of its game (while RATINGS_WAIT_FOR_CONFIRMATION is on, only
those the other side confirmed), in the pool's order: when each match was played
(``Match.played_at``, the time its scorer gave for a sheet entered afterwards, else the time
of its first rating event: when it first finished), then its id. ``pool_matches`` reads them
as ``PoolMatch`` rows, each side's players and places from the match result's ``placements``
and its points from the result's totals (the ruleset's ``points_key``);
``places_now`` and ``places_rated`` say where matches sit in that order now and where the
pool's history rated them.

A whole pool on PostgreSQL is one statement (``POOL_SQL``) streamed from a server-side cursor;
everything else goes through the ORM. Beside it, ``bulk.py`` moves the rows in bulk and
``history_table.py`` swaps a pool's history partition; ``replay.py`` rates what this reads.
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Iterable, Iterator
from datetime import UTC, datetime, timedelta
from typing import NamedTuple

from django.conf import settings
from django.db import connection
from django.db.models import Min

from scorekeeper.matches.models import Match, Seat
from scorekeeper.rules import UnknownGame, find_ruleset
from scorekeeper.rules.ruleset import points_more_is_better

from .models import RatingEvent, RatingHistory, RatingPool

log = logging.getLogger(__name__)

#: Matches read per query (and per hand-over of a full recompute's reader).
CHUNK = 2000


class PoolMatch(NamedTuple):
    """One rated match of a pool: its players side by side and each side's place (a named
    tuple: a recompute makes one per match, and a frozen dataclass took three times as long)."""

    match_id: int
    #: Its place in the pool's order (with its id): when it was played.
    played_at: datetime
    sides: tuple[tuple[int, ...], ...]
    places: tuple[int, ...]
    #: When it was played, in days since 1970-01-01 UTC: the time the engine's decay counts.
    day: float
    #: Each side's points in the match, more is better (the ruleset's ``match_points`` of the
    #: result: the sheet's totals, cul's banks negated); None when the result has none.
    scores: tuple[float, ...] | None = None


def played_day(moment: datetime) -> float:
    """``moment`` in days since 1970-01-01 UTC, from its whole microseconds (the same float
    whether the time came from the database's integer or from a ``datetime``)."""
    delta = moment - _UNIX_EPOCH
    return ((delta.days * 86_400 + delta.seconds) * 1_000_000 + delta.microseconds) / 86_400_000_000


def places_now(game: str, matches: Iterable[int]) -> dict[int, datetime]:
    """match id → its place in the pool's order now, for those of ``matches`` that have rating
    events: when it was played, the time its scorer gave, else the time of its first rating
    event (when it first finished, in the transaction of the hand that finished it; a match
    reopened or corrected keeps it)."""
    out: dict[int, datetime] = {}
    ids = sorted(set(matches))
    for i in range(0, len(ids), CHUNK):
        rows = (
            Match.objects.filter(pk__in=ids[i : i + CHUNK], rating_events__game=game)
            .order_by()
            .values("pk")
            .annotate(first=Min("rating_events__at"))
            .values_list("pk", "played_at", "first")
        )
        out.update((match, played or first) for match, played, first in rows)
    return out


def places_rated(pool: RatingPool, matches: Iterable[int]) -> Iterator[tuple[int, datetime]]:
    """(match id, place) of those of ``matches`` the pool's history has: the place each had
    when it was last rated. Read through the players' index (the history has none by match,
    which each of a full recompute's rows would pay for): each player's rows, not the pool's."""
    ids = sorted(set(matches))
    # In chunks, as places_now: a backlog of many events (a worker back after a long outage)
    # would otherwise put more ids and players in one statement than PostgreSQL takes (65,535).
    for i in range(0, len(ids), CHUNK):
        chunk = ids[i : i + CHUNK]
        players = set(Seat.objects.filter(match_id__in=chunk).order_by().values_list("player_id", flat=True))
        yield from (
            RatingHistory.objects.filter(pool=pool, player_id__in=players, match_id__in=chunk)
            .order_by()
            .values_list("match_id", "played_at")
            .distinct()
        )


def pool_matches(
    game: str, start: tuple[datetime, int] | None = None, matches: Iterable[int] = (), *, points: bool = True
) -> Iterator[PoolMatch]:
    """The rated matches of a pool (finished, not void) in the pool's order, read in chunks:
    all of them (``start`` None), or ``matches`` from ``start`` on. Ranks come from the match
    result's ``placements`` (ties share a place); piquet-voleur's teams (``partnerships``) are
    sides, every other game is free for all. ``points`` False leaves the points unread
    (``PoolMatch.scores`` None): a pool whose rater does not weigh them."""
    try:
        ruleset = find_ruleset(game)
    except UnknownGame:
        ruleset = None
    partnerships = ruleset.partnerships if ruleset else None
    points_key = (ruleset.points_key if ruleset else "totals") if points else None
    fewer_better = ruleset.fewer_points_better if ruleset else False
    per_side = ruleset.side_points if ruleset else _points_per_side
    if start is None and connection.vendor == "postgresql":
        yield from _pool_matches_postgresql(game, partnerships, points_key, fewer_better, per_side)
        return
    if start is None:
        matches = RatingEvent.objects.filter(game=game).values_list("match_id", flat=True).distinct()
    order = sorted((at, match) for match, at in places_now(game, matches).items())
    if start is not None:
        order = [place for place in order if place >= start]
    for i in range(0, len(order), CHUNK):
        chunk = order[i : i + CHUNK]
        ids = [match for _, match in chunk]
        # Unordered (the models' orderings would sort, and join the match for the seats', to no
        # end): the rows go into dicts, and each match's seats are sorted below.
        placements: dict[int, object] = {}
        read: dict[int, list[float] | None] = {}
        for pk, places, totals in (
            _rated(Match.objects.filter(pk__in=ids))
            .order_by()
            .values_list("pk", "result__placements", f"result__{points_key}" if points_key else "pk")
        ):
            placements[pk] = places
            read[pk] = points_more_is_better(totals, fewer_better) if points_key else None
        seats: dict[int, list[tuple[int, int]]] = {}
        for match, position, player in (
            Seat.objects.filter(match_id__in=list(placements))
            .order_by()
            .values_list("match_id", "position", "player_id")
        ):
            seats.setdefault(match, []).append((position, player))
        for at, match in chunk:
            if match not in placements:
                continue  # void, or no longer finished after a correction
            players = [player for _, player in sorted(seats.get(match, ()))]
            scores = per_side(read[match], len(players))
            outcome = _outcome(match, at, placements[match], players, partnerships, scores)
            if outcome is not None:
                yield outcome


def _rated(matches):
    """The matches a pool rates: the finished ones, and while RATINGS_WAIT_FOR_CONFIRMATION is
    on only those the other side confirmed (every current hand: ``Match.confirmed_at``)."""
    matches = matches.filter(status=Match.Status.FINISHED)
    if settings.RATINGS_WAIT_FOR_CONFIRMATION:
        matches = matches.filter(confirmed_at__isnull=False)
    return matches


class _Table:
    """A model's table and its fields' columns, quoted as the model names them, for SQL written
    by hand: ``match.table``, ``match.played_at``, ``seat.player`` (its ``player_id`` column)."""

    def __init__(self, model) -> None:
        self.table = f'"{model._meta.db_table}"'
        self._model = model

    def __getattr__(self, field: str) -> str:
        return f'"{self._model._meta.get_field(field).column}"'


def _pool_sql() -> str:
    """A whole pool in its order, in one statement streamed from a server-side cursor: each
    match with its place in the order, when it was played (µs since 1970: Django's
    time-zone-aware loader of timestamps cost more than the rest of the read), its placements
    and its points (as text, parsed here) and its players in seat order (gathered per match before the sort,
    which then sorts one row a match instead of one a seat). Tables and columns are named by
    the models; the finished status is a constant written into the statement (not a
    parameter), as it was planned with."""
    event, match, seat = _Table(RatingEvent), _Table(Match), _Table(Seat)
    finished = f"'{Match.Status.FINISHED.value}'"
    return f"""
SELECT m.{match.id}, (EXTRACT(EPOCH FROM COALESCE(m.{match.played_at}, f.first)) * 1000000)::int8,
       m.{match.result} ->> 'placements', s.players, m.{match.result} ->> %(points_key)s
FROM (
    SELECT {event.match} AS match_id, min({event.at}) AS first
    FROM {event.table} WHERE {event.game} = %(game)s GROUP BY {event.match}
) f
JOIN {match.table} m ON m.{match.id} = f.match_id AND m.{match.status} = {finished}
    AND (NOT %(wait)s OR m.{match.confirmed_at} IS NOT NULL)
JOIN (
    SELECT s.{seat.match} AS match_id, array_agg(s.{seat.player} ORDER BY s.{seat.position}) AS players
    FROM {seat.table} s
    JOIN {match.table} sm ON sm.{match.id} = s.{seat.match} AND sm.{match.game} = %(game)s
        AND sm.{match.status} = {finished} AND (NOT %(wait)s OR sm.{match.confirmed_at} IS NOT NULL)
    GROUP BY s.{seat.match}
) s ON s.match_id = m.{match.id}
ORDER BY COALESCE(m.{match.played_at}, f.first), m.{match.id}
"""


POOL_SQL = _pool_sql()
_UNIX_EPOCH = datetime(1970, 1, 1, tzinfo=UTC)


def _pool_matches_postgresql(
    game: str, partnerships, points_key: str | None, fewer_better: bool, per_side
) -> Iterator[PoolMatch]:
    with connection.chunked_cursor() as cursor:
        # A NULL key reads no points (``->>`` is strict): a pool whose rater does not weigh them.
        parameters: dict[str, str | bool | None] = {
            "game": game,
            "wait": settings.RATINGS_WAIT_FOR_CONFIRMATION,
            "points_key": points_key,
        }
        cursor.execute(POOL_SQL, parameters)
        while rows := cursor.fetchmany(CHUNK):
            totals_column = _json_column(rows, 4) if points_key else [None] * len(rows)
            for (match, micros, _, players, _), placements, totals in zip(
                rows, _json_column(rows, 2), totals_column, strict=True
            ):
                at = _UNIX_EPOCH + timedelta(microseconds=micros)
                scores = per_side(points_more_is_better(totals, fewer_better), len(players))
                outcome = _outcome(match, at, placements, players, partnerships, scores)
                if outcome is not None:
                    yield outcome


def _json_column(rows: list[tuple], column: int) -> list:
    """The rows' JSON texts of ``column`` (the placements, the points), parsed: all in one call
    (a call per row cost a quarter of the read), else row by row (None for a row that is not
    JSON, or has none)."""
    texts = [row[column] for row in rows]
    if None not in texts:
        with contextlib.suppress(ValueError):
            parsed = json.loads(f"[{','.join(texts)}]")
            if len(parsed) == len(texts):
                return parsed
    out = []
    for text in texts:
        try:
            out.append(json.loads(text) if text is not None else None)
        except ValueError:
            out.append(None)
    return out


_INT = {int}


def _points_per_side(points: list[float] | None, seats: int) -> tuple[float, ...] | None:
    """A game not registered here: its points as they are when there is one per seat."""
    return tuple(points) if points is not None and len(points) == seats else None


def _outcome(match, at, placements, players, partnerships, scores=None) -> PoolMatch | None:
    """The match as the pool rates it (None when its placements do not fit its seats);
    ``scores`` are its sides' points, already per side (``Ruleset.side_points``)."""
    if (
        type(placements) is not list
        or len(placements) != len(players)
        or len(players) < 2
        or set(map(type, placements)) != _INT  # bools are not places
        or min(placements) < 1
    ):
        log.warning(
            "match %s: placements %r do not fit its %d seats; not rated", match, placements, len(players)
        )
        return None
    if partnerships and len(partnerships) == len(players):
        teams = sorted(set(partnerships))
        sides = tuple(
            tuple(p for p, t in zip(players, partnerships, strict=True) if t == team) for team in teams
        )
        places = tuple(placements[partnerships.index(team)] for team in teams)
        return PoolMatch(match, at, sides, places, played_day(at), scores)
    return PoolMatch(
        match, at, tuple(zip(players)), tuple(placements), played_day(at), scores
    )  # one-player sides
