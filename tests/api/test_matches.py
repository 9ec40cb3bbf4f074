"""/api/v1/matches: create, list with filters, the score sheet, scorers, void and reopen."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.matches.models import AuditEntry, Match, Seat
from scorekeeper.matches.services import hand_record, match_create, match_void
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def players(make_players):
    return [p.pk for p in make_players("Ada", "Bea", "Cid", "Dan")]


# -- create ----------------------------------------------------------------------------
def test_a_signed_in_user_starts_a_match_with_resolved_options_and_a_version(ann, players):
    body = {"game": "piquet", "preset": "seed", "options": {"capot_additive": False}, "players": players[:2]}

    response = ann.post("/api/v1/matches", body, format="json")

    assert response.status_code == 201, response.json()
    created = response.json()
    match = Match.objects.get()
    assert created["id"] == match.pk and created["version"] == 0 and response["ETag"] == '"0"'
    assert created["options"] == match.options and created["options"]["capot_additive"] is False
    assert len(created["options"]) > 1  # every option, not only the overrides
    assert [s["player"] for s in created["seats"]] == players[:2]
    assert created["scorers"] == ["ann"] and created["created_by"] == "ann"
    assert (match.game, match.preset, match.created_by.username) == ("piquet", "seed", "ann")
    assert AuditEntry.objects.filter(action="match_create", match=match).exists()


def test_a_partnership_match_gets_its_fixed_teams(ann, players):
    response = ann.post("/api/v1/matches", {"game": "piquet-voleur", "players": players}, format="json")

    assert [s["team"] for s in response.json()["seats"]] == [0, 1, 0, 1]
    assert list(Seat.objects.order_by("position").values_list("team", flat=True)) == [0, 1, 0, 1]


#: Players are named by their position in the ``players`` fixture ("P1"); other values go as they are.
BAD_MATCHES = [
    ([], "body_not_object", ""),
    ({"players": ["P1", "P2"]}, "required", "game"),
    ({"game": "piquet", "players": "P1"}, "not_a_list", "players"),
    ({"game": "piquet", "players": ["Ada"]}, "invalid", "players[0]"),
    ({"game": "piquet", "players": ["P1", 10**30]}, "number_out_of_range", "players[1]"),
    ({"game": "piquet", "players": [True, "P1"]}, "invalid", "players[0]"),
    ({"game": ["piquet"], "players": ["P1", "P2"]}, "invalid", "game"),
    ({"game": "chess", "players": ["P1", "P2"]}, "game_unknown", "game"),
    ({"game": "piquet", "players": ["P1"]}, "seat_count", "players"),
    ({"game": "piquet", "players": ["P1", "P1"]}, "player_twice", "players[1]"),
    ({"game": "piquet", "players": ["P1", 999999]}, "player_unknown", "players[1]"),
    ({"game": "piquet", "players": ["P1", "P2"], "preset": "house"}, "invalid_choice", "preset"),
    ({"game": "piquet", "players": ["P1", "P2"], "options": [1]}, "not_a_dict", "options"),
    ({"game": "piquet", "players": ["P1", "P2"], "options": {"nope": 1}}, "options_invalid", "options.nope"),
    ({"game": "piquet", "players": ["P1", "P2"], "teams": [0, 1]}, "seats_invalid", "teams"),
    (
        {"game": "piquet-voleur", "players": ["P1", "P2", "P3", "P4"], "teams": [0, 0, 1, 1]},
        "seats_invalid",
        "teams",
    ),
    ({"game": "piquet", "players": ["P1", "P2"], "title": "t" * 201}, "max_length", "title"),
]


def _real(players, value):
    if isinstance(value, str) and value[:1] == "P" and value[1:].isdigit():
        return players[int(value[1:]) - 1]
    return value


@pytest.mark.parametrize(("body", "code", "field"), BAD_MATCHES)
def test_a_bad_match_is_a_400_and_nothing_is_stored(ann, players, body, code, field):
    if isinstance(body, dict) and isinstance(body.get("players"), list):
        body = {**body, "players": [_real(players, p) for p in body["players"]]}

    assert_error(ann.post("/api/v1/matches", body, format="json"), 400, code, field)
    assert not Match.objects.exists()


def test_an_options_error_lists_every_problem(ann, players):
    body = {"game": "piquet", "players": players[:2], "options": {"nope": 1, "capot_additive": "yes"}}

    error = assert_error(ann.post("/api/v1/matches", body, format="json"), 400, "options_invalid")

    assert {(e["code"], e["field"]) for e in error["errors"]} == {
        ("option_unknown", "options.nope"),
        ("option_invalid", "options.capot_additive"),
    }


def test_starting_a_match_needs_a_sign_in(anon, players):
    assert_error(anon.post("/api/v1/matches", {"game": "piquet", "players": players[:2]}, format="json"), 401)
    assert not Match.objects.exists()


# -- list ------------------------------------------------------------------------------
def test_matches_filter_by_game_status_player_and_day(anon, tally, user, make_players):
    ada, bea, cid = make_players("Ada", "Bea", "Cid")
    old = match_create(game="tally", players=[ada, bea], by=user)
    Match.objects.filter(pk=old.pk).update(created_at=timezone.now() - timedelta(days=3))
    voided = match_create(game="tally", players=[bea, cid], by=user)
    match_void(match=voided, by=user, reason="test")
    today = timezone.now().date()

    def ids(**params):
        response = anon.get("/api/v1/matches", params)
        assert response.status_code == 200, response.json()
        return [m["id"] for m in response.json()["results"]]

    assert ids() == [voided.pk, old.pk]
    assert ids(game="tally", status="in_progress") == [old.pk]
    assert ids(status="void") == [voided.pk]
    assert ids(player=ada.pk) == [old.pk] and ids(player=cid.pk) == [voided.pk]
    assert ids(date=today.isoformat()) == [voided.pk]
    assert ids(
        date_from=(today - timedelta(days=5)).isoformat(), date_to=(today - timedelta(days=1)).isoformat()
    ) == [old.pk]
    assert ids(date_from=today.isoformat()) == [voided.pk]
    assert ids(game="piquet") == []


@pytest.mark.parametrize(
    ("params", "code", "field"),
    [
        ({"status": "lost"}, "invalid_choice", "status"),
        ({"game": "poker"}, "invalid_choice", "game"),
        ({"player": "ada"}, "invalid", "player"),
        ({"player": str(10**30)}, "max_value", "player"),
        ({"date": "yesterday"}, "invalid", "date"),
        ({"date_from": "2026-02-01", "date_to": "2026-01-01"}, "date_range", "date_to"),
    ],
)
def test_a_bad_filter_is_a_400(anon, params, code, field):
    assert_error(anon.get("/api/v1/matches", params), 400, code, field)


def test_the_match_list_is_paginated(anon, tally, user, make_players):
    ada, bea = make_players("Ada", "Bea")
    for _ in range(3):
        match_create(game="tally", players=[ada, bea], by=user)

    page = anon.get("/api/v1/matches", {"page_size": 2}).json()

    assert page["count"] == 3 and len(page["results"]) == 2 and page["next"]
    assert_error(anon.get("/api/v1/matches", {"page": 5}), 404, "not_found")


# -- the score sheet ---------------------------------------------------------------------
def test_the_detail_is_the_score_sheet_with_declared_and_computed_scores(anon, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    hand_record(match=tally_match, record=hand([2, 2], [3, 1]), by=user, accept_declared=True, reason="vote")
    hand_record(match=tally_match, record=hand([6, 0]), by=user)

    response = anon.get(f"/api/v1/matches/{tally_match.pk}")

    assert response.status_code == 200 and response["ETag"] == '"3"'
    sheet = response.json()
    assert sheet["status"] == "finished" and sheet["version"] == 3
    rows = [(h["number"], h["declared"], h["computed"], h["running"], h["status"]) for h in sheet["hands"]]
    assert rows == [
        (1, [3, 1], [3, 1], [3, 1], "valid"),
        (2, [3, 1], [2, 2], [6, 2], "disputed"),
        (3, [6, 0], [6, 0], [12, 2], "valid"),
    ]
    assert sheet["hands"][1]["reason"] == "vote" and sheet["hands"][1]["mismatches"][0]["seat"] == 0
    assert sheet["totals"] == [12, 2] and sheet["result"]["winner"] == 0


def test_a_missing_match_is_a_404(anon):
    assert_error(anon.get("/api/v1/matches/999999"), 404, "not_found")
    assert_error(anon.get("/api/v1/matches/99999999999999999999999"), 404, "not_found")


# -- scorers ---------------------------------------------------------------------------
def test_a_scorer_adds_another_scorer_who_may_then_record(ann, bob, tally_match):
    response = ann.post(f"/api/v1/matches/{tally_match.pk}/scorers", {"username": "bob"}, format="json")

    assert response.status_code == 201
    assert response.json() == {"match": tally_match.pk, "scorers": ["ann", "bob"]}
    assert tally_match.scorers.filter(username="bob").exists()
    assert AuditEntry.objects.filter(action="scorer_add", match=tally_match).exists()
    recorded = bob.post(
        f"/api/v1/matches/{tally_match.pk}/hands", {"record": hand([1, 1]), "version": 0}, format="json"
    )
    assert recorded.status_code == 201


def test_only_a_scorer_adds_scorers_and_only_existing_users(ann, bob, anon, tally_match):
    url = f"/api/v1/matches/{tally_match.pk}/scorers"

    assert_error(bob.post(url, {"username": "bob"}, format="json"), 403, "not_a_scorer")
    assert_error(anon.post(url, {"username": "bob"}, format="json"), 401)
    assert_error(ann.post(url, {"username": "nobody"}, format="json"), 400, "user_unknown", "username")
    assert_error(ann.post(url, {}, format="json"), 400, "required", "username")
    assert_error(ann.post("/api/v1/matches/999999/scorers", {"username": "bob"}, format="json"), 404)
    assert list(tally_match.scorers.values_list("username", flat=True)) == ["ann"]


# -- void and reopen ---------------------------------------------------------------------
def test_a_scorer_voids_and_reopens_a_match_with_a_reason(ann, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    url = f"/api/v1/matches/{tally_match.pk}"

    voided = ann.post(f"{url}/void", {"reason": "recorded by mistake", "version": 1}, format="json")
    reopened = ann.post(f"{url}/reopen", {"reason": "it was right"}, format="json", HTTP_IF_MATCH='"2"')

    assert voided.status_code == 200 and voided.json()["status"] == "void" and voided["ETag"] == '"2"'
    assert reopened.status_code == 200 and reopened.json()["status"] == "in_progress"
    assert reopened.json()["version"] == 3
    reasons = list(
        AuditEntry.objects.filter(match=tally_match, action__in=["match_void", "match_reopen"])
        .order_by("id")
        .values_list("payload__reason", flat=True)
    )
    assert reasons == ["recorded by mistake", "it was right"]


def test_void_and_reopen_refusals(ann, bob, anon, tally_match):
    url = f"/api/v1/matches/{tally_match.pk}"

    assert_error(ann.post(f"{url}/void", {}, format="json"), 400, "required", "reason")
    assert_error(ann.post(f"{url}/void", {"reason": "  "}, format="json"), 400, "blank", "reason")
    assert_error(
        ann.post(f"{url}/void", {"reason": "x", "version": 5}, format="json"), 409, "version_conflict"
    )
    assert_error(bob.post(f"{url}/void", {"reason": "x"}, format="json"), 403, "not_a_scorer")
    assert_error(anon.post(f"{url}/void", {"reason": "x"}, format="json"), 401)
    assert_error(ann.post(f"{url}/reopen", {"reason": "x"}, format="json"), 409, "status_conflict")
    assert_error(
        ann.post("/api/v1/matches/999999/void", {"reason": "x"}, format="json"), 404, "match_not_found"
    )
    assert Match.objects.get(pk=tally_match.pk).status == "in_progress"
    assert ann.post(f"{url}/void", {"reason": "x"}, format="json").status_code == 200
    assert_error(ann.post(f"{url}/void", {"reason": "again"}, format="json"), 409, "status_conflict")


def test_a_score_sheet_entered_afterwards_gives_when_it_was_played(ann, players):
    played = (timezone.now() - timedelta(days=3)).replace(microsecond=0)
    body = {"game": "piquet", "players": players[:2], "played_at": played.isoformat()}

    response = ann.post("/api/v1/matches", body, format="json")

    assert response.status_code == 201, response.json()
    match = Match.objects.get()
    assert match.played_at == played
    assert response.json()["played_at"] == ann.get(f"/api/v1/matches/{match.pk}").json()["played_at"]
    assert AuditEntry.objects.get(action="match_create").payload["played_at"] == played.isoformat()
    live = ann.post("/api/v1/matches", {"game": "piquet", "players": players[2:]}, format="json")
    assert live.json()["played_at"] is None


@pytest.mark.parametrize(
    ("played_at", "code"),
    [("2999-01-01T20:00:00Z", "played_at_future"), ("1850-06-01T20:00:00Z", "played_at_too_early"),
     ("last friday", "invalid")],
)  # fmt: skip
def test_a_date_played_in_the_future_or_not_a_date_is_a_400(ann, players, played_at, code):
    body = {"game": "piquet", "players": players[:2], "played_at": played_at}

    assert_error(ann.post("/api/v1/matches", body, format="json"), 400, code, "played_at")
    assert not Match.objects.exists()
