"""The home club (settings.HOME_CLUB_SLUG) and every existing account in it: a site from before
clubs keeps working as one club, its users scoring as they did (HOME_CLUB_NEW_ACCOUNT_ROLE)."""

from django.conf import settings
from django.db import migrations


def home_club_with_every_account(apps, schema_editor):
    Club = apps.get_model("clubs", "Club")
    Membership = apps.get_model("clubs", "Membership")
    User = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    club, _made = Club.objects.get_or_create(slug=settings.HOME_CLUB_SLUG, defaults={"name": settings.HOME_CLUB_NAME})
    role = settings.HOME_CLUB_NEW_ACCOUNT_ROLE
    if role:
        member = set(Membership.objects.filter(club=club, ended_at__isnull=True).values_list("user_id", flat=True))
        Membership.objects.bulk_create(
            Membership(club=club, user_id=pk, role=role)
            for pk in User.objects.exclude(pk__in=member).values_list("pk", flat=True)
        )


class Migration(migrations.Migration):
    dependencies = [("clubs", "0001_initial"), migrations.swappable_dependency(settings.AUTH_USER_MODEL)]
    operations = [migrations.RunPython(home_club_with_every_account, migrations.RunPython.noop)]
