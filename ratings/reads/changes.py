"""Rating changes explained: what the model expected of a player before a match, what he did,
and what it did to his displayed rating ("46 % to win, won: +23").

The figures are the displayed ones (``ratings.display``): the change is the rounded rating
after less the rounded rating before, so the numbers shown add up. The chance is the one the
model gave his side before the match (stored in the history); for a table of more than two
sides the explanation gives the place the model expected (``Rater.expected_ranks`` of the
ratings before the match) beside the place he finished in. "Place" here is always the
finishing place in a match; a position on a leaderboard is a *rank*.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from django.db.models import Q
from django.utils.formats import number_format
from django.utils.translation import pgettext

from .. import display
from ..engine import Rating
from ..models import RatingHistory
from ..raters import rater


@dataclass(frozen=True)
class Change:
    """One player's rating change in one rated match, in displayed points."""

    match_id: int
    player_id: int
    before: int
    after: int
    deviation_after: int
    win_probability: float
    place: int
    sides: int
    shared: bool
    expected_place: float

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def result(self) -> str:
        """won, lost or drew (two sides); ``first``, ``shared`` or ``placed`` otherwise."""
        if self.sides == 2:
            if self.shared:
                return "drew"
            return "won" if self.place == 1 else "lost"
        return "shared" if self.shared else "placed"

    @property
    def explanation(self) -> str:
        """The change in one line of the active language."""
        signed = display.signed(self.delta) if self.delta else "±0"
        if self.sides == 2:
            # Rounded here: number_format cuts the digits it does not show.
            chance = f"{number_format(round(self.win_probability * 100))} %"
            template = {
                "won": pgettext("a rating change", "%(chance)s to win, won: %(change)s"),
                "lost": pgettext("a rating change", "%(chance)s to win, lost: %(change)s"),
                "drew": pgettext("a rating change", "%(chance)s to win, drew: %(change)s"),
            }[self.result]
            return template % {"chance": chance, "change": signed}
        figures = {
            "expected": number_format(round(self.expected_place, 1), 1),
            "place": number_format(self.place),
            "sides": number_format(self.sides),
            "change": signed,
        }
        if self.shared:
            text = pgettext(
                "a rating change",
                "expected place %(expected)s of %(sides)s, shared place %(place)s: %(change)s",
            )
        else:
            text = pgettext(
                "a rating change", "expected place %(expected)s of %(sides)s, finished %(place)s: %(change)s"
            )
        return text % figures


def explain(rows: Iterable[RatingHistory]) -> dict[tuple[int, int], Change]:
    """Every row's change, by (match id, player id). ``rows`` must hold *all* the rows of each
    of their matches (the expected places need every side's rating before the match)."""
    by_match: dict[int, list[RatingHistory]] = defaultdict(list)
    for row in rows:
        by_match[row.match_id].append(row)
    model = rater()
    out = {}
    for match_rows in by_match.values():
        sides: dict[int, list[RatingHistory]] = defaultdict(list)
        for row in match_rows:
            sides[row.side].append(row)
        order = sorted(sides)
        beliefs = [[Rating(r.mu_before, r.sigma_before) for r in sides[s]] for s in order]
        expected = dict(zip(order, model.expected_ranks(beliefs), strict=True)) if len(order) > 1 else {}
        places = [sides[s][0].place for s in order]
        for row in match_rows:
            after = display.displayed(row.mu_after, row.sigma_after, model=model)
            out[row.match_id, row.player_id] = Change(
                match_id=row.match_id,
                player_id=row.player_id,
                before=display.displayed(row.mu_before, row.sigma_before, model=model).rating,
                after=after.rating,
                deviation_after=after.deviation,
                win_probability=row.win_probability,
                place=row.place,
                sides=len(order),
                shared=places.count(row.place) > 1,
                expected_place=expected.get(row.side, 1.0),
            )
    return out


def rows_of_matches(rows: Iterable[RatingHistory]) -> list[RatingHistory]:
    """Every history row of the matches of ``rows`` (a player's own), in one query through the
    pool's order index: each match is found by its pool and its place in the pool's order."""
    condition = Q()
    keys: dict[int, dict] = defaultdict(lambda: {"at": set(), "ids": set()})
    for row in rows:
        keys[row.pool_id]["at"].add(row.played_at)
        keys[row.pool_id]["ids"].add(row.match_id)
    if not keys:
        return []
    for pool, key in keys.items():
        condition |= Q(pool_id=pool, played_at__in=key["at"], match_id__in=key["ids"])
    # Without the model's ordering, which sorts by the pool's game and the player's name and so
    # joins three tables for rows that ``explain`` groups by match and side anyway: the ORM's
    # compiling of that ordering was a third of the statement's cost in the web process (a
    # rating poll, a profile page). Sorted here by match, side and player: a side's sums are of
    # one or two ratings (piquet-voleur's partners), the same in either order.
    rows = list(RatingHistory.objects.filter(condition).order_by())
    rows.sort(key=lambda row: (row.match_id, row.side, row.player_id))
    return rows
