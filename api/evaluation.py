"""The rules engine's result for one hand as the API shows it (spec 1.5): its lines, problems and
mismatches, in the request's language; the answer of the dry run and of a written hand, and part
of a rule rejection's error body (``schema.ErrorSerializer``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper.matches import i18n

_MESSAGE_PARAMS = gettext_lazy("its parameters; a nested message is {code, params} (stable, for storage)")


class ProblemSerializer(serializers.Serializer):
    code = serializers.CharField()
    path = serializers.CharField(allow_blank=True)
    message = serializers.CharField(help_text=gettext_lazy("for people, in the request's language"))
    message_code = serializers.CharField(
        required=False, help_text=gettext_lazy("the engine's message code (scorekeeper/rules/messages.py)")
    )
    message_params = serializers.JSONField(required=False, help_text=_MESSAGE_PARAMS)


class MismatchSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    declared = serializers.JSONField(help_text=gettext_lazy("what the players claimed"))
    computed = serializers.JSONField(help_text=gettext_lazy("what the rules give"))
    explanation = serializers.CharField(help_text=gettext_lazy("for people, in the request's language"))
    explanation_code = serializers.CharField(
        required=False, help_text=gettext_lazy("the engine's message code")
    )
    explanation_params = serializers.JSONField(required=False, help_text=_MESSAGE_PARAMS)


class LineSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    item = serializers.CharField()
    points = serializers.IntegerField()
    note = serializers.CharField(
        allow_blank=True, help_text=gettext_lazy("for people, in the request's language")
    )
    note_code = serializers.CharField(required=False, help_text=gettext_lazy("the engine's message code"))
    note_params = serializers.JSONField(required=False, help_text=_MESSAGE_PARAMS)


class EvaluationSerializer(serializers.Serializer):
    """The rules engine's result for one hand (spec 1.5), its messages in the request's language."""

    def to_representation(self, instance):
        return super().to_representation(i18n.evaluation(instance))

    valid = serializers.BooleanField(help_text=gettext_lazy("no errors and no mismatches"))
    scores = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    breakdown = LineSerializer(many=True)
    state_after = serializers.JSONField(allow_null=True)
    match_over = serializers.BooleanField(allow_null=True)
    result = serializers.JSONField(allow_null=True)
    errors = ProblemSerializer(many=True)  # type: ignore[assignment]  # a field, not Serializer.errors
    mismatches = MismatchSerializer(many=True)
    warnings = ProblemSerializer(many=True)


@extend_schema_field(EvaluationSerializer)
class EvaluationField(serializers.JSONField):
    """A hand's stored evaluation, the engine's ``to_dict()``: already in ``EvaluationSerializer``'s
    shape (its schema), so it is sent as it is rather than taken apart and put together again."""
