"""``{% breakdown_table %}`` (templatetags/outcome.py) writes the same bytes as its reference
template, ``matches/_breakdown.html``, in every language: for the breakdown of real piquet hands
as the recorded hand's page gives it, and for awkward values (markup in a name, no score, no
note, big and negative points)."""

from __future__ import annotations

import pytest
from django.conf import settings
from django.template import engines
from django.template.loader import get_template
from django.utils import translation

from scorekeeper.matches.services import hand_record, match_create
from scorekeeper.matches.views.matches import _outcome
from tests.pages.test_live_check import RECORD_1

pytestmark = pytest.mark.django_db

LANGUAGES = [code for code, _ in settings.LANGUAGES]
TAG = engines["django"].from_string("{% load outcome %}{% breakdown_table outcome.seats %}")

AWKWARD = [
    {
        "name": '<b>"Zoë" & Co</b>',
        "number": 1,
        "score": None,
        "lines": [
            {"label": "point", "note": "4 cards <&>", "points": 12345},
            {"label": "Ruff & <i>", "points": -7},
            {"label": "", "note": None, "points": 1.5},
        ],
    },
    {"name": "", "number": 12, "score": 1000000, "lines": []},
]


def both(seats: list) -> tuple[str, str]:
    context = {"outcome": {"seats": seats}}
    return TAG.render(context), get_template("matches/_breakdown.html").render(context)


@pytest.fixture
def piquet_seats(user, make_players):
    match = match_create(game="piquet", players=make_players("Anne <A>", "Bruno & B"), by=user)
    hand = hand_record(match=match, record=RECORD_1, by=user)
    return hand.evaluation, ["Anne <A>", "Bruno & B"]


@pytest.mark.parametrize("language", LANGUAGES)
def test_a_real_hands_breakdown_is_written_as_the_template_writes_it(language, piquet_seats):
    evaluation, names = piquet_seats
    with translation.override(language):
        seats = _outcome(evaluation, names, "piquet")["seats"]
        tag, reference = both(seats)

    assert len(seats) == 2 and all(seat["lines"] for seat in seats)
    assert tag == reference


@pytest.mark.parametrize("language", LANGUAGES)
def test_awkward_values_are_written_as_the_template_writes_them(language):
    with translation.override(language):
        tag, reference = both(AWKWARD)

    assert tag == reference
    assert "&lt;b&gt;&quot;Zoë&quot; &amp; Co&lt;/b&gt;" in tag


def test_no_seats_is_an_empty_table_as_the_template_draws_it():
    tag, reference = both([])

    assert tag == reference
