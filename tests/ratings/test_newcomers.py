"""The newcomers' study (ratings/backtest/newcomers.py): "within one deviation" on each
model's own ± and on the common yardstick, the results-only default's ± for that player after
that match. A model's own ± can be gamed by inflating its sigma; the common one cannot."""

from __future__ import annotations

import dataclasses
import re

import pytest

from ratings import backtest
from ratings.backtest import newcomers
from ratings.engine import Rater

INFLATED = Rater.default().with_parameters({}, name="inflated")


@pytest.fixture(scope="module")
def league():
    return backtest.synthetic(3, backtest.Generator(players=20, matches=600), with_oracle=False)


def _inflating(trajectories, factor):
    """``_trajectories`` with the sigma of the rater named "inflated" multiplied by ``factor``
    (its mu, the same model's, untouched)."""

    def wrapped(rater, matches, use_scores):
        paths = trajectories(rater, matches, use_scores)
        if rater.name != "inflated":
            return paths
        return {p: [(mu, sigma * factor, s) for mu, sigma, s in path] for p, path in paths.items()}

    return wrapped


def test_the_default_against_itself_gives_the_same_numbers_on_both_yardsticks(league):
    again = Rater.default().with_parameters({}, name="again")
    models = [("default", Rater.default(), False), ("again", again, False)]
    first, second = backtest.newcomer_study(league, models, min_matches=20)
    assert dataclasses.replace(second, name="default") == first
    # Its own ± is the common yardstick's band: the two columns agree.
    assert (first.within_common_median, first.within_common_reached) == (
        first.within_own_median,
        first.within_own_reached,
    )
    assert first.within_own_reached > 0


def test_an_inflated_sigma_wins_on_its_own_band_but_not_on_the_common_yardstick(league, monkeypatch):
    monkeypatch.setattr(newcomers, "_trajectories", _inflating(newcomers._trajectories, 3.0))
    default, inflated = backtest.newcomer_study(
        league, [("default", Rater.default(), False), ("inflated", INFLATED, False)], min_matches=20
    )
    # On his own ± the inflated model "stays within" sooner and for more players: gameable.
    assert inflated.within_own_median < default.within_own_median
    assert inflated.within_own_reached > default.within_own_reached
    # On the default's ± it is the default (the same mu): no better.
    assert (inflated.within_common_median, inflated.within_common_reached) == (
        default.within_common_median,
        default.within_common_reached,
    )
    assert inflated.error == default.error  # the same ratings, only the ± differs


def test_a_model_nearer_the_truth_wins_on_the_common_yardstick(league, monkeypatch):
    """A model whose mu is the truth stays within the default's band from its first checked
    matches on; one whose mu is off by three bands never does."""
    k = newcomers.skill_to_mu(Rater.default())
    trajectories = newcomers._trajectories

    def shifted(rater, matches, use_scores):
        paths = trajectories(rater, matches, use_scores)
        if rater.name == "default":
            return paths
        out = {}
        for player, path in paths.items():
            out[player] = [(rater.mu + k * s + (3 * sigma if rater.name == "off" else 0.0), sigma / 10, s)
                           if s is not None else (mu, sigma, s) for mu, sigma, s in path]  # fmt: skip
        return out

    monkeypatch.setattr(newcomers, "_trajectories", shifted)
    exact = Rater.default().with_parameters({}, name="exact")
    off = Rater.default().with_parameters({}, name="off")
    default, right, wrong = backtest.newcomer_study(
        league,
        [("default", Rater.default(), False), ("exact", exact, False), ("off", off, False)],
        min_matches=20,
    )
    assert right.within_common_reached == right.players
    assert right.within_common_median <= default.within_common_median
    assert wrong.within_common_reached == 0
    # Its narrow own ± (a tenth of the default's): off by three of the default's, never within either.
    assert wrong.within_own_reached == 0


def test_the_table_reports_both_yardsticks_and_how_many_fewer(league, monkeypatch):
    monkeypatch.setattr(newcomers, "_trajectories", _inflating(newcomers._trajectories, 3.0))
    models = [("default", Rater.default(), False), ("inflated", INFLATED, False)]
    rows = backtest.newcomer_study(league, models, min_matches=20)
    table = backtest.format_newcomer_study(rows).splitlines()
    assert "within his own ± (reached)" in table[0] and "within the first's ± (reached)" in table[0]
    own = rows[1].within_own_median
    change = round(100 * (own - rows[0].within_own_median) / rows[0].within_own_median)
    assert f"{own:.0f} ({rows[1].within_own_reached}), −{-change}%" in table[3]
    common = f"{rows[1].within_common_median:.0f} ({rows[1].within_common_reached})"
    assert re.search(rf"\| +{re.escape(common)} \|", table[3])  # the same as the default's: no change
