"""Our updates give openskill's numbers to 1e-9 (issue 11).

Untied matches here; tied ones in test_draws.py (openskill's averaging of tied sides does
nothing, so both score a tie as half a win in each pair). The draw probability is not
openskill's ``predict_draw`` (whose draw and win chances of two equals summed to 1.49): it
is δ·4p(1 − p), tested in test_engine.py.
"""

from __future__ import annotations

import random

import pytest

openskill = pytest.importorskip("openskill.models")

from ratings.engine import Rater, Rating  # noqa: E402

PARAMETERS = [
    {},
    {"mu": 0.0, "sigma": 2.0, "beta": 1.0, "tau": 0.05, "kappa": 0.001},
    {"mu": 1500.0, "sigma": 350.0, "beta": 200.0, "tau": 0.0},
]


def random_match(rng):
    n = rng.randint(2, 6)
    teams = rng.random() < 0.3
    sizes = [rng.randint(1, 3) if teams else 1 for _ in range(n)]
    scale = 25
    sides = [
        [Rating(rng.uniform(-scale, 3 * scale), rng.uniform(0.05, scale / 2)) for _ in range(k)]
        for k in sizes
    ]
    places = list(range(1, n + 1))
    rng.shuffle(places)
    return sides, places


MODELS = {"plackett-luce": "PlackettLuce", "bradley-terry-full": "BradleyTerryFull"}


@pytest.mark.parametrize("model", MODELS)
@pytest.mark.parametrize("params", PARAMETERS)
def test_our_update_equals_openskills_on_thousands_of_random_matches(model, params):
    ours = Rater(model=model, **params)
    theirs = getattr(openskill, MODELS[model])(**params)
    rng = random.Random(11)
    worst = 0.0
    for _ in range(1500):
        sides, places = random_match(rng)
        got = ours.rate(sides, places)
        want = theirs.rate([[theirs.rating(mu=r.mu, sigma=r.sigma) for r in s] for s in sides], ranks=places)
        for got_side, want_side in zip(got, want, strict=True):
            for g, w in zip(got_side, want_side, strict=True):
                worst = max(worst, abs(g.mu - w.mu), abs(g.sigma - w.sigma))
    assert worst < 1e-9


def test_the_default_is_an_update_we_compare():
    assert Rater.default().model in MODELS


def test_pairwise_win_probabilities_equal_openskills_predict_win():
    ours = Rater(win_formula="pairwise")
    theirs = openskill.PlackettLuce()
    rng = random.Random(5)
    for _ in range(300):
        sides, _ = random_match(rng)
        want = theirs.predict_win([[theirs.rating(mu=r.mu, sigma=r.sigma) for r in s] for s in sides])
        assert ours.win_probabilities(sides) == pytest.approx(want, abs=1e-9)
