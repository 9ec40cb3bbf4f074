"""Quicker entry on the hand form (issue 22): seats counted from 1 and named, tricks by the
winners' initials, the explanations in plain words."""

from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scorekeeper.matches.forms import PiquetForm
from scorekeeper.matches.forms.piquet import parse_tricks, show_tricks, trick_marks
from scorekeeper.matches.models import Hand
from scorekeeper.matches.services import match_create


@pytest.fixture
def scorer(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def piquet(user, make_players):
    return match_create(game="piquet", players=make_players("Anne", "Bruno"), by=user)


def post(client, match, data):
    return client.post(reverse("hand-new", args=[match.pk]), {"version": match.version, **data})


#: Cavendish's deal P11 of the conformance cases, typed as a scorer would: tricks by initials.
P11 = {
    "dealer": "1",
    "point_scorer": "0", "point_cards": "6", "point_pips": "55",
    "sequences_scorer": "0", "sequences_runs": "5J 3J",
    "sets_scorer": "1", "sets_sets": "4Q 3K",
    "tricks": "abbb bbaa aaaa",
    "declared_0": "43", "declared_1": "23",
}  # fmt: skip


# -- tricks by initials ------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("names", "marks"),
    [
        (["Anne", "Bruno"], ["A", "B"]),
        (["Анна", "Борис"], ["А", "Б"]),
        (["Anne", "Albert"], ["AN", "AL"]),  # one initial is not enough
        (["Ann", "Ann"], ["A", "B"]),  # nor two letters: the seats' letters
        (["7", "8"], ["A", "B"]),  # no letters at all
        (["Jakob", "Karl", "Lena", "Marie"], ["J", "K", "L", "M"]),
    ],
)
def test_each_seat_has_a_mark_of_its_players_name_all_of_one_length(names, marks):
    assert trick_marks(names) == marks


def test_initials_are_read_in_any_case_and_the_records_seat_numbers_still_are():
    marks = ["A", "B"]
    assert parse_tricks("abBB b,baa AAAA", marks) == [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    assert parse_tricks("0111 1100 0000", marks) == [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]
    assert parse_tricks("ANALAL", ["AN", "AL"]) == [0, 1, 1]
    assert show_tricks([0, 1, 1, 1, 1, 1, 0], marks) == "ABBB BBA"
    assert show_tricks([0, 1, 1], ["AN", "AL"]) == "AN AL AL"


@pytest.mark.django_db
def test_a_deal_typed_with_initials_is_recorded(scorer, piquet):
    response = post(scorer, piquet, P11)

    assert response.status_code == 302
    assert Hand.objects.get(match=piquet).record["tricks"] == [0, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0]


@pytest.mark.django_db
def test_a_letter_that_is_nobodys_initial_is_named(scorer, piquet):
    response = post(scorer, piquet, {**P11, "tricks": "ABBX"})

    assert response.status_code == 400
    [error] = response.context["form"].errors["tricks"]
    assert error == "“X” is nobody's initial here: write one initial per trick, e.g. ABBB BA"
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_a_correction_shows_the_tricks_by_initials_and_the_tapper_names_each_player(scorer, piquet):
    post(scorer, piquet, P11)
    piquet.refresh_from_db()

    response = scorer.get(reverse("hand-correct", args=[piquet.pk, 1]))

    assert response.context["form"]["tricks"].value() == "ABBB BBAA AAAA"
    body = response.content.decode()
    assert "One initial per trick, its winner&#x27;s (A = Anne, B = Bruno)." in body
    assert 'data-seat="0" data-mark="A"><b aria-hidden="true">A</b> Anne</button>' in body


def test_the_russian_form_reads_cyrillic_initials():
    form = PiquetForm(data={"tricks": "абб бб"}, game="piquet", seats=["Анна", "Борис"], options={})
    form.is_valid()
    assert form.cleaned_data["tricks_parsed"] == [0, 1, 1, 1, 1]


# -- seats from 1 --------------------------------------------------------------------------------
@pytest.mark.django_db
def test_seats_are_counted_from_one_by_their_names(scorer, user, make_players):
    match = match_create(game="cul", players=make_players("Ada", "Bea", "Cy"), by=user)

    body = scorer.get(reverse("hand-new", args=[match.pk])).content.decode()

    assert "Ada (seat 1)" in body and "Cy (seat 3)" in body
    assert "(seat 0)" not in body


@pytest.mark.django_db
def test_the_new_match_form_numbers_its_seats_from_one(scorer):
    body = scorer.get(reverse("match-new-game", args=["piquet-voleur"])).content.decode()

    assert "Seat 1 first, then clockwise; seats 1 and 3 play against 2 and 4." in body
    assert ">Seat 1</label>" in body and ">Seat 4</label>" in body and ">Seat 0<" not in body


# -- explanations in words -----------------------------------------------------------------------
@pytest.mark.django_db
def test_the_english_explanation_names_the_items_in_words(scorer, piquet):
    response = post(scorer, piquet, {**P11, "declared_0": "40"})

    assert response.status_code == 400
    body = response.content.decode()
    assert "seat 1 (Anne) declared 40, rules give 43: point 6, sequences 18, leads 7" in body
    assert "last trick 1, the cards 10" in body and "tricks taken" in body
    assert "last_trick" not in body and "capture " not in body


# -- ranks in the page's language ------------------------------------------------------------------
@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "runs", "sets"),
    [("ru", "5в 3В", "4Д, 3к"), ("de", "5B 3b", "4D 3K"), ("fr", "5V 3v", "4D 3R"), ("en", "5J 3j", "4Q 3K")],
)
def test_ranks_typed_in_the_pages_language_reach_the_engine_as_its_own(scorer, piquet, language, runs, sets):
    data = {**P11, "sequences_runs": runs, "sets_sets": sets, "tricks": "0111 1100 0000"}

    url = reverse("hand-new", args=[piquet.pk])
    response = scorer.post(url, {"version": piquet.version, **data}, HTTP_ACCEPT_LANGUAGE=language)

    assert response.status_code == 302, response.content.decode()[-3000:]
    record = Hand.objects.get(match=piquet).record
    assert record["sequences"]["runs"] == [{"length": 5, "top": "J"}, {"length": 3, "top": "J"}]
    assert record["sets"]["sets"] == [{"count": 4, "rank": "Q"}, {"count": 3, "rank": "K"}]


@pytest.mark.django_db
def test_the_engines_notation_is_still_read_in_russian_and_shown_in_russian_letters(scorer, piquet):
    scorer.post(
        reverse("hand-new", args=[piquet.pk]), {"version": piquet.version, **P11}, HTTP_ACCEPT_LANGUAGE="ru"
    )

    response = scorer.get(reverse("hand-correct", args=[piquet.pk, 1]), HTTP_ACCEPT_LANGUAGE="ru")

    form = response.context["form"]
    assert form["sets_sets"].value() == "4Д 3К" and form["sequences_runs"].value() == "5В 3В"
    body = response.content.decode()
    assert "Достоинства: В = валет, Д = дама, К = король, Т = туз." in body
    assert 'data-rank="Д">Д<span class="visually-hidden"> дама</span>' in body


@pytest.mark.django_db
def test_cards_taken_are_read_and_shown_with_the_pages_ranks(scorer, user, make_players):
    from scorekeeper.matches.forms import CulForm

    with translation.override("ru"):
        form = CulForm(
            data={"captured_0": "Д♠ тS 10S", "captured_1": "КD"}, game="cul", seats=["A", "B"], options={}
        )
        assert form.is_valid()
        assert form.build(form.cleaned_data)["captured"] == [["Q♠", "AS", "10S"], ["KD"]]
        initial = CulForm.initial_from(
            {"captured": [["QS", "10S"], ["AH"]]}, game="cul", seats=["A", "B"], options={}
        )
        assert initial["captured_0"] == "ДS 10S" and initial["captured_1"] == "ТH"
