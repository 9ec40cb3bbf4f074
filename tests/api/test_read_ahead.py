"""Recording a hand with a token: the token's user and the match are read in one statement.

api/authentication.py reads the match ahead for views that ask (``read_ahead_match``) and
``services.hand_record`` takes that read for its own; the write stays conditional on the
version read, so nothing a read ahead could miss is lost.
"""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scorekeeper.matches import errors, services
from scorekeeper.matches.models import Hand, Match
from scorekeeper.matches.services import MatchRead, hand_record
from tests.api.conftest import assert_error
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def url(match_pk):
    return f"/api/v1/matches/{match_pk}/hands"


def statements(queries):
    return [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_recording_reads_the_token_and_the_match_in_one_statement_then_writes(ann, tally_match):
    with CaptureQueriesContext(connection) as queries:
        response = ann.post(url(tally_match.pk), {"record": hand([3, 1]), "version": 0}, format="json")

    assert response.status_code == 201, response.content
    sql = statements(queries)
    assert 'JOIN "authtoken_token" t' in sql[0] and 'LEFT JOIN "matches_match" m' in sql[0]
    assert "matches_match" not in "".join(s for s in sql[1:] if s.startswith("SELECT"))  # no second read
    if connection.vendor == "postgresql":
        assert len(sql) == 2  # the write is one statement there
    assert Match.objects.get(pk=tally_match.pk).hand_count == 1


def test_other_requests_read_only_the_token(ann, tally_match):
    hand_record(match=tally_match, record=hand([3, 1]), by=tally_match.created_by, version=0)
    with CaptureQueriesContext(connection) as queries:
        assert ann.get(url(tally_match.pk)).status_code == 200
        correction = ann.post(
            f"{url(tally_match.pk)}/1/corrections", {"record": hand([2, 2]), "version": 1}, format="json"
        )

    assert correction.status_code == 201, correction.content
    token_reads = [s for s in statements(queries) if "authtoken_token" in s]
    assert len(token_reads) == 2 and not any("matches_match" in s for s in token_reads)


@pytest.mark.parametrize("match_pk", [10**6, 2**63, 10**30])
def test_a_match_that_is_not_there_is_still_a_404(ann, tally_match, match_pk):
    response = ann.post(url(match_pk), {"record": hand([3, 1]), "version": 0}, format="json")

    assert_error(response, 404, "match_not_found")


def test_the_read_ahead_checks_the_tokens_user_scores_the_match(bob, tally_match):
    response = bob.post(url(tally_match.pk), {"record": hand([3, 1]), "version": 0}, format="json")

    assert_error(response, 403)
    assert not Hand.objects.exists()


def test_a_write_landing_after_the_read_ahead_makes_this_one_a_conflict(ann, tally_match, monkeypatch):
    real = services._accepted_evaluation

    def evaluate_while_another_device_records(*args, **kwargs):
        monkeypatch.setattr(services, "_accepted_evaluation", real)
        hand_record(match=tally_match.pk, record=hand([0, 4], dealer=0), by=tally_match.created_by, version=0)
        return real(*args, **kwargs)

    monkeypatch.setattr(services, "_accepted_evaluation", evaluate_while_another_device_records)
    response = ann.post(url(tally_match.pk), {"record": hand([3, 1]), "version": 0}, format="json")

    body = assert_error(response, 409, "version_conflict")
    assert body["current_version"] == 1 and body["last_hand"]["declared"] == [0, 4]
    assert list(Hand.objects.values_list("number", "declared")) == [(1, [0, 4])]


def test_a_read_made_for_another_user_is_not_taken(tally_match, user, other_user):
    anns = MatchRead(match=services._read(tally_match.pk, by=user), user_pk=user.pk)
    assert anns.match.is_scorer

    with pytest.raises(errors.NotAllowed):
        hand_record(match=anns, record=hand([3, 1]), by=other_user, version=0)
    assert not Hand.objects.exists()
    stored = hand_record(match=anns, record=hand([3, 1]), by=user, version=0)
    assert stored.number == 1 and Match.objects.get(pk=tally_match.pk).version == 1
