"""A client generated from /api/schema/ with openapi-python-client drives a partie, as an app would.

The schema is what app developers build on: this test generates a client from it (the
generator runs offline, its formatting post-hooks off), imports every module of it, and with it
signs in, adds the players, starts a piquet match, records every hand of a real partie (the
demo's), reads the score sheet, the leaderboard and a prediction against a live server. Every
answer must parse into the generated models: no ``Error``, no ``None``, no field the schema
calls optional left ``Unset`` where the answer has it, and no ``additional_properties`` (a key
the schema does not name).
"""

from __future__ import annotations

import importlib
import json
import pkgutil
import subprocess
import sys
import urllib.request
import uuid
from pathlib import Path

import attrs
import pytest

from scorekeeper.devtools import DEMO_DATA

PACKAGE = "scorekeeper_client"
GENERATOR = Path(sys.executable).with_name("openapi-python-client")
#: The generator's settings: its post-hooks (ruff, black) would reformat the client, which this
#: test does not need; the package name is fixed.
GENERATOR_CONFIG = (
    f"post_hooks: []\nproject_name_override: scorekeeper-client\npackage_name_override: {PACKAGE}\n"
)


@pytest.fixture
def client_package(live_server, tmp_path, monkeypatch):
    """The generated client, from the live server's schema, importable for this test."""
    with urllib.request.urlopen(f"{live_server.url}/api/schema/?format=json", timeout=30) as answer:
        document = json.load(answer)
    (tmp_path / "openapi.json").write_text(json.dumps(document), encoding="utf-8")
    (tmp_path / "generator.yaml").write_text(GENERATOR_CONFIG, encoding="utf-8")
    generated = subprocess.run(
        [
            str(GENERATOR),
            "generate",
            "--path",
            str(tmp_path / "openapi.json"),
            "--config",
            str(tmp_path / "generator.yaml"),
            "--meta",
            "none",
            "--output-path",
            str(tmp_path / PACKAGE),
            "--fail-on-warning",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert generated.returncode == 0, generated.stdout + generated.stderr
    monkeypatch.syspath_prepend(str(tmp_path))
    yield document, importlib.import_module(PACKAGE)
    for name in [m for m in sys.modules if m == PACKAGE or m.startswith(f"{PACKAGE}.")]:
        del sys.modules[name]


def parsed(response, model):
    """The answer's body as ``model``, checked all the way down."""
    assert response.status_code < 300, (response.status_code, response.content)
    assert isinstance(response.parsed, model), response.parsed
    assert_complete(response.parsed)
    return response.parsed


def assert_complete(value, path="answer"):
    """No ``Unset`` and no undocumented key anywhere in a parsed answer."""
    from scorekeeper_client.types import Unset

    if isinstance(value, list):
        for i, item in enumerate(value):
            assert_complete(item, f"{path}[{i}]")
        return
    if not hasattr(value, "additional_properties"):
        return
    assert value.additional_properties == {}, (path, value.additional_properties)
    for field in attrs.fields(type(value)):  # the generated models are attrs classes
        name, item = field.name, getattr(value, field.name)
        if name == "additional_properties":
            continue
        # A key the answer sends is never Unset; `reevaluated` is for corrections only.
        assert not isinstance(item, Unset) or name == "reevaluated", f"{path}.{name} is Unset"
        assert_complete(item, f"{path}.{name}")


def test_every_module_of_the_generated_client_imports(client_package):
    _document, package = client_package

    modules = [m.name for m in pkgutil.walk_packages(package.__path__, f"{PACKAGE}.")]
    for name in modules:
        importlib.import_module(name)

    assert f"{PACKAGE}.api.v1.v1_auth_token_create" in modules
    assert len(modules) > 100


def test_component_names_read_well(client_package):
    document, _ = client_package
    names = set(document["components"]["schemas"])

    assert not [n for n in names if "RequestRequest" in n]
    assert {"TokenRequest", "PredictRequest", "ScoreRequest", "RecomputeRequest", "GameEnum"} <= names
    token = document["paths"]["/api/v1/auth/token"]["post"]["requestBody"]
    assert list(token["content"]) == ["application/json"] and token["required"] is True


@pytest.mark.django_db(transaction=True)
def test_a_generated_client_plays_a_partie_from_sign_in_to_prediction(
    client_package, live_server, django_user_model
):
    from ratings.services import rating_events_process_all

    assert client_package  # generated and importable
    from scorekeeper_client import AuthenticatedClient, Client
    from scorekeeper_client.api.v1 import (
        v1_auth_token_create,
        v1_leaderboards_list,
        v1_matches_create,
        v1_matches_hands_create,
        v1_matches_retrieve,
        v1_players_create,
        v1_predict_create,
    )
    from scorekeeper_client.models import (
        GameEnum,
        HandCreateRequest,
        HandCreateRequestRecord,
        HandWritten,
        Match,
        MatchCreateRequest,
        MatchDetail,
        MatchStatusEnum,
        PaginatedLeaderboardEntryList,
        Player,
        PlayerCreateRequest,
        Prediction,
        PredictRequest,
        TokenRequest,
        TokenResponse,
    )

    django_user_model.objects.create_user("marker", password="a long enough password")
    partie = json.loads((DEMO_DATA / "piquet.json").read_text(encoding="utf-8"))[0]

    def key():
        return str(uuid.uuid4())

    anonymous = Client(base_url=live_server.url, raise_on_unexpected_status=True)
    signed_in = parsed(
        v1_auth_token_create.sync_detailed(
            client=anonymous, body=TokenRequest(username="marker", password="a long enough password")
        ),
        TokenResponse,
    )
    app = AuthenticatedClient(
        base_url=live_server.url, token=signed_in.token, prefix="Token", raise_on_unexpected_status=True
    )

    players = [
        parsed(
            v1_players_create.sync_detailed(
                client=app, body=PlayerCreateRequest(name=name), idempotency_key=key()
            ),
            Player,
        )
        for name in ("Ada", "Bea")
    ]
    match = parsed(
        v1_matches_create.sync_detailed(
            client=app,
            body=MatchCreateRequest(game=GameEnum.PIQUET, players=[p.id for p in players]),
            idempotency_key=key(),
        ),
        Match,
    )
    version = match.version
    for record in partie["hands"]:
        written = parsed(
            v1_matches_hands_create.sync_detailed(
                id=match.id,
                client=app,
                body=HandCreateRequest(record=HandCreateRequestRecord.from_dict(record), version=version),
                idempotency_key=key(),
            ),
            HandWritten,
        )
        assert written.evaluation.valid, written.evaluation
        version = written.version

    sheet = parsed(v1_matches_retrieve.sync_detailed(id=match.id, client=app), MatchDetail)
    assert sheet.status == MatchStatusEnum.FINISHED and sheet.version == version
    assert [h.number for h in sheet.hands] == list(range(1, len(partie["hands"]) + 1))
    assert [h.computed for h in sheet.hands] == [r["declared"] for r in partie["hands"]]

    # The worker's job, here and now, for whatever is still pending (without Redis the
    # outbox has run it in-process already).
    rating_events_process_all()
    board = parsed(  # one match each: both are on the provisional list
        v1_leaderboards_list.sync_detailed(game=GameEnum.PIQUET, client=app, provisional=True),
        PaginatedLeaderboardEntryList,
    )
    assert sorted(e.player.name for e in board.results) == ["Ada", "Bea"]
    assert [e.rank for e in board.results] == [1, 2] and board.results[0].matches_needed == 5

    prediction = parsed(
        v1_predict_create.sync_detailed(
            client=app,
            body=PredictRequest(game=GameEnum.PIQUET, players=[p.id for p in players]),
            idempotency_key=key(),
        ),
        Prediction,
    )
    assert len(prediction.sides) == 2
    assert sum(side.win_probability for side in prediction.sides) == pytest.approx(1)
    best = max(prediction.sides, key=lambda side: side.win_probability).players[0].name
    assert best == board.results[0].player.name
