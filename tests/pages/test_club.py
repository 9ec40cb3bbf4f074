"""The club's pages (issue 13): the match list and its filters, the leaderboards, a player's
profile with his rating chart, the score sheet's dealer, exports and print sheet, the new
match's chances, the site's icons; and that no page's queries grow with what it lists."""

from __future__ import annotations

import itertools
import json
import re
from datetime import timedelta
from pathlib import Path

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from ratings import services as ratings
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import hand_record, match_create, match_reopen, match_void
from tests.fakes import hand

STATIC = Path(__file__).resolve().parents[2] / "static" / "scorekeeper"

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(tally, make_players):
    return make_players("Ada", "Bea", "Cid")


def queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


# -- a match's display title ----------------------------------------------------------------
def test_an_untitled_match_is_shown_by_its_players_and_day_and_keeps_its_empty_title(play):
    match = play([0, 1])

    shown = Match.objects.prefetch_related("seats__player").get(pk=match.pk).display_title

    assert shown.startswith("Ada, Bea · ")
    assert str(timezone.localtime(match.created_at).year) in shown
    assert Match.objects.get(pk=match.pk).title == ""


def test_a_titled_match_keeps_its_title(play):
    assert play([0, 1], title="Friday at Luc's").display_title == "Friday at Luc's"


# -- the match list ---------------------------------------------------------------------------
def test_the_match_list_shows_players_scores_and_day_so_two_matches_of_one_title_differ(client, play):
    play([0, 1], [6, 3], title="Friday")
    play([1, 2], [2, 10], title="Friday")

    body = client.get(reverse("match-list")).content.decode()

    assert body.count(">Friday</a>") == 2
    assert "Ada <b>6</b>" in body and "Bea <b>3</b>" in body  # in progress: the running totals
    assert '<span class="seat won"><span class="visually-hidden">winner: </span>Cid <b>10</b>' in body
    assert "1 hand" in body


def test_the_home_page_lists_shows_players_and_scores_too(client, play):
    play([0, 1], [6, 3])
    body = client.get(reverse("home")).content.decode()
    assert "Ada <b>6</b>" in body and reverse("match-list") in body


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("game=tally", {"first", "second", "void"}),
        ("status=finished", {"second"}),
        ("status=void", {"void"}),
        ("status=in_progress", {"first"}),
        ("player={cid}", {"second", "void"}),
        ("player={cid}&status=in_progress", set()),
        ("date_from={today}&date_to={today}", {"first", "second", "void"}),
        ("date_to={yesterday}", set()),
        ("date_from={tomorrow}", set()),
    ],
)
def test_the_match_list_filters(client, play, user, players, query, expected):
    play([0, 1], [6, 3], title="first")
    play([1, 2], [2, 10], title="second")
    match_void(match=play([0, 2], title="void"), by=user, reason="wrong pack")
    today = timezone.now().date()
    url = (
        reverse("match-list")
        + "?"
        + query.format(
            cid=players[2].pk,
            today=today,
            yesterday=today - timedelta(days=1),
            tomorrow=today + timedelta(days=1),
        )
    )

    response = client.get(url)

    assert response.status_code == 200
    assert {m.title for m in response.context["matches"]} == expected
    assert not response.context["form"].errors
    if not expected:
        assert "No match fits these filters." in response.content.decode()


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("game=nonsense", "There is no game nonsense."),
        ("status=lost", "Select a valid choice."),
        ("player=abc", "There is no such player."),
        ("player=99999", "There is no such player."),
        ("player=-1", "There is no such player."),
        ("date_from=2026-13-01", "Enter a valid date."),
        ("date_to=yesterday", "Enter a valid date."),
        ("date_from=2026-05-02&date_to=2026-05-01", "The last day comes before the first."),
        ("date_from=99999-01-01", "Enter a valid date."),
        ("page=abc", None),
        ("page=-3", None),
        ("page=99999999999999999999", None),
        ("game=%00&player=%FF%FE", None),
        ("game=tally&game=other", None),
    ],
)
def test_bad_filter_values_are_told_and_the_other_filters_still_apply(client, play, query, message):
    play([0, 1], [6, 3], title="first")

    response = client.get(reverse("match-list") + "?" + query)

    assert response.status_code == 200
    body = response.content.decode()
    if message:
        assert "Some filters were not applied:" in body and message in body
    assert [m.title for m in response.context["matches"]] in (["first"], [])


def test_a_bad_filter_does_not_drop_the_good_ones(client, play):
    play([0, 1], [6, 3], title="open")
    play([0, 1], [10, 3], title="over")

    response = client.get(reverse("match-list") + "?status=finished&player=abc")

    assert [m.title for m in response.context["matches"]] == ["over"]


def test_the_match_list_is_paged_and_the_pages_keep_the_filters(client, play, monkeypatch):
    from scorekeeper.matches.views import club

    monkeypatch.setattr(club, "MATCHES_PER_PAGE", 2)
    for i in range(5):
        play([0, 1], title=f"m{i}")

    first = client.get(reverse("match-list") + "?game=tally")
    last = client.get(reverse("match-list") + "?game=tally&page=3")

    assert [m.title for m in first.context["matches"]] == ["m4", "m3"]
    assert "?game=tally&amp;page=2" in first.content.decode()
    assert [m.title for m in last.context["matches"]] == ["m0"]
    assert "page 3 of 3" in last.content.decode()


def test_the_match_list_and_home_take_as_many_queries_for_30_matches_as_for_3(
    client, play, django_assert_max_num_queries
):
    for _ in range(3):
        play([0, 1, 2], [6, 3, 1], [10, 0, 0])
    few = {name: queries(client, reverse(name)) for name in ("match-list", "home")}
    for _ in range(27):
        play([0, 1, 2], [6, 3, 1], [10, 0, 0])

    for name, count in few.items():
        with django_assert_max_num_queries(count):
            response = client.get(reverse(name))
        assert len(response.context["matches"]) >= 20


# -- leaderboards ---------------------------------------------------------------------------
@pytest.fixture
def rated(play, settings):
    """Three finished tally matches, rated: Ada won twice, Cid once; the boards list players
    from their first rated match on (tests/ratings/test_boards.py tests the default of 5)."""
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 1
    play([0, 1], [10, 3])
    play([0, 2], [10, 9])
    play([1, 2], [2, 10])
    ratings.rating_events_process_all()


def test_the_leaderboards_page_shows_every_rated_game_and_links_players(client, rated, players):
    response = client.get(reverse("leaderboards"))

    body = response.content.decode()
    assert response.status_code == 200
    assert reverse("leaderboard", args=["tally"]) in body
    assert reverse("player-detail", args=[players[0].pk]) in body
    assert "3 rated matches" in body
    assert "Piquet (Rubicon, six-deal partie)" in body  # among the games not rated yet


def test_a_game_leaderboard_lists_rank_rating_matches_wins_last_played(client, rated, players):
    response = client.get(reverse("leaderboard", args=["tally"]))

    rows = list(response.context["page"].object_list)
    assert [row.player.name for row in rows] == ["Ada", "Cid", "Bea"]
    assert [row.rank for row in rows] == [1, 2, 3]
    assert [(row.matches, row.wins) for row in rows] == [(2, 2), (2, 1), (2, 0)]
    assert not any(row.provisional for row in rows)
    body = response.content.decode()
    assert f'{rows[0].shown.rating} <span class="muted deviation">± {rows[0].shown.deviation}</span>' in body
    assert "A rating starts at 1500; 400 points" in body
    assert reverse("player-detail", args=[players[0].pk]) in body


def test_a_game_without_ratings_has_an_empty_leaderboard_and_an_unknown_game_is_a_404(client, rated):
    assert "No player is listed yet" in client.get(reverse("leaderboard", args=["cul"])).content.decode()
    assert client.get(reverse("leaderboard", args=["nonsense"])).status_code == 404
    assert client.get(reverse("leaderboard", args=["tally"]) + "?page=x").status_code == 200


def test_the_leaderboard_takes_as_many_queries_for_many_players(client, tally, make_players, user, settings):
    settings.RATINGS_LEADERBOARD_MIN_MATCHES = 2  # the inner players are listed, the ends provisional

    def rate(names):
        people = make_players(*names)
        for a, b in itertools.pairwise(people):
            m = match_create(game="tally", players=[a, b], by=user)
            hand_record(match=m, record=hand([10, 3]), by=user)
        ratings.rating_events_process_all()

    rate(["A1", "A2", "A3"])
    few = queries(client, reverse("leaderboard", args=["tally"])), queries(client, reverse("leaderboards"))
    rate([f"B{i}" for i in range(30)])

    assert queries(client, reverse("leaderboard", args=["tally"])) <= few[0]
    assert queries(client, reverse("leaderboards")) <= few[1]


# -- a player's profile ---------------------------------------------------------------------
def test_the_profile_shows_rating_place_counts_places_and_an_accessible_chart(client, rated, players):
    response = client.get(players[0].get_absolute_url())

    body = response.content.decode()
    (entry,) = response.context["games"]
    assert entry["game"] == "tally" and entry["rating"].rank == 1
    assert (entry["rating"].matches, entry["rating"].wins) == (2, 2)
    assert entry["places"] == [(1, 2)]
    assert "place 1 2 times" in body
    assert '<svg class="chart"' in body and 'role="img"' in body
    assert '<title id="chart-tally-title">' in body and ": rating after each match</title>" in body
    assert "2 rated matches from " in body
    assert body.count("<circle") == 3  # before the first match, then after each


def test_the_profile_lists_the_matches_with_place_and_rating_change(client, rated, players):
    response = client.get(players[1].get_absolute_url())

    rows = response.context["rows"]
    assert [row["place"] for row in rows] == [2, 2]  # lost to Ada, then to Cid
    assert all(row["change"] for row in rows)
    first = rows[-1]["change"]  # the list is newest first
    assert first.before == 1500  # his first match, from the prior
    body = response.content.decode()
    assert f"rating 1500 → {first.after}" in body
    assert re.search(rf"to win, lost \d+–\d+: −{first.before - first.after}\b", body)


def test_the_score_sheet_shows_each_players_rating_change_once_the_match_is_rated(client, play, players):
    match = play([0, 1], [10, 3])
    assert client.get(match.get_absolute_url()).context["rating_changes"] == []  # not rated yet

    ratings.rating_events_process_all()
    response = client.get(match.get_absolute_url())

    changes = response.context["rating_changes"]
    assert [change["player"] for change in changes] == [players[0], players[1]]  # seat order
    winner, loser = changes
    assert winner["delta"] > 0 > loser["delta"] and winner["place"] == 1 and loser["place"] == 2
    page = response.content.decode()
    assert "Rating change" in page and f"won 10–3: +{winner['delta']}" in page
    assert winner["delta"] == winner["after"] - winner["before"]
    assert players[1].get_absolute_url() in page


def test_a_match_voided_and_reopened_shows_its_rating_change_at_its_first_finish(client, play, user):
    """The sheet finds a match's history rows by its place in the pool's order, the time it
    first finished: later events (void, reopen) leave that place as it was."""
    match = play([0, 1], [10, 3])
    ratings.rating_events_process_all()
    before = [change["delta"] for change in client.get(match.get_absolute_url()).context["rating_changes"]]
    match_void(match=match, by=user, reason="recorded by mistake")
    ratings.rating_events_process_all()
    match_reopen(match=match, by=user, reason="it was played after all")
    ratings.rating_events_process_all()
    after = [change["delta"] for change in client.get(match.get_absolute_url()).context["rating_changes"]]
    assert after == before and len(after) == 2


def test_a_void_match_shows_no_rating_change(client, play, user):
    match = play([0, 1], [10, 3])
    ratings.rating_events_process_all()
    match_void(match=match, by=user, reason="recorded by mistake")
    ratings.rating_events_process_all()
    assert client.get(match.get_absolute_url()).context["rating_changes"] == []


def test_the_profile_shows_the_overall_cul_rating(client, user, make_players):
    from tests.rules.conformance import load_cases

    case = next(c for c in load_cases("cul") if c["id"] == "A1")  # seat 0 drops his 3 banks
    people = make_players("P0", "P1")
    match = match_create(game="cul", players=people, by=user)
    for record in case["hands"]:
        hand_record(match=match, record=record, by=user)
    ratings.rating_events_process_all()

    body = client.get(people[0].get_absolute_url()).content.decode()

    assert "Overall cul rating" in body
    assert "over 1 finished match" in body


def test_a_player_without_ratings_has_a_plain_profile(client, players):
    body = client.get(players[0].get_absolute_url()).content.decode()
    assert "No rated match yet" in body and "No matches yet." in body
    assert f"/matches/?player={players[0].pk}" in body


@pytest.mark.parametrize("page", ["abc", "-1", "0", "99999999999999999999", "%00"])
def test_a_bad_page_number_on_the_profile_or_a_leaderboard_shows_a_page(client, rated, players, page):
    for url in (players[0].get_absolute_url(), reverse("leaderboard", args=["tally"])):
        assert client.get(f"{url}?page={page}").status_code == 200


def test_an_unknown_player_is_a_404(client, db):
    assert client.get(reverse("player-detail", args=[99999])).status_code == 404


def test_the_profile_takes_as_many_queries_for_30_matches_as_for_5(
    client, play, players, django_assert_max_num_queries
):
    for _ in range(5):  # listed on the board from the start, as after 30
        play([0, 1], [10, 3])
    ratings.rating_events_process_all()
    few = queries(client, players[0].get_absolute_url())
    for _ in range(25):
        play([0, 1], [10, 3])
    ratings.rating_events_process_all()

    with django_assert_max_num_queries(few):
        response = client.get(players[0].get_absolute_url())
    assert len(response.context["rows"]) == 25 and response.content.decode().count("<circle") == 31


# -- the score sheet --------------------------------------------------------------------------
def test_the_sheet_names_the_dealer_of_each_hand_and_links_the_exports(client, play):
    match = play([0, 1], [3, 1], [2, 2], target=100)

    body = client.get(match.get_absolute_url()).content.decode()

    assert [h["dealer_name"] for h in client.get(match.get_absolute_url()).context["sheet"]["hands"]] == [
        "Ada",
        "Bea",
    ]
    assert '<span class="dealer" title="dealer">Bea</span>' in body
    assert f'href="/api/v1/matches/{match.pk}/export.json"' in body
    assert f'href="/api/v1/matches/{match.pk}/export.csv"' in body


def test_the_csv_export_linked_from_the_sheet_is_a_score_sheet(client, play):
    match = play([0, 1], [3, 1], target=100)
    response = client.get(f"/api/v1/matches/{match.pk}/export.csv")
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    assert "Ada" in response.content.decode()


def test_every_page_links_the_print_stylesheet_icons_and_manifest(client, db):
    body = client.get(reverse("home")).content.decode()

    for name in ("club.css", "favicon.svg", "favicon-32.png", "apple-touch-icon.png", "manifest.json"):
        assert f"/static/scorekeeper/{name}" in body
        assert (STATIC / name).is_file()
    css = (STATIC / "club.css").read_text()
    assert "@media print" in css and "size: A4" in css
    manifest = json.loads((STATIC / "manifest.json").read_text())
    assert manifest["start_url"] == "/" and manifest["display"] == "standalone"
    for icon in manifest["icons"]:
        assert (STATIC / icon["src"]).is_file()


def test_the_sheet_takes_as_many_queries_for_30_hands_as_for_3(client, play, django_assert_max_num_queries):
    short = play([0, 1, 2], *[[1, 0, 0]] * 3, target=1000)
    long = play([0, 1, 2], *[[1, 0, 0]] * 30, target=1000)
    few = queries(client, short.get_absolute_url())

    with django_assert_max_num_queries(few):
        response = client.get(long.get_absolute_url())
    assert len(response.context["sheet"]["hands"]) == 30


# -- a new match: the chances -----------------------------------------------------------------
def test_the_new_match_page_shows_the_chances_once_the_players_are_chosen(client, rated, user, players):
    client.force_login(user)

    response = client.post(
        reverse("match-new-game", args=["tally"]),
        {"preset": "classic", "seat_0": players[0].pk, "seat_1": players[1].pk, "new_2": "Newcomer",
         "chances": "1"},
    )  # fmt: skip

    assert response.status_code == 200
    sides = response.context["prediction"]["sides"]
    assert [side["names"] for side in sides] == [["Ada"], ["Bea"], ["Newcomer"]]
    assert sides[0]["win"] > sides[2]["win"] > sides[1]["win"]  # Ada won twice, Bea lost twice
    assert sum(side["win"] for side in sides) == pytest.approx(1)
    for place in range(3):  # each side's chance of each place: every place is someone's
        assert sum(side["places"][place] for side in sides) == pytest.approx(1)
    assert all(sum(side["places"]) == pytest.approx(1) for side in sides)
    assert "Chances at this table" in response.content.decode() and "Place 3" in response.content.decode()
    assert not Match.objects.filter(seats__player__name="Newcomer").exists()  # nothing created


def test_the_pages_script_gets_the_chances_slot_alone_the_same_as_on_the_page(client, rated, user, players):
    client.force_login(user)
    url = reverse("match-new-game", args=["tally"])
    table = {"preset": "classic", "seat_0": players[0].pk, "seat_1": players[1].pk, "chances": "1"}
    matches = Match.objects.count()

    page = client.post(url, table).content.decode()
    alone = client.post(url, {**table, "fragment": "chances"})

    body = alone.content.decode()
    assert alone.status_code == 200 and alone["Content-Type"].startswith("text/html")
    assert body.startswith('<div id="prediction-slot"') and "<html" not in body and "<form" not in body
    assert "Chances at this table" in body and "Ada" in body and "Bea" in body
    assert body.strip() in page  # the slot the page itself shows, byte for byte
    assert Match.objects.count() == matches  # nothing created


def test_the_chances_slot_alone_of_a_bad_table_is_an_empty_slot_and_a_400(client, user, players):
    client.force_login(user)
    response = client.post(
        reverse("match-new-game", args=["tally"]),
        {"preset": "classic", "seat_0": players[0].pk, "chances": "1", "fragment": "chances"},
    )
    assert response.status_code == 400
    assert response.content.decode().strip() == '<div id="prediction-slot" aria-live="polite"></div>'


def test_a_fragment_asked_without_the_chances_still_starts_the_match(client, user, players):
    client.force_login(user)
    response = client.post(
        reverse("match-new-game", args=["tally"]),
        {"preset": "classic", "seat_0": players[0].pk, "seat_1": players[1].pk, "fragment": "chances"},
    )
    assert response.status_code == 302 and Match.objects.count() == 1


def test_the_chances_of_piquet_voleur_are_per_team(client, user, make_players):
    client.force_login(user)
    people = make_players("A", "B", "C", "D")

    response = client.post(
        reverse("match-new-game", args=["piquet-voleur"]),
        {"preset": "classic", **{f"seat_{i}": p.pk for i, p in enumerate(people)}, "chances": "1"},
    )

    sides = response.context["prediction"]["sides"]
    assert [side["names"] for side in sides] == [["A", "C"], ["B", "D"]]
    # Two sides: win, draw and loss add up; equal teams are as likely to win as to lose.
    draw = response.context["prediction"]["draw"]
    assert sides[0]["win"] == pytest.approx(sides[0]["loss"]) == pytest.approx((1 - draw) / 2)
    assert sides[0]["win"] + draw + sides[0]["loss"] == pytest.approx(1)
    body = response.content.decode()
    assert ">Win</th>" in body and ">Loss</th>" in body


def test_the_new_match_page_has_a_plain_title_and_its_script_once(client, user, tally):
    client.force_login(user)
    body = client.get(reverse("match-new-game", args=["tally"])).content.decode()
    title = body[body.index("<title>") : body.index("</title>")]
    assert title.startswith("<title>New ") and title.endswith(" match · Scorekeeper") and "<" not in title[7:]
    assert body.count("/static/matches/match_form.js") == 1 and body.count('id="prediction-slot"') == 1


def test_starting_the_match_still_creates_it(client, user, players):
    client.force_login(user)
    response = client.post(
        reverse("match-new-game", args=["tally"]),
        {"preset": "classic", "seat_0": players[0].pk, "seat_1": players[1].pk},
    )
    assert response.status_code == 302 and Match.objects.count() == 1


def test_the_chances_with_a_bad_table_show_the_form_errors(client, user, players):
    client.force_login(user)
    response = client.post(
        reverse("match-new-game", args=["tally"]),
        {"preset": "classic", "seat_0": players[0].pk, "chances": "1"},
    )
    assert response.status_code == 400 and response.context["prediction"] is None


# -- hand forms ---------------------------------------------------------------------------------
def test_cul_pre_fills_each_players_banks(client, user, make_players):
    client.force_login(user)
    match = match_create(game="cul", players=make_players("A", "B", "C"), by=user)

    form = client.get(reverse("hand-new", args=[match.pk])).context["form"]

    assert [form[f"declared_banks_{i}"].value() for i in range(3)] == ["3", "3", "3"]


def test_the_hand_form_gives_a_script_stable_hooks_per_seat(client, user, make_players):
    client.force_login(user)
    match = match_create(game="bastard", players=make_players("A", "B", "C"), by=user)

    body = client.get(reverse("hand-new", args=[match.pk])).content.decode()

    assert 'data-key="declared" data-seat="1" data-declared' in body
    assert 'id="live-declared_1" data-live-for="declared_1"' in body
    assert 'id="id_declared_1"' in body
