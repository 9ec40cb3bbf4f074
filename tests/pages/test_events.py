"""The event pages (issue 34): every page for a member, the 404 page for outsiders of a private
club, the director's actions through POST with their refusals shown, the live endpoint's ETag
and 304, the report with its rating changes and its CSV."""

from __future__ import annotations

import csv
import io

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Role
from scorekeeper.events import selectors, services
from scorekeeper.events.models import Event, EventTable
from scorekeeper.matches.services import hand_record, player_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db

NAMES = ["Ada", "Bea", "Cid", "Dan", "Eve", "Fay"]


@pytest.fixture
def people(django_user_model):
    return {
        name: django_user_model.objects.create_user(name, password="a long pass phrase")
        for name in ("dora", "member", "outsider")
    }


@pytest.fixture
def club(people):
    club = clubs.club_create(by=people["dora"], name="Cercle", slug="cercle", public=False)
    clubs.member_set(club=club, user=people["member"], role=Role.MEMBER, by=people["dora"])
    return club


@pytest.fixture
def roster(tally, club, people):
    return [player_create(name=name, club=club, by=people["dora"]) for name in NAMES]


@pytest.fixture
def make_event(club, people, roster):
    def make(count: int = 4, **fields):
        fields.setdefault("name", "Tuesday night")
        fields.setdefault("game", "tally")
        fields.setdefault("format", "swiss")
        fields.setdefault("rounds", 3)
        event = services.event_create(club=club, by=people["dora"], **fields)
        for player in roster[:count]:
            services.entrant_add(event=event, player=player, by=people["dora"])
        return event

    return make


def client_of(people, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    return client


@pytest.fixture
def director(people):
    return client_of(people, "dora")


def url(name: str, event: Event, *args) -> str:
    return reverse(name, args=[event.club.slug, event.pk, *args])


def play(round_, by, winner_seat: int = 0) -> None:
    """Every table of the round still playing: the seat ``winner_seat`` reaches 10 first."""
    for table in selectors.round_tables(round_):
        if table.match is not None and table.match.status == "in_progress":
            seats = table.match.seat_count
            points = [10 if i == winner_seat else i for i in range(seats)]
            hand_record(match=table.match, record=hand(points), by=by)


def seated(round_) -> list[list[int]]:
    return list(selectors.seats_of(selectors.round_tables(round_)).values())


def page_urls(event: Event) -> list[str]:
    return [
        reverse("event-list", args=[event.club.slug]),
        url("event-detail", event),
        url("event-live", event),
        url("event-projector", event),
        url("event-report", event),
        url("event-report-csv", event),
    ]


# -- seeing the pages -----------------------------------------------------------------------------
def test_every_page_renders_for_a_member(make_event, people):
    event = make_event(4)
    services.round_pair(event=event, by=people["dora"])
    member = client_of(people, "member")
    for address in page_urls(event):
        response = member.get(address)
        assert response.status_code == 200, address
    body = member.get(url("event-detail", event)).content.decode()
    assert "Tuesday night" in body and "Round 1" in body and "Standings" in body
    assert "Pair the next round" not in body  # a member runs nothing
    assert (
        reverse("event-list", args=["cercle"])
        in member.get(reverse("club-home", args=["cercle"])).content.decode()
    )


@pytest.mark.parametrize("who", ["anonymous", "outsider"])
def test_a_private_clubs_events_are_the_404_page_to_outsiders(make_event, people, who):
    event = make_event(4)
    client = client_of(people, who)
    for address in page_urls(event):
        assert client.get(address).status_code == 404, address
    assert client.post(url("event-pair", event)).status_code == 404
    assert not event.round_set.exists()


def test_an_event_of_another_club_is_not_found(make_event, people, django_user_model):
    event = make_event(2)
    other = clubs.club_create(by=people["member"], name="Other", slug="other")
    member = client_of(people, "member")
    assert member.get(reverse("event-detail", args=[other.slug, event.pk])).status_code == 404


# -- the director's actions --------------------------------------------------------------------------
def test_the_director_makes_an_event_from_the_form(director, club, tally):
    response = director.post(
        reverse("event-list", args=[club.slug]),
        {
            "name": "Spring Swiss",
            "game": "tally",
            "format": "table_swiss",
            "rounds": "4",
            "table_size": "4",
            "points": "3 2 1 0,5",
            "bye_points": "2",
            "seating": "rotate",
            "tiebreak_1": "median_buchholz",
            "tiebreak_2": "wins",
            "tiebreak_3": "",
            "tiebreak_4": "lots",
        },
    )
    event = Event.objects.get(name="Spring Swiss")
    assert response.status_code == 302 and response["Location"] == event.get_absolute_url()
    assert (event.format, event.rounds, event.table_size, event.seating) == ("table_swiss", 4, 4, "rotate")
    assert event.points == ["3", "2", "1", "0.5"] and event.bye_points == "2"
    assert event.tiebreaks == ["points", "median_buchholz", "wins", "lots"]
    body = director.get(event.get_absolute_url()).content.decode()
    assert "Median Buchholz" in body and "Pair the next round" in body


def test_a_refused_event_shows_the_services_message(director, club, tally):
    response = director.post(
        reverse("event-list", args=[club.slug]),
        {"name": "No rounds", "game": "tally", "format": "swiss", "bye_points": "1", "seating": "draw"},
    )
    assert response.status_code == 400
    message = response.context["form"].errors["rounds"][0]  # the service's, next to its field
    assert "rounds" in message and message in response.content.decode()
    assert not Event.objects.filter(name="No rounds").exists()


def test_a_member_may_not_make_an_event_and_is_told_why(people, club, tally):
    member = client_of(people, "member")
    assert "New event" not in member.get(reverse("event-list", args=[club.slug])).content.decode()
    response = member.post(
        reverse("event-list", args=[club.slug]),
        {
            "name": "Mine",
            "game": "tally",
            "format": "swiss",
            "rounds": "3",
            "bye_points": "1",
            "seating": "draw",
        },
    )
    assert response.status_code == 403
    assert "director" in response.content.decode()
    assert not Event.objects.exists()


def test_a_visitor_not_signed_in_is_sent_to_sign_in(club, tally, make_event):
    event = make_event(2)
    club.public = True
    club.save()
    anonymous = Client()
    for address in (
        reverse("event-list", args=[club.slug]),
        url("event-pair", event),
        url("event-finish", event),
    ):
        response = anonymous.post(address, {})
        assert response.status_code == 302 and reverse("login") in response["Location"], address
    assert anonymous.get(url("event-detail", event)).status_code == 200  # a public club's event


def test_entering_and_withdrawing_players(director, make_event, roster, people):
    event = make_event(0)
    response = director.post(url("event-entrant-add", event), {"player": roster[0].pk}, follow=True)
    assert "Ada is entered." in response.content.decode()
    assert selectors.active_players(event) == [roster[0].pk]
    response = director.post(url("event-entrant-add", event), {"player": roster[0].pk}, follow=True)
    assert "Choose a player of the club." in response.content.decode()  # entered already: not offered
    response = director.post(url("event-entrant-withdraw", event, roster[0].pk), follow=True)
    assert "Ada is withdrawn." in response.content.decode()
    assert selectors.active_players(event) == []
    response = director.post(url("event-entrant-withdraw", event, roster[0].pk), follow=True)
    assert response.status_code == 200
    assert "the player is not entered" in response.content.decode()


def test_a_member_posting_an_action_is_refused_with_a_403(people, make_event):
    event = make_event(4)
    member = client_of(people, "member")
    response = member.post(url("event-pair", event))
    assert response.status_code == 403
    assert "takes the director&#x27;s role" in response.content.decode()
    assert not event.round_set.exists()


def test_pairing_playing_and_finishing_a_round(director, make_event, people):
    event = make_event(4)
    response = director.post(url("event-pair", event), follow=True)
    body = response.content.decode()
    assert "Round 1 is paired." in body
    round_ = event.round_set.get()
    assert len(seated(round_)) == 2
    assert "table 1, seat 1" in body and "table 2, seat 2" in body  # each player told his seat
    for table in selectors.round_tables(round_):
        assert table.match.get_absolute_url() in body
    # A second round before the first is played: refused, on the page.
    body = director.post(url("event-pair", event), follow=True).content.decode()
    assert "the round before is still being played" in body
    body = director.post(url("event-finish", event), follow=True).content.decode()
    assert "a round is still being played" in body
    play(round_, people["dora"])
    body = director.get(url("event-detail", event)).content.decode()
    assert "finished" in body
    body = director.post(url("event-finish", event), follow=True).content.decode()
    assert "The event is finished" in body
    event.refresh_from_db()
    assert event.finished_at is not None
    body = director.post(url("event-pair", event), follow=True).content.decode()
    assert "the event is finished" in body


def test_a_swap_before_the_round_starts_shows_its_warnings(director, make_event, people):
    event = make_event(4)
    first = services.round_pair(event=event, by=people["dora"])
    (a, b), (c, d) = seated(first)
    play(first, people["dora"])
    second = services.round_pair(event=event, by=people["dora"])
    tables = seated(second)
    # Put a's round-1 opponent b back with him: the swap repeats a meeting.
    partner = next(p for t in tables if a in t for p in t if p != a)
    if partner == b:
        pytest.skip("the pairing repeated a meeting by itself")
    response = director.post(
        url("event-swap", event, second.number), {"first": partner, "second": b}, follow=True
    )
    body = response.content.decode()
    assert "The two players are swapped." in body
    assert "two players meet again" in body
    assert sorted(map(sorted, seated(second))) == sorted([sorted([a, b]), sorted([c, d])])
    # Same table: refused with the service's words.
    x, y = seated(second)[0]
    body = director.post(url("event-swap", event, second.number), {"first": x, "second": y}, follow=True)
    assert "the two players sit at the same table" in body.content.decode()


def test_a_table_is_forfeited_with_places_and_a_reason(director, make_event):
    event = make_event(4)
    director.post(url("event-pair", event))
    table = selectors.round_tables(event.round_set.get())[0]
    prefix = f"f{table.pk}"
    # No reason: the form says what it needs.
    body = director.post(
        url("event-forfeit", event, table.pk),
        {f"{prefix}-place_0": "2", f"{prefix}-place_1": "1"},
        follow=True,
    ).content.decode()
    assert "and the reason" in body
    response = director.post(
        url("event-forfeit", event, table.pk),
        {f"{prefix}-place_0": "2", f"{prefix}-place_1": "1", f"{prefix}-reason": "Ada left ill"},
        follow=True,
    )
    assert "Table 1 has its result." in response.content.decode()
    table = EventTable.objects.get(pk=table.pk)
    assert table.forfeit == [2, 1] and table.forfeit_reason == "Ada left ill"
    assert table.match.status == "void"
    body = director.get(url("event-detail", event)).content.decode()
    assert "Forfeit: Ada left ill" in body
    # Again: the table has its result.
    body = director.post(
        url("event-forfeit", event, table.pk),
        {f"{prefix}-place_0": "1", f"{prefix}-place_1": "2", f"{prefix}-reason": "again"},
        follow=True,
    ).content.decode()
    assert "the table has its result" in body


def test_a_club_night_takes_the_directors_tables(director, make_event, roster):
    event = make_event(6, format="open", rounds=None, table_size=2)
    body = director.get(url("event-detail", event)).content.decode()
    assert "Start these tables" in body
    response = director.post(
        url("event-pair", event),
        {"t1s1": roster[0].pk, "t1s2": roster[1].pk, "t2s1": roster[2].pk, "t2s2": roster[3].pk, "t2s3": ""},
        follow=True,
    )
    assert "Round 1 is paired." in response.content.decode()
    assert sorted(map(sorted, seated(event.round_set.get()))) == [
        sorted([roster[0].pk, roster[1].pk]),
        sorted([roster[2].pk, roster[3].pk]),
    ]
    # A player still playing cannot sit at a new table.
    body = director.post(
        url("event-pair", event), {"t1s1": roster[0].pk, "t1s2": roster[4].pk}, follow=True
    ).content.decode()
    assert "is seated at a table still playing" in body


# -- live ------------------------------------------------------------------------------------------
def test_the_live_endpoint_tags_its_answer_and_says_304_until_something_changes(make_event, people):
    event = make_event(4)
    round_ = services.round_pair(event=event, by=people["dora"])
    member = client_of(people, "member")
    first = member.get(url("event-live", event))
    assert first.status_code == 200 and first["ETag"]
    data = first.json()
    assert data["round"] == 1 and len(data["tables"]) == 2
    assert [row["cells"][1] for row in data["standings"]] and data["columns"][:2] == ["Rank", "Player"]
    assert member.get(url("event-live", event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    table = selectors.round_tables(round_)[0]
    hand_record(match=table.match_id, record=hand([4, 3]), by=people["dora"])
    # One reading serves every screen for a second (views.LIVE_SHARED_SECONDS) …
    assert member.get(url("event-live", event), HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    cache.clear()  # … and once it has passed, the hand shows.
    second = member.get(url("event-live", event), HTTP_IF_NONE_MATCH=first["ETag"])
    assert second.status_code == 200 and second["ETag"] != first["ETag"]
    scores = {t["id"]: [p["score"] for p in t["players"]] for t in second.json()["tables"]}
    assert scores[table.pk] == ["4", "3"]
    # The pages carry the tag and the live scripts, from static files only.
    body = member.get(url("event-detail", event)).content.decode()
    assert "events/live.js" in body and "data-live-etag" in body and "<style" not in body
    projector = member.get(url("event-projector", event)).content.decode()
    assert "events/projector.js" in projector and "Table 1" in projector and "Standings" in projector


# -- the report ---------------------------------------------------------------------------------------
def test_the_report_and_its_csv_give_standings_results_and_rating_changes(make_event, people):
    from ratings import services as ratings

    event = make_event(4, tiebreaks=["points", "buchholz", "wins", "lots"])
    round_ = services.round_pair(event=event, by=people["dora"])
    play(round_, people["dora"])
    ratings.rating_events_process_all()
    services.event_finish(event=event, by=people["dora"])
    member = client_of(people, "member")
    body = member.get(url("event-report", event)).content.decode()
    assert "Final standings" in body and "Rating change" in body
    assert "Buchholz" in body and "Wins" in body and "Lots" in body
    assert "@page" not in body and "events/events.css" in body  # the print CSS is a static file
    winners = [table[0] for table in seated(round_)]
    changes = selectors.report(event).changes
    assert set(changes) == {p for t in seated(round_) for p in t}
    assert all(changes[p] > 0 for p in winners)
    assert f"+{changes[winners[0]]}" in body

    response = member.get(url("event-report-csv", event))
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0] == ["rank", "player", "points", "buchholz", "wins", "lots", "rating_change"]
    standings = rows[1:5]
    assert [row[2] for row in standings] == ["1", "1", "0", "0"]
    assert all(row[-1].startswith(("+", "-")) for row in standings)
    blank = rows.index([])
    assert rows[blank + 1] == ["round", "table", "seat", "player", "place", "points", "game_points", "match"]
    seats = rows[blank + 2 :]
    assert len(seats) == 4 and {row[4] for row in seats} == {"1", "2"}
    assert {row[5] for row in seats} == {"1", "0"}


def test_the_print_stylesheet_is_for_a4():
    from pathlib import Path

    import scorekeeper.events

    css = Path(scorekeeper.events.__file__).parent / "static" / "events" / "events.css"
    assert "@page { size: A4" in css.read_text()


def test_the_pages_and_the_live_answer_speak_the_readers_language(make_event, people):
    event = make_event(4)
    services.round_pair(event=event, by=people["dora"])
    member = client_of(people, "member")
    body = member.get(url("event-detail", event), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Classement" in body and "Ronde 1" in body and "Tournois" in body
    data = member.get(url("event-live", event), HTTP_ACCEPT_LANGUAGE="de").json()
    assert data["columns"][:3] == ["Rang", "Spieler", "Punkte"] and data["round_title"] == "Runde 1"
    assert member.get(url("event-projector", event), HTTP_ACCEPT_LANGUAGE="ru").status_code == 200
