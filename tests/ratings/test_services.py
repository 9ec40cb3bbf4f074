"""Ratings follow the matches: a finished match is rated, corrections and voids replay the pool
from that match on and give exactly what a recompute from nothing gives, a void match leaves no
trace, reopening puts it back. The services are called directly (Celery's guidance)."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from ratings import services as ratings
from ratings.engine import Rater
from ratings.models import PlayerRating, RatingEvent, RatingHistory, RatingPool, RecomputeJob
from ratings.pool_reading import PoolMatch, _json_column, _outcome
from scorekeeper.matches.services import hand_correct, hand_record, match_reopen, match_void
from scorekeeper.outbox.models import OutboxMessage
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def snapshot():
    """Every rating and history row, as plain tuples, in a fixed order."""
    rating_rows = sorted(
        PlayerRating.objects.values_list(
            "pool__game", "player_id", "mu", "sigma", "conservative", "matches", "wins", "last_played_at"
        )
    )
    history_rows = sorted(
        RatingHistory.objects.values_list(
            "pool__game", "player_id", "match_id", "played_at", "side", "place",
            "mu_before", "sigma_before", "mu_after", "sigma_after", "win_probability",
        )
    )  # fmt: skip
    return rating_rows, history_rows


def recompute_from_nothing():
    job = RecomputeJob.objects.create(total=1)
    for pool in RatingPool.objects.all():
        ratings.rating_pool_recompute(pool=pool, job=job)
    return snapshot()


def rating(player, game="tally"):
    return PlayerRating.objects.get(pool__game=game, player=player)


def test_finishing_a_match_stores_a_rating_event_and_its_outbox_message_in_the_same_write(play, players):
    match = play([0, 1], [4, 3])
    assert not RatingEvent.objects.exists()  # still in progress

    match = hand_record(match=match, record=hand([6, 0], dealer=1), by=match.created_by).match

    event = RatingEvent.objects.get()
    assert (event.match_id, event.game, event.kind, event.processed_at) == (match.pk, "tally", "finish", None)
    message = OutboxMessage.objects.get(task="ratings.event_process")
    assert message.kwargs == {"event_id": event.pk}


def test_a_finished_match_moves_ratings_winner_up_loser_down(play, players):
    play([0, 1], [10, 3])

    assert ratings.rating_events_process_all() == 1

    prior = Rater.default().prior()
    winner, loser = rating(players[0]), rating(players[1])
    assert winner.mu > prior.mu > loser.mu
    assert winner.sigma < prior.sigma and loser.sigma < prior.sigma
    assert (winner.matches, winner.wins, loser.matches, loser.wins) == (1, 1, 1, 0)
    assert winner.conservative == Rater.default().conservative(
        Rater.default().rate([[prior], [prior]], [1, 2])[0][0]
    )
    rows = {row.player_id: row for row in RatingHistory.objects.all()}
    assert rows[players[0].pk].place == 1 and rows[players[1].pk].place == 2
    assert rows[players[0].pk].win_probability == pytest.approx(0.5)  # equals before the match
    assert (rows[players[0].pk].mu_before, rows[players[0].pk].mu_after) == (prior.mu, winner.mu)
    pool = RatingPool.objects.get(game="tally")
    assert pool.matches == 1 and pool.last_match_id == rows[players[0].pk].match_id
    assert not RatingEvent.objects.filter(processed_at__isnull=True).exists()


def test_a_draw_between_equals_leaves_them_equal(play, players):
    play([0, 1], [10, 10])
    ratings.rating_events_process_all()

    a, b = rating(players[0]), rating(players[1])
    assert (a.mu, a.sigma) == (b.mu, b.sigma)
    assert a.wins == b.wins == 1  # a shared first place counts as a win


def test_events_that_came_in_meanwhile_collapse_into_one_run(play, players):
    play([0, 1], [10, 3])
    play([1, 2], [10, 3])
    play([2, 0], [2, 10])
    first = RatingEvent.objects.order_by("id").first()

    assert ratings.rating_event_process(event=first.pk) == {"event": first.pk, "events": 3, "replayed": 3}
    # The other two events' tasks find their work done.
    for event in RatingEvent.objects.exclude(pk=first.pk):
        assert ratings.rating_event_process(event=event.pk)["events"] == 0
    assert RatingHistory.objects.count() == 6


def test_an_event_task_delivered_twice_gives_the_same_ratings_and_no_second_history(play, players):
    """The outbox's sweep may hand a message over while its first delivery still runs or after it
    ended (docs/ratings.md, "Recovery"): the second run finds its event processed and returns
    at once, leaving events that came in since to their own messages."""
    from ratings.tasks import event_process

    play([0, 1], [10, 3])
    play([1, 2], [10, 3])
    ratings.rating_events_process_all()
    old = play([2, 3], [10, 1])
    event = RatingEvent.objects.get(match=old)
    message = OutboxMessage.objects.get(task=ratings.EVENT_TASK, kwargs={"event_id": event.pk})
    delivery = {**message.kwargs, "outbox_id": message.pk}

    assert event_process.apply(kwargs=delivery, throw=True).get()["events"] == 1
    once = snapshot()
    again = event_process.apply(kwargs=delivery, throw=True).get()
    assert again == {"event": delivery["event_id"], "events": 0}
    assert snapshot() == once and len(once[1]) == 6

    # Delivered again after a new match and a correction of the older one: still nothing done.
    play([0, 3], [10, 2])
    hand_correct(match=old, number=1, record=hand([1, 10]), by=old.created_by)
    assert event_process.apply(kwargs=delivery, throw=True).get()["events"] == 0
    assert snapshot() == once
    message.refresh_from_db()
    assert message.done_at is not None
    assert ratings.rating_events_process_all() == 2  # their own messages' work
    after = snapshot()
    assert len(after[1]) == 8 and recompute_from_nothing() == after


def test_rating_one_match_at_a_time_gives_what_a_recompute_gives(play, players):
    for seats, points in [
        ([0, 1], [10, 3]),
        ([1, 2, 3], [2, 10, 5]),
        ([3, 0], [10, 9]),
        ([0, 1, 2, 3], [4, 4, 10, 1]),
    ]:
        play(seats, points)
        ratings.rating_events_process_all()
    incremental = snapshot()

    assert recompute_from_nothing() == incremental
    assert len(incremental[1]) == 11


def test_correcting_a_hand_of_an_older_match_replays_the_pool_as_a_recompute_would(play, players):
    old = play([0, 1], [3, 2], [7, 2])  # Ada wins
    play([1, 2], [10, 3])
    play([0, 2], [1, 10])
    ratings.rating_events_process_all()
    before = snapshot()

    hand_correct(match=old, number=2, record=hand([2, 9], dealer=1), by=old.created_by)  # now Bea wins
    event = RatingEvent.objects.get(processed_at__isnull=True)
    assert event.kind == "correct"
    assert ratings.rating_events_process_all() == 1

    after = snapshot()
    assert after != before
    assert rating(players[1]).wins == 2
    assert recompute_from_nothing() == after


def test_voiding_an_older_match_leaves_no_trace_and_reopening_puts_it_back(play, players, user):
    play([0, 1], [10, 3])
    voided = play([2, 3], [10, 3])  # Dan plays only this match
    play([0, 2], [1, 10])
    ratings.rating_events_process_all()
    with_it = snapshot()

    match_void(match=voided, by=user, reason="recorded by mistake")
    ratings.rating_events_process_all()

    without = snapshot()
    assert not RatingHistory.objects.filter(match=voided).exists()
    assert not PlayerRating.objects.filter(player=players[3]).exists()
    assert rating(players[2]).matches == 1
    assert RatingPool.objects.get(game="tally").matches == 2
    assert recompute_from_nothing() == without

    match_reopen(match=voided, by=user, reason="it was played after all")
    ratings.rating_events_process_all()
    assert snapshot() == with_it
    assert RatingPool.objects.get(game="tally").matches == 3


def test_a_match_voided_before_it_finished_sends_no_event(play, players, user):
    match = play([0, 1], [3, 3])
    match_void(match=match, by=user, reason="abandoned")
    assert not RatingEvent.objects.exists()


def test_a_recompute_job_counts_its_pools_and_a_redelivered_pool_task_changes_nothing(play, players, user):
    play([0, 1], [10, 3])
    job = ratings.rating_recompute_request(by=user)
    assert (job.total, job.done, job.status) == (1, 0, "running")
    [message] = OutboxMessage.objects.filter(task="ratings.pool_recompute")
    assert message.kwargs == {"job_id": job.pk, "pool_id": RatingPool.objects.get(game="tally").pk}

    assert ratings.rating_pool_recompute(pool=message.kwargs["pool_id"], job=job.pk)["replayed"] == 1
    assert ratings.rating_pool_recompute(pool=message.kwargs["pool_id"], job=job.pk)["skipped"]
    job.refresh_from_db()
    assert (job.done, job.status) == (1, "done") and job.finished_at is not None
    assert not RatingEvent.objects.filter(processed_at__isnull=True).exists()


def test_partnership_games_are_rated_as_two_teams_and_other_games_free_for_all():
    at = datetime(1970, 1, 3, 12, tzinfo=UTC)  # 2.5 days after the engine's epoch
    voleur = _outcome(7, at, [2, 1, 2, 1], [10, 11, 12, 13], (0, 1, 0, 1))
    assert voleur == PoolMatch(7, at, ((10, 12), (11, 13)), (2, 1), 2.5)
    free = _outcome(8, at, [1, 3, 1], [10, 11, 12], None)
    assert free == PoolMatch(8, at, ((10,), (11,), (12,)), (1, 3, 1), 2.5)
    assert _outcome(9, at, [1], [10, 11], None) is None  # placements that do not fit


def test_a_chunks_placements_are_parsed_at_once_or_row_by_row_when_one_is_not_json():
    rows = [(1, 0, "[1, 2]", []), (2, 0, "[2, 1, 1]", [])]
    assert _json_column(rows, 2) == [[1, 2], [2, 1, 1]]
    # ``->>`` gives a JSON string's text unquoted: not JSON, so that row alone is None.
    rows.insert(1, (3, 0, "first, second", []))
    rows.append((4, 0, None, []))
    assert _json_column(rows, 2) == [[1, 2], None, [2, 1, 1], None]
    assert _json_column([(5, 0, "1, 2", [])], 2) == [None]  # two values: not one row's


def test_a_match_whose_stored_placements_do_not_fit_is_left_out_of_a_recompute(play, players):
    good = play([0, 1], [10, 3])
    bad = play([1, 2], [2, 10])
    also_good = play([2, 0], [10, 4])
    ratings.rating_events_process_all()
    Match = type(bad)
    for broken in ("not a list", [1], [1, True]):
        Match.objects.filter(pk=bad.pk).update(result={**bad.result, "placements": broken})
        recompute_from_nothing()
        assert set(RatingHistory.objects.values_list("match_id", flat=True)) == {good.pk, also_good.pk}
