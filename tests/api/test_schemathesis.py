"""Schemathesis over /api/schema/ with every check, on data the schema allows and data it refuses.

Every built-in check runs (schemathesis' ``-c all``: no 5xx; status, content type, headers and
body as documented; schema-valid data accepted, schema-invalid data refused; missing required
headers, unsupported methods, the Allow header, use after free, resource availability, ignored
auth …) plus this project's one (``tests/api/schemathesis_hooks.py``: a schema-valid request is
refused only by the rules), in the examples, fuzzing and coverage phases, positive and negative,
and once more as a state machine following the links between operations. The configuration is
``schemathesis.toml``, which a ``schemathesis run`` from the project's root reads too.

Signed in with a token made for the test's user (logout is left out: it would revoke it). The
app is called in-process (WSGI) inside the test's database transaction, so it runs on SQLite
and on PostgreSQL alike. A few players and a piquet match with a hand exist, and about half of
the generated ids are pointed at them, so that the deeper paths are reached.

Bounded: ``MAX_EXAMPLES`` fuzzed cases per operation (SCHEMATHESIS_MAX_EXAMPLES overrides it;
the coverage phase's cases are a fixed set of its own), ``STATEFUL_EXAMPLES`` scenarios of at
most ``STATEFUL_STEPS`` calls, no deadline: about a minute and a half in all.
"""

from __future__ import annotations

import contextlib
import json
import os
from pathlib import Path

import pytest
import schemathesis
from django.apps import apps as django_apps
from django.core.cache import caches
from django.core.management.color import no_style
from django.db import connection, transaction
from hypothesis import HealthCheck, settings
from hypothesis.stateful import run_state_machine_as_test
from schemathesis.config import SchemathesisConfig

from scorekeeper.devtools import DEMO_DATA
from scorekeeper.wsgi import application
from tests.api import schemathesis_hooks  # noqa: F401  (registers the hook and the check)

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parents[2]
PIQUET = DEMO_DATA / "piquet.json"
MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "25"))
STATEFUL_EXAMPLES = int(os.environ.get("SCHEMATHESIS_STATEFUL_EXAMPLES", "15"))
STATEFUL_STEPS = 6
SUPPRESSED = [HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.function_scoped_fixture]
# No example database (database=None below): Schemathesis' strategies learn from the answers,
# so an example stored by an earlier run does not replay the same and Hypothesis would call the
# strategy flaky. The seed is fixed (derandomize) so that a CI run is the same run every time and
# a failure reproduces; SCHEMATHESIS_EXPLORE=1 draws afresh each run, to look further.
DERANDOMIZE = os.environ.get("SCHEMATHESIS_EXPLORE") != "1"


@pytest.fixture(autouse=True)
def no_throttling(settings):
    """No throttle and no sign-in lockout: their counts are state outside the test that grows
    with every request, so a step refused once (429) and not when Hypothesis replays it (or the
    other way round) makes the state machine's data "flaky". Their limits have their own tests
    (tests/api/test_throttles.py, tests/pages/test_signin_lockout.py)."""
    framework = settings.REST_FRAMEWORK
    rates = {scope: "1000000/minute" for scope in framework["DEFAULT_THROTTLE_RATES"]}
    settings.REST_FRAMEWORK = {**framework, "DEFAULT_THROTTLE_RATES": rates}
    settings.AXES_FAILURE_LIMIT = 1_000_000
    settings.PLAYER_CLAIM_ATTEMPTS = 1_000_000


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
    """A staff user with a fresh token who owns a piquet match with one hand; six players exist."""
    from api.tokens import token_create
    from scorekeeper.matches.services import hand_record, match_create, player_create

    # Staff, so that the recompute's operations are reached too (its jobs' tasks would start
    # after the commit, which the test's transaction never makes).
    user = django_user_model.objects.create_user("schemathesis", is_staff=True)
    players = [player_create(name=name, by=user) for name in ("Ada", "Bea", "Cid", "Dot", "Eve", "Fay")]
    case = json.loads(PIQUET.read_text(encoding="utf-8"))[0]
    match = match_create(game="piquet", players=players[:2], by=user)
    hand_record(match=match, record=case["hands"][0], by=user)
    return {
        "token": token_create(user=user)[1],
        "match": match.pk,
        "player": players[0].pk,
        "players": [p.pk for p in players],
    }


def signed_in(rows) -> dict[str, str]:
    return {"Authorization": f"Token {rows['token']}"}


def steer(case, rows) -> None:
    """Point about half of the generated ids at real rows.

    Random ids almost always miss, so the deeper paths (recording a generated record on a
    real match, reading a real hand, starting a match) would hardly be reached. Only the ids
    of cases the schema allows are changed, to other valid ids: a case it refuses stays refused.
    """
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    params = case.path_parameters or {}
    if isinstance(params.get("id"), int) and params["id"] % 2 == 0:
        params["id"] = rows["player"] if case.path.startswith("/api/v1/players") else rows["match"]
    if isinstance(params.get("number"), int) and params["number"] % 2 == 0:
        params["number"] = 1
    if isinstance(params.get("player"), int) and params["player"] % 2 == 0:
        params["player"] = rows["player"]  # seated in the match
    body = case.body
    if isinstance(body, dict) and isinstance(body.get("players"), list):
        ids = body["players"]
        if 0 < len(ids) <= len(rows["players"]) and all(type(i) is int and i % 2 == 0 for i in ids):
            body["players"] = rows["players"][: len(ids)]


@contextlib.contextmanager
def same_start_every_time():
    """A savepoint rolled back at the end, an empty cache, and the id sequences where they were.

    PostgreSQL's sequences are not transactional: without the reset, the match a scenario
    creates gets another id at each replay. SQLite reuses the ids of rows rolled back."""
    with transaction.atomic():
        caches["default"].clear()
        reset = connection.ops.sequence_reset_sql(no_style(), django_apps.get_models())
        if reset:
            with connection.cursor() as cursor:
                for statement in reset:
                    cursor.execute(statement)
        yield
        transaction.set_rollback(True)


CONFIG = SchemathesisConfig.from_path(ROOT / "schemathesis.toml")
# Loaded when the module is collected (the schema view needs no database); the lazy
# ``schemathesis.pytest.from_fixture`` does not work with pytest 9 (it sets ``node._nodeid``).
schema = schemathesis.openapi.from_wsgi("/api/schema/", application, config=CONFIG).exclude(
    path="/api/v1/auth/logout"
)


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=SUPPRESSED,
    database=None,
    derandomize=DERANDOMIZE,
)
def test_the_api_is_exactly_its_schema(case, rows):
    steer(case, rows)
    # As headers of the call (not of the case): Schemathesis takes them for the caller's own
    # credentials, so its auth checks probe each operation without them and with wrong ones.
    case.call_and_validate(headers=signed_in(rows))


def test_the_api_is_its_schema_across_operations(rows):
    """Stateful: sequences of calls along the links Schemathesis infers (a match created, then
    read, recorded into, exported …), every check on every answer."""

    class APIWorkflow(schema.as_state_machine()):
        def setup(self):
            # Every scenario starts from the same database, cache and ids: Hypothesis replays a
            # scenario to check and to shrink what it found, and a replay that meets the rows an
            # earlier one wrote (another status, a link's target gone or moved) is "flaky".
            self.scenario = same_start_every_time()
            self.scenario.__enter__()

        def teardown(self):
            self.scenario.__exit__(None, None, None)

        def before_call(self, case):
            steer(case, rows)

        def get_call_kwargs(self, case):
            return {"headers": signed_in(rows)}

        def validate_response(self, response, case, additional_checks=None, **kwargs):
            # As in the test above: the token is the caller's (RecordingStateMachine passes
            # the call's headers as transport arguments only, where the checks take them for
            # generated credentials).
            case.validate_response(
                response,
                additional_checks=additional_checks,
                headers=kwargs.get("headers"),
                transport_kwargs=kwargs or None,
                recorder=self.recorder,
            )

    run_state_machine_as_test(
        APIWorkflow,
        settings=settings(
            max_examples=STATEFUL_EXAMPLES,
            stateful_step_count=STATEFUL_STEPS,
            deadline=None,
            suppress_health_check=SUPPRESSED,
            database=None,
            derandomize=DERANDOMIZE,
        ),
    )
