"""The club-night benchmark's event mode, its pure pieces (the benchmark itself is run by hand:
benchmarks/club_night_event.py)."""

import socket
from fractions import Fraction

import pytest

from benchmarks import club_night_event as event


def test_a_table_is_worth_one_for_a_win_a_half_each_for_a_tie():
    assert event.table_points([7, 9], [1, 2]) == {7: 1, 9: 0}
    assert event.table_points([7, 9], [2, 1]) == {7: 0, 9: 1}
    assert event.table_points([7, 9], [1, 1]) == {7: Fraction(1, 2), 9: Fraction(1, 2)}


def test_the_recount_sums_every_table_and_gives_the_unpaired_nothing():
    results = [([1, 2], [1, 2]), ([3, 4], [1, 1]), ([2, 3], [2, 1]), ([4, 1], [2, 1])]

    points = event.recount([1, 2, 3, 4, 5], results)

    assert points == {1: 2, 2: 0, 3: Fraction(3, 2), 4: Fraction(1, 2), 5: 0}
    assert event.recount([1], []) == {1: 0}


def test_the_standings_are_compared_point_for_point():
    points = {1: Fraction(2), 2: Fraction(1, 2), 3: Fraction(0)}
    rows = [
        {"player": 1, "values": {"points": 2}},
        {"player": 2, "values": {"points": 0.5}},
        {"player": 3, "values": {"points": 0}},
    ]

    assert event.standings_problems(rows, points) == []
    wrong = [{**rows[0], "values": {"points": 1.5}}, *rows[1:]]
    assert "1 players' points differ" in event.standings_problems(wrong, points)[0]
    assert "list 2 players, the recount 3" in event.standings_problems(rows[:2], points)[0]
    unknown = [*rows[:2], {"player": 3, "values": {"points": None}}]
    assert event.standings_problems(unknown, points)


def _round(number, pairs):
    return {
        "number": number,
        "tables": [
            {"table": i, "players": list(pair), "match": 100 * number + i, "bye": False}
            for i, pair in enumerate(pairs, 1)
        ],
    }


def test_every_round_seats_every_entrant_once_at_a_table_of_two():
    entrants = [1, 2, 3, 4]
    rounds = [_round(1, [(1, 2), (3, 4)]), _round(2, [(1, 3), (2, 4)])]

    assert event.round_problems(rounds, 2, entrants) == []
    assert "expected 1 to 3" in event.round_problems(rounds, 3, entrants)[0]
    twice = [_round(1, [(1, 2), (1, 4)])]
    assert any("3 players seated" in p for p in event.round_problems(twice, 1, entrants))
    short = [_round(1, [(1, 2)])]
    assert any("1 tables, expected 2" in p for p in event.round_problems(short, 1, entrants))
    bye = _round(1, [(1, 2)])
    bye["tables"].append({"table": 2, "players": [3], "match": None, "bye": True})
    assert any("not a match of two" in p for p in event.round_problems([bye], 1, [1, 2, 3]))


def test_the_projectors_polls_are_counted_by_answer_and_by_time():
    polls = [(1.0, 200), (2.0, 304), (3.0, 304), (4.0, 500), (5.0, 0), (6.0, 304)]

    assert event.count_polls(polls) == {"200": 1, "304": 3, "error": 2}
    assert event.count_polls(polls, 2.0, 5.0) == {"200": 0, "304": 2, "error": 1}
    assert event.count_polls([]) == {"200": 0, "304": 0, "error": 0}


def test_redis_ping_says_no_where_nothing_listens():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # bound, not listening: refused
        assert event.redis_ping(port, timeout=0.2) is False


def test_the_event_modes_defaults_are_the_issues():
    args = event.parse_args([])

    assert (args.tables, args.pace, args.rounds, args.projectors, args.poll) == (200, 25, 3, 50, 3.0)
    assert args.fault_round == 2
    assert event.parse_args(["--fault-round", "0", "--tables", "10"]).fault_round == 0


def test_a_fault_round_after_the_last_is_refused(capsys):
    with pytest.raises(SystemExit):
        event.parse_args(["--rounds", "2", "--fault-round", "3"])
    assert "--fault-round" in capsys.readouterr().err
