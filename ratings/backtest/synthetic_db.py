"""Synthetic finished matches stored in bulk, for the ratings benchmark and integration tests.

Not a way to record matches (that is ``scorekeeper.matches.services``): it writes finished
matches with a ``placements`` result, their seats and their finish event straight into the
tables, the way a long history would have left them, many thousands a second (COPY on
PostgreSQL).
"""

from __future__ import annotations

import json
import random
from collections.abc import Sequence
from datetime import datetime, timedelta

from django.db import connection, transaction
from django.utils import timezone

from scorekeeper.clubs.models import home_club_id
from scorekeeper.matches.models import ClubPlayer, Match, Player, Seat

from ..models import RatingEvent


def outcomes(*, players: int, matches: int, seed: int, sizes: Sequence[int] = (2, 3, 4, 5, 6),
             points: bool = False):  # fmt: skip
    """``matches`` free-for-all tables of 2–6 of ``players`` (indexes), each with its placements:
    hidden skills, performance = skill + noise, ties when equal after rounding. With ``points``,
    each table has a third item, each seat's total, 100 + 30·performance (whole points: the
    places follow them)."""
    rng = random.Random(seed)
    skill = [rng.gauss(0, 1) for _ in range(players)]
    out: list[tuple] = []
    for _ in range(matches):
        seated = rng.sample(range(players), rng.choice(sizes))
        performance = [round(skill[p] + rng.gauss(0, 1), 1) for p in seated]
        places = [1 + sum(o > x for o in performance) for x in performance]
        if points:
            out.append((seated, places, [round(100 + 30 * x) for x in performance]))
        else:
            out.append((seated, places))
    return out


def _result(table: tuple) -> dict:
    """A stored table's result: its placements, and its totals when it has them."""
    return {"placements": list(table[1]), **({"totals": list(table[2])} if len(table) > 2 else {})}


def store(
    *, game: str, tables: Sequence[tuple[Sequence[int], Sequence[int]]], player_ids: Sequence[int],
    start: datetime | None = None, club: int | None = None,
) -> list[int]:  # fmt: skip
    """Store ``tables`` (seat indexes into ``player_ids``, placements[, totals]) as finished ``game``
    matches finishing a millisecond apart, in the club of id ``club`` (the home club's by
    default); returns their ids in order. Their finish events are pending, as after a recording
    whose task has not run yet."""
    start = start or timezone.now() - timedelta(days=1)
    club = club or home_club_id()
    with transaction.atomic():
        if connection.vendor == "postgresql":
            return _store_postgresql(game, tables, player_ids, start, club)
        matches = Match.objects.bulk_create(
            [Match(game=game, status=Match.Status.FINISHED, result=_result(table),
                   title=f"synthetic {i}", seat_count=len(table[0]), club_id=club)
             for i, table in enumerate(tables)],
            batch_size=500,
        )  # fmt: skip
        Seat.objects.bulk_create(
            [Seat(match=m, player_id=player_ids[p], position=i)
             for m, table in zip(matches, tables, strict=True) for i, p in enumerate(table[0])],
            batch_size=1000,
        )  # fmt: skip
        RatingEvent.objects.bulk_create(
            [RatingEvent(match=m, game=game, kind="finish", at=start + timedelta(milliseconds=i))
             for i, m in enumerate(matches)],
            batch_size=1000,
        )  # fmt: skip
        return [m.pk for m in matches]


def _store_postgresql(game, tables, player_ids, start, club) -> list[int]:
    now = timezone.now()
    with connection.cursor() as cursor:
        # A block of ids reserved from the sequence, so that the rows can be COPYed with theirs.
        sequence = f"pg_get_serial_sequence('{Match._meta.db_table}', '{Match._meta.pk.column}')"
        cursor.execute(f"SELECT setval({sequence}, nextval({sequence}) + %s)", [len(tables)])
        last = cursor.fetchone()[0]
        ids = list(range(last - len(tables) + 1, last + 1))
        raw = cursor.cursor
        match_fields = ("id", "game", "preset", "options", "title", "status", "created_at", "updated_at",
                        "version", "result", "hand_count", "seat_count", "club")  # fmt: skip
        with raw.copy(_copy_sql(Match, match_fields)) as copy:
            for pk, table in zip(ids, tables, strict=True):
                copy.write_row(
                    (pk, game, "classic", "{}", f"synthetic {pk}", "finished", now, now, 1,
                     json.dumps(_result(table)), 1, len(table[0]), club)
                )  # fmt: skip
        with raw.copy(_copy_sql(Seat, ("match", "player", "position"))) as copy:
            for pk, table in zip(ids, tables, strict=True):
                for i, p in enumerate(table[0]):
                    copy.write_row((pk, player_ids[p], i))
        with raw.copy(_copy_sql(RatingEvent, ("match", "game", "kind", "at"))) as copy:
            for i, pk in enumerate(ids):
                copy.write_row((pk, game, "finish", start + timedelta(milliseconds=i)))
    return ids


def _copy_sql(model, fields) -> str:
    """``COPY`` into ``model``'s table, its columns named by the model (no other app's names here)."""
    columns = ", ".join(f'"{model._meta.get_field(name).column}"' for name in fields)
    return f'COPY "{model._meta.db_table}" ({columns}) FROM STDIN'


def players(count: int, *, prefix: str = "synthetic", club: int | None = None) -> list[int]:
    """``count`` new players, on the roster of the club of id ``club`` when one is named (as
    ``player_create`` puts them: a player on no roster is shown to nobody but staff); their ids."""
    made = Player.objects.bulk_create([Player(name=f"{prefix} {i}") for i in range(count)], batch_size=1000)
    if club is not None:
        ClubPlayer.objects.bulk_create([ClubPlayer(club_id=club, player=p) for p in made], batch_size=1000)
    return [p.pk for p in made]
