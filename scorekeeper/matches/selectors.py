"""Reads: the querysets and score sheets the pages and the API show."""

from __future__ import annotations

from collections.abc import Iterable
from datetime import date
from typing import Any

from django.contrib.auth import get_user_model
from django.db.models import F, Prefetch, QuerySet, prefetch_related_objects

from scorekeeper.clubs.models import Club, Role
from scorekeeper.clubs.selectors import clubs_seen_by, has_role
from scorekeeper.rules import RULESETS

from . import i18n
from .models import AuditEntry, ClubPlayer, Hand, HandConfirmation, Match, Player, Seat

#: ``viewer`` left out: the system's own read, every player.
SYSTEM = object()


def players_seen_by(viewer: Any) -> QuerySet[Player]:
    """The players ``viewer`` may see: those of a club he may see (its roster or its guests).
    A player of a private club only is not shown to outsiders; one who plays in a public club
    too is, with only what the public club shows."""
    seen = clubs_seen_by(viewer)
    if seen is None:
        return Player.objects.all()
    return Player.objects.filter(pk__in=ClubPlayer.objects.filter(club__in=seen).values("player_id"))


def player_list(*, search: str = "", viewer: Any = SYSTEM, club: Club | None = None) -> QuerySet[Player]:
    """The players to list and pick from, those ``viewer`` may see (of ``club`` only when
    given: its roster and its guests): not those merged into another."""
    players = Player.objects.all() if viewer is SYSTEM else players_seen_by(viewer)
    players = players.filter(merged_into__isnull=True)
    if club is not None:
        players = players.filter(pk__in=ClubPlayer.objects.filter(club=club).values("player_id"))
    if search.strip():
        players = players.filter(name__icontains=search.strip())
    return players


def club_games(club: Club) -> list[str]:
    """The games of ``club``'s finished matches (those its boards rank), in the engine's order."""
    played = set(
        Match.objects.filter(club=club, status=Match.Status.FINISHED)
        .values_list("game", flat=True)
        .distinct()
    )
    return [game for game in RULESETS if game in played]


def match_list(
    *,
    game: str | None = None,
    player: Player | int | None = None,
    status: str | None = None,
    created_from: date | None = None,
    created_to: date | None = None,
    club: Club | None = None,
) -> QuerySet[Match]:
    """Matches newest first (in a request, of the clubs its viewer may see: the manager's
    guard); ``created_from`` / ``created_to`` are inclusive days (UTC)."""
    # The scorers in the order the score sheet lists them (by user name), so that the sheet
    # takes them from here rather than reading them again.
    scorers = get_user_model().objects.order_by("username")
    matches = Match.objects.select_related("created_by", "club").prefetch_related(
        _seats_in_order(), Prefetch("scorers", queryset=scorers)
    )
    if club is not None:
        matches = matches.filter(club=club)
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


def _seats_in_order() -> Prefetch:
    return Prefetch("seats", queryset=Seat.objects.select_related("player").order_by("position"))


def match_with_seats() -> QuerySet[Match]:
    """Matches with their seats in order and the seats' players, read in one more query: for a
    page that names the players (the title, the seats) more than once."""
    return Match.objects.prefetch_related(_seats_in_order())


def match_hand(*, pk: int, number: int) -> Hand | None:
    """The current version of hand ``number`` of match ``pk`` (None: no such match or hand), with
    its match and its recorder read in the same statement, and the match's seats as
    ``match_with_seats`` reads them: the recorded hand's page, a statement fewer than reading the
    match and then its hand. Hands are not scoped themselves: their match is looked up through
    its scoped manager, so a private club's hand is None to whoever may not see the club."""
    hand = (
        Hand.objects.exclude(status=Hand.Status.SUPERSEDED)
        .filter(match_id=pk, number=number, match__in=Match.objects.filter(pk=pk).values("pk"))
        .select_related("match", "recorded_by")
        .first()
    )
    if hand is not None:
        prefetch_related_objects([hand.match], _seats_in_order())
    return hand


def seats_of(match: Match) -> list[Seat]:
    """The match's seats in order with their players: those ``match_with_seats`` or ``match_list``
    read with it, else read now."""
    if "seats" in getattr(match, "_prefetched_objects_cache", {}):
        return list(match.seats.all())
    return list(match.seats.select_related("player").order_by("position"))


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


def match_sides(*, match: Match) -> dict[int, tuple]:
    """player id → his side in ``match``: his team in a partnership game, else his seat alone."""
    return {
        seat.player_id: ("team", seat.team) if seat.team is not None else ("seat", seat.position)
        for seat in match.seats.all()
    }


def hand_recorder_side(*, match: Match, hand: Hand, sides: dict[int, tuple]) -> tuple | None:
    """The side of the seated player whose account recorded ``hand`` (this version), or None
    when its recorder plays no seat of the match (a club's scorer, the system, an import).
    Reads the match's seats (prefetched on the pages) rather than looking the account up."""
    if hand.recorded_by_id is None:
        return None
    player = next((s.player_id for s in match.seats.all() if s.player.user_id == hand.recorded_by_id), None)
    return None if player is None else sides.get(player)


def user_scores_match(*, user, match: Match) -> bool:
    """Whether ``user`` may write to ``match``: one of its scorers, a director or admin of its
    club, or staff (as ``services._require_scorer`` decides).

    A page asks it more than once (the view's permission, then its template tags): the answer
    is kept on this ``match`` object, which a request reads afresh, so the question costs one
    query a request, none where the page read the match with its scorers (``match_list``)."""
    if not getattr(user, "is_authenticated", False):
        return False
    if user.is_superuser:
        return True
    known = match.__dict__.setdefault("_scorer_answers", {})
    if user.pk not in known:
        scorers = getattr(match, "_prefetched_objects_cache", {}).get("scorers")
        if scorers is not None:
            known[user.pk] = any(scorer.pk == user.pk for scorer in scorers)
        else:
            known[user.pk] = match.scorers.filter(pk=user.pk).exists()
        if not known[user.pk]:
            known[user.pk] = has_role(match.club_id, user, Role.DIRECTOR)
    return known[user.pk]


def seated_player_of(*, match: Match, user) -> Player | None:
    """The player of ``match`` linked to ``user``'s account, if he plays in it."""
    if not getattr(user, "is_authenticated", False):
        return None
    return next((s.player for s in match.seats.all() if s.player.user_id == user.pk), None)


def hand_answers(
    *, match: Match, names: dict[int, str] | None = None, hands: Iterable[int] | None = None
) -> dict[int, dict[str, Any]]:
    """hand row id → the latest answer of the other side to that version (``answer``,
    ``player``, ``player_name``, ``at_table``, ``reason``, ``at``): every answer of the match read
    at once (or only those to the versions ``hands``, hand row ids), the latest of each version
    kept. The answering players are seated, so their names come from ``names`` (player id → name)
    or the match's seats."""
    answers = HandConfirmation.objects.filter(match=match)
    if hands is not None:
        # Still through the match's index (``hand`` has none); no hands, no query.
        answers = answers.filter(hand_id__in=list(hands))
    rows = list(
        answers.order_by("at", "id").values("hand_id", "answer", "player_id", "at_table", "reason", "at")
    )
    if names is None:
        names = {seat.player_id: seat.player.name for seat in match.seats.all()} if rows else {}
    return {row["hand_id"]: {**row, "player_name": names.get(row["player_id"], "?")} for row in rows}


def hands_answered(
    *, match: Match, hands: Iterable[Hand], answers: dict[int, dict[str, Any]] | None = None
) -> list[Hand]:
    """``hands`` (versions of ``match``'s hands, current or not), each given the other side's word
    on that version as the score sheet gives it: ``confirmation``, ``confirmed_by``,
    ``confirmed_at_table`` and ``dispute_reason``. Their answers are read in one query, unless
    the caller passes them (``hand_answers``' mapping). The names come from the match's seats,
    so a match read with them (``match_list``, ``match_with_seats``) costs no more."""
    hands = list(hands)
    if answers is None:
        answers = hand_answers(match=match, hands=[hand.pk for hand in hands])
    for hand in hands:
        for key, value in _confirmation(answers.get(hand.pk)).items():
            setattr(hand, key, value)
    return hands


def match_all_confirmed(*, match: Match) -> bool:
    """Whether the match has hands and the latest answer to each current one confirms it."""
    current = list(match_current_hands(match=match).values_list("pk", flat=True))
    answers = hand_answers(match=match, names={})
    return bool(current) and all(
        answers.get(pk, {}).get("answer") == HandConfirmation.Answer.CONFIRMED for pk in current
    )


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
    seats: list[dict[str, Any]] = [
        {"position": s.position, "player": s.player_id, "name": s.player.name, "team": s.team}
        for s in seats_of(match)
    ]
    # Only what the sheet shows: not the records, and of each evaluation and state only the
    # keys read here (JSON key lookups in the database, so a 60-hand sheet decodes little).
    username = f"recorded_by__{get_user_model().USERNAME_FIELD}"
    rows = match_current_hands(match=match).values(
        "pk", "number", "version", "dealer", "status", "declared", "computed", "accepted_declared", "reason",
        "recorded_at", recorded_by_name=F(username),
        run_totals=F("state_after__totals"), run_banks=F("state_after__banks"),
        ev_errors=F("evaluation__errors"), ev_mismatches=F("evaluation__mismatches"),
        ev_warnings=F("evaluation__warnings"),
    )  # fmt: skip
    answers = hand_answers(match=match, names={seat["player"]: seat["name"] for seat in seats})
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
            # The other side's word on this version: confirmed, disputed, or still waiting.
            **_confirmation(answers.get(row["pk"])),
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
        "confirmed_at": match.confirmed_at,
    }


def _confirmation(answer: dict[str, Any] | None) -> dict[str, Any]:
    if answer is None:
        return {"confirmation": "waiting", "confirmed_by": None, "confirmed_at_table": False,
                "dispute_reason": ""}  # fmt: skip
    return {
        "confirmation": answer["answer"],
        "confirmed_by": answer["player_name"],
        "confirmed_at_table": answer["at_table"],
        "dispute_reason": answer["reason"],
    }
