"""Reads: the querysets and score sheets the pages and the API show."""

from __future__ import annotations

from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch, QuerySet

from . import i18n
from .models import AuditEntry, Hand, Match, Player, Seat


def player_list(*, search: str = "") -> QuerySet[Player]:
    players = Player.objects.all()
    if search.strip():
        players = players.filter(name__icontains=search.strip())
    return players


def match_list(
    *,
    game: str | None = None,
    player: Player | int | None = None,
    status: str | None = None,
    created_from: date | None = None,
    created_to: date | None = None,
) -> QuerySet[Match]:
    """Matches newest first; ``created_from`` / ``created_to`` are inclusive days (UTC)."""
    matches = Match.objects.select_related("created_by").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position")), "scorers"
    )
    if game:
        matches = matches.filter(game=game)
    if status:
        matches = matches.filter(status=status)
    if player is not None:
        matches = matches.filter(seats__player=player)
    if created_from is not None:
        matches = matches.filter(created_at__date__gte=created_from)
    if created_to is not None:
        matches = matches.filter(created_at__date__lte=created_to)
    return matches


def match_with_seats() -> QuerySet[Match]:
    """Matches with their seats in order and the seats' players, read in one more query: for a
    page that names the players (the title, the seats) more than once."""
    return Match.objects.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))
    )


def user_by_username(*, username: str):
    """The active user with this username, or None."""
    return get_user_model().objects.filter(username=username, is_active=True).first()


def match_current_hands(*, match: Match) -> QuerySet[Hand]:
    return match.hands.exclude(status=Hand.Status.SUPERSEDED).order_by("number")


def hand_history(*, match: Match, number: int) -> QuerySet[Hand]:
    """Every version of hand ``number``, oldest first (the last one is current)."""
    return match.hands.filter(number=number).select_related("recorded_by").order_by("version")


def match_audit(*, match: Match) -> QuerySet[AuditEntry]:
    # The services give every entry about a hand its match too, so the match's index finds
    # them all (an OR through the hand's match could use no index).
    return AuditEntry.objects.filter(match=match).select_related("actor")


def running_values(state: dict[str, Any] | None) -> list | None:
    """What a score sheet shows after a hand: totals, or cul's banks."""
    if not state:
        return None
    for key in ("totals", "banks"):
        if key in state:
            return state[key]
    return None


def match_score_sheet(*, match: Match) -> dict[str, Any]:
    """The score sheet: seats, every current hand with declared and computed scores and the
    running totals (banks in cul) after it, the current totals and the result when over."""
    seats = [
        {"position": s.position, "player": s.player_id, "name": s.player.name, "team": s.team}
        for s in match.seats.select_related("player").order_by("position")
    ]
    # Only what the sheet shows: not the records, and of each evaluation and state only the
    # keys read here (JSON key lookups in the database, so a 60-hand sheet decodes little).
    username = f"recorded_by__{get_user_model().USERNAME_FIELD}"
    rows = match_current_hands(match=match).values(
        "number", "version", "dealer", "status", "declared", "computed", "accepted_declared", "reason",
        "recorded_at", recorded_by_name=F(username),
        run_totals=F("state_after__totals"), run_banks=F("state_after__banks"),
        ev_errors=F("evaluation__errors"), ev_mismatches=F("evaluation__mismatches"),
        ev_warnings=F("evaluation__warnings"),
    )  # fmt: skip
    hands = [
        {
            "number": row["number"],
            "version": row["version"],
            "dealer": row["dealer"],
            "status": row["status"],
            "declared": row["declared"],
            "computed": row["computed"],
            "running": row["run_totals"] if row["run_totals"] is not None else row["run_banks"],
            "accepted_declared": row["accepted_declared"],
            "reason": row["reason"],
            # Engine messages in the reader's language, from their stored codes.
            "errors": i18n.problems(row["ev_errors"] or []),
            "mismatches": i18n.mismatches(row["ev_mismatches"] or []),
            "warnings": i18n.problems(row["ev_warnings"] or []),
            "recorded_by": row["recorded_by_name"],
            "recorded_at": row["recorded_at"],
        }
        for row in rows
    ]
    return {
        "match": match.pk,
        "game": match.game,
        "status": match.status,
        "version": match.version,
        "played_at": match.played_at,
        "seats": seats,
        "hands": hands,
        "totals": running_values(match.state),
        "state": match.state,
        "result": match.result,
    }
