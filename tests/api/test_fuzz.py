"""A bounded fuzz of every POST endpoint, anonymous and signed in: the classes of bad input that
once gave 500s (unpaired surrogates in strings and keys, deep nesting, integers of thousands of
digits, bodies of megabytes, huge declared scores accepted as disputed) and random JSON.

No answer is a 5xx, and afterwards the database holds its invariants: every hand has its
audit entry, each match's cached hand count is its number of current hands, and no
Idempotency-Key row is left half-written. Runs in CI on PostgreSQL (and on SQLite).

Bounded: FUZZ_MAX_EXAMPLES requests (default 200, about 15 s), no deadline, one database for all of them.
"""

from __future__ import annotations

import json
import os
import uuid

import pytest
from django.db.models import Count, Q
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st

from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import Hand, Match
from tests.fakes import hand
from tests.rules.json_strategies import arbitrary_json

pytestmark = pytest.mark.django_db

MAX_EXAMPLES = int(os.environ.get("FUZZ_MAX_EXAMPLES", "200"))
#: Every POST of the API; {match} is a match ann scores (with hand 1), {game} a game key.
ENDPOINTS = [
    "/api/v1/auth/token",
    "/api/v1/auth/logout",
    "/api/v1/rules/{game}/score",
    "/api/v1/players",
    "/api/v1/matches",
    "/api/v1/matches/import",
    "/api/v1/matches/{match}/scorers",
    "/api/v1/matches/{match}/void",
    "/api/v1/matches/{match}/reopen",
    "/api/v1/matches/{match}/hands",
    "/api/v1/matches/{match}/hands/1/corrections",
]

SURROGATES = st.sampled_from(["\ud800", "\udfff", "a\udc80b", "\ud83c"])
TEXT = st.text(max_size=8) | SURROGATES
#: What an attacker sends: strings and keys that are not text, nesting far past 64 levels,
#: integers past 32 and 64 bits (up to Python's 4300 digits), long strings.
NASTY_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-10, 10),
    st.integers(-(2**70), 2**70),
    st.sampled_from([2**31, -(2**31) - 1, 2**63, -(2**63) - 1]),
    st.sampled_from([20, 100, 4300]).map(lambda digits: int("9" * digits)),  # Python's limit: 4300
    st.floats(allow_nan=False, allow_infinity=False),
    TEXT,
    st.text(min_size=1000, max_size=3000),
)
NASTY_JSON = st.recursive(
    NASTY_SCALARS,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(TEXT, inner, max_size=4),
    max_leaves=10,
)


FORGED_AUTHORIZATION = st.one_of(
    st.binary(max_size=40).map(lambda raw: "Token " + raw.decode("latin-1")),
    st.sampled_from(["Token", "Token a b", "Token \xff\xfe", "Bearer x", "token " + "0" * 64]),
)


def deep(depth: int, leaf) -> object:
    for _ in range(depth):
        leaf = [leaf]
    return leaf


def good_body(endpoint: str, draw) -> dict:
    """A body the endpoint accepts (most of the time), to reach the writes."""
    record = hand(draw(st.sampled_from([[1, 0], [0, 2], [3, 1]])))
    if draw(st.booleans()):
        record["declared"] = [draw(st.integers(-5, 12)), draw(st.integers(-5, 12))]
    return {
        "token": {"username": "ann", "password": "wrong"},
        "logout": {},
        "score": {"seats": 2, "hand": record, "accept_declared": draw(st.booleans())},
        "players": {"name": draw(st.text(min_size=1, max_size=12))},
        "matches": {"game": "tally", "players": "{players}"},
        "import": {"format": "scorekeeper-match", "format_version": 1, "game": "tally",
                   "players": [{"name": "Ada"}, {"name": draw(st.text(min_size=1, max_size=5))}],
                   "hands": [{"record": record, "accept_declared": True, "reason": "agreed"}]},
        "scorers": {"username": "bob"},
        "void": {"reason": "fuzz"},
        "reopen": {"reason": "fuzz"},
        "hands": {"record": record, "version": "current", "accept_declared": draw(st.booleans()),
                  "reason": "ok"},
        "corrections": {"record": record, "version": "current", "accept_declared": True, "reason": "ok"},
    }[endpoint.split("/")[-1] if "{game}" not in endpoint else "score"]  # fmt: skip


def spoil(value, draw):
    """``value`` with one nasty part: a value replaced, or a key added, somewhere inside."""
    if isinstance(value, dict) and value and draw(st.booleans()):
        key = draw(st.sampled_from(sorted(value)))
        return {**value, key: spoil(value[key], draw)}
    if isinstance(value, dict):
        return {**value, draw(TEXT): draw(NASTY_JSON)}
    if isinstance(value, list) and value and draw(st.booleans()):
        i = draw(st.integers(0, len(value) - 1))
        return [*value[:i], spoil(value[i], draw), *value[i + 1 :]]
    return draw(NASTY_JSON)


@st.composite
def bodies(draw, endpoint: str):
    """A JSON text (or raw bytes) to post to ``endpoint``."""
    kinds = ["good", "good", "spoilt", "spoilt", "random", "nasty", "deep", "big", "bytes"]
    kind = draw(st.sampled_from(kinds))
    if kind == "good":
        return json.dumps(good_body(endpoint, draw))
    if kind == "spoilt":
        return json.dumps(spoil(good_body(endpoint, draw), draw))
    if kind == "random":
        return json.dumps(draw(arbitrary_json()))
    if kind == "nasty":
        return json.dumps(draw(st.dictionaries(TEXT, NASTY_JSON, max_size=6)))
    if kind == "deep":
        key = draw(st.sampled_from(["record", "hand", "state", "options", "players"]))
        return json.dumps({**good_body(endpoint, draw), key: deep(draw(st.integers(60, 1200)), 1)})
    if kind == "big":
        return json.dumps({**good_body(endpoint, draw), "pad": "x" * draw(st.integers(65_000, 300_000))})
    return draw(st.binary(max_size=64))  # not JSON, maybe not even UTF-8


def invariants_hold() -> None:
    hands = Hand.objects.annotate(entries=Count("audit"))
    assert not hands.filter(entries=0).exists(), "a hand without its audit entry"
    current = Match.objects.annotate(
        current=Count("hands", filter=~Q(hands__status=Hand.Status.SUPERSEDED))
    ).values_list("pk", "hand_count", "current")
    assert [(pk, n) for pk, n, c in current if n != c] == [], "a cached hand count off its current hands"
    assert not IdempotencyKey.objects.filter(status_code=0).exists(), "an Idempotency-Key half-written"


@pytest.fixture
def world(client_for, anon, tally_match, user, settings):
    from scorekeeper.matches.services import hand_record

    settings.REST_FRAMEWORK = {
        **settings.REST_FRAMEWORK,
        "DEFAULT_THROTTLE_RATES": dict.fromkeys(("token_address", "token_username", "write"), "9999/second"),
    }
    hand_record(match=tally_match, record=hand([1, 1]), by=user)
    players = json.dumps(list(tally_match.seats.order_by("position").values_list("player", flat=True)))
    # Signed in: a token (a device) per request, as one may have been signed out by the last.
    clients = {"anonymous": lambda: anon, "signed in": lambda: client_for(user), "forged token": lambda: anon}
    return {"clients": clients, "match": tally_match, "players": players}


@given(
    data=st.data(),
    endpoint=st.sampled_from(ENDPOINTS),
    who=st.sampled_from(["anonymous", "signed in", "signed in", "forged token"]),
    game=st.sampled_from(["tally", "piquet", "cul"]),
    keyed=st.booleans(),
    form=st.booleans(),
)
@settings(
    max_examples=MAX_EXAMPLES,
    deadline=None,
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.large_base_example,
    ],
)
def test_no_post_answers_5xx_and_the_database_stays_consistent(world, data, endpoint, who, game, keyed, form):
    match = world["match"]
    url = endpoint.format(match=match.pk, game=game)
    body = data.draw(bodies(endpoint))
    if isinstance(body, str):
        version = Match.objects.get(pk=match.pk).version
        body = body.replace('"current"', str(version)).replace('"{players}"', world["players"])
        body = body.encode("utf-8")
    headers = {"HTTP_IDEMPOTENCY_KEY": str(uuid.uuid4())} if keyed else {}
    if who == "forged token":  # WSGI headers are latin-1: any byte may come
        headers["HTTP_AUTHORIZATION"] = data.draw(FORGED_AUTHORIZATION)
    content_type = "application/x-www-form-urlencoded" if form and "token" in url else "application/json"

    response = world["clients"][who]().generic("POST", url, body, content_type=content_type, **headers)

    event(f"{response.status_code} {endpoint.split('/')[-1]}")  # --hypothesis-show-statistics
    assert response.status_code < 500, (url, who, body[:300], response.content[:500])
    if response.status_code >= 400:
        assert {"code", "message", "field"} <= set(response.json()), response.content[:300]
    invariants_hold()
