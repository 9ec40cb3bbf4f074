"""The hand forms' fields and pickers drawn in one pass: the markup of the templates they replace.

``{% field_group field %}`` (templatetags/fields.py) stands for ``{% include
"matches/_field.html" %}``, and the pages' forms' renderer (forms/renderer.py) for Django's
Jinja2 widget templates. Every field of every game's form, in the four languages, unbound (a
new hand, with its suggested values), pre-filled from a stored record (a correction) and bound
to what a player may type (errors, quotes and markup in the values), is drawn both ways and
must be the same to the byte.
"""

import pytest
from django.forms.renderers import Jinja2
from django.template import Context, Template
from django.template.loader import get_template
from django.utils import translation

from scorekeeper.matches.forms import HAND_FORMS, MatchCreateForm, PiquetForm, ScorerAddForm, hand_form_class
from scorekeeper.matches.templatetags.fields import field_group, picker_counts, picker_ranks
from scorekeeper.rules import find_ruleset
from tests.rules.conformance import load_cases

LANGUAGES = ["en", "fr", "de", "ru"]
#: Django's own Jinja2 renderer: the widget templates the pages' renderer writes in one pass.
STOCK = Jinja2()
#: Typed values that escaping must treat alike on both paths.
AWKWARD = ['a"b', "<b>x</b>", "l'as & co", "1", "", "zz", "10S AS", "-3", "Ж"]


def reference(field) -> str:
    return get_template("matches/_field.html").render({"field": field})


def both_ways(form_class, kwargs, stock=STOCK, **how):
    """(fast, stock) markup of every field: the form's renderer with the tag, Django's Jinja2
    (or the form's own renderer, ``stock`` None) with the template."""
    fast = form_class(**how, **kwargs)
    stock = form_class(**how, renderer=stock, **kwargs)
    return [(field_group(fast[name]), reference(stock[name])) for name in fast.fields]


def seat_names(n):
    return [f'Zoé "{i}" <&>' for i in range(n)]


def cases():
    for game in sorted(HAND_FORMS):
        for seats in find_ruleset(game).seat_counts:
            for language in LANGUAGES:
                yield pytest.param(game, seats, language, id=f"{game}-{seats}-{language}")


@pytest.mark.parametrize(("game", "seats", "language"), list(cases()))
def test_every_field_of_a_hand_form_is_drawn_as_the_template_draws_it(game, seats, language):
    form_class = hand_form_class(game)
    kwargs = {"game": game, "seats": seat_names(seats), "options": {}}
    state = find_ruleset(game).create(seats=seats).initial_state()
    with translation.override(language):
        drawn = both_ways(form_class, {**kwargs, "state": state})
        # Suggested values of a new hand, as the page pre-fills them.
        suggested = form_class(state=state, **kwargs).suggested()
        drawn += both_ways(form_class, {**kwargs, "state": state}, initial={**suggested, "version": 3})
        # What a player types, good and bad: every field gets each awkward value in turn.
        names = list(form_class(**kwargs).fields)
        for shift, _value in enumerate(AWKWARD):
            data = {name: AWKWARD[(i + shift) % len(AWKWARD)] for i, name in enumerate(names)}
            data["record_json"] = '{"x": "<\\"q\\">"' if shift % 2 else ""
            drawn += both_ways(form_class, kwargs, data=data)
        # A correction, pre-filled from the conformance records with this many seats.
        for case in load_cases(game):
            if case["seats"] != seats:
                continue
            for record in case["hands"] if "hands" in case else [case["hand"]]:
                initial = form_class.initial_from(record, **kwargs)
                drawn += both_ways(form_class, kwargs, initial=initial)
    assert drawn
    for fast, stock in drawn:
        assert fast == stock


@pytest.mark.parametrize("language", LANGUAGES)
def test_the_other_forms_fields_are_drawn_as_the_template_draws_them(language, db):
    with translation.override(language):
        drawn = both_ways(MatchCreateForm, {"game": "piquet"})
        bad = {"title": 'a"<b>', "preset": "x", "seat_0": "1", "new_1": "Zoé 'x'", "played_at": "no"}
        drawn += both_ways(MatchCreateForm, {"game": "piquet"}, data=bad)
        drawn += both_ways(ScorerAddForm, {})
        drawn += both_ways(ScorerAddForm, {}, data={"username": '"<x>'})
    for fast, stock in drawn:
        assert fast == stock


#: The loops of hand_form.html that ``picker_counts`` and ``picker_ranks`` replace.
PICKER_LOOPS = (
    '{% for count in picker.counts %}<button type="button" data-count="{{ count }}">{{ count }}</button>'
    "{% endfor %}|{% for rank in picker.ranks %}"
    '<button type="button" data-rank="{{ rank.letter }}">{{ rank.letter }}<span class="visually-hidden"> '
    "{{ rank.name }}</span></button>{% endfor %}"
)


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("game", sorted(PiquetForm.games))
def test_the_pickers_buttons_are_drawn_as_the_template_loops_drew_them(game, language):
    form = PiquetForm(game=game, seats=seat_names(2), options={})
    with translation.override(language):
        pickers = [section["picker"] for section in form.sections() if "picker" in section]
        awkward = {"target": "x", "counts": ['"1"', "<2>"], "ranks": [{"letter": "&", "name": "'a\""}]}
        assert pickers
        for picker in [*pickers, awkward]:
            stock = Template("{% load fields %}" + PICKER_LOOPS).render(Context({"picker": picker}))
            fast = f"{picker_counts(picker['counts'])}|{picker_ranks(picker['ranks'])}"
            assert fast == stock
