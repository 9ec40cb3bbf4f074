"""Domain errors become one error body with a stable code and an HTTP status by kind."""

import pytest

from api.exceptions import exception_handler
from scorekeeper.matches import errors


@pytest.mark.parametrize(
    ("error", "status"),
    [
        (errors.OptionsRejected("bad", field="options.target"), 400),
        (errors.ReasonRequired("why?", field="reason"), 400),
        (errors.NotAllowed("no"), 403),
        (errors.NotFound("none", code="hand_not_found"), 404),
        (errors.VersionConflict("stale", current_version=3, hand_count=2), 409),
        (errors.MatchOver("over"), 409),
    ],
)
def test_each_domain_error_maps_to_its_status_and_body(error, status):
    response = exception_handler(error, {})

    assert response.status_code == status
    assert response.data["code"] == error.code
    assert response.data["message"] == error.message
    assert "field" in response.data


def test_a_caller_not_signed_in_gets_a_401_with_the_scheme_to_sign_in_with():
    response = exception_handler(errors.NotSignedIn("sign in"), {})

    assert response.status_code == 401 and response["WWW-Authenticate"] == "Token"
    assert response.data["code"] == "not_authenticated"
    # Chosen by the class, not the code: another refusal with that code stays a 403.
    assert exception_handler(errors.NotAllowed("no", code="not_authenticated"), {}).status_code == 403
    assert not exception_handler(errors.NotAllowed("no"), {}).has_header("WWW-Authenticate")


def test_a_conflict_says_what_is_current():
    response = exception_handler(errors.VersionConflict("stale", current_version=3, hand_count=2), {})
    assert (response.data["current_version"], response.data["hand_count"]) == (3, 2)


def test_a_rejected_hand_carries_the_mismatches_and_the_computed_result():
    evaluation = {"errors": [], "mismatches": [{"seat": 0, "declared": 4, "computed": 3, "explanation": "x"}]}
    error = errors.HandRefused("differs", evaluation=evaluation, code="score_mismatch")

    body = exception_handler(error, {}).data

    assert body["code"] == "score_mismatch" and body["field"] == "record"
    assert body["mismatches"] == evaluation["mismatches"] and body["evaluation"] == evaluation
