"""The admin shows every model; history rows cannot be changed there."""

import pytest
from django.contrib import admin
from django.urls import reverse

from scorekeeper.matches.models import AuditEntry, Hand
from scorekeeper.matches.services import hand_record
from tests.fakes import hand

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(admin_client, tally_match, user):
    hand_record(match=tally_match, record=hand([3, 1]), by=user)
    return admin_client


@pytest.mark.parametrize("model", ["player", "match", "seat", "hand", "auditentry"])
def test_every_match_model_has_an_admin_page(staff, model):
    assert staff.get(reverse(f"admin:matches_{model}_changelist")).status_code == 200


@pytest.mark.parametrize(
    "model", ["ratingpool", "playerrating", "ratinghistory", "ratingevent", "recomputejob"]
)
def test_every_ratings_model_has_an_admin_page(staff, model):
    assert staff.get(reverse(f"admin:ratings_{model}_changelist")).status_code == 200


def test_a_match_page_in_the_admin_shows_its_hands(staff, tally_match):
    assert staff.get(reverse("admin:matches_match_change", args=[tally_match.pk])).status_code == 200


@pytest.mark.parametrize("model", [Hand, AuditEntry])
def test_history_rows_are_read_only_in_the_admin(rf, admin_user, model):
    model_admin = admin.site._registry[model]
    request = rf.get("/")
    request.user = admin_user
    assert not model_admin.has_add_permission(request)
    assert not model_admin.has_change_permission(request)
    assert not model_admin.has_delete_permission(request)


def test_the_recompute_action_queues_one_task_per_match(
    staff, tally_match, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=False) as callbacks:
        response = staff.post(
            reverse("admin:matches_match_changelist"),
            {"action": "recompute", "_selected_action": [tally_match.pk]},
        )
    assert response.status_code == 302
    assert len(callbacks) == 1


def test_the_merge_action_asks_for_the_real_player_then_merges(admin_client, make_players, admin_user):
    from scorekeeper.matches.models import Player

    ada, ada_s, bea = make_players("Ada", "Ada S.", "Bea")
    changelist = reverse("admin:matches_player_changelist")
    page = admin_client.post(changelist, {"action": "merge", "_selected_action": [ada_s.pk]})
    assert page.status_code == 200 and b"Merge into" in page.content
    response = admin_client.post(
        changelist, {"action": "merge", "_selected_action": [ada_s.pk], "apply": "1", "into": ada.pk}
    )
    assert response.status_code == 302
    assert Player.objects.get(pk=ada_s.pk).merged_into == ada
    assert AuditEntry.objects.filter(action="player_merge", actor=admin_user).exists()
    again = admin_client.post(
        changelist,
        {"action": "merge", "_selected_action": [ada_s.pk], "apply": "1", "into": bea.pk},
        follow=True,
    )
    assert "already merged" in again.content.decode()
    assert Player.objects.get(pk=ada_s.pk).merged_into == ada
