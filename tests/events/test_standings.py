"""An event's standings: the worked example of docs/events.md, and properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scorekeeper.events import pairing
from scorekeeper.events.standings import TIEBREAKS, StandingsError, Table, event_points, standings

HALF = Fraction(1, 2)

#: docs/events.md's round robin of four: A–D, B–C; D–C, A–B; B–D, C–A (Berger's table for four).
ROUND_ROBIN = [
    Table({"A": 1, "D": 2}, {"A": 120, "D": 80}),
    Table({"B": 1, "C": 1}, {"B": 100, "C": 100}),
    Table({"D": 1, "C": 2}, {"D": 110, "C": 90}),
    Table({"A": 1, "B": 1}, {"A": 95, "B": 95}),
    Table({"B": 1, "D": 2}, {"B": 130, "D": 70}),
    Table({"C": 1, "A": 2}, {"C": 105, "A": 100}),
]
PLAYERS = ["A", "B", "C", "D"]


def order(tiebreaks, **kwargs):
    return [s.player for s in standings(PLAYERS, ROUND_ROBIN, tiebreaks=tiebreaks, **kwargs)]


def test_the_worked_example_column_by_column():
    rows = {s.player: s.values for s in standings(PLAYERS, ROUND_ROBIN, tiebreaks=list(_all_but_lots()))}
    assert {p: rows[p]["points"] for p in PLAYERS} == {
        "A": Fraction(3, 2),
        "B": 2,
        "C": Fraction(3, 2),
        "D": 1,
    }
    assert {p: rows[p]["buchholz"] for p in PLAYERS} == {
        "A": Fraction(9, 2), "B": 4, "C": Fraction(9, 2), "D": 5,
    }  # fmt: skip
    assert rows["A"]["median_buchholz"] == rows["C"]["median_buchholz"] == Fraction(3, 2)
    assert (rows["A"]["sonneborn_berger"], rows["C"]["sonneborn_berger"]) == (2, Fraction(5, 2))
    assert (rows["A"]["game_points"], rows["C"]["game_points"]) == (315, 295)
    assert (rows["A"]["difference"], rows["C"]["difference"]) == (35, -15)
    assert (rows["A"]["wins"], rows["B"]["wins"], rows["C"]["wins"], rows["D"]["wins"]) == (1, 1, 1, 1)


def _all_but_lots():
    return ("points", "buchholz", "median_buchholz", "sonneborn_berger", "game_points", "difference", "wins")


def test_the_director_s_order_decides_between_a_and_c():
    assert order(["points", "sonneborn_berger"]) == ["B", "C", "A", "D"]
    assert order(["points", "game_points"]) == ["B", "A", "C", "D"]
    assert order(["points", "buchholz", "head_to_head"]) == ["B", "C", "A", "D"]  # C beat A
    assert order(["points", "difference"]) == ["B", "A", "C", "D"]
    tied = {
        s.player: s.values["head_to_head"]
        for s in standings(PLAYERS, ROUND_ROBIN, tiebreaks=["head_to_head"])
    }
    assert tied == {"A": -1, "B": None, "C": 1, "D": None}  # asked of the tied only


def test_players_no_tie_break_parts_share_a_rank():
    ranked = standings(PLAYERS, ROUND_ROBIN, tiebreaks=["points", "buchholz"])
    assert [(s.player, s.rank) for s in ranked] == [("B", 1), ("A", 2), ("C", 2), ("D", 4)]


def test_the_rating_at_the_start_and_the_lots():
    assert order(["points", "rating"], ratings={"A": 1600, "C": 1500}) == ["B", "A", "C", "D"]
    first = order(["points", "lots"], seed=5)
    assert first == order(["points", "lots"], seed=5)  # the same seed, the same draw
    assert {tuple(order(["points", "lots"], seed=s)[1:3]) for s in range(20)} == {("A", "C"), ("C", "A")}


def test_tied_places_share_their_points():
    assert event_points({"a": 1, "b": 1}, (Fraction(1), Fraction(0))) == {"a": HALF, "b": HALF}
    three = (Fraction(2), Fraction(1), Fraction(0))
    assert event_points({"x": 1, "y": 2, "z": 2}, three) == {"x": 2, "y": HALF, "z": HALF}


def test_a_bye_counts_its_points_and_nothing_to_the_opponents_tie_breaks():
    ranked = {
        s.player: s.values for s in standings(["A", "B", "C"], [Table({"A": 1, "B": 2})], byes={"C": 1})
    }
    assert ranked["C"]["points"] == 1 and ranked["C"]["buchholz"] == 0
    assert ranked["A"]["buchholz"] == 0  # B has none


def test_an_unknown_tie_break_is_refused():
    with pytest.raises(StandingsError) as refused:
        standings(PLAYERS, ROUND_ROBIN, tiebreaks=["points", "progress"])
    assert refused.value.code == "tiebreak_unknown"


@settings(max_examples=60, deadline=None)
@given(st.integers(3, 9), st.randoms(use_true_random=False))
def test_a_round_robin_s_standings(count, rng):
    """Every player once, points never rising down the list, and Buchholz the total of the
    others (everyone met everyone once)."""
    players = list(range(1, count + 1))
    tables = []
    for pairs in pairing.berger(count):
        for a, b in pairs:
            if max(a, b) > count:
                continue  # the bye
            outcome = rng.choice((1, 2, 3))
            places = {a: 1, b: 1} if outcome == 3 else {a: outcome, b: 3 - outcome}
            tables.append(Table(places, {a: rng.randint(0, 150), b: rng.randint(0, 150)}))
    ranked = standings(players, tables, tiebreaks=["points", "buchholz", "sonneborn_berger", "lots"])
    assert sorted(s.player for s in ranked) == players
    points = [s.values["points"] for s in ranked]
    assert points == sorted(points, reverse=True)
    everyone = sum(points)
    assert all(s.values["buchholz"] == everyone - s.values["points"] for s in ranked)
    assert [s.rank for s in ranked] == list(range(1, count + 1))  # the lots part every tie


@given(
    count=st.integers(min_value=2, max_value=9),
    seats=st.sampled_from([2, 3, 4]),
    rounds=st.integers(min_value=1, max_value=5),
    by_place=st.lists(st.fractions(min_value=0, max_value=5, max_denominator=4), min_size=1, max_size=4),
    rng=st.randoms(use_true_random=False),
)
@settings(max_examples=150, deadline=None)
def test_the_standings_equal_the_fractions_reference(count, seats, rounds, by_place, rng):
    """The served standings count in whole units; the first version counted in fractions: the
    same ranks and the same values, whatever the tables, places, shares and game points."""
    from .reference_standings import standings as reference

    players = list(range(count))
    tables = []
    for _ in range(rounds):
        rng.shuffle(players)
        for start in range(0, count - 1, seats):
            group = players[start : start + seats]
            if len(group) < 2:
                continue
            places = {p: rng.randint(1, len(group)) for p in group}
            points = {p: rng.choice([rng.randint(-50, 200), rng.randint(0, 100) / 4]) for p in group}
            tables.append(Table(places, points))
    options = {
        "by_place": by_place[:seats],
        "tiebreaks": list(TIEBREAKS),
        "byes": {players[-1]: 1},
        "bye_points": Fraction(1, 2),
        "ratings": {p: rng.randint(1400, 1600) for p in players},
        "seed": 7,
    }
    served = standings(players, tables, **options)
    expected = reference(players, tables, **options)
    assert [(s.player, s.rank, s.values) for s in served] == [(s.player, s.rank, s.values) for s in expected]
