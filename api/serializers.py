"""Request and response serializers of /api/v1/.

Request serializers validate shapes and bounds only (the rules engine and the services
judge the content); response serializers are what the views render, so the OpenAPI
schema describes exactly what is sent.
"""

from __future__ import annotations

from collections.abc import Mapping

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from scorekeeper.matches import i18n
from scorekeeper.matches.models import Hand, HandConfirmation, Match, Player, Seat
from scorekeeper.matches.selectors import match_score_sheet, running_values
from scorekeeper.rules import RULESETS
from scorekeeper.rules.options import PRESETS

#: Database ids are 64-bit; a larger number is a 400, not a database error.
MAX_ID = 2**63 - 1
MAX_VERSION = 2**31 - 1


# -- request bodies ------------------------------------------------------------------------
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


# -- errors ------------------------------------------------------------------------------
class ErrorItemSerializer(serializers.Serializer):
    code = serializers.CharField()
    message = serializers.CharField()
    field = serializers.CharField(help_text=gettext_lazy("path into the request, e.g. `record.tricks[3]`"))
    path = serializers.CharField(
        required=False, help_text=gettext_lazy("rule errors: the engine's path (spec 1.5)")
    )


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
    errors = ProblemSerializer(many=True)
    mismatches = MismatchSerializer(many=True)
    warnings = ProblemSerializer(many=True)


@extend_schema_field(EvaluationSerializer)
class EvaluationField(serializers.JSONField):
    """A hand's stored evaluation, the engine's ``to_dict()``: already in ``EvaluationSerializer``'s
    shape (its schema), so it is sent as it is rather than taken apart and put together again."""


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
    errors = ErrorItemSerializer(
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


# -- the catalog and the dry run -----------------------------------------------------------
#: An option's kinds and effects (named enums of the schema: settings.SPECTACULAR_SETTINGS).
OPTION_TYPES = ["bool", "int", "enum", "auto_int"]
OPTION_EFFECTS = ["scoring", "check", "recorded"]


class OptionSpecSerializer(serializers.Serializer):
    name = serializers.CharField()
    type = serializers.ChoiceField(OPTION_TYPES)
    effect = serializers.ChoiceField(OPTION_EFFECTS)
    label = serializers.CharField(
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


# -- players -------------------------------------------------------------------------------
class PlayerSerializer(serializers.ModelSerializer):
    class Meta:
        model = Player
        fields = ["id", "name", "created_at"]


class PlayerCreateSerializer(BodySerializer):
    name = serializers.CharField(max_length=100)


# -- matches -------------------------------------------------------------------------------
class SeatSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="player.name", read_only=True)

    class Meta:
        model = Seat
        fields = ["position", "player", "name", "team"]


class MatchSerializer(serializers.ModelSerializer):
    seats = SeatSerializer(many=True, read_only=True)
    created_by = serializers.SerializerMethodField()
    scorers = serializers.SerializerMethodField()
    totals = serializers.SerializerMethodField()

    class Meta:
        model = Match
        fields = [
            "id",
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


class PlayerDetailSerializer(PlayerSerializer):
    match_count = serializers.IntegerField(read_only=True)
    matches = MatchSerializer(many=True, read_only=True, help_text=gettext_lazy("the 20 most recent"))
    matches_url = serializers.CharField(read_only=True, help_text=gettext_lazy("all of them, paginated"))
    merged_into = serializers.IntegerField(
        source="merged_into_id",
        read_only=True,
        allow_null=True,
        help_text=gettext_lazy(
            "a duplicate merged into another player: that player's id (his matches are there)"
        ),
    )

    class Meta(PlayerSerializer.Meta):
        fields = [*PlayerSerializer.Meta.fields, "match_count", "matches", "matches_url", "merged_into"]


class MatchCreateSerializer(BodySerializer):
    game = GameField()
    preset = serializers.ChoiceField(PRESETS, default="classic")
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
    errors = ProblemSerializer(many=True)
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


class ScorerAddSerializer(BodySerializer):
    username = serializers.CharField(
        max_length=150, help_text=gettext_lazy("the user who may score this match too")
    )


class ScorersSerializer(serializers.Serializer):
    match = serializers.IntegerField()
    scorers = serializers.ListField(child=serializers.CharField())


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


class ReasonSerializer(BodySerializer):
    reason = serializers.CharField(max_length=2000, help_text=gettext_lazy("why (kept in the audit log)"))
    version = VersionField()


# -- hands ---------------------------------------------------------------------------------
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


# -- the other side's answers, players' accounts --------------------------------------------
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


class ClaimCodeSerializer(serializers.Serializer):
    """201 of a new account code: read it out to the player (shown only this once)."""

    player = serializers.IntegerField(source="player_id")
    player_name = serializers.CharField(source="player.name")
    code = serializers.CharField(help_text=gettext_lazy("shown only this once"))
    expires_at = serializers.DateTimeField()


#: What ``scorekeeper.matches.player_accounts.player_claim`` reads: eight letters or digits,
#: spaces and dashes anywhere (it normalises the rest: case, O for 0, I and L for 1).
CLAIM_CODE_PATTERN = r"^[ -]*(?:[0-9A-Za-z][ -]*){8}$"


class PlayerClaimSerializer(BodySerializer):
    code = serializers.RegexField(
        CLAIM_CODE_PATTERN,
        max_length=40,
        trim_whitespace=False,
        help_text=gettext_lazy("the code a scorer of your match gave you, e.g. 7KQ2-M9XD"),
    )
