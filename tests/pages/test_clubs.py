"""The clubs' pages (issue 33): every page for anonymous / outsider / member / scorer / admin /
staff in a public and a private club; the forms' errors; and the whole flow: an admin invites,
a scorer joins with the link and starts a match in the club."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.urls import reverse

from scorekeeper.clubs import services as clubs
from scorekeeper.clubs.models import Club, Invitation, JoinRequest, Membership, Role
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import match_create, player_create

pytestmark = pytest.mark.django_db

VIEWERS = ["anonymous", "outsider", "member", "scorer", "admin", "staff"]


@pytest.fixture
def people(django_user_model):
    made = {}
    for name in ["outsider", "member", "scorer", "admin", "staff"]:
        made[name] = django_user_model.objects.create_user(name, password="a long pass phrase",
                                                           is_staff=name == "staff")  # fmt: skip
    return made


def _club(people, *, public: bool, slug: str) -> Club:
    club = clubs.club_create(by=people["admin"], name=slug.title(), slug=slug, public=public,
                             description=f"The {slug} circle")  # fmt: skip
    clubs.member_set(club=club, user=people["member"], role=Role.MEMBER, by=people["admin"])
    clubs.member_set(club=club, user=people["scorer"], role=Role.SCORER, by=people["admin"])
    return club


@pytest.fixture
def public(people):
    return _club(people, public=True, slug="cafe")


@pytest.fixture
def private(people):
    return _club(people, public=False, slug="cercle")


def client_of(people, who: str) -> Client:
    client = Client()
    if who != "anonymous":
        client.force_login(people[who])
    return client


def pages(club: Club) -> dict[str, str]:
    slug = club.slug
    return {
        "home": reverse("club-home", args=[slug]),
        "matches": reverse("club-matches", args=[slug]),
        "settings": reverse("club-settings", args=[slug]),
        "members": reverse("club-members", args=[slug]),
        "invitations": reverse("club-invitations", args=[slug]),
        "requests": reverse("club-requests", args=[slug]),
        "join": reverse("club-join", args=[slug]),
        "leave": reverse("club-leave", args=[slug]),
    }


#: What GET answers on each page, by viewer, in a public club (a private club: the same for
#: its members and staff; 404 for anonymous and outsiders, see below). "login": to sign in.
PUBLIC = {
    "home": {"anonymous": 200, "outsider": 200, "member": 200, "scorer": 200, "admin": 200, "staff": 200},
    "matches": {"anonymous": 200, "outsider": 200, "member": 200, "scorer": 200, "admin": 200, "staff": 200},
    "settings": {"anonymous": "login", "outsider": 403, "member": 403, "scorer": 403, "admin": 200, "staff": 200},  # noqa: E501
    "members": {"anonymous": "login", "outsider": 403, "member": 200, "scorer": 200, "admin": 200, "staff": 200},  # noqa: E501
    "invitations": {"anonymous": "login", "outsider": 403, "member": 403, "scorer": 403, "admin": 200, "staff": 200},  # noqa: E501
    "requests": {"anonymous": "login", "outsider": 403, "member": 403, "scorer": 403, "admin": 200, "staff": 200},  # noqa: E501
    "join": {"anonymous": "login", "outsider": 200, "member": 200, "scorer": 200, "admin": 200, "staff": 200},
    "leave": {"anonymous": "login", "outsider": 403, "member": 200, "scorer": 200, "admin": 200, "staff": 403},  # noqa: E501
}  # fmt: skip


def expected(page: str, who: str, *, private: bool) -> object:
    if private and who in ("anonymous", "outsider"):
        return 404
    return PUBLIC[page][who]  # type: ignore[index]


def check(response, want) -> None:
    if want == "login":
        assert response.status_code == 302 and response.url.startswith(reverse("login"))
    else:
        assert response.status_code == want, response.content.decode()[:500]


@pytest.mark.parametrize("who", VIEWERS)
@pytest.mark.parametrize("kind", ["public", "private"])
def test_every_page_for_every_viewer(people, public, private, who, kind):
    club = public if kind == "public" else private
    client = client_of(people, who)
    for page, url in pages(club).items():
        response = client.get(url)
        check(response, expected(page, who, private=kind == "private"))
        if response.status_code == 404:
            assert club.name not in response.content.decode()
        if response.status_code == 403:
            body = response.content.decode()
            assert "Not allowed" in body and ("role in" in body or "not a member" in body)


def test_every_club_url_is_in_the_table(public):
    from django.urls import URLPattern

    from scorekeeper.matches import club_urls as urls

    # The events' pages hang under the club's address (tests/pages/test_events.py has them).
    included = [p.urlconf_name.__name__ for p in urls.urlpatterns if not isinstance(p, URLPattern)]
    assert included == ["scorekeeper.events.urls"]
    names = {pattern.name for pattern in urls.urlpatterns if isinstance(pattern, URLPattern)}
    posts_only = {"club-list", "club-member-role", "club-member-remove", "club-invitation-revoke",
                  "club-request-decide"}  # fmt: skip
    assert {f"club-{page}" for page in PUBLIC} | posts_only == names


@pytest.mark.parametrize("kind", ["public", "private"])
@pytest.mark.parametrize("who", ["anonymous", "outsider", "member", "scorer"])
def test_the_writes_are_refused_to_non_admins(people, public, private, who, kind):
    club = public if kind == "public" else private
    member = people["member"]
    invitation, _code = clubs.invitation_create(club=club, by=people["admin"])
    asked = JoinRequest.objects.create(club=club, user=people["outsider"])
    client = client_of(people, who)
    posts = [
        (reverse("club-settings", args=[club.slug]), {"name": "Taken", "time_zone": "UTC"}),
        (reverse("club-members", args=[club.slug]), {"username": "outsider", "role": "admin"}),
        (reverse("club-member-role", args=[club.slug, "member"]), {"role": "admin"}),
        (reverse("club-member-remove", args=[club.slug, "member"]), {}),
        (reverse("club-invitations", args=[club.slug]), {"role": "admin", "max_uses": 5, "days": 3}),
        (reverse("club-invitation-revoke", args=[club.slug, invitation.pk]), {}),
        (reverse("club-request-decide", args=[club.slug, asked.pk]), {"decision": "approve"}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        if kind == "private" and who in ("anonymous", "outsider"):
            assert response.status_code == 404
        elif who == "anonymous":
            check(response, "login")
        else:
            assert response.status_code == 403
    club.refresh_from_db()
    assert club.name != "Taken"
    assert Membership.objects.get(club=club, user=member, ended_at__isnull=True).role == Role.MEMBER
    assert not Membership.objects.filter(club=club, user=people["outsider"]).exists()
    assert Invitation.objects.filter(club=club).count() == 1
    assert Invitation.objects.get().revoked_at is None
    assert JoinRequest.objects.get(pk=asked.pk).decided_at is None


def test_the_list_shows_the_clubs_each_viewer_may_see(people, public, private):
    url = reverse("club-list")
    assert "Cercle" not in Client().get(url).content.decode()
    assert "Cafe" in Client().get(url).content.decode()
    assert "Cercle" not in client_of(people, "outsider").get(url).content.decode()
    for who in ("member", "staff"):
        body = client_of(people, who).get(url).content.decode()
        assert "Cercle" in body and "Cafe" in body
    assert "Found a club" not in Client().get(url).content.decode()
    assert "Found a club" in client_of(people, "outsider").get(url).content.decode()


def test_the_header_links_to_the_clubs(people):
    assert f'href="{reverse("club-list")}"' in Client().get(reverse("home")).content.decode()


def test_founding_a_club_and_its_errors(people, public):
    client = client_of(people, "outsider")
    url = reverse("club-list")
    response = client.post(url, {"name": "", "slug": ""})
    assert response.status_code == 400 and "This field is required." in response.content.decode()
    response = client.post(url, {"name": "Another", "slug": "cafe"})
    assert response.status_code == 400 and "the slug cafe is taken" in response.content.decode()
    response = client.post(url, {"name": "Bad", "slug": "Not A Slug"})
    assert response.status_code == 400 and "has-error" in response.content.decode()
    response = client.post(url, {"name": "Le Tarot", "description": "Fridays", "public": "on"})
    club = Club.objects.get(slug="le-tarot")
    assert response.status_code == 302 and response.url == club.get_absolute_url()
    assert Membership.objects.get(club=club, user=people["outsider"]).role == Role.ADMIN
    assert Client().post(url, {"name": "Anon"}).status_code == 302
    assert not Club.objects.filter(name="Anon").exists()


def test_the_home_shows_the_description_matches_members_and_the_matches_link(people, public, tally):
    players = [player_create(name=n, by=people["scorer"], club=public) for n in ("Ada", "Bea")]
    match = match_create(game="tally", players=players, by=people["scorer"], club=public, title="Friday")
    body = client_of(people, "outsider").get(reverse("club-home", args=["cafe"])).content.decode()
    assert "The cafe circle" in body and match.get_absolute_url() in body
    assert "member" in body and "scorer" in body and "admin" in body
    assert reverse("club-matches", args=["cafe"]) in body
    assert "Ask to join" in body
    matches = client_of(people, "outsider").get(reverse("club-matches", args=["cafe"])).content.decode()
    assert match.get_absolute_url() in matches


def test_settings_save_and_show_their_errors(people, public):
    client = client_of(people, "admin")
    url = reverse("club-settings", args=["cafe"])
    base = {"name": "Café", "description": "x", "time_zone": "Europe/Paris", "languages": ["fr", "en"],
            "public": ""}  # fmt: skip
    response = client.post(url, {**base, "time_zone": "Mars/Olympus"})
    assert response.status_code == 400 and "Mars/Olympus is not a time zone" in response.content.decode()
    response = client.post(url, {**base, "options_piquet": "[1, 2]"})
    assert response.status_code == 400 and "write the options as a JSON object" in response.content.decode()
    response = client.post(url, {**base, "options_piquet": '{"no_such_option": 3}'})
    assert response.status_code == 400
    assert 'data-field="options_piquet"' in response.content.decode()
    response = client.post(url, {**base, "preset_piquet": "seed", "options_cul": ""})
    assert response.status_code == 302
    public.refresh_from_db()
    assert (public.name, public.time_zone, public.public) == ("Café", "Europe/Paris", False)
    assert public.languages == ["fr", "en"] and public.house_presets == {"piquet": "seed"}
    # Now private: an outsider no longer finds it.
    assert client_of(people, "outsider").get(reverse("club-home", args=["cafe"])).status_code == 404


def test_members_are_added_changed_and_removed_by_an_admin(people, public, django_user_model):
    django_user_model.objects.create_user("newcomer")
    client = client_of(people, "admin")
    url = reverse("club-members", args=["cafe"])
    response = client.post(url, {"username": "nobody", "role": "member"})
    assert response.status_code == 400 and "no account named nobody" in response.content.decode()
    response = client.post(url, {"username": "newcomer", "role": "overlord"})
    assert response.status_code == 400 and "Select a valid choice" in response.content.decode()
    assert client.post(url, {"username": "newcomer", "role": "scorer"}).status_code == 302
    assert clubs.membership_of(public, django_user_model.objects.get(username="newcomer")).role == "scorer"
    client.post(reverse("club-member-role", args=["cafe", "newcomer"]), {"role": "director"})
    assert clubs.membership_of(public, django_user_model.objects.get(username="newcomer")).role == "director"
    response = client.post(reverse("club-member-remove", args=["cafe", "newcomer"]), follow=True)
    assert "newcomer is no longer a member" in response.content.decode()
    assert clubs.membership_of(public, django_user_model.objects.get(username="newcomer")) is None
    # The last admin stays: the refusal is said on the page.
    response = client.post(
        reverse("club-member-role", args=["cafe", "admin"]), {"role": "member"}, follow=True
    )
    assert "a club keeps at least one admin" in response.content.decode()
    assert client.post(reverse("club-member-remove", args=["cafe", "ghost"])).status_code == 404
    # A member sees the list, without the admin's forms.
    body = client_of(people, "member").get(url).content.decode()
    assert "scorer" in body and "Add a member" not in body and "Change role" not in body


def test_invitations_are_shown_once_listed_and_revoked(people, public):
    client = client_of(people, "admin")
    url = reverse("club-invitations", args=["cafe"])
    response = client.post(url, {"role": "scorer", "max_uses": 0, "days": 3})
    assert response.status_code == 400 and "greater than or equal to 1" in response.content.decode()
    response = client.post(url, {"role": "scorer", "max_uses": 2, "days": 3})
    body = response.content.decode()
    assert response.status_code == 201 and response["Cache-Control"] == "no-store"
    code = re.search(r'class="invitation-code">([^<]+)<', body).group(1)
    invitation = Invitation.objects.get(club=public)
    assert invitation.hint == code[-4:] and f"?code={code}" in body
    listed = client.get(url).content.decode()
    assert code not in listed and f"…{invitation.hint}" in listed and "0 / 2" in listed and "open" in listed
    client.post(reverse("club-invitation-revoke", args=["cafe", invitation.pk]))
    invitation.refresh_from_db()
    assert invitation.revoked_at is not None and "revoked" in client.get(url).content.decode()
    # A revoked code no longer joins.
    response = client_of(people, "outsider").post(reverse("club-join", args=["cafe"]), {"code": code})
    assert response.status_code == 400 and "this invitation is not valid" in response.content.decode()


def test_asking_to_join_and_the_admin_deciding(people, public):
    outsider = client_of(people, "outsider")
    response = outsider.post(reverse("club-join", args=["cafe"]), {"message": "I play on Fridays"})
    assert response.status_code == 302
    assert "waiting for an admin" in outsider.get(reverse("club-join", args=["cafe"])).content.decode()
    admin = client_of(people, "admin")
    body = admin.get(reverse("club-requests", args=["cafe"])).content.decode()
    assert "I play on Fridays" in body and "Approve outsider" in body
    asked = JoinRequest.objects.get(club=public)
    admin.post(reverse("club-request-decide", args=["cafe", asked.pk]), {"decision": "approve"})
    assert clubs.membership_of(public, people["outsider"]).role == Role.MEMBER
    response = admin.post(
        reverse("club-request-decide", args=["cafe", asked.pk]), {"decision": "decline"}, follow=True
    )
    assert "already decided" in response.content.decode()


def test_a_request_is_declined(people, public):
    client_of(people, "outsider").post(reverse("club-join", args=["cafe"]), {})
    asked = JoinRequest.objects.get(club=public)
    client_of(people, "admin").post(
        reverse("club-request-decide", args=["cafe", asked.pk]), {"decision": "decline"}
    )
    asked.refresh_from_db()
    assert asked.approved is False and clubs.membership_of(public, people["outsider"]) is None


def test_a_private_club_cannot_be_asked_without_its_link(people, private):
    assert client_of(people, "outsider").post(reverse("club-join", args=["cercle"]), {}).status_code == 404
    assert not JoinRequest.objects.exists()
    bad = reverse("club-join", args=["cercle"]) + "?code=guessed"
    assert client_of(people, "outsider").get(bad).status_code == 404


def test_leaving_and_the_last_admin(people, public):
    member = client_of(people, "member")
    response = member.post(reverse("club-leave", args=["cafe"]))
    assert response.status_code == 302 and clubs.membership_of(public, people["member"]) is None
    response = client_of(people, "admin").post(reverse("club-leave", args=["cafe"]))
    assert response.status_code == 409 and "a club keeps at least one admin" in response.content.decode()


def test_the_full_flow_admin_invites_scorer_joins_and_starts_a_match(people, private, django_user_model):
    """In a private club: the invitation's link opens it to the one who holds it."""
    admin = client_of(people, "admin")
    body = admin.post(reverse("club-invitations", args=["cercle"]),
                      {"role": "scorer", "max_uses": 1, "days": 7}).content.decode()  # fmt: skip
    link = re.search(r'class="invitation-link" href="([^"]+)"', body).group(1)
    path = link.removeprefix("http://testserver")
    newcomer = django_user_model.objects.create_user("nina", password="a long pass phrase")
    client = Client()
    response = client.get(path)  # sign in (or sign up) first …
    assert response.status_code == 302 and response.url.startswith(reverse("account-invited"))
    client.force_login(newcomer)
    page = client.get(path)
    assert page.status_code == 200 and "Join Cercle" in page.content.decode()
    code = path.split("code=")[1]
    response = client.post(path, {"code": code})
    assert response.status_code == 302 and response.url == reverse("club-home", args=["cercle"])
    assert clubs.membership_of(private, newcomer).role == Role.SCORER
    # … then she starts a piquet match in the club, with two new players.
    form = client.get(reverse("match-new-game", args=["piquet"])).content.decode()
    assert 'value="cercle"' in form
    response = client.post(
        reverse("match-new-game", args=["piquet"]),
        {"club": "cercle", "new_0": "Luc", "new_1": "Max"},
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    match = Match.objects.get(club=private)
    assert [seat.player.name for seat in match.seats.order_by("position")] == ["Luc", "Max"]
    # The club's home shows it; an outsider finds neither.
    assert match.get_absolute_url() in client.get(reverse("club-home", args=["cercle"])).content.decode()
    assert client_of(people, "outsider").get(match.get_absolute_url()).status_code == 404
