"""Rating changes explained: what the model expected of a player before a match, what he did,
and what it did to his displayed rating ("46 % to win, won 150–80: +31", "…, the margin
counted" when the pool's rater weighed the points).

The figures are the displayed ones (``ratings.display``): the change is the rounded rating
after less the rounded rating before, so the numbers shown add up. The chance is the one the
model gave his side to win before the match (from the history's, which counts a draw half:
the win alone, as ``/predict``'s ``win``); for a table of more than two
sides the explanation gives the place the model expected (``Rater.expected_ranks`` of the
ratings before the match) beside the place he finished in. "Place" here is always the
finishing place in a match; a position on a leaderboard is a *rank*.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection, Iterable
from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, Q, Subquery
from django.utils.formats import number_format
from django.utils.translation import pgettext

from scorekeeper.matches.models import Match
from scorekeeper.rules import RULESETS
from scorekeeper.rules.ruleset import points_more_is_better

from .. import display
from ..engine import Rater, Rating
from ..models import RatingHistory, RatingPool
from ..raters import rater, rater_with


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
    #: Two sides: the chance the model gave his side to win (a draw not counted), before the match.
    win_chance: float | None = None
    #: Each side's points in the match, sides as rated; None when the result has none.
    points: tuple[float, ...] | None = None
    #: His side's index in ``points``.
    side_index: int = 0
    #: Whether the margin weighed in the change (the pool's rater uses the points).
    margin_counted: bool = False

    @property
    def delta(self) -> int:
        return self.after - self.before

    @property
    def score(self) -> str | None:
        """The match's points, his side's first ("150–80"); None when the result has none.
        Formatted when asked for: most changes explained are never shown with their score (a
        table of more than two sides shows none)."""
        if self.points is None:
            return None
        points = self.points
        order = [self.side_index, *(s for s in range(len(points)) if s != self.side_index)]
        return "–".join(
            number_format(int(points[s]) if points[s] == int(points[s]) else points[s]) for s in order
        )

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
            win = self.win_probability if self.win_chance is None else self.win_chance
            chance = f"{number_format(round(win * 100))} %"
            if self.score is None:
                template = {
                    "won": pgettext("a rating change", "%(chance)s to win, won: %(change)s"),
                    "lost": pgettext("a rating change", "%(chance)s to win, lost: %(change)s"),
                    "drew": pgettext("a rating change", "%(chance)s to win, drew: %(change)s"),
                }[self.result]
            elif self.margin_counted:
                template = {
                    "won": pgettext(
                        "a rating change", "%(chance)s to win, won %(score)s, the margin counted: %(change)s"
                    ),
                    "lost": pgettext(
                        "a rating change", "%(chance)s to win, lost %(score)s, the margin counted: %(change)s"
                    ),
                    "drew": pgettext(
                        "a rating change", "%(chance)s to win, drew %(score)s, the margin counted: %(change)s"
                    ),
                }[self.result]
            else:
                template = {
                    "won": pgettext("a rating change", "%(chance)s to win, won %(score)s: %(change)s"),
                    "lost": pgettext("a rating change", "%(chance)s to win, lost %(score)s: %(change)s"),
                    "drew": pgettext("a rating change", "%(chance)s to win, drew %(score)s: %(change)s"),
                }[self.result]
            return template % {"chance": chance, "score": self.score, "change": signed}
        figures = {
            "expected": number_format(round(self.expected_place, 1), 1),
            "place": number_format(self.place),
            "sides": number_format(self.sides),
            "change": signed,
        }
        if self.margin_counted and self.shared:
            text = pgettext(
                "a rating change",
                "expected place %(expected)s of %(sides)s, shared place %(place)s, the margins counted: "
                "%(change)s",
            )
        elif self.margin_counted:
            text = pgettext(
                "a rating change",
                "expected place %(expected)s of %(sides)s, finished %(place)s, the margins counted: "
                "%(change)s",
            )
        elif self.shared:
            text = pgettext(
                "a rating change",
                "expected place %(expected)s of %(sides)s, shared place %(place)s: %(change)s",
            )
        else:
            text = pgettext(
                "a rating change", "expected place %(expected)s of %(sides)s, finished %(place)s: %(change)s"
            )
        return text % figures


def match_results(match_ids: Iterable[int]) -> dict[int, tuple[str, Any, Any]]:
    """match id → (its game, its result, its pool's fitted parameters), for ``explain``'s
    points and whether the pool's rater weighs them: one query."""
    parameters = RatingPool.objects.filter(game=OuterRef("game")).values("parameters")[:1]
    return {
        pk: (game, result, fitted)
        for pk, game, result, fitted in Match.objects.filter(pk__in=set(match_ids))
        .order_by()
        .annotate(pool_parameters=Subquery(parameters))
        .values_list("pk", "game", "result", "pool_parameters")
    }


def _side_points(game: str, result: Any, seats: int) -> tuple[float, ...] | None:
    """Each side's points as the sheet gives them (cul's banks as banks), sides as rated."""
    ruleset = RULESETS.get(game)
    if ruleset is None or not isinstance(result, dict):
        return None
    return ruleset.side_points(points_more_is_better(result.get(ruleset.points_key), False), seats)


def explain(
    rows: Iterable[RatingHistory],
    results: dict[int, tuple[str, Any, Any]] | None = None,
    *,
    players: Collection[int] | None = None,
) -> dict[tuple[int, int], Change]:
    """Every row's change, by (match id, player id); of ``players``' rows only, when given (a
    player's page shows his own of each match). ``rows`` must hold *all* the rows of each of
    their matches (the expected places need every side's rating before the match).
    ``results`` (``match_results``) give the matches' points: a two-sided explanation then
    shows the score, and says when the margin counted (the pool's rater weighs the points)."""
    by_match: dict[int, list[RatingHistory]] = defaultdict(list)
    for row in rows:
        by_match[row.match_id].append(row)
    model = rater()  # the display's scale is the default model's, whatever the pool's
    results = results or {}
    pool_models: dict[str, Rater] = {}  # the pool's own, for its draws and its points
    out = {}
    for match_rows in by_match.values():
        sides: dict[int, list[RatingHistory]] = defaultdict(list)
        for row in match_rows:
            sides[row.side].append(row)
        order = sorted(sides)
        beliefs = [[Rating(r.mu_before, r.sigma_before) for r in sides[s]] for s in order]
        expected = dict(zip(order, model.expected_ranks(beliefs), strict=True)) if len(order) > 1 else {}
        places = [sides[s][0].place for s in order]
        game, result, fitted = results.get(match_rows[0].match_id, ("", None, None))
        if game and game not in pool_models:
            pool_models[game] = rater_with(game, fitted)
        pool_model = pool_models.get(game, model)
        points = _side_points(game, result, len(match_rows)) if game else None
        if points is not None and len(points) != len(order):
            points = None
        counted = points is not None and pool_model.uses_margins
        for row in match_rows:
            if players is not None and row.player_id not in players:
                continue
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
                win_chance=(
                    row.win_probability - pool_model.draw_from_win(row.win_probability) / 2
                    if len(order) == 2
                    else None
                ),
                points=points,
                side_index=order.index(row.side),
                margin_counted=counted,
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
