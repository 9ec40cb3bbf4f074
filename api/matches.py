"""``/api/v1/matches``: the matches (list with filters, start, the score sheet), their scorers,
void and reopen; and the match version every write to a match takes (body ``version`` or
``If-Match``) and answers with (body ``version`` and the ``ETag`` header).

The views are thin adapters from HTTP to the selectors (reads) and services (writes). Every
POST goes through ``@idempotent`` (the Idempotency-Key header). Errors are raised, never
returned: ``api.exceptions.exception_handler`` renders them all in one shape.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.clubs.selectors import club_seen
from scorekeeper.matches import errors, selectors, services
from scorekeeper.matches.models import HandConfirmation, Match, Seat
from scorekeeper.matches.selectors import match_score_sheet, running_values
from scorekeeper.rules import RULESETS
from scorekeeper.rules.options import PRESETS

from . import schema
from .bodies import MAX_ID, BodySerializer, GameField, PlayerIdsField, VersionField, _fail, _valid
from .evaluation import MismatchSerializer, ProblemSerializer
from .idempotency import idempotent


class SeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "player", "name", "team"]


class MatchSerializer(serializers.ModelSerializer):
    club: serializers.SlugRelatedField = serializers.SlugRelatedField(
        slug_field="slug", read_only=True, help_text=gettext_lazy("its club's slug")
    )
    seats = SeatSerializer(many=True, read_only=True)
    created_by = serializers.SerializerMethodField()
    scorers = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
            "club",
            "game",
            "preset",
            "options",
            "title",
            "status",
            "version",
            "seats",
            "totals",
            "result",
            "created_by",
            "scorers",
            "created_at",
            "updated_at",
            "confirmed_at",
            "played_at",
        ]

    def get_created_by(self, match) -> str | None:
        return match.created_by.get_username() if match.created_by else None

    def get_scorers(self, match) -> list[str]:
        return sorted(u.get_username() for u in match.scorers.all())

    @extend_schema_field(serializers.ListField(child=serializers.JSONField(), allow_null=True))
    def get_totals(self, match):
        return running_values(match.state)


class MatchCreateSerializer(BodySerializer):
    game = GameField()
    club = serializers.SlugField(
        required=False,
        help_text=gettext_lazy("the club it is played in (its scorer role); left out, the home club"),
    )
    guests = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        max_length=16,
        required=False,
        help_text=gettext_lazy("the players among `players` who are not the club's, seated as its guests"),
    )
    preset = serializers.ChoiceField(
        PRESETS,
        required=False,
        help_text=gettext_lazy("left out: the club's house preset for the game, else classic"),
    )
    options = serializers.DictField(default=dict, help_text=gettext_lazy("overrides of the preset's values"))
    players = PlayerIdsField()
    teams = serializers.ListField(
        child=serializers.IntegerField(min_value=0, max_value=16),
        max_length=16,
        required=False,
        allow_null=True,
        help_text=gettext_lazy(
            "partnership games only: the team of each seat, which the rules fix (the game's "
            "`partnerships`; piquet-voleur: [0, 1, 0, 1]); may be left out"
        ),
    )
    title = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    played_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text=gettext_lazy(
            "for a score sheet entered afterwards: when the match was played (not in the future; "
            "`played_at_future`). Left out, it was played when its last hand is recorded. The "
            "ratings rate a pool's matches in the order they were played"
        ),
    )


class MatchFilterSerializer(serializers.Serializer):
    game = GameField(required=False)
    status = serializers.ChoiceField(Match.Status.values, required=False)
    player = serializers.IntegerField(
        required=False, min_value=1, max_value=MAX_ID, help_text=gettext_lazy("a player id")
    )
    club = serializers.SlugField(required=False, help_text=gettext_lazy("a club's slug: its matches only"))
    date = serializers.DateField(required=False, help_text=gettext_lazy("created on this day (UTC)"))
    date_from = serializers.DateField(
        required=False, help_text=gettext_lazy("created on or after this day (UTC)")
    )
    date_to = serializers.DateField(
        required=False, help_text=gettext_lazy("created on or before this day (UTC)")
    )

    def to_internal_value(self, data):
        # A query's integer in ASCII digits only, as the schema's `integer` (DRF's field would
        # also read " 5", "5.0" and "٥").
        raw = data.get("player") if isinstance(data, Mapping) else None
        if isinstance(raw, str) and not (raw.isascii() and raw.isdigit()):
            raise serializers.ValidationError({"player": _fail(self.fields["player"], "invalid")})
        return super().to_internal_value(data)

    def validate_game(self, value):
        # Like ``status``, a choice: a game the site does not know is a 400, not an empty list.
        # Checked against the registry when asked, not frozen as choices when this is imported.
        if value and value not in RULESETS:
            known = ", ".join(sorted(RULESETS))
            raise serializers.ValidationError(
                _('"%(value)s" is not a valid choice; the games are %(games)s')
                % {"value": value[:40], "games": known},
                code="invalid_choice",
            )
        return value

    def validate(self, attrs):
        start, end = attrs.get("date_from"), attrs.get("date_to")
        if start and end and start > end:
            raise serializers.ValidationError(
                {"date_to": _("must not be before date_from")}, code="date_range"
            )
        return attrs


#: A hand version's state of confirmation (``ConfirmationEnum`` in the schema).
CONFIRMATION_STATES = ["waiting", *HandConfirmation.Answer.values]


def _confirmation_fields() -> tuple[serializers.Field, ...]:
    """The other side's word on one hand version, as ``selectors`` gives it (a score sheet's row,
    or a hand from ``selectors.hands_answered``): the same fields, and so one ``ConfirmationEnum``,
    wherever the API shows a hand."""
    return (
        serializers.ChoiceField(
            CONFIRMATION_STATES,
            help_text=gettext_lazy(
                "the other side's word on this version: confirmed, disputed or still waiting"
            ),
        ),
        serializers.CharField(
            allow_null=True, help_text=gettext_lazy("the player of the other side who answered")
        ),
        serializers.BooleanField(help_text=gettext_lazy("answered on the scorer's device at the table")),
        serializers.CharField(allow_blank=True, help_text=gettext_lazy("why it is disputed")),
    )


class ScoreSheetHandSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    dealer = serializers.IntegerField(allow_null=True)
    status = serializers.CharField()
    declared = serializers.JSONField(allow_null=True)
    computed = serializers.JSONField(allow_null=True)
    running = serializers.JSONField(
        allow_null=True, help_text=gettext_lazy("totals (cul: banks) after the hand")
    )
    accepted_declared = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    errors = ProblemSerializer(many=True)  # type: ignore[assignment]  # a field, not Serializer.errors
    mismatches = MismatchSerializer(many=True)
    warnings = ProblemSerializer(many=True)
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField()
    confirmation, confirmed_by, confirmed_at_table, dispute_reason = _confirmation_fields()


class MatchDetailSerializer(MatchSerializer):
    """The score sheet: every current hand with declared and computed scores and running totals."""

    hands = serializers.SerializerMethodField()
    state = serializers.JSONField(read_only=True, allow_null=True)

    class Meta(MatchSerializer.Meta):
        fields = [*MatchSerializer.Meta.fields, "state", "hands"]

    @extend_schema_field(ScoreSheetHandSerializer(many=True))
    def get_hands(self, match):
        return ScoreSheetHandSerializer(match_score_sheet(match=match)["hands"], many=True).data


class MatchStateSerializer(serializers.Serializer):
    """A match after a write: what a client needs to go on (the version to send next)."""

    # Plain fields, as a ModelSerializer would derive them from Match (the same schema): a
    # ModelSerializer builds its fields anew from the model for every instance, a cost paid
    # by every write's answer.
    id = serializers.IntegerField(read_only=True, label="ID")
    # Always sent, so required in the schema (a generated client's model has no Unset for them).
    status = serializers.ChoiceField(Match.Status.choices)
    version = serializers.IntegerField(
        min_value=0, max_value=MAX_ID, help_text=Match._meta.get_field("version").help_text
    )
    totals = serializers.SerializerMethodField()
    state = serializers.JSONField(allow_null=True, help_text=Match._meta.get_field("state").help_text)
    result = serializers.JSONField(allow_null=True, help_text=Match._meta.get_field("result").help_text)

    @extend_schema_field(serializers.ListField(child=serializers.JSONField(), allow_null=True))
    def get_totals(self, match):
        return running_values(match.state)

    def to_representation(self, instance):
        # Written out, as ``api.hands.hand_answer`` (tests/api/test_answer_writing.py).
        return match_state_answer(instance)


def match_state_answer(match: Match) -> dict[str, Any]:
    """``MatchStateSerializer``'s answer for ``match``, written out as its fields give it."""
    return {
        "id": int(match.id),
        "status": str(match.status),
        "version": int(match.version),
        "totals": running_values(match.state),
        "state": match.state,
        "result": match.result,
    }


#: A timestamp as the API writes it (DRF's ``DateTimeField``: ISO 8601 in the current zone, UTC
#: as ``Z``), for the answers written out without their serializer's fields.
_at = serializers.DateTimeField().to_representation


class ScorerAddSerializer(BodySerializer):
    username = serializers.CharField(
        max_length=150, help_text=gettext_lazy("the user who may score this match too")
    )


class ScorersSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    scorers = serializers.ListField(child=serializers.CharField())


class ReasonSerializer(BodySerializer):
    reason = serializers.CharField(max_length=2000, help_text=gettext_lazy("why (kept in the audit log)"))
    version = VersionField()


def _version(request, body_version: int | None, *, required: bool) -> int | None:
    """The version the client last saw, from the body or the If-Match header."""
    header = request.headers.get("If-Match")
    header_version = None if header is None else _if_match_version(header)
    if body_version is not None and header_version is not None and body_version != header_version:
        raise errors.Invalid(
            _("version %(body)s and If-Match %(header)s disagree")
            % {"body": body_version, "header": header_version},
            field="version",
            code="version_ambiguous",
        )
    version = body_version if body_version is not None else header_version
    if version is None and required:
        raise errors.Invalid(
            _(
                "send the match version you last saw (body `version` or If-Match), so that two devices "
                "recording at once cannot both succeed"
            ),
            field="version",
            code="version_required",
        )
    return version


#: One ETag (``"3"``, or weak ``W/"3"``) or a bare number (``3``, read as the ETag it stands for,
#: as it always was), within HTTP's optional whitespace: the schema's pattern (api/schema.py).
_IF_MATCH = re.compile(r'(?:W/)?"([0-9]{1,10})"|([0-9]{1,10})')


def _if_match_version(header: str) -> int:
    """The match version an If-Match header names."""
    found = _IF_MATCH.fullmatch(header.strip(" \t"))
    if found is None:
        raise errors.Invalid(
            _('If-Match must be a match version such as "3"'), field="If-Match", code="if_match_invalid"
        )
    return int(found[1] or found[2])


def _etag(match: Match) -> dict[str, str]:
    return {"ETag": f'"{match.version}"'}


def _match(pk: int) -> Match:
    return get_object_or_404(selectors.match_list(), pk=pk)


class MatchList(generics.GenericAPIView):
    serializer_class = MatchSerializer

    @extend_schema(
        summary=gettext_lazy("Matches, newest first"),
        parameters=[MatchFilterSerializer],
        responses={200: MatchSerializer(many=True), **schema.errors(400, 404)},
    )
    def get(self, request):
        # A plain dict, not the QueryDict: DRF reads an empty value in a form (``?status=``) as
        # none given, where the schema calls it invalid; here it is refused like any other.
        filters = _valid(MatchFilterSerializer, request.query_params.dict())
        day = filters.get("date")
        club = club_seen(filters["club"], request.user) if filters.get("club") else None
        matches = selectors.match_list(
            club=club,
            game=filters.get("game") or None,
            status=filters.get("status"),
            player=filters.get("player"),
            created_from=day or filters.get("date_from"),
            created_to=day or filters.get("date_to"),
        )
        page = self.paginate_queryset(matches)
        return self.get_paginated_response(MatchSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Start a match (signed in; you become its first scorer)"),
        request=MatchCreateSerializer,
        responses={201: MatchSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(MatchCreateSerializer, request.data)
        match = services.match_create(
            game=data["game"],
            players=data["players"],
            by=request.user,
            preset=data.get("preset"),
            options=data["options"],
            club=club_seen(data["club"], request.user) if data.get("club") else None,
            guests=data.get("guests") or (),
            teams=data.get("teams"),
            title=data["title"],
            played_at=data["played_at"],
        )
        match = _match(match.pk)
        headers = {**_etag(match), "Location": reverse("api:match-detail", args=[match.pk], request=request)}
        return Response(MatchSerializer(match).data, status=status.HTTP_201_CREATED, headers=headers)


class MatchDetail(APIView):
    @extend_schema(
        summary=gettext_lazy("The score sheet"),
        description=gettext_lazy(
            "Every current hand with declared and computed scores and the running totals (cul: "
            "banks) after it, the totals, the state and the result once the match is over. "
            "The `ETag` header is the version."
        ),
        responses={200: MatchDetailSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int):
        match = _match(pk)
        return Response(MatchDetailSerializer(match).data, headers=_etag(match))


class MatchScorers(APIView):
    @extend_schema(
        summary=gettext_lazy("Let another user score this match (scorers only)"),
        request=ScorerAddSerializer,
        responses={201: ScorersSerializer, **schema.errors(*schema.WRITE_ERRORS, 404)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int):
        data = _valid(ScorerAddSerializer, request.data)
        user = selectors.user_by_username(username=data["username"])
        if user is None:
            raise errors.UserUnknown(
                _("there is no user '%(name)s'") % {"name": data["username"]}, field="username"
            )
        match = services.match_scorer_add(match=pk, user=user, by=request.user)
        scorers = sorted(u.get_username() for u in match.scorers.all())
        return Response({"match": match.pk, "scorers": scorers}, status=status.HTTP_201_CREATED)


class _MatchStatusChange(APIView):
    #: The service that changes the match's status (a subclass names it).
    service: Callable[..., Match]
    summary = ""

    def post(self, request, pk: int):
        data = _valid(ReasonSerializer, request.data)
        version = _version(request, data.get("version"), required=False)
        match = type(self).service(match=pk, by=request.user, reason=data["reason"], version=version)
        match = _match(match.pk)
        return Response(MatchSerializer(match).data, headers=_etag(match))


_STATUS_SCHEMA: schema.WriteSchema = {
    "request": ReasonSerializer,
    "responses": {200: MatchSerializer, **schema.errors(*schema.WRITE_ERRORS, 404, 409)},
    "parameters": [schema.IDEMPOTENCY_KEY, schema.IF_MATCH],
}


class MatchVoid(_MatchStatusChange):
    service = staticmethod(services.match_void)

    @extend_schema(summary=gettext_lazy("Set a match aside, with a reason (scorers only)"), **_STATUS_SCHEMA)
    @idempotent
    def post(self, request, pk: int):
        return super().post(request, pk)


class MatchReopen(_MatchStatusChange):
    service = staticmethod(services.match_reopen)

    @extend_schema(summary=gettext_lazy("Undo a void, with a reason (scorers only)"), **_STATUS_SCHEMA)
    @idempotent
    def post(self, request, pk: int):
        return super().post(request, pk)
