"""Matches finished before ratings existed get their finish event, timed by their last hand:
the pool's order is the time of a match's first rating event. Left pending, so the first
event processed in their pool (or a recompute) rates them."""

from django.db import migrations
from django.db.models import Max


def backfill(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Hand = apps.get_model("matches", "Hand")
    RatingEvent = apps.get_model("ratings", "RatingEvent")
    finished = Match.objects.filter(status="finished").exclude(rating_events__isnull=False)
    last_hand = dict(
        Hand.objects.filter(match__in=finished)
        .exclude(status="superseded")
        .values("match_id")
        .annotate(at=Max("recorded_at"))
        .values_list("match_id", "at")
    )
    RatingEvent.objects.bulk_create(
        [
            RatingEvent(match_id=pk, game=game, kind="finish", at=last_hand.get(pk) or updated)
            for pk, game, updated in finished.values_list("pk", "game", "updated_at").iterator()
        ],
        batch_size=1000,
    )


class Migration(migrations.Migration):
    dependencies = [("ratings", "0002_ratings_pools_history_events"), ("matches", "0005_match_fillfactor")]
    operations = [migrations.RunPython(backfill, migrations.RunPython.noop)]
