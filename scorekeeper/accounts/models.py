"""What a signed-in user chose for themselves: the language and the time zone of the pages."""

from __future__ import annotations

import zoneinfo
from functools import cache

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _


def validate_time_zone(value: str) -> None:
    if value and value not in available_time_zones():
        raise ValidationError(
            _("%(zone)s is not a time zone."), code="time_zone_unknown", params={"zone": value}
        )


@cache
def available_time_zones() -> frozenset[str]:
    """The IANA zone keys (read once: the system's tz database does not change while we run)."""
    return frozenset(zoneinfo.available_timezones())


class Preference(models.Model):
    """Blank means "not chosen": the page then follows the browser (see ``middleware``)."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="preference", verbose_name=_("user")
    )
    language = models.CharField(
        _("language"), max_length=8, blank=True, choices=settings.LANGUAGES,
        help_text=_("The language of the pages; blank: the browser's."),
    )  # fmt: skip
    time_zone = models.CharField(
        _("time zone"), max_length=64, blank=True, validators=[validate_time_zone],
        help_text=_("Times are shown in this zone; blank: the browser's, else UTC."),
    )  # fmt: skip

    class Meta:
        verbose_name = _("preference")
        verbose_name_plural = _("preferences")

    def __str__(self) -> str:
        return str(self.user)


class PendingInvitation(models.Model):
    """An invitation a person signed up with: applied (he joins the club in its role) once his
    email address is verified, not before; ``applied_at`` or ``refused_at`` closes it."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("user")
    )
    invitation = models.ForeignKey(
        "clubs.Invitation", on_delete=models.PROTECT, related_name="+", verbose_name=_("invitation")
    )
    created_at = models.DateTimeField(_("signed up at"), auto_now_add=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    #: The invitation could no longer be used when the address was verified (expired, revoked,
    #: used up): the account stays, outside the club.
    refused_at = models.DateTimeField(_("refused at"), null=True, blank=True)

    class Meta:
        ordering = ["created_at", "id"]
        verbose_name = _("invitation at sign-up")
        verbose_name_plural = _("invitations at sign-up")

    def __str__(self) -> str:
        return f"{self.user} · {self.invitation}"
