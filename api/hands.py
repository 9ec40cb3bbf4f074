"""``/api/v1/matches/<id>/hands``: a match's hands (record, read, history, correct) and the other
side's answers to them (confirm, dispute). A write takes the match version the client last saw
(``matches._version``) and answers with the new one."""

from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import generics, serializers, status
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.matches import confirmations, errors, i18n, selectors, services
from scorekeeper.matches.models import Hand, HandConfirmation
from scorekeeper.matches.selectors import running_values

from . import schema
from .bodies import MAX_ID, MAX_VERSION, BodySerializer, VersionField, _valid
from .evaluation import EvaluationField, EvaluationSerializer
from .idempotency import idempotent
from .matches import (
    MatchStateSerializer,
    _at,
    _confirmation_fields,
    _etag,
    _match,
    _version,
    match_state_answer,
)
from .schema import ErrorSerializer


class HandSerializer(serializers.Serializer):
    """One stored version of a hand."""

    # Plain fields, as a ModelSerializer would derive them from Hand (see MatchStateSerializer),
    # and like those all required: every answer has them. The last four, the other side's word
    # on this version, are set on the hand by ``selectors.hands_answered``.
    number = serializers.IntegerField(min_value=0, max_value=MAX_ID)
    version = serializers.IntegerField(min_value=0, max_value=MAX_ID)
    status = serializers.ChoiceField(Hand.Status.choices)
    dealer = serializers.IntegerField(min_value=0, max_value=MAX_ID, allow_null=True)
    record = serializers.JSONField()
    declared = serializers.JSONField(allow_null=True)
    computed = serializers.JSONField(allow_null=True)
    running = serializers.SerializerMethodField(help_text=gettext_lazy("totals (cul: banks) after the hand"))
    state_after = serializers.JSONField(allow_null=True)
    accepted_declared = serializers.BooleanField()
    reason = serializers.CharField(allow_blank=True)
    supersedes = serializers.SerializerMethodField(help_text=gettext_lazy("the version this one replaced"))
    recorded_by = serializers.SerializerMethodField()
    recorded_at = serializers.DateTimeField(read_only=True)
    evaluation = EvaluationField(read_only=True)
    confirmation, confirmed_by, confirmed_at_table, dispute_reason = _confirmation_fields()

    @extend_schema_field(serializers.ListField(child=serializers.JSONField(), allow_null=True))
    def get_running(self, hand):
        return running_values(hand.state_after)

    def get_recorded_by(self, hand) -> str | None:
        return hand.recorded_by.get_username() if hand.recorded_by else None

    def get_supersedes(self, hand) -> int | None:
        return hand.version - 1 if hand.supersedes_id else None

    def to_representation(self, instance):
        # Written out (``hand_answer``): the fields above are the schema, and
        # tests/api/test_answer_writing.py holds the two to the same answer.
        return hand_answer(instance)


def hand_answer(hand: Any) -> dict[str, Any]:
    """``HandSerializer``'s answer for ``hand`` (a ``Hand`` that ``selectors.hands_answered`` gave
    the other side's word), written out as its fields would give it: a
    serializer deep-copies each of its declared fields for every instance (20 here, most of a
    recording's answer), so the reads and the 201s build the dict directly."""
    dealer = hand.dealer
    by = hand.recorded_by
    confirmed_by = hand.confirmed_by
    return {
        "number": int(hand.number),
        "version": int(hand.version),
        "status": str(hand.status),
        "dealer": None if dealer is None else int(dealer),
        "record": hand.record,
        "declared": hand.declared,
        "computed": hand.computed,
        "running": running_values(hand.state_after),
        "state_after": hand.state_after,
        "accepted_declared": bool(hand.accepted_declared),
        "reason": str(hand.reason),
        "supersedes": hand.version - 1 if hand.supersedes_id else None,
        "recorded_by": by.get_username() if by else None,
        "recorded_at": _at(hand.recorded_at),
        "evaluation": hand.evaluation,
        "confirmation": str(hand.confirmation),
        "confirmed_by": None if confirmed_by is None else str(confirmed_by),
        "confirmed_at_table": bool(hand.confirmed_at_table),
        "dispute_reason": str(hand.dispute_reason),
    }


class HandCreateSerializer(BodySerializer):
    record = serializers.DictField(help_text=gettext_lazy("the hand record (see the game's record_schema)"))
    version = VersionField()
    accept_declared = serializers.BooleanField(
        default=False,
        help_text=gettext_lazy("store a hand with mismatches as disputed, declared values standing"),
    )
    reason = serializers.CharField(
        max_length=2000,
        required=False,
        allow_blank=True,
        default="",
        help_text=gettext_lazy("required with accept_declared"),
    )


class HandWrittenSerializer(serializers.Serializer):
    """201 of a recording or a correction."""

    hand = HandSerializer()
    evaluation = EvaluationSerializer(help_text=gettext_lazy("the engine's result for this hand"))
    match = MatchStateSerializer()
    version = serializers.IntegerField(
        help_text=gettext_lazy("the match's new version: send it with the next write")
    )
    reevaluated = serializers.ListField(
        child=serializers.IntegerField(),
        required=False,
        help_text=gettext_lazy("corrections: the later hands that got a new version"),
    )


class HandConfirmSerializer(BodySerializer):
    player = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text=gettext_lazy(
            "at the table, on a scorer's device: the player of the other side who answers; "
            "left out: the signed-in user's own player"
        ),
    )
    hand_version = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_VERSION,
        help_text=gettext_lazy("the version of the hand the player saw; another current one is a 409"),
    )


class HandDisputeSerializer(HandConfirmSerializer):
    reason = serializers.CharField(max_length=2000, help_text=gettext_lazy("why the hand is disputed"))


class HandAnswerSerializer(serializers.Serializer):
    """201 of a confirmation or a dispute."""

    match = serializers.IntegerField(source="match_id")
    number = serializers.IntegerField(source="hand.number")
    hand_version = serializers.IntegerField(source="hand.version")
    answer = serializers.ChoiceField(HandConfirmation.Answer.choices)
    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    at_table = serializers.BooleanField()
    by = serializers.SerializerMethodField()
    reason = serializers.CharField(allow_blank=True)
    at = serializers.DateTimeField()
    match_confirmed_at = serializers.DateTimeField(
        source="match.confirmed_at",
        allow_null=True,
        help_text=gettext_lazy("when every current hand of the match was confirmed; null if one is not"),
    )

    def get_by(self, row) -> str | None:
        return row.by.get_username() if row.by else None


def _written(hand, *, reevaluated: list[int] | None = None) -> dict:
    """The body of ``HandWrittenSerializer``: the stored hand, the engine's result, the match."""
    # A version just written has no answer yet (a new version starts with none): nothing to read.
    selectors.hands_answered(match=hand.match, hands=[hand], answers={})
    body = {
        "hand": hand_answer(hand),
        "evaluation": i18n.evaluation(hand.evaluation),
        "match": match_state_answer(hand.match),
        "version": hand.match.version,
    }
    if reevaluated is not None:
        body["reevaluated"] = reevaluated
    return body


_HAND_WRITE: schema.WriteSchema = {
    "request": HandCreateSerializer,
    "responses": {
        201: HandWrittenSerializer,
        **schema.errors(*schema.WRITE_ERRORS, 404, 409),
    },
    "parameters": [schema.IDEMPOTENCY_KEY, schema.IF_MATCH],
}


class HandList(generics.GenericAPIView):
    serializer_class = HandSerializer

    @extend_schema(
        summary=gettext_lazy("The current hands of a match"),
        responses={200: HandSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request, pk: int):
        match = _match(pk)
        hands = selectors.match_current_hands(match=match).select_related("recorded_by")
        page = self.paginate_queryset(hands)
        assert page is not None  # the API pages every list (api/pagination.py)
        page = selectors.hands_answered(match=match, hands=page)
        return self.get_paginated_response(HandSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Record the next hand (scorers only)"),
        description=gettext_lazy(
            "The rules engine checks the record against the state after the last hand. "
            "Errors: 400 `hand_invalid`, nothing stored. Declared scores that differ from the "
            "rules: 400 `score_mismatch` listing each seat's declared vs computed score and why, "
            "nothing stored, unless `accept_declared` with a non-empty `reason`: then the hand is "
            "stored *disputed* with the declared values standing. A stale version: 409 "
            "`version_conflict` with what is current. A finished match: 409 `match_over`."
        ),
        **_HAND_WRITE,
    )
    @idempotent
    def post(self, request, pk: int):
        data = _valid(HandCreateSerializer, request.data)
        version = _version(request, data.get("version"), required=True)
        hand = services.hand_record(
            match=pk,
            record=data["record"],
            by=request.user,
            version=version,
            accept_declared=data["accept_declared"],
            reason=data["reason"],
        )
        location = reverse("api:hand-detail", args=[pk, hand.number], request=request)
        return Response(
            _written(hand),
            status=status.HTTP_201_CREATED,
            headers={**_etag(hand.match), "Location": location},
        )


class HandDetail(APIView):
    @extend_schema(
        summary=gettext_lazy("The current version of hand n"),
        responses={200: HandSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int, number: int):
        match = _match(pk)
        hands = selectors.match_current_hands(match=match).select_related("recorded_by")
        hand = get_object_or_404(hands, number=number)
        selectors.hands_answered(match=match, hands=[hand])
        return Response(HandSerializer(hand).data)


class HandHistory(generics.GenericAPIView):
    serializer_class = HandSerializer

    @extend_schema(
        summary=gettext_lazy("Every version of hand n, oldest first (the last one is current)"),
        responses={200: HandSerializer(many=True), **schema.errors(404)},
    )
    def get(self, request, pk: int, number: int):
        match = _match(pk)
        versions = selectors.hand_history(match=match, number=number)
        if not versions.exists():
            raise errors.NotFound(
                _("the match has no hand %(number)s") % {"number": number},
                field="number",
                code="hand_not_found",
            )
        page = self.paginate_queryset(versions)
        assert page is not None  # the API pages every list (api/pagination.py)
        page = selectors.hands_answered(match=match, hands=page)
        return self.get_paginated_response(HandSerializer(page, many=True).data)


class HandCorrections(APIView):
    @extend_schema(
        summary=gettext_lazy("Correct hand n (scorers only)"),
        description=gettext_lazy(
            "Supersedes hand n with a new version, validated like a recording against the "
            "state before it; every later hand is re-evaluated from the new state (`reevaluated` "
            "lists those that got a new version) and the match's result recomputed. Old versions stay "
            "readable in the hand's history."
        ),
        **_HAND_WRITE,
    )
    @idempotent
    def post(self, request, pk: int, number: int):
        data = _valid(HandCreateSerializer, request.data)
        version = _version(request, data.get("version"), required=True)
        hand = services.hand_correct(
            match=pk,
            number=number,
            record=data["record"],
            by=request.user,
            version=version,
            accept_declared=data["accept_declared"],
            reason=data["reason"],
        )
        location = reverse("api:hand-detail", args=[pk, hand.number], request=request)
        return Response(
            _written(hand, reevaluated=hand.reevaluated),
            status=status.HTTP_201_CREATED,
            headers={**_etag(hand.match), "Location": location},
        )


def _answer_errors(*, dispute: bool) -> dict:
    return {
        400: OpenApiResponse(
            ErrorSerializer,
            description=str(
                gettext_lazy(
                    "A malformed body, `player_not_seated` (the `player` named plays no seat of the match)"
                )
            )
            + (str(gettext_lazy(", `reason_required`")) if dispute else ""),
        ),
        403: OpenApiResponse(
            ErrorSerializer,
            description=gettext_lazy(
                "`not_a_player` (the user is linked to no player of the match), `same_side` (the "
                "answering player's side recorded the hand), `not_a_scorer` (naming another player, "
                "at the table, needs a scorer), or a CSRF failure"
            ),
        ),
        404: OpenApiResponse(
            ErrorSerializer, description=gettext_lazy("`not_found`, `match_not_found` or `hand_not_found`")
        ),
        409: OpenApiResponse(
            ErrorSerializer,
            description=gettext_lazy(
                "`already_confirmed` / `already_disputed` (the version has that answer already), "
                "`hand_version_conflict` (`hand_version` is not the current one: `current_version` "
                "is), `match_void`"
            ),
        ),
        **schema.errors(401, 422),
    }


class _HandAnswer(APIView):
    """The other side's answer to hand n: a confirmation, or with ``dispute`` a dispute."""

    dispute = False

    def post(self, request, pk: int, number: int):
        serializer = HandDisputeSerializer if self.dispute else HandConfirmSerializer
        data = _valid(serializer, request.data)
        kwargs = {"match": pk, "number": number, "by": request.user,
                  "player": data.get("player"), "hand_version": data.get("hand_version")}  # fmt: skip
        if self.dispute:
            row = confirmations.hand_dispute(reason=data["reason"], **kwargs)
        else:
            row = confirmations.hand_confirm(**kwargs)
        return Response(HandAnswerSerializer(row).data, status=status.HTTP_201_CREATED)


class HandConfirm(_HandAnswer):
    @extend_schema(
        summary=gettext_lazy("Confirm hand n (the side that did not record it)"),
        description=gettext_lazy(
            "The other side confirms the current version of hand n: a user linked to a player seated "
            "on another side than the one that recorded it (the recorder's account's player, his "
            "team in a partnership game), or a scorer at the table naming that `player`. A "
            "correction makes a new version, which needs a new answer. The match is confirmed when "
            "every current hand is. Does not change the match's version."
        ),
        request=HandConfirmSerializer,
        responses={201: HandAnswerSerializer, **_answer_errors(dispute=False)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int, number: int):
        return super().post(request, pk, number)


class HandDispute(_HandAnswer):
    dispute = True

    @extend_schema(
        summary=gettext_lazy("Dispute hand n, with a reason (the side that did not record it)"),
        description=gettext_lazy(
            "As confirming, but the other side says the hand is wrong and why. The scorers then "
            "correct it (a new version, to be answered again) or talk it over (a later "
            "confirmation replaces the dispute; both stay in the audit log)."
        ),
        request=HandDisputeSerializer,
        responses={201: HandAnswerSerializer, **_answer_errors(dispute=True)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, pk: int, number: int):
        return super().post(request, pk, number)
