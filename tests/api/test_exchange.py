"""Export a match as JSON or CSV, import the JSON back: round trips, bad imports, players."""

from __future__ import annotations

import csv
import io
import json
from datetime import UTC, datetime

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from scorekeeper.devtools import DEMO_DATA
from scorekeeper.matches.models import AuditEntry, Hand, Match, Player
from scorekeeper.matches.services import hand_correct, hand_record, match_create, match_void, player_create
from tests.fakes import hand

pytestmark = pytest.mark.django_db

#: What an import reads back; the rest of a hand entry is information recomputed on import.
SAME_AFTER_IMPORT = ("number", "record", "accept_declared", "status", "declared", "computed", "running")


@pytest.fixture
def api():
    return APIClient()


@pytest.fixture
def scorer(api, user):
    api.force_authenticate(user)
    return api


def export(api, match_id, fmt="json"):
    response = api.get(f"/api/v1/matches/{match_id}/export.{fmt}")
    assert response.status_code == 200, response.content
    return response


def import_(api, document):
    return api.post("/api/v1/matches/import", document, format="json")


def stored():
    """Everything an import may write, to assert that a refused one wrote nothing."""
    return (Match.objects.count(), Hand.objects.count(), Player.objects.count(), AuditEntry.objects.count())


def same_hands(document):
    return [{k: h[k] for k in SAME_AFTER_IMPORT} for h in document["hands"]]


# -- export ----------------------------------------------------------------------------
def test_the_json_export_carries_what_rebuilds_the_match_and_what_the_site_computed(api, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    disputed = hand([2, 2], [2, 3], dealer=1)
    hand_record(match=tally_match, record=disputed, by=user, accept_declared=True, reason="agreed")

    doc = export(api, tally_match.pk).json()

    assert doc["format"] == "scorekeeper-match" and doc["format_version"] == 1
    assert (doc["match"], doc["version"], doc["game"]) == (tally_match.pk, 2, "tally")
    assert doc["preset"] == "classic"
    assert doc["options"] == {"target": 10, "dealer_check": True}
    assert doc["players"] == [
        {"seat": 0, "name": "Ada", "team": None, "id": tally_match.seats.get(position=0).player_id},
        {"seat": 1, "name": "Bea", "team": None, "id": tally_match.seats.get(position=1).player_id},
    ]
    first, second = doc["hands"]
    assert first == {
        "number": 1, "record": hand([3, 1]), "accept_declared": False, "reason": "", "version": 1,
        "status": "valid", "dealer": 0, "declared": [3, 1], "computed": [3, 1], "running": [3, 1],
        "errors": [], "mismatches": [],
    }  # fmt: skip
    assert (second["status"], second["accept_declared"], second["reason"]) == ("disputed", True, "agreed")
    assert [m["seat"] for m in second["mismatches"]] == [1]
    assert second["running"] == [5, 4]  # the declared values stand (spec 1.6)
    assert (doc["status"], doc["totals"], doc["result"]) == ("in_progress", [5, 4], None)
    assert doc["void_reason"] is None
    assert doc["played_at"] is None  # still in play: its last hand is not recorded yet


def test_the_export_says_when_the_match_was_played(api, tally_match, user, make_players):
    hand_record(match=tally_match, record=hand([10, 1]), by=user)  # over at 10
    last = tally_match.hands.latest("recorded_at").recorded_at
    assert export(api, tally_match.pk).json()["played_at"] == last.isoformat()

    back_entered = match_create(
        game="tally",
        players=make_players("Cy", "Di"),
        by=user,
        played_at=datetime(2026, 3, 7, 20, tzinfo=UTC),
    )
    assert export(api, back_entered.pk).json()["played_at"] == "2026-03-07T20:00:00+00:00"


def test_the_csv_export_is_a_score_sheet_with_a_header_row(api, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    disputed = hand([2, 2], [2, 3], dealer=1)
    hand_record(match=tally_match, record=disputed, by=user, accept_declared=True, reason="ok")
    hand_record(match=tally_match, record=hand([6, 0]), by=user)

    response = export(api, tally_match.pk, "csv")

    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert response["Content-Disposition"] == f'attachment; filename="match-{tally_match.pk}.csv"'
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows == [
        ["hand", "dealer", "declared Ada", "declared Bea", "computed Ada", "computed Bea", "status",
         "total Ada", "total Bea", "reason"],
        ["1", "Ada", "3", "1", "3", "1", "valid", "3", "1", ""],
        ["2", "Bea", "2", "3", "2", "2", "disputed", "5", "4", "ok"],
        ["3", "Ada", "6", "0", "6", "0", "valid", "11", "4", ""],
    ]  # fmt: skip


def test_the_csv_of_cul_shows_banks(api, user, make_players):
    case = json.loads((DEMO_DATA / "cul.json").read_text())[0]
    match = record_case("cul", case, user, make_players)

    header = export(api, match.pk, "csv").content.decode().splitlines()[0]

    assert header.endswith("status,bank P0,bank P1,reason")


@pytest.mark.parametrize(
    ("url", "accept", "content_type"),
    [
        ("export", None, "application/json"),
        ("export.json", None, "application/json"),
        ("export.csv", None, "text/csv; charset=utf-8"),
        ("export?format=csv", None, "text/csv; charset=utf-8"),
        ("export?format=json", None, "application/json"),
        ("export", "text/csv", "text/csv; charset=utf-8"),
    ],
)
def test_the_export_format_comes_from_the_suffix_the_query_or_the_accept_header(
    api, tally_match, url, accept, content_type
):
    headers = {"HTTP_ACCEPT": accept} if accept else {}

    response = api.get(f"/api/v1/matches/{tally_match.pk}/{url}", **headers)

    assert response.status_code == 200
    assert response["Content-Type"] == content_type


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_exporting_a_missing_match_is_a_404_in_the_json_error_shape(api, fmt):
    response = api.get(f"/api/v1/matches/999/export.{fmt}")

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"
    assert "Content-Disposition" not in response


def test_an_unknown_export_format_is_a_404(api, tally_match):
    response = api.get(f"/api/v1/matches/{tally_match.pk}/export?format=xml")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


# -- round trips -----------------------------------------------------------------------
def record_case(game, case, user, make_players, title=""):
    players = make_players(*[f"P{i}" for i in range(case["seats"])])
    match = match_create(
        game=game, players=players, by=user, options=case.get("options") or {}, title=title or case["id"]
    )
    for record in case["hands"]:
        hand_record(match=match, record=record, by=user)
    return match


@pytest.mark.parametrize("game", sorted(p.stem for p in DEMO_DATA.glob("*.json")))
def test_export_import_export_gives_the_same_hands_and_result_in_every_game(scorer, user, make_players, game):
    case = json.loads((DEMO_DATA / f"{game}.json").read_text())[0]
    match = record_case(game, case, user, make_players)
    before = export(scorer, match.pk).json()

    response = import_(scorer, before)

    assert response.status_code == 201, response.json()
    after = export(scorer, response.json()["id"]).json()
    assert after["match"] != before["match"]
    assert same_hands(after) == same_hands(before)
    for key in ("game", "preset", "options", "title", "status", "totals", "result"):
        assert after[key] == before[key], key
    assert [p["name"] for p in after["players"]] == [p["name"] for p in before["players"]]


def test_a_round_trip_keeps_when_the_match_was_played_so_its_place_in_the_ratings_order(
    scorer, tally_match, user
):
    hand_record(match=tally_match, record=hand([10, 1]), by=user)
    before = export(scorer, tally_match.pk).json()

    response = import_(scorer, before)

    assert response.status_code == 201, response.json()
    new = Match.objects.get(pk=response.json()["id"])
    assert new.played_at == tally_match.hands.latest("recorded_at").recorded_at
    assert export(scorer, new.pk).json()["played_at"] == before["played_at"]


@pytest.mark.parametrize(
    ("given", "stored_as"),
    [
        ("2026-03-07", datetime(2026, 3, 7)),
        ("2026-03-07T21:30:00+01:00", datetime(2026, 3, 7, 20, 30, tzinfo=UTC)),
    ],
)
def test_an_imported_date_played_may_be_a_day_or_a_time(scorer, tally, given, stored_as):
    response = import_(scorer, edit(lambda d: d.update(played_at=given)))

    assert response.status_code == 201, response.json()
    played = Match.objects.get(pk=response.json()["id"]).played_at
    expected = stored_as if stored_as.tzinfo else timezone.make_aware(stored_as)  # a day: the site's midnight
    assert played == expected


def test_a_document_without_a_date_played_is_played_when_its_last_hand_is_recorded(scorer, tally):
    doc = good()
    doc.pop("played_at", None)

    response = import_(scorer, doc)

    assert response.status_code == 201, response.json()
    assert Match.objects.get(pk=response.json()["id"]).played_at is None


def test_a_round_trip_keeps_disputed_and_corrected_hands(scorer, tally, user, make_players):
    match = match_create(game="tally", players=make_players("Ada", "Bea"), by=user, options={"target": 20})
    hand_record(match=match, record=hand([3, 1]), by=user)
    hand_record(match=match, record=hand([2, 2], dealer=1), by=user)
    hand_record(match=match, record=hand([0, 4], [1, 4]), by=user, accept_declared=True, reason="table vote")
    hand_correct(match=match, number=1, record=hand([4, 1]), by=user, reason="miscounted")
    before = export(scorer, match.pk).json()

    response = import_(scorer, before)

    assert response.status_code == 201, response.json()
    after = export(scorer, response.json()["id"]).json()
    assert same_hands(after) == same_hands(before)
    assert [h["status"] for h in after["hands"]] == ["valid", "valid", "disputed"]
    # The replay after the correction gave hand 3 a new version; it keeps the players' reason.
    assert after["hands"][2]["reason"] == before["hands"][2]["reason"] == "table vote"
    assert after["totals"] == before["totals"] == [7, 7]


def test_the_import_answers_201_with_the_new_match_and_its_location(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)

    response = import_(scorer, export(scorer, tally_match.pk).json())

    assert response.status_code == 201
    body = response.json()
    new = Match.objects.get(pk=body["id"])
    assert response["Location"].endswith(f"/api/v1/matches/{new.pk}")
    assert (body["version"], body["totals"], len(body["hands"])) == (new.version, [3, 1], 1)
    assert new.created_by == user and list(new.scorers.all()) == [user]
    assert AuditEntry.objects.filter(match=new, action="hand_record").count() == 1


def test_a_void_match_is_imported_void_with_its_reason(scorer, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    match_void(match=tally_match, by=user, reason="rain stopped play")
    doc = export(scorer, tally_match.pk).json()
    assert (doc["status"], doc["void_reason"]) == ("void", "rain stopped play")

    response = import_(scorer, doc)

    new = Match.objects.get(pk=response.json()["id"])
    assert new.status == "void" and new.hands.count() == 1
    assert new.audit.get(action="match_void").payload["reason"] == "rain stopped play"


def test_a_piquet_voleur_import_keeps_the_teams(scorer, user, make_players):
    case = json.loads((DEMO_DATA / "piquet-voleur.json").read_text())[0]
    match = record_case("piquet-voleur", case, user, make_players)

    response = import_(scorer, export(scorer, match.pk).json())

    assert response.status_code == 201
    assert [s["team"] for s in response.json()["seats"]] == [0, 1, 0, 1]


# -- players ---------------------------------------------------------------------------
def document(players, hands=(), game="tally", **fields):
    return {
        "format": "scorekeeper-match",
        "format_version": 1,
        "game": game,
        "preset": "classic",
        "options": {},
        "players": players,
        "hands": [{"record": r} for r in hands],
        **fields,
    }


def test_players_are_reused_by_exact_name_created_when_missing_or_taken_by_id(scorer, tally, user):
    ada = player_create(name="Ada")
    cid = player_create(name="Cid")

    response = import_(scorer, document([{"name": "Ada"}, {"name": "Bea"}, {"player": cid.pk, "name": "X"}]))

    assert response.status_code == 201, response.json()
    seated = [s["player"] for s in response.json()["seats"]]
    bea = Player.objects.get(name="Bea")
    assert seated == [ada.pk, bea.pk, cid.pk]
    assert bea.created_by == user


def test_an_export_of_this_site_comes_back_with_the_same_players_though_names_are_shared(
    scorer, tally, user, settings
):
    first, second = player_create(name="Ada"), player_create(name="Ada")
    match = match_create(game="tally", players=[second, first], by=user)
    hand_record(match=match, record=hand([3, 1]), by=user)
    exported = export(scorer, match.pk).json()
    assert exported["site"] == settings.SCOREKEEPER_SITE

    response = import_(scorer, exported)

    assert response.status_code == 201, response.json()
    assert [s["player"] for s in response.json()["seats"]] == [second.pk, first.pk]
    assert Player.objects.count() == 2


def test_an_export_from_another_site_is_bound_by_name_as_ever(scorer, tally, user):
    player_create(name="Ada")
    second = player_create(name="Ada")
    match = match_create(game="tally", players=[second, player_create(name="Bea")], by=user)
    exported = export(scorer, match.pk).json()

    elsewhere = import_(scorer, {**exported, "site": "scores.elsewhere.example"})
    unnamed = import_(scorer, {k: v for k, v in exported.items() if k != "site"})

    for response in (elsewhere, unnamed):
        assert response.status_code == 400 and response.json()["code"] == "player_ambiguous"


def test_an_exported_player_id_is_never_used_to_match(scorer, tally):
    someone = player_create(name="Someone else")

    response = import_(scorer, document([{"name": "Ada", "id": someone.pk}, {"name": "Bea", "id": 12345}]))

    assert response.status_code == 201
    assert someone.pk not in [s["player"] for s in response.json()["seats"]]


def test_a_name_shared_by_several_players_must_be_given_by_id(scorer, tally):
    first, second = player_create(name="Ada"), player_create(name="Ada")
    before = stored()

    response = import_(scorer, document([{"name": "Ada"}, {"name": "Bea"}]))

    assert response.status_code == 400
    body = response.json()
    assert (body["code"], body["field"], body["candidates"]) == (
        "player_ambiguous", "players[0].name", [first.pk, second.pk]
    )  # fmt: skip
    assert stored() == before


# -- bad imports: 400 and nothing stored -----------------------------------------------
def good():
    return document([{"name": "Ada"}, {"name": "Bea"}], [hand([3, 1]), hand([2, 2], dealer=1)])


def edit(change):
    doc = good()
    change(doc)
    return doc


BAD_IMPORTS = [
    ("wrong format version", edit(lambda d: d.update(format_version=2)), "format_version_unsupported",
     "format_version"),
    ("not an export", edit(lambda d: d.update(format="something-else")), "format_unknown", "format"),
    ("no format version", edit(lambda d: d.pop("format_version")), "required", "format_version"),
    ("unknown game", edit(lambda d: d.update(game="whist")), "game_unknown", "game"),
    ("bad option", edit(lambda d: d.update(options={"target": 0})), "options_invalid", "options.target"),
    ("unknown option", edit(lambda d: d.update(options={"trumps": 1})), "options_invalid", "options.trumps"),
    ("bad preset", edit(lambda d: d.update(preset="house")), "invalid_choice", "preset"),
    ("no players", edit(lambda d: d.update(players=[])), "empty", "players"),
    ("one player", edit(lambda d: d.update(players=[{"name": "Ada"}])), "seat_count", "players"),
    ("player with a blank name", edit(lambda d: d["players"][1].update(name=" ")), "blank",
     "players[1].name"),
    ("player without name or id", edit(lambda d: d["players"][1].pop("name")), "name_missing", "players[1]"),
    ("unknown player id", edit(lambda d: d["players"][1].update(player=99999)), "player_unknown",
     "players[1].player"),
    ("teams in a game without teams", edit(lambda d: d["players"][0].update(team=1)), "seats_invalid",
     "teams"),
    ("hand with errors", edit(lambda d: d["hands"][1]["record"].update(dealer=7)), "hand_invalid",
     "hands[1].record.dealer"),
    ("hand without record", edit(lambda d: d["hands"][0].pop("record")), "required", "hands[0].record"),
    ("mismatch not accepted", edit(lambda d: d["hands"][1]["record"].update(declared=[2, 3])),
     "score_mismatch", "hands[1].record"),
    ("mismatch accepted without a reason",
     edit(lambda d: d["hands"][1].update(record=hand([2, 2], [2, 3]), accept_declared=True)),
     "reason_required", "hands[1].reason"),
    ("hand after the end", edit(lambda d: d["hands"].insert(1, {"record": hand([9, 0])})), "match_over",
     "hands[2]"),
    ("hands not a list", edit(lambda d: d.update(hands={"1": hand([3, 1])})), "not_a_list", "hands"),
    ("date played not a date", edit(lambda d: d.update(played_at="last tuesday")), "invalid", "played_at"),
    ("date played impossible", edit(lambda d: d.update(played_at="2026-02-30T20:00:00Z")), "invalid",
     "played_at"),
    ("date played in the future", edit(lambda d: d.update(played_at="2999-01-01T20:00:00Z")),
     "played_at_future", "played_at"),
    ("date played before 1900", edit(lambda d: d.update(played_at="1850-01-01T20:00:00Z")),
     "played_at_too_early", "played_at"),
]  # fmt: skip


@pytest.mark.parametrize(("case", "doc", "code", "field"), BAD_IMPORTS, ids=[b[0] for b in BAD_IMPORTS])
def test_a_bad_import_is_a_400_and_stores_nothing(scorer, tally, case, doc, code, field):
    before = stored()

    response = import_(scorer, doc)

    assert response.status_code == 400, response.json()
    body = response.json()
    assert (body["code"], body["field"]) == (code, field)
    assert body["message"]
    assert stored() == before


def test_a_refused_hand_is_named_with_the_engines_errors_and_mismatches(scorer, tally):
    doc = edit(lambda d: d["hands"][1]["record"].update(declared=[2, 3]))
    before = stored()

    body = import_(scorer, doc).json()

    assert body["hand"] == 2 and body["message"].startswith("hand 2: ")
    assert body["errors"] == []
    assert body["mismatches"] == [
        {"seat": 1, "declared": 3, "computed": 2, "explanation": "seat 1 scored 2, not 3"}
    ]
    assert body["evaluation"]["scores"] == [2, 2]
    assert stored() == before


def test_a_later_bad_hand_takes_back_the_players_and_earlier_hands(scorer, tally):
    doc = document([{"name": "New one"}, {"name": "New two"}], [hand([3, 1]), hand([2, 2]), {"dealer": 0}])
    before = stored()

    response = import_(scorer, doc)

    assert (response.status_code, response.json()["hand"]) == (400, 3)
    assert stored() == before
    assert not Player.objects.filter(name__startswith="New").exists()


@pytest.mark.parametrize(
    "body",
    [
        '{"format": "scorekeeper-match", "format_version": 1, "game": "tally", "players": [{"name": "A',
        "[1, 2, 3]",
        '"a string"',
        "",
    ],
    ids=["truncated JSON", "a list", "a string", "empty"],
)
def test_a_body_that_is_not_a_document_is_a_400_and_stores_nothing(scorer, tally, body):
    before = stored()

    response = scorer.post("/api/v1/matches/import", body, content_type="application/json")

    assert response.status_code == 400
    assert set(response.json()) >= {"code", "message", "field"}
    assert stored() == before


def test_a_match_with_a_hand_left_unplayable_by_a_correction_cannot_be_imported(scorer, tally_match, user):
    for points in ([3, 1], [2, 2], [1, 1]):
        hand_record(match=tally_match, record=hand(points), by=user)
    # Hand 2 now ends the match: hand 3 comes after the end and counts for nothing.
    hand_correct(match=tally_match, number=1, record=hand([8, 1]), by=user)
    doc = export(scorer, tally_match.pk).json()
    assert doc["hands"][2]["status"] == "disputed" and doc["hands"][2]["computed"] is None
    before = stored()

    response = import_(scorer, doc)

    assert response.status_code == 400
    assert (response.json()["code"], response.json()["hand"]) == ("match_over", 3)
    assert stored() == before


def test_importing_needs_a_signed_in_user(api, tally):
    before = stored()

    response = import_(api, good())

    assert response.status_code == 401
    assert response.json()["code"] == "not_authenticated"
    assert stored() == before


@pytest.mark.parametrize("fmt", ["json", "csv"])
def test_the_options_of_the_export_are_json_in_any_format(api, tally_match, fmt):
    response = api.options(f"/api/v1/matches/{tally_match.pk}/export?format={fmt}")

    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"


def test_an_import_retried_with_its_idempotency_key_stores_one_match(scorer, tally):
    first = scorer.post("/api/v1/matches/import", good(), format="json", HTTP_IDEMPOTENCY_KEY="imp-1")
    again = scorer.post("/api/v1/matches/import", good(), format="json", HTTP_IDEMPOTENCY_KEY="imp-1")
    other = scorer.post(
        "/api/v1/matches/import", document([{"name": "Cid"}, {"name": "Dan"}]), format="json",
        HTTP_IDEMPOTENCY_KEY="imp-1",
    )  # fmt: skip

    assert (first.status_code, again.status_code, other.status_code) == (201, 201, 422)
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Match.objects.count() == 1 and Hand.objects.count() == 2


def test_an_id_beyond_the_database_range_is_a_404(api):
    response = api.get(f"/api/v1/matches/{10**30}/export.csv")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_a_name_that_a_spreadsheet_would_run_is_written_inert(api, tally, user):
    players = [player_create(name='=HYPERLINK("http://x")'), player_create(name="Bea")]
    match = match_create(game="tally", players=players, by=user)
    hand_record(match=match, record=hand([3, -1]), by=user)

    rows = list(csv.reader(io.StringIO(export(api, match.pk, "csv").content.decode())))

    assert rows[0][2] == 'declared =HYPERLINK("http://x")'  # inside the header text: harmless
    assert rows[1][1] == '\'=HYPERLINK("http://x")'  # the dealer cell starts with "="
    assert rows[1][3] == "-1"  # numbers stay numbers
