"""The ratings' template tags on the matches' pages (``{% load ratings %}``): the score sheet's
rating changes and the new match's chances, read by the tags themselves so that matches' views
know nothing of the ratings."""

from __future__ import annotations

import pytest
from django.template import Context, Template
from django.utils import translation

from ratings import services as ratings
from scorekeeper.matches.templatetags.club import percent

pytestmark = pytest.mark.django_db


def render(source: str, **context) -> str:
    return Template("{% load ratings %}" + source).render(Context(context))


def test_the_rating_changes_of_a_match_not_rated_yet_render_nothing_at_all(play):
    # Not even a newline: the score sheet keeps its layout around the tag.
    assert render("{% match_rating_changes match %}", match=play([0, 1], [10, 3])) == ""


def test_a_match_in_play_has_no_rating_changes_to_look_for(play, django_assert_num_queries):
    started, under_way = play([0, 1]), play([0, 1], [3, 2], target=100)
    ratings.rating_events_process_all()

    for match in (started, under_way):
        assert match.status == "in_progress"
        with django_assert_num_queries(0):  # a pool rates finished matches only
            assert render("{% match_rating_changes match %}", match=match) == ""


def test_the_rating_changes_of_a_rated_match_link_each_player_in_seat_order(play, players):
    match = play([1, 0], [10, 3])
    ratings.rating_events_process_all()

    html = render("{% match_rating_changes match %}", match=match)

    assert html.startswith('\n<section class="rating-changes"') and html.endswith("</section>\n")
    assert html.index(players[1].get_absolute_url()) < html.index(players[0].get_absolute_url())
    # Newcomers: 48 % to win each (50 % counting a draw half), and the score, his side's first.
    assert html.count("48 % to win, won 10–3: +") == 1 and html.count("48 % to win, lost 3–10: −") == 1


def test_no_chances_are_shown_until_the_page_asks_for_them():
    assert render("{% table_chances 'tally' seats %}", seats=None) == ""


def test_the_chances_of_a_table_name_every_side(tally, players):
    seats = [("id", players[0].pk), ("new", "Newcomer")]

    html = render("{% table_chances 'tally' seats %}", seats=seats)

    assert html.startswith('\n  <section class="card prediction" id="prediction">') and html.endswith("\n  ")
    assert f"<tr><td>{players[0].name}" in html and "<tr><td>Newcomer" in html


@pytest.mark.parametrize(
    ("value", "language", "shown"),
    [
        (0.369, "en", "37 %"),
        (0.364, "en", "36 %"),
        (0.995, "en", "100 %"),
        (0.0, "en", "0 %"),
        (1, "ru", "100 %"),
    ],
)
def test_a_chance_is_shown_rounded_to_the_nearest_percent_not_cut(value, language, shown):
    with translation.override(language):
        assert percent(value) == shown


def test_a_chance_that_is_not_a_number_shows_a_dash():
    assert percent(None) == "—" and percent("0.5") == "—" and percent(True) == "—"
