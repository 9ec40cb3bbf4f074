"""Matches belong to a club: every existing match and player goes into the home club (made by
clubs 0002), so that a single-club site goes on as before. The column is added empty, filled,
then made required."""

import django.db.models.deletion
import scorekeeper.clubs.models
from django.conf import settings
from django.db import migrations, models


def everything_into_the_home_club(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    Match = apps.get_model("matches", "Match")
    Player = apps.get_model("matches", "Player")
    ClubPlayer = apps.get_model("matches", "ClubPlayer")
    home, _made = Club.objects.get_or_create(
        slug=settings.HOME_CLUB_SLUG, defaults={"name": settings.HOME_CLUB_NAME}
    )
    Match.objects.filter(club__isnull=True).update(club=home)
    on_roster = set(ClubPlayer.objects.filter(club=home).values_list("player_id", flat=True))
    ClubPlayer.objects.bulk_create(
        (
            ClubPlayer(club=home, player_id=pk)
            for pk in Player.objects.values_list("pk", flat=True)
            if pk not in on_roster
        ),
        batch_size=5000,
    )


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
        migrations.RunPython(everything_into_the_home_club, migrations.RunPython.noop),
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
