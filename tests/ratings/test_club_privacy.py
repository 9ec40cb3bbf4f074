"""Issue 33's privacy sweep of the ratings' reads, and the boards by club.

A public club and a private one share a player (Sam); Hugo plays in the private club only,
Olga and Otto in the public one. An outsider (anonymous, or signed in without the private
club), a member of the private club and staff ask every ratings read, in the API and on the
pages: a private-only player is a 404 to the outsider; of Sam, the outsider sees what the
public club holds (his one rating, the federation's, may include private matches).
"""

from __future__ import annotations

import datetime as dt

import pytest
from django.test import Client

from ratings.reads import boards, head_to_head, player_history, seasons
from ratings.services import rating_events_process_all
from scorekeeper.clubs.services import club_create, member_set
from scorekeeper.matches.services import club_player_add, hand_record, match_create, player_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db

PUBLIC_MATCHES = {"olga": 5, "otto": 1}  # Sam against each, in the public club
PRIVATE_MATCHES = 3  # Sam against Hugo, in the private club
YEAR = dt.date.today().year


@pytest.fixture
def site(tally, django_user_model, settings):
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 1
    alice = django_user_model.objects.create_user("alice")
    paula = django_user_model.objects.create_user("paula")
    public = club_create(by=alice, name="Open Table", slug="open-table")
    private = club_create(by=paula, name="Back Room", slug="back-room", public=False)
    sam = player_create(name="Shared Sam", by=alice, club=public)
    club_player_add(club=private, player=sam, by=paula)
    olga = player_create(name="Open Olga", by=alice, club=public)
    otto = player_create(name="Open Otto", by=alice, club=public)
    hugo = player_create(name="Hidden Hugo", by=paula, club=private)

    def play(club, by, players, points):
        match = match_create(game="tally", players=players, by=by, club=club, options={"target": 10})
        hand_record(match=match, record=hand(points), by=by)
        return match

    for _ in range(PUBLIC_MATCHES["olga"]):
        play(public, alice, [sam, olga], [10, 3])
    play(public, alice, [otto, sam], [10, 2])
    private_matches = [play(private, paula, [hugo, sam], [10, 1]) for _ in range(PRIVATE_MATCHES)]
    rating_events_process_all()
    member = django_user_model.objects.create_user("mia")
    member_set(club=private, user=member, role="member", by=paula)
    outsider = django_user_model.objects.create_user("olaf")
    staff = django_user_model.objects.create_user("sid", is_staff=True)
    return {
        "public": public, "private": private, "sam": sam, "olga": olga, "otto": otto, "hugo": hugo,
        "member": member, "outsider": outsider, "staff": staff, "private_matches": private_matches,
    }  # fmt: skip


def client_of(user) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def names(rows) -> set[str]:
    return {row["player"]["name"] for row in rows}


# -- the reads -----------------------------------------------------------------------------
def test_the_federation_board_leaves_the_private_only_player_off(site):
    assert boards.private_only_players("tally") == {site["hugo"].pk}
    rows, board = boards.federation_board(game="tally")
    listed = {row.player_id for row in rows}
    assert listed == {site["sam"].pk, site["olga"].pk, site["otto"].pk}
    ranked = boards.leaderboard_page(list(rows.values_list("pk", flat=True)), game="tally", board=board)
    assert [row.rank for row in ranked] == list(range(1, 4)) or len({r.rating for r in ranked}) < 3
    # The whole pool, as staff see it, has him.
    assert {row.player_id for row in boards.leaderboard(game="tally")} == listed | {site["hugo"].pk}
    sam_rating = site["sam"].ratings.get()
    assert boards.leaderboard_rank(rating=sam_rating, board=board) is not None
    hugo_rating = site["hugo"].ratings.get()
    assert boards.leaderboard_rank(rating=hugo_rating, board=board) is None


def test_a_club_board_ranks_its_players_by_their_federation_ratings(site):
    public = list(boards.club_board(site["public"], "tally"))
    by_name = {row.player.name: row for row in public}
    assert set(by_name) == {"Shared Sam", "Open Olga", "Open Otto"}
    assert by_name["Shared Sam"].club_matches == 6 and by_name["Open Olga"].club_matches == 5
    assert by_name["Open Otto"].club_matches == 1
    # His one rating across the site: the private matches count in it.
    sam = site["sam"].ratings.get()
    assert by_name["Shared Sam"].rating.rating == sam.rating and sam.matches == 9
    ratings = [row.rating.rating for row in public]
    assert ratings == sorted(ratings, reverse=True) and public[0].rank == 1
    # This season (this year): everything was played today, from 1500.
    assert by_name["Shared Sam"].season_change == sam.rating - 1500
    private = {row.player.name: row.club_matches for row in boards.club_board(site["private"], "tally")}
    assert private == {"Shared Sam": PRIVATE_MATCHES, "Hidden Hugo": PRIVATE_MATCHES}


def test_a_club_board_splits_established_and_provisional(site):
    board = boards.BoardFilter(min_matches=5)
    established = {row.player.name for row in boards.club_board(site["public"], "tally", board=board)}
    provisional = {
        row.player.name for row in boards.club_board(site["public"], "tally", board=board, provisional=True)
    }
    assert established == {"Shared Sam", "Open Olga"} and provisional == {"Open Otto"}
    assert len(boards.club_board(site["public"], "chess-unknown")) == 0


def test_the_reads_keep_to_the_clubs_given(site):
    from scorekeeper.clubs.selectors import clubs_seen_by

    outside = clubs_seen_by(site["outsider"])
    sam, hugo = site["sam"], site["hugo"]
    assert len(player_history.player_rating_history(player=sam, game="tally", clubs=outside)) == 6
    assert len(player_history.player_rating_history(player=sam, game="tally")) == 9
    assert len(player_history.player_histories(player=sam, clubs=outside)["tally"]) == 6
    [rating] = player_history.player_ratings(player=sam, clubs=outside, federation=True)
    assert rating.matches == 6 and rating.wins == 5
    assert player_history.player_ratings(player=hugo, clubs=outside) == []
    assert {m.player.name for m in head_to_head.opponents(player=sam, clubs=outside)} == {
        "Open Olga",
        "Open Otto",
    }
    assert {m.player.name for m in head_to_head.opponents(player=sam)} == {
        "Open Olga",
        "Open Otto",
        "Hidden Hugo",
    }
    assert {r.player.name for r in head_to_head.rivals(player=sam, clubs=outside)} == {
        "Open Olga",
        "Open Otto",
    }
    assert head_to_head.pair(player=sam, opponent=hugo, clubs=outside).meetings == []
    assert len(head_to_head.pair(player=sam, opponent=hugo).meetings) == PRIVATE_MATCHES
    start, end = dt.datetime(2000, 1, 1, tzinfo=dt.UTC), dt.datetime(2100, 1, 1, tzinfo=dt.UTC)
    season = {
        row.player_name: row.matches
        for row in seasons.season_board(game="tally", start=start, end=end, clubs=outside)
    }
    assert season == {"Shared Sam": 6, "Open Olga": 5, "Open Otto": 1}


# -- the API ---------------------------------------------------------------------------------
VIEWERS = ["anonymous", "outsider", "member", "staff"]


def viewer(site, who):
    return client_of(None if who == "anonymous" else site[who])


@pytest.mark.parametrize("who", VIEWERS)
def test_the_api_answers_each_viewer_what_he_sees(site, who):
    api = viewer(site, who)
    sees_private = who in ("member", "staff")
    sam, hugo = site["sam"].pk, site["hugo"].pk

    board = api.get("/api/v1/leaderboards/tally").json()["results"]
    # The site's board is the federation's for anyone but staff.
    assert ("Hidden Hugo" in names(board)) is (who == "staff")
    assert {"Shared Sam", "Open Olga", "Open Otto"} <= names(board)

    club = api.get("/api/v1/clubs/back-room/leaderboards/tally")
    if sees_private:
        assert club.status_code == 200
        rows = club.json()["results"]
        assert names(rows) == {"Shared Sam", "Hidden Hugo"}
        assert {row["club_matches"] for row in rows} == {PRIVATE_MATCHES}
        assert all("season_change" in row for row in rows)
    else:
        assert club.status_code == 404 and club.json()["code"] == "club_not_found"
    public = api.get("/api/v1/clubs/open-table/leaderboards/tally").json()["results"]
    assert names(public) == {"Shared Sam", "Open Olga", "Open Otto"}

    hidden = api.get(f"/api/v1/players/{hugo}/ratings")
    assert hidden.status_code == (200 if sees_private else 404)
    for url in (
        f"/api/v1/players/{hugo}/ratings/tally/history",
        f"/api/v1/players/{hugo}/opponents",
        f"/api/v1/players/{sam}/vs/{hugo}",
        f"/api/v1/players/{sam}/vs/{hugo}/matches",
        f"/api/v1/players/{hugo}/vs/{sam}",
    ):
        assert api.get(url).status_code == (200 if sees_private else 404), url

    [entry] = api.get(f"/api/v1/players/{sam}/ratings").json()["ratings"]
    assert entry["matches"] == (9 if sees_private else 6)
    # A player of the public club only: all his matches are seen, read without the clubs' join.
    [olga] = api.get(f"/api/v1/players/{site['olga'].pk}/ratings").json()["ratings"]
    assert olga["matches"] == PUBLIC_MATCHES["olga"] and olga["rank"] is not None
    history = api.get(f"/api/v1/players/{sam}/ratings/tally/history").json()
    assert history["count"] == (9 if sees_private else 6)
    opponents = api.get(f"/api/v1/players/{sam}/opponents").json()["results"]
    assert ("Hidden Hugo" in {o["player"]["name"] for o in opponents}) is sees_private
    season = api.get(f"/api/v1/leaderboards/tally/season?from={YEAR}-01-01&to={YEAR}-12-31").json()["results"]
    assert ("Hidden Hugo" in names(season)) is sees_private
    [sam_season] = [row for row in season if row["player"]["name"] == "Shared Sam"]
    assert sam_season["matches"] == (9 if sees_private else 6)

    predicted = api.post(
        "/api/v1/predict", {"game": "tally", "players": [sam, hugo]}, content_type="application/json"
    )
    if sees_private:
        assert predicted.status_code == 200
    else:
        assert predicted.status_code == 400 and predicted.json()["code"] == "player_unknown"
    assert (
        api.post(
            "/api/v1/predict",
            {"game": "tally", "players": [sam, site["olga"].pk]},
            content_type="application/json",
        ).status_code
        == 200
    )


# -- the pages ---------------------------------------------------------------------------------
@pytest.mark.parametrize("who", VIEWERS)
def test_the_pages_show_each_viewer_what_he_sees(site, who):
    web = viewer(site, who)
    sees_private = who in ("member", "staff")
    sam, hugo = site["sam"].pk, site["hugo"].pk

    for url in ("/leaderboards/", "/leaderboards/tally/"):
        page = web.get(url)
        assert page.status_code == 200
        assert ("Hidden Hugo" in page.content.decode()) is (who == "staff"), url
    season = web.get(f"/leaderboards/tally/season/?from={YEAR}-01-01&to={YEAR}-12-31").content.decode()
    assert ("Hidden Hugo" in season) is sees_private

    for url in (f"/players/{hugo}/", f"/players/{sam}/vs/{hugo}/", f"/players/{hugo}/vs/{sam}/",
                "/clubs/back-room/board/tally/"):  # fmt: skip
        assert web.get(url).status_code == (200 if sees_private else 404), url

    profile = web.get(f"/players/{sam}/").content.decode()
    assert ("Hidden Hugo" in profile) is sees_private  # his rivals, his matches
    assert "Open Olga" in profile

    club = web.get("/clubs/open-table/board/tally/")
    assert club.status_code == 200
    text = club.content.decode()
    assert "Shared Sam" in text and "Open Olga" in text and "Hidden Hugo" not in text
    assert "Matches in the club" in text
    if sees_private:
        assert "Hidden Hugo" in web.get("/clubs/back-room/board/tally/").content.decode()
    assert web.get("/clubs/open-table/board/no-such-game/").status_code == 404
