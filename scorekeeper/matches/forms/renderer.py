"""The renderer of the pages' forms (the hand forms, the new-match form, the scorer form).

Django's Jinja2 renderer with its widget templates, but the few templates a hand form's
widgets use (an input, an option of a radio or checkbox group, a textarea) written here in
one pass: a piquet form draws 26 widgets, one Jinja2 template and its attributes' include
each, and they were most of what was left of the form's cost once its fields were drawn in
one pass (docs/performance.md, "Club night"). The markup is the Jinja2 templates' own, escaped
as Jinja2 escapes (markupsafe: ``&#34;`` for a quote, where Django writes ``&quot;``);
tests/pages/test_field_markup.py holds it equal to them. Any other template is Jinja2's.
"""

from __future__ import annotations

from typing import Any

from django.forms.renderers import Jinja2
from markupsafe import escape

#: The widget templates that only include input.html.
_INPUT_NAMES = "input text number hidden checkbox email url password search tel color date datetime time"
_INPUTS = frozenset(f"django/forms/widgets/{name}.html" for name in _INPUT_NAMES.split())
_OPTIONS = frozenset(("django/forms/widgets/radio_option.html", "django/forms/widgets/checkbox_option.html"))
_TEXTAREA = "django/forms/widgets/textarea.html"


def _attrs(attrs: dict[str, Any]) -> str:
    # attrs.html: an attribute False is left out, True is written bare.
    return "".join(
        f" {escape(name)}" if value is True else f' {escape(name)}="{escape(value)}"'
        for name, value in attrs.items()
        if value is not False
    )


def _input(widget: dict[str, Any]) -> str:
    # input.html
    value = widget["value"]
    shown = "" if value is None else f' value="{escape(value)}"'
    kind, name = escape(widget["type"]), escape(widget["name"])
    return f'<input type="{kind}" name="{name}"{shown}{_attrs(widget["attrs"])}>'


def _option(widget: dict[str, Any]) -> str:
    # input_option.html (radio_option.html and checkbox_option.html include it)
    if not widget.get("wrap_label"):
        return _input(widget)
    ident = widget["attrs"].get("id")
    label_for = f' for="{escape(ident)}"' if ident else ""
    return f"<label{label_for}>{_input(widget)} {escape(widget['label'])}</label>"


def _textarea(widget: dict[str, Any]) -> str:
    # textarea.html
    value = widget["value"]
    text = escape(value) if value else ""
    return f'<textarea name="{escape(widget["name"])}"{_attrs(widget["attrs"])}>\n{text}</textarea>'


class WidgetsRenderer(Jinja2):
    def render(self, template_name, context, request=None):
        widget = context.get("widget") if isinstance(context, dict) else None
        if widget is not None:
            if template_name in _INPUTS:
                return _input(widget)
            if template_name in _OPTIONS:
                return _option(widget)
            if template_name == _TEXTAREA:
                return _textarea(widget)
        return super().render(template_name, context, request=request)
