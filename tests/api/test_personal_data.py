"""A person's own data: the download of everything held about him, and the anonymisation of a
player who asks to be forgotten (issue 33)."""

from __future__ import annotations

import pytest

from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import ClubAuditEntry, Role
from scorekeeper.matches import services
from scorekeeper.matches.models import AuditEntry, Match, Player
from scorekeeper.matches.personal_data import player_anonymise
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def linked(tally, user, other_user, make_players):
    """Bob's player, linked to his account, who played a finished match and sits in an open one."""
    bob_player, ada, cy = make_players("Bob Brown", "Ada", "Cy")
    Player.objects.filter(pk=bob_player.pk).update(user=other_user)
    finished = services.match_create(
        game="tally", players=[bob_player, ada], by=user, title="Bob Brown v Ada"
    )
    services.hand_record(match=finished, record=hand([10, 0]), by=user)
    open_match = services.match_create(game="tally", players=[bob_player, cy], by=user)
    return Player.objects.get(pk=bob_player.pk), finished, open_match


def test_a_member_downloads_everything_held_about_him(bob, linked, other_user):
    _player, finished, open_match = linked
    answer = bob.get("/api/v1/me/data")
    assert answer.status_code == 200
    assert answer["Content-Disposition"] == 'attachment; filename="scorekeeper-bob.json"'
    data = answer.json()
    assert data["account"]["username"] == "bob"
    assert data["memberships"] == [
        {"club": "home", "role": "scorer", "since": data["memberships"][0]["since"], "until": None}
    ]
    assert data["player"]["name"] == "Bob Brown"
    assert data["player"]["clubs"] == [["home", False]]
    assert [m["id"] for m in data["player"]["matches"]] == [finished.pk, open_match.pk]
    assert {m["club"] for m in data["player"]["matches"]} == {"home"}
    assert isinstance(data["player"]["ratings"], list)  # the tally test game is not rated


def test_the_download_is_for_the_signed_in_only(anon):
    answer = anon.get("/api/v1/me/data")
    assert answer.status_code == 401 and answer.json()["code"] == "not_authenticated"


def test_an_admin_anonymises_a_player_and_nobody_elses_record_changes(
    linked, user, django_user_model, client_for
):
    player, finished, open_match = linked
    services.match_void(match=open_match, by=user, reason="abandoned")
    home = clubs.home_club()
    admin = django_user_model.objects.create_user("clubadmin")
    clubs.member_set(club=home, user=admin, role=Role.ADMIN, by=None)
    before = Match.objects.get(pk=finished.pk)

    answer = client_for(admin).post(
        f"/api/v1/players/{player.pk}/anonymise", {"reason": "asked by mail"}, format="json"
    )

    assert answer.status_code == 200, answer.json()
    assert answer.json() == {"id": player.pk, "name": f"Player {player.pk} (anonymised)"}
    player.refresh_from_db()
    assert player.user is None and "Bob" not in player.name
    after = Match.objects.get(pk=finished.pk)
    assert after.title == f"Player {player.pk} (anonymised) v Ada"
    assert (after.state, after.result, after.version) == (before.state, before.result, before.version)
    assert not any("Bob Brown" in str(e.payload) for e in AuditEntry.objects.all())
    logged = AuditEntry.objects.get(action="player_anonymise")
    assert logged.actor == admin and logged.payload["reason"] == "asked by mail"
    assert ClubAuditEntry.objects.filter(club=home, action="player_anonymise").count() == 1


def test_anonymising_is_refused_while_he_sits_in_an_open_match(linked, django_user_model):
    player, _finished, _open = linked
    staff = django_user_model.objects.create_user("root", is_staff=True)
    from scorekeeper.errors import Conflict

    with pytest.raises(Conflict) as refused:
        player_anonymise(player=player, by=staff)
    assert refused.value.code == "player_in_open_match"
    player.refresh_from_db()
    assert player.name == "Bob Brown"  # nothing written


def test_only_a_club_admin_or_staff_anonymises(linked, bob, anon):
    player, _finished, _open = linked
    refused = bob.post(f"/api/v1/players/{player.pk}/anonymise", {}, format="json")
    assert refused.status_code == 403 and refused.json()["code"] == "club_role_required"
    assert anon.post(f"/api/v1/players/{player.pk}/anonymise", {}, format="json").status_code == 401


def test_an_admin_of_another_club_cannot_anonymise(linked, django_user_model, client_for):
    player, _finished, _open = linked
    other = django_user_model.objects.create_user("elsewhere")
    clubs.club_create(by=other, name="Elsewhere")
    refused = client_for(other).post(f"/api/v1/players/{player.pk}/anonymise", {}, format="json")
    assert refused.status_code == 403


def test_an_unknown_player_is_a_404(django_user_model, client_for):
    staff = django_user_model.objects.create_user("root", is_staff=True)
    answer = client_for(staff).post("/api/v1/players/999999/anonymise", {}, format="json")
    assert answer.status_code == 404 and answer.json()["code"] == "player_not_found"
