"""The back-test (ratings/backtest/): JSON lines, metrics, report, generator, predictions."""

from __future__ import annotations

import dataclasses
import json
import math

import pytest

from ratings import backtest as bt
from ratings.backtest.refit import DynamicRefit
from ratings.backtest.scoring import _forecast

LINES = [
    '{"game": "cul", "sides": [["ann"], ["bob"], ["cy"]], "places": [1, 2, 3]}',
    "",
    '{"game": "cul", "sides": [["bob"], ["ann"]], "places": [1, 1]}',
    '{"game": "piquet-voleur", "sides": [["ann", "cy"], ["bob", "dee"]], "places": [2, 1]}',
]


def test_json_lines_are_read_into_matches():
    first, tie, teams = bt.read_jsonl(LINES)
    assert first == bt.BacktestMatch("cul", (("ann",), ("bob",), ("cy",)), (1, 2, 3))
    assert tie.outcome() == [0.5, 0.5]
    assert teams.sides == (("ann", "cy"), ("bob", "dee"))
    assert list(bt.read_jsonl(bt.write_jsonl([first, tie, teams]))) == [first, tie, teams]


@pytest.mark.parametrize(
    "line, message",
    [
        ("{nope", "line 1: not JSON"),
        ("[1, 2]", "line 1: a match must be a JSON object, not list"),
        ('{"sides": [["a"], ["b"]], "places": [1, 2]}', 'line 1: "game" is missing'),
        ('{"game": "", "sides": [["a"], ["b"]], "places": [1, 2]}', '"game" must be a non-empty string'),
        ('{"game": "cul", "sides": [["a"]], "places": [1]}', "at least two sides"),
        ('{"game": "cul", "sides": [["a"], []], "places": [1, 2]}', r"sides\[1\] must be a non-empty list"),
        ('{"game": "cul", "sides": [["a"], [null]], "places": [1, 2]}', "a player is a non-empty string"),
        ('{"game": "cul", "sides": [["a"], ["a"]], "places": [1, 2]}', "player 'a' appears twice"),
        ('{"game": "cul", "sides": [["a"], ["b"]], "places": [1]}', "a list of 2 places"),
        ('{"game": "cul", "sides": [["a"], ["b"]], "places": [1, 0]}', r"places\[1\] must be an integer ≥ 1"),
        ('{"game": "cul", "sides": [["a"], ["b"]], "places": [1, true]}', r"places\[1\] must be an integer"),
    ],
)
def test_a_bad_line_is_a_clear_value_error_naming_the_line(line, message):
    with pytest.raises(ValueError, match=message):
        list(bt.read_jsonl([line]))


def test_the_error_names_the_line_it_is_on():
    with pytest.raises(bt.BacktestInputError, match=r"^line 3: "):
        list(bt.read_jsonl([LINES[0], "", "{}"]))


def test_a_tiny_report_has_the_metrics_of_every_candidate():
    matches = list(bt.read_jsonl(LINES))
    report = bt.run(matches, [c for c in bt.candidates(include_oracle=False)])
    assert report.matches == 3
    default = report.score("default")
    assert 0 <= default.accuracy <= 1 and default.mean_log_loss > 0 and default.mean_brier > 0
    text = bt.format_report(report)
    for name in ("default", "openskill-default", "elo", "winner accuracy", "log-loss", "Brier",
                 "calibration of default", "2 sides", "3 sides"):  # fmt: skip
        assert name in text


def test_before_anybody_is_known_every_side_gets_the_same_chance():
    first = list(bt.read_jsonl(LINES))[:1]
    score = bt.run(first, bt.candidates(include_oracle=False)).score("default")
    # A third each: the winner is one of three favourites; Brier (2/3)² + 2·(1/3)².
    assert score.accuracy == pytest.approx(1 / 3)
    assert score.mean_brier == pytest.approx(2 / 3)
    assert score.mean_log_loss == pytest.approx(math.log(3))


def test_metrics_of_a_sure_right_and_a_sure_wrong_prediction():
    score = bt.Score("x")
    score.add([1.0, 0.0], [1.0, 0.0])
    assert (score.accuracy, score.mean_brier) == (1.0, 0.0)
    score.add([1.0, 0.0], [0.0, 1.0])
    assert score.accuracy == 0.5
    assert score.mean_brier == 1.0
    assert score.mean_log_loss == pytest.approx(-math.log(1e-15) / 2)


def test_the_generator_is_seeded_and_carries_true_probabilities():
    g = bt.Generator(players=30, matches=200)
    a, b = bt.synthetic(7, g), bt.synthetic(7, g)
    assert a == b != bt.synthetic(8, g)
    sizes = {len(m.sides) for m in a}
    assert sizes == {2, 3, 4, 5, 6}
    assert any(len(side) == 2 for m in a for side in m.sides)
    for m in a:
        assert sum(m.oracle) == pytest.approx(1)
        assert len({p for side in m.sides for p in side}) == sum(map(len, m.sides))


def test_the_oracle_beats_the_openskill_default_on_the_generator():
    matches = bt.synthetic(3, bt.Generator(players=60, matches=1500))
    names = ("openskill-default", "default", "oracle")
    report = bt.run(matches, [c for c in bt.candidates() if c.name in names])
    assert report.score("oracle").mean_brier < report.score("openskill-default").mean_brier
    assert report.gap_closed("oracle") == 1.0
    assert "Brier gap closed" in bt.format_report(report)


def test_the_oracle_needs_synthetic_matches():
    with pytest.raises(ValueError, match="synthetic"):
        bt.OraclePredictor().predict(next(bt.read_jsonl(LINES)))


def test_default_predictions_are_one_list_per_match_in_input_order_summing_to_one():
    matches = list(bt.read_jsonl(LINES))
    predictions = list(bt.default_predictions(matches))
    assert [len(p) for p in predictions] == [3, 2, 2]
    assert predictions[0] == pytest.approx([1 / 3] * 3)
    assert all(sum(p) == pytest.approx(1) for p in predictions)
    json.dumps({"win_probabilities": predictions[0]})


def test_the_refit_is_the_same_whole_or_match_by_match():
    matches = bt.synthetic(4, bt.Generator(players=40, matches=300))
    params = DynamicRefit(every=50, epoch=60)
    whole = bt.refit_predictor(params)
    for m in matches:
        whole.update(m)
    again = bt.refit_predictor(params)
    got = []
    for m in matches:
        got.append(again.predict(m))
        again.update(m)
    assert whole.pools["synthetic"].theta == again.pools["synthetic"].theta
    assert max(len(chain) for chain in whole.pools["synthetic"].theta) > 1
    assert all(sum(p) == pytest.approx(1) for p in got)


def test_the_default_candidate_is_the_engines_replay_of_the_served_rater():
    """One forecaster: the back-test's default, ``--predictions`` and a pool's history give the
    same floats, those of ``replay_arrays`` with the served rater, days and all."""
    from ratings.engine import MatchOutcome, Rater, replay

    matches = bt.synthetic(9, bt.Generator(players=30, matches=250, days=100))
    assert all(m.day is not None for m in matches)
    outcomes = [MatchOutcome(i, m.sides, m.places, m.day) for i, m in enumerate(matches)]
    replayed = [r.win_probabilities for r in replay(Rater.default(), outcomes, {}, {})]
    assert list(bt.default_predictions(matches)) == replayed
    forecast = bt.RaterPredictor(Rater.default()).forecast(matches)
    assert [p for p, _ in forecast] == replayed
    for (p, draw), m in zip(forecast, matches, strict=True):
        assert draw == (Rater.default().draw_from_win(p[0]) if len(m.sides) == 2 else None)


def test_played_at_orders_the_matches_and_lets_time_pass():
    lines = [
        '{"game": "g", "sides": [["a"], ["b"]], "places": [1, 2], "played_at": "2024-03-01T20:00:00"}',
        '{"game": "g", "sides": [["a"], ["c"]], "places": [2, 1]}',
        '{"game": "g", "sides": [["b"], ["c"]], "places": [1, 2], "played_at": "2024-01-01"}',
        '{"game": "g", "sides": [["a"], ["b"]], "places": [1, 1], "played_at": "2024-02-01T10:00:00+01:00"}',
    ]
    matches = list(bt.read_jsonl(lines))
    assert matches[2].day == 19723.0  # days since 1970-01-01
    assert matches[1].day is None
    # by day; the undated line stays after the one before it
    assert bt.play_order(matches) == [2, 3, 0, 1]
    assert list(bt.read_jsonl(bt.write_jsonl(matches))) == matches


def test_a_played_at_that_is_not_a_date_names_the_line():
    line = '{"game": "g", "sides": [["a"], ["b"]], "places": [1, 2], "played_at": "last tuesday"}'
    with pytest.raises(bt.BacktestInputError, match='line 1: "played_at" must be an ISO date'):
        list(bt.read_jsonl([line]))


def test_the_generator_has_the_leagues_traits():
    matches = bt.synthetic(5, bt.Generator(players=120, matches=3000))
    two = [m for m in matches if len(m.sides) == 2]
    draws = sum(m.places[0] == m.places[1] for m in two) / len(two)
    assert 0.015 < draws < 0.05
    four = [m for m in matches if sum(map(len, m.sides)) == 4]
    assert 0.15 < sum(len(m.sides) == 2 for m in four) / len(four) < 0.35
    days = [m.day for m in matches]
    assert days == sorted(days) and days[-1] > 900
    assert all(m.oracle_draw is not None for m in two)
    first_day = {}
    for m in matches:
        for side in m.sides:
            for p in side:
                first_day.setdefault(p, m.day)
    assert sum(d > 200 for d in first_day.values()) > len(first_day) / 3  # many join late


def test_the_report_gives_predicted_and_observed_draw_rates():
    matches = bt.synthetic(6, bt.Generator(players=60, matches=800))
    names = ("default", "openskill-default", "oracle")
    report = bt.run(matches, [c for c in bt.candidates() if c.name in names])
    predicted, observed = report.score("default").draw_rates
    assert 0 < predicted < 0.2 and 0 <= observed < 0.2
    assert report.score("oracle").draw_rates[0] == pytest.approx(observed, abs=0.03)
    assert "draws predicted / seen" in bt.format_report(report)


def test_the_oracle_assisted_filter_lies_between_the_default_and_the_oracle():
    # The bound of ratings.backtest.ceiling: told the others' true skills, it must beat the
    # served model, and knowing nobody's own current skill it cannot reach the oracle.
    matches = bt.synthetic(3, bt.Generator(players=60, matches=1500))
    names = ("openskill-default", "default", "oracle-assisted-filter", "oracle")
    report = bt.run(matches, [c for c in bt.candidates(include_ceiling=True) if c.name in names])
    bound = report.gap_closed("oracle-assisted-filter")
    assert report.gap_closed("default") < bound < 1.0
    rates = report.score("oracle-assisted-filter").draw_rates
    assert 0 < rates[0] < 0.1  # its two-sided draws are the generator's margin, a few per cent


def test_the_oracle_assisted_filter_needs_synthetic_matches():
    with pytest.raises(ValueError, match="synthetic"):
        bt.OracleAssistedFilter().predict(next(bt.read_jsonl(LINES)))


def test_the_oracle_assisted_filter_starts_from_the_generators_prior_and_drifts_back_to_it():
    first, later = bt.synthetic(5, bt.Generator(players=20, matches=40))[:2]
    bound = bt.OracleAssistedFilter()
    bound.predict(first)
    assert all(bound.mean[p] == 0.0 and bound.var[p] == 1.0 for side in first.sides for p in side)
    bound.update(first)
    player = first.sides[0][0]
    assert bound.var[player] < 1.0  # the match taught it something about him
    far = dataclasses.replace(later, sides=((player,), ("nobody",)), places=(1, 2), day=first.day + 1e6)
    bound.predict(far)
    assert bound.var[player] == pytest.approx(1.0) and bound.mean[player] == pytest.approx(0.0)


def test_the_thurstone_filter_needs_no_truth_and_closes_part_of_the_gap():
    # The generator's own model as a filter: it rates stored or given matches too (no truth).
    predictions = _forecast(bt.ThurstoneFilter(), list(bt.read_jsonl(LINES)))
    assert predictions[0][0] == pytest.approx([1 / 3] * 3)
    assert all(sum(p) == pytest.approx(1) for p, _ in predictions)
    matches = bt.synthetic(3, bt.Generator(players=60, matches=1500))
    names = ("openskill-default", "thurstone-filter", "oracle-assisted-filter", "oracle")
    report = bt.run(matches, [c for c in bt.candidates(include_ceiling=True) if c.name in names])
    assert 0 < report.gap_closed("thurstone-filter") < 1.0
