"""POST /api/v1/rules/<game>/score: a dry run of the rules engine that stores nothing."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.matches.models import AuditEntry, Hand, Match
from tests.api.conftest import assert_error
from tests.fakes import hand
from tests.rules.conformance import GAMES
from tests.rules.json_strategies import arbitrary_json

pytestmark = pytest.mark.django_db

CONFORMANCE = Path(__file__).resolve().parents[1] / "data" / "conformance"


def case(game, case_id):
    return next(c for c in json.loads((CONFORMANCE / f"{game}.json").read_text()) if c["id"] == case_id)


def score(client, game, body, **headers):
    return client.post(f"/api/v1/rules/{game}/score", body, format="json", **headers)


def nothing_stored():
    return not (Match.objects.exists() or Hand.objects.exists() or AuditEntry.objects.exists())


@pytest.mark.parametrize(("game", "case_id"), [("piquet", "P1"), ("piquet", "mismatch-pique-claimed")])
def test_it_answers_with_the_engines_result_for_a_conformance_case(anon, game, case_id):
    c = case(game, case_id)
    body = {"options": c["options"], "seats": c["seats"], "state": c["state"], "hand": c["hand"]}

    response = score(anon, game, body)

    assert response.status_code == 200
    result = response.json()
    assert set(result) == {
        "valid", "scores", "breakdown", "state_after", "match_over", "result",
        "errors", "mismatches", "warnings",
    }  # fmt: skip
    assert (result["valid"], result["scores"]) == (c["expect"]["valid"], c["expect"]["scores"])
    assert [m["seat"] for m in result["mismatches"]] == c["expect"].get("mismatch_seats", [])
    assert result["state_after"] == c["expect"]["state_after"]
    assert nothing_stored()


def test_a_hand_with_errors_is_a_200_with_valid_false(anon, tally):
    response = score(anon, "tally", {"seats": 2, "hand": {"dealer": 9}})

    assert response.status_code == 200
    result = response.json()
    assert result["valid"] is False and result["scores"] is None
    assert {e["code"] for e in result["errors"]} >= {"seat_out_of_range", "field_missing"}


def test_the_engines_own_input_errors_are_results_too(anon, tally):
    seats = score(anon, "tally", {"seats": 7, "hand": hand([1, 2])}).json()
    state = score(anon, "tally", {"seats": 2, "state": {"totals": "x"}, "hand": hand([1, 2])}).json()

    assert [e["code"] for e in seats["errors"]] == ["seat_count"]
    assert [e["code"] for e in state["errors"]] == ["state_invalid"]


def test_options_and_the_seed_preset_apply(anon, tally):
    body = {"seats": 2, "options": {"target": 3}, "hand": hand([3, 1])}

    result = score(anon, "tally", body).json()

    assert result["match_over"] is True and result["result"]["winner"] == 0


def test_accept_declared_previews_a_disputed_hand(anon, tally):
    body = {"seats": 2, "hand": hand([3, 1], [4, 1]), "accept_declared": True}

    result = score(anon, "tally", body).json()

    assert result["valid"] is False and result["state_after"]["totals"] == [4, 1]


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ([], "body_not_object", ""),
        ("a hand", "body_not_object", ""),
        ({}, "required", "seats"),
        ({"seats": 2}, "required", "hand"),
        ({"seats": "two", "hand": {}}, "invalid", "seats"),
        ({"seats": True, "hand": {}}, "invalid", "seats"),
        ({"seats": 10**30, "hand": {}}, "number_out_of_range", "seats"),
        ({"seats": 2**40, "hand": {}}, "max_value", "seats"),
        ({"seats": 2, "hand": {}, "preset": "house"}, "invalid_choice", "preset"),
        ({"seats": 2, "hand": {}, "options": [1]}, "not_a_dict", "options"),
        ({"seats": 2, "hand": {}, "options": {"target": "far"}}, "options_invalid", "options.target"),
        ({"seats": 2, "hand": {}, "options": {"colour": 1}}, "options_invalid", "options.colour"),
        ({"seats": 2, "hand": None}, "null", "hand"),
        # The hand and the state are objects (the schema says so); what they hold is the engine's.
        ({"seats": 2, "hand": [1, 2]}, "not_a_dict", "hand"),
        ({"seats": 2, "hand": {}, "state": [1]}, "not_a_dict", "state"),
        ({"seats": 2, "hand": {}, "accept_declared": 1}, "invalid", "accept_declared"),
        ({"seats": "2", "hand": {}}, "invalid", "seats"),
    ],
)
def test_a_malformed_body_is_a_400_in_the_common_shape(anon, tally, body, code, field):
    assert_error(score(anon, "tally", body), 400, code, field)
    assert nothing_stored()


def test_an_unknown_game_is_a_404(anon):
    assert_error(score(anon, "chess", {"seats": 2, "hand": {}}), 404, "game_unknown", "game")


def test_it_needs_no_sign_in(anon, tally):
    assert score(anon, "tally", {"seats": 2, "hand": hand([1, 1])}).status_code == 200


# A JSON body cannot carry NaN or infinities: the scalars leave them out.
JSON = arbitrary_json(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | st.text(),
    max_size=5,
    key_size=10,
    max_leaves=15,
)


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(
    game=st.sampled_from(GAMES),
    seats=st.integers(1, 6),
    state=st.none() | JSON,
    record=JSON,
    accept_declared=st.booleans(),
)
def test_any_json_state_and_hand_get_a_result_never_a_server_error(
    anon, game, seats, state, record, accept_declared
):
    body = {"seats": seats, "state": state, "hand": record, "accept_declared": accept_declared}

    response = score(anon, game, body)

    assert response.status_code in (200, 400), response.content[:300]
    if response.status_code == 200:
        result = response.json()
        assert result["valid"] is (not result["errors"] and not result["mismatches"])
