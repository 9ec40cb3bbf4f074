"""A new account joins the home club (``settings.HOME_CLUB_NEW_ACCOUNT_ROLE``), so that on a
single-club site anyone who signs up may score, as before clubs; "" turns it off."""

from __future__ import annotations

from django.conf import settings
from django.db.models.signals import post_save
from django.dispatch import receiver

from .models import RANKS, Membership, home_club_id


@receiver(post_save, sender=settings.AUTH_USER_MODEL, dispatch_uid="clubs.new_account_joins_home")
def new_account_joins_home_club(sender, instance, created: bool, raw: bool = False, **kwargs) -> None:
    role = settings.HOME_CLUB_NEW_ACCOUNT_ROLE
    if not created or raw or role not in RANKS:
        return  # a fixture being loaded (raw) brings its own memberships
    Membership.objects.create(club_id=home_club_id(), user=instance, role=role)
