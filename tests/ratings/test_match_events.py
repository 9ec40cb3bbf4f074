"""The ratings listen to the matches: ``RatingsConfig.ready`` connects the receiver that turns
each ``match_changed`` into a rating event and its outbox message, in the write's transaction."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.db import transaction

from ratings.models import RatingEvent
from scorekeeper.matches import signals
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record
from scorekeeper.outbox.models import OutboxMessage
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_the_ratings_app_connects_its_receiver_once_however_often_it_is_ready(play, user):
    assert signals.match_changed.has_listeners(Match)
    apps.get_app_config("ratings").ready()  # a second connection would store a second event
    match = play([0, 1], [4, 3])

    match = hand_record(match=match, record=hand([6, 0], dealer=1), by=user).match

    event = RatingEvent.objects.get()
    assert (event.match_id, event.game, event.kind, event.processed_at) == (match.pk, "tally", "finish", None)
    assert OutboxMessage.objects.get(task="ratings.event_process").kwargs == {"event_id": event.pk}


@pytest.mark.parametrize("kind", signals.KINDS)
def test_each_kind_announced_is_stored_as_that_kind_of_rating_event(play, kind, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = True  # else a confirmation is no event (below)
    match = play([0, 1], [4, 3])

    signals.match_changed.send(sender=Match, match=match, kind=kind)

    event = RatingEvent.objects.get()
    assert (event.match_id, event.game, event.kind) == (match.pk, "tally", kind)
    assert kind in RatingEvent.Kind.values


@pytest.mark.parametrize("kind", [signals.CONFIRM, signals.UNCONFIRM])
def test_a_confirmation_is_no_rating_event_while_ratings_do_not_wait_for_one(play, kind, settings):
    settings.RATINGS_WAIT_FOR_CONFIRMATION = False
    match = play([0, 1], [4, 3])

    signals.match_changed.send(sender=Match, match=match, kind=kind)

    assert not RatingEvent.objects.exists()
    assert not OutboxMessage.objects.filter(task="ratings.event_process").exists()


def test_a_write_rolled_back_after_the_announcement_leaves_no_rating_event(play, user):
    match = play([0, 1], [4, 3])

    def refuse(sender, **kwargs):  # connected after the ratings' receiver: runs after it
        raise RuntimeError("a later receiver failed")

    signals.match_changed.connect(refuse, sender=Match)
    try:
        # The test's transaction is the caller's: a failing write marks it for rollback (the
        # service has no savepoint of its own), so the test gives it one to catch the error in.
        with pytest.raises(RuntimeError), transaction.atomic():
            hand_record(match=match, record=hand([6, 0], dealer=1), by=user)
    finally:
        signals.match_changed.disconnect(refuse, sender=Match)

    assert not RatingEvent.objects.exists()
    assert not OutboxMessage.objects.filter(task="ratings.event_process").exists()
    assert Match.objects.get(pk=match.pk).status == "in_progress"
