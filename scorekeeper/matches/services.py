"""Every write to matches, hands and players (HackSoft style: keyword-only ``<entity>_<action>``).

Each write runs in one transaction that first locks the match row (``select_for_update``),
checks the caller is a scorer and, when the caller sends one, that its ``version`` is the
match's current one; it then appends rows (hands, audit entries), refreshes the match's
cached state/status/result and bumps ``version``. Recording a hand with a version, the
hot path, is optimistic instead: it reads the match without a lock and writes only if the
version is still the one it read (one statement on PostgreSQL); a lost race is the same 409.
``by=None`` means the system (a task or a management command) and skips the scorer check.

Corrections (decided here, see README "Corrections"): hand n gets a new version that
supersedes the old one; every later current hand is re-evaluated in order from the new
state with the declared values accepted (the players agreed on them at the table):
- still valid and unchanged → left as it is;
- its outcome changed → a new version (``hand_reevaluate`` in the audit log), ``valid``
  or, when its declared values no longer match, ``disputed`` with the declared values
  standing (spec 1.6);
- it can no longer be evaluated at all (e.g. the match now ends earlier:
  ``match_already_over``) → a new version flagged ``disputed`` with no scores and no
  state: it counts for nothing and the next hands continue from the state before it.
Nothing is rejected or deleted by the replay; the scorers see the flags and correct on.
"""

from __future__ import annotations

import contextlib
import functools
import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

import orjson
from django.conf import settings
from django.db import transaction
from django.db.models import JSONField
from django.utils import timezone
from psycopg.types.json import Jsonb

from scorekeeper.rawrows import RowReader, fetch_one
from scorekeeper.rules import OptionsInvalid, UnknownGame, find_ruleset
from scorekeeper.rules.fields import is_int

from . import errors
from .models import AuditEntry, Hand, IdempotencyKey, Match, Player, Seat

#: Partnership games: the team of each seat position (spec 6: teams 0+2 against 1+3).
PARTNERSHIPS = {"piquet-voleur": (0, 1, 0, 1)}
#: The largest id of a row (ids are PostgreSQL bigints).
MAX_ID = 2**63 - 1
#: Where a record carries the players' claims (spec: ``declared``; cul: ``declared_banks``).
DECLARED_KEYS = ("declared", "declared_banks")


# -- players ---------------------------------------------------------------------------
def player_create(*, name: str, by=None, user=None) -> Player:
    name = (name or "").strip()
    if not name:
        raise errors.Invalid("a player needs a name", field="name", code="name_missing")
    with transaction.atomic():
        player = Player.objects.create(name=name, user=user, created_by=by)
        _audit(by, AuditEntry.Action.PLAYER_CREATE, player=player, payload={"name": name})
    return player


# -- matches ---------------------------------------------------------------------------
def match_create(
    *,
    game: str,
    players: Sequence[Player | int],
    by,
    preset: str = "classic",
    options: dict[str, Any] | None = None,
    teams: Sequence[int] | None = None,
    title: str = "",
    scorers: Iterable = (),
) -> Match:
    """Create a match with ``players`` in seat order; options are resolved and stored in full."""
    try:
        ruleset_class = find_ruleset(game)
    except UnknownGame as exc:
        raise errors.GameUnknown(str(exc), field="game") from None
    seated = _players_in_order(players)
    if len(seated) not in ruleset_class.seat_counts:
        allowed = ", ".join(map(str, ruleset_class.seat_counts))
        raise errors.SeatsInvalid(
            f"{game} is played by {allowed} players, not {len(seated)}", field="players", code="seat_count"
        )
    try:
        ruleset = ruleset_class.create(preset, options, len(seated))
    except OptionsInvalid as exc:
        problems = [p.to_dict() for p in exc.problems]
        raise errors.OptionsRejected(
            str(exc), field=problems[0]["path"], problems=problems, errors=errors.rule_errors(problems, "")
        ) from None
    seat_teams = _teams(game, len(seated), teams)
    with transaction.atomic():
        match = Match.objects.create(
            game=game,
            preset=preset or "classic",
            options=ruleset.options.to_dict(),
            title=(title or "").strip(),
            created_by=by,
        )
        Seat.objects.bulk_create(
            Seat(match=match, player=player, position=i, team=seat_teams[i])
            for i, player in enumerate(seated)
        )
        match.scorers.add(*[u for u in [by, *scorers] if u is not None])
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
            raise errors.StatusConflict("the match is already void", field="status")
        before = match.status
        match.status = Match.Status.VOID
        _save(match)
        _audit(
            by, AuditEntry.Action.MATCH_VOID, match=match, payload={"reason": reason, "status_before": before}
        )
    return match


def match_reopen(*, match: Match | int, by, reason: str, version: int | None = None) -> Match:
    """Undo a void: the status is derived from the state again (in progress or finished)."""
    reason = _required_reason(reason)
    with transaction.atomic():
        match = _lock(match, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        if match.status != Match.Status.VOID:
            raise errors.StatusConflict(f"only a void match can be reopened; this one is {match.status}")
        match.status = _status_for(match.state)
        _save(match)
        _audit(
            by,
            AuditEntry.Action.MATCH_REOPEN,
            match=match,
            payload={"reason": reason, "status": match.status},
        )
    return match


def match_recompute(*, match: Match | int, by=None) -> dict[str, int]:
    """Re-evaluate every current hand from the start (after an engine fix, say).

    Idempotent: a second run changes nothing and leaves ``version`` alone.
    """
    with transaction.atomic():
        match = _lock(match, by=by)
        if by is not None:
            _require_scorer(match, by)
        game = _ruleset(match)
        hands = list(_current(match).order_by("number"))
        cause = "re-evaluated by a recompute of the match"
        changed = len(_replay(match, game, None, hands, by, cause=cause))
        if changed:
            _refresh(match)
            _save(match)
        _audit(by, AuditEntry.Action.MATCH_RECOMPUTE, match=match, payload={"changed": changed})
    return {"match": match.pk, "changed": changed, "version": match.version}


# -- hands -----------------------------------------------------------------------------
def hand_record(
    *,
    match: Match | int | MatchRead,
    record: Any,
    by,
    version: int | None = None,
    accept_declared: bool = False,
    reason: str = "",
) -> Hand:
    """Check ``record`` against the rules and store it as the match's next hand.

    Errors → ``HandRejected`` (``hand_invalid``); mismatches → ``HandRejected``
    (``score_mismatch``) unless ``accept_declared`` with a reason: then stored ``disputed``
    with the declared values standing (spec 1.6). ``hand.match`` is the updated match.
    ``match`` may be a ``MatchRead`` made for ``by`` in the same request: it stands for the read.
    """
    reason = (reason or "").strip()
    # With a version, optimistic: read without a lock, then write on condition that the
    # version is still the one read (``_store_recorded``). Whatever changes a match bumps its
    # version, so a write landing in between makes this one a version conflict, as a lock
    # would have, for two round trips (BEGIN, COMMIT) less. Without one (the system, an
    # import) the match is locked, so that concurrent writes queue and number hands in turn.
    with transaction.atomic() if version is None else contextlib.nullcontext():
        if isinstance(match, MatchRead) and version is not None and match.user_pk == _user_pk(by):
            match = match.match
        else:
            pk = match.match.pk if isinstance(match, MatchRead) else match
            match = _read(pk, by=by) if version is not None else _lock(pk, by=by)
        _require_scorer(match, by)
        _require_version(match, version)
        if match.status == Match.Status.VOID:
            raise errors.MatchVoid("the match is void: reopen it before recording")
        if match.status == Match.Status.FINISHED:
            raise errors.MatchOver("the match is over: no more hands can be recorded", result=match.result)
        game = _ruleset(match)
        ev = _accepted_evaluation(game, match.state, record, accept_declared, reason)
        hand = Hand(
            match=match,
            number=match.hand_count + 1,
            recorded_by=by,
            reason=reason,
            **_hand_fields(record, ev, game.seats),
        )
        read_version = match.version
        match.hand_count += 1
        _refresh(match, last=hand)
        if not _store_recorded(match, hand, by):
            _require_version(_read(match.pk, by=by), read_version)
            raise RuntimeError(f"match {match.pk} changed without a new version")  # every write bumps it
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
            raise errors.MatchVoid("the match is void: reopen it before correcting")
        old = _current(match).filter(number=number).first() if is_int(number) else None
        if old is None:
            raise errors.NotFound(f"the match has no hand {number}", field="number", code="hand_not_found")
        game = _ruleset(match)
        before = _state_before(match, number)
        ev = _accepted_evaluation(game, before, record, accept_declared, reason)
        hand = _supersede(old, by=by, reason=reason, **_hand_fields(record, ev, game.seats))
        _audit(by, AuditEntry.Action.HAND_CORRECT, match=match, hand=hand, payload=_hand_payload(hand))
        later = list(_current(match).filter(number__gt=number).order_by("number"))
        #: The later hands that got a new version, for the caller to show.
        hand.reevaluated = _replay(
            match,
            game,
            hand.state_after,
            later,
            by,
            cause=f"re-evaluated after the correction of hand {number}",
        )
        _refresh(match)
        _save(match)
    hand.match = match
    return hand


# -- idempotency keys ------------------------------------------------------------------
def idempotency_claim(
    *, user, key: str, fingerprint: str, method: str, path: str
) -> tuple[IdempotencyKey, bool]:
    """Claim ``key`` for a request, inside the caller's transaction (which holds the write).

    Returns ``(entry, True)`` when this request is the first with the key: the caller runs
    it and stores its outcome with ``idempotency_store`` before committing. Returns the
    committed ``(entry, False)`` of an earlier identical request, whose outcome is to be
    replayed. On PostgreSQL a concurrent twin blocks on the unique index until the first
    commits (then it replays) or rolls back (then it goes ahead). Raises
    ``IdempotencyKeyReused`` when the key was used for a different request.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("idempotency_claim must run inside the transaction of the write it guards")
    owner = user if getattr(user, "is_authenticated", False) else None
    claim = IdempotencyKey(
        user=owner, key=key, fingerprint=fingerprint, method=method, path=path[:255], status_code=0
    )
    for _ in range(3):
        if _insert_unless_taken(claim):
            return claim, True
        entry = IdempotencyKey.objects.filter(user=owner, key=key).first()
        if entry is None:  # the first holder rolled back in between: claim again
            continue
        if entry.created_at < idempotency_cutoff():
            # Past the window a key is forgotten, swept or not: this is a new request.
            IdempotencyKey.objects.filter(pk=entry.pk).delete()
            continue
        if entry.fingerprint != fingerprint:
            raise errors.IdempotencyKeyReused(
                f"the Idempotency-Key was already used for another request ({entry.method} {entry.path} "
                "with another body); use a new key for a new request",
                field="Idempotency-Key",
            )
        return entry, False
    raise errors.Conflict(
        "the Idempotency-Key is in use by a concurrent request; retry", field="Idempotency-Key"
    )


def _insert_unless_taken(entry: IdempotencyKey) -> bool:
    """INSERT ``entry`` unless a unique index already holds its user and key; whether it did.

    One ``INSERT … ON CONFLICT DO NOTHING`` (PostgreSQL, SQLite): the ORM's create() would
    need a savepoint around it, two more round trips, because a unique violation aborts a
    PostgreSQL transaction. A key held by a concurrent transaction makes it wait for that
    transaction's end, then insert if it rolled back.
    """
    connection = transaction.get_connection()
    sql, fields = _insert_unless_taken_sql()
    values = [f.get_db_prep_save(f.pre_save(entry, add=True), connection) for f in fields]
    row = fetch_one(connection.alias, sql, values)
    if row is None:
        return False
    entry.pk = row[0]
    entry._state.adding = False
    entry._state.db = connection.alias
    return True


@functools.cache
def _insert_unless_taken_sql() -> tuple[str, list]:
    fields = [f for f in IdempotencyKey._meta.concrete_fields if not f.primary_key]
    sql = (
        f'INSERT INTO "{IdempotencyKey._meta.db_table}" ({_column_list(fields)})'
        f' VALUES ({", ".join(["%s"] * len(fields))}) ON CONFLICT DO NOTHING RETURNING "id"'
    )
    return sql, fields


def _column_list(fields) -> str:
    return ", ".join(f'"{f.column}"' for f in fields)


def idempotency_cutoff():
    """Keys claimed before this moment are expired (``IDEMPOTENCY_KEY_TTL`` seconds ago)."""
    return timezone.now() - timedelta(seconds=settings.IDEMPOTENCY_KEY_TTL)


def idempotency_expire(*, batch: int = 1000) -> int:
    """Delete the expired keys, ``batch`` rows per statement and transaction (short, so that
    the sweep never holds up the writes); how many were deleted. Run hourly by beat."""
    cutoff = idempotency_cutoff()
    deleted = 0
    while True:
        ids = list(
            IdempotencyKey.objects.filter(created_at__lt=cutoff)
            .order_by("created_at")
            .values_list("pk", flat=True)[:batch]
        )
        if not ids:
            return deleted
        with transaction.atomic():
            deleted += IdempotencyKey.objects.filter(pk__in=ids).delete()[0]
        if len(ids) < batch:
            return deleted


def idempotency_store(
    *, entry: IdempotencyKey, status_code: int, response: Any, headers: dict[str, str] | None = None
) -> IdempotencyKey:
    """Record the outcome of the request that claimed ``entry`` (same transaction)."""
    entry.status_code = status_code
    entry.response = response
    entry.headers = headers or {}
    entry.save(update_fields=["status_code", "response", "headers"])
    return entry


# -- internals -------------------------------------------------------------------------
def _lock(match: Match | int, *, by=None) -> Match:
    """The match row, locked until the transaction ends, with ``seat_count`` and ``is_scorer``
    (see ``_read``). What changes with each write lives on the locked row itself
    (``version``, ``hand_count``, ``state``), so a write that waited for the lock reads it as
    the previous one committed it.
    """
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("_lock must run inside the transaction of the write it guards")
    return _read(match, by=by, lock=True)


def _read(match: Match | int, *, by=None, lock: bool = False) -> Match:
    """The match row read in one statement with its ``seat_count`` and whether ``by`` is a
    scorer (``is_scorer``, see ``match_read_columns``); locked (``FOR UPDATE``) when ``lock``.

    Hand-written SQL (read by ``scorekeeper.rawrows``) because this runs on every write and
    the ORM spent longer compiling the same query (``select_for_update(of=("self",))
    .annotate(seat_count=<count subquery>, is_scorer=Exists(...))``) than the database took
    to run it; tests/test_services_lock.py checks the lock and both columns.
    """
    pk = match.pk if isinstance(match, Match) else match
    # An id no bigint holds is no match (as the ORM's get() would say), not a database error.
    row = None
    if is_match_id(pk):
        reader, sql = _read_query(lock)
        using = Match.objects.db
        row = fetch_one(using, sql, [_user_pk(by), pk])
    if row is None:
        raise errors.NotFound(f"no match {pk}", field="match", code="match_not_found")
    return reader.read(row, using)


def is_match_id(pk: Any) -> bool:
    """Whether ``pk`` can be a match's id at all (ids are positive PostgreSQL bigints)."""
    return 0 < int(pk) <= MAX_ID


@dataclass(frozen=True)
class MatchRead:
    """A match as a write reads it for the user ``user_pk`` (``_read``, no lock), made ahead of
    the write: the API's token look-up reads it in the same statement as the token's user
    (api/authentication.py) and ``hand_record`` takes it for its own read. Safe however old,
    because the write is conditional on the version read: a stale one is a version conflict.
    """

    match: Match
    user_pk: int | None


def match_read_columns(user: str) -> tuple[RowReader, str]:
    """The select list of a match read, the match aliased ``m``: its columns, its seat count and
    whether the user the SQL expression ``user`` names scores it; the reader reads them back.

    The subqueries lock nothing and read the statement's snapshot: right for the seats (fixed
    when the match is created) and the scorers (only ever added).
    """
    reader = _match_reader()
    columns = (
        f"{reader.columns},"
        f" (SELECT count(*) FROM {Seat._meta.db_table} s WHERE s.match_id = m.id),"
        f" EXISTS (SELECT 1 FROM {Match.scorers.through._meta.db_table} x"
        f"  WHERE x.match_id = m.id AND x.user_id = {user})"
    )
    return reader, columns


@functools.cache
def _match_reader() -> RowReader:
    return RowReader(Match, "m", extra=[("seat_count", None), ("is_scorer", None)])


@functools.cache
def _read_query(lock: bool) -> tuple[RowReader, str]:
    connection = transaction.get_connection()
    reader, columns = match_read_columns("%s")
    for_update = " FOR UPDATE OF m" if lock and connection.features.has_select_for_update_of else ""
    return reader, f"SELECT {columns} FROM {Match._meta.db_table} m WHERE m.id = %s{for_update}"


def _user_pk(by) -> int | None:
    return by.pk if getattr(by, "is_authenticated", False) else None


def _require_scorer(match: Match, by) -> None:
    """``match`` comes from ``_lock(match, by=by)``, which read whether ``by`` is a scorer."""
    if by is None:
        return
    if not getattr(by, "is_authenticated", False):
        raise errors.NotAllowed("sign in to write to a match", code="not_authenticated")
    if by.is_superuser or match.is_scorer:
        return
    raise errors.NotAllowed("only the match's scorers may record, correct or void it")


def _require_version(match: Match, version: int | None) -> None:
    if version is None or version == match.version:
        return
    # What is now current, so a device that lost a race can show it without another request.
    last = _current(match).select_related("recorded_by").order_by("-number").first()
    raise errors.VersionConflict(
        f"the match is at version {match.version}, not {version}: reload it and try again",
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


def _required_reason(reason: str) -> str:
    reason = (reason or "").strip()
    if not reason:
        raise errors.ReasonRequired("a reason is required", field="reason")
    return reason


def _players_in_order(players: Sequence[Player | int]) -> list[Player]:
    ids = [p.pk if isinstance(p, Player) else p for p in players]
    for i, pk in enumerate(ids):
        if not is_int(pk):
            raise errors.SeatsInvalid(f"player {pk!r} is not a player id", field=f"players[{i}]")
    found = Player.objects.in_bulk(ids)
    seated = []
    for i, pk in enumerate(ids):
        if pk not in found:
            raise errors.SeatsInvalid(
                f"there is no player {pk}", field=f"players[{i}]", code="player_unknown"
            )
        if pk in ids[:i]:
            raise errors.SeatsInvalid(
                f"{found[pk]} is already seated in this match", field=f"players[{i}]", code="player_twice"
            )
        seated.append(found[pk])
    return seated


def _teams(game: str, seats: int, teams: Sequence[int] | None) -> list[int | None]:
    fixed = PARTNERSHIPS.get(game)
    if fixed is None:
        if teams:
            raise errors.SeatsInvalid(f"{game} is not a partnership game: no teams", field="teams")
        return [None] * seats
    if teams is not None and list(teams) != list(fixed):
        raise errors.SeatsInvalid(
            f"{game} is played by fixed teams {list(fixed)} (seats 0+2 against 1+3)", field="teams"
        )
    return list(fixed)


def _ruleset(match: Match):
    """The match's ruleset; ``match`` comes from ``_lock``, which read its ``seat_count``."""
    # Canonical JSON, so that equal options share one cache entry whatever their key order.
    options = json.dumps(match.options, sort_keys=True, separators=(",", ":"))
    return _ruleset_for(find_ruleset(match.game), match.preset, options, match.seat_count)


@functools.lru_cache(maxsize=256)
def _ruleset_for(ruleset_class, preset: str, options: str, seats: int):
    """Rulesets are immutable once created and resolving the options takes a while: one per
    game, preset, options and seat count serves every write of every match played so."""
    return ruleset_class.create(preset, json.loads(options), seats)


def _accepted_evaluation(game, state, record, accept_declared: bool, reason: str):
    """The engine's evaluation if the hand may be stored; raises HandRejected/ReasonRequired."""
    ev = game.evaluate(state, record, accept_declared=bool(accept_declared))
    if ev.errors:
        first = ev.errors[0]
        raise errors.HandRejected(
            first.message, evaluation=ev.to_dict(), code="hand_invalid", field=errors.record_field(first.path)
        )
    if ev.mismatches:
        seats = ", ".join(str(m.seat) for m in ev.mismatches)
        if not accept_declared:
            raise errors.HandRejected(
                f"declared scores differ from the rules for seat(s) {seats}: {ev.mismatches[0].explanation}",
                evaluation=ev.to_dict(),
                code="score_mismatch",
            )
        if not reason:
            raise errors.ReasonRequired(
                "accepting declared scores over the rules needs a reason",
                field="reason",
                mismatches=ev.to_dict()["mismatches"],
            )
    return ev


def _hand_fields(record: Any, ev, seats: int) -> dict[str, Any]:
    """The columns of a hand row for ``record`` evaluated as ``ev``."""
    bad = bool(ev.errors)
    return {
        "record": record,
        "dealer": _dealer(record, seats),
        "declared": _declared(record),
        "computed": ev.scores,
        "state_after": ev.state_after,
        "evaluation": ev.to_dict(),
        "accepted_declared": bool(ev.mismatches),
        "status": Hand.Status.DISPUTED if bad or ev.mismatches else Hand.Status.VALID,
    }


def _dealer(record: Any, seats: int) -> int | None:
    dealer = record.get("dealer") if isinstance(record, dict) else None
    return dealer if is_int(dealer) and 0 <= dealer < seats else None


def _declared(record: Any) -> Any:
    if isinstance(record, dict):
        for key in DECLARED_KEYS:
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


def _replay(match: Match, game, state, hands: list[Hand], by, *, cause: str) -> list[int]:
    """Re-evaluate ``hands`` in order from ``state``; returns the numbers that got a new version."""
    changed = []
    for hand in hands:
        ev = game.evaluate(state, hand.record, accept_declared=True)
        fields = _hand_fields(hand.record, ev, game.seats)
        if any(getattr(hand, name) != value for name, value in fields.items()):
            hand = _supersede(hand, by=by, reason=cause, **fields)
            _audit(by, AuditEntry.Action.HAND_REEVALUATE, match=match, hand=hand, payload=_hand_payload(hand))
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
    over = _status_for(state) == Match.Status.FINISHED
    match.result = last.evaluation.get("result") if over else None
    if match.status != Match.Status.VOID:
        match.status = _status_for(state)


def _status_for(state: dict | None) -> str:
    return Match.Status.FINISHED if state and state.get("over") else Match.Status.IN_PROGRESS


def _save(match: Match) -> None:
    match.version += 1
    match.save(update_fields=["state", "result", "status", "version", "hand_count", "updated_at"])


def _store_recorded(match: Match, hand: Hand, by) -> bool:
    """Write a recorded hand if the match is still at the version it was read at: UPDATE the
    match (``_refresh`` and the count already applied to ``match``, version bumped here),
    INSERT the hand and its ``hand_record`` audit entry. False, with nothing written, when
    another write changed the match's version since it was read.

    On PostgreSQL the three writes are one statement (``_store_recorded_sql``), atomic
    without a transaction of its own: each ORM statement cost more Python than the database
    spent running it, and BEGIN and COMMIT were two more round trips. Elsewhere (SQLite) the
    ORM writes them one by one in a transaction. Both set the same columns to the same values.
    """
    now = timezone.now()
    hand.recorded_at = now
    match.updated_at = now
    read_version = match.version
    match.version += 1
    audit = AuditEntry(
        actor=by, at=now, action=AuditEntry.Action.HAND_RECORD, match=match, payload=_hand_payload(hand)
    )
    connection = transaction.get_connection()
    if connection.vendor != "postgresql":
        with transaction.atomic():
            changed = Match.objects.filter(pk=match.pk, version=read_version).update(
                **{name: getattr(match, name) for name in _MATCH_WRITTEN}
            )
            if not changed:
                match.version = read_version
                return False
            hand.save(force_insert=True)
            audit.hand = hand
            AuditEntry.objects.bulk_create([audit])
        return True
    sql, match_fields, hand_fields, audit_fields = _store_recorded_sql()
    params = [
        *_db_values(match, match_fields, connection),
        match.pk,
        read_version,
        *_db_values(hand, hand_fields, connection),
        *_db_values(audit, audit_fields, connection),
    ]
    row = fetch_one(connection.alias, sql, params)
    if row is None:
        match.version = read_version
        return False
    hand.pk = row[0]
    hand._state.adding = False
    hand._state.db = connection.alias
    return True


#: The match columns a write to its hands changes (``_refresh``, ``hand_count``, ``version``).
_MATCH_WRITTEN = ("state", "result", "status", "version", "hand_count", "updated_at")


@functools.cache
def _store_recorded_sql() -> tuple[str, list, list, list]:
    """The one PostgreSQL statement of ``_store_recorded`` and the fields of its parameters.

    The UPDATE of the match is conditional on its version; the hand is inserted from its
    RETURNING row and the audit entry from the hand's, so when the version moved on nothing
    is written and the statement returns no row. (Under READ COMMITTED an UPDATE that waited
    for a concurrent writer re-checks its WHERE against the committed row.) The inserted
    values are SELECTed, not VALUES, hence their explicit casts; text rather than varchar(n),
    whose cast would truncate where an assignment errs.
    """
    connection = transaction.get_connection()
    match_fields = [Match._meta.get_field(name) for name in _MATCH_WRITTEN]
    hand_fields = [f for f in Hand._meta.concrete_fields if not f.primary_key]
    audit_fields = [f for f in AuditEntry._meta.concrete_fields if not f.primary_key and f.name != "hand"]

    def values(fields):
        types = (f.db_type(connection) for f in fields)
        return ", ".join("%s::" + ("text" if kind.startswith("varchar") else kind) for kind in types)

    sql = (
        f'WITH match AS (UPDATE "{Match._meta.db_table}" SET '
        + ", ".join(f'"{f.column}" = %s' for f in match_fields)
        + ' WHERE "id" = %s AND "version" = %s RETURNING "id"),'
        f' hand AS (INSERT INTO "{Hand._meta.db_table}" ({_column_list(hand_fields)})'
        f' SELECT {values(hand_fields)} FROM match RETURNING "id"),'
        f' audit AS (INSERT INTO "{AuditEntry._meta.db_table}" ({_column_list(audit_fields)}, "hand_id")'
        f' SELECT {values(audit_fields)}, hand."id" FROM hand)'
        ' SELECT "id" FROM hand'
    )
    return sql, match_fields, hand_fields, audit_fields


def _db_values(instance, fields, connection) -> list[Any]:
    """``field.get_db_prep_save(value)`` for each field, for the values a recording sets
    (ints, strings, aware datetimes, None, JSON) on PostgreSQL: only JSON needs adapting for
    the driver. The general method cost more than the database took to run the write;
    tests/test_services_store.py checks both give the same."""
    return [
        Jsonb(value, dumps=_json_text_for(field.encoder))
        if isinstance(field, JSONField) and value is not None
        else value
        for field in fields
        for value in (getattr(instance, field.attname),)
    ]


#: Dates and dataclasses are not JSON to ``json.dumps``: orjson hands them back to it.
_ORJSON_LIKE_JSON_DUMPS = orjson.OPT_PASSTHROUGH_DATETIME | orjson.OPT_PASSTHROUGH_DATACLASS


@functools.cache
def _json_text_for(encoder):
    """How a JSONField with ``encoder`` writes a value as text for a jsonb column: with orjson,
    several times quicker than Django's ``json.dumps`` on a hand's five documents. Whatever
    orjson refuses (integers beyond 64 bits, keys that are not strings, dates) is left to
    ``json.dumps`` with the field's encoder, as Django would. jsonb keeps the value, not the
    text: the spacing and float spelling of the two encoders do not reach the database."""

    def json_text(value: Any) -> bytes | str:
        try:
            return orjson.dumps(value, option=_ORJSON_LIKE_JSON_DUMPS)
        except TypeError:
            return json.dumps(value, cls=encoder)

    return json_text


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
