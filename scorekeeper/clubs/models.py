"""A club, its memberships with roles, its invitations and join requests, and its audit log.

Nothing here is overwritten or deleted: a role change ends one membership row and opens
another, leaving ends one; an invitation is revoked by stamping it; a request is decided by
stamping it. The history of who could do what in a club stays readable.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _


class Role(models.TextChoices):
    """A member's role; each includes the ones before it (``RANKS``)."""

    MEMBER = "member", _("member")
    SCORER = "scorer", _("scorer")
    DIRECTOR = "director", _("director")
    ADMIN = "admin", _("admin")


#: member < scorer < director < admin: a role may do everything the roles below it may.
RANKS = {role.value: rank for rank, role in enumerate(Role)}


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100)
    slug = models.SlugField(
        _("slug"), max_length=50, unique=True, help_text=_("The club's name in its addresses.")
    )
    description = models.TextField(_("description"), blank=True)
    #: The languages the club plays in (codes of settings.LANGUAGES), first the main one.
    languages = models.JSONField(_("languages"), default=list, blank=True)
    time_zone = models.CharField(_("time zone"), max_length=64, default="UTC")
    #: The preset each game's matches start with in this club: {"piquet": "classic", …}.
    house_presets = models.JSONField(_("house presets"), default=dict, blank=True)
    #: The option overrides each game's matches start with: {"piquet": {"target": 100}, …}.
    house_options = models.JSONField(_("house options"), default=dict, blank=True)
    public = models.BooleanField(
        _("public"),
        default=True,
        help_text=_("A private club's matches, players, boards and events are seen by its members only."),
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )

    class Meta:
        ordering = ["name", "id"]
        verbose_name = _("club")
        verbose_name_plural = _("clubs")
        constraints = [models.CheckConstraint(condition=~Q(name=""), name="club_name_not_empty")]

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("club-home", args=[self.slug])


class Membership(models.Model):
    """One stretch of a user's membership in one role; ``ended_at`` closes it."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="memberships")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="memberships")
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    started_at = models.DateTimeField(_("since"), auto_now_add=True)
    ended_at = models.DateTimeField(_("until"), null=True, blank=True)
    by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    #: The invitation it came from, if any (an invitation's uses are counted from these).
    invitation = models.ForeignKey(
        "Invitation", null=True, blank=True, on_delete=models.PROTECT, related_name="memberships"
    )

    class Meta:
        ordering = ["club", "user", "-started_at"]
        verbose_name = _("membership")
        verbose_name_plural = _("memberships")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(ended_at__isnull=True), name="one_open_membership"
            )
        ]
        indexes = [
            models.Index(fields=["user", "club"], condition=Q(ended_at__isnull=True), name="open_membership")
        ]

    def __str__(self) -> str:
        return f"{self.user} · {self.club} · {self.role}"


class Invitation(models.Model):
    """A link or code that lets whoever holds it join in ``role``; only its digest is stored."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="invitations")
    digest = models.CharField(max_length=64, unique=True, editable=False)
    #: The code's last characters, to tell invitations apart in the list.
    hint = models.CharField(_("hint"), max_length=8, editable=False)
    role = models.CharField(_("role"), max_length=16, choices=Role.choices, default=Role.MEMBER)
    max_uses = models.PositiveIntegerField(_("uses allowed"), default=1)
    expires_at = models.DateTimeField(_("expires at"))
    revoked_at = models.DateTimeField(_("revoked at"), null=True, blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(_("created at"), auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.club} · …{self.hint}"


class JoinRequest(models.Model):
    """A user's request to join; an admin approves or declines it (``decided_at``)."""

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="join_requests")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    message = models.TextField(_("message"), blank=True)
    created_at = models.DateTimeField(_("asked at"), auto_now_add=True)
    decided_at = models.DateTimeField(_("decided at"), null=True, blank=True)
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    approved = models.BooleanField(_("approved"), null=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("join request")
        verbose_name_plural = _("join requests")
        constraints = [
            models.UniqueConstraint(
                fields=["club", "user"], condition=Q(decided_at__isnull=True), name="one_open_join_request"
            )
        ]

    def __str__(self) -> str:
        return f"{self.user} → {self.club}"


class ClubAuditEntry(models.Model):
    class Action(models.TextChoices):
        CREATE = "club_create", _("club created")
        UPDATE = "club_update", _("club settings changed")
        MEMBER_SET = "member_set", _("member added or role changed")
        MEMBER_REMOVE = "member_remove", _("member removed")
        JOIN = "join", _("joined")
        INVITATION_CREATE = "invitation_create", _("invitation made")
        INVITATION_REVOKE = "invitation_revoke", _("invitation revoked")
        REQUEST_CREATE = "request_create", _("asked to join")
        REQUEST_DECIDE = "request_decide", _("request decided")
        PLAYER_ANONYMISE = "player_anonymise", _("player anonymised")

    club = models.ForeignKey(Club, on_delete=models.PROTECT, related_name="audit")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    at = models.DateTimeField(_("at"), auto_now_add=True, db_index=True)
    action = models.CharField(_("action"), max_length=32, choices=Action.choices)
    payload = models.JSONField(_("details"), default=dict)

    class Meta:
        ordering = ["-at", "-id"]
        verbose_name = _("club audit entry")
        verbose_name_plural = _("club audit log")

    def __str__(self) -> str:
        return f"{self.at:%Y-%m-%d %H:%M} {self.club} {self.action}"


def home_club_id() -> int:
    """The club of a site's matches when none is named (``settings.HOME_CLUB_SLUG``), made on
    first use: a single-club site works as it did before clubs."""
    club, _made = Club.objects.get_or_create(
        slug=settings.HOME_CLUB_SLUG, defaults={"name": settings.HOME_CLUB_NAME}
    )
    return club.pk
