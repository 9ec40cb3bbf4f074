"""Shared fixtures for the service, view and API tests (tests/rules/ has the engine's own)."""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest

from tests.fakes import Tally


@pytest.fixture(scope="session", autouse=True)
def site_wide_outside_requests():
    """The tests call services and selectors directly, as a command or a task does: site-wide.
    The test client's requests are scoped to their viewer by the middleware, as in production;
    tests/clubs/test_scoping.py checks the guard itself."""
    from django_scopes import scopes_disabled

    with scopes_disabled():
        yield


@pytest.fixture(autouse=True)
def fresh_cache(settings):
    """Every test starts with no throttle or lockout counts: a cache in local memory, emptied
    (Redis, when REDIS_URL is set, is the running site's; tests/api/test_throttle_cache.py checks it)."""
    from django.core.cache import cache

    local = {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "tests"}
    settings.CACHES = {"default": local}
    cache.clear()
    yield
    cache.clear()


@pytest.fixture(autouse=True)
def second_factor_optional(settings):
    """The tests of other features sign club admins and staff in with ``force_login`` and no
    second factor, as they skip the password; the requirement itself (on in production) is
    tested in tests/accounts/, which turns it on."""
    settings.MFA_REQUIRED_FOR_ADMINS = False


@pytest.fixture(autouse=True)
def default_language():
    """Every test starts in the default language: LocaleMiddleware activates a request's
    language in the thread and leaves it there, so a test client's French request would make
    the next test's service calls speak French."""
    from django.utils import translation

    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture
def tally(monkeypatch):
    """Register the ``tally`` test game for one test."""
    from scorekeeper.rules import RULESETS

    monkeypatch.setitem(RULESETS, Tally.key, Tally)
    return Tally


@pytest.fixture
def user(django_user_model):
    return django_user_model.objects.create_user("ann")


@pytest.fixture
def other_user(django_user_model):
    return django_user_model.objects.create_user("bob")


@pytest.fixture
def scorer(client, user):
    """The pages' client signed in as ``user``, the scorer of the matches it creates."""
    client.force_login(user)
    return client


@pytest.fixture
def make_players(db):
    from scorekeeper.matches.services import player_create

    def make(*names):
        return [player_create(name=name) for name in names]

    return make


@pytest.fixture
def tally_match(tally, user, make_players):
    """A fresh two-seat tally match to 10, created by ``user``."""
    from scorekeeper.matches.services import match_create

    return match_create(game="tally", players=make_players("Ada", "Bea"), by=user)


def require_services(*, redis: bool = True, why: str = "a separate celery worker process") -> bool:
    """True when PostgreSQL (and Redis) are available to the integration tests.

    Skips (with the reason) when they are not, or fails when REQUIRE_SERVICES=1 (CI), so a
    missing service can never turn into a silent skip there.
    """
    from django.db import connection

    problems = []
    if connection.vendor != "postgresql":
        problems.append(
            f"the database is {connection.vendor}: {why} must share the test database, "
            "so set DATABASE_URL to PostgreSQL"
        )
    redis_url = os.environ.get("REDIS_URL", "")
    if not redis:
        pass
    elif not redis_url:
        problems.append("REDIS_URL is not set: no broker for a real celery worker")
    else:
        url = urlparse(redis_url)
        try:
            socket.create_connection((url.hostname or "127.0.0.1", url.port or 6379), timeout=2).close()
        except OSError as exc:
            problems.append(f"Redis at {redis_url} is unreachable: {exc}")
    if not problems:
        return True
    reason = "; ".join(problems)
    if os.environ.get("REQUIRE_SERVICES") == "1":
        pytest.fail(f"REQUIRE_SERVICES=1 but {reason}")
    pytest.skip(reason)


def other_connection():
    """A second psycopg connection (autocommit) to the test database, beside Django's own."""
    import psycopg
    from django.db import connection

    settings = connection.settings_dict
    return psycopg.connect(
        dbname=settings["NAME"], user=settings["USER"], password=settings["PASSWORD"] or None,
        host=settings["HOST"] or None, port=settings["PORT"] or None, autocommit=True,
    )  # fmt: skip


@pytest.fixture
def players(tally, make_players):
    """Four players of the test game (the ratings tests; a module may have its own)."""
    return make_players("Ada", "Bea", "Cid", "Dan")


@pytest.fixture
def play(players, user):
    """Play a tally match: ``play([0, 1], [10, 3], title="…", target=10)`` seats ``players[0]``
    and ``players[1]`` (a module may have its own ``players``), one hand per list of points."""
    from scorekeeper.matches.services import hand_record, match_create
    from tests.fakes import hand

    def play_match(seats, *hands, title="", target=10):
        match = match_create(
            game="tally",
            players=[players[i] for i in seats],
            by=user,
            title=title,
            options={"target": target},
        )
        for points in hands:
            match = hand_record(
                match=match, record=hand(list(points), dealer=match.hand_count % len(seats)), by=user
            ).match
        return match

    return play_match
