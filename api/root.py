"""``GET /api/v1/``: the links to the API's resources, its schema and its docs."""

from __future__ import annotations

from collections import OrderedDict

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.reverse import reverse
from rest_framework.views import APIView


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
