"""Every write to clubs: settings, members and roles, invitations, joining, requests.

Each runs in one transaction, checks the caller's role first (``by=None`` is the system and
skips it; staff hold every role) and writes a ``ClubAuditEntry``. Nothing is overwritten:
a role change ends the membership row and opens a new one.
"""

from __future__ import annotations

import secrets
import zoneinfo
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from scorekeeper.errors import Conflict, Invalid, NotAllowed, NotFound, NotSignedIn
from scorekeeper.rules import OptionsInvalid, UnknownGame, find_ruleset

from .models import RANKS, Club, ClubAuditEntry, Invitation, JoinRequest, Membership, Role, home_club_id
from .selectors import has_role, invitation_digest, membership_of

#: What a club's settings may change (``club_update``), with their defaults for ``club_create``.
SETTINGS: dict[str, Any] = {
    "description": "",
    "languages": [],
    "time_zone": "UTC",
    "house_presets": {},
    "house_options": {},
    "public": True,
}
INVITATION_DAYS = 14
INVITATION_MAX_USES = 1000


class RoleRequired(NotAllowed):
    code = "club_role_required"


class LastAdmin(Conflict):
    code = "last_admin"


class InvitationInvalid(Invalid):
    """An unknown, expired, revoked or used-up invitation code: one answer for all of them."""

    code = "invitation_invalid"


def home_club() -> Club:
    return Club.objects.get(pk=home_club_id())


def require_role(club: Club, by: Any, role: str) -> None:
    """Refuse unless ``by`` holds ``role`` (or a higher one) in ``club``."""
    if by is None:
        return
    if not getattr(by, "is_authenticated", False):
        raise NotSignedIn(_("sign in first"))
    if not has_role(club, by, role):
        raise RoleRequired(
            _("this takes the %(role)s role in %(club)s") % {"role": Role(role).label, "club": club.name},
            field="club",
            role=role,
        )


# -- a club and its settings ---------------------------------------------------------------
def club_create(*, by: Any, name: str, slug: str = "", **fields: Any) -> Club:
    """A new club; its maker is its first admin. Any signed-in user may make one."""
    if by is not None and not getattr(by, "is_authenticated", False):
        raise NotSignedIn(_("sign in to make a club"))
    values = _valid_settings({**SETTINGS, **fields})
    name = _valid_name(name)
    slug = _valid_slug(slug) if slug else _slug_from(name)
    try:
        with transaction.atomic():
            club = Club.objects.create(name=name, slug=slug, created_by=by, **values)
            if by is not None:
                Membership.objects.create(club=club, user=by, role=Role.ADMIN, by=by)
            _audit(club, by, ClubAuditEntry.Action.CREATE, {"name": name, "slug": slug, **values})
    except IntegrityError:
        raise _slug_taken(slug) from None
    return club


def club_update(*, club: Club, by: Any, **fields: Any) -> Club:
    """Change a club's name or settings (its admins); the audit keeps what each was before."""
    require_role(club, by, Role.ADMIN)
    unknown = set(fields) - set(SETTINGS) - {"name"}
    if unknown:
        field = sorted(unknown)[0]
        raise Invalid(_("%(field)s cannot be changed") % {"field": field}, field=field, code="field_unknown")
    changes = _valid_settings(fields)
    if "name" in fields:
        changes["name"] = _valid_name(fields["name"])
    with transaction.atomic():
        club = Club.objects.select_for_update().get(pk=club.pk)
        before = {field: getattr(club, field) for field in changes}
        for field, value in changes.items():
            setattr(club, field, value)
        club.save(update_fields=list(changes) or None)
        _audit(club, by, ClubAuditEntry.Action.UPDATE, {"before": before, "after": changes})
    return club


# -- members -------------------------------------------------------------------------------
def member_set(*, club: Club, user: Any, role: str, by: Any) -> Membership:
    """Add ``user`` in ``role``, or change his role (its admins). The last admin stays one."""
    require_role(club, by, Role.ADMIN)
    role = _valid_role(role)
    with transaction.atomic():
        _lock(club)
        current = membership_of(club, user)
        if current is not None and current.role == role:
            return current
        if current is not None and current.role == Role.ADMIN:
            _refuse_last_admin(club, user)
        membership = _membership_open(club, user, role, by=by, ending=current)
        _audit(club, by, ClubAuditEntry.Action.MEMBER_SET, {"user": user.pk, "role": role})
    return membership


def member_remove(*, club: Club, user: Any, by: Any) -> None:
    """End ``user``'s membership: an admin removes a member, a member leaves."""
    if by is None or getattr(by, "pk", None) != user.pk:
        require_role(club, by, Role.ADMIN)
    with transaction.atomic():
        _lock(club)
        current = membership_of(club, user)
        if current is None:
            raise NotFound(
                _("%(user)s is not a member") % {"user": user.get_username()}, code="member_not_found"
            )
        if current.role == Role.ADMIN:
            _refuse_last_admin(club, user)
        current.ended_at = timezone.now()
        current.save(update_fields=["ended_at"])
        _audit(club, by, ClubAuditEntry.Action.MEMBER_REMOVE, {"user": user.pk, "role": current.role})


def user_named(username: str) -> Any:
    """The account of ``username``, for the member forms and the API."""
    user = get_user_model().objects.filter(username=(username or "").strip()).first()
    if user is None:
        raise Invalid(
            _("no account named %(name)s") % {"name": username}, field="username", code="user_unknown"
        )
    return user


# -- joining -------------------------------------------------------------------------------
def invitation_create(
    *, club: Club, by: Any, role: str = Role.MEMBER, max_uses: int = 1, days: int = INVITATION_DAYS
) -> tuple[Invitation, str]:
    """A new invitation and its code (shown once: only its digest is kept)."""
    require_role(club, by, Role.ADMIN)
    role = _valid_role(role)
    if (
        not isinstance(max_uses, int)
        or isinstance(max_uses, bool)
        or not 1 <= max_uses <= INVITATION_MAX_USES
    ):
        raise Invalid(
            _("an invitation is good for 1 to %(most)s uses") % {"most": INVITATION_MAX_USES},
            field="max_uses",
            code="max_uses_invalid",
        )
    if not isinstance(days, int) or isinstance(days, bool) or not 1 <= days <= 365:
        raise Invalid(_("an invitation lasts 1 to 365 days"), field="days", code="days_invalid")
    code = secrets.token_urlsafe(12)
    with transaction.atomic():
        invitation = Invitation.objects.create(
            club=club,
            digest=invitation_digest(code),
            hint=code[-4:],
            role=role,
            max_uses=max_uses,
            expires_at=timezone.now() + timedelta(days=days),
            created_by=by,
        )
        _audit(club, by, ClubAuditEntry.Action.INVITATION_CREATE, {"invitation": invitation.pk, "role": role})
    return invitation, code


def invitation_revoke(*, invitation: Invitation, by: Any) -> Invitation:
    require_role(invitation.club, by, Role.ADMIN)
    with transaction.atomic():
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        if invitation.revoked_at is None:
            invitation.revoked_at = timezone.now()
            invitation.save(update_fields=["revoked_at"])
            _audit(
                invitation.club, by, ClubAuditEntry.Action.INVITATION_REVOKE, {"invitation": invitation.pk}
            )
    return invitation


def club_join(*, club: Club, by: Any, code: str = "", message: str = "") -> Membership | JoinRequest:
    """Join with an invitation's ``code``, or without one ask to join (an admin decides).

    A member who joins again keeps his membership (and role) as it is."""
    if not getattr(by, "is_authenticated", False):
        raise NotSignedIn(_("sign in to join a club"))
    with transaction.atomic():
        _lock(club)
        current = membership_of(club, by)
        if current is not None:
            return current
        if not (code or "").strip():
            return _join_request(club, by, message)
        invitation = (
            Invitation.objects.select_for_update().filter(club=club, digest=invitation_digest(code)).first()
        )
        return _join_invited(club, by, invitation)


def invitation_accept(*, invitation: Invitation, by: Any) -> Membership:
    """Join the club of an ``invitation`` whose code ``by`` showed earlier: an account made from
    the invitation's link joins once its email address is verified (scorekeeper/accounts)."""
    with transaction.atomic():
        _lock(invitation.club)
        current = membership_of(invitation.club, by)
        if current is not None:
            return current
        invitation = Invitation.objects.select_for_update().get(pk=invitation.pk)
        return _join_invited(invitation.club, by, invitation)


def _join_invited(club: Club, by: Any, invitation: Invitation | None) -> Membership:
    if invitation is None or not invitation_usable(invitation):
        raise _invitation_invalid()
    membership = _membership_open(club, by, invitation.role, by=invitation.created_by, invitation=invitation)
    _audit(club, by, ClubAuditEntry.Action.JOIN, {"invitation": invitation.pk, "role": invitation.role})
    return membership


def _invitation_invalid() -> InvitationInvalid:
    return InvitationInvalid(
        _("this invitation is not valid: it may have expired or been used up"), field="code"
    )


def invitation_usable(invitation: Invitation) -> bool:
    return (
        invitation.revoked_at is None
        and invitation.expires_at > timezone.now()
        and invitation.memberships.count() < invitation.max_uses
    )


def join_request_decide(*, request: JoinRequest, by: Any, approve: bool) -> JoinRequest:
    """An admin approves (the user joins as a member) or declines a request to join."""
    require_role(request.club, by, Role.ADMIN)
    with transaction.atomic():
        _lock(request.club)
        request = JoinRequest.objects.select_for_update().get(pk=request.pk)
        if request.decided_at is not None:
            raise Conflict(_("this request was already decided"), code="request_decided")
        request.decided_at, request.decided_by, request.approved = timezone.now(), by, bool(approve)
        request.save(update_fields=["decided_at", "decided_by", "approved"])
        if approve and membership_of(request.club, request.user) is None:
            _membership_open(request.club, request.user, Role.MEMBER, by=by)
        _audit(
            request.club,
            by,
            ClubAuditEntry.Action.REQUEST_DECIDE,
            {"user": request.user_id, "approved": approve},
        )
    return request


# -- helpers -------------------------------------------------------------------------------
def _join_request(club: Club, user: Any, message: str) -> JoinRequest:
    open_request = JoinRequest.objects.filter(club=club, user=user, decided_at__isnull=True).first()
    if open_request is not None:
        return open_request
    request = JoinRequest.objects.create(club=club, user=user, message=(message or "").strip()[:2000])
    _audit(club, user, ClubAuditEntry.Action.REQUEST_CREATE, {"user": user.pk})
    return request


def _membership_open(
    club: Club, user: Any, role: str, *, by: Any, ending: Membership | None = None, **extra: Any
) -> Membership:
    if ending is not None:
        ending.ended_at = timezone.now()
        ending.save(update_fields=["ended_at"])
    return Membership.objects.create(club=club, user=user, role=role, by=by, **extra)


def _refuse_last_admin(club: Club, user: Any) -> None:
    others = Membership.objects.filter(club=club, role=Role.ADMIN, ended_at__isnull=True).exclude(user=user)
    if not others.exists():
        raise LastAdmin(_("a club keeps at least one admin: name another admin first"), field="role")


def _lock(club: Club) -> None:
    """Membership changes of one club run one at a time (the last-admin rule reads the others)."""
    Club.objects.select_for_update().filter(pk=club.pk).first()


def _valid_name(name: Any) -> str:
    name = name.strip() if isinstance(name, str) else ""
    if not name or len(name) > 100:
        raise Invalid(_("a club needs a name of at most 100 characters"), field="name", code="name_missing")
    return name


def _valid_slug(slug: Any) -> str:
    if not isinstance(slug, str) or not slug or slug != slugify(slug) or len(slug) > 50:
        raise Invalid(
            _("a club's slug is 1 to 50 lowercase letters, digits and hyphens"),
            field="slug",
            code="slug_invalid",
        )
    if Club.objects.filter(slug=slug).exists():
        raise _slug_taken(slug)
    return slug


def _slug_from(name: str) -> str:
    """A free slug made from ``name``: its ASCII letters and digits ("club" when it has none, as a
    name in Cyrillic), then -2, -3 … while one is taken. Only a slug given is ever refused."""
    base = slugify(name)[:44].strip("-_") or "club"
    taken = set(Club.objects.filter(slug__startswith=base).values_list("slug", flat=True))
    return next(
        candidate
        for candidate in (base if n == 1 else f"{base}-{n}" for n in range(1, len(taken) + 2))
        if candidate not in taken
    )


def _slug_taken(slug: str) -> Conflict:
    return Conflict(_("the slug %(slug)s is taken") % {"slug": slug}, field="slug", code="slug_taken")


def _valid_role(role: Any) -> str:
    if role not in RANKS:
        raise Invalid(
            _("a role is one of %(roles)s") % {"roles": ", ".join(RANKS)}, field="role", code="role_unknown"
        )
    return str(role)


def _valid_settings(fields: dict[str, Any]) -> dict[str, Any]:
    """The settings among ``fields``, checked (each refusal names its field)."""
    values: dict[str, Any] = {}
    if "description" in fields:
        if not isinstance(fields["description"], str):
            raise Invalid(_("a description is text"), field="description", code="description_invalid")
        values["description"] = fields["description"].strip()
    if "public" in fields:
        if not isinstance(fields["public"], bool):
            raise Invalid(_("public is true or false"), field="public", code="public_invalid")
        values["public"] = fields["public"]
    if "languages" in fields:
        known = {code for code, _name in settings.LANGUAGES}
        languages = fields["languages"]
        if not isinstance(languages, list) or any(code not in known for code in languages):
            raise Invalid(
                _("languages are a list of %(known)s") % {"known": ", ".join(sorted(known))},
                field="languages",
                code="language_unknown",
            )
        values["languages"] = list(dict.fromkeys(languages))
    if "time_zone" in fields:
        values["time_zone"] = _valid_time_zone(fields["time_zone"])
    if "house_presets" in fields or "house_options" in fields:
        presets = fields.get("house_presets", {})
        options = fields.get("house_options", {})
        _valid_house_rules(presets, options)
        if "house_presets" in fields:
            values["house_presets"] = presets
        if "house_options" in fields:
            values["house_options"] = options
    return values


def _valid_time_zone(name: Any) -> str:
    if isinstance(name, str) and name in zoneinfo.available_timezones():
        return name
    raise Invalid(
        _("%(zone)s is not a time zone") % {"zone": name}, field="time_zone", code="time_zone_unknown"
    )


def _valid_house_rules(presets: Any, options: Any) -> None:
    """Each game's house preset and options must start a match (checked by the engine)."""
    for field, value in (("house_presets", presets), ("house_options", options)):
        if not isinstance(value, dict):
            raise Invalid(
                _("%(field)s maps a game to its rules") % {"field": field},
                field=field,
                code="house_rules_invalid",
            )
    for game in sorted(set(presets) | set(options)):
        field = f"house_presets.{game}" if game in presets else f"house_options.{game}"
        try:
            ruleset_class = find_ruleset(game)
        except UnknownGame:
            raise Invalid(_("no game %(game)s") % {"game": game}, field=field, code="game_unknown") from None
        preset = presets.get(game, "classic")
        overrides = options.get(game, {})
        if not isinstance(preset, str) or not isinstance(overrides, dict):
            raise Invalid(
                _("%(game)s's house rules are a preset and options") % {"game": game},
                field=field,
                code="house_rules_invalid",
            )
        try:
            ruleset_class.create(preset, overrides, ruleset_class.seat_counts[0])
        except OptionsInvalid as exc:
            problems = [problem.to_dict() for problem in exc.problems]
            raise Invalid(
                str(exc), field=f"house_options.{game}", code="house_rules_invalid", problems=problems
            ) from None


def _audit(club: Club, by: Any, action: str, payload: dict[str, Any]) -> None:
    actor = by if getattr(by, "is_authenticated", False) else None
    ClubAuditEntry.objects.create(club=club, actor=actor, action=action, payload=payload)
