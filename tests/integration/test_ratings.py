"""The ratings pipeline with real processes: PostgreSQL, a Redis of the test's own and a real
celery worker. A worker SIGKILLed in the middle of a full recompute loses nothing and the
ratings come out identical; with Redis stopped, finishing a match still answers 201 at once and
its rating appears once Redis is back (the outbox's sweep)."""

from __future__ import annotations

import time

import pytest

from ratings.backtest import synthetic_db
from ratings.models import PlayerRating, RatingEvent, RatingHistory, RecomputeJob
from ratings.services import rating_events_process_all, rating_recompute_request
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record, match_create
from scorekeeper.outbox.models import OutboxMessage
from scorekeeper.outbox.services import outbox_sweep
from tests.fakes import hand
from tests.integration import support as integration
from tests.integration.support import WorkerProcess, celery_app_on, wait_until

pytestmark = [pytest.mark.integration, pytest.mark.django_db(transaction=True)]
private_redis = integration.private_redis  # the fixture


def snapshot():
    ratings = sorted(
        PlayerRating.objects.values_list(
            "pool__game", "player_id", "mu", "sigma", "matches", "wins", "last_played_at"
        )
    )
    history = sorted(
        RatingHistory.objects.values_list(
            "pool__game", "player_id", "match_id", "played_at", "place", "mu_before", "sigma_before",
            "mu_after", "sigma_after", "win_probability",
        )
    )  # fmt: skip
    return ratings, history


def test_a_worker_killed_in_the_middle_of_a_full_recompute_loses_nothing(private_redis, tmp_path, settings):
    players = synthetic_db.players(40)
    for seed, game in enumerate(["bank", "cul", "bastard", "piquet"]):
        sizes = {"bank": (2, 3, 4), "cul": (2, 3, 4, 5, 6), "bastard": (3, 4), "piquet": (2,)}[game]
        tables = synthetic_db.outcomes(players=40, matches=300, seed=seed, sizes=sizes)
        synthetic_db.store(game=game, tables=tables, player_ids=players)
    rating_events_process_all()  # the incremental path, here
    incremental = snapshot()
    assert len(incremental[1]) > 1000
    # Spoil the derived data: the recompute must rebuild it from the matches alone.
    PlayerRating.objects.update(mu=0.0, sigma=1.0)
    RatingHistory.objects.filter(player_id=players[0]).delete()

    first = WorkerProcess(
        tmp_path / "first.log", broker_url=private_redis.url, env={"RATINGS_SLOW_REPLAY": "1.5"}
    )
    second = WorkerProcess(tmp_path / "second.log", broker_url=private_redis.url)
    second.queue = first.queue
    with celery_app_on(private_redis.url, queue=first.queue):
        first.start()
        try:
            job = rating_recompute_request(by=None)  # commits: the group is sent to the worker
            assert job.total == 4
            wait_until(lambda: RecomputeJob.objects.get(pk=job.pk).done >= 1, timeout=90,
                       what=lambda: f"the first pool\n{first.log()}")  # fmt: skip
            time.sleep(0.3)  # the next pool is in its replay, before its commit
            first.kill()
        finally:
            first.stop()
        done = RecomputeJob.objects.get(pk=job.pk).done
        assert 1 <= done < 4, "the worker was killed after the recompute, not in its middle"

        second.start()
        try:
            # The pool task that died with the first worker is still unacknowledged in Redis
            # (redelivered only after the visibility timeout): the outbox's sweep hands it over.
            settings.OUTBOX_GRACE = settings.OUTBOX_REDELIVER_AFTER = 0
            outbox_sweep()
            wait_until(lambda: RecomputeJob.objects.get(pk=job.pk).status == "done", timeout=90,
                       what=lambda: f"the recompute to finish\n{second.log()}")  # fmt: skip
        finally:
            second.stop()

    assert snapshot() == incremental
    assert not OutboxMessage.objects.filter(task="ratings.pool_recompute", done_at__isnull=True).exists()


@pytest.fixture
def tally_players(tally, make_players):
    return make_players("Ada", "Bea")


def test_with_redis_stopped_a_finishing_hand_answers_201_at_once_and_is_rated_once_redis_is_back(
    private_redis, tmp_path, settings, tally_players, user
):
    from rest_framework.test import APIClient

    from api.tokens import token_create

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
    match = match_create(game="tally", players=tally_players, by=user)
    hand_record(match=match, record=hand([4, 2]), by=user)
    worker = WorkerProcess(tmp_path / "worker.log", broker_url=private_redis.url)
    with celery_app_on(private_redis.url, queue=worker.queue):
        worker.start()
        try:
            private_redis.stop()
            version = Match.objects.get(pk=match.pk).version
            started = time.monotonic()
            response = client.post(
                f"/api/v1/matches/{match.pk}/hands", {"record": hand([6, 1], dealer=1), "version": version},
                format="json",
            )  # fmt: skip
            elapsed = time.monotonic() - started

            assert response.status_code == 201, response.content
            assert response.json()["match"]["status"] == "finished"
            assert elapsed < 2.0, f"the answer waited {elapsed:.2f} s on the broker"
            event = RatingEvent.objects.get(match=match)
            message = OutboxMessage.objects.get(task="ratings.event_process")
            assert event.processed_at is None and message.dispatched_at is None and message.last_error
            assert not PlayerRating.objects.exists()

            private_redis.start()  # same port: the worker reconnects
            settings.OUTBOX_GRACE = 0
            assert outbox_sweep()["dispatched"] == 1
            wait_until(lambda: PlayerRating.objects.count() == 2, timeout=90,
                       what=lambda: f"the rating\n{worker.log()}")  # fmt: skip
        finally:
            worker.stop()

    winner, loser = (PlayerRating.objects.get(player=p) for p in tally_players)
    assert winner.mu > 25 > loser.mu
    message.refresh_from_db()
    assert message.done_at is not None
