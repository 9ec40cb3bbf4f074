"""An event's task processes the pending events from its own on (issue 20, "Scale": its search
no longer reads every event processed since the last vacuum); an older one still pending is
rated by its own task, to the same ratings as a recompute."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RatingEvent, RatingPool
from ratings.pool_reading import places_rated
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


@pytest.mark.parametrize("chunk", [1, 2])
def test_a_backlog_of_events_is_read_in_chunks_to_the_same_ratings(play, players, monkeypatch, chunk):
    # A worker back after a long outage finds thousands of events pending at once: their places
    # are read a chunk of matches at a time (a statement takes at most 65,535 parameters).
    monkeypatch.setattr("ratings.services.outbox_enqueue", lambda **kwargs: None)
    monkeypatch.setattr("ratings.pool_reading.CHUNK", chunk)
    for seats, points in [([0, 1], [10, 3]), ([1, 2], [10, 4]), ([2, 3], [3, 10]), ([0, 2], [10, 7])]:
        play(seats, points)
    first = RatingEvent.objects.order_by("id").first()
    assert rating_event_process(event=first.pk)["events"] == 4
    rated = ratings_now()

    # Rated once already, all pending again with a newer match: each is found at its place.
    play([3, 1], [2, 10])
    RatingEvent.objects.update(processed_at=None)
    assert rating_event_process(event=first.pk)["events"] == 5

    incremental = ratings_now()
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    assert ratings_now() == incremental != rated


def test_the_places_of_more_matches_than_a_statement_takes_are_read(play, players):
    # 70,000 ids in one statement exceed PostgreSQL's 65,535 parameters (the error a backlog of
    # 100,000 events met before the chunks).
    rated = play([0, 1], [10, 3]).pk
    rating_event_process(event=RatingEvent.objects.order_by("id").first().pk)
    pool = RatingPool.objects.get(game="tally")
    many = [rated, *range(10**9, 10**9 + 70_000)]

    assert [match for match, _ in places_rated(pool, many)] == [rated]
