"""Clubs for the clubs' tests: one public, one private, each with an admin."""

from __future__ import annotations

import pytest


@pytest.fixture
def make_user(django_user_model):
    def make(name: str, **fields):
        return django_user_model.objects.create_user(name, **fields)

    return make


@pytest.fixture
def admin_user(make_user):
    return make_user("alice")


@pytest.fixture
def club(admin_user):
    from scorekeeper.clubs.services import club_create

    return club_create(by=admin_user, name="Cercle du Piquet", slug="cercle")


@pytest.fixture
def private_club(make_user):
    from scorekeeper.clubs.services import club_create

    return club_create(by=make_user("paula"), name="Back Room", slug="back-room", public=False)
