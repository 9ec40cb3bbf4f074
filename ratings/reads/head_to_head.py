"""Head-to-head reads (issue 21): how two players fared against each other, and whom a player
met most often.

Two players *met* in a finished match (not void, not in progress) where both sat on opposite
sides: in a partnership game (piquet-voleur) on opposite teams; partners did not meet. Of a
meeting, the player who placed above the other (the match result's ``placements``, 1 the best)
won it; equal places are a draw. So a multiplayer table counts between any two of its players
by who finished ahead of whom.

The reads are one query for the seats of the matches both played (however many matches there
are), one for the ratings behind the chances; pages fetch only the matches they show. A list
of opponents is ranked by one grouped count of the seats opposite his (a finished match's
result places every seat), and the records are read for the opponents shown only. A profile's
few rivals come from one read of his finished matches' seats and the seats opposite
(``opposed``), as the API's list of opponents does. (A table of the records per pair, kept as
the rating events came in, held 13.8 million rows at 1,000,000 random matches, twice the
pool's history; issue 32.)
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import NamedTuple

from django.db.models import Count, Exists, F, OuterRef, Q

from scorekeeper.matches.models import Match, Player, Seat

from ..engine import Rating
from ..models import PlayerRating
from ..raters import rater
from .visibility import Clubs, in_clubs

WIN, LOSS, DRAW = "win", "loss", "draw"
#: How many of the players met most often a profile shows.
RIVALS_SHOWN = 5


class Meeting(NamedTuple):
    """One finished match in which ``player`` met ``opponent``; ``outcome`` is ``player``'s (a
    named tuple: a busy player's list holds thousands, made three times faster than frozen
    dataclasses)."""

    match_id: int
    game: str
    #: When the match was started (None when read without dates).
    played_at: datetime | None
    opponent_id: int
    outcome: str
    place: int
    opponent_place: int


@dataclass
class Record:
    """Wins, losses and draws of one player against another (his side of it)."""

    wins: int = 0
    losses: int = 0
    draws: int = 0

    @property
    def played(self) -> int:
        return self.wins + self.losses + self.draws

    def add(self, outcome: str) -> None:
        if outcome == WIN:
            self.wins += 1
        elif outcome == LOSS:
            self.losses += 1
        else:
            self.draws += 1

    def copy(self) -> Record:
        return Record(self.wins, self.losses, self.draws)


@dataclass(frozen=True)
class Chances:
    """The model's chances today if the two met alone in ``game``: ``win`` (the first player's),
    ``loss`` (the other's win) and ``draw``, summing to 1 (``Rater.outcome_probabilities``;
    ``draw`` None where the model gives none); ``rated`` whether
    both have rated matches in the game (else a newcomer counts with the prior)."""

    game: str
    win: float
    loss: float
    draw: float | None
    rated: bool


class Opponent(NamedTuple):
    """A player as a list of opponents names him (hundreds of them: no model instances)."""

    id: int
    name: str

    @property
    def pk(self) -> int:
        return self.id


@dataclass
class Rival:
    """A player met often: the record against him, per game and in all, and today's chances
    in the game they met in most."""

    player: Opponent
    record: Record
    games: Counter = field(default_factory=Counter)
    chances: Chances | None = None

    @property
    def main_game(self) -> str | None:
        """The game of most of their meetings with a place for both; None if none had (a
        result without the places of their seats): there are no chances to give then."""
        top = self.games.most_common(1)
        return top[0][0] if top else None


def _outcome(place: int, other: int) -> str:
    if place < other:
        return WIN
    if place > other:
        return LOSS
    return DRAW


def _place(placements, position: int) -> int | None:
    if not isinstance(placements, list) or not 0 <= position < len(placements):
        return None
    place = placements[position]
    return place if type(place) is int else None


def meetings(
    *,
    player: Player | int,
    opponent: Player | int | None = None,
    game: str | None = None,
    dated: bool = True,
    among: Sequence[int] | None = None,
    clubs: Clubs = None,
) -> list[Meeting]:
    """Every meeting of ``player`` (with ``opponent`` only, if given, or with those of the few
    ids ``among``; in ``game`` only, if given), oldest first (the order the matches were started
    in, then their ids); without ``dated``, in no order and without ``played_at`` (a count
    needs neither). Two queries: his seats with their matches' results, then the other seats of
    those matches (plain numbers: the matches' results and times are read once a match, not
    once a seat)."""
    own, seated = _seatings(
        player=player, opponent=opponent, game=game, dated=dated, among=among, clubs=clubs
    )
    return list(_meetings_of(own, seated))


def _seatings(
    *,
    player: Player | int,
    opponent: Player | int | None = None,
    game: str | None = None,
    dated: bool = True,
    among: Sequence[int] | None = None,
    named: bool = False,
    clubs: Clubs = None,
) -> tuple[list[tuple], dict[int, list[tuple]]]:
    """``meetings``' two reads: his seats in finished matches (match id, game, position, team,
    the result's placements, with ``dated`` the start) and, by match, the other seats of those
    matches (player id, position, team, with ``named`` the player's name)."""
    pk = player.pk if isinstance(player, Player) else player
    mine = Seat.objects.filter(player_id=pk, match__status=Match.Status.FINISHED)
    mine = in_clubs(mine, clubs)  # issue 33: the matches of a viewer's clubs only
    if opponent is not None:
        mine = mine.filter(match__seats__player=opponent)
    if among is not None:
        # A probe of each of his matches' seats, not every seat of those players.
        mine = mine.filter(Exists(Seat.objects.filter(match_id=OuterRef("match_id"), player_id__in=among)))
    if game:
        mine = mine.filter(match__game=game)
    fields = ["match_id", "match__game", "position", "team", "match__result__placements"]
    if dated:
        mine = mine.order_by("match__created_at", "match_id")
        fields.append("match__created_at")
    else:
        mine = mine.order_by()
    own = list(mine.values_list(*fields))
    if not own:
        return [], {}
    # The other seats of the matches just read, found by the same filter as a subquery: with
    # their ids as parameters, the hundreds of them took twice the web process's CPU (each
    # prepared by the ORM, and psycopg parses a statement that long anew each time), for the
    # same time in all (settled pools, 2026-12-08: 2.1 against 2.6 ms at 263 matches of a
    # 1,000,000-match pool, 2.6 against 2.7 at 100,000). A match finished in between is in
    # the subquery only: the meetings are read from his rows, and it has none there.
    his_matches = mine.order_by().values("match_id")
    if among is not None:  # a handful of opponents: their seats only
        others = Seat.objects.filter(match_id__in=his_matches, player_id__in=among)
    else:
        others = Seat.objects.filter(match_id__in=his_matches).exclude(player_id=pk)
    if opponent is not None:
        others = others.filter(player=opponent)
    seated: dict[int, list[tuple]] = defaultdict(list)
    for match_id, *seat in others.order_by().values_list(
        "match_id", "player_id", "position", "team", *(["player__name"] if named else [])
    ):
        seated[match_id].append(seat)
    return own, seated


def _meetings_of(own: list[tuple], seated: dict[int, list[tuple]], wanted: set[int] | None = None):
    """The meetings in ``_seatings``' rows (with the players of ``wanted`` only, if given)."""
    for match_id, game_key, position, team, placements, *when in own:
        place = _place(placements, position)
        if place is None:
            continue  # a result without a place for his seat (a malformed result)
        at = when[0] if when else None
        for other, other_position, other_team, *_name in seated.get(match_id, ()):
            if team is not None and team == other_team:
                continue  # his partner
            if wanted is not None and other not in wanted:
                continue
            other_place = _place(placements, other_position)
            if other_place is not None:
                yield Meeting(match_id, game_key, at, other, _outcome(place, other_place), place, other_place)


def record_of(items: Iterable[Meeting]) -> Record:
    record = Record()
    for meeting in items:
        record.add(meeting.outcome)
    return record


def running_records(items: Sequence[Meeting]) -> list[Record]:
    """The record after each meeting, in the order given (oldest first)."""
    record, out = Record(), []
    for meeting in items:
        record.add(meeting.outcome)
        out.append(record.copy())
    return out


def chances(
    *, player: Player | int, opponents: Sequence[tuple[Player | Opponent | int, str]]
) -> list[Chances]:
    """Today's chances of ``player`` against each (opponent, game) if they met alone, from the
    current ratings (the rater's prior for one not rated in the game): one query for them all."""
    r = rater()
    pk = player.pk if isinstance(player, Player) else player
    others = [o if isinstance(o, int) else o.pk for o, _ in opponents]
    games = {game for _, game in opponents}
    current = {
        (who, game): Rating(mu, sigma)
        for who, game, mu, sigma in PlayerRating.objects.filter(
            player_id__in=[pk, *others], pool__game__in=games
        )
        .order_by()  # no board order: it joins every player for his name
        .values_list("player_id", "pool__game", "mu", "sigma")
    }
    prior = r.prior()
    out = []
    for other, (_, game) in zip(others, opponents, strict=True):
        beliefs = [[current.get((who, game), prior)] for who in (pk, other)]
        win, draw, loss = r.outcome_probabilities(beliefs)  # summing to 1
        rated = (pk, game) in current and (other, game) in current
        out.append(Chances(game, win, loss, draw, rated))
    return out


class Met(NamedTuple):
    """An opponent and how many finished matches he sat opposite the player."""

    player: Opponent
    met: int


def opponents(*, player: Player | int, clubs: Clubs = None) -> list[Met]:
    """Everyone ``player`` met, most meetings first (then by name), in one grouped query: the
    seats opposite his in his finished matches, counted per player (a partner, on his team,
    is no opponent). The records come apart, for the opponents shown (``records``)."""
    pk = player.pk if isinstance(player, Player) else player
    # One join to his seat in the same match (one filter() call: the conditions share it).
    counted = (
        Seat.objects.filter(
            Q(team__isnull=True) | Q(match__seats__team__isnull=True) | ~Q(team=F("match__seats__team")),
            match__seats__player_id=pk,
            match__status=Match.Status.FINISHED,
        )
        .exclude(player_id=pk)
        .filter(**({} if clubs is None else {"match__club_id__in": clubs}))
        .values("player_id", "player__name")
        .annotate(met=Count("match_id"))
        .values_list("player_id", "player__name", "met")
        .order_by()
    )
    ranked = sorted(counted, key=lambda row: (-row[2], row[1].casefold(), row[0]))
    return [Met(Opponent(pk, name), met) for pk, name, met in ranked]


def records(*, player: Player | int, opponents: Sequence[Opponent], clubs: Clubs = None) -> list[Rival]:
    """The record of ``player`` against each of ``opponents`` (in their order) and the games
    they met in; no chances (``with_chances`` adds them). One read of their meetings."""
    if not opponents:
        return []
    # A profile's handful: their meetings only. A page of dozens sat in most of his matches:
    # all his meetings in one read are then cheaper than finding theirs.
    among = [o.pk for o in opponents] if len(opponents) <= RIVALS_SHOWN else None
    by_opponent: dict[int, list[Meeting]] = defaultdict(list)
    for meeting in meetings(player=player, dated=False, among=among, clubs=clubs):
        by_opponent[meeting.opponent_id].append(meeting)
    return [
        Rival(other, record_of(by_opponent[other.pk]), Counter(m.game for m in by_opponent[other.pk]))
        for other in opponents
    ]


@dataclass(frozen=True)
class Opposed:
    """Everyone a player met, most meetings first (``ranked``, as ``opponents`` ranks them),
    and the reads they were counted from, from which ``rivals`` makes the records of any of
    them without another query."""

    ranked: list[Met]
    own: list[tuple]
    seated: dict[int, list[tuple]]

    def rivals(self, opponents: Sequence[Opponent]) -> list[Rival]:
        """``records`` of ``opponents`` (in their order), from the reads already made."""
        by_opponent: dict[int, list[Meeting]] = {o.pk: [] for o in opponents}
        for meeting in _meetings_of(self.own, self.seated, set(by_opponent)):
            by_opponent[meeting.opponent_id].append(meeting)
        return [
            Rival(other, record_of(by_opponent[other.pk]), Counter(m.game for m in by_opponent[other.pk]))
            for other in opponents
        ]


def opposed(*, player: Player | int, first: int | None = None, clubs: Clubs = None) -> Opposed:
    """``opponents`` and the reads behind ``records`` at once, in ``meetings``' two queries (a
    page of dozens of opponents needs nearly all his meetings anyway): his finished matches'
    seats are read once for the count and the records, where the grouped count walked them
    again (the API's costliest statement for a busy player). With ``first``, ``ranked`` holds
    the ``first`` only (a profile's rivals): the seats are read without their players' names,
    and only the names that can decide the order of the first are read, in one more query."""
    own, seated = _seatings(player=player, dated=False, named=first is None, clubs=clubs)
    counted: Counter = Counter()
    names: dict[int, str] = {}
    for match_id, _game, _position, team, _placements in own:
        for other, _other_position, other_team, *name in seated.get(match_id, ()):
            # As the grouped count: every seat opposite his in a finished match, placed or not.
            if team is None or other_team is None or team != other_team:
                counted[other] += 1
                if name:
                    names[other] = name[0]
    if first is not None:
        # Whoever met him at least as often as the ``first``-th most met can be among the first.
        least = sorted(counted.values(), reverse=True)[first - 1] if len(counted) >= first else 0
        names = dict(
            Player.objects.filter(pk__in=[pk for pk, met in counted.items() if met >= least])
            .order_by()
            .values_list("pk", "name")
        )
    ranked = sorted(
        ((pk, met) for pk, met in counted.items() if pk in names),
        key=lambda item: (-item[1], names[item[0]].casefold(), item[0]),
    )[:first]
    return Opposed([Met(Opponent(pk, names[pk]), met) for pk, met in ranked], own, seated)


def with_chances(*, player: Player, rivals: list[Rival]) -> list[Rival]:
    """``rivals`` with today's chances in the game each was met in most (one query); None for
    one never placed against him."""
    placed = [(rival, game) for rival in rivals if (game := rival.main_game) is not None]
    today = chances(player=player, opponents=[(rival.player, game) for rival, game in placed])
    for (rival, _game), chance in zip(placed, today, strict=True):
        rival.chances = chance
    return rivals


def rivals(*, player: Player, limit: int = RIVALS_SHOWN, clubs: Clubs = None) -> list[Rival]:
    """The ``limit`` players ``player`` met most often, with today's chances (a profile's): the
    opponents and records of ``opposed`` (his finished matches' seats, then the seats opposite:
    two queries, whatever the pool), then the chances of the few shown. A rival's games are
    counted in the games' order, so that a tie for the game they met in most (``main_game``)
    goes to the same one every time."""
    met = opposed(player=player, first=limit, clubs=clubs)
    shown = met.rivals([m.player for m in met.ranked])
    for rival in shown:
        rival.games = Counter(dict(sorted(rival.games.items())))
    return with_chances(player=player, rivals=shown)


@dataclass(frozen=True)
class Pair:
    """Two players' head-to-head: their meetings (oldest first) in ``game`` or in all games,
    the running record after each (``player``'s side), the record, the record per game in all
    games they met in, and today's chances in each game shown (``game``, or all of them)."""

    player: Player
    opponent: Player
    game: str | None
    meetings: list[Meeting]
    running: list[Record]
    record: Record
    by_game: dict[str, Record]
    chances: list[Chances]


def pair(*, player: Player, opponent: Player, game: str | None = None, clubs: Clubs = None) -> Pair:
    """The head-to-head of ``player`` against ``opponent``: two queries (their meetings in
    every game are read, so that the per-game records stay whole when ``game`` is chosen)."""
    every = meetings(player=player, opponent=opponent, clubs=clubs)
    by_game: dict[str, Record] = {}
    for meeting in every:
        by_game.setdefault(meeting.game, Record()).add(meeting.outcome)
    items = every if game is None else [m for m in every if m.game == game]
    running = running_records(items)
    games = sorted(by_game) if game is None else [game]
    today = chances(player=player, opponents=[(opponent, g) for g in games]) if games else []
    record = running[-1] if running else Record()
    return Pair(player, opponent, game, items, running, record, dict(sorted(by_game.items())), today)
