"""The OpenAPI schema: the project's AutoSchema, the error responses, the write headers, a hook.

The schema is meant to be as exact as the server (docs/api.md, "The schema, checked"): what it
allows the server takes, what it refuses the server refuses, and every status an operation
can answer is documented with the error body. Schemathesis checks both ways
(tests/api/test_schemathesis.py), and a client generated from it drives a partie
(tests/api/test_generated_client.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypedDict

from django.utils.translation import gettext_lazy
from drf_spectacular import openapi
from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.plumbing import ResolvedComponent
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse
from rest_framework import serializers
from rest_framework.authentication import SessionAuthentication
from rest_framework.permissions import IsAdminUser

from scorekeeper.idempotency.keys import MAX_LENGTH as IDEMPOTENCY_KEY_MAX
from scorekeeper.rules import RULESETS

from .bodies import GameField
from .evaluation import EvaluationSerializer, MismatchSerializer, ProblemSerializer
from .parsers import BODY_INT_MAX, BODY_INT_MIN

ERROR_DESCRIPTIONS = {
    400: gettext_lazy(
        "Malformed or invalid request (validation, parse error, rule rejection: `hand_invalid`, "
        "`score_mismatch` with each seat's declared vs computed score)"
    ),
    401: gettext_lazy("Not signed in: send `Authorization: Token <key>` (POST /api/v1/auth/token)"),
    403: gettext_lazy(
        "Signed in but not allowed (only a match's scorers may write to it), or a CSRF failure"
    ),
    404: gettext_lazy("No such object"),
    409: gettext_lazy(
        "The match is not in a state that accepts this: `version_conflict` (stale version; the body "
        "says what is current), `match_over`, `match_void`, `status_conflict`"
    ),
    413: gettext_lazy("`body_too_large`: the body is over the cap (64 KiB; an import 4 MiB)"),
    415: gettext_lazy(
        "`unsupported_media_type`: a body of a type the operation does not take (JSON; the sign-in "
        "also a form)"
    ),
    422: gettext_lazy("`idempotency_key_reused`: the Idempotency-Key was used for another request"),
    429: gettext_lazy("`throttled`: too many requests; `Retry-After` says how many seconds to wait"),
}


class ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(help_text=gettext_lazy("path into the request, e.g. `record.tricks[3]`"))
    path = serializers.CharField(
        required=False, help_text=gettext_lazy("rule errors: the engine's path (spec 1.5)")
    )


class HandSummarySerializer(serializers.Serializer):
    number = serializers.IntegerField()
    version = serializers.IntegerField()
    status = serializers.CharField()
    declared = serializers.JSONField(allow_null=True)
    computed = serializers.JSONField(allow_null=True)
    recorded_by = serializers.CharField(allow_null=True)
    recorded_at = serializers.DateTimeField()


class ErrorSerializer(serializers.Serializer):
    """The one body of every 4xx answer. ``code`` is stable and machine-readable."""

    code = serializers.CharField(
        help_text=gettext_lazy("machine code, e.g. `score_mismatch`, `version_conflict`")
    )
    message = serializers.CharField(help_text=gettext_lazy("for people"))
    field = serializers.CharField(
        allow_blank=True, help_text=gettext_lazy("path into the request; empty if none")
    )
    errors = ErrorItemSerializer(  # type: ignore[assignment]  # a field, not Serializer.errors
        many=True, required=False, help_text=gettext_lazy("every problem (validation errors, rule errors)")
    )
    mismatches = MismatchSerializer(
        many=True,
        required=False,
        help_text=gettext_lazy("rule rejections: each seat's declared vs computed and why"),
    )
    evaluation = EvaluationSerializer(
        required=False, help_text=gettext_lazy("rule rejections: the engine's full result")
    )
    problems = ProblemSerializer(
        many=True, required=False, help_text=gettext_lazy("options_invalid: the engine's problems")
    )
    current_version = serializers.IntegerField(
        required=False,
        help_text=gettext_lazy(
            "409: the match's version (version_conflict), the hand's (hand_version_conflict)"
        ),
    )
    retry_after = serializers.IntegerField(
        required=False, help_text=gettext_lazy("429: seconds to wait (also the Retry-After header)")
    )
    hand_count = serializers.IntegerField(required=False, help_text=gettext_lazy("409 version_conflict"))
    status = serializers.CharField(
        required=False, help_text=gettext_lazy("409 version_conflict: the match's status")
    )
    last_hand = HandSummarySerializer(
        required=False, allow_null=True, help_text=gettext_lazy("409 version_conflict: the current last hand")
    )
    result = serializers.JSONField(required=False, allow_null=True, help_text=gettext_lazy("409 match_over"))


class WriteSchema(TypedDict):
    """``extend_schema``'s arguments that several writes share (spread into it)."""

    request: Any
    responses: Any
    parameters: Sequence[OpenApiParameter]


def errors(*codes: int) -> dict[int, OpenApiResponse]:
    return {code: OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code]) for code in codes}


READ_ERRORS = (400, 404)
#: Every POST: validation, auth, the idempotency key.
WRITE_ERRORS = (400, 401, 403, 422)

#: A text that is not blank once DRF has trimmed it (``str.strip``): one character that is not
#: whitespace to Python (``str.isspace``). Spelt out, since a pattern's ``\S`` is ECMA's, whose
#: whitespace is not Python's (U+001C–U+001F and U+0085 are Python's only, U+FEFF ECMA's only).
NOT_BLANK_PATTERN = (
    "[^\\t\\n\\x0b\\x0c\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]"
)
#: What ``api.idempotency`` takes: 1 to 255 printable ASCII characters, the
#: first and last not a space, within HTTP's optional whitespace (trimmed).
IDEMPOTENCY_KEY_PATTERN = rf"^[ \t]*[!-~](?:[ -~]{{0,{IDEMPOTENCY_KEY_MAX - 2}}}[!-~])?[ \t]*$"
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key",
    type={"type": "string", "pattern": IDEMPOTENCY_KEY_PATTERN},
    location=OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        "A unique key per logical request (a UUID). A retry with the same key and body gets the "
        "original response (header `Idempotent-Replayed: true`) and never writes twice; the same key "
        "with another request is a 422. Keys are kept per user for 24 hours."
    ),
)
IF_MATCH = OpenApiParameter(
    "If-Match",
    # What api.matches._if_match_version reads: one ETag of up to ten digits, weak or not, or
    # the bare number, within HTTP's optional whitespace.
    type={"type": "string", "pattern": r'^[ \t]*(?:(?:W/)?"[0-9]{1,10}"|[0-9]{1,10})[ \t]*$'},
    location=OpenApiParameter.HEADER,
    required=False,
    description=gettext_lazy(
        'The match version last seen, as the ETag `"3"` (instead of `version` in the body).'
    ),
)

#: The schema component of a game key, listing the registry's keys when the schema is made.
GAME_ENUM = "GameEnum"
#: Query parameters that no value of makes a 400: ``format`` and ``page`` (DRF answers 404 for an
#: unknown one), ``search`` (any text).
QUERY_WITHOUT_400 = {"format", "page", "search"}


def game_enum_schema() -> dict:
    keys = sorted(RULESETS)
    return {"type": "string", "enum": keys, "description": gettext_lazy("a key of GET /api/v1/games")}


def _game_enum_ref(registry) -> dict:
    component = ResolvedComponent(
        name=GAME_ENUM, type=ResolvedComponent.SCHEMA, object=GameField(), schema=game_enum_schema()
    )
    registry.register_on_missing(component)
    return component.ref


def _named(registry, name: str, schema: dict) -> dict:
    component = ResolvedComponent(name=name, type=ResolvedComponent.SCHEMA, object=name, schema=schema)
    registry.register_on_missing(component)
    return component.ref


class GameFieldExtension(OpenApiSerializerFieldExtension):
    """``GameField``: the ``GameEnum`` component, read from the registry as the schema is made."""

    target_class = "api.bodies.GameField"

    def get_name(self):
        return GAME_ENUM

    def map_serializer_field(self, auto_schema, direction):
        return game_enum_schema()


class PlayerIdsFieldExtension(OpenApiSerializerFieldExtension):
    """``PlayerIdsField``: each id once, and no fewer than the smallest table of any game."""

    target_class = "api.bodies.PlayerIdsField"

    def map_serializer_field(self, auto_schema, direction):
        schema = auto_schema._map_serializer_field(self.target, direction, bypass_extensions=True)
        smallest = min((min(r.seat_counts) for r in RULESETS.values()), default=1)
        schema["minItems"] = max(schema.get("minItems", 0), smallest)
        schema["uniqueItems"] = True
        return schema


class AutoSchema(openapi.AutoSchema):
    """drf-spectacular's AutoSchema, made exact where the server is stricter than it guesses.

    - A request component of a serializer already named for its role keeps one ``Request``
      (``PredictRequest``, not ``PredictRequestRequest``; COMPONENT_SPLIT_REQUEST appends it).
    - A text field that may not be blank says so (``NOT_BLANK_PATTERN``: DRF trims it first), an
      integer without bounds gets the body's (64 bits: the parser refuses more), and a nested
      list its sizes.
    - A ``game`` in the path is a ``GameEnum``.
    - Every operation documents each status it can answer with the ``Error`` body: 400 (a body
      or a query that can be wrong), 401 (any request with a token: a wrong one is refused),
      403 (a POST under session sign-in, CSRF; staff-only views), 404 (an id in the path, a
      page), 413 and 415 (a body), 422 (an Idempotency-Key), 429 (the throttled POSTs).
    """

    def get_serializer_name(self, serializer, direction):
        name = super().get_serializer_name(serializer, direction)
        if direction == "request" and spectacular_settings.COMPONENT_SPLIT_REQUEST:
            base = name.removesuffix("Serializer")
            if base.endswith("Request") and base != "Request":
                return base.removesuffix("Request")
        return name

    def _map_serializer_field(self, field, direction, bypass_extensions=False):
        schema = super()._map_serializer_field(field, direction, bypass_extensions)
        if direction != "request" or not isinstance(schema, dict):
            return schema
        if "allOf" in schema:  # a named enum: its values say it all
            for key in ("minLength", "maxLength", "pattern"):
                schema.pop(key, None)
            return schema
        if (
            isinstance(field, serializers.CharField)
            and not isinstance(field, serializers.RegexField | serializers.SlugField)  # their own pattern
            and schema.get("type") == "string"
            and "enum" not in schema
            and field.trim_whitespace
            and not field.allow_blank
        ):
            schema.setdefault("pattern", NOT_BLANK_PATTERN)
        if schema.get("type") == "integer" and "enum" not in schema:
            schema.setdefault("minimum", BODY_INT_MIN)
            schema.setdefault("maximum", BODY_INT_MAX)
            if schema["minimum"] < -(2**31) or schema["maximum"] > 2**31 - 1:
                schema["format"] = "int64"
        if isinstance(field, serializers.ListSerializer):
            if field.max_length is not None:
                schema["maxItems"] = field.max_length
            smallest = field.min_length if field.min_length is not None else (0 if field.allow_empty else 1)
            if smallest:
                schema["minItems"] = smallest
        return schema

    def get_operation(self, path, path_regex, path_prefix, method, registry):
        operation = super().get_operation(path, path_regex, path_prefix, method, registry)
        if operation is None:
            return None
        parameters = operation.get("parameters", [])
        for parameter in parameters:
            if parameter["name"] == "game" and parameter["in"] == "path":
                parameter["schema"] = _game_enum_ref(registry)
            if parameter["name"] == "status" and parameter["in"] == "query":
                # The match filter's: the MatchStatusEnum of the answers, not an enum of its own
                # (a generated client's V1MatchesListStatus).
                parameter["schema"] = {"$ref": "#/components/schemas/MatchStatusEnum"}
            if parameter["name"] == "format" and parameter["in"] == "query":
                parameter["schema"] = _named(registry, "ExportFileFormatEnum", parameter["schema"])
            if parameter["name"] == "page" and parameter["in"] == "query":
                parameter["schema"].setdefault("minimum", 1)
            if parameter["name"] == "page_size" and parameter["in"] == "query":
                parameter["schema"].setdefault("minimum", 1)
        responses = operation["responses"]
        for code in sorted(self._error_statuses(operation, parameters)):
            if str(code) not in responses:
                error = OpenApiResponse(ErrorSerializer, description=ERROR_DESCRIPTIONS[code])
                responses[str(code)] = self._get_response_for_code(error, str(code))
        operation["responses"] = dict(sorted(responses.items()))
        return operation

    def _error_statuses(self, operation, parameters) -> set[int]:
        view, post = self.view, self.method == "POST"
        where = {(p["in"], p["name"]) for p in parameters}
        statuses = set()
        if post or any(i == "query" and n not in QUERY_WITHOUT_400 for i, n in where):
            statuses.add(400)
        if view.authentication_classes:
            statuses.add(401)
        sessions = any(issubclass(a, SessionAuthentication) for a in view.authentication_classes)
        if (post and sessions) or any(
            isinstance(p, type) and issubclass(p, IsAdminUser) for p in view.permission_classes
        ):
            statuses.add(403)
        if any(i == "path" for i, _ in where) or ("query", "page") in where:
            statuses.add(404)
        if post:
            statuses |= {413, 415, 429}
        if ("header", "Idempotency-Key") in where:
            statuses.add(422)
        return statuses


def add_error_range(result, generator, request, public):
    """Postprocessing hook: every operation answers any other 4xx with the same error body."""
    for path in result.get("paths", {}).values():
        for operation in path.values():
            if isinstance(operation, dict) and "responses" in operation:
                operation["responses"].setdefault(
                    "4XX",
                    {
                        "description": gettext_lazy(
                            "Any other client error (405, 406, 415 …), in the common shape"
                        ),
                        "content": {"application/json": {"schema": {"$ref": "#/components/schemas/Error"}}},
                    },
                )
    return result
