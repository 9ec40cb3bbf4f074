"""Every existing match and player goes into the home club (made by clubs 0002), so that a
single-club site goes on as before."""

from django.conf import settings
from django.db import migrations


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
    dependencies = [("matches", "0016_match_club_players")]

    operations = [migrations.RunPython(everything_into_the_home_club, migrations.RunPython.noop)]
