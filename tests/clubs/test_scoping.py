"""The guard: a viewer's scope keeps to the clubs he may see, and no scope at all is an error."""

from __future__ import annotations

import contextvars

import pytest
from django.contrib.auth.models import AnonymousUser
from django_scopes import ScopeError

from scorekeeper.clubs import services
from scorekeeper.clubs.models import Role
from scorekeeper.clubs.scoping import site_wide, viewer_scope
from scorekeeper.matches.models import Match
from scorekeeper.matches.services import match_create, player_create

pytestmark = pytest.mark.django_db


@pytest.fixture
def two_matches(tally, club, private_club, admin_user):
    paula = private_club.memberships.get().user
    public = match_create(
        game="tally", club=club, by=admin_user,
        players=[player_create(name=n, club=club, by=admin_user) for n in ("Ada", "Bea")],
    )  # fmt: skip
    private = match_create(
        game="tally", club=private_club, by=paula,
        players=[player_create(name=n, club=private_club, by=paula) for n in ("Cy", "Di")],
    )  # fmt: skip
    return public, private


def _seen(user) -> set[int]:
    with viewer_scope(user):
        return set(Match.objects.values_list("pk", flat=True))


def test_outsiders_see_the_public_club_only(two_matches, make_user):
    public, _private = two_matches
    assert _seen(AnonymousUser()) == {public.pk}
    assert _seen(make_user("outsider")) == {public.pk}


def test_a_member_sees_his_private_club_and_staff_see_all(two_matches, private_club, make_user):
    public, private = two_matches
    member = make_user("mo")
    services.member_set(club=private_club, user=member, role=Role.MEMBER, by=None)
    assert _seen(member) == {public.pk, private.pk}
    assert _seen(make_user("root", is_staff=True)) == {public.pk, private.pk}


def test_a_membership_that_ended_sees_no_more(two_matches, private_club, make_user):
    public, _private = two_matches
    member = make_user("mo")
    services.member_set(club=private_club, user=member, role=Role.MEMBER, by=None)
    services.member_remove(club=private_club, user=member, by=member)
    assert _seen(member) == {public.pk}


def test_a_private_match_is_not_found_by_id_in_an_outsiders_scope(two_matches):
    _public, private = two_matches
    with viewer_scope(AnonymousUser()), pytest.raises(Match.DoesNotExist):
        Match.objects.get(pk=private.pk)


def test_an_unscoped_query_fails_loudly(two_matches):
    def query_without_a_scope():
        with pytest.raises(ScopeError):
            list(Match.objects.all())
        with pytest.raises(ScopeError):
            Match.objects.filter(pk=1).exists()

    # A fresh context: what a thread or a script that declared nothing runs in.
    contextvars.Context().run(query_without_a_scope)


def test_site_wide_is_declared_and_sees_everything(two_matches):
    def declared():
        with site_wide():
            return Match.objects.count()

    assert contextvars.Context().run(declared) == 2


def test_related_objects_are_read_without_the_guard(two_matches):
    _public, private = two_matches
    seat = private.seats.first()
    with viewer_scope(AnonymousUser()):
        assert seat.match.pk == private.pk  # the base manager: the guard is on entry points


def test_an_eager_task_runs_site_wide_inside_a_viewers_scope(two_matches, settings):
    from celery import shared_task

    @shared_task(name="tests.count_matches")
    def count_matches() -> int:
        return Match.objects.count()

    with viewer_scope(AnonymousUser()):
        assert count_matches.apply().get() == 2
        assert Match.objects.count() == 1  # and the request's scope is back after it
