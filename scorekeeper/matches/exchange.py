"""Export a match as a document (JSON) or a score sheet (CSV rows), and import the document back.

The export carries everything needed to rebuild the match — game, preset, resolved options,
title, when it was played, players in seat order (with teams), every current hand's record in
order with the ``accept_declared`` flag and reason it stands on — and, for information, what the site
computed: declared and computed scores, statuses, running totals, the result, the match
version. An import reads only the rebuilding fields (``IMPORT_FIELDS``) and records every
hand again through ``services.hand_record``, so the rules engine is the authority on the
importing site: the informational fields are never trusted, only recomputed.

Decisions (docs/api.md, "Export and import"):
- Players are matched by ``player`` (an id on this site) when the entry has one. A file this
  site exported (its ``site`` is ``settings.SCOREKEEPER_SITE``) binds each player by the
  exported ``id``, so players sharing a name are no ambiguity. Otherwise, by exact name: the
  one player with that name is reused, none → created, several → refused
  (``player_ambiguous``: give ``player``). The ``id`` of a file from another site is never
  used to match, so such a file cannot bind the wrong person.
- A hand is validated like live recording: errors refuse it; mismatches need
  ``accept_declared`` and a reason (the export carries both for disputed hands). A hand
  left unplayable by a correction (disputed with errors, no score) cannot be recorded live,
  so a match holding one cannot be imported until that hand is corrected.
- All or nothing: one transaction; the first bad hand stops it with its number and the
  engine's errors and mismatches, and nothing is stored.
"""

from __future__ import annotations

import json
from typing import Any, cast

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from scorekeeper.clubs.models import Club

from . import errors, services
from .models import AuditEntry, Match, Player
from .selectors import match_current_hands, players_seen_by, running_values

FORMAT = "scorekeeper-match"
#: Bumped only when an import of an older document would be read wrongly.
FORMAT_VERSION = 1
#: A safety bound on one import; real matches have at most a few dozen hands.
MAX_HANDS = 1000
#: What an import reads; every other key of the document is information for people.
IMPORT_FIELDS = {
    "document": (
        "format",
        "format_version",
        "site",
        "game",
        "preset",
        "options",
        "title",
        "played_at",
        "players",
        "hands",
    ),
    "players[]": ("player", "id", "name", "team"),
    "hands[]": ("record", "accept_declared", "reason"),
    "void": ("status", "void_reason"),
}


# -- export ----------------------------------------------------------------------------
def match_export(*, match: Match) -> dict[str, Any]:
    """The export document of ``match`` (format ``FORMAT``, version ``FORMAT_VERSION``)."""
    seats = list(match.seats.select_related("player").order_by("position"))
    hands = []
    current = list(match_current_hands(match=match))
    for hand in current:
        hands.append(
            {
                "number": hand.number,
                "record": hand.record,
                "accept_declared": hand.accepted_declared,
                "reason": hand.reason,
                # For information: what this site made of the record.
                "version": hand.version,
                "status": hand.status,
                "dealer": hand.dealer,
                "declared": hand.declared,
                "computed": hand.computed,
                "running": running_values(hand.state_after),
                "errors": hand.evaluation.get("errors", []),
                "mismatches": hand.evaluation.get("mismatches", []),
            }
        )
    return {
        "format": FORMAT,
        "format_version": FORMAT_VERSION,
        "site": settings.SCOREKEEPER_SITE,
        "exported_at": timezone.now().isoformat(),
        "match": match.pk,
        "version": match.version,
        "game": match.game,
        "preset": match.preset,
        "options": match.options,
        "title": match.title,
        "status": match.status,
        "void_reason": _void_reason(match) if match.status == Match.Status.VOID else None,
        "created_at": match.created_at.isoformat(),
        "played_at": _played_at(match, current),
        "players": [
            {"seat": s.position, "name": s.player.name, "team": s.team, "id": s.player_id} for s in seats
        ],
        "hands": hands,
        "totals": running_values(match.state),
        "result": match.result,
    }


def _played_at(match: Match, hands: list) -> str | None:
    """When the match was played, so that an import keeps its place in a pool's play order: the
    date its scorer gave, else (a match recorded as it was played) when its last hand was
    recorded once it is over; nothing for a match still in play."""
    if match.played_at is not None:
        return match.played_at.isoformat()
    if match.status == Match.Status.FINISHED and hands:
        return max(hand.recorded_at for hand in hands).isoformat()
    return None


def is_export(data: Any) -> bool:
    return isinstance(data, dict) and data.get("format") == FORMAT and "hands" in data


def _void_reason(match: Match) -> str:
    entry = match.audit.filter(action=AuditEntry.Action.MATCH_VOID).order_by("-at", "-id").first()
    return (entry.payload or {}).get("reason", "") if entry else ""


def match_export_rows(document: dict[str, Any]) -> list[list[Any]]:
    """The score sheet of an export document as CSV rows, the header first.

    One row per current hand: number, dealer (by name), each seat's declared and computed
    score, the status, each seat's running total (bank in cul) after the hand, the reason.
    """
    names = [p["name"] for p in document["players"]]
    running = "bank" if document["game"] == "cul" else "total"
    header = [
        "hand",
        "dealer",
        *(f"declared {n}" for n in names),
        *(f"computed {n}" for n in names),
        "status",
        *(f"{running} {n}" for n in names),
        "reason",
    ]
    rows: list[list[Any]] = [header]
    for hand in document["hands"]:
        dealer = hand["dealer"]
        rows.append(
            [
                hand["number"],
                names[dealer] if dealer is not None and 0 <= dealer < len(names) else "",
                *_per_seat(hand["declared"], len(names)),
                *_per_seat(hand["computed"], len(names)),
                hand["status"],
                *_per_seat(hand["running"], len(names)),
                hand["reason"],
            ]
        )
    return rows


def _per_seat(values: Any, seats: int) -> list[Any]:
    """One cell per seat; a value that is not one number per seat is kept whole in the first cell."""
    if values is None:
        return [""] * seats
    if isinstance(values, list) and len(values) == seats:
        return ["" if v is None else v if isinstance(v, int | float | str) else json.dumps(v) for v in values]
    return [json.dumps(values), *[""] * (seats - 1)]


# -- import ----------------------------------------------------------------------------
def match_import(*, document: dict[str, Any], by, club: Club | None = None) -> Match:
    """Rebuild a match from an export document (already checked for shape), all or nothing, in
    ``club`` (the home club when None): its players are found among those ``by`` may see, or
    made on the club's roster.

    Raises ``errors.Invalid`` (400) for anything wrong in the document; a hand's error names
    the hand (``hand``: its number, ``field``: ``hands[i]…``) and keeps the engine's result.
    """
    version = document.get("format_version")
    if document.get("format") != FORMAT:
        raise errors.Invalid(
            _("this is not a match export (format must be '%(format)s')") % {"format": FORMAT},
            field="format",
            code="format_unknown",
        )
    if version != FORMAT_VERSION:
        raise errors.Invalid(
            _("export format version %(version)s is not supported (this site reads %(supported)s)")
            % {"version": repr(version), "supported": FORMAT_VERSION},
            field="format_version",
            code="format_version_unsupported",
        )
    hands = document.get("hands") or []
    if len(hands) > MAX_HANDS:
        raise errors.Invalid(
            _("at most %(most)s hands per import") % {"most": MAX_HANDS}, field="hands", code="too_many_hands"
        )
    with transaction.atomic():
        # A file this site exported names it: its players are bound by their id here, so two
        # players of the same name are no ambiguity. A file from elsewhere goes by name.
        same_site = bool(document.get("site")) and document.get("site") == settings.SCOREKEEPER_SITE
        entries = document.get("players") or []
        players = [
            _import_player(entry, i, by, same_site=same_site, club=club) for i, entry in enumerate(entries)
        ]
        teams = [entry.get("team") for entry in document.get("players") or []]
        match = services.match_create(
            # Any JSON value: match_create answers one that names no game with game_unknown.
            game=cast(str, document.get("game")),
            preset=document.get("preset") or "classic",
            options=document.get("options") or {},
            players=players,
            teams=teams if any(t is not None for t in teams) else None,
            title=document.get("title") or "",
            played_at=document.get("played_at"),  # parsed by the API, checked by the service
            by=by,
            club=club,
        )
        for i, entry in enumerate(hands):
            try:
                services.hand_record(
                    match=match,
                    record=entry.get("record"),
                    by=by,
                    accept_declared=bool(entry.get("accept_declared")),
                    reason=entry.get("reason") or "",
                )
            except (errors.Invalid, errors.Conflict) as exc:
                # Inside an import a hand the match cannot take (even a 409 live, like a hand
                # after the end) is a fault of the document: 400, naming the hand.
                field = f"hands[{i}].{exc.field}" if exc.field else f"hands[{i}]"
                raise errors.Invalid(
                    _("hand %(number)s: %(message)s") % {"number": i + 1, "message": exc.message},
                    field=field,
                    code=exc.code,
                    hand=i + 1,
                    **exc.extra,
                ) from None
        if document.get("status") == Match.Status.VOID:
            reason = document.get("void_reason") or "void in the imported export"
            match = services.match_void(match=match, by=by, reason=reason)
        match.refresh_from_db()
    return match


def _import_player(
    entry: dict[str, Any], index: int, by, *, same_site: bool = False, club: Club | None = None
) -> Player:
    field = f"players[{index}]"
    # Among the players ``by`` may see: a private club's are no one to an outsider, by id or name.
    seen = Player.objects.all() if by is None else players_seen_by(by)
    pk = entry.get("player")
    if pk is not None:
        player = seen.filter(pk=pk).first()
        if player is None:
            raise errors.Invalid(
                _("there is no player %(pk)s") % {"pk": pk}, field=f"{field}.player", code="player_unknown"
            )
        return player
    if same_site and entry.get("id") is not None:
        player = seen.filter(pk=entry["id"]).select_related("merged_into").first()
        if player is not None:
            # A duplicate merged since the export is the player he was merged into now.
            return player.merged_into or player  # otherwise (gone since), by name as for any file
    name = (entry.get("name") or "").strip()
    if not name:
        raise errors.Invalid(
            _("a player needs a name or a player id"), field=f"{field}.name", code="name_missing"
        )
    found = list(seen.filter(name=name, merged_into__isnull=True).values_list("pk", flat=True)[:10])
    if len(found) > 1:
        raise errors.Invalid(
            _("several players are named '%(name)s': give the one meant as %(field)s.player")
            % {"name": name, "field": field},
            field=f"{field}.name",
            code="player_ambiguous",
            candidates=found,
        )
    if found:
        return Player.objects.get(pk=found[0])
    return services.player_create(name=name, by=by, club=club)
