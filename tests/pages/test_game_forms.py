"""The per-game hand forms: typed fields become the spec's JSON record (spec sections 3–10).

The forms judge nothing: the engine does, and its errors come back next to the fields.
Every conformance record survives the trip record → pre-filled correction form → record.
"""

import json

import pytest
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.matches.forms import HAND_FORMS, BastardForm, PiquetForm, hand_form_class
from scorekeeper.matches.models import Hand
from scorekeeper.matches.services import hand_record, match_create
from scorekeeper.rules import find_ruleset
from tests.rules.conformance import DATA, load_cases

GAMES = sorted(path.stem for path in DATA.glob("*.json"))


def conformance_records():
    for game in GAMES:
        for case in load_cases(game):
            records = case["hands"] if "hands" in case else [case["hand"]]
            for i, record in enumerate(records):
                yield pytest.param(game, case, record, id=f"{game}-{case['id']}-{i}")


def form_kwargs(game, seats, options=None):
    return {"game": game, "seats": [f"P{i}" for i in range(seats)], "options": options or {}}


@pytest.fixture
def scorer(client, user):
    client.force_login(user)
    return client


@pytest.fixture
def start(user, make_players):
    def start(game, seats, **options):
        players = make_players(*[f"Player {i}" for i in range(seats)])
        return match_create(game=game, players=players, by=user, options=options or None)

    return start


def post(client, match, data, number=None):
    url = (
        reverse("hand-new", args=[match.pk])
        if number is None
        else reverse("hand-correct", args=[match.pk, number])
    )
    return client.post(url, {"version": match.version, **data})


# -- every game has a form -------------------------------------------------------------------
def test_every_game_of_the_engine_has_its_own_form():
    assert sorted(HAND_FORMS) == GAMES
    assert set(HAND_FORMS) == {key for key in GAMES if find_ruleset(key)}


@pytest.mark.parametrize(("game", "case", "record"), list(conformance_records()))
def test_a_stored_record_prefills_a_form_that_gives_it_back(game, case, record):
    form_class = hand_form_class(game)
    kwargs = form_kwargs(game, case["seats"])

    initial = form_class.initial_from(record, **kwargs)
    form = form_class(data=initial, **kwargs)

    assert form.is_valid(), form.errors
    rebuilt = form.record()
    assert {k: form.normal(k, v) for k, v in rebuilt.items()} == {
        k: form.normal(k, v) for k, v in record.items()
    }


def test_a_plain_record_is_shown_in_the_fields_not_in_the_json_area():
    record = next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11")

    initial = PiquetForm.initial_from(record, **form_kwargs("piquet", 2))

    assert "record_json" not in initial
    assert initial["sequences_runs"] == "5J 3J" and initial["sets_sets"] == "4Q 3K"
    assert initial["tricks"] == "ABBB BBAA AAAA" and initial["point_pips"] == "55"


def test_what_the_form_cannot_show_goes_to_the_json_area():
    record = next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11-cards")

    initial = PiquetForm.initial_from(record, **form_kwargs("piquet", 2))

    assert set(json.loads(initial["record_json"])) == {"hands", "trick_cards"}


def test_a_bastard_special_taken_twice_can_only_be_shown_as_json():
    record = {"dealer": 0, "trump": "H", "tricks": [4, 3, 3, 3], "declared": [0, 0, 0, 0],
              "specials": [["JS", "JC"], ["JS"], ["JD", "JH"], ["7D", "7C"]]}  # fmt: skip

    initial = BastardForm.initial_from(record, **form_kwargs("bastard", 4))

    assert json.loads(initial["record_json"]) == {"specials": record["specials"]}


# -- arbitrary input never breaks a form ----------------------------------------------------------
def _junk():
    return st.one_of(
        st.text(max_size=12), st.sampled_from(["", "0", "1", "-3", "99", "5J 3J", "AS 10S", "x"])
    )


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_typed_values_give_a_record_or_form_errors_and_the_engine_never_raises(game, data):
    seats = find_ruleset(game).seat_counts[-1]
    form_class = hand_form_class(game)
    names = list(form_class(**form_kwargs(game, seats)).fields)
    post_data = {name: data.draw(_junk(), label=name) for name in names if name != "version"}
    form = form_class(data=post_data, **form_kwargs(game, seats))

    if form.is_valid():
        record = form.record()
        ruleset = find_ruleset(game).create("classic", None, seats)
        evaluation = ruleset.evaluate(None, record).to_dict()  # never raises (spec 1.4)
        form.attach_problems(evaluation["errors"])


# -- recording through the fields --------------------------------------------------------------------
P11 = {
    "dealer": "1",
    "point_scorer": "0", "point_cards": "6", "point_pips": "55",
    "sequences_scorer": "0", "sequences_runs": "5J 3J",
    "sets_scorer": "1", "sets_sets": "4q, 3k",
    "tricks": "0111 1100 0000",
    "declared_0": "43", "declared_1": "23",
}  # fmt: skip


@pytest.mark.django_db
def test_a_piquet_deal_is_recorded_from_the_fields(scorer, start):
    match = start("piquet", 2)

    response = post(scorer, match, P11)

    assert response.status_code == 302
    stored = Hand.objects.get(match=match)
    assert stored.record == next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11")
    assert stored.computed == [43, 23]


@pytest.mark.django_db
def test_the_json_area_adds_the_card_level_to_the_fields(scorer, start):
    match = start("piquet", 2)
    cards = next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11-cards")
    extra = {"hands": cards["hands"], "trick_cards": cards["trick_cards"]}
    data = {k: v for k, v in P11.items() if k != "tricks"}

    response = post(scorer, match, {**data, "record_json": json.dumps(extra)})

    assert response.status_code == 302
    assert Hand.objects.get(match=match).record["trick_cards"] == cards["trick_cards"]


@pytest.mark.django_db
def test_a_piquet_mismatch_is_explained_per_seat(scorer, start):
    match = start("piquet", 2)

    response = post(scorer, match, {**P11, "declared_0": "40"})

    assert response.status_code == 400
    body = response.content.decode()
    # Seats counted from 1 on the pages; the items in words.
    assert "seat 1 (Player 0) declared 40, rules give 43: point 6, sequences 18" in body
    assert response.context["form"]["declared_0"].value() == "40"  # the hand is kept
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_engine_errors_come_back_next_to_their_fields(scorer, start):
    match = start("piquet", 2)

    response = post(scorer, match, {**P11, "point_pips": "99", "tricks": "0111"})

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert "(point_invalid)" in errors["point_pips"][0]
    assert "(tricks_count)" in errors["tricks"][0]
    body = response.content.decode()
    assert "<code>point_invalid</code> at <code>point.pips</code>" in body


@pytest.mark.django_db
def test_a_missing_required_field_is_the_engines_field_missing(scorer, start):
    match = start("piquet", 2)

    response = post(scorer, match, {k: v for k, v in P11.items() if k != "dealer"})

    assert response.status_code == 400
    assert "(field_missing)" in response.context["form"].errors["dealer"][0]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("change", "field", "message"),
    [
        ({"tricks": "01x1"}, "tricks", "is nobody's initial here"),
        ({"sequences_runs": "quint"}, "sequences_runs", "one digit then a rank"),
        ({"declared_1": ""}, "declared_1", "needed for every seat"),
        ({"point_scorer": ""}, "point_scorer", "choose who scored it"),
        ({"point_cards": "six"}, "point_cards", "whole number"),
    ],
)
def test_what_cannot_be_read_is_a_form_error_before_the_rules(scorer, start, change, field, message):
    match = start("piquet", 2)

    response = post(scorer, match, {**P11, **change})

    assert response.status_code == 400
    assert any(message in e for e in response.context["form"].errors[field])
    assert not Hand.objects.exists()


@pytest.mark.django_db
def test_an_auction_contract_is_recorded_from_the_fields(scorer, start):
    match = start("piquet-auction", 2)
    data = {
        "dealer": "1", "contract_declarer": "0", "contract_tricks": "8", "contract_sign": "plus",
        "contract_multiplier": "1", "point_scorer": "0", "point_cards": "5", "point_pips": "49",
        "sets_scorer": "1", "sets_sets": "3K", "tricks": "001000100100",
        "declared_0": "34", "declared_1": "6",
    }  # fmt: skip

    response = post(scorer, match, data)

    assert response.status_code == 302
    expected = next(c["hand"] for c in load_cases("piquet-auction") if c["id"] == "plus-made")
    assert Hand.objects.get(match=match).record == expected


@pytest.mark.django_db
def test_two_voleur_carte_blanche_holders_become_a_list(scorer, start):
    match = start("piquet-voleur", 4)
    data = {
        "dealer": "2", "carte_blanche": ["0", "3"], "point_scorer": "3", "point_cards": "5",
        "point_pips": "47", "sets_scorer": "0", "sets_sets": "310", "tricks": "1 3 3 0 1 1 2 3",
        **{f"declared_{i}": v for i, v in enumerate(["17", "34", "17", "34"])},
    }  # fmt: skip

    response = post(scorer, match, data)

    assert response.status_code == 302
    expected = next(c["hand"] for c in load_cases("piquet-voleur") if c["id"] == "two-blanches")
    assert Hand.objects.get(match=match).record == expected


@pytest.mark.django_db
def test_a_cul_party_is_recorded_from_the_fields(scorer, start):
    match = start("cul", 2)
    data = {
        "dealer": "0", "bets_0": "not_go", "bets_1": "go", "points_0": "70", "points_1": "53",
        "captured_0": "AS 10S KS QS 8H 6D", "captured_1": "AH,10H, 8S 7C 9D",
        "bonuses_0": ["queen_king"], "bonuses_1": ["diamonds_spades"],
        "declared_banks_0": "2", "declared_banks_1": "2",
    }  # fmt: skip

    response = post(scorer, match, data)

    assert response.status_code == 302
    expected = next(c["hand"] for c in load_cases("cul") if c["id"] == "captured-cards")
    assert Hand.objects.get(match=match).record == expected


@pytest.mark.django_db
def test_a_cul_form_names_the_targets(scorer, start):
    match = start("cul", 3)

    assert "go 56, not go 80" in scorer.get(reverse("hand-new", args=[match.pk])).content.decode()


@pytest.mark.django_db
def test_a_bank_party_is_recorded_from_the_fields(scorer, start):
    match = start("bank", 3)
    data = {
        "dealer": "0",
        "captured_points_0": "34", "captured_points_1": "41", "captured_points_2": "27",
        "finish_0": "1", "finish_1": "2", "finish_bonus_0": ["king"],
        "left_cards_2": "AC 9D",
        "declared_0": "84", "declared_1": "51", "declared_2": "15",
    }  # fmt: skip

    response = post(scorer, match, data)

    assert response.status_code == 302
    expected = next(c["hand"] for c in load_cases("bank") if c["id"] == "B1")
    assert Hand.objects.get(match=match).record == expected


@pytest.mark.django_db
def test_a_bastard_hand_is_recorded_from_the_fields(scorer, start):
    match = start("bastard", 4)
    data = {
        "dealer": "0", "trump": "H", "pass_count": "1",
        "special_JH": "0", "special_JS": "1", "special_JC": "1", "special_7D": "2", "special_JD": "3",
        "special_7C": "3",
        **{f"tricks_{i}": v for i, v in enumerate(["5", "4", "3", "1"])},
        **{f"declared_{i}": v for i, v in enumerate(["1", "1", "6", "-2"])},
    }  # fmt: skip

    response = post(scorer, match, data)

    assert response.status_code == 302
    stored = Hand.objects.get(match=match)
    assert stored.computed == [1, 1, 6, -2]
    assert stored.record["specials"] == [["JH"], ["JS", "JC"], ["7D"], ["JD", "7C"]]


@pytest.mark.django_db
def test_a_correction_form_shows_the_stored_deal_in_its_fields(scorer, start, user):
    match = start("piquet", 2)
    record = next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11")
    hand_record(match=match, record=record, by=user)
    match.refresh_from_db()

    response = scorer.get(reverse("hand-correct", args=[match.pk, 1]))

    form = response.context["form"]
    assert form["sequences_runs"].value() == "5J 3J" and form["declared_0"].value() == "43"
    assert form["version"].value() == match.version
    corrected = post(scorer, match, {**form.initial, "point_scorer": "equal", "declared_0": "37"}, number=1)
    assert corrected.status_code == 302
    assert Hand.objects.get(match=match, version=2).record["point"]["scorer"] is None


# -- hints for the next hand -----------------------------------------------------------------------
@pytest.mark.django_db
def test_the_next_piquet_deal_suggests_the_other_dealer(scorer, start, user):
    match = start("piquet", 2)
    hand_record(
        match=match, record=next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11"), by=user
    )

    form = scorer.get(reverse("hand-new", args=[match.pk])).context["form"]

    assert form["dealer"].value() == "0"  # seat 1 dealt the first deal


@pytest.mark.django_db
def test_the_next_bastard_hand_suggests_the_dealer_and_the_cards_to_pass(scorer, start, user):
    match = start("bastard", 4)
    hand_record(
        match=match, record=next(c["hand"] for c in load_cases("bastard") if c["id"] == "U1"), by=user
    )

    response = scorer.get(reverse("hand-new", args=[match.pk]))

    assert response.context["form"]["dealer"].value() == "1"
    assert "Hand 2: 3 cards each" in response.content.decode()


@pytest.mark.django_db
def test_the_cul_form_shows_each_players_banks_before_the_party(scorer, start, user):
    match = start("cul", 2)
    hand_record(
        match=match, record=next(c["hand"] for c in load_cases("cul") if c["id"] == "captured-cards"), by=user
    )

    body = scorer.get(reverse("hand-new", args=[match.pk])).content.decode()

    assert "2 before this party" in body


@pytest.mark.django_db
def test_a_correction_suggests_nothing_and_keeps_the_stored_dealer(scorer, start, user):
    match = start("piquet", 2)
    hand_record(
        match=match, record=next(c["hand"] for c in load_cases("piquet") if c["id"] == "P11"), by=user
    )

    form = scorer.get(reverse("hand-correct", args=[match.pk, 1])).context["form"]

    assert form["dealer"].value() == "1"


@pytest.mark.django_db
def test_the_page_warns_when_the_json_area_replaces_fields_of_the_form(scorer, start):
    match = start("bastard", 4)

    response = post(scorer, match, {"dealer": "0", "record_json": '{"specials": [[], [], [], []]}'})

    assert "The JSON replaces the form's specials" in response.content.decode()


@pytest.mark.django_db
def test_a_problem_in_what_the_json_area_supplied_is_shown_there(scorer, start):
    match = start("piquet", 2)
    data = {k: v for k, v in P11.items() if k != "tricks"}
    extra = {"hands": [["AD"] * 12, ["QD"] * 12], "trick_cards": []}

    response = post(scorer, match, {**data, "record_json": json.dumps(extra)})

    assert response.status_code == 400
    errors = response.context["form"].errors
    assert any("(card_duplicate)" in e for e in errors["record_json"])
    assert "dealer" not in errors


INNER_KEYS = ["scorer", "cards", "pips", "runs", "length", "top", "sets", "rank", "count", "item", "king"]


def _json_values():
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        st.integers(-3, 15),
        st.sampled_from(["", "J", "10", "AS", "go", "x y", "H"]),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=5),
            st.dictionaries(st.sampled_from(INNER_KEYS), inner, max_size=4),
        ),
        max_leaves=12,
    )  # fmt: skip


@pytest.mark.parametrize("game", GAMES)
@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_stored_record_prefills_a_correction_that_keeps_every_key(game, data):
    """Whatever a record holds (imported, or from an older engine), the correction form shows
    it without error and sends every key back unchanged (the JSON area keeps the rest)."""
    form_class = hand_form_class(game)
    seats = data.draw(st.sampled_from(find_ruleset(game).seat_counts), label="seats")
    keys = st.sampled_from([*form_class.covers, "play", "hands"])
    record = data.draw(st.dictionaries(keys, _json_values(), max_size=8), label="record")
    kwargs = form_kwargs(game, seats)

    form = form_class(data=form_class.initial_from(record, **kwargs), **kwargs)

    assert form.is_valid(), form.errors
    rebuilt = form.record()
    for key, value in record.items():
        assert form.normal(key, rebuilt[key]) == form.normal(key, value)
