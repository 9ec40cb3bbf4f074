"""The link between a player and his account (writes, HackSoft style like ``services``; the
rules are in docs/recording.md, "Players and accounts"): a one-time claim code that a scorer of
the player's match gives him and that he types in on his own account, and the link staff make
by hand. The link says who may answer for a player (``confirmations``).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.cache import cache
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.rules.fields import is_int

from . import errors
from .models import AuditEntry, Match, Player, PlayerClaimCode
from .services import _audit, _lock, _require_scorer

# -- account codes ----------------------------------------------------------------------
#: Crockford's base 32: digits and capitals without I, L, O and U, so that a code read aloud or
#: copied by hand is not misread (an O typed is read as 0, an I or L as 1).
CODE_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
#: 8 characters: 40 bits, shown as two groups of four ("7KQ2-M9XD"). With at most
#: PLAYER_CLAIM_ATTEMPTS wrong tries per user an hour and a code living a day, guessing one is
#: hopeless; and the code names nobody, so a guesser cannot aim at a player.
CODE_LENGTH = 8
_READ_AS = str.maketrans({"O": "0", "I": "1", "L": "1"})


def code_normalised(code: str) -> str:
    """The code as typed, in its stored form: capitals, no spaces or dashes, O→0, I/L→1."""
    return "".join(ch for ch in str(code).upper() if ch not in " -\t").translate(_READ_AS)


def code_display(code: str) -> str:
    return f"{code[:4]}-{code[4:]}"


def _digest(code: str) -> str:
    """What is stored of a code: keyed by the site's secret, so that the table alone (a backup)
    gives no way to test guesses."""
    key = settings.SECRET_KEY.encode()
    return hmac.new(key, b"player-claim:" + code.encode(), hashlib.sha256).hexdigest()


def player_claim_code_create(*, match: Match | int, player: Player | int, by) -> PlayerClaimCode:
    """A one-time code for ``player``, seated in ``match``, given by one of its scorers.

    The code is on the returned row's ``code`` attribute only (shown once, never stored):
    read it out to the player, who types it on his own account (``player_claim``)."""
    player_pk = player.pk if isinstance(player, Player) else player
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        # An id past the ids' 64 bits names nobody (and SQLite's driver cannot even send it).
        seated = (
            match.seats.filter(player_id=player_pk).select_related("player").first()
            if is_int(player_pk) and 0 < player_pk < 2**63
            else None
        )
        if seated is None:
            raise errors.NotFound(
                _("player %(player)s does not play in this match") % {"player": player_pk},
                field="player",
                code="player_not_seated",
            )
        player = seated.player
        if player.user_id is not None:
            raise errors.AlreadyLinked(
                _("%(player)s is already linked to an account") % {"player": player.name},
                field="player",
                code="player_already_linked",
            )
        expires_at = timezone.now() + timedelta(minutes=settings.PLAYER_CLAIM_CODE_TTL_MINUTES)
        while True:  # a repeat of a live digest is as likely as guessing a code: retried, not refused
            code = "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            if not PlayerClaimCode.objects.filter(digest=_digest(code)).exists():
                break
        row = PlayerClaimCode.objects.create(
            player=player, match=match, digest=_digest(code), created_by=by, expires_at=expires_at
        )
        _audit(
            by,
            AuditEntry.Action.CLAIM_CODE_CREATE,
            match=match,
            player=player,
            payload={"code": row.pk, "expires_at": expires_at.isoformat()},
        )
    row.code = code_display(code)
    return row


def player_claim(*, code: str, by) -> Player:
    """Link ``by``'s account to the player a code was given for. Wrong, expired and used codes,
    a player or a user already linked are refused with their own codes; more than
    PLAYER_CLAIM_ATTEMPTS wrong or expired codes in PLAYER_CLAIM_WINDOW_SECONDS is a 429."""
    if not getattr(by, "is_authenticated", False):
        raise errors.NotSignedIn(_("sign in to link your account to a player"))
    throttle = f"player-claim:{by.pk}"
    window = settings.PLAYER_CLAIM_WINDOW_SECONDS
    if (cache.get(throttle) or 0) >= settings.PLAYER_CLAIM_ATTEMPTS:
        raise errors.TooManyAttempts(
            _("too many wrong codes: wait a while, then try again"), field="code", retry_after=window
        )
    normalised = code_normalised(code)
    with transaction.atomic():
        # The user's row locked: two claims of one user at once are taken in turn, so the
        # second finds him linked (not a duplicate-key error).
        get_user_model().objects.select_for_update().filter(pk=by.pk).first()
        row = None
        if len(normalised) == CODE_LENGTH and set(normalised) <= set(CODE_ALPHABET):
            row = PlayerClaimCode.objects.select_for_update().filter(digest=_digest(normalised)).first()
        if row is None or row.expires_at <= timezone.now():
            expired = row is not None
            _count_failure(throttle, window)
            if expired:
                raise errors.ClaimCodeInvalid(
                    _("this code has expired: ask a scorer of your match for a new one"),
                    field="code",
                    code="claim_code_expired",
                )
            raise errors.ClaimCodeInvalid(
                _("this is not a valid code: check it with the scorer who gave it"), field="code"
            )
        if row.used_at is not None:
            raise errors.ClaimCodeUsed(
                _("this code has already been used: ask a scorer of your match for a new one"), field="code"
            )
        player = Player.objects.select_for_update().get(pk=row.player_id)
        if player.user_id is not None:
            raise errors.AlreadyLinked(
                _("%(player)s is already linked to an account") % {"player": player.name},
                field="code",
                code="player_already_linked",
            )
        mine = Player.objects.filter(user=by).first()
        if mine is not None:
            raise errors.AlreadyLinked(
                _("your account is already linked to the player %(player)s") % {"player": mine.name},
                field="code",
                code="user_already_linked",
            )
        player.user = by
        player.save(update_fields=["user"])
        row.used_at = timezone.now()
        row.used_by = by
        row.save(update_fields=["used_at", "used_by"])
        _audit(by, AuditEntry.Action.PLAYER_LINK, player=player,
               payload={"user": by.pk, "before": None, "how": "code", "code": row.pk})  # fmt: skip
    return player


def _count_failure(key: str, window: int) -> None:
    cache.add(key, 0, timeout=window)  # the window starts at the first failure
    try:
        cache.incr(key)
    except ValueError:  # expired between the two calls
        cache.set(key, 1, timeout=window)


def player_link(*, player: Player | int, user, by) -> Player:
    """Staff: link ``player`` to ``user``'s account (or unlink him, ``user`` None)."""
    with transaction.atomic():
        player = Player.objects.select_for_update().get(
            pk=player.pk if isinstance(player, Player) else player
        )
        if user is not None:
            other = Player.objects.filter(user=user).exclude(pk=player.pk).first()
            if other is not None:
                raise errors.AlreadyLinked(
                    _("this account is already linked to the player %(player)s") % {"player": other.name},
                    field="user",
                    code="user_already_linked",
                )
        before = player.user_id
        player.user = user
        player.save(update_fields=["user"])
        player_link_audit(player=player, before=before, by=by)
    return player


def player_link_audit(*, player: Player, before: int | None, by) -> None:
    """The audit entry of a link made by staff (the admin saves the player itself)."""
    _audit(by, AuditEntry.Action.PLAYER_LINK, player=player,
           payload={"user": player.user_id, "before": before, "how": "staff"})  # fmt: skip
