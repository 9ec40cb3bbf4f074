"""hand_correct: a new version supersedes the old one; later hands are re-evaluated, never lost."""

import pytest

from scorekeeper.matches import errors
from scorekeeper.matches.models import AuditEntry, Hand, Match
from scorekeeper.matches.selectors import hand_history, match_current_hands
from scorekeeper.matches.services import hand_correct, hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def record_hands(match, user, *points_lists):
    for i, points in enumerate(points_lists):
        hand_record(match=match, record=hand(points, dealer=i % 2), by=user)


def test_a_correction_keeps_the_old_version(tally_match, user):
    record_hands(tally_match, user, [3, 1])

    corrected = hand_correct(match=tally_match, number=1, record=hand([2, 1]), by=user, reason="miscounted")

    old, new = hand_history(match=tally_match, number=1)
    assert (old.version, old.status, old.record) == (1, Hand.Status.SUPERSEDED, hand([3, 1]))
    assert (new.version, new.status, new.supersedes_id) == (2, Hand.Status.VALID, old.pk)
    assert corrected.pk == new.pk and new.reason == "miscounted"
    assert old.superseded_by == new
    assert AuditEntry.objects.filter(action="hand_correct", hand=new).exists()


def test_later_hands_are_replayed_from_the_corrected_state(tally_match, user):
    record_hands(tally_match, user, [3, 1], [2, 2])

    hand_correct(match=tally_match, number=1, record=hand([1, 1]), by=user)

    second = match_current_hands(match=tally_match).get(number=2)
    assert second.version == 2 and second.status == Hand.Status.VALID
    assert second.state_after["totals"] == [3, 3]
    assert "correction of hand 1" in second.reason
    assert Match.objects.get(pk=tally_match.pk).state["totals"] == [3, 3]


def test_a_correction_that_changes_nothing_later_leaves_later_hands_alone(tally, user, make_players):
    from scorekeeper.matches.services import match_create

    match = match_create(game="tally", players=make_players("A", "B"), by=user, options={"target": 100})
    record_hands(match, user, [3, 1], [2, 2], [0, 5])
    # Changing the last hand cannot affect earlier ones.
    hand_correct(match=match, number=3, record=hand([0, 4]), by=user)

    assert [h.version for h in match_current_hands(match=match)] == [1, 1, 2]


def test_a_later_hand_that_can_no_longer_be_played_is_kept_flagged_disputed(tally_match, user):
    record_hands(tally_match, user, [3, 1], [2, 2], [1, 1])

    # Hand 1 now ends the match, so hands 2 and 3 come after the end.
    hand_correct(match=tally_match, number=1, record=hand([10, 1]), by=user)

    current = list(match_current_hands(match=tally_match))
    assert [h.status for h in current] == ["valid", "disputed", "disputed"]
    for later in current[1:]:
        assert later.computed is None and later.state_after is None
        assert [e["code"] for e in later.evaluation["errors"]] == ["match_already_over"]
    match = Match.objects.get(pk=tally_match.pk)
    assert match.status == "finished" and match.result["totals"] == [10, 1]
    assert Hand.objects.filter(match=tally_match).count() == 6  # every old version kept


def test_correcting_the_end_away_reopens_play_and_revives_the_later_hands(tally_match, user):
    record_hands(tally_match, user, [3, 1], [2, 2])
    hand_correct(match=tally_match, number=1, record=hand([10, 1]), by=user)

    hand_correct(match=tally_match, number=1, record=hand([3, 1]), by=user)

    current = list(match_current_hands(match=tally_match))
    assert [(h.number, h.version, h.status) for h in current] == [(1, 3, "valid"), (2, 3, "valid")]
    match = Match.objects.get(pk=tally_match.pk)
    assert match.status == "in_progress" and match.result is None and match.state["totals"] == [5, 3]


def test_a_later_hand_whose_declared_scores_stop_matching_stands_as_disputed(tally_match, user):
    # In tally the declared values never depend on the state, so force it through an
    # accepted hand: its declared values stand, and a replay keeps them standing.
    hand_record(
        match=tally_match,
        record=hand([3, 1], declared=[4, 1]),
        by=user,
        accept_declared=True,
        reason="agreed",
    )
    record_hands(tally_match, user, [1, 1])

    hand_correct(match=tally_match, number=2, record=hand([2, 1], dealer=1), by=user)

    first, second = match_current_hands(match=tally_match)
    assert first.version == 1 and first.status == "disputed"
    assert second.state_after["totals"] == [6, 2]


def test_a_correction_is_validated_like_a_new_hand(tally_match, user):
    record_hands(tally_match, user, [3, 1])

    with pytest.raises(errors.HandRefused):
        hand_correct(match=tally_match, number=1, record=hand([2, 1], declared=[3, 1]), by=user)
    with pytest.raises(errors.HandRefused):
        hand_correct(match=tally_match, number=1, record={"points": []}, by=user)
    assert Hand.objects.count() == 1


def test_correcting_a_hand_that_does_not_exist_is_not_found(tally_match, user):
    with pytest.raises(errors.NotFound):
        hand_correct(match=tally_match, number=1, record=hand([1, 1]), by=user)


def test_a_correction_with_a_stale_version_is_a_conflict(tally_match, user):
    record_hands(tally_match, user, [3, 1])

    with pytest.raises(errors.VersionConflict):
        hand_correct(match=tally_match, number=1, record=hand([2, 1]), by=user, version=0)
    assert Hand.objects.count() == 1


def test_a_finished_match_can_still_be_corrected(tally_match, user):
    record_hands(tally_match, user, [10, 1])

    hand_correct(match=tally_match, number=1, record=hand([9, 1]), by=user)

    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"


def test_every_write_bumps_the_match_version_once(tally_match, user):
    record_hands(tally_match, user, [3, 1], [2, 2])
    before = Match.objects.get(pk=tally_match.pk).version

    hand_correct(match=tally_match, number=1, record=hand([1, 1]), by=user)

    assert Match.objects.get(pk=tally_match.pk).version == before + 1


def test_a_later_disputed_hand_keeps_the_players_reason_and_the_reevaluation_is_audited(
    tally, user, make_players
):
    from scorekeeper.matches.exchange import match_export
    from scorekeeper.matches.services import match_create

    match = match_create(game="tally", players=make_players("Ada", "Bea"), by=user, options={"target": 20})
    hand_record(match=match, record=hand([3, 1]), by=user)
    disputed = hand([0, 4], [1, 4], dealer=1)
    hand_record(match=match, record=disputed, by=user, accept_declared=True, reason="table vote")

    hand_correct(match=match, number=1, record=hand([4, 1]), by=user, reason="miscounted")

    second = Hand.objects.get(match=match, number=2, status="disputed")
    assert second.version == 2 and second.reason == "table vote"
    entry = AuditEntry.objects.get(action="hand_reevaluate", hand=second)
    assert entry.payload["cause"] == "re-evaluated after the correction of hand 1"
    assert entry.payload["reason"] == "table vote"
    assert [h["reason"] for h in match_export(match=match)["hands"]] == ["miscounted", "table vote"]
