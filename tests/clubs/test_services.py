"""The clubs' writes: making a club, roles, joining by code or by request, the last admin."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from scorekeeper.clubs import selectors, services
from scorekeeper.clubs.models import ClubAuditEntry, Invitation, JoinRequest, Membership, Role
from scorekeeper.errors import Conflict, Invalid, NotAllowed, NotSignedIn

pytestmark = pytest.mark.django_db


def test_the_maker_of_a_club_is_its_admin_and_it_is_audited(club, admin_user):
    assert selectors.role_of(club, admin_user) == Role.ADMIN
    assert club.slug == "cercle" and club.public
    entry = ClubAuditEntry.objects.get(club=club)
    assert entry.action == "club_create" and entry.actor == admin_user


def test_a_slug_is_made_from_the_name_and_is_unique(admin_user):
    made = services.club_create(by=admin_user, name="Le Cul du Mardi")
    assert made.slug == "le-cul-du-mardi"
    with pytest.raises(Conflict) as taken:
        services.club_create(by=admin_user, name="Other", slug="le-cul-du-mardi")
    assert taken.value.code == "slug_taken" and taken.value.field == "slug"


def test_a_slug_left_out_is_never_refused(admin_user):
    """The same name again takes the next free slug; a name without ASCII letters, "club"."""
    assert services.club_create(by=admin_user, name="Le Cul du Mardi").slug == "le-cul-du-mardi"
    assert services.club_create(by=admin_user, name="Le cul du mardi").slug == "le-cul-du-mardi-2"
    assert services.club_create(by=admin_user, name="Клуб пикета").slug == "club"
    assert services.club_create(by=admin_user, name="Клуб «Жопа»").slug == "club-2"


@pytest.mark.parametrize(
    ("fields", "code", "field"),
    [
        ({"name": ""}, "name_missing", "name"),
        ({"name": "A", "slug": "Not A Slug"}, "slug_invalid", "slug"),
        ({"name": "A", "languages": ["xx"]}, "language_unknown", "languages"),
        ({"name": "A", "time_zone": "Mars/Olympus"}, "time_zone_unknown", "time_zone"),
        ({"name": "A", "public": "yes"}, "public_invalid", "public"),
        ({"name": "A", "house_presets": {"chess": "classic"}}, "game_unknown", "house_presets.chess"),
        (
            {"name": "A", "house_options": {"piquet": {"no_such_option": 1}}},
            "house_rules_invalid",
            "house_options.piquet",
        ),
    ],
)
def test_a_club_refuses_bad_settings_with_a_code_and_a_field(admin_user, fields, code, field):
    with pytest.raises(Invalid) as refused:
        services.club_create(by=admin_user, **fields)
    assert (refused.value.code, refused.value.field) == (code, field)


def test_anonymous_cannot_make_a_club():
    from django.contrib.auth.models import AnonymousUser

    with pytest.raises(NotSignedIn):
        services.club_create(by=AnonymousUser(), name="Nobody's")


def test_only_an_admin_changes_settings_and_the_audit_keeps_the_old_values(club, admin_user, make_user):
    member = make_user("max")
    services.member_set(club=club, user=member, role=Role.DIRECTOR, by=admin_user)
    with pytest.raises(NotAllowed) as refused:
        services.club_update(club=club, by=member, public=False)
    assert refused.value.code == "club_role_required"
    services.club_update(
        club=club, by=admin_user, public=False, time_zone="Europe/Paris", languages=["fr", "en"]
    )
    club.refresh_from_db()
    assert (club.public, club.time_zone, club.languages) == (False, "Europe/Paris", ["fr", "en"])
    entry = ClubAuditEntry.objects.filter(club=club, action="club_update").get()
    assert entry.payload["before"]["public"] is True and entry.payload["after"]["public"] is False


def test_a_role_change_ends_one_row_and_opens_another(club, admin_user, make_user):
    scorer = make_user("sam")
    first = services.member_set(club=club, user=scorer, role=Role.SCORER, by=admin_user)
    second = services.member_set(club=club, user=scorer, role=Role.DIRECTOR, by=admin_user)
    first.refresh_from_db()
    assert first.ended_at is not None and second.ended_at is None
    assert selectors.role_of(club, scorer) == Role.DIRECTOR
    assert Membership.objects.filter(club=club, user=scorer).count() == 2


def test_roles_include_the_ones_below(club, admin_user, make_user):
    director = make_user("dora")
    services.member_set(club=club, user=director, role=Role.DIRECTOR, by=admin_user)
    assert selectors.has_role(club, director, Role.SCORER)
    assert selectors.has_role(club, director, Role.MEMBER)
    assert not selectors.has_role(club, director, Role.ADMIN)


def test_staff_hold_every_role_in_every_club(club, make_user):
    staff = make_user("root", is_staff=True)
    assert selectors.has_role(club, staff, Role.ADMIN)


def test_the_last_admin_can_neither_leave_nor_step_down(club, admin_user, make_user):
    with pytest.raises(Conflict) as last:
        services.member_remove(club=club, user=admin_user, by=admin_user)
    assert last.value.code == "last_admin"
    with pytest.raises(Conflict):
        services.member_set(club=club, user=admin_user, role=Role.MEMBER, by=admin_user)
    other = make_user("otto")
    services.member_set(club=club, user=other, role=Role.ADMIN, by=admin_user)
    services.member_remove(club=club, user=admin_user, by=admin_user)
    assert selectors.role_of(club, admin_user) is None


def test_a_member_leaves_but_only_an_admin_removes_others(club, admin_user, make_user):
    one, two = make_user("one"), make_user("two")
    for user in (one, two):
        services.member_set(club=club, user=user, role=Role.MEMBER, by=admin_user)
    with pytest.raises(NotAllowed):
        services.member_remove(club=club, user=two, by=one)
    services.member_remove(club=club, user=one, by=one)
    assert selectors.role_of(club, one) is None
    assert Membership.objects.filter(club=club, user=one).get().ended_at is not None  # kept


def test_an_invitation_gives_its_role_until_used_up(club, admin_user, make_user):
    invitation, code = services.invitation_create(club=club, by=admin_user, role=Role.SCORER, max_uses=1)
    assert invitation.digest != code and invitation.hint == code[-4:]
    joiner = make_user("jo")
    membership = services.club_join(club=club, by=joiner, code=code)
    assert isinstance(membership, Membership) and membership.role == Role.SCORER
    assert services.club_join(club=club, by=joiner, code=code) == membership  # already in: as is
    with pytest.raises(Invalid) as used_up:
        services.club_join(club=club, by=make_user("late"), code=code)
    assert used_up.value.code == "invitation_invalid"


def test_an_expired_revoked_or_unknown_code_is_one_and_the_same_refusal(club, admin_user, make_user):
    expired, expired_code = services.invitation_create(club=club, by=admin_user)
    Invitation.objects.filter(pk=expired.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    revoked, revoked_code = services.invitation_create(club=club, by=admin_user)
    services.invitation_revoke(invitation=revoked, by=admin_user)
    for code in (expired_code, revoked_code, "no-such-code"):
        with pytest.raises(Invalid) as refused:
            services.club_join(club=club, by=make_user(f"u{len(code)}{code[:3]}"), code=code)
        assert refused.value.code == "invitation_invalid"


def test_a_code_of_another_club_does_not_open_this_one(club, private_club, admin_user, make_user):
    _invitation, code = services.invitation_create(club=club, by=admin_user)
    with pytest.raises(Invalid):
        services.club_join(club=private_club, by=make_user("eve"), code=code)


def test_invitation_limits_are_checked(club, admin_user):
    with pytest.raises(Invalid) as refused:
        services.invitation_create(club=club, by=admin_user, max_uses=0)
    assert refused.value.code == "max_uses_invalid"
    with pytest.raises(Invalid) as refused:
        services.invitation_create(club=club, by=admin_user, role="king")
    assert refused.value.code == "role_unknown"


def test_joining_without_a_code_asks_and_an_admin_decides(club, admin_user, make_user):
    asker = make_user("asker")
    request = services.club_join(club=club, by=asker, message="I play on Tuesdays")
    assert isinstance(request, JoinRequest) and selectors.role_of(club, asker) is None
    assert services.club_join(club=club, by=asker) == request  # asked once
    with pytest.raises(NotAllowed):
        services.join_request_decide(request=request, by=asker, approve=True)
    services.join_request_decide(request=request, by=admin_user, approve=True)
    assert selectors.role_of(club, asker) == Role.MEMBER
    with pytest.raises(Conflict) as decided:
        services.join_request_decide(request=request, by=admin_user, approve=False)
    assert decided.value.code == "request_decided"


def test_a_declined_request_leaves_no_membership(club, admin_user, make_user):
    asker = make_user("asker")
    request = services.club_join(club=club, by=asker)
    services.join_request_decide(request=request, by=admin_user, approve=False)
    assert selectors.role_of(club, asker) is None


def test_a_new_account_joins_the_home_club_as_a_scorer(make_user, settings):
    user = make_user("newcomer")
    assert selectors.role_of(services.home_club(), user) == settings.HOME_CLUB_NEW_ACCOUNT_ROLE == "scorer"


def test_no_home_membership_when_the_setting_is_empty(make_user, settings):
    settings.HOME_CLUB_NEW_ACCOUNT_ROLE = ""
    user = make_user("loner")
    assert selectors.role_of(services.home_club(), user) is None
