"""DRF's HTML pages of the API, fixed for the list pages."""

from __future__ import annotations

from rest_framework import renderers


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

    def get_context(self, data, accepted_media_type, renderer_context):
        context = super().get_context(data, accepted_media_type, renderer_context)
        # Pygments' colours for code in the views' Markdown docs, as a <style> block that the
        # Content-Security-Policy refuses: without the markdown package nothing is highlighted.
        context["code_style"] = None
        return context
