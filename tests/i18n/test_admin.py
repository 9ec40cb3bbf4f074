"""The admin in the user's language: the models' names, the statuses, an action."""

from __future__ import annotations

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(client, django_user_model):
    admin = django_user_model.objects.create_superuser("root", password="pw")
    client.force_login(admin)
    return client


def test_the_admin_names_the_models_and_statuses_in_the_language(staff, tally_match):
    index = staff.get(reverse("admin:index"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Parties" in index and "Joueurs" in index and "Donnes" in index

    changes = staff.get(reverse("admin:matches_match_changelist"), HTTP_ACCEPT_LANGUAGE="ru").content.decode()
    assert "Пересчитать выбранные партии (фоновая задача)" in changes
    assert "идёт" in changes  # the status "in progress"
