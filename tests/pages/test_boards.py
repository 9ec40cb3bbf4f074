"""The leaderboards of issue 21 in the pages: established players apart from provisional ones,
the activity filter, explained rating changes, season boards; their queries flat in the rows."""

from __future__ import annotations

import datetime as dt
import itertools
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from ratings import services as ratings
from ratings.models import RatingHistory

pytestmark = pytest.mark.django_db


@pytest.fixture
def league(play):
    """Ada and Bea play six times (Ada wins five), Cid plays Dan twice: Ada and Bea are
    established (5 matches by default), Cid and Dan provisional with 2 of 5."""
    for i in range(6):
        play([0, 1], [10, 3] if i != 2 else [3, 10])
    play([2, 3], [10, 3])
    play([2, 3], [10, 4])
    ratings.rating_events_process_all()


def test_the_board_lists_established_players_and_the_newcomers_apart(client, league, players):
    response = client.get(reverse("leaderboard", args=["tally"]))

    established = list(response.context["page"].object_list)
    newcomers = list(response.context["newcomers"].object_list)
    assert [row.player.name for row in established] == ["Ada", "Bea"]
    assert [row.rank for row in established] == [1, 2]
    assert established[0].shown.rating > 1500 > established[1].shown.rating
    assert [row.player.name for row in newcomers] == ["Cid", "Dan"]
    body = response.content.decode()
    assert body.index('id="established"') < body.index('id="provisional"')
    assert body.count("2 of 5") == 2
    # The established rows give their matches and wins, not "6 of 5".
    table = body[body.index('id="established"') : body.index('id="provisional"')]
    assert " of 5" not in table and '<td class="num">6</td><td class="num">5</td>' in table
    assert "Listed from 5 rated matches in this game on." in body
    assert "A rating starts at 1500; 400 points between two players mean odds of 10 to 1" in body


def test_the_overview_counts_listed_and_provisional_players(client, league):
    body = client.get(reverse("leaderboards")).content.decode()
    assert "The whole board: 2 players" in body and "and 2 provisional" in body
    assert reverse("season", args=["tally"]) in body


def test_the_activity_filter_leaves_out_players_who_have_not_played_lately(client, league, players, settings):
    settings.RATINGS_LEADERBOARD_ACTIVE_DAYS = 30
    players[1].ratings.update(last_played_at=timezone.now() - dt.timedelta(days=31))

    response = client.get(reverse("leaderboard", args=["tally"]))

    assert [row.player.name for row in response.context["page"].object_list] == ["Ada"]
    assert "Only players who played within the last 30 days are listed." in response.content.decode()
    profile = client.get(players[1].get_absolute_url())
    assert profile.context["games"][0]["rating"].rank is None


def test_the_profile_gives_the_rank_on_the_board_and_explains_each_change(client, league, players):
    response = client.get(players[0].get_absolute_url())

    (entry,) = response.context["games"]
    assert entry["rating"].rank == 1 and not entry["rating"].provisional
    body = response.content.decode()
    assert "Rank on the board" in body and "Finishing places:" in body
    for row in response.context["rows"]:
        change = row["change"]
        assert change.delta == change.after - change.before
        assert f"rating {change.before} → {change.after}" in body
    # The chance to win, the score, the change (a tally's totals are its points).
    assert re.search(r"to win, won \d+–\d+: \+", body) and re.search(r"to win, lost \d+–\d+: −", body)


def test_a_newcomers_profile_says_how_many_matches_he_still_needs(client, league, players):
    body = client.get(players[2].get_absolute_url()).content.decode()
    assert "provisional: 2 of 5 matches" in body


def test_a_table_of_more_sides_explains_the_expected_and_the_finishing_place(client, play, players):
    match = play([0, 1, 2], [10, 4, 2])
    ratings.rating_events_process_all()

    response = client.get(match.get_absolute_url())

    changes = [entry["change"] for entry in response.context["rating_changes"]]
    assert [c.place for c in changes] == [1, 2, 3] and all(c.sides == 3 for c in changes)
    assert [c.expected_place for c in changes] == pytest.approx([2.0, 2.0, 2.0])  # three newcomers
    body = response.content.decode()
    assert f"expected place 2.0 of 3, finished 1: {'+' if changes[0].delta >= 0 else ''}" in body


def test_the_explanations_are_in_the_pages_language(client, play, players):
    match = play([0, 1], [10, 3])
    ratings.rating_events_process_all()

    body = client.get(match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="fr").content.decode()

    # Two newcomers: 50 % counting a draw half, 48 % to win (the default's 4.3 % of draws between equals).
    assert "48 % de chances de gagner, gagné 10–3 : +" in body


def test_the_season_board_gives_the_rating_at_the_end_the_matches_wins_and_the_change(client, league):
    response = client.get(reverse("season", args=["tally"]))  # this month

    assert response.status_code == 200
    rows = list(response.context["page"].object_list)
    by_name = {row.player_name: row for row in rows}
    assert set(by_name) == {"Ada", "Bea", "Cid", "Dan"}
    assert (by_name["Ada"].matches, by_name["Ada"].wins) == (6, 5)
    assert by_name["Ada"].change == by_name["Ada"].rating - 1500  # all his matches in it
    assert [row.rank for row in rows] == sorted(row.rank for row in rows)
    assert rows[0].player_name == "Ada"


def test_a_season_counts_only_the_matches_of_its_period(client, league, players):
    today = timezone.localdate()
    # Ada's first two matches were last year.
    first = RatingHistory.objects.filter(player=players[0]).order_by("played_at", "match_id")[:2]
    old = today.replace(year=today.year - 1)
    ids = [row.match_id for row in first]
    RatingHistory.objects.filter(match_id__in=ids).update(
        played_at=timezone.make_aware(dt.datetime.combine(old, dt.time(12)))
    )

    url = reverse("season", args=["tally"])
    rows = client.get(url, {"from": today.replace(day=1).isoformat(), "to": today.isoformat()}).context[
        "page"
    ]
    ada = next(row for row in rows.object_list if row.player_name == "Ada")
    assert ada.matches == 4
    last_year = client.get(url, {"from": old.isoformat(), "to": old.isoformat()}).context["page"]
    assert sorted(row.player_name for row in last_year.object_list) == ["Ada", "Bea"]


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ({"from": "2026-12-01", "to": "2026-11-01"}, "The period ends before it starts"),
        ({"from": "yesterday"}, "Enter a valid date."),
        ({"to": "2026-02-30"}, "Enter a valid date."),
        ({"from": "2000-01-01", "to": "2026-01-01"}, "A season covers at most ten years."),
    ],
)
def test_a_bad_season_range_is_named_on_the_page(client, league, query, message):
    response = client.get(reverse("season", args=["tally"]), query)
    assert response.status_code == 400
    assert message in response.content.decode()


def test_an_unknown_games_season_is_a_404(client):
    assert client.get(reverse("season", args=["nonsense"])).status_code == 404


def test_the_boards_queries_do_not_grow_with_their_rows(
    client, tally, make_players, user, django_assert_max_num_queries
):
    from scorekeeper.matches.services import hand_record, match_create
    from tests.fakes import hand

    def rate(names, times):
        people = make_players(*names)
        for _ in range(times):
            for a, b in itertools.pairwise(people):
                m = match_create(game="tally", players=[a, b], by=user)
                hand_record(match=m, record=hand([10, 3]), by=user)
        ratings.rating_events_process_all()

    rate(["A1", "A2", "A3"], 5)
    rate(["P1", "P2"], 1)  # one of each list to start with
    urls = [
        reverse("leaderboard", args=["tally"]),
        reverse("leaderboards"),
        reverse("season", args=["tally"]),
    ]
    counts = []
    for url in urls:
        with django_assert_max_num_queries(100) as ctx:
            client.get(url)
        counts.append(len(ctx))
    rate([f"B{i}" for i in range(12)], 5)
    rate([f"C{i}" for i in range(12)], 1)  # provisional
    for url, count in zip(urls, counts, strict=True):
        with django_assert_max_num_queries(count):
            assert client.get(url).status_code == 200
