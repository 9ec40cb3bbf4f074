"""A match's club is required from now on (0017 filled it); a new one defaults to the home
club."""

import django.db.models.deletion
import scorekeeper.clubs.models
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [("matches", "0017_everything_into_the_home_club")]

    operations = [
        migrations.AlterField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                default=scorekeeper.clubs.models.home_club_id,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="matches",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
    ]
