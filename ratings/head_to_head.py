"""The head-to-head records kept per pair (``HeadToHead``, issue 21): their upkeep.

Each row is one player's record against another in one game: how often they met (every seat
opposite his in a finished match), his wins, losses and draws (of the meetings with a place for
both), as ``ratings.reads.head_to_head`` counts them from the seats. They follow the matches as
the ratings do, under the pool's lock:

- ``recount``: the pairs of an event's matches, counted again over all their finished matches
  (``ratings.services.rating_pool_update``, ``rating_pool_recompute``), whatever the matches
  are now; a backlog too large for lists of ids rebuilds the game's records whole;
- ``recount_players``: every record of the players of a merge (``rating_player_merged``);
- ``rebuild``: every record of a game, a range of matches at a time (a backlog; a restore).

The counting is ``pair_records`` (and ``pair_counts`` in numpy arrays, added up per pair by
``merge_pair_counts``).
"""

from __future__ import annotations

from array import array
from collections.abc import Iterable, Sequence

import numpy as np
from django.db import connection
from django.db.models import Count, Q

from scorekeeper.matches.models import Match, Seat

from .models import HeadToHead
from .pool_reading import CHUNK

#: Matches (or their players) of a batch of events beyond which their game's records are
#: rebuilt whole: a backlog (a synthetic store, a worker back after an outage) holds most of
#: the game's pairs anyway, in statements too long for a list of ids.
RECOUNT_MATCHES = 2000
RECOUNT_PLAYERS = 1000


def recount(game: str, matches: Iterable[int]) -> None:
    """Count again, from the seats, the records of every two players of ``matches`` (in
    ``game``): whatever these matches are now (finished, corrected, void, reopened), the pairs
    they can change are counted anew over all their finished matches, so a repeat changes
    nothing. The matches where two of them sat are found from their seats alone (a few
    thousand index entries), then read with their results."""
    ids = sorted(set(matches))
    if len(ids) > RECOUNT_MATCHES:
        rebuild(game)
        return
    players = set(Seat.objects.filter(match_id__in=ids).order_by().values_list("player_id", flat=True))
    if len(players) > RECOUNT_PLAYERS:
        rebuild(game)
        return
    if len(players) < 2:
        return
    shared = (
        Seat.objects.filter(player_id__in=players)
        .order_by()
        .values("match_id")
        .annotate(n=Count("id"))
        .filter(n__gte=2)
        .values_list("match_id", flat=True)
    )
    seats = Seat.objects.filter(
        match_id__in=list(shared),
        player_id__in=players,
        match__game=game,
        match__status=Match.Status.FINISHED,
    ).order_by()
    _write(
        game,
        seats.values_list("match_id", "match__result__placements", "player_id", "position", "team"),
        replace=HeadToHead.objects.filter(game=game, player_id__in=players, opponent_id__in=players),
    )


def recount_players(game: str, players: Sequence[int]) -> None:
    """Count again every record of ``players`` in ``game`` (against anyone), from the seats of
    their finished matches (a merge: the duplicate's records are the other's now)."""
    finished = Seat.objects.filter(
        player_id__in=players, match__game=game, match__status=Match.Status.FINISHED
    )
    seats = Seat.objects.filter(match_id__in=finished.values("match_id")).order_by()
    _write(
        game,
        seats.values_list("match_id", "match__result__placements", "player_id", "position", "team"),
        replace=HeadToHead.objects.filter(Q(player_id__in=players) | Q(opponent_id__in=players), game=game),
        only=set(players),
    )


def rebuild(game: str) -> int:
    """Every head-to-head record of ``game`` again, from the seats of its finished matches (in
    the caller's transaction). Returns how many were written."""
    finished = Match.objects.filter(game=game, status=Match.Status.FINISHED)
    ids = list(finished.order_by("pk").values_list("pk", flat=True))
    parts = []
    # A range of match ids at a time (a million matches: four million seats; a range, not a
    # list of ids, in two parameters), each range's pairs added up before the next is read.
    for i in range(0, len(ids), CHUNK * 10):
        first, last = ids[i], ids[min(i + CHUNK * 10, len(ids)) - 1]
        matches = finished.filter(pk__gte=first, pk__lte=last)
        placements = dict(matches.order_by().values_list("pk", "result__placements"))
        seats = Seat.objects.filter(
            match__game=game, match__status=Match.Status.FINISHED, match_id__gte=first, match_id__lte=last
        ).order_by()
        parts.append(
            pair_counts(
                (match, placements.get(match), player, position, team)
                for match, player, position, team in seats.values_list(
                    "match_id", "player_id", "position", "team"
                )
            )
        )
    players, opponents, counts = merge_pair_counts(parts)
    del parts
    HeadToHead.objects.filter(game=game).delete()
    for i in range(0, len(players), 50_000):  # rows as Python objects a slice at a time
        _insert(
            game,
            zip(players[i : i + 50_000].tolist(), opponents[i : i + 50_000].tolist(),
                *counts[i : i + 50_000].T.tolist(), strict=True),
        )  # fmt: skip
    return len(players)


def _write(game: str, seats: Iterable[tuple], *, replace, only: set[int] | None = None) -> None:
    """Replace the rows of ``replace`` by the records of ``seats`` (those of the ``only``
    players, if given: the other pairs of their matches were not read whole)."""
    rows = [row for row in pair_records(seats) if only is None or row[0] in only or row[1] in only]
    replace.delete()
    _insert(game, rows)


def _insert(game: str, rows: Iterable[tuple]) -> None:
    """Store ``rows`` (player, opponent, met, wins, losses, draws) of ``game``."""
    if connection.vendor == "postgresql":
        # A rebuild writes 250,000 rows for 500 players: a COPY, not bulk_create.
        columns = ", ".join(
            f'"{HeadToHead._meta.get_field(name).column}"'
            for name in ("player", "opponent", "game", "met", "wins", "losses", "draws")
        )
        with (
            connection.cursor() as cursor,
            cursor.copy(f'COPY "{HeadToHead._meta.db_table}" ({columns}) FROM STDIN') as copy,
        ):
            for player, other, *counts in rows:
                copy.write_row((player, other, game, *counts))
        return
    HeadToHead.objects.bulk_create(
        (
            HeadToHead(
                player_id=player, opponent_id=other, game=game, met=met, wins=wins, losses=losses, draws=draws
            )
            for player, other, met, wins, losses, draws in rows
        ),
        batch_size=1000,
    )


# -- the counting --------------------------------------------------------------------------
def pair_records(seats: Iterable[tuple]) -> list[tuple[int, int, int, int, int, int]]:
    """(player, opponent, met, wins, losses, draws) of every two players over ``seats``: rows
    (match id, the result's placements, player id, position, team) of every seat of some
    finished matches, in any order. ``met`` as ``reads.head_to_head.opponents`` counts (every
    seat opposite his), the record as its ``meetings`` makes it (a place for both); each pair
    comes both ways. What ``HeadToHead`` keeps."""
    players, opponents, counts = pair_counts(seats)
    return list(zip(players.tolist(), opponents.tolist(), *counts.T.tolist(), strict=True))


def pair_counts(seats: Iterable[tuple]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``pair_records`` in arrays (numpy: a full rebuild counts millions of pairs): players,
    opponents, and their (met, wins, losses, draws), one row a pair."""
    # Plain arrays as they are read (a chunk of a million matches' seats).
    match, player, place, placed, team = array("q"), array("q"), array("q"), array("b"), array("q")
    for match_id, placements, who, position, seat_team in seats:
        # reads.head_to_head's _place(placements, position), written out: a rebuild reads every
        # seat of the game.
        at = (
            placements[position] if isinstance(placements, list) and 0 <= position < len(placements) else None
        )
        if type(at) is not int:
            at = None
        match.append(match_id)
        player.append(who)
        placed.append(at is not None)
        place.append(at or 0)
        team.append(-1 if seat_team is None else seat_team)
    if not match:
        return _no_pairs()
    matches = np.frombuffer(match, np.int64)
    order = np.argsort(matches, kind="stable")
    match_of, player_of = matches[order], np.frombuffer(player, np.int64)[order]
    place_of, placed_of = np.frombuffer(place, np.int64)[order], np.frombuffer(placed, np.int8)[order] == 1
    team_of = np.frombuffer(team, np.int64)[order]
    # Every two seats of a match: each seat with the one d places after it in the sorted rows
    # (the seats of a match are together), for each d up to the largest table.
    largest = int(np.unique(match_of, return_counts=True)[1].max())
    firsts, seconds = [], []
    for d in range(1, largest):
        i = np.flatnonzero(match_of[:-d] == match_of[d:])
        firsts += [i, i + d]
        seconds += [i + d, i]
    if not firsts:
        return _no_pairs()
    one, two = np.concatenate(firsts), np.concatenate(seconds)
    # Opposite sides: no team for one of them (free for all), or two teams (partners did not meet).
    opposite = (team_of[one] < 0) | (team_of[two] < 0) | (team_of[one] != team_of[two])
    one, two = one[opposite], two[opposite]
    both = placed_of[one] & placed_of[two]
    ahead, behind = place_of[one] < place_of[two], place_of[one] > place_of[two]
    counts = np.stack([np.ones(len(one), bool), both & ahead, both & behind, both & ~ahead & ~behind], axis=1)
    return merge_pair_counts([(player_of[one], player_of[two], counts)])


def merge_pair_counts(parts: Sequence[tuple]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The counts of ``parts`` (``pair_counts``' arrays, or their rows of single meetings)
    added up per pair."""
    if not parts:
        return _no_pairs()
    players = np.concatenate([part[0] for part in parts])
    opponents = np.concatenate([part[1] for part in parts])
    counts = np.concatenate([part[2] for part in parts]).astype(np.int64)
    if not len(players):
        return _no_pairs()
    if max(players.max(), opponents.max()) < 2**31:  # one key a pair (ids of 31 bits)
        keys, index = np.unique((players << 32) | opponents, return_inverse=True)
        players, opponents = keys >> 32, keys & 0xFFFFFFFF
    else:
        keys, index = np.unique(np.stack([players, opponents], axis=1), axis=0, return_inverse=True)
        players, opponents = keys[:, 0], keys[:, 1]
    index = index.reshape(-1)
    summed = np.stack(
        [np.bincount(index, weights=counts[:, k], minlength=len(keys)) for k in range(4)], axis=1
    )
    return players, opponents, summed.astype(np.int64)


def _no_pairs() -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    return np.zeros(0, np.int64), np.zeros(0, np.int64), np.zeros((0, 4), np.int64)
