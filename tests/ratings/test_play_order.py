"""A pool rates its matches in the order they were played (issue 20): the time the scorer gave
for a score sheet entered afterwards (``Match.played_at``), else when the match first finished;
ties by id. A match that comes in late, or whose date played is corrected, is rated in its
place: the pool is replayed from there, to exactly the floats of a recompute from nothing."""

from __future__ import annotations

import dataclasses
from datetime import timedelta

import pytest
from django.db import transaction
from django.utils import timezone
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from ratings import services as ratings
from ratings.models import RatingHistory, RatingPool
from ratings.pool_reading import played_day
from ratings.raters import rater
from scorekeeper.matches import errors
from scorekeeper.matches.models import AuditEntry
from scorekeeper.matches.services import hand_record, match_create, match_played_at_set
from tests.fakes import hand
from tests.ratings.test_services import rating, recompute_from_nothing, snapshot

pytestmark = pytest.mark.django_db


@pytest.fixture
def sheet(players, user):
    """A finished tally match, ``sheet([0, 1], [10, 3], played_at=…)``: one hand of points."""

    def enter(seats, points, played_at=None):
        match = match_create(game="tally", players=[players[i] for i in seats], by=user, played_at=played_at)
        return hand_record(match=match, record=hand(list(points)), by=user).match

    return enter


def order():
    """The pool's matches as its history orders them."""
    rows = RatingHistory.objects.order_by("played_at", "match_id").values_list("match_id", flat=True)
    return list(dict.fromkeys(rows))


def test_a_score_sheet_entered_late_is_rated_in_the_place_it_was_played(sheet, players):
    now = timezone.now()
    first = sheet([0, 1], [10, 3])
    second = sheet([1, 2], [10, 3])
    ratings.rating_events_process_all()
    bea_before = rating(players[1]).mu

    # Entered now, played two days ago: before both.
    late = sheet([1, 3], [2, 10], played_at=now - timedelta(days=2))
    assert ratings.rating_events_process_all() == 1

    assert order() == [late.pk, first.pk, second.pk]
    assert RatingPool.objects.get(game="tally").last_match_id == second.pk  # still the last played
    assert rating(players[1]).mu != bea_before  # Bea lost the late one first, then won twice
    assert (
        rating(players[1]).last_played_at
        == RatingHistory.objects.get(match=second, player=players[1]).played_at
    )
    assert rating(players[3]).last_played_at == now - timedelta(days=2)  # when he played
    assert recompute_from_nothing() == snapshot()


def test_correcting_the_date_played_moves_the_match_and_replays_from_its_old_or_new_place(
    sheet, players, user
):
    now = timezone.now()
    moved = sheet([0, 1], [10, 3], played_at=now - timedelta(days=3))
    others = [sheet([0, 2], [3, 10], played_at=now - timedelta(days=2)), sheet([1, 2], [10, 4])]
    ratings.rating_events_process_all()
    assert order() == [moved.pk, *[m.pk for m in others]]

    moved = match_played_at_set(
        match=moved, played_at=now - timedelta(days=1), by=user, reason="misread the date"
    )
    assert ratings.rating_events_process_all() == 1
    assert order() == [others[0].pk, moved.pk, others[1].pk]
    assert recompute_from_nothing() == snapshot()
    entry = AuditEntry.objects.get(action=AuditEntry.Action.MATCH_PLAYED_AT)
    assert entry.payload["reason"] == "misread the date"
    assert entry.payload["played_at_before"] == (now - timedelta(days=3)).isoformat()

    match_played_at_set(match=moved, played_at=None, by=user, reason="it was played live after all")
    ratings.rating_events_process_all()
    # Back to when it first finished: after the match played two days ago, before the live one.
    assert order() == [others[0].pk, moved.pk, others[1].pk]
    assert recompute_from_nothing() == snapshot()


def test_the_date_played_cannot_be_in_the_future_nor_a_mistyped_year(players, user):
    for played_at, code in [
        (timezone.now() + timedelta(minutes=5), "played_at_future"),
        (timezone.now().replace(year=1899), "played_at_too_early"),
        ("yesterday", "played_at_invalid"),
    ]:
        with pytest.raises(errors.Invalid) as caught:
            match_create(game="tally", players=players[:2], by=user, played_at=played_at)
        assert (caught.value.code, caught.value.field) == (code, "played_at")


# -- the property: an insert, then the events processed, equals a recompute with it ----------
MATCH = st.tuples(
    st.lists(st.integers(0, 3), min_size=2, max_size=3, unique=True),  # the seats
    st.lists(st.integers(0, 10), min_size=3, max_size=3),  # the points, by seat
    st.one_of(st.none(), st.integers(1, 96)),  # recorded live, or played so many hours ago
)
STEP = st.one_of(
    st.tuples(st.just("enter"), MATCH),
    st.tuples(st.just("process"), st.none()),
    # Correct the date played of an earlier match (its index, modulo) to so many hours ago.
    st.tuples(st.just("redate"), st.tuples(st.integers(0, 20), st.one_of(st.none(), st.integers(1, 96)))),
)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=st.lists(STEP, min_size=1, max_size=12))
def test_inserting_matches_anywhere_then_processing_equals_a_recompute_from_nothing(players, user, steps):
    now = timezone.now()
    with transaction.atomic():
        entered = []
        for kind, value in steps:
            if kind == "enter":
                seats, points, hours = value
                played_at = None if hours is None else now - timedelta(hours=hours)
                match = match_create(
                    game="tally", players=[players[i] for i in seats], by=user, played_at=played_at
                )
                points = points[: len(seats)]
                record = hand([max(points) + 10, *points[1:]])  # the first seat reaches 10
                entered.append(hand_record(match=match, record=record, by=user).match)
            elif kind == "process":
                ratings.rating_events_process_all()
            elif entered:
                index, hours = value
                match = entered[index % len(entered)]
                played_at = None if hours is None else now - timedelta(hours=hours)
                entered[index % len(entered)] = match_played_at_set(
                    match=match, played_at=played_at, by=user, reason="corrected"
                )
        ratings.rating_events_process_all()
        incremental = snapshot()
        assert recompute_from_nothing() == incremental
        assert len({row[2] for row in incremental[1]}) == len(entered)
        transaction.set_rollback(True)


def test_a_player_back_after_a_year_is_rated_with_the_days_between_his_matches(sheet, players):
    from ratings.engine import MatchOutcome, replay_arrays

    year_ago = timezone.now() - timedelta(days=365)
    old = sheet([0, 1], [10, 3], played_at=year_ago)
    ratings.rating_events_process_all()  # alone: its players' last day is stored with them
    new = sheet([0, 1], [2, 10])  # a year later
    ratings.rating_events_process_all()

    played = {row.match_id: row.played_at for row in RatingHistory.objects.all()}
    outcomes = [
        MatchOutcome(m.pk, ((players[0].pk,), (players[1].pk,)), places, played_day(played[m.pk]))
        for m, places in [(old, (1, 2)), (new, (2, 1))]
    ]
    expected, undecayed = {}, {}
    replay_arrays(rater("tally"), outcomes, expected, {})
    replay_arrays(rater("tally"), [dataclasses.replace(o, day=None) for o in outcomes], undecayed, {})
    ada = rating(players[0])
    assert (ada.mu, ada.sigma) == tuple(expected[players[0].pk])
    assert ada.sigma > undecayed[players[0].pk].sigma  # a year away made him less certain
    assert recompute_from_nothing() == snapshot()
