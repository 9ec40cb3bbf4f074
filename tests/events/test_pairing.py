"""The rounds of an event: FIDE's Berger tables, Swiss rounds checked against every pairing
there is (up to ten players), byes and the tables of three seats or more."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from fractions import Fraction
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events import pairing
from scorekeeper.events.pairing import BYE, PairingError

FIDE = Path(__file__).resolve().parents[1] / "data" / "berger_fide.txt"


def fide_tables() -> dict[int, list[list[tuple[int, int]]]]:
    tables: dict[int, list[list[tuple[int, int]]]] = {}
    for line in FIDE.read_text().splitlines():
        if not line or line.startswith("#"):
            continue
        count, number, pairs = (part.strip() for part in line.split(":"))
        rounds = tables.setdefault(int(count), [])
        assert int(number) == len(rounds) + 1
        rounds.append([tuple(int(x) for x in pair.split("-")) for pair in pairs.split()])  # type: ignore[misc]
    return tables


# -- round robin --------------------------------------------------------------------------
@pytest.mark.parametrize("count", range(4, 17))
def test_berger_tables_are_fides(count):
    even = count + count % 2
    assert pairing.berger(count) == fide_tables()[even]


@pytest.mark.parametrize("count", range(2, 21))
def test_a_round_robin_meets_every_pair_once_and_seats_each_player_once_a_round(count):
    rounds = pairing.berger(count)
    n = count + count % 2
    assert len(rounds) == n - 1
    for pairs in rounds:
        seated = [p for pair in pairs for p in pair]
        assert sorted(seated) == list(range(1, n + 1))
    meetings = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert set(meetings.values()) == {1} and len(meetings) == n * (n - 1) // 2


def test_a_round_robin_of_fewer_than_two_is_refused():
    with pytest.raises(PairingError) as refused:
        pairing.berger(1)
    assert refused.value.code == "too_few_entrants"


# -- Swiss ------------------------------------------------------------------------------
def all_pairings(players: list) -> list[tuple[tuple[tuple, ...], object]]:
    """Every perfect pairing of ``players`` (a bye for an odd count): (pairs, bye)."""
    if len(players) % 2:
        return [
            (pairs, bye)
            for i, bye in enumerate(players)
            for pairs, _ in all_pairings(players[:i] + players[i + 1 :])
        ]
    if not players:
        return [((), BYE)]
    first, rest = players[0], players[1:]
    found: list[tuple[tuple[tuple, ...], object]] = []
    for i, partner in enumerate(rest):
        for pairs, _ in all_pairings(rest[:i] + rest[i + 1 :]):
            found.append((((first, partner), *pairs), BYE))
    return found


histories = st.integers(2, 10).flatmap(
    lambda n: st.tuples(
        st.just(list(range(1, n + 1))),
        st.lists(st.integers(0, 6), min_size=n, max_size=n),  # half points
        st.dictionaries(
            st.tuples(st.integers(1, n), st.integers(1, n)).filter(lambda ab: ab[0] < ab[1]),
            st.integers(1, 2),
            max_size=n * (n - 1) // 2,
        ),
        st.dictionaries(st.integers(1, n), st.integers(1, 2), max_size=n),
    )
)


@settings(max_examples=150, deadline=None)
@given(histories)
def test_a_swiss_round_is_the_best_of_every_pairing_there_is(history):
    players, halves, met_pairs, byes = history
    points = {p: Fraction(h, 2) for p, h in zip(players, halves, strict=True)}
    order = sorted(players, key=lambda p: -points[p])
    met = {frozenset(ab): times for ab, times in met_pairs.items()}

    chosen = pairing.swiss(order, points, met=met, byes=byes)

    seated = [p for pair in chosen.pairs for p in pair] + ([chosen.bye] if chosen.bye is not BYE else [])
    assert sorted(seated) == sorted(players)  # every entrant seated once, or given the bye
    assert (chosen.bye is BYE) == (len(players) % 2 == 0)
    best = min(
        pairing.penalties(pairing.Pairing(pairs, bye, 0, 0), points, met, byes)
        for pairs, bye in all_pairings(players)
    )
    # Second byes first, then repeat meetings, then the points between partners: none of
    # the 945 pairings of ten (or 945 × 11 with a bye) does better.
    assert pairing.penalties(chosen, points, met, byes) == best


def test_a_swiss_round_pairs_the_top_half_of_a_score_group_with_its_bottom_half():
    players = list("ABCDEFGH")
    chosen = pairing.swiss(players, dict.fromkeys(players, 0))
    assert chosen.pairs == (("A", "E"), ("B", "F"), ("C", "G"), ("D", "H"))
    assert chosen.bye is BYE and chosen.repeats == 0


def test_the_bye_goes_to_the_lowest_placed_of_the_lowest_score_group_who_had_none():
    players = list("ABCDE")
    points = {"A": 2, "B": 1, "C": 1, "D": 0, "E": 0}
    assert pairing.swiss(players, points).bye == "E"
    assert pairing.swiss(players, points, byes={"E": 1}).bye == "D"
    assert pairing.swiss(players, points, byes={"E": 1, "D": 1}).bye == "C"


@settings(max_examples=25, deadline=None)
@given(st.sampled_from([3, 5, 7, 9]), st.randoms(use_true_random=False))
def test_over_as_many_rounds_as_players_every_player_has_one_bye(count, rng):
    """No second bye while a player who had none is there to take it, whatever the results."""
    players = list(range(count))
    points: Counter = Counter()
    byes: Counter = Counter()
    tables: list[tuple] = []
    for _ in range(count):
        order = sorted(players, key=lambda p: (-points[p], p))
        chosen = pairing.swiss(order, points, met=pairing.met_counts(tables), byes=byes)
        byes[chosen.bye] += 1
        points[chosen.bye] += 1
        for a, b in chosen.pairs:
            points[rng.choice((a, b))] += 1
        tables.extend(chosen.pairs)
        assert chosen.second_byes == 0
    assert set(byes.values()) == {1} and len(byes) == count


def test_a_swiss_round_refuses_a_player_listed_twice_and_fewer_than_two():
    with pytest.raises(PairingError) as twice:
        pairing.swiss([1, 2, 1], {})
    assert twice.value.code == "entrant_twice"
    with pytest.raises(PairingError) as alone:
        pairing.swiss([1], {})
    assert alone.value.code == "too_few_entrants"


# -- tables of three seats or more ------------------------------------------------------
def test_with_no_history_tables_follow_the_standings():
    seating = pairing.tables(list(range(1, 13)), 4)
    assert seating.tables == ((1, 2, 3, 4), (5, 6, 7, 8), (9, 10, 11, 12))
    assert (seating.repeats, seating.lower_bound) == (0, 0)


def test_tables_avoid_the_last_rounds_tablemates_when_they_can():
    players = list(range(16))
    last_round = [players[i : i + 4] for i in range(0, 16, 4)]
    seating = pairing.tables(players, 4, met=pairing.met_counts(last_round))
    assert seating.repeats == 0 == seating.lower_bound
    for table in seating.tables:
        assert all(a // 4 != b // 4 for a, b in itertools.combinations(table, 2))


@settings(max_examples=40, deadline=None)
@given(
    st.sampled_from([(9, 3), (12, 3), (12, 4), (16, 4), (15, 5), (18, 6)]),
    st.integers(0, 4),
    st.randoms(use_true_random=False),
)
def test_every_player_sits_once_and_repeats_never_go_below_the_bound(shape, rounds, rng):
    count, seats = shape
    players = list(range(count))
    earlier: list[list[int]] = []
    for _ in range(rounds):
        shuffled = players[:]
        rng.shuffle(shuffled)
        earlier.extend(shuffled[i : i + seats] for i in range(0, count, seats))
    met = pairing.met_counts(earlier)

    seating = pairing.tables(players, seats, met=met)

    assert sorted(p for table in seating.tables for p in table) == players
    assert all(len(table) == seats for table in seating.tables)
    assert seating.repeats >= seating.lower_bound
    recount = sum(
        1 for table in seating.tables for pair in itertools.combinations(table, 2) if met.get(frozenset(pair))
    )
    assert seating.repeats == recount


def test_the_lower_bound_counts_the_tablemates_each_player_must_meet_again():
    met = pairing.met_counts([[1, 2, 3, 4]])
    # Four who all met, at one table of four: each meets his three again, six meetings.
    assert pairing.repeat_lower_bound([1, 2, 3, 4], 4, met) == 6
    # With 5 and 6 beside them at tables of three, each of 1–4 could sit with the two
    # strangers: the bound says 0, but the two tables share 1–4 two and two, one repeat each.
    seating = pairing.tables([1, 2, 3, 4, 5, 6], 3, met=met)
    assert (seating.lower_bound, seating.repeats) == (0, 2)


@pytest.mark.parametrize(
    ("count", "most", "least", "sizes"),
    [(12, 4, 4, [4, 4, 4]), (10, 4, 3, [4, 3, 3]), (7, 6, 3, [4, 3]), (6, 6, 3, [6]), (13, 5, 3, [5, 4, 4])],
)
def test_table_sizes(count, most, least, sizes):
    assert pairing.table_sizes(count, most, least) == sizes


@pytest.mark.parametrize(
    ("count", "most", "least", "code"), [(2, 4, 3, "too_few_entrants"), (5, 4, 4, "tables_do_not_fit")]
)
def test_table_sizes_that_cannot_be(count, most, least, code):
    with pytest.raises(PairingError) as refused:
        pairing.table_sizes(count, most, least)
    assert refused.value.code == code


def test_two_hundred_players_pair_in_a_plain_call():
    """A smoke check of the size the benchmark times (benchmarks/bench_pairing.py)."""
    rng = random.Random(7)
    players = list(range(200))
    points = {p: Fraction(rng.randint(0, 8), 2) for p in players}
    order = sorted(players, key=lambda p: -points[p])
    chosen = pairing.swiss(order, points)
    assert len(chosen.pairs) == 100 and chosen.repeats == 0
