"""The views of /api/v1/: thin adapters from HTTP to the selectors (reads) and services (writes).

Every POST goes through ``@idempotent`` (the Idempotency-Key header); every write to a match
takes the version the client last saw (``version`` in the body or ``If-Match``) and answers
with the new one (body ``version`` and the ``ETag`` header). Errors are raised, never
returned: ``api.exceptions.exception_handler`` renders them all in one shape.
"""

from __future__ import annotations

import re
from collections import OrderedDict

from django.contrib.auth.signals import user_logged_in, user_logged_out
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import exceptions as drf_exceptions
from rest_framework import generics, serializers, status
from rest_framework.authtoken.serializers import AuthTokenSerializer
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper import lockout
from scorekeeper.matches import confirmations, errors, i18n, player_accounts, selectors, services
from scorekeeper.matches.models import Match, Player
from scorekeeper.matches.terms import describe_game
from scorekeeper.rules import RULESETS, OptionsInvalid, UnknownGame, find_ruleset

from . import schema, tokens
from .idempotency import idempotent
from .parsers import CappedFormParser, CappedMultiPartParser, StrictJSONParser
from .serializers import (
    ClaimCodeSerializer,
    ErrorSerializer,
    EvaluationSerializer,
    GameSerializer,
    HandAnswerSerializer,
    HandConfirmSerializer,
    HandCreateSerializer,
    HandDisputeSerializer,
    HandSerializer,
    HandWrittenSerializer,
    MatchCreateSerializer,
    MatchDetailSerializer,
    MatchFilterSerializer,
    MatchSerializer,
    MatchStateSerializer,
    PlayerClaimSerializer,
    PlayerCreateSerializer,
    PlayerDetailSerializer,
    PlayerSerializer,
    ReasonSerializer,
    ScorerAddSerializer,
    ScoreRequestSerializer,
    ScorersSerializer,
)
from .throttles import TokenAddressThrottle, TokenUsernameThrottle


def _valid(serializer_class, data, **kwargs) -> dict:
    if not isinstance(data, dict):  # a JSON list, string or number (QueryDicts are dicts)
        kind = "null" if data is None else type(data).__name__
        raise errors.Invalid(
            _("the body must be a JSON object, not %(kind)s") % {"kind": kind}, code="body_not_object"
        )
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data


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


# -- root, auth ------------------------------------------------------------------------
class ApiRoot(APIView):
    """The endpoints of API v1."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: OpenApiTypes.OBJECT})
    def get(self, request, format=None):
        def link(name):
            return reverse(name, request=request, format=format)

        return Response(
            OrderedDict(
                games=link("api:game-list"),
                players=link("api:player-list"),
                matches=link("api:match-list"),
                token=link("api:token"),
                schema=link("schema"),
                docs=link("docs"),
            )
        )


class TokenCreate(APIView):
    """Trade a username and password for a new API token for this device, and its expiry.

    Send it on every request as `Authorization: Token <key>`. Each sign-in makes a token of
    its own (one per device), valid `API_TOKEN_TTL_DAYS`; `POST /api/v1/auth/logout` revokes it.
    """

    authentication_classes: list = []
    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer]  # a key is for apps: no HTML page of it
    parser_classes = [StrictJSONParser, CappedFormParser, CappedMultiPartParser]
    # Before the view, so before any password is checked (api/throttles.py).
    throttle_classes = [TokenAddressThrottle, TokenUsernameThrottle]

    @extend_schema(
        # The view also takes the same fields as a form (curl -d, an HTML form), but the schema
        # documents the JSON body alone: a generator folds several media types of one schema
        # into a union it cannot tell apart (openapi-python-client's does), and apps send JSON.
        request={
            "application/json": inline_serializer(
                "TokenRequest",
                {
                    "username": serializers.CharField(),
                    "password": serializers.CharField(trim_whitespace=False),
                },
            )
        },
        responses={
            200: inline_serializer(
                "TokenResponse",
                {
                    "token": serializers.CharField(help_text=gettext_lazy("the key: shown only this once")),
                    "expiry": serializers.DateTimeField(allow_null=True),
                },
            ),
            400: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy("Wrong username or password (`authorization`), or a malformed body"),
            ),
            **schema.errors(429),
        },
        auth=[],
    )
    # Not @idempotent: an Idempotency-Key is ignored here, so that no stored answer ever holds
    # a token (a replay from storage would hand it to whoever knows the key).
    def post(self, request, *args, **kwargs):
        serializer = AuthTokenSerializer(data=request.data, context={"request": request})
        try:
            serializer.is_valid(raise_exception=True)
        except drf_exceptions.ValidationError:
            if getattr(request, "axes_locked_out", False):
                # django-axes refused the sign-in before checking the password (too many failures
                # for this username or address, also on the pages): a 429 like the throttles'.
                request._request.axes_locked_out = False  # the API answers, not axes' page
                raise drf_exceptions.Throttled(wait=lockout.retry_after_seconds()) from None
            raise
        user = serializer.validated_data["user"]
        instance, key = tokens.token_create(user=user)
        user_logged_in.send(sender=type(user), request=request, user=user)
        expiry = serializers.DateTimeField().to_representation(instance.expiry) if instance.expiry else None
        return Response({"token": key, "expiry": expiry})


class TokenLogout(APIView):
    """Sign this device out: the token the request is sent with is revoked (204); others stay."""

    authentication_classes = [tokens.TokenAuthentication]
    permission_classes = [IsAuthenticated]

    @extend_schema(
        request=None,
        responses={204: None, **schema.errors(401, 422)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, *args, **kwargs):
        tokens.token_revoke(token=request.auth)
        user_logged_out.send(sender=type(request.user), request=request, user=request.user)
        return Response(status=status.HTTP_204_NO_CONTENT)


# -- the catalog and the dry run ---------------------------------------------------------
class GameList(generics.GenericAPIView):
    """Every game: seat counts, options (type, allowed values, default per preset), record schema;
    titles, labels and help in the request's language (Accept-Language)."""

    permission_classes = [AllowAny]
    serializer_class = GameSerializer

    @extend_schema(responses={200: GameSerializer(many=True), **schema.errors(404)})
    def get(self, request):
        games = [describe_game(RULESETS[key]) for key in sorted(RULESETS)]
        page = self.paginate_queryset(games)
        return self.get_paginated_response(page)


class GameDetail(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: GameSerializer, **schema.errors(404)})
    def get(self, request, game: str):
        return Response(describe_game(_ruleset_class(game)))


def _ruleset_class(game: str):
    try:
        return find_ruleset(game)
    except UnknownGame as exc:
        raise errors.game_unknown(exc, not_found=True) from None


class RulesScore(APIView):
    """Dry run: score one hand with the rules engine. Stores nothing.

    200 with the engine's result (spec 1.5); `valid` is false when there is any error or
    mismatch. A malformed body (not an object, wrong types, bad options) is a 400.
    """

    permission_classes = [AllowAny]

    @extend_schema(
        request=ScoreRequestSerializer,
        responses={200: EvaluationSerializer, **schema.errors(400, 404, 422)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, game: str):
        ruleset_class = _ruleset_class(game)
        data = _valid(ScoreRequestSerializer, request.data)
        try:
            ruleset = ruleset_class.create(data["preset"], data["options"], data["seats"])
        except OptionsInvalid as exc:
            raise errors.options_rejected(exc) from None
        evaluation = ruleset.evaluate(data["state"], data["hand"], accept_declared=data["accept_declared"])
        return Response(i18n.evaluation(evaluation.to_dict()))


# -- players ---------------------------------------------------------------------------
class PlayerList(generics.GenericAPIView):
    serializer_class = PlayerSerializer

    @extend_schema(
        summary=gettext_lazy("Players by name"),
        parameters=[OpenApiParameter("search", str, description=gettext_lazy("part of the name, any case"))],
        responses={200: PlayerSerializer(many=True)},
    )
    def get(self, request):
        search = request.query_params.get("search", "")[:100].replace("\x00", "")
        players = selectors.player_list(search=search)
        page = self.paginate_queryset(players)
        return self.get_paginated_response(PlayerSerializer(page, many=True).data)

    @extend_schema(
        summary=gettext_lazy("Add a player (signed in)"),
        request=PlayerCreateSerializer,
        responses={201: PlayerSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(PlayerCreateSerializer, request.data)
        player = services.player_create(name=data["name"], by=request.user)
        location = reverse("api:player-detail", args=[player.pk], request=request)
        return Response(
            PlayerSerializer(player).data, status=status.HTTP_201_CREATED, headers={"Location": location}
        )


class PlayerDetail(APIView):
    @extend_schema(
        summary=gettext_lazy("A player with their matches"),
        responses={200: PlayerDetailSerializer, **schema.errors(404)},
    )
    def get(self, request, pk: int):
        player = get_object_or_404(Player, pk=pk)
        matches = selectors.match_list(player=player)
        player.match_count = matches.count()
        player.matches = list(matches[:20])
        player.matches_url = reverse("api:match-list", request=request) + f"?player={player.pk}"
        return Response(PlayerDetailSerializer(player).data)


# -- matches ---------------------------------------------------------------------------
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
        matches = selectors.match_list(
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
            preset=data["preset"],
            options=data["options"],
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
    service = None
    summary = ""

    def post(self, request, pk: int):
        data = _valid(ReasonSerializer, request.data)
        version = _version(request, data.get("version"), required=False)
        match = type(self).service(match=pk, by=request.user, reason=data["reason"], version=version)
        match = _match(match.pk)
        return Response(MatchSerializer(match).data, headers=_etag(match))


_STATUS_SCHEMA = {
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


# -- hands -----------------------------------------------------------------------------
def _written(hand, *, reevaluated: list[int] | None = None) -> dict:
    """The body of ``HandWrittenSerializer``: the stored hand, the engine's result, the match."""
    # A version just written has no answer yet (a new version starts with none): nothing to read.
    selectors.hands_answered(match=hand.match, hands=[hand], answers={})
    body = {
        "hand": HandSerializer(hand).data,
        "evaluation": i18n.evaluation(hand.evaluation),
        "match": MatchStateSerializer(hand.match).data,
        "version": hand.match.version,
    }
    if reevaluated is not None:
        body["reevaluated"] = reevaluated
    return body


_HAND_WRITE = {
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
        page = selectors.hands_answered(match=match, hands=self.paginate_queryset(hands))
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
        page = selectors.hands_answered(match=match, hands=self.paginate_queryset(versions))
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


# -- the other side's answers, players' accounts ------------------------------------------
def _answer_errors(*, dispute: bool) -> dict:
    return {
        400: OpenApiResponse(
            ErrorSerializer,
            description=gettext_lazy(
                "A malformed body, `player_not_seated` (the `player` named plays no seat of the match)"
            )
            + (gettext_lazy(", `reason_required`") if dispute else ""),
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


class PlayerClaimCodeCreate(APIView):
    @extend_schema(
        summary=gettext_lazy("A one-time code with which a player links his account (scorers only)"),
        description=gettext_lazy(
            "For a player seated in the match who has no account linked yet. Read the code out to "
            "him; he sends it to POST /api/v1/players/claim signed in as himself. It serves once "
            "and expires (`expires_at`); only its digest is stored."
        ),
        request=None,
        responses={
            201: ClaimCodeSerializer,
            403: OpenApiResponse(
                ErrorSerializer, description=gettext_lazy("`not_a_scorer` of this match, or a CSRF failure")
            ),
            404: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy("`not_found`, `match_not_found`, `player_not_seated` in this match"),
            ),
            409: OpenApiResponse(
                ErrorSerializer, description=gettext_lazy("`player_already_linked` to an account")
            ),
            **schema.errors(400, 401),
        },
    )
    # Not @idempotent, and so no Idempotency-Key in its schema (as the token endpoint): no stored
    # answer may hold a code (a replay would show it again); a retry gives a new code.
    def post(self, request, pk: int, player: int):
        row = player_accounts.player_claim_code_create(match=pk, player=player, by=request.user)
        return Response(ClaimCodeSerializer(row).data, status=status.HTTP_201_CREATED)


class PlayerClaim(APIView):
    @extend_schema(
        summary=gettext_lazy("Link your account to a player, with the code a scorer gave you"),
        request=PlayerClaimSerializer,
        responses={
            200: PlayerSerializer,
            400: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "A malformed body, `claim_code_invalid` (no such code), `claim_code_expired`"
                ),
            ),
            409: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "`claim_code_used`, `player_already_linked` (the player has an account), "
                    "`user_already_linked` (your account is another player's)"
                ),
            ),
            429: OpenApiResponse(
                ErrorSerializer,
                description=gettext_lazy(
                    "`claim_throttled`: too many wrong or expired codes (PLAYER_CLAIM_ATTEMPTS an hour), "
                    "or `throttled`; `Retry-After` says how many seconds to wait"
                ),
            ),
            **schema.errors(401, 403, 422),
        },
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request):
        data = _valid(PlayerClaimSerializer, request.data)
        player = player_accounts.player_claim(code=data["code"], by=request.user)
        return Response(PlayerSerializer(player).data)
