"""``/api/v1/clubs/<slug>/events`` and ``/api/v1/events/<id>``: a club's events (issue 34), their
entrants, rounds, swaps before a round starts, forfeits, the end, and the live standings.

An event is seen only where its club is (``Event.objects`` keeps to the clubs the viewer may
see): any other id is a 404 ``event_not_found``, a private club's list a 404 ``club_not_found``.
Every write is a service of ``scorekeeper.events.services``, which takes the club's director
role (403 ``club_role_required``; signed out, 401). The standings answer with the ETag of
``selectors.live_tag`` and a 304 to a matching ``If-None-Match``, so a live page may poll them.
Points are exact fractions in the services: here a number, whole when it is one, else rounded
to four places.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from django.db.models import Count, Q
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.clubs.selectors import club_seen
from scorekeeper.errors import NotFound
from scorekeeper.events import selectors, services
from scorekeeper.events.models import Entrant, Event, EventTable, Round
from scorekeeper.events.standings import TIEBREAKS
from scorekeeper.matches.models import Match, Player
from scorekeeper.matches.selectors import running_values

from . import schema
from .bodies import MAX_ID, BodySerializer, GameField, _valid
from .idempotency import idempotent

#: The most seats at a table of any game, and so the most places and points a table has.
MOST_SEATS = 16
#: A league's fixtures are a week apart, up to ``MAX_ROUNDS`` of them: its first day leaves room.


def number(value: Any) -> int | float | None:
    """A point count as JSON: exact when whole, else to four places (None: not a number)."""
    if value is None or isinstance(value, bool):
        return None
    if isinstance(value, Fraction):
        return int(value) if value.denominator == 1 else round(float(value), 4)
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        if not math.isfinite(value):
            return None
        return int(value) if value.is_integer() else round(value, 4)
    try:
        return number(Fraction(str(value)))
    except (ValueError, ZeroDivisionError):
        return None


# -- request bodies --------------------------------------------------------------------------
class PointsField(serializers.FloatField):
    """A number of points as JSON sends it (an integer or a decimal, not a string), 0 to 1000."""

    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", 1000)
        super().__init__(**kwargs)

    def to_internal_value(self, data):
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        super().to_internal_value(data)  # the bounds
        return data


class EventCreateSerializer(BodySerializer):
    name = serializers.CharField(max_length=120)
    game = GameField()
    format = serializers.ChoiceField(
        Event.Format.values,
        help_text=gettext_lazy(
            "open: a club night, the director seats each table; round_robin; swiss (tables of two); "
            "table_swiss (tables of three or more); league (a round robin, a round a week)"
        ),
    )
    rounds = serializers.IntegerField(
        min_value=1,
        max_value=services.MAX_ROUNDS,
        required=False,
        allow_null=True,
        help_text=gettext_lazy("the rounds to play (a Swiss needs them; a club night has none)"),
    )
    points = serializers.ListField(
        child=PointsField(),
        min_length=1,
        max_length=MOST_SEATS,
        required=False,
        help_text=gettext_lazy("event points by place, first place first (at most one a seat)"),
    )
    tiebreaks = serializers.ListField(
        child=serializers.ChoiceField(list(TIEBREAKS)),
        max_length=len(TIEBREAKS),
        required=False,
        help_text=gettext_lazy("the tie-breaks in order (points always first)"),
    )
    table_size = serializers.IntegerField(
        min_value=2,
        max_value=MOST_SEATS,
        required=False,
        help_text=gettext_lazy("the seats at a table, one of the game's seat counts"),
    )
    bye_points = PointsField(required=False, help_text=gettext_lazy("what a bye is worth"))
    seating = serializers.ChoiceField(Event.Seating.values, required=False)
    seed = serializers.IntegerField(
        min_value=0,
        max_value=2**31 - 1,
        required=False,
        help_text=gettext_lazy("the seed of every drawing; left out, drawn"),
    )
    starts_on = serializers.DateField(
        required=False,
        allow_null=True,
        help_text=gettext_lazy("a league's first fixture day (left out: today), from 1900 to 9000"),
    )


class EntrantAddSerializer(BodySerializer):
    player = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=gettext_lazy("a player id"))


class RoundPairSerializer(BodySerializer):
    tables = serializers.ListField(
        child=serializers.ListField(
            child=serializers.IntegerField(min_value=1, max_value=MAX_ID), min_length=1, max_length=MOST_SEATS
        ),
        min_length=1,
        max_length=services.MAX_ENTRANTS,
        required=False,
        help_text=gettext_lazy(
            "a club night only: the players of each table, in seat order; the other formats pair "
            "by their system"
        ),
    )


class SwapSerializer(BodySerializer):
    first = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=gettext_lazy("a player id"))
    second = serializers.IntegerField(min_value=1, max_value=MAX_ID, help_text=gettext_lazy("a player id"))


class ForfeitSerializer(BodySerializer):
    places = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MOST_SEATS),
        min_length=1,
        max_length=MOST_SEATS,
        help_text=gettext_lazy("each seat's place, in seat order (1 first)"),
    )
    reason = serializers.CharField(max_length=2000, help_text=gettext_lazy("why (kept in the audit log)"))


# -- answers ---------------------------------------------------------------------------------
class EventSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    club = serializers.CharField(source="club.slug", help_text=gettext_lazy("its club's slug"))
    name = serializers.CharField()
    game = serializers.CharField()
    format = serializers.ChoiceField(Event.Format.values)
    rounds = serializers.IntegerField(allow_null=True)
    table_size = serializers.IntegerField()
    points = serializers.SerializerMethodField()
    bye_points = serializers.SerializerMethodField()
    tiebreaks = serializers.ListField(child=serializers.CharField())
    seating = serializers.ChoiceField(Event.Seating.values)
    seed = serializers.IntegerField()
    starts_on = serializers.DateField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    rounds_played = serializers.SerializerMethodField(
        help_text=gettext_lazy("the rounds paired and no longer being played")
    )
    current_round = serializers.SerializerMethodField(
        help_text=gettext_lazy("the round being played; null: none")
    )
    entrants = serializers.SerializerMethodField(help_text=gettext_lazy("the entrants not withdrawn"))

    @extend_schema_field(serializers.ListField(child=serializers.FloatField()))
    def get_points(self, event) -> list:
        return [number(p) for p in event.points]

    @extend_schema_field(serializers.FloatField())
    def get_bye_points(self, event):
        return number(event.bye_points)

    def _open(self, event) -> Round | None:
        opens = self.__dict__.setdefault("_opens", {})
        if event.pk not in opens:
            opens[event.pk] = selectors.open_round(event)
        return opens[event.pk]

    def get_rounds_played(self, event) -> int:
        paired = getattr(event, "round_count", None)
        paired = paired if paired is not None else event.round_set.count()
        return paired - (1 if self._open(event) is not None else 0)

    def get_current_round(self, event) -> int | None:
        current = self._open(event)
        return current.number if current is not None else None

    def get_entrants(self, event) -> int:
        counted = getattr(event, "entrant_count", None)
        return counted if counted is not None else event.entrants.filter(withdrawn_at__isnull=True).count()


class EntrantSerializer(serializers.Serializer):
    player = serializers.IntegerField(source="player_id")
    name = serializers.CharField(source="player.name")
    rating = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("the rating at the start"))
    entered_at = serializers.DateTimeField()
    withdrawn_at = serializers.DateTimeField(allow_null=True)


class TableSerializer(serializers.Serializer):
    table = serializers.IntegerField(help_text=gettext_lazy("the table's number"))
    players = serializers.ListField(
        child=serializers.IntegerField(), help_text=gettext_lazy("player ids in seat order")
    )
    match = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("its match; null: a bye"))
    bye = serializers.BooleanField()
    forfeit = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=gettext_lazy("the places the director gave, in seat order; null: none"),
    )
    done = serializers.BooleanField(help_text=gettext_lazy("decided: finished, void, forfeited or a bye"))
    status = serializers.ChoiceField(
        Match.Status.choices, allow_null=True, help_text=gettext_lazy("its match's status; null: a bye")
    )
    totals = serializers.ListField(
        child=serializers.JSONField(),
        allow_null=True,
        help_text=gettext_lazy("its match's running totals, a seat each; null: none"),
    )


class RoundSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    repeats = serializers.IntegerField(
        help_text=gettext_lazy("the repeat meetings the pairing could not avoid")
    )
    repeats_bound = serializers.IntegerField(help_text=gettext_lazy("the fewest any pairing could have"))
    scheduled_for = serializers.DateField(allow_null=True, help_text=gettext_lazy("a league's fixture day"))
    tables = TableSerializer(many=True)

    def to_representation(self, instance):
        return round_answer(instance)


class WarningSerializer(serializers.Serializer):
    code = serializers.ChoiceField(["repeat_meeting", "second_bye"])
    message = serializers.CharField()
    players = serializers.ListField(child=serializers.IntegerField())


class SwapAnswerSerializer(RoundSerializer):
    warnings = WarningSerializer(
        many=True, help_text=gettext_lazy("what the swap breaks that the pairing kept")
    )


class StandingSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text=gettext_lazy("equal for players no tie-break parts"))
    player = serializers.IntegerField()
    name = serializers.CharField()
    values = serializers.DictField(
        child=serializers.FloatField(allow_null=True),
        help_text=gettext_lazy("each tie-break's value by its key (head_to_head: only among the tied)"),
    )


class StandingsSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    final = serializers.BooleanField(help_text=gettext_lazy("the event is finished"))
    tiebreaks = serializers.ListField(child=serializers.CharField())
    rows = StandingSerializer(many=True)


class ReportStandingSerializer(StandingSerializer):
    rating_change = serializers.IntegerField(
        allow_null=True,
        help_text=gettext_lazy(
            "his displayed rating change over the event's rated matches (null: none rated)"
        ),
    )


class ReportTableSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    table = serializers.IntegerField()
    match = serializers.IntegerField(allow_null=True, help_text=gettext_lazy("null: a bye"))
    players = serializers.ListField(child=serializers.IntegerField(), help_text=gettext_lazy("in seat order"))
    places = serializers.ListField(
        child=serializers.IntegerField(),
        allow_null=True,
        help_text=gettext_lazy("in seat order, 1 first (a forfeit's given places); null: not decided"),
    )
    game_points = serializers.ListField(
        child=serializers.FloatField(),
        allow_null=True,
        help_text=gettext_lazy("the match totals, in seat order"),
    )


class ReportSerializer(serializers.Serializer):
    event = serializers.IntegerField()
    final = serializers.BooleanField(help_text=gettext_lazy("the event is finished"))
    tiebreaks = serializers.ListField(child=serializers.CharField())
    standings = ReportStandingSerializer(many=True)
    tables = ReportTableSerializer(many=True)


_date = serializers.DateField().to_representation


def round_answer(round_: Round) -> dict[str, Any]:
    """A round with its current tables, each with its players in seat order and its match."""
    tables = selectors.round_tables(round_)
    seats = selectors.seats_of(tables)
    return {
        "number": round_.number,
        "repeats": round_.repeats,
        "repeats_bound": round_.repeats_bound,
        "scheduled_for": _date(round_.scheduled_for) if round_.scheduled_for else None,
        "tables": [_table(t, seats[t.pk]) for t in tables],
    }


def _table(table: EventTable, players: list[int]) -> dict[str, Any]:
    match = table.match
    totals = running_values(match.state) if match is not None else None
    return {
        "table": table.number,
        "players": players,
        "match": table.match_id,
        "bye": table.bye_id is not None,
        "forfeit": list(table.forfeit) if isinstance(table.forfeit, list) else None,
        "done": selectors.table_done(table),
        "status": str(match.status) if match is not None else None,
        "totals": totals if isinstance(totals, list) else None,
    }


# -- lookups ---------------------------------------------------------------------------------
def _event(pk: int) -> Event:
    """The event ``pk`` if its club is one the viewer may see (the manager's scope)."""
    found = Event.objects.filter(pk=pk).select_related("club").first() if pk <= MAX_ID else None
    if found is None:
        raise NotFound(_("no event %(pk)s") % {"pk": pk}, field="event", code="event_not_found")
    return found


def _round(event: Event, number: int) -> Round:
    found = event.round_set.filter(number=number).first() if number <= 2**15 else None
    if found is None:
        raise NotFound(_("no round %(number)s") % {"number": number}, field="round", code="round_not_found")
    return found


def _events(queryset):
    return queryset.annotate(
        entrant_count=Count("entrants", filter=Q(entrants__withdrawn_at__isnull=True), distinct=True),
        round_count=Count("round_set", distinct=True),
    ).order_by("-created_at", "-id")  # a query that aggregates keeps no Meta.ordering


def _event_answer(event: Event) -> dict[str, Any]:
    return EventSerializer(_events(Event.objects.filter(pk=event.pk)).select_related("club").get()).data


_WRITE = schema.errors(*schema.WRITE_ERRORS, 404, 409)


# -- views -----------------------------------------------------------------------------------
class ClubEvents(generics.GenericAPIView):
    serializer_class = EventSerializer

    @extend_schema(
        summary=gettext_lazy("A club's events, newest first"),
        responses={200: EventSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request, slug: str):
        club = club_seen(slug, request.user)
        page = self.paginate_queryset(_events(selectors.events_of(club)))
        return self.get_paginated_response(EventSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Make an event of the club (its directors)"),
        request=EventCreateSerializer,
        responses={201: EventSerializer, **schema.errors(*schema.WRITE_ERRORS, 404)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, slug: str):
        club = club_seen(slug, request.user)
        data = _valid(EventCreateSerializer, request.data)
        event = services.event_create(club=club, by=request.user, **data)
        location = reverse("api:event-detail", args=[event.pk], request=request)
        return Response(_event_answer(event), status=status.HTTP_201_CREATED, headers={"Location": location})


class EventDetail(APIView):
    @extend_schema(summary=gettext_lazy("An event"), responses={200: EventSerializer, **schema.errors(404)})
    def get(self, request, pk: int):
        return Response(_event_answer(_event(pk)))


class EventEntrants(generics.GenericAPIView):
    serializer_class = EntrantSerializer

    @extend_schema(
        summary=gettext_lazy("An event's entrants, in entry order (the withdrawn too)"),
        responses={200: EntrantSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request, pk: int):
        page = self.paginate_queryset(selectors.entrants(_event(pk)))
        return self.get_paginated_response(EntrantSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Enter a player (its directors)"),
        request=EntrantAddSerializer,
        responses={201: EntrantSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        event = _event(pk)
        data = _valid(EntrantAddSerializer, request.data)
        entrant = services.entrant_add(event=event, player=data["player"], by=request.user)
        entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
        return Response(EntrantSerializer(entrant).data, status=status.HTTP_201_CREATED)


class EntrantWithdraw(APIView):
    @extend_schema(
        summary=gettext_lazy("Withdraw an entrant: he is paired no more (its directors)"),
        request=None,
        responses={200: EntrantSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int, player: int):
        event = _event(pk)
        if player > MAX_ID:
            raise NotFound(_("the player is not entered"), field="player", code="entrant_not_found")
        entrant = services.entrant_withdraw(event=event, player=player, by=request.user)
        entrant = Entrant.objects.select_related("player").get(pk=entrant.pk)
        return Response(EntrantSerializer(entrant).data)


class EventRounds(generics.GenericAPIView):
    serializer_class = RoundSerializer

    @extend_schema(
        summary=gettext_lazy("An event's rounds, the first first"),
        responses={200: RoundSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request, pk: int):
        page = self.paginate_queryset(selectors.rounds(_event(pk)))
        return self.get_paginated_response([round_answer(r) for r in page or ()])

    @extend_schema(
        summary=gettext_lazy("Pair and start the next round (its directors)"),
        description=gettext_lazy(
            "A Swiss, a round robin or a league pairs by its system (409 `round_open` while the "
            "round before is played, `rounds_done` after the last; 400 `too_few_entrants`); a club "
            "night takes the director's `tables`."
        ),
        request=RoundPairSerializer,
        responses={201: RoundSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        event = _event(pk)
        data = _valid(RoundPairSerializer, request.data)
        round_ = services.round_pair(event=event, by=request.user, tables=data.get("tables"))
        location = reverse("api:event-round", args=[event.pk, round_.number], request=request)
        return Response(round_answer(round_), status=status.HTTP_201_CREATED, headers={"Location": location})


class EventRound(APIView):
    @extend_schema(
        summary=gettext_lazy("A round: its tables, their matches and running totals"),
        responses={200: RoundSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int, number: int):
        return Response(round_answer(_round(_event(pk), number)))


class RoundSwap(APIView):
    @extend_schema(
        summary=gettext_lazy("Swap two players of a round before their tables start (its directors)"),
        request=SwapSerializer,
        responses={200: SwapAnswerSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int, number: int):
        round_ = _round(_event(pk), number)
        data = _valid(SwapSerializer, request.data)
        done = services.round_swap(round=round_, first=data["first"], second=data["second"], by=request.user)
        return Response({**round_answer(done["round"]), "warnings": done["warnings"]})


class TableForfeit(APIView):
    @extend_schema(
        summary=gettext_lazy("Give a table not played out its places (its directors)"),
        request=ForfeitSerializer,
        responses={200: RoundSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int, number: int, table: int):
        round_ = _round(_event(pk), number)
        data = _valid(ForfeitSerializer, request.data)
        found = (
            round_.tables.filter(number=table, replaced_at__isnull=True).first() if table < 2**15 else None
        )
        if found is None:
            raise NotFound(_("no such table"), field="table", code="table_not_found")
        services.table_forfeit(table=found, places=data["places"], reason=data["reason"], by=request.user)
        return Response(round_answer(round_))


class EventFinish(APIView):
    @extend_schema(
        summary=gettext_lazy("Finish the event: its standings are final (its directors)"),
        request=None,
        responses={200: EventSerializer, **_WRITE},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        event = services.event_finish(event=_event(pk), by=request.user)
        return Response(_event_answer(event))


IF_NONE_MATCH = OpenApiParameter(
    "If-None-Match",
    type=str,
    location=OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy("the ETag of standings seen before: 304 while they are the same"),
)


def _etag_matches(header: str | None, etag: str) -> bool:
    if header is None:
        return False
    tags = [t.strip(" \t").removeprefix("W/") for t in header.split(",")]
    return "*" in tags or etag in tags


class EventStandings(APIView):
    @extend_schema(
        summary=gettext_lazy("An event's standings now, by its tie-breaks"),
        description=gettext_lazy(
            "Read from its matches as they are played. The `ETag` changes with every hand, entry, "
            "round, swap and forfeit: send it back as `If-None-Match` for a 304 while nothing did."
        ),
        parameters=[IF_NONE_MATCH],
        responses={
            200: StandingsSerializer,
            304: OpenApiResponse(description=gettext_lazy("Not modified: the standings of that ETag")),
            **schema.errors(404),
        },
    )
    def get(self, request, pk: int):
        event = _event(pk)
        etag = f'"{selectors.live_tag(event)}"'
        headers = {"ETag": etag, "Cache-Control": "no-cache"}
        if _etag_matches(request.headers.get("If-None-Match"), etag):
            return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
        rows = selectors.standings(event)
        body = {**_heading(event), "rows": _standing_rows(rows)}
        return Response(body, headers=headers)


class EventReport(APIView):
    @extend_schema(
        summary=gettext_lazy("An event's report: the standings, every table's result, the rating changes"),
        description=gettext_lazy(
            "What the printed report shows: the standings with every tie-break's value and each "
            "player's rating change over the event, and every table of every round with its places."
        ),
        responses={200: ReportSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int):
        event = _event(pk)
        report = selectors.report(event)
        standings = [
            {**row, "rating_change": report.changes.get(row["player"])}
            for row in _standing_rows(report.standings)
        ]
        tables = [
            {
                "round": number,
                "table": table,
                "match": match,
                "players": players,
                "places": [places[p] for p in players] if places else None,
                "game_points": [number_of(points.get(p, 0)) for p in players] if points else None,
            }
            for number, table, players, places, points, match in report.played.rows
        ]
        return Response({**_heading(event), "standings": standings, "tables": tables})


def _heading(event: Event) -> dict[str, Any]:
    return {"event": event.pk, "final": event.finished_at is not None, "tiebreaks": list(event.tiebreaks)}


def _standing_rows(rows) -> list[dict[str, Any]]:
    names = dict(Player.objects.filter(pk__in=[r.player for r in rows]).values_list("pk", "name"))
    return [
        {
            "rank": row.rank,
            "player": row.player,
            "name": names.get(row.player, ""),
            "values": {key: number(value) for key, value in row.values.items()},
        }
        for row in rows
    ]


def number_of(value: Any) -> int | float:
    found = number(value)
    return 0 if found is None else found
