"""A profile's rivals (``head_to_head.rivals``) read from the seats: at every step (finishes, a
correction, a void, a reopening, a merge, a recompute; teams and multiplayer tables) the five
shown, their records, games and chances are those of the opponents list and its records
(``opponents`` and ``records``, the API's definitions), the moment a match changes, before its
rating event is processed."""

from __future__ import annotations

import pytest

from ratings.backtest import synthetic_db
from ratings.models import RatingPool
from ratings.reads import head_to_head
from ratings.services import rating_events_process_all, rating_pool_recompute
from scorekeeper.matches.models import Match, Player, Seat
from scorekeeper.matches.services import (
    hand_correct,
    hand_record,
    match_create,
    match_reopen,
    match_void,
    player_merge,
)
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def rivals_from_seats(player) -> list[tuple]:
    shown = [met.player for met in head_to_head.opponents(player=player)[: head_to_head.RIVALS_SHOWN]]
    rivals = head_to_head.with_chances(
        player=player, rivals=head_to_head.records(player=player, opponents=shown)
    )
    return [(r.player, r.record, r.games, r.chances) for r in rivals]


def shown(player) -> list[tuple]:
    rivals = head_to_head.rivals(player=Player.objects.get(pk=player.pk))
    assert all(list(r.games) == sorted(r.games) for r in rivals)  # the games in their order
    return [(r.player, r.record, r.games, r.chances) for r in rivals]


def assert_as_the_seats_count(players) -> None:
    for player in players:
        assert shown(player) == rivals_from_seats(player)


def record(player, other) -> tuple[int, int, int]:
    (rival,) = [r for r in head_to_head.rivals(player=player) if r.player.pk == other.pk]
    return (rival.record.wins, rival.record.losses, rival.record.draws)


def test_the_rivals_follow_finishes_a_correction_a_void_a_reopening_and_a_merge(
    play, players, make_players, django_user_model
):
    ada, bea, cid, dan = players
    (ada_s,) = make_players("Ada S.")
    play([0, 1], [10, 3])
    play([1, 0, 2], [10, 4, 6])
    corrected = play([0, 2], [10, 2])
    voided = play([0, 1, 2, 3], [3, 10, 1, 1])
    play([0, 3], [10, 10])  # a draw
    play([0, 1], [3, 2])  # in progress: not a meeting
    seated = {0: ada, 1: bea, 2: cid, 3: dan}
    for seats in ([1, 3], [3, 2]):
        match = match_create(
            game="tally", players=[ada_s, *(seated[i] for i in seats)], by=corrected.created_by
        )
        hand_record(match=match, record=hand([10, 1, 2]), by=match.created_by)
    everyone = [*players, ada_s]
    # Read from the seats: there before the rating events are processed.
    assert record(ada, bea) == (1, 2, 0) and record(cid, ada) == (1, 2, 0)
    rating_events_process_all()
    assert_as_the_seats_count(everyone)
    assert record(ada, bea) == (1, 2, 0) and record(cid, ada) == (1, 2, 0)
    assert record(ada, dan) == (1, 0, 1)  # the four-seat match, and the draw

    hand_correct(match=corrected, number=1, record=hand([2, 10]), by=corrected.created_by)  # now Cid wins
    rating_events_process_all()
    assert_as_the_seats_count(everyone)
    assert record(cid, ada) == (2, 1, 0)

    match_void(match=voided, by=voided.created_by, reason="entered twice")
    rating_events_process_all()
    assert_as_the_seats_count(everyone)
    assert record(ada, bea) == (1, 1, 0)
    match_reopen(match=voided, by=voided.created_by, reason="it was not")
    rating_events_process_all()
    assert_as_the_seats_count(everyone)
    assert record(ada, bea) == (1, 2, 0)

    staff = django_user_model.objects.create_user("staff", is_staff=True)
    player_merge(player=ada_s, into=ada, by=staff)  # at once, before the recompute
    assert_as_the_seats_count(players)
    assert record(ada, bea) == (2, 2, 0) and head_to_head.rivals(player=ada_s) == []
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    assert_as_the_seats_count(players)


@pytest.fixture
def pool(tally):
    """200 matches of 2–6 of 15 players, the four-seat ones as two teams, one without places."""
    ids = synthetic_db.players(15)
    tables = synthetic_db.outcomes(players=15, matches=200, seed=8)
    matches = synthetic_db.store(game="tally", tables=tables, player_ids=ids)
    four = [m for m, (seated, _) in zip(matches, tables, strict=True) if len(seated) == 4]
    for seat in Seat.objects.filter(match_id__in=four):
        seat.team = seat.position % 2
        seat.save(update_fields=["team"])
    Match.objects.filter(pk=matches[0]).update(result={})
    rating_pool_recompute(pool=RatingPool.objects.get_or_create(game="tally")[0])
    return ids


def test_the_rivals_of_teams_and_multiplayer_tables_are_those_of_the_seats(pool):
    assert_as_the_seats_count(Player.objects.filter(pk__in=pool))
