"""A person's own data: everything the site holds about a user and his player, for him to
download, and the anonymisation of a player who asks to be forgotten.

The anonymisation keeps every match, hand and rating (nobody else's record changes): it
replaces the player's name wherever the site stored it (the player, his matches' titles, the
audit log's copies of it), unlinks his account and voids the codes that would link it again.
It is audited without the old name, and refused while he sits in a match in progress (the
table is still playing: finish or void it first).
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import ClubAuditEntry, Membership, Role
from scorekeeper.clubs.selectors import has_role, is_site_wide

from . import errors
from .models import AuditEntry, ClubPlayer, Hand, HandConfirmation, Match, Player, PlayerClaimCode, Seat
from .selectors import players_seen_by


def _when(value) -> str | None:
    return value.isoformat() if value else None


def personal_data(user: Any) -> dict[str, Any]:
    """Everything stored about ``user`` and his player, as plain JSON values (his ratings are
    the ratings app's and are added by the interface that serves this)."""
    player = Player.objects.filter(user=user).first()
    account = {
        "username": user.get_username(),
        "first_name": user.first_name,
        "last_name": user.last_name,
        "email": user.email,
        "date_joined": _when(user.date_joined),
        "last_login": _when(user.last_login),
        "is_staff": user.is_staff,
    }
    preference = getattr(user, "preference", None)
    if preference is not None:
        account["preferences"] = {"language": preference.language, "time_zone": preference.time_zone}
    memberships = [
        {"club": m.club.slug, "role": m.role, "since": _when(m.started_at), "until": _when(m.ended_at)}
        for m in Membership.objects.filter(user=user).select_related("club").order_by("started_at", "id")
    ]
    return {
        "account": account,
        "memberships": memberships,
        "player": _player_data(player) if player is not None else None,
        "matches_scored": list(
            Match.objects.filter(scorers=user).order_by("id").values_list("id", flat=True)
        ),
        "hands_recorded": Hand.objects.filter(recorded_by=user).count(),
        "confirmations_given": [
            {"match": c.match_id, "hand": c.hand_id, "answer": c.answer, "at": _when(c.at)}
            for c in HandConfirmation.objects.filter(by=user).order_by("at", "id")
        ],
        "audit": [
            {"at": _when(e.at), "action": e.action, "match": e.match_id, "player": e.player_id}
            for e in AuditEntry.objects.filter(actor=user).order_by("at", "id")
        ],
    }


def _player_data(player: Player) -> dict[str, Any]:
    seats = Seat.objects.filter(player=player).select_related("match__club").order_by("match_id")
    return {
        "id": player.pk,
        "name": player.name,
        "created_at": _when(player.created_at),
        "clubs": sorted(
            {(c.club.slug, c.guest) for c in ClubPlayer.objects.filter(player=player).select_related("club")}
        ),
        "matches": [
            {
                "id": seat.match_id,
                "club": seat.match.club.slug,
                "game": seat.match.game,
                "status": seat.match.status,
                "seat": seat.position,
                "team": seat.team,
                "result": seat.match.result,
                "played_at": _when(seat.match.played_at or seat.match.updated_at),
            }
            for seat in seats
        ],
    }


class PlayerInOpenMatch(errors.Conflict):
    code = "player_in_open_match"


def player_anonymise(*, player: Player | int, by: Any, reason: str = "") -> Player:
    """Forget ``player``'s name and account (an admin of a club he plays in, or staff)."""
    with transaction.atomic():
        pk = player.pk if isinstance(player, Player) else player
        found = Player.objects.select_for_update().filter(pk=pk).first()
        if found is None or (by is not None and not players_seen_by(by).filter(pk=pk).exists()):
            # A private club's player is not there for those outside it.
            raise errors.NotFound(_("no player %(pk)s") % {"pk": pk}, field="player", code="player_not_found")
        player = found
        clubs = list(ClubPlayer.objects.filter(player=player, guest=False).values_list("club_id", flat=True))
        if by is not None and not (is_site_wide(by) or any(has_role(club, by, Role.ADMIN) for club in clubs)):
            if not getattr(by, "is_authenticated", False):
                raise errors.NotSignedIn(_("sign in first"))
            raise errors.NotAllowed(
                _("only an admin of a club he plays in, or staff, may anonymise a player"),
                code="club_role_required",
            )
        if Seat.objects.filter(player=player, match__status=Match.Status.IN_PROGRESS).exists():
            raise PlayerInOpenMatch(
                _("%(player)s is seated in a match in progress: finish or void it first")
                % {"player": player},
                field="player",
            )
        old_name, new_name = player.name, _anonymous_name(player)
        player.name, player.user = new_name, None
        player.save(update_fields=["name", "user"])
        for match in Match.objects.filter(seats__player=player, title__contains=old_name):
            Match.objects.filter(pk=match.pk).update(title=match.title.replace(old_name, new_name))
        for entry in AuditEntry.objects.filter(player=player):
            if entry.payload.get("name") == old_name:
                AuditEntry.objects.filter(pk=entry.pk).update(payload={**entry.payload, "name": new_name})
        PlayerClaimCode.objects.filter(player=player, used_at__isnull=True).update(expires_at=timezone.now())
        payload = {"reason": (reason or "").strip()[:500], "player": player.pk}
        AuditEntry.objects.create(
            actor=by if getattr(by, "is_authenticated", False) else None,
            action=AuditEntry.Action.PLAYER_ANONYMISE,
            player=player,
            payload=payload,
        )
        for club in clubs:
            ClubAuditEntry.objects.create(
                club_id=club,
                actor=by if getattr(by, "is_authenticated", False) else None,
                action=ClubAuditEntry.Action.PLAYER_ANONYMISE,
                payload=payload,
            )
    return player


def _anonymous_name(player: Player) -> str:
    # Stored, so in the site's language of record (English), like the audit log's actions.
    return f"Player {player.pk} (anonymised)"
