"""Match.seat_count: the number of seats, stored on the match row (see models.Match)."""

from django.db import migrations, models
from django.db.models import Count, OuterRef, Subquery
from django.db.models.functions import Coalesce


def count_seats(apps, schema_editor):
    Match = apps.get_model("matches", "Match")
    Seat = apps.get_model("matches", "Seat")
    seats = Seat.objects.filter(match=OuterRef("pk")).order_by().values("match").annotate(n=Count("pk"))
    Match.objects.update(seat_count=Coalesce(Subquery(seats.values("n")), 0))


class Migration(migrations.Migration):
    dependencies = [("matches", "0008_idempotency_forget_token_answers")]

    operations = [
        migrations.AddField(
            model_name="match",
            name="seat_count",
            field=models.PositiveSmallIntegerField(default=0, editable=False),
            preserve_default=False,
        ),
        migrations.RunPython(count_seats, migrations.RunPython.noop),
    ]
