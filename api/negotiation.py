"""DRF's content negotiation, remembered: its choice depends only on the request's Accept
header, its format (``?format=`` or a suffix) and the view's renderer classes.

DRF parses the Accept header and ranks its media types on every request; that took as long
as checking the token. Scoring apps send the same few headers (none, ``*/*``,
``application/json``), so the answer for each combination is computed by DRF once and
then looked up. An unacceptable request (406) is not remembered: DRF raises it each time.
"""

from __future__ import annotations

from rest_framework.negotiation import DefaultContentNegotiation

#: Headers are the client's to choose: past this many combinations, DRF decides each time.
MAX_REMEMBERED = 512


class ContentNegotiation(DefaultContentNegotiation):
    #: (Accept, format, renderer classes) → (position of the chosen renderer, media type).
    _chosen: dict[tuple, tuple[int, str]] = {}

    def select_renderer(self, request, renderers, format_suffix=None):
        format = format_suffix or request.query_params.get(self.settings.URL_FORMAT_OVERRIDE)
        key = (request.META.get("HTTP_ACCEPT"), format, tuple(type(renderer) for renderer in renderers))
        chosen = self._chosen.get(key)
        if chosen is not None:
            position, media_type = chosen
            return renderers[position], media_type
        renderer, media_type = super().select_renderer(request, renderers, format_suffix)
        if len(self._chosen) < MAX_REMEMBERED:
            position = next(i for i, candidate in enumerate(renderers) if candidate is renderer)
            self._chosen[key] = (position, media_type)
        return renderer, media_type
