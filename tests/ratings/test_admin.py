"""The admin's recompute action starts a job over the selected pools; the job list shows its progress."""

import pytest
from django.urls import reverse

from ratings.models import RatingPool, RecomputeJob
from ratings.services import rating_events_process_all, rating_pool_recompute
from scorekeeper.matches.services import hand_record
from scorekeeper.outbox.models import OutboxMessage
from tests.fakes import hand

pytestmark = pytest.mark.django_db


def test_the_recompute_action_starts_a_job_whose_progress_the_job_list_shows(admin_client, tally_match, user):
    hand_record(match=tally_match, record=hand([10, 3]), by=user)
    rating_events_process_all()
    pool = RatingPool.objects.get(game="tally")

    response = admin_client.post(
        reverse("admin:ratings_ratingpool_changelist"),
        {"action": "recompute", "_selected_action": [pool.pk]},
        follow=True,
    )

    assert response.status_code == 200 and b"Recompute #" in response.content
    job = RecomputeJob.objects.get()
    assert (job.total, job.done, job.pools) == (1, 0, [pool.pk])
    assert OutboxMessage.objects.filter(task="ratings.pool_recompute", kwargs__job_id=job.pk).count() == 1
    assert b"0/1" in admin_client.get(reverse("admin:ratings_recomputejob_changelist")).content

    rating_pool_recompute(pool=pool, job=job)
    assert b"1/1" in admin_client.get(reverse("admin:ratings_recomputejob_changelist")).content
