"""Match.hand_count: the number of current hands, cached on the match row (see models.Match)."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Q, Subquery
from django.db.models.functions import Coalesce


def count_hands(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Hand = apps.get_model("matches", "Hand")
    current = (
        Hand.objects.filter(match=OuterRef("pk"))
        .filter(~Q(status="superseded"))
        .order_by()
        .values("match")
        .annotate(n=Count("pk"))
        .values("n")
    )
    Match.objects.update(hand_count=Coalesce(Subquery(current), 0))


class Migration(migrations.Migration):
    dependencies = [("matches", "0002_idempotency_key")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="hand_count",
            field=models.PositiveIntegerField(default=0, editable=False),
        ),
        migrations.RunPython(count_hands, migrations.RunPython.noop),
    ]
