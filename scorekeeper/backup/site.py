"""A whole site in one file, and the check that two sites hold the same (docs/operations.md,
"Backup and restore").

The file is JSON (gzip-compressed when its name ends in ``.gz``)::

    {"format": "scorekeeper-site", "format_version": 1, "site": …, "exported_at": …,
     "migrations": {app: its latest applied migration},
     "objects": [Django's serialization of every carried row],
     "check": {"tables": {label: {count, digest}}, "sheets": {count, digest, matches},
               "ratings": {count, digest}, "pending": {…}}}

``objects`` is what ``manage.py dumpdata`` writes, and the import hands it to ``manage.py
loaddata``: Django's own serialization, deserialization, constraint checks and sequence reset,
in one transaction. Every carried row keeps its id, so a match is at the same address after a
restore, and is named by it; the rows ``migrate`` makes, content types and permissions, are
named by their natural keys (a fresh database has them under other ids). Two things differ
from ``dumpdata``: times keep their microseconds (Django's JSON encoder cuts them to
milliseconds, and the pool order of the ratings and the sheets' times need them whole), and
every row is written in a canonical form (sorted keys, sorted many-to-many lists) from which
its table's digest is taken.

``check`` is what the import verifies before it commits: each carried table's row count and a
digest of its rows, and a digest of every match's score sheet (``match_score_sheet``, in the
site's default language), so that a restore that did not give back every row and every sheet
is rolled back. The ratings are not carried: they are derived, and rebuilt from the matches
and their rating events by a full recompute after the commit; their digest in ``check`` is
then compared with the rebuilt ones.

A site is exported in one read-only snapshot (PostgreSQL: REPEATABLE READ), so the file is
consistent while the site goes on recording.
"""

from __future__ import annotations

import contextlib
import gzip
import hashlib
import io
import json
import os
import tempfile
from collections.abc import Iterable, Iterator
from datetime import date, datetime, time
from pathlib import Path
from typing import IO, Any

from django.apps import apps
from django.conf import settings
from django.core import serializers
from django.core.management import call_command
from django.db import connection, transaction
from django.db.migrations.recorder import MigrationRecorder
from django.db.models import Model, Prefetch
from django.utils import timezone, translation

from ratings.models import PlayerRating, RatingEvent, RatingHistory
from ratings.services import rating_pool_recompute, rating_recompute_request
from scorekeeper.clubs.models import Club, ClubAuditEntry, Membership
from scorekeeper.matches.models import ClubPlayer, Match
from scorekeeper.matches.selectors import match_score_sheet
from scorekeeper.outbox.models import OutboxMessage

FORMAT = "scorekeeper-site"
#: Bumped only when an import of an older file would be read wrongly.
FORMAT_VERSION = 1
#: Rows read and serialized at a time.
CHUNK = 2000

#: What a backup carries: every recorded fact and every setting stored in the database.
CARRIED = (
    "auth.group",  # with its permissions
    "auth.user",  # username, names, email, password hash, flags, groups, permissions
    "accounts.preference",  # each user's language and time zone
    "account.emailaddress",  # each user's addresses and whether they are verified (allauth)
    # Second factors (allauth): TOTP secrets are encrypted with SECRET_KEY, so a site restored
    # under another key asks its users to sign in with a recovery code and set TOTP up again.
    "mfa.authenticator",
    "accounts.pendinginvitation",  # the invitation an account signed up with, applied or not
    "knox.authtoken",  # API tokens (digests only, like the password hashes): devices stay signed in
    "clubs.club",  # with its settings and house rules
    "clubs.membership",  # every stretch of every role, ended ones too
    "clubs.invitation",  # digests only: a code given out still works after a restore
    "clubs.joinrequest",
    "clubs.clubauditentry",
    "matches.player",  # with the player's account
    "matches.clubplayer",  # the clubs' rosters and guests
    "matches.match",  # with its scorers
    "matches.seat",
    "matches.hand",  # every version, superseded ones too
    "matches.handconfirmation",  # the other side's answers to each version
    "matches.auditentry",
    "events.event",  # a club's events, with their points, tie-breaks and seed
    "events.entrant",  # withdrawn entries too
    "events.round",
    "events.eventtable",  # a round's tables (replaced ones too), their matches, byes, forfeits
    "events.eventauditentry",
    # A match's first rating event is its place in its pool's order (docs/ratings.md): the
    # events are facts of when each match finished, the input of the ratings, not derived.
    "ratings.ratingevent",
    "admin.logentry",  # the admin's history of changes
)
#: What it leaves out, and why (a model in neither list fails tests/backup: decide for it).
LEFT_OUT = {
    "contenttypes.contenttype": "made by migrate; the file names them by natural key",
    "auth.permission": "made by migrate; the file names them by natural key",
    "sessions.session": "sign-ins to the pages: people sign in again",
    "usersessions.usersession": "the list of one's sign-ins, as the sessions: people sign in again",
    "account.emailconfirmation": "unused: verification links carry their own signed key (allauth's HMAC)",
    "ratings.ratingpool": "derived: rebuilt by the recompute",
    "ratings.playerrating": "derived: rebuilt by the recompute",
    "ratings.ratinghistory": "derived: rebuilt by the recompute",
    "ratings.recomputejob": "the log of past recomputes; the restore's recompute is a new one",
    "outbox.outboxmessage": "background work in flight: the restore's recompute rates every match",
    "matches.playerclaimcode": "one-time codes to link an account, valid a day: a scorer gives a new one",
    "idempotency.idempotencykey": "the answers a retry replays, forgotten after a day anyway",
    "axes.accessattempt": "sign-in failures: counted in the cache, not in these tables",
    "axes.accessattemptexpiration": "sign-in failures: counted in the cache, not in these tables",
    "axes.accessfailurelog": "sign-in failures: counted in the cache, not in these tables",
    "axes.accesslog": "sign-in failures: counted in the cache, not in these tables",
}


class BackupError(Exception):
    """A file that cannot be imported here, or an import that did not give back what it holds."""


def carried_models() -> list[type[Model]]:
    """The carried models, each after the models its natural keys refer to (Django's order)."""
    models = [apps.get_model(label) for label in CARRIED]
    return serializers.sort_dependencies([(None, models)])


# -- the canonical form ------------------------------------------------------------------
def _plain(value: Any) -> Any:
    if isinstance(value, datetime | date | time):
        return value.isoformat()  # with its microseconds, unlike DjangoJSONEncoder
    raise TypeError(f"{type(value).__name__} is not JSON serializable")


def canonical(value: Any) -> str:
    """``value`` as JSON text with sorted keys and no spaces: one text for one value."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=_plain)


class Digest:
    """A digest of a set of texts, whatever their order (databases sort text keys differently)."""

    def __init__(self) -> None:
        self.hashes: list[bytes] = []

    def add(self, text: str) -> None:
        self.hashes.append(hashlib.sha256(text.encode()).digest())

    def result(self) -> dict[str, Any]:
        whole = hashlib.sha256(b"".join(sorted(self.hashes)))
        return {"count": len(self.hashes), "digest": whole.hexdigest()}


# -- reading the site --------------------------------------------------------------------
def _natural_foreign_keys(model: type[Model]) -> list[str]:
    """The foreign keys of ``model`` to models with natural keys (users, content types): read
    with their rows, else the serializer reads each one on its own."""
    return [
        field.name
        for field in model._meta.concrete_fields
        if field.is_relation and hasattr(field.related_model, "natural_key")
    ]


def _to_carried(model: type[Model]) -> tuple[list, list]:
    """The foreign keys and many-to-many fields of ``model`` to carried models that have
    natural keys (users, groups): written as ids, since those rows keep their ids, and a
    natural key would cost the load a query for every row naming one."""
    carried = {apps.get_model(label) for label in CARRIED}
    fields = [*model._meta.concrete_fields, *model._meta.many_to_many]
    named = [
        f
        for f in fields
        if f.is_relation and f.related_model in carried and hasattr(f.related_model, "natural_key")
    ]
    return [f for f in named if not f.many_to_many], [f for f in named if f.many_to_many]


def rows(model: type[Model]) -> Iterator[dict[str, Any]]:
    """Every row of ``model`` as Django serializes it, in id order: the rows the file carries
    named by their ids, those ``migrate`` makes (content types, permissions) by their natural
    keys; many-to-many lists sorted."""
    queryset = model._base_manager.order_by("pk").select_related(*_natural_foreign_keys(model))
    for field in model._meta.many_to_many:
        related = field.related_model
        queryset = queryset.prefetch_related(
            Prefetch(
                field.name, queryset=related._base_manager.select_related(*_natural_foreign_keys(related))
            )
        )
    batch: list[Model] = []
    for instance in queryset.iterator(chunk_size=CHUNK):
        batch.append(instance)
        if len(batch) == CHUNK:
            yield from _serialized(model, batch)
            batch = []
    yield from _serialized(model, batch)


def _serialized(model: type[Model], batch: list[Model]) -> Iterator[dict[str, Any]]:
    by_id, many_by_id = _to_carried(model)
    many = [field.name for field in model._meta.many_to_many]
    serialized = serializers.serialize("python", batch, use_natural_foreign_keys=True)
    for instance, row in zip(batch, serialized, strict=True):
        for field in by_id:
            row["fields"][field.name] = getattr(instance, field.attname)
        for field in many_by_id:
            row["fields"][field.name] = [related.pk for related in getattr(instance, field.name).all()]
        for name in many:
            row["fields"][name] = sorted(row["fields"][name], key=canonical)
        yield row


def sheets() -> dict[str, Any]:
    """A digest of every match's score sheet, in the site's default language (the sheet names
    the engine's messages in the reader's), and of all of them in id order."""
    matches: dict[str, str] = {}
    with translation.override(settings.LANGUAGE_CODE):
        for match in Match.objects.order_by("pk").iterator(chunk_size=CHUNK):
            sheet = canonical(match_score_sheet(match=match))
            matches[str(match.pk)] = hashlib.sha256(sheet.encode()).hexdigest()
    whole = hashlib.sha256("".join(f"{pk} {digest}\n" for pk, digest in matches.items()).encode())
    return {"count": len(matches), "digest": whole.hexdigest(), "matches": matches}


def ratings() -> dict[str, Any]:
    """A digest of every player's rating and rating history, named by game, player and match
    (not by the pools' ids, which a recompute on another site gives anew)."""
    digest = Digest()
    current = PlayerRating.objects.values_list(
        "pool__game", "player_id", "mu", "sigma", "conservative", "matches", "wins", "last_played_at"
    )
    for row in current.order_by().iterator(chunk_size=CHUNK):
        digest.add(canonical(["rating", *row]))
    history = RatingHistory.objects.values_list(
        "pool__game", "player_id", "match_id", "played_at", "side", "place",
        "mu_before", "sigma_before", "mu_after", "sigma_after", "win_probability",
    )  # fmt: skip
    for entry in history.order_by().iterator(chunk_size=CHUNK):
        digest.add(canonical(["history", *entry]))
    return digest.result()


def pending() -> dict[str, int]:
    """Work the site had not done yet: rating events not rated, background tasks not run."""
    return {
        "rating_events": RatingEvent.objects.filter(processed_at__isnull=True).count(),
        "outbox_messages": OutboxMessage.objects.filter(done_at__isnull=True).count(),
    }


def migrations() -> dict[str, str]:
    """Each app's latest applied migration: the release whose schema the rows are in."""
    latest: dict[str, str] = {}
    for app, name in MigrationRecorder(connection).applied_migrations():
        latest[app] = max(name, latest.get(app, ""))
    return dict(sorted(latest.items()))


def site_summary(*, only: dict[str, set] | None = None) -> dict[str, Any]:
    """What ``site_check`` prints and an import is checked by: each carried table's count and
    digest, every sheet's digest, the ratings' digest, the work pending. ``only``: per table,
    the ids to count (the rows an import loaded into a database that had some already)."""
    tables = {}
    for model in carried_models():
        label = model._meta.label_lower
        digest = Digest()
        for row in rows(model):
            if only is None or row["pk"] in only[label]:
                digest.add(canonical(row))
        tables[label] = digest.result()
    return {
        "migrations": migrations(),
        "tables": tables,
        "sheets": sheets(),
        "ratings": ratings(),
        "pending": pending(),
    }


@contextlib.contextmanager
def _snapshot() -> Iterator[None]:
    """One transaction that sees the site as it was at its start, while writes go on."""
    outermost = not transaction.get_connection().in_atomic_block
    with transaction.atomic():
        if outermost and connection.vendor == "postgresql":
            with connection.cursor() as cursor:  # before any other statement of the transaction
                cursor.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ, READ ONLY")
        yield


# -- export ------------------------------------------------------------------------------
def site_export(*, path: str | Path) -> dict[str, Any]:
    """Write the whole site to ``path`` (gzip if it ends in ``.gz``); its ``check``.

    Written beside ``path`` first and moved there when complete, so that a failed export leaves
    no half file under the name; readable by its owner only (it holds the password hashes)."""
    path = Path(path)
    partial = path.with_name(path.name + ".partial")
    try:
        with _open_write(partial, compress=path.name.endswith(".gz")) as stream, _snapshot():
            head = {
                "format": FORMAT,
                "format_version": FORMAT_VERSION,
                "site": settings.SCOREKEEPER_SITE,
                "exported_at": timezone.now(),
                "migrations": migrations(),
            }
            stream.write(canonical(head)[:-1] + ',"objects":[\n')
            tables, first = {}, True
            for model in carried_models():
                digest = Digest()
                for row in rows(model):
                    text = canonical(row)
                    digest.add(text)
                    stream.write(text if first else ",\n" + text)
                    first = False
                tables[model._meta.label_lower] = digest.result()
            check = {"tables": tables, "sheets": sheets(), "ratings": ratings(), "pending": pending()}
            stream.write('\n],"check":' + canonical(check) + "}\n")
        os.replace(partial, path)
    finally:
        partial.unlink(missing_ok=True)
    return check


@contextlib.contextmanager
def _open_write(path: Path, *, compress: bool) -> Iterator[IO[str]]:
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with open(descriptor, "wb") as raw:
        binary = gzip.GzipFile(fileobj=raw, mode="wb") if compress else raw
        with binary, io.TextIOWrapper(binary, encoding="utf-8") as text:
            yield text


# -- import ------------------------------------------------------------------------------
def read(path: str | Path) -> dict[str, Any]:
    """The document in ``path``, checked to be a site export of this format."""
    path = Path(path)
    try:
        with (
            gzip.open(path, "rt", encoding="utf-8")
            if path.name.endswith(".gz")
            else path.open(encoding="utf-8") as stream
        ):
            document = json.load(stream)
    except (OSError, ValueError, EOFError) as exc:
        raise BackupError(f"{path} cannot be read as a site export: {exc}") from None
    if not isinstance(document, dict) or document.get("format") != FORMAT:
        raise BackupError(f"{path} is not a site export (format {FORMAT!r})")
    if document.get("format_version") != FORMAT_VERSION:
        raise BackupError(
            f"{path} is of format_version {document.get('format_version')!r}; "
            f"this release reads {FORMAT_VERSION}"
        )
    check = document.get("check")
    missing = [key for key in ("migrations", "objects", "check") if key not in document]
    missing += [
        f"check.{key}"
        for key in ("tables", "sheets", "ratings", "pending")
        if isinstance(check, dict) and key not in check
    ]
    shaped = all(
        isinstance(document.get(key), kind)
        for key, kind in (("migrations", dict), ("objects", list), ("check", dict))
    )
    if missing or not shaped:
        raise BackupError(f"{path} lacks {', '.join(missing) or 'its parts'}: it is not a complete export")
    return document


def occupied() -> dict[str, int]:
    """The carried tables that have rows already, with their counts (the home club that
    ``migrate`` makes, while nothing refers to it, counts for none: the file brings its own)."""
    counts = {model._meta.label_lower: model._base_manager.count() for model in carried_models()}
    if _empty_home_club() is not None:
        counts["clubs.club"] -= 1
    return {label: count for label, count in counts.items() if count}


def _empty_home_club() -> Club | None:
    """The home club as ``migrate`` made it: no member, player, match or audit entry yet."""
    club = Club._base_manager.filter(slug=settings.HOME_CLUB_SLUG).first()
    if club is None:
        return None
    used = (
        Membership._base_manager.filter(club=club).exists()
        or ClubPlayer._base_manager.filter(club=club).exists()
        or Match._base_manager.filter(club=club).exists()
        or club.audit.exists()
    )
    return None if used else club


def _make_way_for_the_files_home_club(home_rows: list) -> Club | None:
    """A file's home club may have another id than the one made here (by ``migrate``, or by the
    first account of a site set up before a ``--force`` import), and slugs are unique. An empty
    one gives way; one in use steps aside under a slug of its own, and ``_join_home_clubs`` moves
    what it holds into the file's after the load. Returns the one that stepped aside."""
    theirs = [
        row["pk"] for row in home_rows if (row.get("fields") or {}).get("slug") == settings.HOME_CLUB_SLUG
    ]
    ours = Club._base_manager.filter(slug=settings.HOME_CLUB_SLUG).first()
    if ours is None or not theirs or theirs[0] == ours.pk:
        return None
    if _empty_home_club() is not None:
        Club._base_manager.filter(pk=ours.pk).delete()
        return None
    Club._base_manager.filter(pk=ours.pk).update(slug=f"{settings.HOME_CLUB_SLUG}-{ours.pk}-before-import")
    return ours


def _join_home_clubs(stepped_aside: Club | None) -> None:
    """The rows of this site's own home club join the file's home club (a ``--force`` import)."""
    if stepped_aside is None:
        return
    home = Club._base_manager.get(slug=settings.HOME_CLUB_SLUG)
    for model in (Membership, ClubPlayer, Match, ClubAuditEntry):
        model._base_manager.filter(club=stepped_aside).update(club=home)
    Club._base_manager.filter(pk=stepped_aside.pk).delete()


def site_import(*, path: str | Path, force: bool = False, recompute: bool = True) -> dict[str, Any]:
    """Load the export in ``path`` into this database and check it; rebuild the ratings.

    Refused unless this database is at the export's migrations (the same release) and, unless
    ``force``, has no row in any carried table. The load and its check are one transaction: a
    table or a sheet that differs from the file's rolls it all back. ``force``: a row of the file
    replaces the row with its id, the other rows stay. Then, unless ``recompute`` is off, every
    pool is rebuilt (as a full recompute does) and compared with the file's ratings. Returns
    the summary of the site as loaded."""
    document = read(path)
    here = migrations()
    if document["migrations"] != here:
        differ = sorted(
            f"{app}: file {document['migrations'].get(app, '-')}, here {here.get(app, '-')}"
            for app in set(here) | set(document["migrations"])
            if document["migrations"].get(app) != here.get(app)
        )
        raise BackupError(
            "the file was written at other migrations than this database's (" + "; ".join(differ) + "): "
            "import it with the release it came from, then upgrade (manage.py migrate)"
        )
    if not force and (rows_here := occupied()):
        listed = ", ".join(f"{label} {count}" for label, count in rows_here.items())
        raise BackupError(
            f"the database is not empty ({listed}): import into a fresh one (manage.py migrate), "
            "or pass --force to load over what is there"
        )
    objects, check = document.pop("objects"), document["check"]
    ids: dict[str, set] = {model._meta.label_lower: set() for model in carried_models()}
    for row in objects:
        label = row.get("model") if isinstance(row, dict) else None
        if not isinstance(label, str) or label not in ids or not isinstance(row.get("pk"), int | str):
            raise BackupError(f"the file holds a row that no carried table takes: {str(row)[:200]}")
        ids[label].add(row["pk"])
    home_rows = [row for row in objects if row.get("model") == "clubs.club"]
    with tempfile.TemporaryDirectory() as folder:
        fixture = Path(folder) / "site.json"
        with fixture.open("w", encoding="utf-8") as stream:
            json.dump(objects, stream, ensure_ascii=False)
        del objects
        with transaction.atomic():
            stepped_aside = _make_way_for_the_files_home_club(home_rows)
            try:
                call_command("loaddata", str(fixture), verbosity=0)
            except Exception as exc:  # whatever it is, the transaction rolls back: nothing is stored
                raise BackupError(f"the file could not be loaded (nothing is stored): {exc}") from exc
            _join_home_clubs(stepped_aside)
            summary = site_summary(only=ids if force else None)
            problems = differences(check, summary, ratings=False)
            if problems:
                raise BackupError(
                    "the import does not give back the file (nothing is stored): " + "; ".join(problems)
                )
    if recompute:
        ratings_rebuild()
        summary["ratings"] = ratings()
        # Compared when they can be equal: the source's were up to date with its matches, and
        # no rows of this site's own were rated with the file's.
        if not force and not check["pending"]["rating_events"]:
            problems = differences(check, summary, tables=False, sheets=False)
            if problems:
                raise BackupError(
                    "the data are loaded, but the rebuilt ratings differ: " + "; ".join(problems)
                )
    return summary


def ratings_rebuild() -> None:
    """A full recompute, run here: the job and its pool tasks are queued as usual (through the
    outbox; a worker that takes one after this run finds its pool done and skips it), and each
    pool is rebuilt in this process too, so that the ratings are there when the command ends,
    with or without a worker."""
    job = rating_recompute_request()
    for pool in job.pools:
        rating_pool_recompute(pool=pool, job=job.pk)


def differences(
    expected: dict[str, Any], found: dict[str, Any], *, tables=True, sheets=True, ratings=True
) -> list[str]:
    """What differs between two summaries (a file's ``check`` and this site's), in words."""
    problems = []
    if tables:
        for label, want in expected["tables"].items():
            got = found["tables"].get(label, {"count": 0, "digest": None})
            if got["count"] != want["count"]:
                problems.append(f"{label}: {got['count']} rows, the file has {want['count']}")
            elif got["digest"] != want["digest"]:
                problems.append(f"{label}: the rows differ from the file's")
    if sheets:
        want, got = expected["sheets"]["matches"], found["sheets"]["matches"]
        differ = [pk for pk, digest in want.items() if got.get(pk) != digest]
        if differ:
            shown = ", ".join(differ[:20]) + (" …" if len(differ) > 20 else "")
            problems.append(f"the score sheets of {len(differ)} match(es) differ: {shown}")
    if ratings and expected["ratings"] != found["ratings"]:
        want, got = expected["ratings"], found["ratings"]
        problems.append(f"ratings: {got['count']} rows here, {want['count']} in the file, digests differ")
    return problems


def summary_lines(summary: dict[str, Any], *, every_sheet: bool = False) -> Iterable[str]:
    """The summary as lines of text, the same on two sites that hold the same (``diff`` them)."""
    for app, name in summary["migrations"].items():
        yield f"migration {app} {name}"
    for label, table in summary["tables"].items():
        yield f"table {label} {table['count']} {table['digest']}"
    yield f"sheets {summary['sheets']['count']} {summary['sheets']['digest']}"
    if every_sheet:
        for pk, digest in summary["sheets"]["matches"].items():
            yield f"sheet {pk} {digest}"
    yield f"ratings {summary['ratings']['count']} {summary['ratings']['digest']}"
    for kind, count in summary["pending"].items():
        yield f"pending {kind} {count}"
