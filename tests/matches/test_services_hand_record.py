"""hand_record: the engine decides what may be stored; races and finished matches are refused."""

import pytest
from django.contrib.auth.models import AnonymousUser

from scorekeeper.matches import errors
from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.services import hand_record, match_void
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_it_stores_a_valid_hand_with_the_engine_result_and_bumps_the_version(tally_match, user):
    stored = hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)

    assert (stored.number, stored.version, stored.status) == (1, 1, Hand.Status.VALID)
    assert stored.declared == [3, 1] and stored.computed == [3, 1] and stored.dealer == 0
    assert stored.state_after["totals"] == [3, 1]
    assert stored.evaluation["valid"] is True
    match = Match.objects.get(pk=tally_match.pk)
    assert match.version == 1 and match.state == stored.state_after and match.status == "in_progress"
    assert AuditEntry.objects.filter(action="hand_record", hand=stored, actor=user).exists()


def test_it_numbers_hands_in_order_and_plays_each_from_the_state_before(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    second = hand_record(match=tally_match, record=hand([2, 2], dealer=1), by=user)

    assert second.number == 2
    assert second.state_after["totals"] == [5, 3]


def test_it_rejects_a_hand_with_errors_and_stores_nothing(tally_match, user):
    with pytest.raises(errors.HandRefused) as caught:
        hand_record(match=tally_match, record={"dealer": 0, "points": [1]}, by=user)

    assert caught.value.code == "hand_invalid"
    codes = {e["code"] for e in caught.value.to_dict()["errors"]}
    assert codes == {"array_length", "field_missing"}
    assert not Hand.objects.exists()
    assert Match.objects.get(pk=tally_match.pk).version == 0


@pytest.mark.parametrize(
    "record", [None, [], "hand", 3, {"dealer": True, "points": [1, 1], "declared": [1, 1]}]
)
def test_it_rejects_records_that_are_not_hand_objects(tally_match, user, record):
    with pytest.raises(errors.HandRefused):
        hand_record(match=tally_match, record=record, by=user)
    assert not Hand.objects.exists()


def test_it_rejects_declared_scores_that_differ_from_the_rules_with_each_seats_mismatch(tally_match, user):
    with pytest.raises(errors.HandRefused) as caught:
        hand_record(match=tally_match, record=hand([3, 1], declared=[4, 1]), by=user)

    body = caught.value.to_dict()
    assert body["code"] == "score_mismatch"
    assert body["mismatches"] == [
        {"seat": 0, "declared": 4, "computed": 3, "explanation": "seat 0 scored 3, not 4"}
    ]
    assert body["evaluation"]["scores"] == [3, 1]
    assert not Hand.objects.exists()


def test_accepting_declared_scores_needs_a_reason(tally_match, user):
    with pytest.raises(errors.ReasonRequired):
        hand_record(
            match=tally_match, record=hand([3, 1], declared=[4, 1]), by=user, accept_declared=True, reason=" "
        )
    assert not Hand.objects.exists()


def test_accepted_declared_scores_are_stored_disputed_with_the_declared_totals_and_the_reason_audited(
    tally_match, user
):
    stored = hand_record(
        match=tally_match,
        record=hand([3, 1], declared=[4, 1]),
        by=user,
        accept_declared=True,
        reason="we counted the point twice",
    )

    assert stored.status == Hand.Status.DISPUTED and stored.accepted_declared
    assert stored.computed == [3, 1] and stored.declared == [4, 1]
    assert stored.state_after["totals"] == [4, 1]  # spec 1.6: the declared values stand
    entry = AuditEntry.objects.get(action="hand_record", hand=stored)
    assert entry.payload["reason"] == "we counted the point twice"
    assert entry.payload["mismatches"][0]["seat"] == 0


def test_a_stale_version_is_a_conflict_that_says_what_is_current(tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user, version=0)

    with pytest.raises(errors.VersionConflict) as caught:
        hand_record(match=tally_match, record=hand([1, 1], dealer=1), by=user, version=0)

    assert caught.value.to_dict()["current_version"] == 1
    assert caught.value.to_dict()["hand_count"] == 1
    assert Hand.objects.count() == 1


def test_the_hand_that_reaches_the_target_finishes_the_match_with_its_result(tally_match, user):
    hand_record(match=tally_match, record=hand([6, 1]), by=user)
    last = hand_record(match=tally_match, record=hand([5, 0], dealer=1), by=user)

    match = Match.objects.get(pk=tally_match.pk)
    assert match.status == "finished"
    assert match.result == {"totals": [11, 1], "placements": [1, 2], "winner": 0}
    assert last.evaluation["match_over"] is True


def test_a_finished_match_takes_no_more_hands(tally_match, user):
    hand_record(match=tally_match, record=hand([10, 0]), by=user)

    with pytest.raises(errors.MatchOver):
        hand_record(match=tally_match, record=hand([1, 0], dealer=1), by=user)
    assert Hand.objects.count() == 1


def test_a_void_match_takes_no_hands(tally_match, user):
    match_void(match=tally_match, by=user, reason="wrong game")

    with pytest.raises(errors.MatchVoid):
        hand_record(match=tally_match, record=hand([1, 0]), by=user)


def test_only_scorers_may_record(tally_match, other_user):
    with pytest.raises(errors.NotAllowed):
        hand_record(match=tally_match, record=hand([1, 0]), by=other_user)
    assert not Hand.objects.exists()


def test_a_caller_not_signed_in_is_told_to_sign_in(tally_match):
    with pytest.raises(errors.NotSignedIn) as caught:
        hand_record(match=tally_match, record=hand([1, 0]), by=AnonymousUser())
    assert isinstance(caught.value, errors.NotAllowed)  # the pages refuse it like any other
    assert caught.value.code == "not_authenticated"
    assert not Hand.objects.exists()


def test_warnings_never_block_and_are_kept_with_the_hand(tally_match, user):
    hand_record(match=tally_match, record=hand([1, 0], dealer=0), by=user)
    second = hand_record(match=tally_match, record=hand([1, 0], dealer=0), by=user)

    assert second.status == Hand.Status.VALID
    assert [w["code"] for w in second.evaluation["warnings"]] == ["dealer_rotation"]
