"""What the request bodies of /api/v1/ share: ``BodySerializer`` (each field takes the JSON type
its schema documents), the fields several resources take (a game key, player ids, the match
version last seen), the ids' bounds, and ``_valid``, which validates a body with them.

Request serializers validate shapes and bounds only (the rules engine and the services
judge the content); response serializers are what the views render, so the OpenAPI
schema describes exactly what is sent.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import serializers

from scorekeeper.matches import errors

#: Database ids are 64-bit; a larger number is a 400, not a database error.
MAX_ID = 2**63 - 1


MAX_VERSION = 2**31 - 1


class BodySerializer(serializers.Serializer):
    # A JSON request body: each field takes the JSON type its schema documents, as it is sent.
    # DRF's fields convert what they can ("5" and 5.0 to 5, 1 to True, 5 to "5") and count a
    # string's length after trimming it, so bodies the OpenAPI schema calls invalid were taken.
    # Checked here, before the fields run, each with the field's own error (`invalid`,
    # `not_a_list`, `max_length` …): the schema is then the server's rule (docs/api.md, "The
    # schema, checked"). A comment, not a docstring: drf-spectacular would make a docstring
    # every body's description.

    def to_internal_value(self, data):
        if not isinstance(data, Mapping):
            return super().to_internal_value(data)
        wrong = {}
        for field in self._writable_fields:
            if field.field_name in data:
                detail = _type_error(field, data[field.field_name])
                if detail:
                    wrong[field.field_name] = detail
        if not wrong:
            return super().to_internal_value(data)
        # Every field's error, as DRF lists them: the others are validated without the wrong ones
        # (whose "required" is not the error to show).
        others = {}
        try:
            super().to_internal_value({k: v for k, v in data.items() if k not in wrong})
        except serializers.ValidationError as exc:
            others = exc.detail if isinstance(exc.detail, dict) else {"non_field_errors": exc.detail}
        merged = {**others, **wrong}
        raise serializers.ValidationError(
            {name: merged[name] for name in [*self.fields, *others] if name in merged}
        )


def _fail(field, key: str, **params):
    try:
        field.fail(key, **params)
    except serializers.ValidationError as exc:
        return exc.detail
    return None  # pragma: no cover (fail always raises)


def _type_error(field, value):
    """The field's error if ``value`` is not of the JSON type (and length) its schema says, else None.

    ``None`` is left to the field (``allow_null``); nested serializers check their own fields.
    """
    if value is None:
        return None
    if isinstance(field, serializers.ListField):
        if not isinstance(value, list):
            return _fail(field, "not_a_list", input_type=type(value).__name__)
        items = {i: e for i, item in enumerate(value) if (e := _type_error(field.child, item))}
        return items or None
    if isinstance(field, serializers.DictField):
        if not isinstance(value, dict):
            return _fail(field, "not_a_dict", input_type=type(value).__name__)
        return None
    if isinstance(field, serializers.BooleanField):
        return None if isinstance(value, bool) else _fail(field, "invalid")
    if isinstance(field, serializers.IntegerField):
        return None if isinstance(value, int) and not isinstance(value, bool) else _fail(field, "invalid")
    if isinstance(field, serializers.ChoiceField):
        return None if isinstance(value, str) else _fail(field, "invalid_choice", input=str(value)[:40])
    if isinstance(field, serializers.CharField):
        if not isinstance(value, str):
            return _fail(field, "invalid")
        # As sent: the schema's maxLength counts what the client sends, trimmed or not.
        if field.max_length is not None and len(value) > field.max_length:
            return _fail(field, "max_length", max_length=field.max_length)
    return None


class GameField(serializers.CharField):
    """A game key: the schema lists the registry's keys (``api.schema.GameFieldExtension``); the
    service refuses any other with ``game_unknown``, as it always did."""

    def __init__(self, **kwargs):
        kwargs.setdefault("max_length", 32)
        kwargs.setdefault("help_text", gettext_lazy("a key of GET /api/v1/games"))
        super().__init__(**kwargs)


class PlayerIdsField(serializers.ListField):
    """Player ids in seat order. The schema says what the services check: at least as many as the
    smallest table of any game, each id once (``api.schema.PlayerIdsFieldExtension``)."""

    def __init__(self, **kwargs):
        kwargs.setdefault("child", serializers.IntegerField(min_value=1, max_value=MAX_ID))
        kwargs.setdefault("max_length", 16)
        kwargs.setdefault("help_text", gettext_lazy("player ids in seat order"))
        super().__init__(**kwargs)


class VersionField(serializers.IntegerField):
    def __init__(self, **kwargs):
        kwargs.setdefault("min_value", 0)
        kwargs.setdefault("max_value", MAX_VERSION)
        kwargs.setdefault("required", False)
        kwargs.setdefault(
            "help_text",
            gettext_lazy("the match version last seen (or the If-Match header); a stale one is a 409"),
        )
        super().__init__(**kwargs)


def _valid(serializer_class, data, **kwargs) -> dict:
    if not isinstance(data, dict):  # a JSON list, string or number (QueryDicts are dicts)
        kind = "null" if data is None else type(data).__name__
        raise errors.Invalid(
            _("the body must be a JSON object, not %(kind)s") % {"kind": kind}, code="body_not_object"
        )
    serializer = serializer_class(data=data, **kwargs)
    serializer.is_valid(raise_exception=True)
    return serializer.validated_data
