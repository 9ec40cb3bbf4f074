"""Every write to matches, hands and players (HackSoft style: keyword-only ``<entity>_<action>``).

Each write runs in one transaction that first locks the match row (``select_for_update``),
checks the caller is a scorer and, when the caller sends one, that its ``version`` is the
match's current one; it then appends rows (hands, audit entries), refreshes the match's
cached state/status/result and bumps ``version``. Recording a hand with a version is
optimistic instead: it reads the match without a lock and writes only if the version is still
the one it read; a lost race is the same 409. Every write of a match goes through ``_save``,
an UPDATE conditional on the version read, on SQLite and PostgreSQL alike.
``by=None`` means the system (a task or a management command) and skips the scorer check.

Corrections (decided here, see docs/recording.md): hand n gets a new version that
supersedes the old one; every later current hand is re-evaluated in order from the new
state with the declared values accepted (the players agreed on them at the table):
- still valid and unchanged → left as it is;
- its outcome changed → a new version (``hand_reevaluate`` in the audit log), ``valid``
  or, when its declared values no longer match, ``disputed`` with the declared values
  standing (spec 1.6);
- it can no longer be evaluated at all (e.g. the match now ends earlier:
  ``match_already_over``) → a new version flagged ``disputed`` with no scores and no
  state: it counts for nothing and the next hands continue from the state before it.
Nothing is rejected or deleted by the re-evaluation; the scorers see the flags and correct on.

A write that changes what a match counts for (it finished; a hand of a finished match was
corrected; a finished match was voided; a match was reopened as finished) sends
``signals.match_changed`` inside its transaction: the apps built on the matches (the ratings)
listen to it, and the matches import none of them.
"""

from __future__ import annotations

import functools
import json
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from typing import Any

from django.db import transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Club, Role
from scorekeeper.clubs.selectors import has_role, is_site_wide
from scorekeeper.clubs.services import home_club, require_role
from scorekeeper.rules import OptionsInvalid, Ruleset, UnknownGame, find_ruleset
from scorekeeper.rules.fields import is_int

from . import errors, signals
from .models import AuditEntry, ClubPlayer, Hand, Match, Player, Seat
from .selectors import players_seen_by


# -- players ---------------------------------------------------------------------------
def player_create(*, name: str, by=None, user=None, club: Club | None = None) -> Player:
    """A new player on ``club``'s roster (the home club's when none is named): it takes the
    club's scorer role."""
    club = club or home_club()
    require_role(club, by, Role.SCORER)
    name = (name or "").strip()
    if not name:
        raise errors.Invalid(_("a player needs a name"), field="name", code="name_missing")
    with transaction.atomic():
        player = Player.objects.create(name=name, user=user, created_by=by)
        ClubPlayer.objects.create(club=club, player=player, added_by=_user_or_none(by))
        _audit(by, AuditEntry.Action.PLAYER_CREATE, player=player, payload={"name": name, "club": club.pk})
    return player


def club_player_add(*, club: Club, player: Player, by=None) -> ClubPlayer:
    """Put an existing player on ``club``'s roster (a guest who became a regular); once."""
    require_role(club, by, Role.SCORER)
    entry, _made = ClubPlayer.objects.get_or_create(
        club=club, player=player, guest=False, defaults={"added_by": _user_or_none(by)}
    )
    return entry


def player_merge(*, player: Player | int, into: Player | int, by) -> dict[str, Any]:
    """Merge the duplicate ``player`` into ``into`` (a staff user's write): his seats become
    ``into``'s, his account link moves to ``into``, players merged into him before now point at
    ``into`` (merges never chain), and he stays, marked ``merged_into``, so that his pages
    redirect. Audited (the merge, and each match whose seat moved); ``signals.player_merged``
    is sent in the transaction with the games whose ratings must be replayed.

    Who may: staff, or the admin of the players' club: every club either player is on (its
    roster or its guests) must be one ``by`` is an admin of, since the merge rewrites their
    seats in all of them.

    Refused: by anyone else (403 ``club_role_required``); a ``player`` that does not exist or
    that ``by`` may not see (404) or an ``into`` that does not (400 ``player_unknown``); into
    himself (400 ``merge_into_self``); a
    player already merged (409 ``player_merged``) or into one (409 ``merge_chain``); two players
    who sat at the same match (409 ``players_met``: one person cannot have held two seats); two
    players who both have an account (409 ``user_link_conflict``). Nothing is written then.
    """
    if not getattr(by, "is_authenticated", False):
        raise errors.NotAllowed(
            _("only staff or a club's admin may merge players"), code="club_role_required"
        )
    source_pk = player.pk if isinstance(player, Player) else player
    target_pk = into.pk if isinstance(into, Player) else into
    if source_pk == target_pk:
        raise errors.Invalid(
            _("a player cannot be merged into himself"), field="into", code="merge_into_self"
        )
    with transaction.atomic():
        # Both rows locked, in id order (two merges of the same pair cannot deadlock).
        locked = {
            p.pk: p
            for p in Player.objects.select_for_update().filter(pk__in=[source_pk, target_pk]).order_by("pk")
        }
        seen = set(players_seen_by(by).filter(pk__in=locked).values_list("pk", flat=True))
        source, target = (locked.get(pk) if pk in seen else None for pk in (source_pk, target_pk))
        if source is None:
            raise errors.NotFound(_("there is no player %(pk)s") % {"pk": source_pk}, code="player_unknown")
        if target is None:
            raise errors.Invalid(
                _("there is no player %(pk)s") % {"pk": target_pk}, field="into", code="player_unknown"
            )
        if not _may_merge(by, source, target):
            raise errors.NotAllowed(
                _("only staff, or an admin of every club %(player)s and %(into)s play in, may merge them")
                % {"player": source.name, "into": target.name},
                code="club_role_required",
            )
        if source.merged_into_id is not None:
            raise errors.Conflict(
                _("%(player)s was already merged into player %(into)s")
                % {"player": source.name, "into": source.merged_into_id},
                code="player_merged",
                merged_into=source.merged_into_id,
            )
        if target.merged_into_id is not None:
            raise errors.Conflict(
                _("%(player)s was merged into player %(into)s: merge into that player instead")
                % {"player": target.name, "into": target.merged_into_id},
                field="into",
                code="merge_chain",
                merged_into=target.merged_into_id,
            )
        shared = sorted(
            Seat.objects.filter(player=source, match__seats__player=target).values_list("match_id", flat=True)
        )
        if shared:
            raise errors.Conflict(
                _("%(player)s and %(into)s sat at the same match (%(matches)s): they are two people")
                % {"player": source.name, "into": target.name, "matches": ", ".join(map(str, shared[:10]))},
                field="into",
                code="players_met",
                matches=shared[:100],
            )
        if source.user_id is not None and target.user_id is not None:
            raise errors.Conflict(
                _("both players have an account (%(player)s and %(into)s): unlink one first")
                % {"player": source.name, "into": target.name},
                field="into",
                code="user_link_conflict",
            )
        moved = list(
            Seat.objects.filter(player=source).values_list("match_id", "match__game", "match__status")
        )
        Seat.objects.filter(player=source).update(player=target)
        repointed = list(Player.objects.filter(merged_into=source).values_list("pk", flat=True))
        Player.objects.filter(pk__in=repointed).update(merged_into=target)
        user = source.user_id
        if user is not None:
            source.user = None
            source.merged_into = target
            source.save(update_fields=["user", "merged_into"])
            target.user_id = user
            target.save(update_fields=["user"])
        else:
            source.merged_into = target
            source.save(update_fields=["merged_into"])
        matches = sorted(match for match, _, _ in moved)
        payload = {
            "merged": source.pk, "merged_name": source.name, "into": target.pk, "into_name": target.name,
            "matches": matches, "user": user, "repointed": repointed,
        }  # fmt: skip
        _audit(by, AuditEntry.Action.PLAYER_MERGE, player=source, payload=payload)
        AuditEntry.objects.bulk_create(
            [AuditEntry(actor=by, action=AuditEntry.Action.PLAYER_MERGE, match_id=match, player=target,
                        payload={"merged": source.pk, "into": target.pk}) for match in matches]
        )  # fmt: skip
        # Finished matches are the rated ones; a merge changes the players of their pools.
        games = sorted({game for _, game, status in moved if status == Match.Status.FINISHED})
        # What the receivers answer (the ratings: their recompute job) goes back to the caller.
        followed = signals.player_merged.send(sender=Player, player=source, into=target, games=games, by=by)
    return {
        "player": source, "into": target, "matches": matches, "games": games,
        "followed": [answer for _, answer in followed if answer is not None],
    }  # fmt: skip


def _may_merge(by, source: Player, target: Player) -> bool:
    if is_site_wide(by):
        return True
    # Every club, the ones ``by`` cannot see too: the roster's own manager is scoped.
    clubs = set(
        ClubPlayer._base_manager.filter(player__in=[source, target]).values_list("club_id", flat=True)
    )
    return bool(clubs) and all(has_role(club, by, Role.ADMIN) for club in clubs)


def match_create(
    *,
    game: str,
    players: Sequence[Player | int],
    by,
    preset: str | None = None,
    options: dict[str, Any] | None = None,
    teams: Sequence[int] | None = None,
    title: str = "",
    scorers: Iterable = (),
    played_at: datetime | None = None,
    club: Club | None = None,
    guests: Sequence[Player | int] = (),
) -> Match:
    """Create a match in ``club`` (the home club's when none is named) with ``players`` in seat
    order; options are resolved and stored in full.

    It takes the club's scorer role. Its players are the club's (its roster) or ``guests``,
    players of other clubs named as such. The club's house rules for the game are where it
    starts: its preset unless ``preset`` is given, its options under the ``options`` given.
    ``played_at``: when it was played, for a score sheet entered afterwards (not in the
    future); left out, the match is played when its last hand is recorded."""
    club = club or home_club()
    require_role(club, by, Role.SCORER)
    played_at = _valid_played_at(played_at)
    if preset is None:
        preset = club.house_presets.get(game, "classic")
    house = club.house_options.get(game) if isinstance(game, str) else None
    if house:
        options = {**house, **(options or {})}
    try:
        ruleset_class = find_ruleset(game)
    except UnknownGame as exc:
        raise errors.game_unknown(exc) from None
    seated = _players_in_order(players, viewer=by)
    guest_ids = _guests_among(club, seated, guests)
    if len(seated) not in ruleset_class.seat_counts:
        allowed = ", ".join(map(str, ruleset_class.seat_counts))
        raise errors.SeatsInvalid(
            _("%(game)s is played by %(allowed)s players, not %(count)s")
            % {"game": game, "allowed": allowed, "count": len(seated)},
            field="players",
            code="seat_count",
        )
    try:
        ruleset = ruleset_class.create(preset, options, len(seated))
    except OptionsInvalid as exc:
        raise errors.options_rejected(exc) from None
    seat_teams = _teams(ruleset_class, len(seated), teams)
    with transaction.atomic():
        match = Match.objects.create(
            club=club,
            game=game,
            preset=preset or "classic",
            options=ruleset.options.to_dict(),
            title=(title or "").strip(),
            created_by=by,
            seat_count=len(seated),
            played_at=played_at,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=i, team=seat_teams[i])
            for i, player in enumerate(seated)
        )
        match.scorers.add(*[u for u in [by, *scorers] if u is not None])
        # A guest is seen in the club he played in as one of its guests (not on its roster).
        been_guests = ClubPlayer.objects.filter(club=club, guest=True, player__in=guest_ids)
        known = set(been_guests.values_list("player_id", flat=True))
        ClubPlayer.objects.bulk_create(
            ClubPlayer(club=club, player_id=pk, guest=True, added_by=_user_or_none(by))
            for pk in guest_ids
            if pk not in known
        )
        _audit(
            by,
            AuditEntry.Action.MATCH_CREATE,
            match=match,
            payload={
                "game": game,
                "preset": match.preset,
                "overrides": options or {},
                "players": [p.pk for p in seated],
                "teams": seat_teams,
                "played_at": played_at.isoformat() if played_at else None,
                "club": club.pk,
                "guests": guest_ids,
            },
        )
    return match


def match_scorer_add(*, match: Match | int, user, by) -> Match:
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        match.scorers.add(user)
        _audit(by, AuditEntry.Action.SCORER_ADD, match=match, payload={"user": user.pk})
    return match


def match_void(*, match: Match | int, by, reason: str, version: int | None = None) -> Match:
    """Set a match aside (abandoned, recorded by mistake): it keeps its hands but takes no more."""
    reason = _required_reason(reason)
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        if match.status == Match.Status.VOID:
            raise errors.StatusConflict(_("the match is already void"), field="status")
        before = match.status
        match.status = Match.Status.VOID
        _save(match)
        _audit(
            by, AuditEntry.Action.MATCH_VOID, match=match, payload={"reason": reason, "status_before": before}
        )
        if before == Match.Status.FINISHED:  # what it counted for is undone
            _announce(match, signals.VOID)
    return match


def match_reopen(*, match: Match | int, by, reason: str, version: int | None = None) -> Match:
    """Undo a void: the status is derived from the state again (in progress or finished)."""
    reason = _required_reason(reason)
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        if match.status != Match.Status.VOID:
            raise errors.StatusConflict(
                _("only a void match can be reopened; this one is %(status)s") % {"status": match.status}
            )
        match.status = _status_for(match.state)
        _save(match)
        _audit(
            by,
            AuditEntry.Action.MATCH_REOPEN,
            match=match,
            payload={"reason": reason, "status": match.status},
        )
        if match.status == Match.Status.FINISHED:  # it counts again, in its old place
            _announce(match, signals.REOPEN)
    return match


def match_played_at_set(
    *, match: Match | int, played_at: datetime | None, by, reason: str, version: int | None = None
) -> Match:
    """Correct when a match was played (None: when its last hand was recorded). A finished
    match moves to its new place in its pool's order, and the ratings are replayed from there."""
    reason = _required_reason(reason)
    played_at = _valid_played_at(played_at)
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        before = match.played_at
        if before == played_at:
            return match
        match.played_at = played_at
        _save(match)
        _audit(
            by,
            AuditEntry.Action.MATCH_PLAYED_AT,
            match=match,
            payload={
                "reason": reason,
                "played_at": played_at.isoformat() if played_at else None,
                "played_at_before": before.isoformat() if before else None,
            },
        )
        if match.status == Match.Status.FINISHED:  # its place in the pool's order changed
            _announce(match, signals.CORRECT)
    return match


def match_recompute(*, match: Match | int, by=None) -> dict[str, int]:
    """Re-evaluate every current hand from the start (after an engine fix, say).

    Idempotent: a second run changes nothing and leaves ``version`` alone.
    """
    with transaction.atomic():
        match = _lock(match, by=by)
        if by is not None:
            _require_scorer(match, by)
        ruleset = _ruleset(match)
        hands = list(_current(match).order_by("number"))
        cause = "re-evaluated by a recompute of the match"
        was = match.status
        changed = len(_hands_reevaluate(match, ruleset, None, hands, by, cause=cause))
        if changed:
            _refresh(match)
            _save(match)
            if Match.Status.FINISHED in (was, match.status):
                _announce(match, signals.CORRECT)
        _audit(by, AuditEntry.Action.MATCH_RECOMPUTE, match=match, payload={"changed": changed})
    return {"match": match.pk, "changed": changed, "version": match.version}


# -- hands -----------------------------------------------------------------------------
def hand_record(
    *,
    match: Match | int,
    record: Any,
    by,
    version: int | None = None,
    accept_declared: bool = False,
    reason: str = "",
) -> Hand:
    """Check ``record`` against the rules and store it as the match's next hand.

    Errors → ``HandRefused`` (``hand_invalid``); mismatches → ``HandRefused``
    (``score_mismatch``) unless ``accept_declared`` with a reason: then stored ``disputed``
    with the declared values standing (spec 1.6). ``hand.match`` is the updated match.
    """
    reason = (reason or "").strip()
    refused = None
    # No savepoint of its own (two of a recording's ten round trips): whatever refuses the hand
    # does so before anything is written, so the block is left cleanly and the refusal raised
    # after it, the caller's transaction still usable (a page shows the refusal, the offline
    # queue goes on with its next hand). Only a write that fails, a real error, marks the
    # caller's transaction for rollback; a caller that would go on after one gives it a savepoint.
    with transaction.atomic(savepoint=False):
        try:
            hand = _next_hand(match, record, by, version, accept_declared, reason)
            _save(hand.match)  # first, and a version conflict writes nothing: a refusal too
        except errors.DomainError as exc:
            refused = exc
        else:
            hand.save(force_insert=True)
            match = hand.match
            _audit(by, AuditEntry.Action.HAND_RECORD, match=match, hand=hand, payload=_hand_payload(hand))
            if match.status == Match.Status.FINISHED:  # the hand that finishes it
                _announce(match, signals.FINISH)
    if refused is not None:
        raise refused
    return hand


def _next_hand(match: Match | int, record: Any, by, version, accept_declared: bool, reason: str) -> Hand:
    """The match's next hand, unsaved, its ``match`` read with the derived columns moved on;
    raises the refusals (nothing is written here)."""
    # With a version, optimistic: the match is read without a lock and ``_save`` writes it
    # only if its version is still the one read. Whatever changes a match bumps its
    # version, so a write landing in between makes this one a version conflict, as a lock
    # would have. Without one (the system, an import) the match is locked, so that
    # concurrent writes queue and number their hands in turn.
    match = _read(match, by=by, lock=version is None)
    _require_scorer(match, by)
    _require_version(match, version)
    if match.status == Match.Status.VOID:
        raise errors.MatchVoid(_("the match is void: reopen it before recording"))
    if match.status == Match.Status.FINISHED:
        raise errors.MatchOver(_("the match is over: no more hands can be recorded"), result=match.result)
    ruleset = _ruleset(match)
    ev = _accepted_evaluation(ruleset, match.state, record, accept_declared, reason)
    hand = Hand(
        match=match,
        number=match.hand_count + 1,
        recorded_by=by,
        reason=reason,
        **_hand_fields(record, ev, ruleset),
    )
    match.hand_count += 1
    _refresh(match, last=hand)
    return hand


def hand_correct(
    *,
    match: Match | int,
    number: int,
    record: Any,
    by,
    version: int | None = None,
    accept_declared: bool = False,
    reason: str = "",
) -> Hand:
    """Supersede hand ``number`` with a new version and re-evaluate every later hand.

    Validated like ``hand_record`` against the state before that hand. Allowed on a
    finished match (a mistake found after the end), refused on a void one.
    """
    reason = (reason or "").strip()
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        if match.status == Match.Status.VOID:
            raise errors.MatchVoid(_("the match is void: reopen it before correcting"))
        was = match.status
        old = _current(match).filter(number=number).first() if is_int(number) else None
        if old is None:
            raise errors.NotFound(
                _("the match has no hand %(number)s") % {"number": number},
                field="number",
                code="hand_not_found",
            )
        ruleset = _ruleset(match)
        before = _state_before(match, number)
        ev = _accepted_evaluation(ruleset, before, record, accept_declared, reason)
        hand = _supersede(old, by=by, reason=reason, **_hand_fields(record, ev, ruleset))
        _audit(by, AuditEntry.Action.HAND_CORRECT, match=match, hand=hand, payload=_hand_payload(hand))
        later = list(_current(match).filter(number__gt=number).order_by("number"))
        #: The later hands that got a new version, for the caller to show.
        hand.reevaluated = _hands_reevaluate(
            match,
            ruleset,
            hand.state_after,
            later,
            by,
            cause=f"re-evaluated after the correction of hand {number}",
        )
        _refresh(match)
        _save(match)
        if Match.Status.FINISHED in (was, match.status):  # what it counts for changed
            _announce(match, signals.CORRECT)
    hand.match = match
    return hand


def hand_dry_run(
    *, match: Match, record: Any, number: int | None = None, accept_declared: bool = False
) -> dict[str, Any]:
    """What recording the next hand (``number`` None) or correcting hand ``number`` would
    give, stored nowhere: the API's dry run (``POST /api/v1/rules/<game>/score``) with this
    match's ruleset and the state before the hand. For the pages' live check.

    Returns ``{"request": <the dry run's body>, "evaluation": <the engine's result>}``.
    """
    if getattr(match, "seat_count", None) is None:
        match.seat_count = match.seats.count()
    state = match.state if number is None else _state_before(match, number)
    ev = _ruleset(match).evaluate(state, record, accept_declared=bool(accept_declared))
    body = {
        "preset": match.preset,
        "options": match.options,
        "seats": match.seat_count,
        "state": state,
        "hand": record,
        "accept_declared": bool(accept_declared),
    }
    return {"request": body, "evaluation": ev.to_dict()}


# -- internals -------------------------------------------------------------------------
def _lock(match: Match | int, *, by=None) -> Match:
    """The match, locked until the transaction ends, with ``is_scorer`` (see ``_read``). What
    changes with each write lives on the locked row itself (``version``, ``hand_count``,
    ``state``), so a write that waited for the lock reads it as the previous one committed it.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("_lock must run inside the transaction of the write it guards")
    return _read(match, by=by, lock=True)


def _read(match: Match | int, *, by=None, lock: bool = False) -> Match:
    """The match and whether ``by`` is one of its scorers (``is_scorer``); locked (``FOR
    UPDATE``, the match row only) when ``lock``.

    A scorer's write, the usual one, reads the match joined to its scorer row and its club in
    one query, and asks the clubs' guard in Python: a public club's match needs nothing more, a
    private one that the scorer is still a member of (the guard's subquery, built for every
    recording, cost it a fifth of its instructions). A read that finds no such row (the system,
    someone else's match, no match, a private club he left) reads the match through the guard:
    a missing or unseen match is a 404 before any scorer check. The scorers are only ever added.
    """
    pk = match.pk if isinstance(match, Match) else match
    user = _user_pk(by)
    if user is not None:
        # The club's one column the guard needs, not the club (its house rules are JSON to parse).
        scored = Match._base_manager.annotate(club_public=F("club__public"))
        try:
            match = (scored.select_for_update(of=("self",)) if lock else scored).get(pk=pk, scorers=user)
        except Match.DoesNotExist:
            pass
        else:
            if match.club_public or has_role(match.club_id, by, Role.MEMBER):
                match.is_scorer = True
                return match
    matches = Match.objects.select_for_update(of=("self",)) if lock else Match.objects.all()
    try:
        match = matches.get(pk=pk)
    except Match.DoesNotExist:
        raise errors.NotFound(
            _("no match %(pk)s") % {"pk": pk}, field="match", code="match_not_found"
        ) from None
    match.is_scorer = False
    return match


def _user_pk(by) -> int | None:
    return by.pk if getattr(by, "is_authenticated", False) else None


def _user_or_none(by):
    return by if getattr(by, "is_authenticated", False) else None


def _require_scorer(match: Match, by) -> None:
    """``match`` comes from ``_lock(match, by=by)``, which read whether ``by`` is a scorer.
    Its club's directors and admins may score it too (they run the evening it is part of)."""
    if by is None:
        return
    if not getattr(by, "is_authenticated", False):
        raise errors.NotSignedIn(_("sign in to write to a match"))
    if by.is_superuser or match.is_scorer or has_role(match.club_id, by, Role.DIRECTOR):
        return
    raise errors.NotAllowed(_("only the match's scorers may record, correct or void it"))


def _guests_among(club: Club, seated: list[Player], guests: Sequence[Player | int]) -> list[int]:
    """The ids of ``guests``, each seated; every other seated player must be on the roster."""
    guest_ids = [g.pk if isinstance(g, Player) else g for g in guests]
    seated_ids = [p.pk for p in seated]
    for i, pk in enumerate(guest_ids):
        if pk not in seated_ids:
            raise errors.SeatsInvalid(
                _("guest %(pk)s is not one of the match's players") % {"pk": repr(pk)},
                field=f"guests[{i}]",
                code="guest_not_seated",
            )
    on_roster = set(
        ClubPlayer.objects.filter(club=club, player__in=seated_ids, guest=False).values_list(
            "player_id", flat=True
        )
    )
    for i, player in enumerate(seated):
        if player.pk not in on_roster and player.pk not in guest_ids:
            raise errors.SeatsInvalid(
                _("%(player)s does not play in %(club)s: name him a guest, or add him to the club")
                % {"player": player, "club": club.name},
                field=f"players[{i}]",
                code="player_not_in_club",
            )
    return guest_ids


def _require_version(match: Match, version: int | None) -> None:
    if version is None or version == match.version:
        return
    # What is now current, so a device that lost a race can show it without another request.
    last = _current(match).select_related("recorded_by").order_by("-number").first()
    raise errors.VersionConflict(
        _("the match is at version %(current)s, not %(sent)s: reload it and try again")
        % {"current": match.version, "sent": version},
        field="version",
        current_version=match.version,
        hand_count=match.hand_count,
        status=match.status,
        last_hand=_hand_summary(last) if last else None,
    )


def _hand_summary(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        "status": hand.status,
        "declared": hand.declared,
        "computed": hand.computed,
        "recorded_by": hand.recorded_by.get_username() if hand.recorded_by else None,
        "recorded_at": hand.recorded_at.isoformat(),
    }


#: A date played before this is taken for a mistyped year.
EARLIEST_PLAYED = datetime(1900, 1, 1, tzinfo=UTC)


def _valid_played_at(played_at: datetime | None) -> datetime | None:
    """``played_at`` as an aware time, or a clear error: not a time, in the future, or before
    1900 (a mistyped year). A naive time is in the site's time zone."""
    if played_at is None:
        return None
    if not isinstance(played_at, datetime):
        raise errors.Invalid(
            _("the date played must be a date and time"), field="played_at", code="played_at_invalid"
        )
    if timezone.is_naive(played_at):
        played_at = timezone.make_aware(played_at)
    if played_at > timezone.now():
        raise errors.Invalid(
            _("the date played cannot be in the future"), field="played_at", code="played_at_future"
        )
    if played_at < EARLIEST_PLAYED:
        raise errors.Invalid(
            _("the date played cannot be before 1900"), field="played_at", code="played_at_too_early"
        )
    return played_at


def _required_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired(_("a reason is required"), field="reason")
    return reason


def _players_in_order(players: Sequence[Player | int], *, viewer: Any = None) -> list[Player]:
    """The players of ``players`` (ids or rows), checked. One that ``viewer`` may not see (a
    private club's, to an outsider) is as unknown as an id that is no player."""
    ids = [p.pk if isinstance(p, Player) else p for p in players]
    for i, pk in enumerate(ids):
        if not is_int(pk):
            raise errors.SeatsInvalid(
                _("player %(pk)s is not a player id") % {"pk": repr(pk)}, field=f"players[{i}]"
            )
    found = (Player.objects if viewer is None else players_seen_by(viewer)).in_bulk(ids)
    seated = []
    for i, pk in enumerate(ids):
        if pk not in found:
            raise errors.SeatsInvalid(
                _("there is no player %(pk)s") % {"pk": pk}, field=f"players[{i}]", code="player_unknown"
            )
        if found[pk].merged_into_id is not None:
            raise errors.SeatsInvalid(
                _("%(player)s was merged into player %(into)s: seat that player")
                % {"player": found[pk], "into": found[pk].merged_into_id},
                field=f"players[{i}]",
                code="player_merged",
            )
        if pk in ids[:i]:
            raise errors.SeatsInvalid(
                _("%(player)s is already seated in this match") % {"player": found[pk]},
                field=f"players[{i}]",
                code="player_twice",
            )
        seated.append(found[pk])
    return seated


def _teams(ruleset_class, seats: int, teams: Sequence[int] | None) -> list[int | None]:
    """The team of each seat: the rules fix them (``partnerships``), or there are none."""
    fixed = ruleset_class.partnerships
    game = ruleset_class.key
    if fixed is None:
        if teams:
            raise errors.SeatsInvalid(
                _("%(game)s is not a partnership game: no teams") % {"game": game}, field="teams"
            )
        return [None] * seats
    if teams is not None and list(teams) != list(fixed):
        raise errors.SeatsInvalid(
            _("%(game)s is played by fixed teams %(teams)s") % {"game": game, "teams": list(fixed)},
            field="teams",
        )
    return list(fixed)


def _ruleset(match: Match):
    """The match's ruleset (one per game, preset, options and seat count)."""
    # Canonical JSON, so that equal options share one cache entry whatever their key order.
    options = json.dumps(match.options, sort_keys=True, separators=(",", ":"))
    # A class is hashable; mypy reads type[...] against Hashable as an instance.
    return _ruleset_for(find_ruleset(match.game), match.preset, options, match.seat_count)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=256)
def _ruleset_for(ruleset_class, preset: str, options: str, seats: int):
    """Rulesets are immutable once created and resolving the options takes a while: one per
    game, preset, options and seat count serves every write of every match played so."""
    return ruleset_class.create(preset, json.loads(options), seats)


def _accepted_evaluation(ruleset, state, record, accept_declared: bool, reason: str):
    """The engine's evaluation if the hand may be stored; raises HandRefused/ReasonRequired."""
    ev = ruleset.evaluate(state, record, accept_declared=bool(accept_declared))
    if ev.errors:
        first = ev.errors[0]
        raise errors.HandRefused(
            first.message, evaluation=ev.to_dict(), code="hand_invalid", field=errors.record_field(first.path)
        )
    if ev.mismatches:
        seats = ", ".join(str(m.seat) for m in ev.mismatches)
        if not accept_declared:
            # In English, as the engine words it: the interfaces show it in the reader's
            # language from the evaluation's codes (scorekeeper.matches.i18n.error_body).
            raise errors.HandRefused(
                f"declared scores differ from the rules for seat(s) {seats}: {ev.mismatches[0].explanation}",
                evaluation=ev.to_dict(),
                code="score_mismatch",
            )
        if not reason:
            raise errors.ReasonRequired(
                _("accepting declared scores over the rules needs a reason"),
                field="reason",
                mismatches=ev.to_dict()["mismatches"],
            )
    return ev


def _hand_fields(record: Any, ev, ruleset) -> dict[str, Any]:
    """The columns of a hand row for ``record`` evaluated as ``ev`` by ``ruleset``."""
    bad = bool(ev.errors)
    return {
        "record": record,
        "dealer": _dealer(record, ruleset.seats),
        "declared": _declared(record, ruleset),
        "computed": ev.scores,
        "state_after": ev.state_after,
        "evaluation": ev.to_dict(),
        "accepted_declared": bool(ev.mismatches),
        "status": Hand.Status.DISPUTED if bad or ev.mismatches else Hand.Status.VALID,
    }


def _dealer(record: Any, seats: int) -> int | None:
    dealer = record.get("dealer") if isinstance(record, dict) else None
    return dealer if is_int(dealer) and 0 <= dealer < seats else None


def _declared(record: Any, ruleset) -> Any:
    """What the players claimed: the record's value at the game's ``declared_keys``.

    The spec's own ``declared`` is looked for first in every game, as it always was: a cul
    record that carries one besides its ``declared_banks`` (pasted in the form's JSON area,
    say) has stored that one, and a recompute must find such a hand unchanged.
    """
    if isinstance(record, dict):
        for key in dict.fromkeys((*Ruleset.declared_keys, *ruleset.declared_keys)):
            if key in record:
                return record[key]
    return None


def _supersede(old: Hand, *, by, reason: str, **fields: Any) -> Hand:
    # The old row's status is the one column of a hand ever changed: the partial unique
    # constraint needs it out of the way before the new version goes in.
    old.status = Hand.Status.SUPERSEDED
    old.save(update_fields=["status"])
    return Hand.objects.create(
        match_id=old.match_id,
        number=old.number,
        version=old.version + 1,
        supersedes=old,
        recorded_by=by,
        reason=reason,
        **fields,
    )


def _hands_reevaluate(match: Match, ruleset, state, hands: list[Hand], by, *, cause: str) -> list[int]:
    """Re-evaluate ``hands`` in order from ``state``; returns the numbers that got a new version."""
    changed = []
    for hand in hands:
        ev = ruleset.evaluate(state, hand.record, accept_declared=True)
        fields = _hand_fields(hand.record, ev, ruleset)
        if any(getattr(hand, name) != value for name, value in fields.items()):
            # The players' reason stays the hand's (the export carries it); why it got a new
            # version is the re-evaluation's own audit entry. A hand they gave no reason for
            # takes the cause as its reason, so that its history says why.
            hand = _supersede(hand, by=by, reason=hand.reason or cause, **fields)
            payload = {**_hand_payload(hand), "cause": cause}
            _audit(by, AuditEntry.Action.HAND_REEVALUATE, match=match, hand=hand, payload=payload)
            changed.append(hand.number)
        if hand.state_after is not None:
            state = hand.state_after
    return changed


def _current(match: Match):
    return Hand.objects.filter(match=match).exclude(status=Hand.Status.SUPERSEDED)


def _state_before(match: Match, number: int) -> dict | None:
    """The state the hand ``number`` is played from: after the last earlier hand that counts."""
    previous = (
        _current(match).filter(number__lt=number, state_after__isnull=False).order_by("-number").first()
    )
    return previous.state_after if previous else None


def _refresh(match: Match, last: Hand | None = None) -> None:
    """Derive the match's cached state, status and result from its current hands."""
    if last is None:
        last = _current(match).filter(state_after__isnull=False).order_by("-number").first()
    state = last.state_after if last else None
    match.state = state
    # A hand changed or came: it waits for the other side (scorekeeper/matches/confirmations.py).
    match.confirmed_at = None
    over = _status_for(state) == Match.Status.FINISHED
    match.result = last.evaluation.get("result") if over else None
    if match.status != Match.Status.VOID:
        match.status = _status_for(state)


def _status_for(state: dict | None) -> str:
    return Match.Status.FINISHED if state and state.get("over") else Match.Status.IN_PROGRESS


def _save(match: Match) -> None:
    """Write the match's derived columns and bump its version, on condition that the row is
    still at the version ``match`` was read at: the one write path of every change to a match.

    Under a lock (``_lock``) the condition always holds. After an unlocked read (recording
    with a version) a write that landed in between has moved the version on: nothing is
    written and this is the usual 409, saying what is now current. (Under READ COMMITTED an
    UPDATE that waited for a concurrent writer re-checks its WHERE against the committed row.)
    """
    read_version = match.version
    match.version += 1
    match.updated_at = timezone.now()
    # The row was read through the clubs' guard (``_read``): its write by id needs no second one.
    written = Match._base_manager.filter(pk=match.pk, version=read_version).update(
        **{name: getattr(match, name) for name in _MATCH_WRITTEN}
    )
    if not written:
        match.version = read_version
        _require_version(_read(match.pk), read_version)
        raise RuntimeError(f"match {match.pk} changed without a new version")  # every write bumps it


#: The match columns a write changes (``_refresh``, ``hand_count``, ``version``, the time, and
#: ``match_played_at_set``'s date played). ``confirmed_at`` too: a write of the hands empties it
#: (an answer writes it alone).
_MATCH_WRITTEN = (
    "state", "result", "status", "version", "hand_count", "updated_at", "played_at", "confirmed_at",
)  # fmt: skip


def _hand_payload(hand: Hand) -> dict[str, Any]:
    return {
        "number": hand.number,
        "version": hand.version,
        "status": hand.status,
        "accepted_declared": hand.accepted_declared,
        "reason": hand.reason,
        "mismatches": hand.evaluation.get("mismatches", []),
        "errors": hand.evaluation.get("errors", []),
    }


def _audit(by, action: str, *, match=None, hand=None, player=None, payload=None) -> AuditEntry:
    return AuditEntry.objects.create(
        actor=by, action=action, match=match, hand=hand, player=player, payload=payload or {}
    )


def _announce(match: Match, kind: str) -> None:
    """``signals.match_changed`` for ``match``, inside the write's transaction: a receiver's
    error is raised here and rolls the write back (``send``, not ``send_robust``)."""
    signals.match_changed.send(sender=Match, match=match, kind=kind)
