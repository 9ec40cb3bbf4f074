"""The events' API (issue 34): a club's events, entrants, rounds, swaps, forfeits, the end and
the live standings (ETag, 304), and every refusal in the common error shape."""

from __future__ import annotations

import pytest

from scorekeeper.matches.models import Match
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


# -- the world: a club, its director (its admin), eight players on its roster ---------------
@pytest.fixture
def director(django_user_model):
    return django_user_model.objects.create_user("dora")


@pytest.fixture
def club(director):
    from scorekeeper.clubs.services import club_create

    return club_create(by=director, name="Cercle du Piquet", slug="cercle")


@pytest.fixture
def roster(tally, club, director):
    from scorekeeper.matches.services import player_create

    names = ["Ada", "Bea", "Cid", "Dan", "Eve", "Fay", "Gus", "Hal"]
    return [player_create(name=name, club=club, by=director) for name in names]


@pytest.fixture
def dora(client_for, director):
    return client_for(director)


@pytest.fixture
def member(client_for, club, director, django_user_model):
    """A member of the club who is not its director."""
    from scorekeeper.clubs.services import member_set

    user = django_user_model.objects.create_user("mel")
    member_set(club=club, user=user, role="member", by=director)
    return client_for(user)


@pytest.fixture
def private_event(tally, django_user_model):
    """An event of a private club that none of the others is in."""
    from scorekeeper.clubs.services import club_create
    from scorekeeper.events import services

    owner = django_user_model.objects.create_user("olga")
    hidden = club_create(by=owner, name="Back Room", slug="back-room", public=False)
    return services.event_create(club=hidden, by=owner, name="Secret", game="tally", format="swiss", rounds=3)


@pytest.fixture
def make_event(dora, roster):
    """An event made through the API with the first ``count`` players entered."""

    def make(count: int = 8, **fields):
        body = {"name": "Tuesday night", "game": "tally", "format": "swiss", "rounds": 3, **fields}
        made = dora.post("/api/v1/clubs/cercle/events", body, format="json")
        assert made.status_code == 201, made.content
        event = made.json()
        for player in roster[:count]:
            entered = dora.post(
                f"/api/v1/events/{event['id']}/entrants", {"player": player.pk}, format="json"
            )
            assert entered.status_code == 201, entered.content
        return event

    return make


def play(client, round_body: dict, winner_seat: int = 0) -> None:
    """Record one hand at every table of the round that is still played: ``winner_seat`` to 10."""
    for table in round_body["tables"]:
        if table["match"] is None or table["done"]:
            continue
        match = Match.objects.get(pk=table["match"])
        points = [10 if i == winner_seat else i for i in range(match.seat_count)]
        answer = client.post(
            f"/api/v1/matches/{match.pk}/hands",
            {"record": hand(points), "version": match.version},
            format="json",
        )
        assert answer.status_code == 201, answer.content


# -- the life of an event ---------------------------------------------------------------------
def test_a_swiss_of_eight_from_creation_to_its_final_standings(dora, make_event, roster):
    event = make_event(8)
    pk = event["id"]
    assert event["club"] == "cercle" and event["format"] == "swiss" and event["rounds"] == 3
    assert event["points"] == [1, 0] and event["bye_points"] == 1 and event["table_size"] == 2
    assert event["tiebreaks"][0] == "points" and event["current_round"] is None

    entrants = dora.get(f"/api/v1/events/{pk}/entrants").json()
    assert entrants["count"] == 8
    assert [e["player"] for e in entrants["results"]] == [p.pk for p in roster]
    assert entrants["results"][0]["name"] == "Ada" and entrants["results"][0]["withdrawn_at"] is None

    met: set[frozenset[int]] = set()
    for number in (1, 2, 3):
        paired = dora.post(f"/api/v1/events/{pk}/rounds", format="json")
        assert paired.status_code == 201, paired.content
        assert paired["Location"].endswith(f"/api/v1/events/{pk}/rounds/{number}")
        body = paired.json()
        assert body["number"] == number and len(body["tables"]) == 4
        assert sorted(p for t in body["tables"] for p in t["players"]) == sorted(p.pk for p in roster)
        for table in body["tables"]:
            assert table["status"] == "in_progress" and not table["done"] and not table["bye"]
            assert frozenset(table["players"]) not in met
            met.add(frozenset(table["players"]))
        assert dora.get(f"/api/v1/events/{pk}").json()["current_round"] == number
        assert_error(dora.post(f"/api/v1/events/{pk}/rounds", format="json"), 409, "round_open")
        play(dora, body)
        after = dora.get(f"/api/v1/events/{pk}/rounds/{number}").json()
        assert all(t["done"] and t["status"] == "finished" for t in after["tables"])
        assert all(t["totals"] == [10, 1] for t in after["tables"])

    assert_error(dora.post(f"/api/v1/events/{pk}/rounds", format="json"), 409, "rounds_done")
    rounds = dora.get(f"/api/v1/events/{pk}/rounds").json()
    assert [r["number"] for r in rounds["results"]] == [1, 2, 3]
    detail = dora.get(f"/api/v1/events/{pk}").json()
    assert detail["rounds_played"] == 3 and detail["current_round"] is None and detail["entrants"] == 8

    standings = dora.get(f"/api/v1/events/{pk}/standings")
    assert standings.status_code == 200
    rows = standings.json()["rows"]
    assert len(rows) == 8 and rows[0]["rank"] == 1 and rows[0]["values"]["points"] == 3
    assert sum(row["values"]["points"] for row in rows) == 12  # 4 tables × 3 rounds × 1 point
    assert {row["name"] for row in rows} == {p.name for p in roster}
    assert set(rows[0]["values"]) == set(detail["tiebreaks"])
    assert standings.json()["final"] is False

    finished = dora.post(f"/api/v1/events/{pk}/finish", format="json")
    assert finished.status_code == 200 and finished.json()["finished_at"] is not None
    report = dora.get(f"/api/v1/events/{pk}/report").json()
    assert report["final"] is True and report["standings"][0]["player"] == rows[0]["player"]
    assert [r["values"] for r in report["standings"]] == [r["values"] for r in rows]
    assert all("rating_change" in r for r in report["standings"])
    assert len(report["tables"]) == 12 and [t["round"] for t in report["tables"][:5]] == [1, 1, 1, 1, 2]
    assert all(t["places"] == [1, 2] and t["game_points"] == [10, 1] for t in report["tables"])
    assert_error(dora.get("/api/v1/events/999999/report"), 404, "event_not_found")
    assert dora.get(f"/api/v1/events/{pk}/standings").json()["final"] is True
    late = dora.post(f"/api/v1/events/{pk}/entrants", {"player": roster[0].pk}, format="json")
    assert_error(late, 409, "event_finished")


def test_the_club_lists_its_events_newest_first_and_paginated(dora, anon, make_event):
    first = make_event(0, name="First")
    second = make_event(0, name="Second")
    listed = anon.get("/api/v1/clubs/cercle/events").json()
    assert listed["count"] == 2
    assert [e["id"] for e in listed["results"]] == [second["id"], first["id"]]
    assert listed["results"][0]["entrants"] == 0 and listed["results"][0]["rounds_played"] == 0
    page = dora.get("/api/v1/clubs/cercle/events?page_size=1").json()
    assert len(page["results"]) == 1 and page["next"]
    assert_error(dora.get("/api/v1/clubs/cercle/events?page_size=x"), 400, field="page_size")


def test_fractions_are_exact_numbers(make_event):
    event = make_event(0, format="round_robin", rounds=None, points=[1, 0.5], bye_points=0.25)
    assert event["points"] == [1, 0.5] and event["bye_points"] == 0.25
    thirds = make_event(0, format="table_swiss", table_size=3, points=[2, 1 / 3, 0])
    assert thirds["points"] == [2, 0.3333, 0]  # to four places


def test_withdraw_and_enter_again(dora, make_event, roster):
    event = make_event(4)
    url = f"/api/v1/events/{event['id']}/entrants/{roster[0].pk}/withdraw"
    withdrawn = dora.post(url, format="json")
    assert withdrawn.status_code == 200 and withdrawn.json()["withdrawn_at"] is not None
    assert_error(dora.post(url, format="json"), 404, "entrant_not_found")
    assert dora.get(f"/api/v1/events/{event['id']}").json()["entrants"] == 3
    again = dora.post(f"/api/v1/events/{event['id']}/entrants", {"player": roster[0].pk}, format="json")
    assert again.status_code == 201
    twice = dora.post(f"/api/v1/events/{event['id']}/entrants", {"player": roster[0].pk}, format="json")
    assert_error(twice, 409, "already_entered")
    unseen = dora.post(f"/api/v1/events/{event['id']}/entrants", {"player": 10**12}, format="json")
    assert_error(unseen, 404, "player_not_found")
    huge = dora.post(f"/api/v1/events/{event['id']}/entrants/{10**20}/withdraw", format="json")
    assert_error(huge, 404, "entrant_not_found")


def test_a_swap_before_the_round_starts_and_a_forfeit(dora, make_event):
    event = make_event(8)
    pk = event["id"]
    body = dora.post(f"/api/v1/events/{pk}/rounds", format="json").json()
    one, two = body["tables"][0]["players"], body["tables"][1]["players"]
    swapped = dora.post(
        f"/api/v1/events/{pk}/rounds/1/swap", {"first": one[0], "second": two[0]}, format="json"
    )
    assert swapped.status_code == 200, swapped.content
    answer = swapped.json()
    assert answer["warnings"] == []
    assert answer["tables"][0]["players"] == [two[0], one[1]]
    assert answer["tables"][1]["players"] == [one[0], two[1]]
    assert answer["tables"][0]["match"] != body["tables"][0]["match"]  # made again
    same = dora.post(f"/api/v1/events/{pk}/rounds/1/swap", {"first": one[1], "second": one[1]}, format="json")
    assert_error(same, 400, "same_player")
    nobody = dora.post(
        f"/api/v1/events/{pk}/rounds/1/swap", {"first": one[1], "second": 10**9}, format="json"
    )
    assert_error(nobody, 400, "not_seated", field="second")
    assert_error(
        dora.post(f"/api/v1/events/{pk}/rounds/9/swap", {"first": 1, "second": 2}, format="json"), 404
    )

    url = f"/api/v1/events/{pk}/rounds/1/tables/3/forfeit"
    forfeit = dora.post(url, {"places": [2, 1], "reason": "did not come"}, format="json")
    assert forfeit.status_code == 200, forfeit.content
    table = forfeit.json()["tables"][2]
    assert table["forfeit"] == [2, 1] and table["done"] and table["status"] == "void"
    assert_error(dora.post(url, {"places": [1, 2], "reason": "again"}, format="json"), 409, "table_decided")
    blank = dora.post(
        f"/api/v1/events/{pk}/rounds/1/tables/4/forfeit", {"places": [1, 2], "reason": " "}, format="json"
    )
    assert_error(blank, 400, "blank", field="reason")
    wrong = dora.post(
        f"/api/v1/events/{pk}/rounds/1/tables/4/forfeit", {"places": [1, 2, 3], "reason": "x"}, format="json"
    )
    assert_error(wrong, 400, "places_invalid")
    missing = dora.post(
        f"/api/v1/events/{pk}/rounds/1/tables/9/forfeit", {"places": [1, 2], "reason": "x"}, format="json"
    )
    assert_error(missing, 404, "table_not_found")
    # A finished table may be swapped no more.
    play(dora, dora.get(f"/api/v1/events/{pk}/rounds/1").json())
    four = dora.get(f"/api/v1/events/{pk}/rounds/1").json()["tables"][3]["players"]
    started = dora.post(
        f"/api/v1/events/{pk}/rounds/1/swap", {"first": four[0], "second": one[1]}, format="json"
    )
    assert_error(started, 409, "table_started")
    standings = dora.get(f"/api/v1/events/{pk}/standings").json()["rows"]
    assert sum(row["values"]["points"] for row in standings) == 4


def test_a_club_night_takes_the_directors_tables(dora, make_event, roster):
    event = make_event(6, format="open", rounds=None)
    pk = event["id"]
    assert_error(dora.post(f"/api/v1/events/{pk}/rounds", format="json"), 400, "tables_required")
    tables = [[roster[0].pk, roster[1].pk], [roster[2].pk, roster[3].pk, roster[4].pk]]
    paired = dora.post(f"/api/v1/events/{pk}/rounds", {"tables": tables}, format="json")
    assert paired.status_code == 201, paired.content
    assert [t["players"] for t in paired.json()["tables"]] == tables
    busy = dora.post(f"/api/v1/events/{pk}/rounds", {"tables": [[roster[0].pk, roster[5].pk]]}, format="json")
    assert_error(busy, 400, "not_an_entrant")
    swiss = make_event(2)
    given = dora.post(f"/api/v1/events/{swiss['id']}/rounds", {"tables": tables}, format="json")
    assert_error(given, 400, "tables_not_taken")


# -- the live standings ----------------------------------------------------------------------
def test_the_standings_answer_304_while_nothing_changed(dora, anon, make_event):
    event = make_event(8)
    url = f"/api/v1/events/{event['id']}/standings"
    first = anon.get(url)
    assert first.status_code == 200 and first["Cache-Control"] == "no-cache"
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert all(row["values"]["points"] == 0 for row in first.json()["rows"])

    same = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert same.status_code == 304 and same["ETag"] == etag and not same.content
    assert anon.get(url, HTTP_IF_NONE_MATCH=f'"other", W/{etag}').status_code == 304
    assert anon.get(url, HTTP_IF_NONE_MATCH='"other"').status_code == 200

    body = dora.post(f"/api/v1/events/{event['id']}/rounds", format="json").json()
    paired = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert paired.status_code == 200 and paired["ETag"] != etag
    etag = paired["ETag"]
    play(dora, {"tables": body["tables"][:1]})  # one hand at one table
    played = anon.get(url, HTTP_IF_NONE_MATCH=etag)
    assert played.status_code == 200 and played["ETag"] != etag
    assert sorted(row["values"]["points"] for row in played.json()["rows"])[-1] == 1


# -- refusals --------------------------------------------------------------------------------
def test_pairing_too_few_entrants_is_a_400(dora, make_event):
    event = make_event(1)
    assert_error(dora.post(f"/api/v1/events/{event['id']}/rounds", format="json"), 400, "too_few_entrants")


def test_a_private_clubs_events_are_not_found_by_outsiders(dora, anon, private_event):
    pk = private_event.pk
    for client in (dora, anon):
        assert_error(client.get("/api/v1/clubs/back-room/events"), 404, "club_not_found")
        for path in ("", "/entrants", "/rounds", "/rounds/1", "/standings"):
            assert_error(client.get(f"/api/v1/events/{pk}{path}"), 404, "event_not_found")
    for path in ("/entrants", "/rounds", "/finish", "/entrants/1/withdraw", "/rounds/1/swap"):
        assert_error(
            dora.post(f"/api/v1/events/{pk}{path}", {"player": 1}, format="json"), 404, "event_not_found"
        )
    created = dora.post(
        "/api/v1/clubs/back-room/events", {"name": "x", "game": "tally", "format": "swiss"}, format="json"
    )
    assert_error(created, 404, "club_not_found")
    assert_error(dora.get("/api/v1/events/999999"), 404, "event_not_found")
    assert_error(dora.get(f"/api/v1/events/{10**20}"), 404, "event_not_found")
    assert_error(dora.get("/api/v1/clubs/nowhere/events"), 404, "club_not_found")


def test_a_member_reads_but_only_a_director_writes(member, make_event, roster):
    event = make_event(2)
    pk = event["id"]
    assert member.get(f"/api/v1/events/{pk}").status_code == 200
    assert member.get(f"/api/v1/events/{pk}/standings").status_code == 200
    body = {"name": "Mine", "game": "tally", "format": "swiss", "rounds": 3}
    assert_error(member.post("/api/v1/clubs/cercle/events", body, format="json"), 403, "club_role_required")
    entrant = member.post(f"/api/v1/events/{pk}/entrants", {"player": roster[5].pk}, format="json")
    assert_error(entrant, 403, "club_role_required")
    assert_error(member.post(f"/api/v1/events/{pk}/rounds", format="json"), 403, "club_role_required")
    assert_error(member.post(f"/api/v1/events/{pk}/finish", format="json"), 403, "club_role_required")
    withdraw = member.post(f"/api/v1/events/{pk}/entrants/{roster[0].pk}/withdraw", format="json")
    assert_error(withdraw, 403, "club_role_required")


def test_a_director_who_is_not_admin_may_run_events(client_for, club, director, roster, django_user_model):
    from scorekeeper.clubs.services import member_set

    user = django_user_model.objects.create_user("dirk")
    member_set(club=club, user=user, role="director", by=director)
    dirk = client_for(user)
    made = dirk.post(
        "/api/v1/clubs/cercle/events",
        {"name": "Dirk's", "game": "tally", "format": "swiss", "rounds": 1},
        format="json",
    )
    assert made.status_code == 201, made.content


def test_signed_out_writes_are_401(anon, make_event, roster):
    event = make_event(2)
    pk = event["id"]
    body = {"name": "Anon", "game": "tally", "format": "swiss", "rounds": 3}
    assert_error(anon.post("/api/v1/clubs/cercle/events", body, format="json"), 401)
    assert_error(anon.post(f"/api/v1/events/{pk}/entrants", {"player": roster[4].pk}, format="json"), 401)
    assert_error(anon.post(f"/api/v1/events/{pk}/rounds", format="json"), 401)
    assert_error(anon.post(f"/api/v1/events/{pk}/finish", format="json"), 401)
    assert anon.get(f"/api/v1/events/{pk}").status_code == 200  # a public club's event


@pytest.mark.parametrize(
    ("body", "code", "field"),
    [
        ({"game": "tally", "format": "swiss", "rounds": 3}, "required", "name"),
        ({"name": "  ", "game": "tally", "format": "swiss", "rounds": 3}, "blank", "name"),
        ({"name": "x" * 121, "game": "tally", "format": "swiss"}, "max_length", "name"),
        ({"name": "N", "game": "chess", "format": "swiss", "rounds": 3}, "game_unknown", "game"),
        ({"name": "N", "game": "tally", "format": "chess"}, "invalid_choice", "format"),
        ({"name": "N", "game": "tally", "format": "swiss", "rounds": "3"}, "invalid", "rounds"),
        ({"name": "N", "game": "tally", "format": "swiss", "rounds": 0}, "min_value", "rounds"),
        ({"name": "N", "game": "tally", "format": "swiss", "rounds": 51}, "max_value", "rounds"),
        ({"name": "N", "game": "tally", "format": "swiss"}, "rounds_required", "rounds"),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "points": ["1"]},
            "invalid",
            "points[0]",
        ),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "points": [1, 0, 0]},
            "points_invalid",
            "points",
        ),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "points": [-1]},
            "min_value",
            "points[0]",
        ),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "bye_points": True},
            "invalid",
            "bye_points",
        ),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "tiebreaks": ["luck"]},
            "invalid_choice",
            "tiebreaks[0]",
        ),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "table_size": 3},
            "format_for_two",
            "format",
        ),
        (
            {"name": "N", "game": "tally", "format": "round_robin", "table_size": 5},
            "table_size_invalid",
            "table_size",
        ),
        ({"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "seed": -1}, "min_value", "seed"),
        (
            {"name": "N", "game": "tally", "format": "league", "starts_on": "9999-12-01"},
            "starts_on_invalid",
            "starts_on",
        ),
        ({"name": "N", "game": "tally", "format": "league", "starts_on": 20240101}, "invalid", "starts_on"),
        (
            {"name": "N", "game": "tally", "format": "swiss", "rounds": 3, "seating": "random"},
            "invalid_choice",
            "seating",
        ),
    ],
)
def test_a_bad_event_body_is_a_400(dora, roster, body, code, field):
    assert_error(dora.post("/api/v1/clubs/cercle/events", body, format="json"), 400, code, field)


def test_bodies_that_are_no_objects_or_of_wrong_types_are_400(dora, make_event):
    event = make_event(2)
    pk = event["id"]
    assert_error(dora.post("/api/v1/clubs/cercle/events", [1], format="json"), 400, "body_not_object")
    assert_error(
        dora.post(f"/api/v1/events/{pk}/entrants", {"player": "1"}, format="json"), 400, "invalid", "player"
    )
    assert_error(dora.post(f"/api/v1/events/{pk}/entrants", {}, format="json"), 400, "required", "player")
    assert_error(dora.post(f"/api/v1/events/{pk}/rounds", {"tables": [[1.5]]}, format="json"), 400, "invalid")
    assert_error(
        dora.post(f"/api/v1/events/{pk}/rounds", {"tables": "1,2"}, format="json"), 400, "not_a_list"
    )
    bad = dora.post(f"/api/v1/events/{pk}/rounds", data="{", content_type="application/json")
    assert_error(bad, 400, "parse_error")
    dora.post(f"/api/v1/events/{pk}/rounds", format="json")
    assert_error(
        dora.post(f"/api/v1/events/{pk}/rounds/1/swap", {"first": 1}, format="json"),
        400,
        "required",
        "second",
    )
    forfeit = dora.post(
        f"/api/v1/events/{pk}/rounds/1/tables/1/forfeit", {"places": [0, 1], "reason": "r"}, format="json"
    )
    assert_error(forfeit, 400, "min_value")


def test_a_finished_event_takes_no_more_writes(dora, make_event, roster):
    event = make_event(2)
    pk = event["id"]
    dora.post(f"/api/v1/events/{pk}/rounds", format="json")
    assert_error(dora.post(f"/api/v1/events/{pk}/finish", format="json"), 409, "round_open")
    play(dora, dora.get(f"/api/v1/events/{pk}/rounds/1").json())
    assert dora.post(f"/api/v1/events/{pk}/finish", format="json").status_code == 200
    assert_error(dora.post(f"/api/v1/events/{pk}/finish", format="json"), 409, "event_finished")
    assert_error(dora.post(f"/api/v1/events/{pk}/rounds", format="json"), 409, "event_finished")
