"""A database that is down or dropped the connection is a 503 with ``Retry-After``, never a 500:
the API's error body (``database_unavailable``), a page for the pages; whether it is raised in
the view, in a middleware before it or at the request's commit; and the request wrote nothing,
so that a retry with the same ``Idempotency-Key`` is safe. (tests/integration/test_pg_restart.py
stops a real PostgreSQL under load.)"""

from __future__ import annotations

import contextlib

import pytest
from django.db import OperationalError, connection, connections
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from api import matches
from api.exceptions import DATABASE_RETRY_AFTER
from scorekeeper.idempotency.models import IdempotencyKey
from scorekeeper.matches.models import AuditEntry, Hand, Match
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db

#: What psycopg says when the server went away mid-request.
LOST = "server closed the connection unexpectedly"


def api_client(user) -> APIClient:
    """An API client signed in with a token of ``user``'s that gets the 5xx answers instead of
    the test client re-raising the exception that made them."""
    from api.tokens import token_create

    client = APIClient(raise_request_exception=False)
    client.credentials(HTTP_AUTHORIZATION=f"Token {token_create(user=user)[1]}")
    return client


@contextlib.contextmanager
def database_down():
    """Every statement fails as on a connection whose server is gone (the test database itself
    stays up for the checks afterwards). Yields the statements that were tried."""
    tried = []

    def refuse(execute, sql, params, many, context):
        tried.append(sql)
        raise OperationalError(LOST)

    with connection.execute_wrapper(refuse):
        yield tried


def assert_unavailable(response) -> dict:
    body = assert_error(response, 503, "database_unavailable", "")
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert body["retry_after"] == DATABASE_RETRY_AFTER
    return body


def assert_unavailable_page(response) -> str:
    assert response.status_code == 503
    assert response["Retry-After"] == str(DATABASE_RETRY_AFTER)
    assert response["Content-Type"].startswith("text/html")
    assert [t.name for t in response.templates][:1] == ["503.html"]
    return response.content.decode()


def test_an_operational_error_in_an_api_view_is_a_503_in_the_error_shape(user, tally_match, monkeypatch):
    def broken(self, request, *args, **kwargs):
        raise OperationalError(LOST)

    monkeypatch.setattr(matches.MatchDetail, "get", broken)

    body = assert_unavailable(api_client(user).get(f"/api/v1/matches/{tally_match.pk}"))
    assert body["message"] == "the database is unavailable; try again in a few seconds"

    french = api_client(user).get(f"/api/v1/matches/{tally_match.pk}", HTTP_ACCEPT_LANGUAGE="fr")
    assert assert_unavailable(french)["message"].startswith("la base de données est indisponible")


def test_with_the_database_down_every_api_request_is_a_503_and_a_write_leaves_nothing(user, tally_match):
    client = api_client(user)  # its token is made while the database is up
    before = (Hand.objects.count(), AuditEntry.objects.count(), IdempotencyKey.objects.count())

    with database_down() as tried:
        read = client.get(f"/api/v1/matches/{tally_match.pk}")  # the token's look-up fails
        write = client.post(  # the request's transaction cannot even begin
            f"/api/v1/matches/{tally_match.pk}/hands",
            {"record": hand([1, 1]), "version": 0},
            format="json",
            HTTP_IDEMPOTENCY_KEY="down-1",
        )

    assert_unavailable(read)
    assert_unavailable(write)
    assert tried, "the requests did reach the database"
    assert (Hand.objects.count(), AuditEntry.objects.count(), IdempotencyKey.objects.count()) == before


@pytest.mark.parametrize("language", ["en", "fr", "de", "ru"])
def test_with_the_database_down_a_page_is_a_readable_503_that_needs_no_query(user, tally_match, language):
    """Signed in, so the session must be read first (a query); the 503 page itself reads none,
    or rendering it would fail in turn."""
    from django.utils import translation

    browser = Client(raise_request_exception=False)
    browser.force_login(user)

    with database_down() as tried:
        sheet = browser.get(tally_match.get_absolute_url(), HTTP_ACCEPT_LANGUAGE=language)
        post = browser.post(
            reverse("hand-new", args=[tally_match.pk]), {"dealer": "0"}, HTTP_ACCEPT_LANGUAGE=language
        )

    assert len(tried) == 2, tried  # each request's first query (the session), and nothing after
    with translation.override(language):
        title = translation.gettext("Database unavailable")
    for response in (sheet, post):
        page = assert_unavailable_page(response)
        assert f"<h1>{title}</h1>" in page
        assert response["Content-Language"] == language


def test_an_operational_error_in_a_page_view_is_the_503_page(scorer, tally_match, monkeypatch):
    from scorekeeper.matches import selectors

    def broken(**kwargs):
        raise OperationalError(LOST)

    monkeypatch.setattr(selectors, "match_score_sheet", broken)  # what the score sheet's view reads
    scorer.raise_request_exception = False

    page = assert_unavailable_page(scorer.get(tally_match.get_absolute_url()))

    assert "<h1>Database unavailable</h1>" in page
    assert "Sign in" in page  # the header shows nobody: who is signed in is read from the database


def test_a_genuine_bug_is_still_a_500(user, tally_match, monkeypatch):
    def broken(self, request, *args, **kwargs):
        raise ValueError("a bug")

    monkeypatch.setattr(matches.MatchDetail, "get", broken)

    assert_error(api_client(user).get(f"/api/v1/matches/{tally_match.pk}"), 500, "server_error")


@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("committed", [False, True], ids=["commit-lost", "answer-lost"])
def test_a_failed_commit_is_a_503_and_the_retry_with_its_key_records_the_hand_once(
    user, tally_match, monkeypatch, committed
):
    """A hand is acknowledged by its 201 only, which the client gets after the commit. When the
    COMMIT fails the client gets a 503, whether the server had committed (the answer was lost on
    the way) or not; the same request again with the same key then records the hand, or replays
    the 201 of the one that was committed: one hand either way."""
    client = api_client(user)
    url = f"/api/v1/matches/{tally_match.pk}/hands"
    body = {"record": hand([3, 1]), "version": 0}
    wrapper = connections["default"]
    commit = wrapper.commit

    def failing_commit():
        if committed:
            commit()
        raise OperationalError(LOST)

    monkeypatch.setattr(wrapper, "commit", failing_commit)
    assert_unavailable(client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1"))
    monkeypatch.setattr(wrapper, "commit", commit)
    assert Hand.objects.filter(match=tally_match).count() == (1 if committed else 0)

    retry = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="hand-1")

    assert retry.status_code == 201, retry.content
    assert retry.json()["version"] == 1
    assert retry.has_header("Idempotent-Replayed") is committed
    assert Hand.objects.filter(match=tally_match).count() == 1
    assert AuditEntry.objects.filter(hand__match=tally_match).count() == 1
    match = Match.objects.get(pk=tally_match.pk)
    assert (match.hand_count, match.version) == (1, 1)
