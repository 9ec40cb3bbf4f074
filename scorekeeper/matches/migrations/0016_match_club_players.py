"""Matches belong to a club, players to clubs' rosters: the column and the roster, empty.
Filled by 0017 and made required by 0018: three migrations, since PostgreSQL refuses to alter
a table in the transaction that wrote its rows ("pending trigger events")."""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("clubs", "0002_home_club"),
        ("matches", "0015_audit_actions_of_this_release"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.AddField(
            model_name="match",
            name="club",
            field=models.ForeignKey(
                null=True,
                on_delete=django.db.models.deletion.PROTECT,
                related_name="matches",
                to="clubs.club",
                verbose_name="club",
            ),
        ),
        migrations.CreateModel(
            name="ClubPlayer",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("guest", models.BooleanField(default=False, verbose_name="guest")),
                ("added_at", models.DateTimeField(auto_now_add=True, verbose_name="added at")),
                (
                    "added_by",
                    models.ForeignKey(
                        blank=True,
                        null=True,
                        on_delete=django.db.models.deletion.SET_NULL,
                        related_name="+",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                (
                    "club",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="roster",
                        to="clubs.club",
                        verbose_name="club",
                    ),
                ),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="clubs",
                        to="matches.player",
                        verbose_name="player",
                    ),
                ),
            ],
            options={
                "verbose_name": "club player",
                "verbose_name_plural": "club players",
                "constraints": [models.UniqueConstraint(fields=("club", "player", "guest"), name="club_player_once")],
            },
        ),
    ]
