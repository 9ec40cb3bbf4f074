"""The displayed rating stored beside mu (``PlayerRating.rating``), and the boards' index on it.

The rows are derived data: the new column is filled here from each row's mu with the displayed
rating's mapping as the boards computed it until now (rounded in SQL), and every replay and
recompute writes it from then on.
"""

from django.db import migrations, models
from django.db.models import F, Value
from django.db.models.functions import Round


def fill_ratings(apps, schema_editor):
    from ratings import display
    from ratings.engine import Rater

    model = Rater.default()
    k = display.points_per_mu(model)
    rows = apps.get_model("ratings", "PlayerRating").objects.using(schema_editor.connection.alias)
    rows.update(rating=Round(Value(float(display.NEWCOMER)) + Value(k) * (F("mu") - Value(model.mu))))


class Migration(migrations.Migration):
    dependencies = [
        ("ratings", "0008_rating_event_confirm_kinds"),
    ]

    operations = [
        migrations.AddField(
            model_name="playerrating",
            name="rating",
            field=models.IntegerField(
                default=1500,
                help_text="The rating shown, in whole points: the boards' order.",
                verbose_name="displayed rating",
            ),
            preserve_default=False,
        ),
        migrations.RunPython(fill_ratings, migrations.RunPython.noop, elidable=True),
        migrations.RemoveIndex(model_name="playerrating", name="rating_leaderboard_idx"),
        migrations.AddIndex(
            model_name="playerrating",
            index=models.Index(
                fields=["pool", "-rating", "sigma", "player"],
                include=("matches", "last_played_at", "id"),
                name="rating_board_idx",
            ),
        ),
        migrations.AlterModelOptions(
            name="playerrating",
            options={
                "ordering": ["pool", "-rating", "sigma", "player"],
                "verbose_name": "player rating",
                "verbose_name_plural": "player ratings",
            },
        ),
    ]
