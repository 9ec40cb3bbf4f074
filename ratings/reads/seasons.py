"""Seasons: a leaderboard of a period of days (this month, this year, from–to).

A period is whole days, ``first`` to ``last`` inclusive, in a time zone (the page's, UTC for
the API); its bounds are the start of ``first`` and the start of the day after ``last``, and
the board is ``season_board`` over them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django import forms
from django.db.models import Case, Count, Exists, F, OuterRef, Q, Subquery, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scorekeeper.matches.models import ClubPlayer

from .. import display
from ..models import PlayerRating, RatingHistory, RatingPool
from ..raters import rater
from .visibility import Clubs, in_clubs, players_of_unseen_clubs

#: The longest period a season board covers (a generous ten years; beyond it a typo, say 20205).
LONGEST_DAYS = 3660


@dataclass(frozen=True)
class Period:
    first: dt.date
    last: dt.date

    def bounds(self, zone: dt.tzinfo) -> tuple[dt.datetime, dt.datetime]:
        """[start, end) as aware datetimes in ``zone``."""
        start = dt.datetime.combine(self.first, dt.time.min, tzinfo=zone)
        end = dt.datetime.combine(self.last + dt.timedelta(days=1), dt.time.min, tzinfo=zone)
        return start, end


def this_month(today: dt.date) -> Period:
    return Period(today.replace(day=1), today)


def this_year(today: dt.date) -> Period:
    return Period(today.replace(month=1, day=1), today)


def last_month(today: dt.date) -> Period:
    last = today.replace(day=1) - dt.timedelta(days=1)
    return Period(last.replace(day=1), last)


def today_in(zone: dt.tzinfo | None = None) -> dt.date:
    return timezone.localtime(timezone.now(), zone or timezone.get_current_timezone()).date()


def _day_field(label) -> forms.DateField:
    return forms.DateField(
        label=label,
        required=False,
        input_formats=["%Y-%m-%d"],
        widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
    )


class PeriodForm(forms.Form):
    """The season page's GET form, ``?from=&to=`` (ISO days, as the API's): by default this
    month up to ``today``; a bad or inverted range is a readable error."""

    def __init__(self, *args, today: dt.date, **kwargs):
        super().__init__(*args, **kwargs)
        self.today = today
        # "from" is a Python keyword: the fields are added here, not declared.
        self.fields["from"] = _day_field(_("From"))
        self.fields["to"] = _day_field(_("To"))

    def clean(self):
        data = super().clean()
        if self.errors:
            return data
        last = data.get("to") or self.today
        first = data.get("from") or last.replace(day=1)
        check_period(first, last, error=forms.ValidationError)
        data["period"] = Period(first, last)
        return data


def check_period(first: dt.date, last: dt.date, *, error) -> None:
    """Raise ``error(message, code=…)`` for an inverted or overlong period."""
    if first > last:
        message = _("The period ends before it starts: “to” must be on or after “from”.")
        raise error(message, code="period_inverted")
    if (last - first).days >= LONGEST_DAYS:
        raise error(_("A season covers at most ten years."), code="period_too_long")


# -- the board ------------------------------------------------------------------------------
@dataclass(frozen=True)
class SeasonRow:
    """One player's season: his rating at the period's end, his matches and wins in it and the
    change of his displayed rating over it (from before his first match in it)."""

    rank: int
    player_id: int
    player_name: str
    matches: int
    wins: int
    mu: float
    sigma: float
    rating: int
    rating_deviation: int
    change: int


@dataclass(frozen=True)
class _Ranked:
    rank: int
    player_id: int
    player_name: str
    mu: float
    sigma: float
    shown: display.Displayed


class SeasonBoard(Sequence):
    """A season's board, ranked whole; the rows of a slice (a page) are completed when it is
    taken: their matches, wins and change are read for its players only (two queries a slice),
    so that a page costs its rows, not the period's (a whole pool's period is every history row).
    Iterated whole, it completes every row in those two queries."""

    def __init__(
        self,
        pool: int | None,
        start: dt.datetime,
        end: dt.datetime,
        ranked: list[_Ranked],
        clubs: Clubs = None,
    ):
        self._pool, self._start, self._end, self._ranked = pool, start, end, ranked
        self._clubs = clubs

    def __len__(self) -> int:
        return len(self._ranked)

    def __getitem__(self, index):
        if isinstance(index, slice):
            return self._rows(self._ranked[index])
        return self._rows([self._ranked[index]])[0]

    def __iter__(self):
        return iter(self._rows(self._ranked))

    def _rows(self, ranked: list[_Ranked]) -> list[SeasonRow]:
        if not ranked:
            return []
        ids = [entry.player_id for entry in ranked]
        mine = _in_period(self._pool, self._start, self._end).filter(player_id__in=ids)
        counts = _counts(mine)
        if self._clubs is not None:
            # Issue 33: the page's players of clubs the viewer does not see counted again over
            # the clubs he sees (the others' matches are all in those: no join for them).
            suspects = set(
                ClubPlayer._base_manager.filter(player_id__in=ids)
                .exclude(club_id__in=self._clubs)
                .values_list("player_id", flat=True)
            )
            if suspects:
                seen = _counts(in_clubs(mine.filter(player_id__in=sorted(suspects)), self._clubs))
                counts.update({pk: seen.get(pk, (0, 0)) for pk in suspects})
        # His first row in the period (the rating before it), through the per-player index.
        first = _in_period(self._pool, self._start, self._end).filter(player_id=OuterRef("player_id"))
        first = first.order_by("played_at", "match_id")
        starts = {
            player: display.rating(mu, sigma)
            for player, mu, sigma in PlayerRating.objects.filter(pool_id=self._pool, player_id__in=ids)
            .annotate(
                mu_start=Subquery(first.values("mu_before")[:1]),
                sigma_start=Subquery(first.values("sigma_before")[:1]),
            )
            .values_list("player_id", "mu_start", "sigma_start")
        }
        out = []
        for entry in ranked:
            matches, wins = counts.get(entry.player_id, (0, 0))
            shown = entry.shown
            out.append(SeasonRow(
                rank=entry.rank, player_id=entry.player_id, player_name=entry.player_name,
                matches=matches, wins=wins, mu=entry.mu, sigma=entry.sigma,
                rating=shown.rating, rating_deviation=shown.deviation,
                change=shown.rating - starts[entry.player_id],
            ))  # fmt: skip
        return out


def _counts(rows) -> dict[int, tuple[int, int]]:
    """Matches and wins per player of history ``rows``."""
    return {
        player: (matches, wins)
        for player, matches, wins in rows.values("player_id")
        .annotate(matches=Count("match"), wins=Count("match", filter=Q(place=1)))
        .values_list("player_id", "matches", "wins")
        .order_by()
    }


def _in_period(pool: int | None, start: dt.datetime, end: dt.datetime):
    # By the pool's id, not its game: the reads below seek the history's indexes directly.
    return RatingHistory.objects.filter(pool_id=pool, played_at__gte=start, played_at__lt=end)


def season_board(*, game: str, start: dt.datetime, end: dt.datetime, clubs: Clubs = None) -> SeasonBoard:
    """The players of a pool who played in [``start``, ``end``), the highest displayed rating
    at the period's end first (then by id), each with his ``rank`` (equal ratings share one).

    Ranked in two queries whatever the period: the pool, then its players whose last match is
    on or after ``start`` (the others did not play in it) with their rating at ``end``: the
    current one when his last match is before ``end`` (a player's rating is the one after his
    last rated match), else the one after his last match in the period, one seek of the
    history's per-player index (none: he did not play in it). The rows shown are completed as
    they are taken (``SeasonBoard``).

    ``clubs`` (a viewer's, issue 33): only the players with a rated match in the period in one
    of those clubs (a probe of his period's rows a player), their matches and wins counted
    over those clubs' matches; the rating and its change are his one rating's."""
    pool = RatingPool.objects.filter(game=game).values_list("pk", flat=True).first()
    if pool is None:
        return SeasonBoard(None, start, end, [])
    last = _in_period(pool, start, end).filter(player_id=OuterRef("player_id"))
    last = last.order_by("-played_at", "-match_id")
    before_end = Q(last_played_at__lt=end)
    candidates = PlayerRating.objects.filter(pool_id=pool, last_played_at__gte=start)
    if clubs is not None:
        # Only a player of a club not seen can have played in the period in such clubs only:
        # he is probed; everyone else played in the period where the viewer sees it.
        seen = in_clubs(_in_period(pool, start, end).filter(player_id=OuterRef("player_id")), clubs)
        # One in no club the viewer sees did not (no probe); one in both kinds is probed.
        in_seen = ClubPlayer._base_manager.filter(club_id__in=clubs).values("player_id")
        candidates = candidates.filter(
            ~Q(player_id__in=players_of_unseen_clubs(clubs)) | (Q(player_id__in=in_seen) & Exists(seen))
        )
    players = (
        candidates.annotate(
            mu_end=Case(When(before_end, then=F("mu")), default=Subquery(last.values("mu_after")[:1])),
            sigma_end=Case(
                When(before_end, then=F("sigma")), default=Subquery(last.values("sigma_after")[:1])
            ),
        )
        .values_list("player_id", "player__name", "mu_end", "sigma_end")
        .order_by()
    )
    model = rater()
    out = [
        (display.displayed(mu, sigma, model=model), player, name, mu, sigma)
        for player, name, mu, sigma in players
        if mu is not None
    ]
    out.sort(key=lambda item: (-item[0].rating, item[1]))
    ranked, rank, previous = [], 0, None
    for position, (shown, player, name, mu, sigma) in enumerate(out, start=1):
        if shown.rating != previous:
            rank, previous = position, shown.rating
        ranked.append(_Ranked(rank, player, name, mu, sigma, shown))
    return SeasonBoard(pool, start, end, ranked, clubs)
