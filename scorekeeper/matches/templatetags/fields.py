"""A form field on the pages: ``{% load fields %}{% field_group field %}``.

The same markup as ``{% include "matches/_field.html" %}`` (that template is the reference,
and the other pages' forms still include it; tests/pages/test_field_markup.py holds the two
equal for every field of every game's hand form, with and without errors), built here in
one pass. A hand form has 15–30 fields, and the include's template engine work (a context
per field, some thirty variable lookups each, their escaping) was a third of the hand form's
CPU (docs/performance.md, "Club night"). The widgets themselves are still drawn by the form's
renderer, as ``{{ field }}`` draws them.
"""

from __future__ import annotations

from django import template
from django.forms import BoundField
from django.utils.html import conditional_escape
from django.utils.safestring import SafeString, mark_safe

register = template.Library()

#: ``BoundField.widget_type`` of the widgets drawn as a group of options in a fieldset.
GROUPS = ("radioselect", "checkboxselectmultiple")


@register.simple_tag
def field_group(field: BoundField) -> SafeString:
    """``_field.html`` for ``field``, its line breaks and all (the template's text between its
    tags comes out as it is written)."""
    esc = conditional_escape
    kind = field.widget_type
    if kind == "hidden":
        return mark_safe(f"{field}\n")
    errors = field.errors
    help_text = field.help_text
    name = esc(field.html_name)
    out = [f'\n\n<div class="field{" has-error" if errors else ""}" data-field="{name}">\n']
    if kind in GROUPS:
        described = ""
        if help_text or errors:
            auto_id = esc(field.auto_id)
            described = ' aria-describedby="{}{}"'.format(
                f"{auto_id}_helptext" if help_text else "", f" {auto_id}_error" if errors else ""
            )
        options = "".join(
            f'<label class="opt">{option.tag()}<span>{esc(option.choice_label)}</span></label>'
            for option in field
        )
        out.append(
            f"\n  <fieldset{described}>\n    <legend>{esc(field.label)}</legend>\n"
            f'    <div class="seg">{options}</div>\n  </fieldset>\n'
        )
    elif kind == "checkbox":
        out.append(f'\n  <label class="check">{field} <span>{esc(field.label)}</span></label>\n')
    else:
        out.append(f'\n  <label for="{esc(field.id_for_label)}">{esc(field.label)}</label>\n  {field}\n')
    out.append("\n")
    if help_text:
        out.append(f'<div class="help" id="{esc(field.auto_id)}_helptext">{esc(help_text)}</div>')
    out.append("\n")
    if errors:
        # An ErrorList yields its messages (text); the stubs type its items as the ValidationError.
        # An ErrorList yields its messages (text); the stubs type its items as the ValidationError.
        problems = "".join(f'<div class="problem">{esc(error)}</div>' for error in errors)  # type: ignore[arg-type]  # type: ignore[arg-type]
        out.append(f'<div class="problems" id="{esc(field.auto_id)}_error">{problems}</div>')
    out.append("\n")
    if getattr(field.field, "live_slot", False):
        out.append(f'<div class="live" id="live-{name}" data-live-for="{name}"></div>')
    out.append("\n</div>\n")
    return mark_safe("".join(out))


# The piquet form's declaration pickers (hand_form.html): eleven to thirteen buttons a picker,
# two pickers a form, their letters and names in the page's language (forms/piquet.py, picker).
# The markup of the template loops they replace (tests/pages/test_field_markup.py has them).
@register.simple_tag
def picker_counts(counts) -> SafeString:
    """A button a count: ``<button type="button" data-count="3">3</button>``."""
    buttons = (
        f'<button type="button" data-count="{c}">{c}</button>' for c in map(conditional_escape, counts)
    )
    return mark_safe("".join(buttons))


@register.simple_tag
def picker_ranks(ranks) -> SafeString:
    """A button a rank, its letter seen and its name said."""
    esc = conditional_escape
    return mark_safe(
        "".join(
            f'<button type="button" data-rank="{esc(rank["letter"])}">{esc(rank["letter"])}'
            f'<span class="visually-hidden"> {esc(rank["name"])}</span></button>'
            for rank in ranks
        )
    )
