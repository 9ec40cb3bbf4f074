"""The kept head-to-head records (``ratings.models.HeadToHead``): a match's rating event
recounts the pairs of its players, a full recompute rebuilds its game's, a merge recounts the
two players'; at every step they equal the records counted from the seats (``opponents`` and
``records``), and the profile's rivals read from them are those of the seats."""

from __future__ import annotations

import pytest

from ratings import head_to_head as upkeep
from ratings.backtest import synthetic_db
from ratings.models import HeadToHead, RatingPool
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


def kept() -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """(player, opponent) → (met, wins, losses, draws) of the table, summed over the games."""
    out: dict[tuple[int, int], list[int]] = {}
    for player, other, met, wins, losses, draws in HeadToHead.objects.values_list(
        "player_id", "opponent_id", "met", "wins", "losses", "draws"
    ):
        row = out.setdefault((player, other), [0, 0, 0, 0])
        for i, n in enumerate((met, wins, losses, draws)):
            row[i] += n
    return {pair: (row[0], row[1], row[2], row[3]) for pair, row in out.items()}


def from_seats() -> dict[tuple[int, int], tuple[int, int, int, int]]:
    """The same from the seats, as the opponents list and its records count them."""
    out = {}
    for player in Player.objects.values_list("pk", flat=True):
        ranked = head_to_head.opponents(player=player)
        rivals = head_to_head.records(player=player, opponents=[m.player for m in ranked])
        for met, rival in zip(ranked, rivals, strict=True):
            r = rival.record
            out[player, met.player.pk] = (met.met, r.wins, r.losses, r.draws)
    return out


def rivals_from_seats(player) -> list[tuple]:
    shown = [met.player for met in head_to_head.opponents(player=player)[: head_to_head.RIVALS_SHOWN]]
    rivals = head_to_head.with_chances(
        player=player, rivals=head_to_head.records(player=player, opponents=shown)
    )
    return [(r.player, r.record, r.games, r.chances) for r in rivals]


def test_the_records_follow_finishes_a_correction_a_void_a_reopening_and_a_merge(
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
    rating_events_process_all()
    assert kept() == from_seats() and kept()[ada.pk, bea.pk] == (3, 1, 2, 0)
    assert kept()[cid.pk, ada.pk] == (3, 1, 2, 0)

    hand_correct(match=corrected, number=1, record=hand([2, 10]), by=corrected.created_by)  # now Cid wins
    rating_events_process_all()
    assert kept() == from_seats() and kept()[cid.pk, ada.pk] == (3, 2, 1, 0)

    match_void(match=voided, by=voided.created_by, reason="entered twice")
    rating_events_process_all()
    assert kept() == from_seats() and kept()[ada.pk, bea.pk] == (2, 1, 1, 0)
    match_reopen(match=voided, by=voided.created_by, reason="it was not")
    rating_events_process_all()
    assert kept() == from_seats() and kept()[ada.pk, bea.pk] == (3, 1, 2, 0)

    staff = django_user_model.objects.create_user("staff", is_staff=True)
    player_merge(player=ada_s, into=ada, by=staff)  # at once, before the recompute
    assert kept() == from_seats() and not HeadToHead.objects.filter(player=ada_s).exists()
    assert kept()[ada.pk, bea.pk] == (4, 2, 2, 0)
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    assert kept() == from_seats()
    for player in players:
        assert [(r.player, r.record, r.games, r.chances) for r in head_to_head.rivals(player=player)] == (
            rivals_from_seats(player)
        )


def test_a_repeated_event_and_a_recompute_change_nothing(play, players):
    play([0, 1], [10, 3])
    play([2, 0, 1], [10, 4, 6])
    rating_events_process_all()
    once = sorted(
        HeadToHead.objects.values_list("player_id", "opponent_id", "game", "met", "wins", "losses", "draws")
    )
    upkeep.recount("tally", Seat.objects.values_list("match_id", flat=True))
    rating_pool_recompute(pool=RatingPool.objects.get(game="tally"))
    again = sorted(
        HeadToHead.objects.values_list("player_id", "opponent_id", "game", "met", "wins", "losses", "draws")
    )
    assert again == once and len(once) == 6


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


def test_a_recompute_counts_the_records_of_teams_and_multiplayer_tables(pool):
    assert kept() == from_seats()
    for player in pool[:5]:
        assert [
            (r.player, r.record, r.games, r.chances)
            for r in head_to_head.rivals(player=Player.objects.get(pk=player))
        ] == (rivals_from_seats(player))


def test_a_backlog_of_events_rebuilds_the_game_s_records_whole(pool, monkeypatch):
    counted = kept()
    HeadToHead.objects.all().delete()
    monkeypatch.setattr(upkeep, "RECOUNT_MATCHES", 10)
    upkeep.recount("tally", Match.objects.values_list("pk", flat=True)[:11])
    assert kept() == counted == from_seats()
