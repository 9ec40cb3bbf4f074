"""The reads of clubs and memberships: who sees which club, in what role.

A private club is invisible to non-members: ``club_seen`` answers ``ClubNotFound`` (a 404)
for it exactly as for a club that does not exist, so that no answer tells it exists.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.db.models import Case, Count, Q, QuerySet, Value, When
from django.utils.translation import gettext as _

from scorekeeper.errors import NotFound

from .models import RANKS, Club, Membership


class ClubNotFound(NotFound):
    code = "club_not_found"


def is_site_wide(user: Any) -> bool:
    """Staff see and run every club."""
    return bool(getattr(user, "is_authenticated", False) and (user.is_staff or user.is_superuser))


def open_memberships(user: Any) -> QuerySet[Membership]:
    return Membership.objects.filter(user=user, ended_at__isnull=True)


def clubs_seen_by(user: Any) -> QuerySet | None:
    """The ids of the clubs ``user`` may see, as a subquery (``None``: every club, for staff)."""
    if is_site_wide(user):
        return None
    public = Q(public=True)
    if getattr(user, "is_authenticated", False):
        public |= Q(pk__in=open_memberships(user).values("club_id"))
    return Club.objects.filter(public).values("pk")


def club_list(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` may see, with their member counts, by name."""
    seen = clubs_seen_by(user)
    clubs = Club.objects.all() if seen is None else Club.objects.filter(pk__in=seen)
    return clubs.annotate(
        member_count=Count("memberships", filter=Q(memberships__ended_at__isnull=True))
    ).order_by("name", "id")


def club_seen(slug: str, user: Any) -> Club:
    """The club of ``slug`` if ``user`` may see it, else ``ClubNotFound`` (also when private)."""
    club = Club.objects.filter(slug=slug).first()
    if club is None or not (club.public or is_site_wide(user) or role_of(club, user)):
        raise ClubNotFound(_("no club %(slug)s") % {"slug": slug}, field="club")
    return club


def membership_of(club: Club | int | None, user: Any) -> Membership | None:
    if not getattr(user, "is_authenticated", False):
        return None
    return open_memberships(user).filter(club=club).first()


def role_of(club: Club | int | None, user: Any) -> str | None:
    membership = membership_of(club, user)
    return membership.role if membership else None


def has_role(club: Club | int | None, user: Any, role: str) -> bool:
    """Whether ``user`` holds ``role`` or a higher one in ``club`` (staff hold every role)."""
    if is_site_wide(user):
        return True
    held = role_of(club, user)
    return held is not None and RANKS[held] >= RANKS[role]


def club_members(club: Club) -> QuerySet[Membership]:
    """The club's current members, admins first, then by user name."""
    rank = Case(*[When(role=role, then=Value(-r)) for role, r in RANKS.items()])
    return (
        Membership.objects.filter(club=club, ended_at__isnull=True)
        .select_related("user")
        .order_by(rank, "user__username")
    )


def clubs_of(user: Any) -> QuerySet[Club]:
    """The clubs ``user`` belongs to, by name."""
    if not getattr(user, "is_authenticated", False):
        return Club.objects.none()
    return Club.objects.filter(pk__in=open_memberships(user).values("club_id")).order_by("name")


def invitation_digest(code: str) -> str:
    """Only the digest of an invitation's code is stored (as for claim codes and tokens)."""
    return hashlib.sha256(code.strip().encode()).hexdigest()
