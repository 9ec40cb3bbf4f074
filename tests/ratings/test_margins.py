"""The points in the model (issue 35): each side's points weigh its games beside the places.

Properties (Hypothesis): a bigger winning margin never gives the winner less; whatever the
points, the places decide who won (a two-sided winner never falls, a loser never rises);
equal points with equal places move nobody against the model's direction (a draw's lower-rated
side never falls, its higher never rises); and without scores the model is today's default,
float for float. Then the cases, the point scale and the back-test's wiring.
"""

from __future__ import annotations

import json
import random
import re

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from ratings import backtest
from ratings.engine import MatchOutcome, Rater, Rating, replay_arrays
from ratings.fitting import fit, point_scale

#: The default once a pool's point scale is known (what a fitted pool serves).
MARGINS = Rater.default().with_parameters({"point_scale": 50.0})
RATERS = [
    MARGINS,
    MARGINS.with_parameters({"margin_weight": 0.5, "pair_weight_exponent": 1.0}),
    MARGINS.with_parameters({"margin_pair_exponent": 0.0, "margin_beta": 6.0}),
]
ratings = st.builds(Rating, st.floats(-20, 70), st.floats(0.3, 10))
sides = st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=6)
points = st.floats(-500, 500, allow_nan=False)


def _places_from(scores):
    """Competition places from points, more is better."""
    return [1 + sum(other > mine for other in scores) for mine in scores]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RATERS), sides, st.data(), st.floats(0.5, 400))
def test_a_bigger_winning_margin_never_gives_the_winner_less(rater, table, data, extra):
    scores = data.draw(st.lists(points, min_size=len(table), max_size=len(table)))
    places = _places_from(scores)
    winner = places.index(1)
    assume(places.count(1) == 1)
    wider = list(scores)
    wider[winner] += extra
    narrow = rater.rate(table, places, scores)[winner]
    wide = rater.rate(table, places, wider)[winner]
    for a, b in zip(narrow, wide, strict=True):
        assert b.mu >= a.mu


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RATERS), st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=2),
       points, points)  # fmt: skip
def test_a_margin_never_turns_a_loss_into_a_gain(rater, table, winner_points, loser_points):
    assume(winner_points > loser_points)
    after = rater.rate(table, [1, 2], [winner_points, loser_points])
    assert all(now.mu >= was.mu for was, now in zip(table[0], after[0], strict=True))
    assert all(now.mu <= was.mu for was, now in zip(table[1], after[1], strict=True))


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(RATERS), st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=2),
       points)  # fmt: skip
def test_equal_points_with_equal_places_move_nobody_against_the_models_direction(rater, table, both):
    after = rater.rate(table, [1, 1], [both, both])
    low, high = sorted((0, 1), key=lambda i: sum(r.mu for r in table[i]))
    assume(sum(r.mu for r in table[low]) < sum(r.mu for r in table[high]))
    assert all(now.mu >= was.mu for was, now in zip(table[low], after[low], strict=True))
    assert all(now.mu <= was.mu for was, now in zip(table[high], after[high], strict=True))


def _pool(seed: int, count: int, with_scores: bool) -> list[MatchOutcome]:
    rng = random.Random(seed)
    players = [f"p{i}" for i in range(12)]
    out = []
    for i in range(count):
        chosen = rng.sample(players, rng.randint(2, 6))
        scores = [float(rng.randint(0, 200)) for _ in chosen]
        out.append(MatchOutcome(i, tuple((p,) for p in chosen), tuple(_places_from(scores)),
                                float(i), tuple(scores) if with_scores else None))  # fmt: skip
    return out


def _floats(rater, matches):
    done = replay_arrays(rater, matches, {}, {})
    return [done.mu_after.tolist(), done.sigma_after.tolist(), done.win_probability.tolist()]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 10_000), st.integers(1, 60))
def test_without_scores_the_model_equals_todays_default_exactly(seed, count):
    today = Rater.default()  # the pool before its point scale is known: today's default
    places_only = _pool(seed, count, with_scores=False)
    assert _floats(MARGINS, places_only) == _floats(today, places_only)
    # and a default without a point scale leaves the points alone
    assert _floats(today, _pool(seed, count, with_scores=True)) == _floats(today, places_only)


def test_a_match_without_scores_gets_the_same_floats_in_a_pool_that_has_points():
    """A wave rates a match with points beside one without: the latter's floats are the
    places-only ones (each match's floats are its own)."""
    with_points = MatchOutcome(1, (("a",), ("b",)), (1, 2), None, (150.0, 80.0))
    without = MatchOutcome(2, (("c",), ("d",)), (1, 2))
    together = replay_arrays(MARGINS, [with_points, without], {}, {})
    alone = replay_arrays(Rater.default(), [without], {}, {})
    assert together.mu_after.tolist()[2:] == alone.mu_after.tolist()
    assert together.sigma_after.tolist()[2:] == alone.sigma_after.tolist()


PRIOR = [[Rating(25.0, 8.333)], [Rating(25.0, 8.333)]]


@pytest.mark.parametrize(
    ("narrow", "wide"),
    [((120.0, 110.0), (150.0, 80.0)), ((101.0, 100.0), (200.0, 0.0)), ((-10.0, -20.0), (-10.0, -90.0))],
)
def test_cases_a_wider_win_moves_both_sides_further(narrow, wide):
    small = MARGINS.rate(PRIOR, [1, 2], narrow)
    big = MARGINS.rate(PRIOR, [1, 2], wide)
    assert big[0][0].mu > small[0][0].mu > 25.0
    assert big[1][0].mu < small[1][0].mu < 25.0


@pytest.mark.parametrize(
    ("matches", "scale"),
    [
        ([MatchOutcome(1, (("a",), ("b",)), (1, 2), scores=(150.0, 80.0))], 70.0),
        ([MatchOutcome(1, (("a",), ("b",), ("c",)), (1, 2, 2), scores=(30.0, 10.0, 10.0))], 20.0),
        ([MatchOutcome(1, (("a",), ("b",)), (1, 1), scores=(5.0, 5.0))], None),
        ([MatchOutcome(1, (("a",), ("b",)), (1, 2))], None),
    ],
)
def test_the_point_scale_is_the_mean_margin_between_sides_placed_apart(matches, scale):
    assert point_scale(matches) == scale


@pytest.mark.parametrize(
    ("scores", "message"),
    [((1.0,), "2 finite numbers"), ((1.0, float("nan")), "2 finite numbers"), (("x", 1.0), "numbers")],
)
def test_bad_scores_are_refused(scores, message):
    with pytest.raises(ValueError, match=message):
        replay_arrays(MARGINS, [MatchOutcome(1, (("a",), ("b",)), (1, 2), scores=scores)])


@pytest.mark.parametrize(
    ("parameters", "message"),
    [({"margin_weight": 1.5}, "margin_weight"), ({"point_scale": 0.0}, "point_scale"),
     ({"margin_weight": 0.5, "model": "plackett-luce"}, "bradley-terry-full")],
)  # fmt: skip
def test_impossible_margin_parameters_are_refused(parameters, message):
    with pytest.raises(ValueError, match=message):
        Rater.default().with_parameters(parameters)


def test_a_fit_stores_the_pools_point_scale():
    matches = _pool(7, 520, with_scores=True)
    assert fit(matches).parameters["point_scale"] == point_scale(matches)
    assert "point_scale" not in fit(_pool(7, 520, with_scores=False)).parameters


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ({"scores": [1]}, '"scores" must be a list of 2'),
        ({"scores": [1, "2"]}, "scores\\[1\\] must be a finite number"),
        ({"scores": [True, 2]}, "scores\\[0\\] must be a finite number"),
    ],
)
def test_backtest_input_scores_are_checked(line, message):
    data = {"game": "g", "sides": [["a"], ["b"]], "places": [1, 2], **line}
    with pytest.raises(backtest.BacktestInputError, match=message):
        backtest.parse_match(data, 3)


def test_backtest_input_scores_round_trip():
    line = {"game": "g", "sides": [["a"], ["b"]], "places": [1, 2], "scores": [150, 80]}
    match = backtest.parse_match(line)
    assert match.scores == (150.0, 80.0)
    assert json.loads(next(backtest.write_jsonl([match])))["scores"] == [150.0, 80.0]


def test_the_generators_points_follow_the_places_and_leave_the_rest_as_it_was():
    league = backtest.Generator(players=30, matches=300)
    with_points = backtest.synthetic(5, league, with_oracle=False)
    without = backtest.synthetic(5, backtest.Generator(players=30, matches=300, points_per_performance=None),
                                 with_oracle=False)  # fmt: skip
    assert [(m.sides, m.places, m.day) for m in with_points] == [(m.sides, m.places, m.day) for m in without]
    for m in with_points:
        assert m.scores is not None
        for i in range(len(m.sides)):
            for q in range(len(m.sides)):
                if m.places[i] < m.places[q]:
                    assert m.scores[i] >= m.scores[q]
                if m.places[i] == m.places[q]:
                    assert m.scores[i] == m.scores[q]


@pytest.mark.parametrize(
    ("rater", "scale", "rows"),
    [
        (Rater.default(), None, [("default", False)]),
        (Rater.default(), 50.0, [("default", False), ("margin-aware", True)]),
        (MARGINS, None, [("default", True), ("results-only", False)]),  # a fitted pool's
    ],
)
def test_the_backtest_marks_the_candidates_that_read_the_points(rater, scale, rows):
    field = backtest.candidates(include_oracle=False, rater=rater, point_scale=scale)
    assert [(c.name, c.uses_scores) for c in field[: len(rows)]] == rows
    assert not any(c.uses_scores for c in field[len(rows) :])


def test_the_newcomer_study_counts_every_player_with_enough_matches():
    league = backtest.synthetic(3, backtest.Generator(players=20, matches=600), with_oracle=False)
    margins = Rater.default().with_parameters({"point_scale": point_scale(league)})
    rows = backtest.newcomer_study(league, [("default", Rater.default(), False), ("margins", margins, True)],
                                   min_matches=20)  # fmt: skip
    assert [r.name for r in rows] == ["default", "margins"]
    assert rows[0].players == rows[1].players > 0
    for row in rows:
        assert row.established_median >= 1 and row.established_reached <= row.players
        assert row.within_own_reached <= row.players and row.within_common_reached <= row.players
        assert len(row.curve) == 20 and row.error == (row.curve[4], row.curve[9], row.curve[19])
        assert row.curve[19] < row.curve[0]  # the ratings learn
    assert rows[0].matches_to(rows[0].error[1]) <= 10
    assert "| default " in backtest.format_newcomer_study(rows)


# -- the pool: points read from the stored results ---------------------------------------


@pytest.mark.django_db
def test_a_pool_reads_the_results_points_and_weighs_them_once_its_scale_is_known(play, players):
    from ratings import services
    from ratings.models import PlayerRating, RatingPool
    from ratings.pool_reading import pool_matches

    wide = play([0, 1], [10, 0])
    narrow = play([2, 3], [10, 9])
    services.rating_events_process_all()
    assert [m.scores for m in pool_matches("tally")] == [(10.0, 0.0), (10.0, 9.0)]

    def gain(player):
        return PlayerRating.objects.get(pool__game="tally", player=player).mu - Rater.default().mu

    # Unfitted, the pool serves today's default: the margins do not count.
    assert gain(players[0]) == gain(players[2])
    RatingPool.objects.filter(game="tally").update(parameters={"point_scale": 5.0})
    for pool in RatingPool.objects.all():
        services.rating_pool_recompute(pool=pool)
    assert gain(players[0]) > gain(players[2]) > 0
    assert wide.result["totals"] == [10, 0] and narrow.result["totals"] == [10, 9]


@pytest.mark.parametrize(
    ("game", "result", "points"),
    [
        ("bastard", {"placements": [2, 1], "totals": [3, 7]}, [3.0, 7.0]),
        ("cul", {"placements": [1, 2], "banks": [0, 3]}, [-0.0, -3.0]),
        ("bank", {"placements": [1, 2]}, None),
        ("bank", {"totals": [1, True]}, None),
    ],
)
def test_a_rulesets_points_are_more_is_better(game, result, points):
    from scorekeeper.rules import find_ruleset

    assert find_ruleset(game).match_points(result) == points


@pytest.mark.django_db
def test_an_explained_change_gives_the_score_and_says_when_the_margin_counted(play, players):
    from ratings import services
    from ratings.models import RatingHistory, RatingPool
    from ratings.reads import changes

    match = play([0, 1], [10, 3])
    services.rating_events_process_all()

    def explanation(player):
        rows = list(RatingHistory.objects.filter(match=match))
        return changes.explain(rows, changes.match_results([match.pk]))[match.pk, player.pk].explanation

    assert re.fullmatch(r"\d+ % to win, won 10–3: \+\d+", explanation(players[0]))
    assert re.fullmatch(r"\d+ % to win, lost 3–10: −\d+", explanation(players[1]))
    RatingPool.objects.filter(game="tally").update(parameters={"point_scale": 5.0})
    for pool in RatingPool.objects.all():
        services.rating_pool_recompute(pool=pool)
    assert re.fullmatch(r"\d+ % to win, won 10–3, the margin counted: \+\d+", explanation(players[0]))
    # Without the results, as before: the chance and the outcome.
    without = changes.explain(list(RatingHistory.objects.filter(match=match)))
    assert re.fullmatch(r"\d+ % to win, won: \+\d+", without[match.pk, players[0].pk].explanation)
