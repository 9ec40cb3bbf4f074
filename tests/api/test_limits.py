"""Bodies beyond the limits are 4xx at every POST, never a 500 and never a write: unpaired
surrogates, nesting past 64 levels, integers past 64 bits (the engine: past 32), bodies past
64 KiB (an import: its own cap); and a request that answers 5xx has written nothing."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import AuditEntry, Hand, Match, Player
from scorekeeper.matches.services import hand_record
from scorekeeper.rules.fields import INT_MAX
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def post_text(client, url, text, **headers):
    return client.generic("POST", url, text, content_type="application/json", **headers)


def counts():
    return (Match.objects.count(), Hand.objects.count(), AuditEntry.objects.count(),
            Player.objects.count(), IdempotencyKey.objects.count())  # fmt: skip


def hand_text(version, record_text):
    return f'{{"version": {version}, "accept_declared": true, "reason": "agreed", "record": {record_text}}}'


@pytest.fixture
def urls(tally_match):
    m = f"/api/v1/matches/{tally_match.pk}"
    return {
        "hands": f"{m}/hands",
        "corrections": f"{m}/hands/1/corrections",
        "score": "/api/v1/rules/tally/score",
        "players": "/api/v1/players",
        "matches": "/api/v1/matches",
        "scorers": f"{m}/scorers",
        "void": f"{m}/void",
        "import": "/api/v1/matches/import",
        "token": "/api/v1/auth/token",
    }


@pytest.mark.parametrize(
    ("text", "code", "field"),
    [
        (r'{"preset": "\ud800", "seats": 2, "hand": {}}', "string_invalid", "preset"),
        (r'{"seats": 2, "hand": {}, "options": {"\udc00": 1}}', "string_invalid", "options.\\udc00"),
        ('{"seats": 2, "hand": ' + "[" * 70 + "]" * 70 + "}", "too_deep", "hand" + "[0]" * 63),
        ('{"seats": 2, "hand": {}, "state": {"totals": [' + "9" * 4300 + ", 0]}}",
         "number_out_of_range", "state.totals[0]"),
    ],
)  # fmt: skip
def test_a_dry_run_beyond_the_limits_is_a_400_naming_the_field(anon, tally, text, code, field):
    assert_error(post_text(anon, "/api/v1/rules/tally/score", text), 400, code, field)


def test_a_dry_run_state_past_32_bits_is_the_engines_error_at_its_path(anon, tally):
    body = {"seats": 2, "hand": hand([1, 1]), "state": {"hands": 0, "totals": [2**40, 0], "over": False}}

    response = anon.post("/api/v1/rules/tally/score", body, format="json")

    assert response.status_code == 200
    assert [(e["code"], e["path"]) for e in response.json()["errors"]] == [
        ("number_out_of_range", "state.totals[0]")
    ]


@pytest.mark.parametrize(
    ("record_text", "code", "field"),
    [
        ('{"dealer": 0, "points": [1, 1], "declared": [1, 1], "\\ud800": 1}',
         "string_invalid", "record.\\ud800"),
        ('{"dealer": 0, "points": [1, 1], "declared": [' + "4" * 4300 + ", 1]}",
         "number_out_of_range", "record.declared[0]"),
        ('{"dealer": 0, "points": [1, 1], "declared": [1, 1], "x": ' + "[" * 100 + "]" * 100 + "}",
         "too_deep", "record.x" + "[0]" * 62),
    ],
)  # fmt: skip
@pytest.mark.parametrize("where", ["hands", "corrections"])
def test_a_hand_beyond_the_limits_is_a_400_and_nothing_is_stored(
    ann, tally_match, user, urls, where, record_text, code, field
):
    if where == "corrections":
        hand_record(match=tally_match, record=hand([1, 1]), by=user)
    before = counts()
    version = Match.objects.get(pk=tally_match.pk).version

    response = post_text(ann, urls[where], hand_text(version, record_text), HTTP_IDEMPOTENCY_KEY=f"k-{where}")

    assert_error(response, 400, code, field)
    assert counts()[:4] == before[:4]


def test_a_declared_score_past_32_bits_accepted_as_disputed_is_refused_by_the_engine(ann, tally_match):
    body = {"record": hand([1, 1], [2**40, 1]), "version": 0, "accept_declared": True, "reason": "agreed"}

    response = ann.post(f"/api/v1/matches/{tally_match.pk}/hands", body, format="json")

    error = assert_error(response, 400, "hand_invalid", "record.declared[0]")
    assert [(e["code"], e["field"]) for e in error["errors"]] == [
        ("number_out_of_range", "record.declared[0]")
    ]
    assert not Hand.objects.exists()


def test_totals_cannot_be_carried_past_32_bits_and_the_match_goes_on(ann, tally_match, settings):
    Match.objects.filter(pk=tally_match.pk).update(options={"target": INT_MAX, "dealer_check": False})
    url = f"/api/v1/matches/{tally_match.pk}/hands"
    body = {
        "record": hand([1, 1], [INT_MAX - 1, 1]),
        "version": 0,
        "accept_declared": True,
        "reason": "agreed",
    }
    assert ann.post(url, body, format="json").status_code == 201

    again = ann.post(url, {**body, "version": 1}, format="json")

    error = assert_error(again, 400, "hand_invalid")
    assert [e["code"] for e in error["errors"]] == ["total_out_of_range"]
    assert ann.post(url, {"record": hand([0, 1]), "version": 1}, format="json").status_code == 201


@pytest.mark.parametrize("where", ["hands", "corrections", "score", "players", "matches", "void"])
def test_a_body_over_64_kib_is_a_413_in_the_error_shape(ann, tally, urls, where):
    text = json.dumps({"record": hand([1, 1]), "version": 0, "seats": 2, "hand": {}, "pad": "x" * 65536})

    assert_error(post_text(ann, urls[where], text), 413, "body_too_large")


def test_a_token_request_over_64_kib_is_a_413(anon, urls):
    for form in ("multipart", None):
        data = {"username": "ann", "password": "x" * 70000}
        response = (
            anon.post(urls["token"], data, format=form)
            if form
            else anon.post(
                urls["token"],
                "username=ann&password=" + "x" * 70000,
                content_type="application/x-www-form-urlencoded",
            )
        )
        assert_error(response, 413, "body_too_large")


def test_an_import_has_a_larger_cap(ann, tally, urls, settings):
    document = {"format": "scorekeeper-match", "format_version": 1, "game": "tally", "players": [],
                "hands": [], "pad": "x" * 100_000}  # fmt: skip

    response = ann.post(urls["import"], document, format="json")

    assert response.status_code == 400 and response.json()["field"] == "players"  # read, not capped
    settings.API_IMPORT_MAX_BODY = 50_000
    assert_error(ann.post(urls["import"], document, format="json"), 413, "body_too_large")


def test_an_import_with_a_surrogate_in_a_name_is_a_400_naming_it(ann, tally, urls):
    text = ('{"format": "scorekeeper-match", "format_version": 1, "game": "tally", "hands": [],'
            ' "players": [{"name": "Ada"}, {"name": "B\\udc80"}]}')  # fmt: skip

    before = counts()

    assert_error(post_text(ann, urls["import"], text), 400, "string_invalid", "players[1].name")
    assert counts() == before


def test_an_error_while_rendering_the_answer_writes_nothing(ann, tally_match, monkeypatch):
    """The invariant: a 5xx answer has written nothing, even when the view's write succeeded."""
    from rest_framework.settings import api_settings

    def broken(self, data, *args, **kwargs):
        raise ValueError("cannot encode the answer")

    monkeypatch.setattr(api_settings.DEFAULT_RENDERER_CLASSES[0], "render", broken)  # the JSON one
    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=ann._credentials["HTTP_AUTHORIZATION"])
    before = counts()

    response = post_text(  # not format="json": the test client would encode with the broken renderer
        client,
        f"/api/v1/matches/{tally_match.pk}/hands",
        json.dumps({"record": hand([1, 1]), "version": 0}),
        HTTP_IDEMPOTENCY_KEY="render-fails",
    )

    assert response.status_code == 500
    assert counts() == before
    assert Match.objects.get(pk=tally_match.pk).version == 0
