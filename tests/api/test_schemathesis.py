"""Schemathesis over /api/schema/: generated requests to every operation, signed in with a token.

Checks that no answer is a 5xx and that every answer conforms to the schema: its status is
documented, its content type is declared and its body matches the documented shape. The
app is called in-process (WSGI) inside the test's database transaction, so it runs on SQLite
and on PostgreSQL alike. A few matches and players exist so that generated ids sometimes
hit real rows; most still fall on 404s, which must conform too.

Bounded: ``MAX_EXAMPLES`` generated cases per operation (SCHEMATHESIS_MAX_EXAMPLES
overrides it), no deadline.
"""

from __future__ import annotations

import json
import os
import uuid

import pytest
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis import checks

from scorekeeper.devtools import DEMO_DATA
from scorekeeper.wsgi import application

pytestmark = pytest.mark.django_db

PIQUET = DEMO_DATA / "piquet.json"
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25"))
#: "No 5xx, responses conform to the schema". Not the positive/negative data checks: the
#: rules engine, not the schema, decides what a hand record may hold.
CHECKS = [
    checks.not_a_server_error,
    checks.status_code_conformance,
    checks.content_type_conformance,
    checks.response_schema_conformance,
    checks.response_headers_conformance,
]


@pytest.fixture(autouse=True)
def keep_the_test_connection():
    """Run the WSGI app in the test's transaction, as Django's test client does.

    Django's handler closes "old" connections when a request starts and ends, and one inside
    a transaction counts as old: on PostgreSQL that would close the test's own connection.
    """
    from django.core.signals import request_finished, request_started
    from django.db import close_old_connections

    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    yield
    request_started.connect(close_old_connections)
    request_finished.connect(close_old_connections)


@pytest.fixture
def rows(django_user_model):
    """A user with a token who owns a piquet match with one hand; a few players exist too."""
    from api.tokens import token_create
    from scorekeeper.matches.services import hand_record, match_create, player_create

    user = django_user_model.objects.create_user("schemathesis")
    players = [player_create(name=name, by=user) for name in ("Ada", "Bea", "Cid")]
    case = json.loads(PIQUET.read_text(encoding="utf-8"))[0]
    match = match_create(game="piquet", players=players[:2], by=user)
    hand_record(match=match, record=case["hands"][0], by=user)
    return {"token": token_create(user=user)[1], "match": match.pk, "player": players[0].pk}


def steer(case, rows) -> None:
    """Point about half of the generated ids and game keys at real ones; make idempotency keys unique.

    Random ids almost always miss, so the deeper paths (recording a generated record on a
    real match, reading a real hand) would hardly be reached. A generated key is reused with
    other bodies by Hypothesis, which is a 422 by design: prefixed with a fresh UUID, the
    request goes on to the view (blank or over-long keys are left as they are, to be refused).
    """
    params = case.path_parameters or {}
    if isinstance(params.get("id"), int) and params["id"] % 2 == 0:
        params["id"] = rows["player"] if case.path.startswith("/api/v1/players") else rows["match"]
    if isinstance(params.get("number"), int) and params["number"] % 2 == 0:
        params["number"] = 1
    if isinstance(params.get("game"), str) and len(params["game"]) % 2 == 0:
        params["game"] = "piquet"
    key = (case.headers or {}).get("Idempotency-Key")
    if isinstance(key, str) and 0 < len(key.strip()) <= 200:
        case.headers["Idempotency-Key"] = f"{uuid.uuid4()}-{key}"


# Loaded when the module is collected (the schema view needs no database); the lazy
# ``schemathesis.pytest.from_fixture`` does not work with pytest 9 (it sets ``node._nodeid``).
schema = schemathesis.openapi.from_wsgi("/api/schema/", application)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
    ],
)
def test_the_api_conforms_to_its_schema(case, rows):
    steer(case, rows)
    case.call_and_validate(headers={"Authorization": f"Token {rows['token']}"}, checks=CHECKS)
