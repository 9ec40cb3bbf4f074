"""Uncertainty that grows with time away (issue 20): sigma² + gamma²·days, capped at the prior.

The engine's API: ``MatchOutcome.day`` (days since any fixed epoch; None lets no time pass)
and ``replay_arrays(..., last_day=...)``, a dict player → day of his last rated match, read
and updated in place, like ``ratings``.
"""

from __future__ import annotations

import itertools
import math
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import MatchOutcome, Rater, Rating, replay, replay_arrays

RATER = Rater.default().with_parameters({"gamma": 0.4})
P = RATER.prior()


def test_a_player_back_after_a_year_is_less_certain_than_one_who_played_yesterday():
    known = Rating(30.0, 2.0)
    assert RATER.aged(known, 365).sigma > RATER.aged(known, 1).sigma > known.sigma
    assert RATER.aged(known, 1).sigma == pytest.approx(math.sqrt(4 + 0.16))


def test_time_away_never_makes_a_rating_less_certain_than_the_prior():
    assert RATER.aged(Rating(30.0, 2.0), 1e9).sigma == pytest.approx(P.sigma)
    loose = Rating(30.0, P.sigma * 2)
    assert RATER.aged(loose, 100) == loose  # not shrunk to the prior either


def test_no_days_no_time_passes():
    known = Rating(30.0, 2.0)
    assert RATER.aged(known, 0) == known
    assert Rater.default().with_parameters({"gamma": 0.0}).aged(known, 100) == known


def pool(n, seed, dated=0.8):
    rng = random.Random(seed)
    out = []
    day = 0.0
    for i in range(n):
        k = rng.randint(2, 5)
        players = rng.sample(range(25), k)
        places = tuple(rng.randint(1, k) for _ in range(k))
        day += rng.expovariate(0.5)
        out.append(
            MatchOutcome(i, tuple((p,) for p in players), places, day if rng.random() < dated else None)
        )
    return out


def away(match, last, player):
    """The days since the player's last dated match (0 if either is unknown)."""
    return match.day - last[player] if match.day is not None and player in last else 0


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**16), st.lists(st.integers(0, 80), max_size=4), st.floats(0, 1))
def test_replayed_whole_in_pieces_or_match_by_match_with_days_the_floats_are_the_same(seed, cuts, dated):
    matches = pool(80, seed, dated)
    whole, whole_days = {}, {}
    rated = list(replay(RATER, matches, whole, whole_days))
    pieces, piece_days = {}, {}
    in_pieces = []
    for start, end in itertools.pairwise([0, *sorted(cuts), len(matches)]):
        in_pieces.extend(replay(RATER, matches[start:end], pieces, piece_days))
    assert (pieces, piece_days) == (whole, whole_days)
    assert in_pieces == rated
    # One by one, by hand: each player aged by his days away, then the match rated.
    ratings, last = {}, {}
    for m, r in zip(matches, rated, strict=True):
        sides = [[ratings.get(p, P) for p in side] for side in m.sides]
        assert sides == r.before
        aged = [[RATER.aged(x, away(m, last, p)) for x, p in zip(s, side, strict=True)]
                for s, side in zip(sides, m.sides, strict=True)]  # fmt: skip
        assert RATER.win_probabilities(aged) == pytest.approx(r.win_probabilities, abs=1e-12)
        after = RATER.rate(aged, m.places)
        assert [x for s in after for r_ in s for x in r_] == pytest.approx(
            [x for s in r.after for r_ in s for x in r_], abs=1e-12
        )
        for side, new in zip(m.sides, r.after, strict=True):
            ratings.update(zip(side, new, strict=True))
            if m.day is not None:
                last.update((p, m.day) for p in side)
    assert last == whole_days


def test_without_days_the_replay_is_the_one_without_time():
    matches = pool(60, 4, dated=0.0)
    assert list(replay(RATER, matches)) == list(replay(Rater.default(), matches))
    days = {}
    replay_arrays(RATER, matches, {}, days)
    assert days == {}


def test_the_last_day_is_read_from_and_written_to_the_dict():
    m = MatchOutcome(1, (("ann",), ("bob",)), (1, 2), day=100.0)
    fresh = replay_arrays(RATER, [m], {"ann": Rating(30.0, 1.0)}, {"ann": 99.0})
    away = replay_arrays(RATER, [m], {"ann": Rating(30.0, 1.0)}, last := {"ann": 0.0})
    assert away.sigma_after[0] > fresh.sigma_after[0]
    assert away.sigma_before[0] == fresh.sigma_before[0] == 1.0  # the stored rating, not aged
    assert last == {"ann": 100.0, "bob": 100.0}


def test_a_day_that_is_not_a_number_is_a_value_error():
    with pytest.raises(ValueError, match="day"):
        replay_arrays(RATER, [MatchOutcome(1, (("ann",), ("bob",)), (1, 2), day="monday")])
    with pytest.raises(ValueError, match="finite"):
        replay_arrays(RATER, [MatchOutcome(1, (("ann",), ("bob",)), (1, 2), day=math.inf)])
