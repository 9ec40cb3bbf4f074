"""The opponents list of head-to-head (ratings/reads/head_to_head.py): ranked by one grouped count of
the seats opposite the player's, the records read for the opponents shown; the same ranking and
records as counting every meeting of his in Python, partnerships (teams) and multiplayer tables
included."""

from __future__ import annotations

from collections import Counter, defaultdict

import pytest

from ratings.backtest import synthetic_db
from ratings.reads import head_to_head
from scorekeeper.matches.models import Match, Player, Seat

pytestmark = pytest.mark.django_db


def by_every_meeting(player: int) -> list[tuple]:
    """(opponent, met, wins, losses, draws, games) from all his meetings, ranked as the list is."""
    by_opponent = defaultdict(list)
    for meeting in head_to_head.meetings(player=player, dated=False):
        by_opponent[meeting.opponent_id].append(meeting)
    names = dict(Player.objects.values_list("pk", "name"))
    ranked = sorted(by_opponent, key=lambda pk: (-len(by_opponent[pk]), names[pk].casefold(), pk))
    out = []
    for pk in ranked:
        record = head_to_head.record_of(by_opponent[pk])
        games = Counter(m.game for m in by_opponent[pk])
        out.append((pk, len(by_opponent[pk]), record.wins, record.losses, record.draws, games))
    return out


def ranked_and_recorded(player: int) -> list[tuple]:
    ranked = head_to_head.opponents(player=player)
    rivals = head_to_head.records(player=player, opponents=[met.player for met in ranked])
    assert [met.met for met in ranked] == [rival.record.played for rival in rivals]
    return [
        (r.player.pk, r.record.played, r.record.wins, r.record.losses, r.record.draws, r.games)
        for r in rivals
    ]


@pytest.fixture
def pool(tally):
    """200 matches of 2–6 of 15 players; the four-seat ones played as two teams (0+2, 1+3)."""
    ids = synthetic_db.players(15)
    tables = synthetic_db.outcomes(players=15, matches=200, seed=8)
    matches = synthetic_db.store(game="tally", tables=tables, player_ids=ids)
    four = [m for m, (seated, _) in zip(matches, tables, strict=True) if len(seated) == 4]
    for seat in Seat.objects.filter(match_id__in=four):
        seat.team = seat.position % 2
        seat.save(update_fields=["team"])
    return ids


def test_the_ranking_and_the_records_are_those_of_every_meeting(pool):
    for player in pool[:5]:
        assert ranked_and_recorded(player) == by_every_meeting(player)


def test_a_page_of_opponents_gets_the_same_records_as_the_whole_list(pool):
    ranked = head_to_head.opponents(player=pool[0])
    whole = head_to_head.records(player=pool[0], opponents=[met.player for met in ranked])
    page = head_to_head.records(player=pool[0], opponents=[met.player for met in ranked[3:6]])
    assert [(r.player, r.record, r.games) for r in page] == [
        (r.player, r.record, r.games) for r in whole[3:6]
    ]


def test_partners_are_not_opponents(pool):
    me = pool[0]
    mine = dict(Seat.objects.filter(player_id=me).values_list("match_id", "team"))
    shared, partnered = Counter(), Counter()
    for match, player, team in (
        Seat.objects.filter(match_id__in=mine)
        .exclude(player_id=me)
        .values_list("match_id", "player_id", "team")
    ):
        shared[player] += 1
        partnered[player] += team is not None and team == mine[match]
    assert sum(partnered.values()) > 0
    met = {m.player.pk: m.met for m in head_to_head.opponents(player=me)}
    assert met == {p: shared[p] - partnered[p] for p in shared if shared[p] > partnered[p]}


def test_the_api_s_single_read_ranks_and_records_as_the_grouped_count_does(pool):
    for player in pool[:5]:
        ranked = head_to_head.opponents(player=player)
        met = head_to_head.opposed(player=player)
        assert met.ranked == ranked
        whole = met.rivals([m.player for m in met.ranked])
        assert [(r.player, r.record, r.games) for r in whole] == [
            (r.player, r.record, r.games)
            for r in head_to_head.records(player=player, opponents=[m.player for m in ranked])
        ]
        page = met.rivals([m.player for m in met.ranked[3:6]])
        assert [(r.player, r.record, r.games) for r in page] == [
            (r.player, r.record, r.games) for r in whole[3:6]
        ]


def test_the_single_read_counts_a_finished_match_without_places_as_the_grouped_count_does(pool):
    me = pool[0]
    broken = Seat.objects.filter(player_id=me).values_list("match_id", flat=True).first()
    Match.objects.filter(pk=broken).update(result={})
    assert head_to_head.opposed(player=me).ranked == head_to_head.opponents(player=me)


def test_a_rival_never_placed_against_him_gets_no_chances_and_the_api_still_answers(play, players, client):
    play([0, 2], [10, 3])
    broken = play([0, 1], [10, 3])
    Match.objects.filter(pk=broken.pk).update(result={})  # their one meeting placed neither
    me = players[0].pk

    met = head_to_head.opposed(player=me)
    rivals = head_to_head.with_chances(player=players[0], rivals=met.rivals([m.player for m in met.ranked]))

    by_id = {rival.player.pk: rival for rival in rivals}
    assert by_id[players[1].pk].main_game is None and by_id[players[1].pk].chances is None
    assert by_id[players[2].pk].main_game == "tally" and by_id[players[2].pk].chances.game == "tally"
    answer = client.get(f"/api/v1/players/{me}/opponents")
    assert answer.status_code == 200
    chances = {row["player"]["id"]: row["chances"] for row in answer.json()["results"]}
    assert chances[players[1].pk] is None and chances[players[2].pk]["game"] == "tally"
