"""An event's task processes the pending events from its own on (issue 20, "Scale": its search
no longer reads every event processed since the last vacuum); an older one still pending is
rated by its own task, to the same ratings as a recompute."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RatingEvent, RatingPool
from ratings.services import rating_event_process, rating_pool_recompute

pytestmark = pytest.mark.django_db


def ratings_now():
    return sorted(PlayerRating.objects.values_list("player_id", "mu", "sigma", "rating", "matches"))


def test_an_events_task_leaves_an_older_pending_event_to_its_own_task(play, players, monkeypatch):
    # The events stay pending until their tasks are called here.
    monkeypatch.setattr("ratings.services.outbox_enqueue", lambda **kwargs: None)
    play([0, 1], [10, 3])
    play([1, 2], [10, 4])
    play([2, 3], [3, 10])
    older, middle, newer = RatingEvent.objects.order_by("id")

    assert rating_event_process(event=middle.pk)["events"] == 2  # its own and the newer one
    assert list(RatingEvent.objects.filter(processed_at__isnull=True)) == [older]
    assert rating_event_process(event=newer.pk)["events"] == 0  # done by the run before
    assert rating_event_process(event=older.pk) == {"event": older.pk, "events": 1, "replayed": 3}

    incremental = ratings_now()
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    assert ratings_now() == incremental and len(incremental) == 4
