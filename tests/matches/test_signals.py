"""``match_changed``: the matches' services announce what changed a match's standing, with the
right kind, from inside the write's transaction, and a receiver's error undoes the write."""

from __future__ import annotations

import pytest
from django.db import transaction

from scorekeeper.matches import signals
from scorekeeper.matches.models import Hand, Match
from scorekeeper.matches.services import hand_correct, hand_record, match_recompute, match_reopen, match_void
from tests.fakes import hand

# Transactional: no test transaction around the services, so that "inside a transaction" in
# a receiver means the write's own.
pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def announced():
    """Every ``match_changed`` sent during the test: (sender, match id, kind, whether in a
    transaction, the match's status as its row stands then)."""
    seen = []

    def receiver(sender, *, match, kind, **kwargs):
        in_write = transaction.get_connection().in_atomic_block
        seen.append((sender, match.pk, kind, in_write, Match.objects.get(pk=match.pk).status))

    signals.match_changed.connect(receiver, sender=Match)
    yield seen
    signals.match_changed.disconnect(receiver, sender=Match)


def test_the_hand_that_finishes_a_match_announces_finish_from_inside_the_write(play, user, announced):
    match = play([0, 1], [4, 3])
    assert announced == []  # still in progress

    hand_record(match=match, record=hand([6, 0], dealer=1), by=user)

    assert announced == [(Match, match.pk, "finish", True, "finished")]


def test_correcting_a_hand_announces_correct_only_when_the_match_was_or_is_finished(play, user, announced):
    unfinished = play([0, 1], [4, 3])
    hand_correct(match=unfinished, number=1, record=hand([5, 3]), by=user)
    assert announced == []

    finished = play([0, 1], [4, 3], [6, 0])
    announced.clear()
    hand_correct(match=finished, number=2, record=hand([1, 0], dealer=1), by=user)  # no longer over
    assert announced == [(Match, finished.pk, "correct", True, "in_progress")]

    announced.clear()
    hand_correct(match=finished, number=2, record=hand([6, 0], dealer=1), by=user)  # over again
    assert announced == [(Match, finished.pk, "correct", True, "finished")]


def test_voiding_announces_void_only_for_a_finished_match_and_reopening_announces_reopen(
    play, user, announced
):
    in_progress = play([0, 1], [4, 3])
    match_void(match=in_progress, by=user, reason="abandoned")
    match_reopen(match=in_progress, by=user, reason="it goes on")
    assert announced == []

    finished = play([0, 1], [10, 3])
    announced.clear()
    match_void(match=finished, by=user, reason="recorded by mistake")
    match_reopen(match=finished, by=user, reason="it was played after all")
    assert announced == [
        (Match, finished.pk, "void", True, "void"),
        (Match, finished.pk, "reopen", True, "finished"),
    ]


def test_a_recompute_that_changes_a_finished_match_announces_correct(play, user, announced):
    match = play([0, 1], [4, 3], [6, 0])
    assert match_recompute(match=match.pk)["changed"] == 0
    announced.clear()
    # As if stored by an older engine that got the first hand's totals wrong.
    Hand.objects.filter(match=match, number=1).update(
        state_after={"hands": 1, "totals": [9, 9], "last_dealer": 0, "over": False}
    )

    assert match_recompute(match=match.pk)["changed"] == 1

    assert announced == [(Match, match.pk, "correct", True, "finished")]


def test_the_kinds_are_the_ones_the_module_names():
    assert signals.KINDS == ("finish", "correct", "void", "reopen", "confirm", "unconfirm")
    kinds = (signals.FINISH, signals.CORRECT, signals.VOID, signals.REOPEN)
    kinds += (signals.CONFIRM, signals.UNCONFIRM)
    assert kinds == signals.KINDS


def test_a_receivers_error_is_raised_and_rolls_the_write_back(play, user):
    match = play([0, 1], [4, 3])

    def refuse(sender, **kwargs):
        raise RuntimeError("the receiver failed")

    signals.match_changed.connect(refuse, sender=Match)
    try:
        with pytest.raises(RuntimeError, match="the receiver failed"):
            hand_record(match=match, record=hand([6, 0], dealer=1), by=user)
    finally:
        signals.match_changed.disconnect(refuse, sender=Match)

    stored = Match.objects.get(pk=match.pk)
    assert (stored.status, stored.hand_count, stored.version) == ("in_progress", 1, match.version)
    assert Hand.objects.filter(match=match).count() == 1
