"""The pages' Jinja2-drawn forms (the hand forms, the new-match form) draw a field with
``matches/field.html``; the other pages' forms with Django's ``matches/_field.html``. Both give
the same markup, errors, help, choices and the live check's slot included."""

import re

import pytest
from django.template import engines

from scorekeeper.matches.forms import HAND_FORMS, MatchCreateForm
from scorekeeper.rules import find_ruleset

DJANGO_FIELD = engines["django"].from_string(
    '{% for field in fields %}{% include "matches/_field.html" %}\n{% endfor %}'
)


def both(fields) -> tuple[str, str]:
    ours = "\n".join(field.as_field_group() for field in fields)
    stock = DJANGO_FIELD.render({"fields": fields})
    return tuple(re.sub(r">\s+<", "><", html.strip()) for html in (ours, stock))


@pytest.mark.parametrize(("game", "form_class"), sorted(HAND_FORMS.items()))
def test_a_hand_forms_fields_are_drawn_as_by_the_django_template(game, form_class):
    names = ["Anne", "Bruno d'Arc", 'Cy "C"', "Dee"]
    for seats in (2, 3, 4):
        if seats not in find_ruleset(game).seat_counts:
            continue
        blank = form_class(game=game, seats=names[:seats], options={})
        ours, stock = both(list(blank))
        assert ours == stock
        # Bound, with an error on every field: the problems' ids and aria-describedby as well.
        bound = form_class({name: "<x>" for name in blank.fields}, game=game, seats=names[:seats], options={})
        bound.is_valid()
        for name in bound.fields:
            bound.add_error(name, "It's <wrong>.")
        ours, stock = both(list(bound))
        assert ours == stock and "It&#x27;s &lt;wrong&gt;." in ours


@pytest.mark.django_db
def test_the_new_match_forms_fields_are_drawn_as_by_the_django_template(make_players):
    make_players("Anne", "Bruno d'Arc")
    form = MatchCreateForm({"seat_0": "x", "preset": "nope", "title": "<b>"}, game="piquet")
    form.is_valid()
    fields = [row[key] for row in form.seat_rows() for key in ("player", "new")]
    fields += [form["preset"], *form.option_fields(), form["title"], form["played_at"]]
    ours, stock = both(fields)
    assert ours == stock and "has-error" in ours
