"""Sign-up from a club's invitation: the link's code, once checked, is held in the visitor's
session (only the invitation's id; the code is never stored); the account made in that session
remembers the invitation (``PendingInvitation``), and joins the club in the invitation's role when
its email address is verified."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Invitation, Role
from scorekeeper.clubs.services import invitation_usable

from . import services

#: The session's note of the invitation whose link the visitor followed (an id).
INVITATION_SESSION_KEY = "signup_invitation"
#: Where to land after the verification that made him a member (the club's page).
JOINED_CLUB_SESSION_KEY = "joined_club_url"


def invitation_hold(request, invitation: Invitation) -> None:
    request.session[INVITATION_SESSION_KEY] = invitation.pk


def invitation_held(request) -> Invitation | None:
    """The usable invitation this visitor showed the code of, if any."""
    session = getattr(request, "session", None)
    pk = session.get(INVITATION_SESSION_KEY) if session is not None else None
    if pk is None:
        return None
    invitation = Invitation.objects.select_related("club").filter(pk=pk).first()
    return invitation if invitation is not None and invitation_usable(invitation) else None


def on_signed_up(sender: Any, request, user, **kwargs: Any) -> None:
    """allauth's ``user_signed_up``: the account remembers the invitation it came with."""
    invitation = invitation_held(request)
    if invitation is not None:
        services.pending_invitation_add(user=user, invitation=invitation)
        request.session.pop(INVITATION_SESSION_KEY, None)


def on_email_confirmed(sender: Any, request, email_address, **kwargs: Any) -> None:
    """allauth's ``email_confirmed``: the verified account joins the clubs it was invited to."""
    joined = services.pending_invitations_apply(user=email_address.user)
    if not joined or request is None:
        return
    membership = joined[0]
    request.session[JOINED_CLUB_SESSION_KEY] = membership.club.get_absolute_url()
    messages.success(
        request,
        _("You are a member of %(club)s (%(role)s).")
        % {"club": membership.club.name, "role": Role(membership.role).label},
    )
