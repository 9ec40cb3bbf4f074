"""What an event's pages and the API read: its rounds and tables with their matches, who met
whom, the standings (read from the matches' results, never copied), and a tag that changes
whenever any of it does (the live pages' ETag).

A table counts in the standings once its match is finished (its result's ``placements`` and
``totals``) or the director gave a forfeit; a void match without a forfeit counts for nothing,
and a bye is worth the event's bye points.
"""

from __future__ import annotations

import hashlib
from collections import Counter, defaultdict
from collections.abc import Hashable, Iterable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import Count, Max, Q, QuerySet, Sum

from scorekeeper.matches.models import Match, Seat

from . import ratings_source
from .models import Entrant, Event, EventTable, Round
from .standings import Standing, Table
from .standings import standings as rank

#: The result's per-seat figure that is a table's game points, the first one it has.
GAME_POINTS_KEYS = ("totals", "settlement", "rating_pct")


def events_of(club: Any) -> QuerySet[Event]:
    return Event.objects.filter(club=club).select_related("club")


def event_seen(club: Any, pk: Any) -> Event | None:
    """The club's event ``pk`` if the viewer's scope shows it (else None)."""
    if not isinstance(pk, int):
        return None
    return Event.objects.filter(club=club, pk=pk).select_related("club").first()


def entrants(event: Event) -> QuerySet[Entrant]:
    return event.entrants.select_related("player").order_by("id")


def active_players(event: Event) -> list[int]:
    """The entrants who are not withdrawn, in entry order."""
    return list(
        event.entrants.filter(withdrawn_at__isnull=True).order_by("id").values_list("player_id", flat=True)
    )


def schedule_players(event: Event) -> list[int]:
    """A round robin's players, numbered for the Berger tables by round one's entrants (its
    schedule is fixed then; a withdrawn player's opponents have a bye)."""
    first = Round.objects.filter(event=event, number=1).first()
    if first is None:
        return active_players(event)
    return list(
        event.entrants.filter(entered_at__lte=first.paired_at)
        .order_by("id")
        .values_list("player_id", flat=True)
    )


def rounds(event: Event) -> QuerySet[Round]:
    return event.round_set.order_by("number")


def round_tables(round_: Round) -> list[EventTable]:
    """A round's current tables (not replaced by a swap), table 1 first, with their matches."""
    return list(
        round_.tables.filter(replaced_at__isnull=True).select_related("match", "bye").order_by("number")
    )


def seats_of(tables: Iterable[EventTable]) -> dict[int, list[int]]:
    """Each table's players in seat order (a bye: its one player), by table id."""
    tables = list(tables)
    by_match: dict[int, list[int]] = defaultdict(list)
    for match_id, player_id in (
        Seat.objects.filter(match__in=[t.match_id for t in tables if t.match_id])
        .order_by("match_id", "position")
        .values_list("match_id", "player_id")
    ):
        by_match[match_id].append(player_id)
    return {t.pk: by_match[t.match_id] if t.match_id else [t.bye_id or 0] for t in tables}


def table_done(table: EventTable) -> bool:
    if table.bye_id is not None or table.forfeit is not None:
        return True
    return table.match is not None and table.match.status != Match.Status.IN_PROGRESS


def open_round(event: Event) -> Round | None:
    """The last round while one of its tables is being played."""
    last = event.round_set.order_by("-number").first()
    if last is None:
        return None
    busy = last.tables.filter(
        replaced_at__isnull=True, forfeit__isnull=True, match__status=Match.Status.IN_PROGRESS
    ).exists()
    return last if busy else None


def playing_now(event: Event) -> list[int]:
    """The players seated at a table of the event whose match is still being played."""
    return list(
        Seat.objects.filter(
            match__event_table__round__event=event,
            match__event_table__replaced_at__isnull=True,
            match__event_table__forfeit__isnull=True,
            match__status=Match.Status.IN_PROGRESS,
        ).values_list("player_id", flat=True)
    )


# -- the results, read once ------------------------------------------------------------
@dataclass
class Played:
    """Everything the standings and the next pairing need, from one read of the event."""

    tables: list[Table] = field(default_factory=list)
    byes: Counter = field(default_factory=Counter)
    met: Counter = field(default_factory=Counter)
    #: (round, table number, players in seat order, places or None, game points or None, match id)
    rows: list[tuple] = field(default_factory=list)


def played(event: Event, *, before: int | None = None) -> Played:
    """The event's current tables (of the rounds before ``before``), each with its players and,
    once decided, its places and game points."""
    tables = EventTable.objects.filter(round__event=event, replaced_at__isnull=True)
    if before is not None:
        tables = tables.filter(round__number__lt=before)
    rows = list(
        tables.order_by("round__number", "number").values_list(
            "round__number", "number", "match_id", "bye_id", "forfeit", "match__status", "match__result"
        )
    )
    seated = defaultdict(list)
    for match_id, player_id in (
        Seat.objects.filter(match__event_table__in=tables)
        .order_by("match_id", "position")
        .values_list("match_id", "player_id")
    ):
        seated[match_id].append(player_id)
    out = Played()
    for number, table_number, match_id, bye_id, forfeit, status, result in rows:
        if bye_id is not None:
            out.byes[bye_id] += 1
            out.rows.append((number, table_number, [bye_id], None, None, None))
            continue
        players = seated[match_id]
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                out.met[frozenset((a, b))] += 1
        places, points = _decided(players, forfeit, status, result)
        if places is not None:
            out.tables.append(Table(places=places, game_points=points or {}))
        out.rows.append((number, table_number, players, places, points, match_id))
    return out


def _decided(players: list[int], forfeit: Any, status: str, result: Any) -> tuple[dict | None, dict | None]:
    if forfeit is not None and len(forfeit) == len(players):
        return dict(zip(players, forfeit, strict=True)), None
    if status != Match.Status.FINISHED or not isinstance(result, dict):
        return None, None
    placements = result.get("placements")
    if not isinstance(placements, list) or len(placements) != len(players):
        return None, None
    points = next(
        (
            result[k]
            for k in GAME_POINTS_KEYS
            if isinstance(result.get(k), list) and len(result[k]) == len(players)
        ),
        None,
    )
    return dict(zip(players, placements, strict=True)), (
        dict(zip(players, points, strict=True)) if points is not None else None
    )


@dataclass(frozen=True)
class History:
    #: The standings' order then (the event's tie-breaks), and each player's event points.
    order: list[int]
    points: dict[int, Fraction]
    met: Mapping[frozenset, int]
    byes: Mapping[int, int]


def history(event: Event, *, before: int) -> History:
    """Who met whom and the byes in the rounds before ``before``, and the standings then: one
    read of the event, one ranking."""
    done = played(event, before=before)
    ranked = standings(event, done=done)
    return History(
        [row.player for row in ranked],
        {row.player: row.values["points"] for row in ranked},
        done.met,
        done.byes,
    )


def standings(event: Event, *, done: Played | None = None) -> list[Standing]:
    """The event's standings now, by its tie-breaks (``rating``: the entrants' ratings at the
    start; ``lots``: drawn with the event's seed)."""
    done = done if done is not None else played(event)
    entries = list(event.entrants.order_by("id").values_list("player_id", "rating"))
    players = list(dict.fromkeys(p for p, _ in entries))
    ratings: dict[Hashable, float] = {p: r for p, r in entries if r is not None}
    return rank(
        players,
        done.tables,
        by_place=[Fraction(p) for p in event.points],
        tiebreaks=event.tiebreaks,
        byes=done.byes,
        bye_points=Fraction(event.bye_points),
        ratings=ratings,
        seed=event.seed,
    )


def live_tag(event: Event) -> str:
    """A tag of everything the event's live pages show: it changes with every hand recorded at
    one of its tables, every entry, round, swap and forfeit (two aggregate queries: the matches,
    the audit log)."""
    matches = Match._base_manager.filter(event_table__round__event=event).aggregate(
        versions=Sum("version"), count=Count("id"), last=Max("updated_at")
    )
    audit = event.audit.aggregate(count=Count("id"), last=Max("id"))
    facts = (
        event.pk,
        event.finished_at,
        matches["versions"],
        matches["count"],
        matches["last"],
        audit["last"],
        audit["count"],
    )
    return hashlib.blake2b(repr(facts).encode(), digest_size=12).hexdigest()


# -- the pages' reads ----------------------------------------------------------------------
def live_tables(event: Event) -> list[EventTable]:
    """The tables the live pages show: the last round's, and on a club night every table still
    being played (its tables form as players arrive, a round of their own each)."""
    last = event.round_set.order_by("-number").first()
    if last is None:
        return []
    tables = EventTable.objects.filter(round__event=event, replaced_at__isnull=True)
    if event.format == Event.Format.OPEN:
        tables = tables.filter(
            Q(round=last) | Q(forfeit__isnull=True, match__status=Match.Status.IN_PROGRESS)
        )
    else:
        tables = tables.filter(round=last)
    return list(tables.select_related("match", "bye", "round").order_by("round__number", "number"))


def player_names(event: Event) -> dict[int, str]:
    """The name of every player entered in the event (withdrawn ones too), by id."""
    return dict(event.entrants.values_list("player_id", "player__name"))


@dataclass
class Report:
    """An event's report: its standings, every table's result and the rating changes."""

    standings: list[Standing]
    played: Played
    #: Each player's displayed rating change summed over the event's rated matches.
    changes: dict[int, int]


def report(event: Event) -> Report:
    """The standings, every table in round order (``played.rows``) and each player's rating
    change over the event's matches (from the ratings' source; none without one)."""
    done = played(event)
    table = standings(event, done=done)
    match_ids = [row[5] for row in done.rows if row[5] is not None]
    return Report(standings=table, played=done, changes=ratings_source.changes(event.game, match_ids))
