"""The 201 of a recording or a correction carries the stored hand exactly as the reads show it."""

from __future__ import annotations

import pytest

from scorekeeper.matches.models import Match
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def hands_url(match, suffix=""):
    return f"/api/v1/matches/{match.pk}/hands{suffix}"


def post(client, match, path, record, **extra):
    version = Match.objects.get(pk=match.pk).version
    return client.post(hands_url(match, path), {"record": record, "version": version, **extra}, format="json")


@pytest.mark.parametrize(
    ("record", "extra"),
    [
        (hand([3, 1]), {}),
        (hand([3, 1], declared=[3, 2], dealer=1), {"accept_declared": True, "reason": "agreed at the table"}),
        (hand([12, 0]), {}),  # ends the match: the state is over, the result set
    ],
    ids=["valid", "disputed", "last"],
)
def test_the_recorded_hand_in_the_201_is_the_hand_the_detail_endpoint_shows(
    anon, ann, tally_match, record, extra
):
    response = post(ann, tally_match, "", record, **extra)

    assert response.status_code == 201, response.content
    shown = anon.get(hands_url(tally_match, "/1"))
    assert response.json()["hand"] == shown.json()


def test_the_corrected_hand_in_the_201_is_the_version_the_detail_endpoint_shows(anon, ann, tally_match):
    post(ann, tally_match, "", hand([3, 1]))
    post(ann, tally_match, "", hand([2, 2], dealer=1))

    response = post(ann, tally_match, "/1/corrections", hand([1, 1]), reason="miscounted")

    assert response.status_code == 201, response.content
    body = response.json()["hand"]
    assert body["supersedes"] == 1
    assert body == anon.get(hands_url(tally_match, "/1")).json()
