"""Head-to-head (issue 21): the players a profile's owner met most often, with the record and
today's chance; ``/players/<a>/vs/<b>/`` with their matches, the running record and the chances;
opposite sides only (partners did not meet), who placed above whom at a multiplayer table;
queries flat in the matches shown."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ratings.reads import head_to_head
from ratings.services import rating_events_process_all
from scorekeeper.matches.models import Seat

pytestmark = pytest.mark.django_db


def url(a, b, **query):
    path = reverse("player-head-to-head", args=[a.pk, b.pk])
    return path + ("?" + "&".join(f"{k}={v}" for k, v in query.items()) if query else "")


@pytest.fixture
def met(play, players):
    """Ada and Bea: Ada wins twice, Bea once, one draw; Ada and Cid once (Cid wins)."""
    _ada, _bea, _cid, _ = players
    play([0, 1], [10, 3])
    play([0, 1], [10, 2])
    play([1, 0], [10, 4])
    play([0, 1], [10, 10])
    play([0, 2], [1, 10])
    play([0, 1], [3, 2])  # in progress: not a meeting
    rating_events_process_all()
    return players


def test_the_record_counts_wins_losses_and_draws_from_the_places(met):
    ada, bea, _cid, _ = met
    both = head_to_head.pair(player=ada, opponent=bea)
    assert (both.record.wins, both.record.losses, both.record.draws) == (2, 1, 1)
    assert [(r.wins, r.losses, r.draws) for r in both.running] == [(1, 0, 0), (2, 0, 0), (2, 1, 0), (2, 1, 1)]
    other_way = head_to_head.pair(player=bea, opponent=ada)
    assert (other_way.record.wins, other_way.record.losses, other_way.record.draws) == (1, 2, 1)


def test_the_chances_today_sum_to_one_and_favour_the_better_rated(met):
    ada, bea, *_ = met
    (chance,) = head_to_head.pair(player=ada, opponent=bea).chances
    assert chance.game == "tally" and chance.rated
    assert chance.win > chance.loss
    assert chance.win + chance.draw + chance.loss == pytest.approx(1)


def test_at_a_multiplayer_table_the_one_placed_above_the_other_wins(play, players):
    ada, bea, cid, _dan = players
    play([0, 1, 2], [2, 10, 5])  # Bea first, Cid second, Ada third
    assert head_to_head.record_of(head_to_head.meetings(player=cid, opponent=ada)).wins == 1
    assert head_to_head.record_of(head_to_head.meetings(player=cid, opponent=bea)).losses == 1


def test_partners_did_not_meet_only_opponents_did(play, players):
    ada, bea, cid, _dan = players
    match = play([0, 1, 2, 3], [10, 1, 1, 1])
    for seat in Seat.objects.filter(match=match):
        Seat.objects.filter(pk=seat.pk).update(team=seat.position % 2)  # 0+2 against 1+3
    assert head_to_head.meetings(player=ada, opponent=cid) == []
    assert [m.outcome for m in head_to_head.meetings(player=ada, opponent=bea)] == ["win"]


def test_the_profile_lists_the_players_met_most_often_with_record_and_chance(client, met):
    ada, bea, _cid, _ = met
    response = client.get(reverse("player-detail", args=[ada.pk]))
    html = response.content.decode()
    section = html[html.index('id="head-to-head"') :]
    assert section.index("Bea") < section.index("Cid")  # met four times, then once
    assert "2–1–1" in section and "0–1–0" in section
    assert url(ada, bea) in section
    assert " %" in section


def test_a_profile_without_meetings_has_no_head_to_head_section(client, players):
    assert (
        'id="head-to-head"' not in client.get(reverse("player-detail", args=[players[3].pk])).content.decode()
    )


def test_the_head_to_head_page_shows_their_matches_with_the_running_record(client, met):
    ada, bea, *_ = met
    response = client.get(url(ada, bea))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ada vs Bea" in html
    assert html.count('class="meeting ') == 4
    # Newest first: the draw, then Bea's win, then Ada's two.
    records = [part.split("</div>")[0].strip() for part in html.split("record</span> ")[1:]]
    assert records == ["2–1–1", "2–1–0", "2–0–0", "1–0–0"]
    assert 'id="chances"' in html


def test_the_head_to_head_page_filters_by_game_and_refuses_an_unknown_one(client, met):
    ada, bea, *_ = met
    assert client.get(url(ada, bea, game="tally")).status_code == 200
    assert client.get(url(ada, bea, game="nosuchgame")).status_code == 404
    html = client.get(url(ada, bea, game="piquet")).content.decode()
    assert "They have not met in a finished match yet." in html


def test_the_head_to_head_of_a_player_with_himself_is_his_profile(client, met):
    ada = met[0]
    response = client.get(url(ada, ada))
    assert response.status_code == 302 and response["Location"] == reverse("player-detail", args=[ada.pk])


def test_an_unknown_player_is_a_404(client, met):
    assert client.get(reverse("player-head-to-head", args=[met[0].pk, 99999])).status_code == 404
    assert client.get(reverse("player-head-to-head", args=[99999, met[0].pk])).status_code == 404


def test_the_pages_are_in_the_visitors_language_with_its_number_format(client, met):
    ada, bea, *_ = met
    html = client.get(url(ada, bea), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Ada contre Bea" in html
    assert "Chances aujourd’hui" in html


def count_queries(client, path) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path).status_code == 200
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_the_matches_shown(client, play, players, settings):
    # Listed on the board from the first match: a rank is then read before and after alike.
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 1
    ada, bea, _cid, _dan = players
    play([0, 1], [10, 3])
    play([0, 2], [10, 3])
    rating_events_process_all()
    few_page = count_queries(client, url(ada, bea))
    few_profile = count_queries(client, reverse("player-detail", args=[ada.pk]))
    for seats in ([0, 1], [1, 0], [0, 3], [2, 0], [0, 1, 2, 3]):
        play(seats, [10, 1, 2, 3][: len(seats)])
    rating_events_process_all()
    assert count_queries(client, url(ada, bea)) == few_page
    assert count_queries(client, reverse("player-detail", args=[ada.pk])) == few_profile


# -- a merged player's pages ----------------------------------------------------------------
def test_a_merged_players_pages_redirect_to_the_real_players(client, play, players, django_user_model):
    from scorekeeper.matches.services import player_merge

    ada, bea, _cid, dan = players
    play([3, 1], [10, 3])
    staff = django_user_model.objects.create_user("staff", is_staff=True)
    player_merge(player=dan, into=ada, by=staff)
    response = client.get(reverse("player-detail", args=[dan.pk]) + "?page=1")
    assert response.status_code == 301
    assert response["Location"] == reverse("player-detail", args=[ada.pk]) + "?page=1"
    response = client.get(url(dan, bea))
    assert response.status_code == 301 and response["Location"] == url(ada, bea)
    response = client.get(url(bea, dan))
    assert response.status_code == 301 and response["Location"] == url(bea, ada)
    html = client.get(url(ada, bea)).content.decode()
    assert html.count('class="meeting ') == 1


def test_pickers_and_the_match_filter_do_not_offer_merged_players(scorer, play, players, django_user_model):
    from scorekeeper.matches.services import player_merge

    staff = django_user_model.objects.create_user("staff", is_staff=True)
    player_merge(player=players[3], into=players[0], by=staff)
    listing = scorer.get(reverse("match-list")).content.decode()
    assert ">Dan<" not in listing and ">Ada<" in listing
    new_match = scorer.get(reverse("match-new-game", args=["tally"])).content.decode()
    assert ">Dan<" not in new_match and ">Ada<" in new_match
