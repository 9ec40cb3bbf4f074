"""The ratings follow a player merge (scorekeeper.matches.signals.player_merged): the
duplicate's ratings go in the merge's transaction, and the pools of his finished matches are
recomputed by a job like a staff recompute, to what a recompute from nothing gives."""

from __future__ import annotations

import pytest

from ratings.models import PlayerRating, RatingHistory, RatingPool, RecomputeJob
from ratings.services import rating_events_process_all, rating_pool_recompute
from scorekeeper.matches import errors
from scorekeeper.matches.services import match_create, player_merge
from scorekeeper.outbox.models import OutboxMessage
from tests.ratings.test_services import recompute_from_nothing, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user("staff", is_staff=True)


def test_the_duplicates_ratings_go_and_his_pools_are_recomputed_after_the_commit(
    play, players, staff, make_players
):
    (ada_s,) = make_players("Ada S.")
    players.append(ada_s)
    play([4, 1], [10, 3])
    play([0, 2], [10, 3])
    rating_events_process_all()
    assert PlayerRating.objects.filter(player=ada_s).exists()

    done = player_merge(player=ada_s, into=players[0], by=staff)

    assert not PlayerRating.objects.filter(player=ada_s).exists()
    (job,) = done["followed"]
    assert job.requested_by == staff and job.total == 1
    assert OutboxMessage.objects.filter(task="ratings.pool_recompute").count() == 1
    for pool in job.pools:
        rating_pool_recompute(pool=pool, job=job)
    assert not RatingHistory.objects.filter(player=ada_s).exists()
    assert RatingHistory.objects.filter(player=players[0]).count() == 2
    after = snapshot()
    assert recompute_from_nothing() == after


def test_a_duplicate_without_finished_matches_starts_no_recompute(tally, players, staff, user, make_players):
    (ada_s,) = make_players("Ada S.")
    match_create(game="tally", players=[ada_s, players[1]], by=user)  # in progress
    done = player_merge(player=ada_s, into=players[0], by=staff)
    assert done["games"] == [] and done["followed"] == []
    assert not RecomputeJob.objects.exists()


def test_a_refused_merge_leaves_the_ratings_as_they_were(play, players, staff):
    play([0, 1], [10, 3])
    rating_events_process_all()
    before = snapshot()
    with pytest.raises(errors.Conflict):
        player_merge(player=players[0], into=players[1], by=staff)  # they met
    assert snapshot() == before and not RecomputeJob.objects.exists()
    assert RatingPool.objects.count() == 1
