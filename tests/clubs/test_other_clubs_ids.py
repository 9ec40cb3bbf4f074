"""Another club's ids where a caller may send them (issue 33): the outsider, the admin of a club
of his own, puts the public and the private club's ids in every id-taking URL and body field of
his own club's operations. A private club's id answers exactly as an id that is no object (its
players are "no player", its invitations and requests "not in this club"), and a public club's
are refused by the role or the rule, never taken."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from scorekeeper.matches import services
from scorekeeper.matches.models import ClubPlayer, Match
from tests.fakes import hand

from .matrix_world import build_world

pytestmark = pytest.mark.django_db

UNKNOWN = 999_999  # an id that is no object: what a private club's id must look like


@pytest.fixture
def world(django_user_model, tally, settings):
    settings.HOME_CLUB_NEW_ACCOUNT_ROLE = ""
    world = build_world(django_user_model)
    outsider = world.users["outsider"]
    world.own_players = [
        services.player_create(name=name, club=world.other_club, by=outsider) for name in ("Eve", "Fay")
    ]
    world.own_match = services.match_create(
        game="tally", players=world.own_players, by=outsider, club=world.other_club
    )
    services.hand_record(match=world.own_match, record=hand([1, 2]), by=outsider)
    return world


@pytest.fixture
def outsider(world):
    client = APIClient()
    client.force_login(world.users["outsider"])
    return client


def answer(client, method, path, body=None):
    response = getattr(client, method)(path, body, format="json") if body is not None else client.get(path)
    return response.status_code, response.json().get("code") if response.content else None


def requests(world, ids):
    """The outsider's requests with ``ids`` (a club's objects, or ids that are none)."""
    eve, fay = world.own_players
    match = world.own_match
    player, other = ids["players"]
    return {
        "seat": (
            "post", "/api/v1/matches", {"game": "tally", "players": [player, other], "club": "elsewhere"}
        ),
        "seat as a guest": (
            "post", "/api/v1/matches",
            {"game": "tally", "players": [eve.pk, player], "club": "elsewhere", "guests": [player]},
        ),
        "import by id": (
            "post", "/api/v1/matches/import",
            {"format": "scorekeeper-match", "format_version": 1, "game": "tally", "club": "elsewhere",
             "players": [{"player": eve.pk}, {"player": player}], "hands": []},
        ),
        "confirm as": ("post", f"/api/v1/matches/{match.pk}/hands/1/confirm", {"player": player}),
        "dispute as": (
            "post", f"/api/v1/matches/{match.pk}/hands/1/dispute", {"player": player, "reason": "no"}
        ),
        "merge into": ("post", f"/api/v1/players/{fay.pk}/merge", {"into": player}),
        "predict": ("post", "/api/v1/predict", {"game": "tally", "players": [eve.pk, player]}),
        "revoke": ("post", f"/api/v1/clubs/elsewhere/invitations/{ids['invitation']}/revoke", {}),
        "decide": ("post", f"/api/v1/clubs/elsewhere/requests/{ids['request']}/decide", {"approve": True}),
    }  # fmt: skip


def ids_of(side) -> dict:
    """A club's ids that ``requests`` puts where the outsider's club's would go."""
    return {
        "players": [p.pk for p in side.players],
        "invitation": side.invitation.pk,
        "request": side.join_request.pk,
    }


def test_a_private_clubs_ids_answer_as_ids_that_are_none(world, outsider):
    side = world.clubs["private"]
    private = ids_of(side)
    none = {"players": [UNKNOWN, UNKNOWN + 1], "invitation": UNKNOWN, "request": UNKNOWN}
    for name, (method, path, body) in requests(world, private).items():
        expected = answer(outsider, method, *requests(world, none)[name][1:])
        assert answer(outsider, method, path, body) == expected, name
    # Nothing of the private club was taken on the way: no seat, no guest, no roster entry.
    assert not Match.objects.filter(seats__player__in=side.players).exclude(club=side.club).exists()
    assert not ClubPlayer.objects.filter(player__in=side.players).exclude(club=side.club).exists()


def test_a_public_clubs_ids_are_refused_by_the_role_or_the_rule(world, outsider):
    side = world.clubs["public"]
    public = ids_of(side)
    answers = {
        name: answer(outsider, method, path, body)
        for name, (method, path, body) in requests(world, public).items()
    }
    assert answers == {
        "seat": (400, "player_not_in_club"),  # not on his club's roster, and not named a guest
        "seat as a guest": (201, None),  # a public club's player may be a guest anywhere
        "import by id": (400, "player_not_in_club"),  # an import names no guests
        "confirm as": (400, "player_not_seated"),
        "dispute as": (400, "player_not_seated"),
        "merge into": (403, "club_role_required"),  # he does not run the public club
        "predict": (200, None),
        "revoke": (404, "invitation_not_found"),  # another club's invitation is not in his
        "decide": (404, "request_not_found"),
    }
    assert side.invitation.__class__.objects.get(pk=side.invitation.pk).revoked_at is None


def test_the_lists_filtered_by_a_private_club_are_its_404(world, outsider):
    for path in ("/api/v1/matches?club=private", "/api/v1/players?club=private"):
        assert answer(outsider, "get", path) == (404, "club_not_found")
        assert answer(outsider, "get", path.replace("private", "no-such-club")) == (404, "club_not_found")
