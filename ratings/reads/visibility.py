"""What a viewer may see of the ratings (issue 33): the clubs whose matches count in what he
is shown, and the players he may look up.

A private club's matches and its private-only players are invisible to non-members. The
reads of the seats and of the rating history are not guarded by the clubs' scope (only
``Match.objects`` and ``ClubPlayer.objects`` are: ``scorekeeper/clubs/scoping.py``), so every
read that a request reaches takes ``clubs``, the subquery of the club ids the viewer sees
(``None``: every club, for staff and the system), and keeps its seats and history rows to
the matches of those clubs (``in_clubs``). A player's rating itself is the federation's: it
may include matches of clubs the viewer does not see.
"""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from django.http import Http404

from scorekeeper.clubs.selectors import clubs_seen_by
from scorekeeper.matches.models import ClubPlayer, Player
from scorekeeper.matches.selectors import players_seen_by

#: The clubs of a read: a subquery of club ids, or None for every club.
Clubs = QuerySet | None


def clubs_of_viewer(viewer: Any) -> Clubs:
    """The clubs ``viewer`` sees (None: staff, every club)."""
    return clubs_seen_by(viewer)


def in_clubs(rows: QuerySet, clubs: Clubs, *, match: str = "match") -> QuerySet:
    """``rows`` (seats, history rows: anything with a match at ``match``) kept to the matches
    of ``clubs`` (all of them when None)."""
    if clubs is None:
        return rows
    return rows.filter(**{f"{match}__club_id__in": clubs})


def players_of_unseen_clubs(clubs: Clubs) -> QuerySet | None:
    """The ids of the players on the roster or among the guests of a club not in ``clubs``
    (None: every club is seen, so none): only these can have matches the viewer does not see
    (a match seats only its club's players). Read through the unguarded base manager: the
    question is the system's (a request's scope would keep the rows to the clubs it sees)."""
    if clubs is None:
        return None
    return ClubPlayer._base_manager.exclude(club_id__in=clubs).values("player_id")


def clubs_for_player(player: Player | int, clubs: Clubs) -> Clubs:
    """``clubs`` for the reads of ``player``'s matches, or None when he plays in no club outside
    them (one probe of his clubs' rows): then every match of his is one the viewer sees, and his
    reads need not join each seat or history row to its match's club."""
    if clubs is None:
        return None
    pk = player.pk if isinstance(player, Player) else player
    if not ClubPlayer._base_manager.filter(player_id=pk).exclude(club_id__in=clubs).exists():
        return None
    return clubs


def player_seen(pk: int, viewer: Any) -> Player:
    """The player ``pk`` if ``viewer`` may see him (he is on the roster of, or played as a
    guest in, a club the viewer sees), else a 404, as for a player who does not exist."""
    player = players_seen_by(viewer).filter(pk=pk).first()
    if player is None:
        raise Http404(f"no player {pk}")
    return player


def seen_player_ids(ids: list[int], viewer: Any) -> set[int]:
    """Those of ``ids`` that ``viewer`` may see."""
    return set(players_seen_by(viewer).filter(pk__in=ids).values_list("pk", flat=True))
