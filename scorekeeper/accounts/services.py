"""Writes on accounts: the invitation a person signs up with, applied once his address is
verified, and the deletion of an account (HackSoft style: keyword-only ``<noun>_<verb>``).

The sign-up, sign-in, verification, reset and second-factor flows themselves are
django-allauth's (``adapter.py`` fits them to the site; docs/accounts.md)."""

from __future__ import annotations

from typing import Any

from allauth.account.models import EmailAddress
from allauth.mfa.models import Authenticator
from allauth.usersessions.models import UserSession
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Invitation, Membership
from scorekeeper.clubs.services import InvitationInvalid, LastAdmin, invitation_accept, member_remove
from scorekeeper.matches.models import Player
from scorekeeper.matches.personal_data import player_anonymise

from .models import PendingInvitation
from .signals import account_deleted


def pending_invitation_add(*, user: Any, invitation: Invitation) -> PendingInvitation:
    """``user`` signed up from ``invitation``'s link: he joins when his address is verified."""
    return PendingInvitation.objects.create(user=user, invitation=invitation)


def pending_invitations_apply(*, user: Any) -> list[Membership]:
    """Join the clubs ``user`` was invited to (his address is now verified). An invitation that
    can no longer be used (expired, revoked, used up meanwhile) is closed as refused."""
    joined = []
    for pending in PendingInvitation.objects.filter(
        user=user, applied_at=None, refused_at=None
    ).select_related("invitation__club"):
        try:
            joined.append(invitation_accept(invitation=pending.invitation, by=user))
        except InvitationInvalid:
            pending.refused_at = timezone.now()
            pending.save(update_fields=["refused_at"])
            continue
        pending.applied_at = timezone.now()
        pending.save(update_fields=["applied_at"])
    return joined


def account_delete(*, user: Any) -> None:
    """Close ``user``'s account at his own request: his player is anonymised as the clubs issue
    defines (his matches, hands and ratings stay, under "Player N (anonymised)"), his memberships
    end, and what the account held about him (name, email addresses, second factors, sessions)
    is erased; the API revokes his tokens. The row stays, inactive and nameless, so that the
    records that point at it (who recorded a hand, who confirmed it) keep their shape.

    Refused while he is the last admin of a club (``last_admin``: hand the club over first) or
    seated in a match in progress (``player_in_open_match``)."""
    with transaction.atomic():
        for membership in Membership.objects.filter(user=user, ended_at=None).select_related("club"):
            try:
                member_remove(club=membership.club, user=user, by=user)
            except LastAdmin as refused:  # the clubs' rule: here it names the club to hand over
                raise LastAdmin(
                    _("you are the last admin of %(club)s: make another member its admin first")
                    % {"club": membership.club.name}
                ) from refused
        player = Player.objects.filter(user=user).first()
        if player is not None:
            player_anonymise(player=player, by=None, reason="account deleted by its holder")
        EmailAddress.objects.filter(user=user).delete()
        Authenticator.objects.filter(user=user).delete()
        for session in UserSession.objects.filter(user=user):
            session.end()
        user.username = f"deleted-{user.pk}"
        user.first_name = user.last_name = user.email = ""
        user.is_active = user.is_staff = user.is_superuser = False
        user.set_unusable_password()
        user.save()
        # The API revokes his tokens (an inactive account's token is refused already).
        account_deleted.send(sender=type(user), user=user)
