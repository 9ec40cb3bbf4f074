"""Closing one's own account: his player anonymised as the clubs issue defines, his memberships
ended, what the account held erased, his tokens revoked; refused while he is a club's last
admin or seated at a table still playing (issue 36)."""

from __future__ import annotations

import pytest
from allauth.account.models import EmailAddress
from django.test import Client
from django.urls import reverse
from knox.models import AuthToken

from api.tokens import token_create
from scorekeeper.accounts import services
from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Membership
from scorekeeper.errors import DomainError
from scorekeeper.matches.models import Player
from scorekeeper.matches.services import match_create, match_void, player_create

pytestmark = pytest.mark.django_db

PASSWORD = "a long pass phrase 7"


@pytest.fixture
def zoe(django_user_model):
    user = django_user_model.objects.create_user(
        "zoe", email="zoe@example.org", password=PASSWORD, first_name="Zoé"
    )
    EmailAddress.objects.create(user=user, email="zoe@example.org", verified=True, primary=True)
    player = player_create(name="Zoé Martin")
    Player.objects.filter(pk=player.pk).update(user=user)
    return user


def close(client: Client, password=PASSWORD):
    return client.post(reverse("account-delete"), {"password": password, "confirm": "on"})


def test_closing_the_account_forgets_him_and_keeps_the_matches(zoe, django_user_model):
    other = player_create(name="Yves")
    player = Player.objects.get(user=zoe)
    match = match_create(game="piquet", players=[player, other], by=zoe)
    match_void(match=match, by=zoe, reason="a test table")
    token_create(user=zoe)
    client = Client()
    client.force_login(zoe)

    wrong = close(client, password="not it")
    closed = close(client)

    assert wrong.status_code == 400 and "This is not your password." in wrong.content.decode()
    assert closed.status_code == 302 and closed.url == reverse("home")
    zoe.refresh_from_db()
    assert (zoe.username, zoe.email, zoe.first_name, zoe.is_active) == (f"deleted-{zoe.pk}", "", "", False)
    assert not zoe.has_usable_password()
    player.refresh_from_db()
    assert player.user is None and player.name == f"Player {player.pk} (anonymised)"
    assert match.seats.filter(player=player).exists()  # the match keeps its seat
    assert not EmailAddress.objects.filter(user=zoe).exists()
    assert not AuthToken.objects.filter(user=zoe).exists()
    assert not Membership.objects.filter(user=zoe, ended_at=None).exists()
    assert Client().post(reverse("login"), {"login": "zoe", "password": PASSWORD}).status_code == 200


def test_the_last_admin_of_a_club_hands_it_over_first(zoe):
    clubs.club_create(by=zoe, name="Cercle", slug="cercle")
    client = Client()
    client.force_login(zoe)

    response = close(client)

    assert response.status_code == 400 and "last admin of Cercle" in response.content.decode()
    zoe.refresh_from_db()
    assert zoe.is_active


def test_a_player_at_a_table_still_playing_finishes_first(zoe):
    match_create(game="piquet", players=[Player.objects.get(user=zoe), player_create(name="Yves")], by=zoe)

    with pytest.raises(DomainError) as refused:
        services.account_delete(user=zoe)

    assert refused.value.code == "player_in_open_match"
    zoe.refresh_from_db()
    assert zoe.is_active and zoe.email == "zoe@example.org"  # nothing half-done
