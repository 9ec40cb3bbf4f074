"""The API's renderers: DRF's JSON, encoded by orjson, and DRF's HTML pages, fixed for lists.

Every API answer is rendered as JSON; the standard library's encoder took longer than the
rules engine took to score the hand. orjson writes the same document, with these
exceptions, which go to DRF's own renderer so that nothing changes for them:

- an indented answer (``Accept: application/json; indent=4``, the browsable API);
- data orjson refuses: integers beyond 64 bits, keys that are not strings;
- the settings ``UNICODE_JSON``, ``COMPACT_JSON`` or ``STRICT_JSON`` changed from DRF's defaults.

Dates, lazy strings, decimals and the rest go through DRF's encoder (``default``), so they
read as before. Like DRF, U+2028 and U+2029 are escaped (answers stay valid JavaScript).
A float may be spelled otherwise (``0.00006103515625`` for ``6.103515625e-05``), the same
number; all else is byte for byte DRF's (tests/api/test_renderer.py). A NaN or an infinity
would be written ``null`` where DRF raises, but none can reach an answer: the request
parser refuses them (``api/parsers.py``) and the engine counts in ints.
"""

from __future__ import annotations

import orjson
from rest_framework import renderers

# Datetimes, dates and times go to DRF's encoder, which writes UTC as "Z".
_OPTIONS = orjson.OPT_PASSTHROUGH_DATETIME


class JSONRenderer(renderers.JSONRenderer):
    #: orjson writes what DRF writes with its default settings: UTF-8, compact, strict.
    _like_drf = (
        not renderers.JSONRenderer.ensure_ascii
        and renderers.JSONRenderer.compact
        and renderers.JSONRenderer.strict
    )

    def render(self, data, accepted_media_type=None, renderer_context=None):
        if data is None:
            return b""
        if not self._like_drf or self.get_indent(accepted_media_type, renderer_context or {}) is not None:
            return super().render(data, accepted_media_type, renderer_context)
        try:
            rendered = orjson.dumps(data, default=self.encoder_class().default, option=_OPTIONS)
        except TypeError:  # orjson.JSONEncodeError: let DRF encode it, or raise its own error
            return super().render(data, accepted_media_type, renderer_context)
        if b"\xe2\x80\xa8" in rendered or b"\xe2\x80\xa9" in rendered:  # U+2028, U+2029
            rendered = rendered.replace(b"\xe2\x80\xa8", b"\\u2028").replace(b"\xe2\x80\xa9", b"\\u2029")
        return rendered


class BrowsableAPIRenderer(renderers.BrowsableAPIRenderer):
    """DRF's HTML pages of the API, for a browser that asks for HTML.

    DRF builds a filter form on list pages by calling the view's ``get_queryset()``, which
    the API's lists (games, players, matches) do not define: they page what a selector
    returns. No view has a filter backend, so there is no filter form to build.
    """

    def get_filter_form(self, data, view, request):
        if not getattr(view, "filter_backends", None):
            return None
        return super().get_filter_form(data, view, request)
