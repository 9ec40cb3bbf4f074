"""Export a match (JSON document or CSV score sheet) and import the JSON document back.

GET  /api/v1/matches/<id>/export.json | export.csv | export?format=json|csv
POST /api/v1/matches/import

The document and the import rules are described in ``scorekeeper/matches/exchange.py``.
"""

from __future__ import annotations

import csv
import io

from django.utils.functional import lazy
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, extend_schema_field
from rest_framework import serializers, status
from rest_framework.exceptions import NotFound
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAuthenticated
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView

from scorekeeper.clubs.selectors import club_seen
from scorekeeper.matches import exchange
from scorekeeper.matches.models import Match
from scorekeeper.rules.options import PRESETS

from . import schema
from .bodies import MAX_ID, BodySerializer, GameField
from .idempotency import idempotent
from .matches import MatchDetailSerializer

FORMAT = OpenApiParameter(
    "format",
    str,
    OpenApiParameter.QUERY,
    enum=["json", "csv"],
    description=gettext_lazy("json (the default): the document the import reads back; csv: the score sheet"),
)


class ScoreSheetCSVRenderer(BaseRenderer):
    """An export document rendered as its score sheet (``exchange.match_export_rows``)."""

    media_type = "text/csv"
    format = "csv"
    charset = "utf-8"

    def render(self, data, accepted_media_type=None, renderer_context=None):
        out = io.StringIO()
        rows = ([_inert(cell) for cell in row] for row in exchange.match_export_rows(data))
        csv.writer(out, lineterminator="\r\n").writerows(rows)
        return out.getvalue().encode(self.charset)


def _inert(cell):
    """A text cell that a spreadsheet would run as a formula (a player named "=HYPERLINK(…)")
    is written with a leading apostrophe; numbers are left alone."""
    if isinstance(cell, str) and cell[:1] in ("=", "+", "-", "@", "\t", "\r"):
        return "'" + cell
    return cell


# -- the document ----------------------------------------------------------------------
class ExportPlayerSerializer(BodySerializer):
    seat = serializers.IntegerField(
        required=False, min_value=0, help_text=gettext_lazy("information: the list is in seat order")
    )
    name = serializers.CharField(
        required=False, max_length=100, help_text=gettext_lazy("import: matched or created by name")
    )
    player = serializers.IntegerField(
        required=False,
        write_only=True,
        min_value=1,
        max_value=MAX_ID,
        help_text=gettext_lazy("import only: an existing player of this site, by id"),
    )
    team = serializers.IntegerField(required=False, allow_null=True, min_value=0)
    id = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_ID,
        help_text=gettext_lazy(
            "the player's id on the exporting site: an import on that same site (`site`) binds by it"
        ),
    )

    def validate(self, attrs):
        if "player" not in attrs and not (attrs.get("name") or "").strip():
            raise serializers.ValidationError(
                _("give the player's name or an existing player id"), code="name_missing"
            )
        return attrs


class ExportHandSerializer(BodySerializer):
    number = serializers.IntegerField(
        required=False, min_value=1, help_text=gettext_lazy("information: hands are in order")
    )
    record = serializers.DictField(
        help_text=gettext_lazy("the hand record as the scorers entered it (the game's record schema)")
    )
    accept_declared = serializers.BooleanField(
        default=False,
        help_text=gettext_lazy("record with the declared scores standing over mismatches (spec 1.6)"),
    )
    reason = serializers.CharField(
        default="", allow_blank=True, help_text=gettext_lazy("why (required with accept_declared)")
    )
    version = serializers.IntegerField(read_only=True)
    status = serializers.CharField(read_only=True)
    dealer = serializers.IntegerField(read_only=True, allow_null=True)
    declared = serializers.JSONField(read_only=True, allow_null=True)
    computed = serializers.JSONField(read_only=True, allow_null=True)
    running = serializers.JSONField(
        read_only=True, allow_null=True, help_text=gettext_lazy("totals (cul: banks) after the hand")
    )
    errors = serializers.JSONField(read_only=True)  # type: ignore[assignment]  # a field, not Serializer.errors
    mismatches = serializers.JSONField(read_only=True)


@extend_schema_field({"type": "string", "enum": [exchange.FORMAT]}, component_name="ExportFormatEnum")
class FormatField(serializers.CharField):
    """The document's ``format``: one value (checked by ``MatchExportSerializer.validate_format``)."""


@extend_schema_field(
    {"type": "integer", "enum": [exchange.FORMAT_VERSION]}, component_name="ExportFormatVersionEnum"
)
class FormatVersionField(serializers.IntegerField):
    """The document's ``format_version``: the one this site reads."""


class MatchExportSerializer(BodySerializer):
    """A match export. An import reads format, format_version, game, preset, options, title,
    played_at, players (name or player, team), hands (record, accept_declared, reason), status and
    void_reason; the other fields are information and are recomputed on import."""

    format = FormatField(
        help_text=lazy(lambda: _("always %(format)s") % {"format": repr(exchange.FORMAT)}, str)()
    )
    format_version = FormatVersionField(
        help_text=lazy(lambda: _("%(version)s for this site") % {"version": exchange.FORMAT_VERSION}, str)()
    )
    site = serializers.CharField(
        required=False,
        allow_blank=True,
        max_length=200,
        help_text=gettext_lazy(
            "the exporting site (SCOREKEEPER_SITE): an import there binds players by `id`"
        ),
    )
    club = serializers.SlugField(
        required=False,
        write_only=True,
        help_text=gettext_lazy("the club to import into (its scorer role); left out, the home club"),
    )
    exported_at = serializers.DateTimeField(read_only=True)
    match = serializers.IntegerField(
        read_only=True, help_text=gettext_lazy("the match's id on the exporting site")
    )
    version = serializers.IntegerField(read_only=True)
    game = GameField(help_text=None)
    preset = serializers.ChoiceField(choices=PRESETS, default="classic")
    options = serializers.DictField(default=dict)
    title = serializers.CharField(default="", allow_blank=True, max_length=200)
    status = serializers.ChoiceField(choices=Match.Status.choices, required=False)
    void_reason = serializers.CharField(required=False, allow_null=True, allow_blank=True)
    created_at = serializers.DateTimeField(read_only=True)
    played_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        default=None,
        help_text=gettext_lazy(
            "when the match was played (the date its scorer gave, else when its last hand was "
            "recorded; empty while it is in play): an import keeps it, so the match keeps its place "
            "in the ratings' order"
        ),
    )
    players = ExportPlayerSerializer(many=True, allow_empty=False)
    # DRF passes max_length on to the ListSerializer of many=True; its stubs do not declare it.
    hands = ExportHandSerializer(many=True, max_length=exchange.MAX_HANDS)  # type: ignore[call-arg]
    totals = serializers.JSONField(read_only=True, allow_null=True)
    result = serializers.JSONField(read_only=True, allow_null=True)

    def validate_format(self, value):
        if value != exchange.FORMAT:
            raise serializers.ValidationError(
                _("this is not a match export (format must be '%(format)s')") % {"format": exchange.FORMAT},
                code="format_unknown",
            )
        return value

    def validate_format_version(self, value):
        if value != exchange.FORMAT_VERSION:
            raise serializers.ValidationError(
                _("export format version %(version)s is not supported (this site reads %(supported)s)")
                % {"version": value, "supported": exchange.FORMAT_VERSION},
                code="format_version_unsupported",
            )
        return value


# -- views -----------------------------------------------------------------------------
class MatchExport(APIView):
    """A match as a JSON document (rebuildable with the import) or a CSV score sheet.

    The format comes from the suffix (``export.json``, ``export.csv``), ``?format=``, or the
    Accept header; JSON by default.
    """

    renderer_classes = [JSONRenderer, ScoreSheetCSVRenderer]

    @extend_schema(
        summary=gettext_lazy("Export a match: a JSON document (for the import) or a CSV score sheet"),
        parameters=[FORMAT],
        responses={
            (200, "application/json"): MatchExportSerializer,
            (200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description=gettext_lazy("the score sheet")),
            **schema.errors(404),
        },
    )
    def get(self, request, pk, format=None):
        if request.query_params.get("format") == "":
            # DRF reads an empty ?format= as none given; any other unknown one is its 404.
            raise NotFound()
        match = get_object_or_404(Match.objects.all(), pk=pk)
        fmt = request.accepted_renderer.format
        return Response(
            exchange.match_export(match=match),
            headers={"Content-Disposition": f'attachment; filename="match-{match.pk}.{fmt}"'},
        )

    def finalize_response(self, request, response, *args, **kwargs):
        # Only an export document has a score sheet: an error body or the OPTIONS metadata
        # is JSON whatever format was asked for.
        if isinstance(response, Response) and not exchange.is_export(response.data):
            request.accepted_renderer, request.accepted_media_type = JSONRenderer(), "application/json"
            response.headers.pop("Content-Disposition", None)
        return super().finalize_response(request, response, *args, **kwargs)


class MatchImport(APIView):
    """Rebuild a match from an export document: players found or created, every hand recorded
    again as live (validated by the rules), all or nothing. Answers the new match's score sheet."""

    permission_classes = [IsAuthenticated]
    #: A document of hundreds of hands is larger than any other body (api/parsers.py).
    body_limit_setting = "API_IMPORT_MAX_BODY"

    @extend_schema(
        summary=gettext_lazy(
            "Import a match from an export document (validated like live recording, all or nothing)"
        ),
        request=MatchExportSerializer,
        responses={201: MatchDetailSerializer, **schema.errors(*schema.WRITE_ERRORS)},
        parameters=[schema.IDEMPOTENCY_KEY],
    )
    @idempotent
    def post(self, request, format=None):
        serializer = MatchExportSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        document = serializer.validated_data
        club = club_seen(document["club"], request.user) if document.get("club") else None
        match = exchange.match_import(document=document, by=request.user, club=club)
        body = MatchDetailSerializer(match, context={"request": request}).data
        return Response(
            body,
            status=status.HTTP_201_CREATED,
            headers={"Location": reverse("api:match-detail", args=[match.pk], request=request)},
        )
