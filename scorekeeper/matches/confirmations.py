"""The other side's word on each hand, and the link between a player and his account (writes,
HackSoft style like ``services``; the rules are in docs/recording.md, "Confirmation by the other
side" and "Players and accounts").

Who recorded a hand: the user in ``Hand.recorded_by`` of its current version (for a correction
or a re-evaluation, the scorer who made it). His *side* is the side of the seated player linked
to that user (``Player.user``): the player's team in a partnership game, else the player alone.
A scorer who is no player of the match (a club's scorer, the system) is on no side, and then
every seated player is "the other side".

Each current hand version may then be answered by a player of any other side: *confirmed*, or
*disputed* with a reason. Either on the scorer's device, passed across the table (the scorer
names the player: ``at_table``), or on the player's own signed-in account. Answers are rows
(``HandConfirmation``), never changed: the latest one of a version is its answer, another
answer later replaces it on the sheet (a dispute settled by talking, say) and both stay. A new
version (a correction, or a later hand re-evaluated by one) starts with none. The match is
confirmed (``Match.confirmed_at``) when every current hand's answer is *confirmed*.

An answer does not change the match's ``version``: the other side's phone confirming hand 3
must not turn the scorer's save of hand 4 into a conflict. It locks the match row for its
transaction, as a correction does, so it never crosses a write of the hands. When it makes a
finished match confirmed, or a confirmed one no longer so, it announces ``confirm`` or
``unconfirm`` through ``signals.match_changed`` (the ratings may wait for it).
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
from django.db.models import Prefetch, prefetch_related_objects
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.rules.fields import is_int

from . import errors, selectors, signals
from .models import AuditEntry, HandConfirmation, Match, Player, PlayerClaimCode, Seat
from .services import _announce, _audit, _current, _lock, _require_scorer

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


# -- the other side's answers -------------------------------------------------------------
def hand_confirm(
    *,
    match: Match | int,
    number: int,
    by,
    player: Player | int | None = None,
    hand_version: int | None = None,
) -> HandConfirmation:
    """The other side confirms the current version of hand ``number``: ``by`` himself (a user
    linked to a seated player of another side than the recorder's), or ``by`` a scorer at the
    table naming that ``player``. ``hand_version``, when sent, must be the current one."""
    return _answer(match=match, number=number, by=by, player=player, hand_version=hand_version,
                   answer=HandConfirmation.Answer.CONFIRMED, reason="")  # fmt: skip


def hand_dispute(
    *,
    match: Match | int,
    number: int,
    by,
    reason: str,
    player: Player | int | None = None,
    hand_version: int | None = None,
) -> HandConfirmation:
    """The other side disputes the current version of hand ``number``, with a reason (who may
    as for ``hand_confirm``). The scorers then correct the hand or talk it over."""
    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired(_("say why the hand is disputed"), field="reason")
    return _answer(match=match, number=number, by=by, player=player, hand_version=hand_version,
                   answer=HandConfirmation.Answer.DISPUTED, reason=reason)  # fmt: skip


def _answer(*, match, number, by, player, hand_version, answer: str, reason: str) -> HandConfirmation:
    if not getattr(by, "is_authenticated", False):
        raise errors.NotSignedIn(_("sign in to confirm or dispute a hand"))
    with transaction.atomic():
        match = _lock(match, by=by)
        # The seats and their players, read once: who answers, and the sides.
        prefetch_related_objects([match], Prefetch("seats", queryset=Seat.objects.select_related("player")))
        hand = _current(match).filter(number=number).select_related("recorded_by").first() if is_int(
            number
        ) else None  # fmt: skip
        if hand is None:
            raise errors.NotFound(
                _("the match has no hand %(number)s") % {"number": number},
                field="number",
                code="hand_not_found",
            )
        if match.status == Match.Status.VOID:
            raise errors.MatchVoid(_("the match is void: its hands take no answers"))
        if hand_version is not None and hand_version != hand.version:
            raise errors.AnswerConflict(
                _("hand %(number)s is now at version %(current)s, not %(sent)s: read it again")
                % {"number": hand.number, "current": hand.version, "sent": hand_version},
                field="hand_version",
                code="hand_version_conflict",
                current_version=hand.version,
            )
        answering, at_table = _answering_player(match, by, player)
        sides = selectors.match_sides(match=match)
        recorder = selectors.hand_recorder_side(match=match, hand=hand, sides=sides)
        if recorder is not None and sides[answering.pk] == recorder:
            raise errors.NotAllowed(
                _("hand %(number)s was recorded by %(player)s's side: the other side answers it")
                % {"number": hand.number, "player": answering.name},
                field="player",
                code="same_side",
            )
        latest = hand.confirmations.order_by("-at", "-id").first()
        if latest is not None and latest.answer == answer:
            code = "already_confirmed" if answer == HandConfirmation.Answer.CONFIRMED else "already_disputed"
            raise errors.AnswerConflict(
                _("hand %(number)s is already %(answer)s (by %(player)s)")
                % {
                    "number": hand.number,
                    "answer": latest.get_answer_display(),
                    "player": latest.player.name,
                },
                code=code,
            )
        row = HandConfirmation.objects.create(
            match=match, hand=hand, answer=answer, player=answering, at_table=at_table, by=by, reason=reason
        )
        action = (
            AuditEntry.Action.HAND_CONFIRM if answer == HandConfirmation.Answer.CONFIRMED
            else AuditEntry.Action.HAND_DISPUTE
        )  # fmt: skip
        _audit(by, action, match=match, hand=hand, player=answering, payload={
            "number": hand.number, "version": hand.version, "player": answering.pk,
            "player_name": answering.name, "at_table": at_table, "reason": reason,
        })  # fmt: skip
        was = match.confirmed_at is not None
        match.confirmed_at = row.at if selectors.match_all_confirmed(match=match) else None
        if was != (match.confirmed_at is not None):
            # Not ``services._save``: an answer leaves the version alone (the module's docstring).
            Match.objects.filter(pk=match.pk).update(confirmed_at=match.confirmed_at)
            if match.status == Match.Status.FINISHED:
                _announce(match, signals.CONFIRM if match.confirmed_at else signals.UNCONFIRM)
    row.match = match
    return row


def _answering_player(match: Match, by, player) -> tuple[Player, bool]:
    """(the seated player who answers, whether at the table on a scorer's device)."""
    seated = {seat.player_id: seat.player for seat in match.seats.all()}
    if player is None:
        own = next((p for p in seated.values() if p.user_id == by.pk), None)
        if own is None:
            raise errors.NotAllowed(
                _(
                    "only a player of this match, signed in with his own account, or a scorer at the "
                    "table naming him may confirm or dispute its hands"
                ),
                code="not_a_player",
            )
        return own, False
    pk = player.pk if isinstance(player, Player) else player
    if pk not in seated:
        raise errors.Invalid(
            _("player %(player)s does not play in this match") % {"player": pk},
            field="player",
            code="player_not_seated",
        )
    chosen = seated[pk]
    if chosen.user_id == by.pk:
        return chosen, False
    _require_scorer(match, by)  # naming another player: only on a scorer's device, at the table
    return chosen, True
