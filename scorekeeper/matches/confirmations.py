"""The other side's word on each hand (writes, HackSoft style like ``services``; the rules are
in docs/recording.md, "Confirmation by the other side"). The link between a player and his
account, which says who may answer for a player, is ``player_accounts``.

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

from django.db import transaction
from django.db.models import Prefetch, prefetch_related_objects
from django.utils.translation import gettext as _

from scorekeeper.rules.fields import is_int

from . import errors, selectors, signals
from .models import AuditEntry, HandConfirmation, Match, Player, Seat
from .services import _announce, _audit, _current, _lock, _require_scorer


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
