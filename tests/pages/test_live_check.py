"""The hand form's live check (``/matches/<id>/hands/check/``): the form's POST data in, the dry
run's verdict out, each problem on its field, each seat's score and why it differs; bad input
is a readable 400, never a 500, and nothing is ever stored.

Hands are the first deals of the demo's piquet partie (scorekeeper/devtools/demo/piquet.json).
"""

import json
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scorekeeper.matches.forms import HAND_FORMS, hand_form_class
from scorekeeper.matches.models import Hand
from scorekeeper.matches.services import hand_record, match_create, match_void
from tests.rules.records import P11

pytestmark = pytest.mark.django_db

#: Deal 1 of the demo partie as the piquet form sends it: A (seat 0) scores 43, B 23.
DEAL_1 = {
    "dealer": "1",
    "point_scorer": "0",
    "point_cards": "6",
    "point_pips": "55",
    "sequences_scorer": "0",
    "sequences_runs": "5J 3J",
    "sets_scorer": "1",
    "sets_sets": "4Q 3K",
    "tricks": "0111 1100 0000",
    "declared_0": "43",
    "declared_1": "23",
}
RECORD_1 = P11  # the form above, as the server turns it into a record


@pytest.fixture(autouse=True)
def _english_again():
    """A request in French leaves French active in this thread (LocaleMiddleware activates a
    language and nothing resets it): back to the default after each test, for the next."""
    yield
    translation.deactivate()


@pytest.fixture
def piquet_match(user, make_players):
    return match_create(game="piquet", players=make_players("Anne", "Bruno"), by=user)


def check(client, match, data, number=None, **headers):
    url = (
        reverse("hand-check", args=[match.pk])
        if number is None
        else reverse("hand-check-correction", args=[match.pk, number])
    )
    response = client.post(url, data, **headers)
    assert response["Content-Type"] == "application/json"
    return response, response.json()


def test_a_valid_hand_is_valid_and_savable_with_each_seats_score(client, piquet_match):
    response, body = check(client, piquet_match, DEAL_1)

    assert response.status_code == 200
    assert (body["code"], body["valid"], body["savable"]) == ("checked", True, True)
    assert [(s["name"], s["computed"], s["differs"]) for s in body["seats"]] == [
        ("Anne", 43, False),
        ("Bruno", 23, False),
    ]
    assert body["fields"] == {} and body["mismatches"] == []
    assert not Hand.objects.exists()


def test_the_check_is_the_apis_dry_run_of_the_same_record(client, piquet_match):
    _, body = check(client, piquet_match, DEAL_1)

    assert body["dry_run"]["url"] == "/api/v1/rules/piquet/score"
    sent = body["dry_run"]["body"]
    assert sent["hand"] == RECORD_1
    assert (sent["preset"], sent["seats"], sent["state"]) == ("classic", 2, None)
    api = client.post(sent and body["dry_run"]["url"], sent, content_type="application/json").json()
    assert api["scores"] == [s["computed"] for s in body["seats"]]


def test_a_wrong_declared_score_is_marked_on_its_seat_with_the_reason(client, piquet_match):
    response, body = check(client, piquet_match, {**DEAL_1, "declared_0": "40"})

    assert response.status_code == 200
    assert (body["valid"], body["savable"]) == (False, False)
    anne, bruno = body["seats"]
    assert (anne["differs"], anne["declared"], anne["rules_give"]) == (True, 40, 43)
    assert anne["field"] == "declared_0"
    assert anne["explanation"]  # why the rules give 43
    assert not anne["explanation"].startswith("the rules give")
    assert bruno["differs"] is False
    assert body["mismatches"][0]["seat"] == 0


def test_a_mismatch_accepted_with_a_reason_is_savable_but_not_valid(client, piquet_match):
    wrong = {**DEAL_1, "declared_0": "40", "accept_declared": "on"}

    _, without_reason = check(client, piquet_match, wrong)
    _, with_reason = check(client, piquet_match, {**wrong, "reason": "we agreed on 40"})

    assert without_reason["savable"] is False
    assert (with_reason["valid"], with_reason["savable"]) == (False, True)


def test_a_rule_error_comes_back_on_its_field(client, piquet_match):
    # A point of 6 cards cannot count 80 pips.
    response, body = check(client, piquet_match, {**DEAL_1, "point_pips": "80"})

    assert response.status_code == 200
    assert body["valid"] is False and body["savable"] is False
    assert "point_pips" in body["fields"], body["problems"]
    problem = next(p for p in body["problems"] if p["field"] == "point_pips")
    assert problem["code"] and problem["message"] and problem["path"].startswith("point")
    assert problem["label"] == "pips"


def test_missing_fields_are_field_missing_problems_on_their_fields(client, piquet_match):
    _, body = check(client, piquet_match, {"dealer": "1"})

    codes = {p["field"]: p["code"] for p in body["problems"]}
    assert codes.get("declared_0") == "field_missing", codes


def test_a_correction_is_checked_against_the_state_before_that_hand(client, user, piquet_match):
    hand_record(match=piquet_match, record=RECORD_1, by=user)

    response, body = check(client, piquet_match, {**DEAL_1, "declared_1": "20"}, number=1)

    assert response.status_code == 200
    assert body["dry_run"]["body"]["state"] is None  # before hand 1, not after it
    assert [s["differs"] for s in body["seats"]] == [False, True]


def test_messages_follow_the_accept_language_header(client, piquet_match):
    _, english = check(client, piquet_match, {**DEAL_1, "declared_0": "40"})
    _, french = check(client, piquet_match, {**DEAL_1, "declared_0": "40"}, HTTP_ACCEPT_LANGUAGE="fr")

    assert french["code"] == english["code"] == "checked"
    assert french["seats"][0]["rules_give"] == 43
    # The engine's explanation in the engine's French (scorekeeper/rules/locale).
    assert french["seats"][0]["explanation"] != english["seats"][0]["explanation"]
    assert french["mismatches"][0]["explanation"] == french["seats"][0]["explanation"]


def test_a_rule_error_is_in_the_requests_language(client, piquet_match):
    _, english = check(client, piquet_match, {**DEAL_1, "point_pips": "80"})
    _, russian = check(client, piquet_match, {**DEAL_1, "point_pips": "80"}, HTTP_ACCEPT_LANGUAGE="ru")

    said = {p["field"]: p["message"] for p in russian["problems"]}
    assert said["point_pips"] != {p["field"]: p["message"] for p in english["problems"]}["point_pips"]
    assert re.search("[а-я]", said["point_pips"]), said


@pytest.mark.parametrize(
    "typed, field",
    [
        ({"tricks": "01x1"}, "tricks"),
        ({"point_cards": "six"}, "point_cards"),
        ({"record_json": "{not json"}, "record_json"),
        ({"record_json": "[1, 2]"}, "record_json"),
        ({"sequences_runs": "quint"}, "sequences_runs"),
        ({"declared_1": ""}, "declared_1"),
        ({"dealer": "7"}, "dealer"),
    ],
)
def test_bad_input_is_a_readable_400_on_its_field(client, piquet_match, typed, field):
    response, body = check(client, piquet_match, {**DEAL_1, **typed})

    assert response.status_code == 400
    assert body["code"] == "form_invalid" and body["message"]
    assert body["valid"] is False and body["savable"] is False
    assert body["fields"][field][0]["message"]


@pytest.mark.parametrize(
    "pasted",
    [
        {"tricks": "nope"},
        {"point": [1, 2]},
        {"declared": [1e308, -1]},
        {"dealer": None, "sets": {"scorer": "x"}},
        {"hands": [[None]], "trick_cards": 5},
        {"declared": [43, 23, 7]},
    ],
)
def test_odd_json_in_the_advanced_box_is_judged_never_a_500(client, piquet_match, pasted):
    response, body = check(client, piquet_match, {**DEAL_1, "record_json": json.dumps(pasted)})

    assert response.status_code == 200
    assert body["valid"] is False
    assert all(p["message"] for p in body["problems"])


def test_a_void_match_is_a_409_and_an_unknown_one_a_404(client, user, piquet_match):
    response, body = check(client, piquet_match, DEAL_1, number=3)
    assert (response.status_code, body["code"]) == (404, "not_found")

    match_void(match=piquet_match, by=user, reason="test")
    response, body = check(client, piquet_match, DEAL_1)
    assert (response.status_code, body["code"]) == (409, "hand_blocked")
    assert body["message"]

    response = client.post(reverse("hand-check", args=[piquet_match.pk + 99]), DEAL_1)
    assert (response.status_code, response.json()["code"]) == (404, "not_found")


def test_only_post_is_answered(client, piquet_match):
    assert client.get(reverse("hand-check", args=[piquet_match.pk])).status_code == 405


def test_the_hand_form_carries_the_live_check_hooks(client, user, piquet_match):
    client.force_login(user)

    body = client.get(reverse("hand-new", args=[piquet_match.pk])).content.decode()

    assert f'data-live-check="{reverse("hand-check", args=[piquet_match.pk])}"' in body
    assert "matches/live.js" in body
    assert 'id="live-declared_0"' in body


# -- every game's form ------------------------------------------------------------------------
def demo_case(game):
    from scorekeeper.devtools import DEMO_DATA

    return json.loads((DEMO_DATA / f"{game}.json").read_text())[0]


@pytest.mark.parametrize("game", sorted(HAND_FORMS))
def test_every_games_first_demo_hand_typed_in_its_form_checks_valid(client, user, make_players, game):
    case = demo_case(game)
    names = ["Anne", "Bruno", "Chloé", "Denis"][: case["seats"]]
    match = match_create(game=game, players=make_players(*names), by=user, options=case["options"])
    record = case["hands"][0]
    kwargs = {"game": game, "seats": names, "options": match.options}
    data = hand_form_class(game).initial_from(record, **kwargs)
    data = {k: v for k, v in data.items() if v is not None}

    response, body = check(client, match, data)

    assert response.status_code == 200, body
    assert (body["valid"], body["savable"]) == (True, True), body["problems"] or body["mismatches"]
    assert len(body["seats"]) == case["seats"]
    assert all(s["field"] for s in body["seats"])  # each seat's claim has a field to be shown by
    assert body["dry_run"]["body"]["hand"] == record or "record_json" in data


@pytest.mark.parametrize("game", sorted(HAND_FORMS))
def test_every_games_blank_form_is_answered_never_a_500(client, user, make_players, game):
    seats = demo_case(game)["seats"]
    match = match_create(game=game, players=make_players(*"ABCD"[:seats]), by=user)

    for data in ({}, {"dealer": "0"}, {"declared_0": "5"}, {"record_json": "{}"}):
        response, body = check(client, match, data)
        assert response.status_code in (200, 400), body
        assert body["valid"] is False and body["message"]
