"""Every write to a club's events: the event, its entrants, pairing a round, a swap before a
round starts, a forfeit, the event's end (keyword-only ``<entity>_<action>``, as the matches').

Each write takes the club's director role (``by=None`` is the system), runs in one transaction
that locks the event row, and writes an ``EventAuditEntry``. Each table of a round is a match
of the club made by ``scorekeeper.matches.services.match_create``: it is recorded, confirmed
and rated as any other, and its scorers are the seated players' own accounts (the club's
directors may score every match of the club). What a round is worth is read back from its
matches (``selectors``), never copied here.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Club, Role
from scorekeeper.clubs.services import require_role
from scorekeeper.errors import Conflict, Invalid, NotFound
from scorekeeper.matches import services as matches
from scorekeeper.matches.models import ClubPlayer, Match, Player
from scorekeeper.matches.selectors import players_seen_by
from scorekeeper.rules import UnknownGame, find_ruleset

from . import pairing, ratings_source, selectors
from .errors import PairingError
from .models import Entrant, Event, EventAuditEntry, EventTable, Round
from .standings import TIEBREAKS, default_points

#: The most rounds an event may have, and the most entrants (a large open of a federation).
MAX_ROUNDS = 50
MAX_ENTRANTS = 1000
DEFAULT_TIEBREAKS = ("points", "buchholz", "sonneborn_berger", "lots")
FIRST_DAY, LAST_DAY = date(1900, 1, 1), date(9000, 12, 31)


class EventInvalid(Invalid):
    code = "event_invalid"


class RoundOpen(Conflict):
    code = "round_open"


class EventFinished(Conflict):
    code = "event_finished"


# -- the event ---------------------------------------------------------------------------
def event_create(
    *,
    club: Club,
    by: Any,
    name: str,
    game: str,
    format: str,
    rounds: int | None = None,
    table_size: int | None = None,
    points: Sequence[Any] | None = None,
    bye_points: Any = 1,
    tiebreaks: Sequence[str] | None = None,
    seating: str = Event.Seating.DRAW,
    seed: int | None = None,
    starts_on: date | None = None,
) -> Event:
    """A new event of ``club`` in ``game``; the director's choices are checked here, each
    refusal naming its field."""
    require_role(club, by, Role.DIRECTOR)
    name = (name or "").strip() if isinstance(name, str) else ""
    if not name or len(name) > 120:
        raise EventInvalid(
            _("give the event a name of 1 to 120 characters"), field="name", code="name_invalid"
        )
    try:
        ruleset = find_ruleset(game)
    except UnknownGame:
        raise EventInvalid(
            _("there is no game %(game)s") % {"game": game}, field="game", code="game_unknown"
        ) from None
    if format not in Event.Format.values:
        raise EventInvalid(
            _("the format is one of %(formats)s") % {"formats": ", ".join(Event.Format.values)},
            field="format",
            code="format_unknown",
        )
    size = _table_size(ruleset.seat_counts, format, table_size)
    if format == Event.Format.OPEN:
        rounds = None
    elif rounds is not None and not (isinstance(rounds, int) and 1 <= rounds <= MAX_ROUNDS):
        raise EventInvalid(
            _("the rounds are a whole number from 1 to %(most)s") % {"most": MAX_ROUNDS},
            field="rounds",
            code="rounds_invalid",
        )
    elif rounds is None and (format in (Event.Format.SWISS, Event.Format.TABLE_SWISS) or size > 2):
        # Only two sides have a schedule that ends by itself (every pair once).
        raise EventInvalid(_("give the number of rounds"), field="rounds", code="rounds_required")
    by_place = _points(points, size)
    bye = _number(bye_points, "bye_points")
    order = _tiebreaks(tiebreaks)
    if seating not in Event.Seating.values:
        raise EventInvalid(_("seats are drawn or rotated"), field="seating", code="seating_unknown")
    if format == Event.Format.LEAGUE and starts_on is None:
        starts_on = timezone.localdate()
    if starts_on is not None and not (isinstance(starts_on, date) and FIRST_DAY <= starts_on <= LAST_DAY):
        # A fixture a week per round from this day must stay a date.
        raise EventInvalid(
            _("the first day is a date from %(first)s to %(last)s") % {"first": FIRST_DAY, "last": LAST_DAY},
            field="starts_on",
            code="starts_on_invalid",
        )
    with transaction.atomic():
        event = Event.objects.create(
            club=club,
            name=name,
            game=game,
            format=format,
            rounds=rounds,
            table_size=size,
            points=[_decimal(p) for p in by_place],
            bye_points=_decimal(bye),
            tiebreaks=order,
            seating=seating,
            seed=seed
            if isinstance(seed, int) and 0 <= seed < 2**31
            else random.SystemRandom().randrange(2**31),
            starts_on=starts_on,
            created_by=_user_or_none(by),
        )
        _audit(event, by, EventAuditEntry.Action.CREATE, {"name": name, "game": game, "format": format})
    return event


def event_finish(*, event: Event | int, by: Any) -> Event:
    """Close the event once no round is open: its standings are final."""
    with transaction.atomic():
        event = _lock(event, by)
        if selectors.open_round(event) is not None:
            raise RoundOpen(_("a round is still being played"), field="rounds")
        event.finished_at = timezone.now()
        event.save(update_fields=["finished_at"])
        _audit(event, by, EventAuditEntry.Action.FINISH, {})
    return event


# -- entrants ----------------------------------------------------------------------------
def entrant_add(*, event: Event | int, player: Player | int, by: Any, rating: int | None = None) -> Entrant:
    """Enter ``player`` (late entries welcome: he is paired from the next round; a round
    robin's schedule is fixed by its first round, so it takes no late entry). ``rating``: his
    rating at the start; left out, the ratings' (``ratings_source``) as he enters."""
    with transaction.atomic():
        event = _lock(event, by)
        player_id = player.pk if isinstance(player, Player) else player
        if not isinstance(player_id, int) or not players_seen_by(by).filter(pk=player_id).exists():
            raise NotFound(_("no player %(pk)s") % {"pk": player_id}, field="player", code="player_not_found")
        if _schedule_fixed(event) and event.round_set.exists():
            raise Conflict(
                _("a round robin's schedule is fixed once it starts: no late entry"),
                field="player",
                code="schedule_fixed",
            )
        if event.entrants.filter(player_id=player_id, withdrawn_at__isnull=True).exists():
            raise Conflict(_("the player is already entered"), field="player", code="already_entered")
        if event.entrants.filter(withdrawn_at__isnull=True).count() >= MAX_ENTRANTS:
            raise Conflict(_("the event is full"), field="player", code="event_full")
        if not isinstance(rating, int) or isinstance(rating, bool):
            rating = ratings_source.at_start(event.game, [player_id]).get(player_id)
        entrant = Entrant.objects.create(
            event=event,
            player_id=player_id,
            rating=rating,
            entered_by=_user_or_none(by),
        )
        _audit(event, by, EventAuditEntry.Action.ENTER, {"player": player_id, "rating": entrant.rating})
    return entrant


def entrant_withdraw(*, event: Event | int, player: Player | int, by: Any) -> Entrant:
    """Withdraw ``player``: he is paired no more; what he played stands."""
    with transaction.atomic():
        event = _lock(event, by)
        player_id = player.pk if isinstance(player, Player) else player
        entrant = event.entrants.filter(player_id=player_id, withdrawn_at__isnull=True).first()
        if entrant is None:
            raise NotFound(_("the player is not entered"), field="player", code="entrant_not_found")
        entrant.withdrawn_at = timezone.now()
        entrant.withdrawn_by = _user_or_none(by)
        entrant.save(update_fields=["withdrawn_at", "withdrawn_by"])
        _audit(event, by, EventAuditEntry.Action.WITHDRAW, {"player": player_id})
    return entrant


# -- rounds ------------------------------------------------------------------------------
def round_pair(*, event: Event | int, by: Any, tables: Sequence[Sequence[int]] | None = None) -> Round:
    """Pair and start the next round: its tables' matches are made, each player told his
    seat. An open club night takes the director's ``tables`` (player ids in seat order);
    the other formats pair by their system (module ``pairing``)."""
    with transaction.atomic():
        event = _lock(event, by)
        # A club night's tables form as players arrive: a new one while others play.
        if event.format != Event.Format.OPEN and selectors.open_round(event) is not None:
            raise RoundOpen(_("the round before is still being played"), field="rounds")
        played = event.round_set.count()
        number = played + 1
        active = selectors.active_players(event)
        bye: list[int]
        if event.format == Event.Format.OPEN:
            seated, bye, repeats, bound = _open_tables(event, active, tables), [], 0, 0
        else:
            if tables is not None:
                raise EventInvalid(
                    _("only a club night takes its tables from the director"),
                    field="tables",
                    code="tables_not_taken",
                )
            limit = _round_limit(event, selectors.schedule_players(event) if played else active)
            if limit is not None and number > limit:
                raise Conflict(
                    _("all %(count)s rounds are played") % {"count": limit},
                    field="rounds",
                    code="rounds_done",
                )
            if len(active) < event.table_size:
                raise EventInvalid(
                    _("%(count)s entrants cannot fill a table of %(size)s")
                    % {"count": len(active), "size": event.table_size},
                    field="entrants",
                    code="too_few_entrants",
                )
            try:
                seated, bye, repeats, bound = _paired(event, number, active)
            except PairingError as exc:
                raise EventInvalid(str(exc), field="entrants", code=exc.code) from None
        fixture = event.starts_on + timedelta(weeks=number - 1) if event.starts_on else None
        round_ = Round.objects.create(
            event=event,
            number=number,
            paired_by=_user_or_none(by),
            repeats=repeats,
            repeats_bound=bound,
            scheduled_for=fixture,
        )
        facts = _Seated.read(event, (p for players in seated for p in players))
        for i, players in enumerate(seated, start=1):
            EventTable.objects.create(
                round=round_, number=i, match=_table_match(event, round_, i, players, by, facts)
            )
        for j, player_id in enumerate(bye, start=len(seated) + 1):
            EventTable.objects.create(round=round_, number=j, bye_id=player_id)
        _audit(
            event,
            by,
            EventAuditEntry.Action.PAIR,
            {"round": number, "tables": [list(t) for t in seated], "byes": list(bye), "repeats": repeats},
        )
    return round_


def round_swap(*, round: Round | int, first: int, second: int, by: Any) -> dict[str, Any]:
    """Swap two players of a round before their tables have started (no hand recorded): their
    tables' matches are voided and made again with the players swapped; a bye moves with its
    player. Returns the warnings the page shows: a repeat meeting, a second bye."""
    round_id = round.pk if isinstance(round, Round) else round
    with transaction.atomic():
        found = Round.objects.filter(pk=round_id).select_related("event").first()
        if found is None:
            raise NotFound(_("no such round"), field="round", code="round_not_found")
        event = _lock(found.event, by)
        if first == second:
            raise EventInvalid(_("name two different players"), field="second", code="same_player")
        current = {t.pk: t for t in selectors.round_tables(found)}
        seats = selectors.seats_of(current.values())
        where = {player: (table, i) for table, players in seats.items() for i, player in enumerate(players)}
        for field, player in (("first", first), ("second", second)):
            if player not in where:
                raise EventInvalid(
                    _("player %(pk)s has no seat in this round") % {"pk": player},
                    field=field,
                    code="not_seated",
                )
        (table_a, seat_a), (table_b, seat_b) = where[first], where[second]
        if table_a == table_b:
            raise EventInvalid(_("the two players sit at the same table"), field="second", code="same_table")
        for table_id in (table_a, table_b):
            match = current[table_id].match
            if match is not None and (match.hand_count or match.status != Match.Status.IN_PROGRESS):
                raise Conflict(
                    _("table %(number)s has started: a swap is only before the first hand")
                    % {"number": current[table_id].number},
                    field="round",
                    code="table_started",
                )
        new_seats = {table_a: list(seats[table_a]), table_b: list(seats[table_b])}
        new_seats[table_a][seat_a], new_seats[table_b][seat_b] = second, first
        now = timezone.now()
        facts = _Seated.read(event, (p for players in new_seats.values() for p in players))
        for table_id in (table_a, table_b):
            old = current[table_id]
            old.replaced_at = now
            old.save(update_fields=["replaced_at"])
            if old.match is not None:
                matches.match_void(match=old.match, by=None, reason=_("seats changed before the round"))
            players = new_seats[table_id]
            if old.bye_id is not None:
                EventTable.objects.create(round=found, number=old.number, bye_id=players[0])
            else:
                EventTable.objects.create(
                    round=found,
                    number=old.number,
                    match=_table_match(event, found, old.number, players, by, facts),
                )
        warnings = swap_warnings(event, found, new_seats)
        _audit(
            event,
            by,
            EventAuditEntry.Action.SWAP,
            {
                "round": found.number,
                "first": first,
                "second": second,
                "warnings": [w["code"] for w in warnings],
            },
        )
    return {"round": found, "warnings": warnings}


def swap_warnings(event: Event, round_: Round, new_seats: dict[int, list[int]]) -> list[dict[str, Any]]:
    """What a swap would break that the pairing had kept: a meeting repeated, a second bye."""
    earlier = selectors.history(event, before=round_.number)
    out = []
    for players in new_seats.values():
        if len(players) == 1 and earlier.byes.get(players[0], 0):
            out.append({"code": "second_bye", "message": _("a player has a second bye"), "players": players})
        for i, a in enumerate(players):
            for b in players[i + 1 :]:
                if earlier.met.get(frozenset((a, b)), 0):
                    out.append(
                        {"code": "repeat_meeting", "message": _("two players meet again"), "players": [a, b]}
                    )
    return out


def table_forfeit(*, table: EventTable | int, places: Sequence[int], by: Any, reason: str) -> EventTable:
    """The director's result for a table not played out: ``places`` in seat order (1 first).
    Its match is voided (it is rated as nothing); the places count in the standings."""
    table_id = table.pk if isinstance(table, EventTable) else table
    reason = (reason or "").strip() if isinstance(reason, str) else ""
    if not reason:
        raise EventInvalid(_("give the reason for the forfeit"), field="reason", code="reason_required")
    with transaction.atomic():
        found = EventTable.objects.filter(pk=table_id).select_related("round__event", "match").first()
        if found is None or found.replaced_at is not None or found.match is None:
            raise NotFound(_("no such table"), field="table", code="table_not_found")
        _lock(found.round.event, by)
        match = found.match
        if found.forfeit is not None or match.status == Match.Status.FINISHED:
            raise Conflict(_("the table has its result"), field="places", code="table_decided")
        seats = match.seat_count
        if (
            not isinstance(places, list | tuple)
            or len(places) != seats
            or not all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= seats for p in places)
        ):
            raise EventInvalid(
                _("give a place from 1 to %(seats)s for each of the %(seats)s seats") % {"seats": seats},
                field="places",
                code="places_invalid",
            )
        if match.status != Match.Status.VOID:
            matches.match_void(match=match, by=None, reason=_("forfeit: %(reason)s") % {"reason": reason})
        found.forfeit = list(places)
        found.forfeit_reason = reason
        found.save(update_fields=["forfeit", "forfeit_reason"])
        _audit(
            found.round.event, by, EventAuditEntry.Action.FORFEIT, {"table": found.pk, "places": list(places)}
        )
    return found


# -- helpers -----------------------------------------------------------------------------
def _lock(event: Event | int, by: Any) -> Event:
    """The event, locked, after the director check; a finished event takes no more writes."""
    pk = event.pk if isinstance(event, Event) else event
    found = Event.objects.select_for_update(of=("self",)).select_related("club").filter(pk=pk).first()
    if found is None:
        raise NotFound(_("no event %(pk)s") % {"pk": pk}, field="event", code="event_not_found")
    require_role(found.club, by, Role.DIRECTOR)
    if found.finished_at is not None:
        raise EventFinished(_("the event is finished"), field="event")
    return found


def _table_size(seat_counts: Sequence[int], format: str, asked: Any) -> int:
    two_sided = format in (Event.Format.SWISS,)
    if asked is None:
        if two_sided:
            asked = 2
        elif format == Event.Format.TABLE_SWISS:
            asked = next((c for c in seat_counts if c >= 3), None)
        else:
            asked = seat_counts[0]
    if not isinstance(asked, int) or isinstance(asked, bool) or asked not in seat_counts:
        raise EventInvalid(
            _("this game seats %(counts)s at a table") % {"counts": ", ".join(map(str, seat_counts))},
            field="table_size",
            code="table_size_invalid",
        )
    if two_sided and asked != 2:
        raise EventInvalid(
            _("a Swiss is for tables of two: use a Swiss at tables"), field="format", code="format_for_two"
        )
    if format == Event.Format.TABLE_SWISS and asked < 3:
        raise EventInvalid(
            _("a Swiss at tables is for 3 to 6 seats: use a Swiss"), field="format", code="format_for_tables"
        )
    return asked


def _number(value: Any, field: str) -> Fraction:
    if isinstance(value, bool) or not isinstance(value, int | float | str):
        raise EventInvalid(_("a number of points, 0 or more"), field=field, code="points_invalid")
    try:
        number = Fraction(str(value)).limit_denominator(1000)
    except (ValueError, ZeroDivisionError):
        raise EventInvalid(_("a number of points, 0 or more"), field=field, code="points_invalid") from None
    if number < 0 or number > 1000:
        raise EventInvalid(_("a number of points from 0 to 1000"), field=field, code="points_invalid")
    return number


def _points(points: Sequence[Any] | None, size: int) -> tuple[Fraction, ...]:
    if points is None:
        return default_points(size)
    if not isinstance(points, list | tuple) or not 1 <= len(points) <= size:
        raise EventInvalid(
            _("give the points of 1 to %(size)s places, first place first") % {"size": size},
            field="points",
            code="points_invalid",
        )
    return tuple(_number(p, f"points[{i}]") for i, p in enumerate(points))


def _tiebreaks(tiebreaks: Sequence[str] | None) -> list[str]:
    if tiebreaks is None:
        return list(DEFAULT_TIEBREAKS)
    if not isinstance(tiebreaks, list | tuple) or len(tiebreaks) > len(TIEBREAKS):
        raise EventInvalid(_("a list of tie-breaks"), field="tiebreaks", code="tiebreak_unknown")
    for i, key in enumerate(tiebreaks):
        if key not in TIEBREAKS:
            raise EventInvalid(
                _("%(key)s is not a tie-break: choose from %(known)s")
                % {"key": key, "known": ", ".join(TIEBREAKS)},
                field=f"tiebreaks[{i}]",
                code="tiebreak_unknown",
            )
    return ["points", *(k for k in dict.fromkeys(tiebreaks) if k != "points")]


def _decimal(value: Fraction) -> str:
    return str(value.numerator) if value.denominator == 1 else f"{float(value):g}"


def _schedule_fixed(event: Event) -> bool:
    return event.format in (Event.Format.ROUND_ROBIN, Event.Format.LEAGUE) and event.table_size == 2


def _round_limit(event: Event, players: Sequence[int]) -> int | None:
    if _schedule_fixed(event):
        full = len(players) - 1 + len(players) % 2
        return min(event.rounds or full, full)
    return event.rounds


def _open_tables(event: Event, active: list[int], tables: Sequence[Sequence[int]] | None) -> list[list[int]]:
    """The director's tables of a club night: entrants only, each once, a game's seat count."""
    if not isinstance(tables, list | tuple) or not tables:
        raise EventInvalid(_("name the players of each table"), field="tables", code="tables_required")
    seat_counts = find_ruleset(event.game).seat_counts
    seen: set[int] = set(selectors.playing_now(event))
    out = []
    for i, table in enumerate(tables):
        if not isinstance(table, list | tuple) or len(table) not in seat_counts:
            raise EventInvalid(
                _("a table of this game seats %(counts)s") % {"counts": ", ".join(map(str, seat_counts))},
                field=f"tables[{i}]",
                code="table_size_invalid",
            )
        for j, player in enumerate(table):
            if player not in active or player in seen:
                raise EventInvalid(
                    _("player %(pk)s is not an entrant, or is seated at a table still playing")
                    % {"pk": player},
                    field=f"tables[{i}][{j}]",
                    code="not_an_entrant",
                )
            seen.add(player)
        out.append(list(table))
    return out


def _paired(event: Event, number: int, active: list[int]) -> tuple[list[list[int]], list[int], int, int]:
    """(tables in seat order, byes, repeat meetings, the fewest possible) for round ``number``."""
    if _schedule_fixed(event):
        schedule = selectors.schedule_players(event) if number > 1 else active
        tables, byes = [], []
        for a, b in pairing.berger(len(schedule))[number - 1]:
            pair = [schedule[n - 1] for n in (a, b) if n <= len(schedule) and schedule[n - 1] in active]
            if len(pair) == 2:
                tables.append(pair)
            byes.extend(pair if len(pair) == 1 else [])
        return tables, byes, 0, 0
    earlier = selectors.history(event, before=number)
    order = earlier.order if number > 1 else _seeded(event, active)
    order = [p for p in order if p in set(active)]
    if event.table_size == 2:
        round_ = pairing.swiss(order, earlier.points, met=earlier.met, byes=earlier.byes)
        byes = [round_.bye] if round_.bye is not pairing.BYE else []
        return [list(pair) for pair in round_.pairs], byes, round_.repeats, 0
    ruleset = find_ruleset(event.game)
    # Tables as even as can be, from three seats up; a partnership game's tables are all full.
    least = (
        min(c for c in ruleset.seat_counts if c >= 3) if ruleset.partnerships is None else event.table_size
    )
    sizes = pairing.table_sizes(len(order), event.table_size, least)
    seating = pairing.tables(order, event.table_size, met=earlier.met, sizes=sizes)
    seated = [_seats_within(event, number, i, list(t)) for i, t in enumerate(seating.tables, start=1)]
    return seated, [], seating.repeats, seating.lower_bound


def _seeded(event: Event, active: list[int]) -> list[int]:
    """Round one's order: by rating at the start, the highest first, then the entry order."""
    ratings = dict(event.entrants.filter(withdrawn_at__isnull=True).values_list("player_id", "rating"))
    return sorted(active, key=lambda p: -(ratings.get(p) or 0))


def _seats_within(event: Event, number: int, table: int, players: list[int]) -> list[int]:
    """Seats at a table: drawn (seeded by the event, the round and the table) or rotated one
    seat a round."""
    if event.seating == Event.Seating.ROTATE:
        shift = (number - 1) % len(players)
        return players[shift:] + players[:shift]
    random.Random(f"{event.seed}:{number}:{table}").shuffle(players)
    return players


@dataclass(frozen=True)
class _Seated:
    """What the matches of a round's tables need to know of their players, read once a round:
    who is on the club's roster (the others play as guests), and their own accounts (the
    scorers of their tables)."""

    on_roster: frozenset[int]
    accounts: dict[int, Any]

    @classmethod
    def read(cls, event: Event, players: Iterable[int]) -> _Seated:
        players = list(players)
        roster = ClubPlayer.objects.filter(club=event.club, player__in=players, guest=False)
        accounts = get_user_model().objects.filter(player__pk__in=players).select_related("player")
        return cls(
            frozenset(roster.values_list("player_id", flat=True)), {user.player.pk: user for user in accounts}
        )


def _table_match(
    event: Event, round_: Round, number: int, players: Sequence[int], by: Any, seated: _Seated
) -> Match:
    return matches.match_create(
        game=event.game,
        players=list(players),
        by=by,
        club=event.club,
        title=_("%(event)s · round %(round)s · table %(table)s")
        % {"event": event.name, "round": round_.number, "table": number},
        scorers=[seated.accounts[p] for p in players if p in seated.accounts],
        guests=[p for p in players if p not in seated.on_roster],
    )


def _user_or_none(by: Any) -> Any:
    return by if getattr(by, "is_authenticated", False) else None


def _audit(event: Event, by: Any, action: str, payload: dict[str, Any]) -> None:
    EventAuditEntry.objects.create(event=event, actor=_user_or_none(by), action=action, payload=payload)
