"""``/api/v1/games`` and ``/api/v1/rules/<game>/score``: the catalog of games (seat counts,
options, record schema) and the dry run, which scores one hand and stores nothing."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema
from rest_framework import generics, serializers
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from scorekeeper.matches import errors, i18n
from scorekeeper.matches.terms import describe_game
from scorekeeper.rules import RULESETS, OptionsInvalid, UnknownGame, find_ruleset
from scorekeeper.rules.options import PRESETS

from . import schema
from .bodies import BodySerializer, _valid
from .evaluation import EvaluationSerializer
from .idempotency import idempotent

#: An option's kinds and effects (named enums of the schema: settings.SPECTACULAR_SETTINGS).
OPTION_TYPES = ["bool", "int", "enum", "auto_int"]


OPTION_EFFECTS = ["scoring", "check", "recorded"]


class OptionSpecSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(OPTION_TYPES)
    effect = serializers.ChoiceField(OPTION_EFFECTS)
    label = serializers.CharField(  # type: ignore[assignment]  # a field, not Field.label
        help_text=gettext_lazy("the option's name for people, in the request's language")
    )
    help = serializers.CharField(help_text=gettext_lazy("in the request's language"))
    defaults = serializers.DictField(
        child=serializers.JSONField(), help_text=gettext_lazy("the value per preset")
    )
    choices = serializers.ListField(child=serializers.JSONField(), required=False)
    choice_labels = serializers.ListField(
        child=serializers.CharField(),
        required=False,
        help_text=gettext_lazy("each of ``choices`` in words, in the request's language (same order)"),
    )
    minimum = serializers.IntegerField(required=False)
    maximum = serializers.IntegerField(
        required=False, help_text=gettext_lazy("integers: at most 2147483647 (32 bits)")
    )


class GameSerializer(serializers.Serializer):
    key = serializers.CharField()
    title = serializers.CharField(help_text=gettext_lazy("in the request's language"))
    seats = serializers.ListField(
        child=serializers.IntegerField(), help_text=gettext_lazy("allowed seat counts")
    )
    presets = serializers.ListField(child=serializers.CharField())
    options = OptionSpecSerializer(many=True)
    record_schema = serializers.DictField(
        help_text=gettext_lazy("JSON Schema (draft 2020-12) of a hand record")
    )


class ScoreRequestSerializer(BodySerializer):
    preset = serializers.ChoiceField(PRESETS, default="classic")
    options = serializers.DictField(default=dict, help_text=gettext_lazy("overrides of the preset's values"))
    seats = serializers.IntegerField(min_value=1, max_value=64)
    state = serializers.DictField(
        default=None,
        allow_null=True,
        help_text=gettext_lazy("the state before the hand; null = before the first"),
    )
    hand = serializers.DictField(help_text=gettext_lazy("the hand record (see the game's record_schema)"))
    accept_declared = serializers.BooleanField(
        default=False,
        help_text=gettext_lazy("preview a disputed hand: the state after it built from the declared values"),
    )


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
