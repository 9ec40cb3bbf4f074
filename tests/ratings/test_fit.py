"""Parameters per game (issue 20): ``ratings.fitting.fit``, ``manage.py ratings_fit`` and
``ratings.raters.rater(game)``; and the one forecaster behind the pool's numbers."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.core.management import CommandError, call_command

from ratings import backtest as bt
from ratings import fitting
from ratings import services as ratings
from ratings.engine import MatchOutcome, Rater, Rating, replay_arrays
from ratings.models import PlayerRating, RatingHistory, RatingPool, RecomputeJob
from ratings.pool_reading import pool_matches
from ratings.raters import rater


def outcomes(matches):
    return [MatchOutcome(i, m.sides, m.places, m.day) for i, m in enumerate(matches)]


def test_the_fit_picks_the_candidate_with_the_best_brier_on_the_later_matches():
    matches = outcomes(bt.synthetic(4, bt.Generator(players=60, matches=700)))
    found = fitting.fit(matches, min_matches=300)
    assert found.matches == 700 and found.scored == 350
    assert len(found.briers) == len(fitting.candidate_parameters(Rater.default()))
    best_params, _ = min(found.briers, key=lambda row: row[1])
    assert {k: v for k, v in found.parameters.items() if k != "draw_share"} == best_params
    # the pool's own draw share: its predicted draws add up to the draws seen
    assert 0 < found.draw_share < 0.5 and found.parameters["draw_share"] == found.draw_share
    rater = found.rater(Rater.default())
    two = [m for m in matches if len(m.sides) == 2]
    lines = bt.synthetic(4, bt.Generator(players=60, matches=700))
    forecast = dict(enumerate(bt.default_predictions(lines, rater)))
    predicted = sum(rater.draw_from_win(forecast[m.match_id][0]) for m in two)
    assert predicted == pytest.approx(sum(m.places[0] == m.places[1] for m in two), rel=1e-6)


def test_a_small_pool_keeps_the_defaults():
    matches = outcomes(bt.synthetic(4, bt.Generator(players=20, matches=50)))
    found = fitting.fit(matches)
    assert found.parameters == {} and found.rater(Rater.default()) == Rater.default()
    assert "defaults" in found.reason


def test_stored_parameters_replace_the_defaults_and_nothing_else():
    rater = Rater.default().with_parameters({"beta": 5.0, "draw_share": 0.01})
    assert (rater.beta, rater.draw_share, rater.z) == (5.0, 0.01, Rater.default().z)
    with pytest.raises(ValueError, match="not a fitted parameter: z"):
        Rater.default().with_parameters({"z": 0.0})


@pytest.fixture
def pool_played(play):
    rng = random.Random(3)
    for _ in range(12):
        seats = rng.sample(range(4), 2)
        play(seats, [10, rng.randint(0, 9)] if rng.random() < 0.6 else [rng.randint(0, 9), 10])
    ratings.rating_events_process_all()


def rebuild():
    job = RecomputeJob.objects.create(total=1)
    for pool in RatingPool.objects.all():
        ratings.rating_pool_recompute(pool=pool, job=job)


@pytest.mark.django_db
def test_ratings_fit_stores_the_pools_parameters_and_the_recompute_uses_them(pool_played, capsys):
    assert rater("tally") == Rater.default()
    call_command("ratings_fit", "--game", "tally", "--min-matches", "5")
    out = capsys.readouterr().out
    assert "tally: 12 matches, 6 scored" in out and "Brier" in out and "recompute job" in out
    pool = RatingPool.objects.get(game="tally")
    assert pool.fit_report["matches"] == 12 and len(pool.fit_report["candidates"]) > 1
    served = rater("tally")
    assert served == Rater.default().with_parameters(pool.parameters, name=served.name)
    assert rater("tally").fitted_parameters() != Rater.default().fitted_parameters()  # its draw share
    rebuild()
    # The pool's ratings and history are the served rater's replay of its matches.
    matches = list(pool_matches("tally"))
    want = {}
    done = replay_arrays(served, matches, want, {})
    assert {r.player_id: (r.mu, r.sigma) for r in PlayerRating.objects.filter(pool=pool)} == {
        p: tuple(r) for p, r in want.items()
    }
    stored = dict(RatingHistory.objects.filter(pool=pool).values_list("id", "win_probability"))
    assert sorted(stored.values()) == sorted(done.win_probability.tolist())


@pytest.mark.django_db
def test_a_small_pool_keeps_the_defaults_when_fitted(pool_played, capsys):
    call_command("ratings_fit", "--game", "tally")
    assert "the defaults" in capsys.readouterr().out
    assert RatingPool.objects.get(game="tally").parameters == {}
    assert rater("tally") == Rater.default()


@pytest.mark.django_db
def test_stored_parameters_that_are_not_the_models_leave_the_defaults_serving(pool_played):
    RatingPool.objects.filter(game="tally").update(parameters={"beta": -1})
    assert rater("tally") == Rater.default()


@pytest.mark.django_db
def test_ratings_fit_refuses_an_unknown_game_and_a_bad_minimum():
    with pytest.raises(CommandError, match="chess"):
        call_command("ratings_fit", "--game", "chess")
    with pytest.raises(CommandError, match="at least 1"):
        call_command("ratings_fit", "--game", "piquet", "--min-matches", "0")


@pytest.mark.django_db
def test_one_forecaster_the_history_predictions_and_predict_agree(pool_played):
    """The history's pre-match probabilities are ``--predictions``' for the pool, and
    ``/predict`` gives the served rater's odds of the current (aged) ratings."""
    from ratings.reads.predictions import predict
    from scorekeeper.matches.models import Player

    matches = list(pool_matches("tally"))
    lines = [bt.BacktestMatch("tally", m.sides, m.places, day=getattr(m, "day", None)) for m in matches]
    predicted = list(bt.default_predictions(lines, rater("tally")))
    for m, odds in zip(matches, predicted, strict=True):
        rows = RatingHistory.objects.filter(match_id=m.match_id).order_by("side")
        assert sorted({(r.side, r.win_probability) for r in rows}) == list(enumerate(odds))
    a, b = Player.objects.order_by("pk")[:2]
    served = rater("tally")
    current = {r.player_id: r for r in PlayerRating.objects.filter(pool__game="tally")}
    at = max(current[a.pk].last_played_at, current[b.pk].last_played_at) + timedelta(days=30)
    prediction = predict(game="tally", sides=[[a], [b]], at=at)
    days = {p.pk: (at - current[p.pk].last_played_at).total_seconds() / 86400 for p in (a, b)}
    aged = [[served.aged(Rating(current[p.pk].mu, current[p.pk].sigma), days[p.pk])] for p in (a, b)]
    assert aged[0][0].sigma > current[a.pk].sigma  # a month away
    assert [s.win_probability for s in prediction.sides] == served.win_probabilities(aged)
    assert prediction.draw_probability == served.draw_probability(aged)
