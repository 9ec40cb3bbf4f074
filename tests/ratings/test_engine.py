"""The rating engine (ratings/engine.py): moves, ties, predictions, display, replay."""

from __future__ import annotations

import itertools
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from ratings.engine import MatchOutcome, Rater, Rating, replay, replay_arrays

RATER = Rater.default()
P = RATER.prior()


def test_the_winner_goes_up_and_the_loser_down():
    (winner,), (loser,) = RATER.rate([[P], [P]], [1, 2])
    assert winner.mu > P.mu > loser.mu
    assert winner.sigma < math.hypot(P.sigma, RATER.tau)
    assert loser.sigma < math.hypot(P.sigma, RATER.tau)


def test_in_a_free_for_all_every_place_is_above_the_next():
    after = RATER.rate([[P]] * 5, [3, 1, 5, 2, 4])
    mus = {place: side[0].mu for place, side in zip([3, 1, 5, 2, 4], after, strict=True)}
    assert mus[1] > mus[2] > mus[3] > mus[4] > mus[5]


def test_a_draw_between_equals_leaves_them_equal():
    a, b = RATER.rate([[P], [P]], [1, 1])
    assert a == b
    assert a[0].mu == pytest.approx(P.mu, abs=1e-12)


def test_a_draw_between_equal_teams_leaves_them_equal():
    x, y = Rating(30.0, 4.0), Rating(20.0, 6.0)
    a, b = RATER.rate([[x, y], [x, y]], [1, 1])
    assert a == b


def test_a_tie_is_half_a_win_in_each_pair_not_an_average():
    """Issue 20's example: 23.2±6.2 and 20.3±2.8 draw; the model moves the stronger down and
    the weaker up (−0.161, +0.033), where averaging the changes lowered both."""
    (a,), (b,) = RATER.rate([[Rating(23.2, 6.2)], [Rating(20.3, 2.8)]], [1, 1])
    assert a.mu < 23.2 and b.mu > 20.3
    issue_11 = Rater(model="bradley-terry-full", beta=8.0, tau=0.3)  # the parameters of the issue
    (a,), (b,) = issue_11.rate([[Rating(23.2, 6.2)], [Rating(20.3, 2.8)]], [1, 1])
    assert a.mu - 23.2 == pytest.approx(-0.161, abs=3e-3)
    assert b.mu - 20.3 == pytest.approx(0.033, abs=1e-3)


def test_a_strong_player_tied_for_second_behind_a_weak_winner_loses():
    strong, weak = Rating(35.0, 3.0), Rating(15.0, 3.0)
    after = RATER.rate([[weak], [strong], [Rating(25.0, 3.0)], [Rating(25.0, 3.0)], [weak]], [1, 2, 2, 4, 5])
    assert after[0][0].mu > weak.mu
    assert after[1][0].mu < strong.mu


def test_tied_equals_among_others_stay_equal():
    q = Rating(28.0, 5.0)
    after = RATER.rate([[q], [P], [q], [P]], [2, 1, 2, 4])
    assert after[0] == after[2]


@pytest.mark.parametrize(
    "sides, places, message",
    [
        ([[P]], [1], "at least two sides"),
        ([[P], []], [1, 2], "side 1 has no player"),
        ([[P], [P]], [1], "1 places for 2 sides"),
        ([[P], [P]], [1, 0], "place 1 must be an integer ≥ 1"),
        ([[P], [P]], [1, 1.5], "place 1 must be an integer ≥ 1"),
    ],
)
def test_a_malformed_match_is_a_clear_value_error(sides, places, message):
    with pytest.raises(ValueError, match=message):
        RATER.rate(sides, places)


ratings = st.builds(Rating, st.floats(-20, 70), st.floats(0.3, 10))
matches = st.lists(st.lists(ratings, min_size=1, max_size=2), min_size=2, max_size=6)


@settings(max_examples=60, deadline=None)
@given(matches, st.sampled_from(["plackett-luce", "pairwise"]))
def test_win_probabilities_sum_to_one_and_expected_ranks_to_the_triangle(sides, formula):
    rater = Rater(win_formula=formula)
    p = rater.win_probabilities(sides)
    assert all(0 <= x <= 1 for x in p)
    assert sum(p) == pytest.approx(1, abs=1e-12)
    n = len(sides)
    assert sum(rater.expected_ranks(sides)) == pytest.approx(n * (n + 1) / 2)


def test_the_stronger_side_is_favoured_and_expected_ahead():
    strong = Rating(35.0, 2.0)
    p = RATER.win_probabilities([[strong], [P]])
    assert p[0] > 0.5 > p[1]
    ranks = RATER.expected_ranks([[strong], [P]])
    assert ranks[0] < ranks[1]


def test_draw_probability_is_for_two_sides_only():
    d = RATER.draw_probability([[P], [P]])
    assert d == pytest.approx(RATER.draw_share)
    assert RATER.draw_probability([[P], [P], [P]]) is None
    assert RATER.draw_probability([[Rating(60.0, 1.0)], [P]]) < d


@settings(max_examples=80, deadline=None)
@given(st.lists(st.lists(ratings, min_size=1, max_size=3), min_size=2, max_size=2), st.floats(0, 0.5))
def test_win_draw_and_loss_sum_to_one_and_keep_the_win_probability(sides, share):
    rater = Rater(draw_share=share)
    win, draw, loss = rater.outcome_probabilities(sides)
    assert min(win, draw, loss) >= 0
    assert win + draw + loss == pytest.approx(1, abs=1e-12)
    assert win + draw / 2 == pytest.approx(rater.win_probabilities(sides)[0], abs=1e-12)
    assert draw == rater.draw_probability(sides) <= share


def test_two_equal_established_players_get_one_half_each_and_the_pools_draw_share():
    """Issue 20: 0.5 / 0.5 to win and 0.487 to draw (1.49 in all) before."""
    equal = Rating(30.0, 1.5)
    win, draw, loss = RATER.outcome_probabilities([[equal], [equal]])
    half = RATER.draw_share / 2
    assert (win, draw, loss) == pytest.approx((0.5 - half, RATER.draw_share, 0.5 - half))


def test_the_conservative_rating_is_mu_less_z_sigma():
    assert RATER.conservative(Rating(30.0, 2.0)) == 30.0 - RATER.z * 2.0
    assert RATER.conservative(P) < RATER.conservative(Rating(P.mu, P.sigma / 2))


def test_a_player_is_provisional_while_he_has_few_matches():
    assert RATER.is_provisional(P, 0)
    assert not RATER.is_provisional(Rating(25.0, 1.0), 50)


@pytest.mark.parametrize(
    "key, value",
    [("sigma", 0), ("beta", -1), ("tau", -0.1), ("win_formula", "x"), ("gamma", -1), ("draw_share", 0.6),
     ("pair_weight_exponent", -0.5)],
)  # fmt: skip
def test_a_rater_refuses_impossible_parameters(key, value):
    with pytest.raises(ValueError, match=key):
        Rater(**{key: value})


def pool(n=300, seed=3):
    import random

    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = rng.randint(2, 6)
        players = rng.sample(range(40), k if k != 4 or rng.random() < 0.5 else 4)
        if k == 4 and rng.random() < 0.5:
            sides = ((players[0], players[2]), (players[1], players[3]))
        else:
            sides = tuple((p,) for p in players)
        places = tuple(rng.randint(1, len(sides)) for _ in sides)
        out.append(MatchOutcome(i, sides, places))
    return out


def test_replay_from_scratch_equals_the_incremental_path():
    matches = pool()
    full = {}
    rated = list(replay(RATER, matches, full))
    step = {}
    for m in matches[:100]:
        list(replay(RATER, [m], step))
    list(replay(RATER, matches[100:], step))
    assert step == full
    assert rated == list(replay(RATER, matches))


def test_replay_reports_before_after_place_and_win_probability():
    m = MatchOutcome("m1", (("ann",), ("bob",)), (2, 1))
    (rated,) = replay(RATER, [m])
    ann, bob = rated.players
    assert (ann.player_id, ann.place, ann.before, bob.place) == ("ann", 2, P, 1)
    assert ann.after.mu < P.mu < bob.after.mu
    assert ann.win_probability == rated.win_probabilities[0] == pytest.approx(0.5)


def test_replay_refuses_a_player_twice_in_a_match():
    with pytest.raises(ValueError, match="appears twice"):
        list(replay(RATER, [MatchOutcome(1, (("ann",), ("ann",)), (1, 2))]))


RATERS = [
    RATER,
    Rater(model="plackett-luce"),
    Rater(model="plackett-luce", win_formula="pairwise", win_scale=1.2),
    Rater(win_formula="thurstone", tau=0.0),
]


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from(RATERS),
    st.integers(0, 2**16),
    st.lists(st.integers(0, 120), max_size=4),
)
def test_a_match_gets_the_same_floats_whatever_else_is_rated_with_it(rater, seed, cuts):
    """The update rates waves of matches at once: a pool replayed whole, in pieces, or one
    match at a time through ``Rater.rate`` gives the very same floats, before and after."""
    matches = pool(120, seed)
    whole: dict = {}
    rated = list(replay(rater, matches, whole))
    pieces: dict = {}
    in_pieces = []
    for start, end in itertools.pairwise([0, *sorted(cuts), len(matches)]):
        in_pieces.extend(replay(rater, matches[start:end], pieces))
    assert pieces == whole
    assert in_pieces == rated
    one_by_one: dict = {}
    for m, r in zip(matches, rated, strict=True):
        sides = [[one_by_one.get(p, rater.prior()) for p in side] for side in m.sides]
        assert sides == r.before
        assert rater.win_probabilities(sides) == r.win_probabilities
        after = rater.rate(sides, m.places)
        assert after == r.after
        for side, new in zip(m.sides, after, strict=True):
            one_by_one.update(zip(side, new, strict=True))
    assert one_by_one == whole


def test_replay_arrays_gives_one_row_per_player_per_match_in_the_given_order():
    matches = [
        MatchOutcome("m1", (("ann", "bob"), ("cy", "dee")), (2, 1)),
        MatchOutcome("m2", (("ann",), ("cy",), ("eve",)), (1, 1, 3)),
        MatchOutcome("m3", (("bob",), ("eve",)), (1, 2)),
    ]
    done = replay_arrays(RATER, matches)
    assert done.players == ["ann", "bob", "cy", "dee", "ann", "cy", "eve", "bob", "eve"]
    assert done.match_index.tolist() == [0, 0, 0, 0, 1, 1, 1, 2, 2]
    assert done.side.tolist() == [0, 0, 1, 1, 0, 1, 2, 0, 1]
    assert done.place.tolist() == [2, 2, 1, 1, 1, 1, 3, 1, 2]
    rated = list(replay(RATER, matches))
    assert done.mu_after.tolist() == [r.mu for m in rated for side in m.after for r in side]
    assert done.win_probability[:4].tolist() == [rated[0].win_probabilities[i] for i in (0, 0, 1, 1)]
    # ann's second match starts from her first one's rating
    assert (done.mu_before[4], done.sigma_before[4]) == (done.mu_after[0], done.sigma_after[0])


def test_replay_arrays_of_no_match_is_empty():
    done = replay_arrays(RATER, [])
    assert done.players == [] and len(done.mu_after) == 0


@pytest.mark.parametrize(
    "match, message",
    [
        (MatchOutcome(1, (("ann",),), (1,)), "at least two sides"),
        (MatchOutcome(1, (("ann",), ()), (1, 2)), "side 1 has no player"),
        (MatchOutcome(1, (("ann",), ("bob",)), (1,)), "1 places for 2 sides"),
        (MatchOutcome(1, (("ann",), ("bob",)), (1, 0)), "place 1 must be an integer ≥ 1"),
        (MatchOutcome(1, (("ann",), ("bob",)), (1, True)), "place 1 must be an integer ≥ 1"),
        (MatchOutcome(1, (("ann", "bob"), ("bob",)), (1, 2)), "player 'bob' appears twice"),
    ],
)
def test_a_malformed_match_among_good_ones_is_named(match, message):
    good = MatchOutcome(0, (("x",), ("y",)), (1, 2))
    with pytest.raises(ValueError, match=message):
        replay_arrays(RATER, [good, match, good])


def test_a_place_beyond_64_bits_is_a_value_error():
    with pytest.raises(ValueError, match="below 2\\*\\*63"):
        replay_arrays(RATER, [MatchOutcome(1, (("ann",), ("bob",)), (1, 2**70))])


def test_a_match_of_many_sides_is_rated_from_the_pairs_it_has():
    """The pair tables hold only the table sizes of the matches rated, not every size up to
    the largest (a 400-side line of a back-test's input is rated in a blink)."""
    sides = [[P]] * 400
    after = RATER.rate(sides, list(range(1, 401)))
    mus = [side[0].mu for side in after]
    assert mus == sorted(mus, reverse=True) and mus[0] > P.mu > mus[-1]
