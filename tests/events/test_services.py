"""The events' services: an event, its entrants, pairing and playing its rounds, swaps,
forfeits, and every refusal with its code."""

from __future__ import annotations

from fractions import Fraction

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scorekeeper.errors import Conflict, Invalid, NotAllowed, NotFound
from scorekeeper.events import selectors, services
from scorekeeper.events.models import EventAuditEntry
from scorekeeper.matches.models import Match

pytestmark = pytest.mark.django_db


def seated(round_) -> list[list[int]]:
    return list(selectors.seats_of(selectors.round_tables(round_)).values())


def test_a_three_round_swiss_of_eight(make_event, director, finish_round):
    event = make_event(8)
    met = set()
    for number in (1, 2, 3):
        round_ = services.round_pair(event=event, by=director)
        assert round_.number == number
        tables = seated(round_)
        assert len(tables) == 4
        players = [p for t in tables for p in t]
        assert sorted(players) == sorted(selectors.active_players(event))  # everyone once
        for a, b in tables:
            assert frozenset((a, b)) not in met  # no repeat while one can be avoided
            met.add(frozenset((a, b)))
        with pytest.raises(Conflict) as refused:
            services.round_pair(event=event, by=director)
        assert refused.value.code == "round_open"
        finish_round(round_)
    with pytest.raises(Conflict) as refused:
        services.round_pair(event=event, by=director)
    assert refused.value.code == "rounds_done"
    table = selectors.standings(event)
    assert [row.values["points"] for row in table][:1] == [Fraction(3)]  # one won every round
    assert sum(row.values["points"] for row in table) == 12  # 4 tables × 3 rounds × 1 point
    services.event_finish(event=event, by=director)
    with pytest.raises(Conflict) as refused:
        services.entrant_add(event=event, player=1, by=director)
    assert refused.value.code == "event_finished"


def test_an_odd_count_gives_a_bye_and_never_twice(make_event, director, finish_round):
    event = make_event(7, rounds=5)
    byes = []
    for _ in range(5):
        round_ = services.round_pair(event=event, by=director)
        byes += [t.bye_id for t in selectors.round_tables(round_) if t.bye_id]
        finish_round(round_)
    assert len(byes) == 5 and len(set(byes)) == 5
    points = {row.player: row.values["points"] for row in selectors.standings(event)}
    assert sum(points.values()) == 5 * 3 + 5  # three tables a round and the bye's point


def test_a_table_swiss_seats_tables_of_the_size_and_says_its_repeats(make_event, director, finish_round):
    event = make_event(8, format="table_swiss", table_size=4, rounds=3)
    for _ in range(3):
        round_ = services.round_pair(event=event, by=director)
        tables = seated(round_)
        assert [len(t) for t in tables] == [4, 4]
        assert round_.repeats >= round_.repeats_bound
        finish_round(round_)
    places = [row.values["points"] for row in selectors.standings(event)]
    assert sum(places) == 3 * 2 * (3 + 2 + 1)  # default points 3/2/1/0 at each table


def test_a_round_robin_follows_the_berger_tables(make_event, director, finish_round, roster):
    event = make_event(4, format="round_robin", rounds=None)
    pairs = set()
    for _ in range(3):
        round_ = services.round_pair(event=event, by=director)
        pairs |= {frozenset(t) for t in seated(round_)}
        finish_round(round_)
    assert len(pairs) == 6  # everyone met everyone once
    with pytest.raises(Conflict) as refused:
        services.round_pair(event=event, by=director)
    assert refused.value.code == "rounds_done"
    with pytest.raises(Conflict) as late:
        services.entrant_add(event=event, player=roster[5], by=director)
    assert late.value.code == "schedule_fixed"


def test_a_league_has_a_fixture_a_week(make_event, director, finish_round):
    import datetime as dt

    event = make_event(4, format="league", rounds=None, starts_on=dt.date(2026, 9, 1))
    first = services.round_pair(event=event, by=director)
    finish_round(first)
    second = services.round_pair(event=event, by=director)
    assert (first.scheduled_for, second.scheduled_for) == (dt.date(2026, 9, 1), dt.date(2026, 9, 8))


def test_a_club_night_takes_the_directors_tables(make_event, director, roster):
    event = make_event(6, format="open")
    ids = [p.pk for p in roster[:6]]
    round_ = services.round_pair(event=event, by=director, tables=[ids[:2], ids[2:4]])
    assert seated(round_) == [ids[:2], ids[2:4]]
    # Tables form as players arrive: the next one while the first ones play.
    later = services.round_pair(event=event, by=director, tables=[ids[4:6]])
    assert seated(later) == [ids[4:6]]
    for tables in ([[ids[0], ids[5]]], [[ids[4], ids[4]]], [[ids[0]]], "x"):
        with pytest.raises(Invalid) as refused:
            services.round_pair(event=event, by=director, tables=tables)
        assert refused.value.code in ("not_an_entrant", "table_size_invalid", "tables_required")


def test_withdrawn_players_are_paired_no_more(make_event, director, finish_round, roster):
    event = make_event(8)
    finish_round(services.round_pair(event=event, by=director))
    services.entrant_withdraw(event=event, player=roster[0], by=director)
    round_ = services.round_pair(event=event, by=director)
    players = [p for t in seated(round_) for p in t]
    assert roster[0].pk not in players and len(players) == 7


def test_a_swap_before_the_first_hand_remakes_both_tables(make_event, director):
    event = make_event(8)
    round_ = services.round_pair(event=event, by=director)
    (a, b), (c, d) = seated(round_)[:2]
    old = [t.match_id for t in selectors.round_tables(round_)[:2]]
    answer = services.round_swap(round=round_, first=a, second=c, by=director)
    assert answer["warnings"] == []
    assert seated(round_)[:2] == [[c, b], [a, d]]
    assert set(Match._base_manager.filter(pk__in=old).values_list("status", flat=True)) == {"void"}
    assert EventAuditEntry.objects.filter(event=event, action="round_swap").count() == 1


def test_a_swap_after_a_hand_is_refused(make_event, director):
    from scorekeeper.matches.services import hand_record
    from tests.fakes import hand

    event = make_event(8)
    round_ = services.round_pair(event=event, by=director)
    tables = selectors.round_tables(round_)
    hand_record(match=tables[0].match_id, record=hand([1, 2]), by=director)
    (a, _), (c, _) = seated(round_)[:2]
    with pytest.raises(Conflict) as refused:
        services.round_swap(round=round_, first=a, second=c, by=director)
    assert refused.value.code == "table_started"


def test_a_swap_warns_of_a_repeat_meeting(make_event, director, finish_round):
    event = make_event(4, rounds=3)
    first = seated(services.round_pair(event=event, by=director))
    finish_round(event.round_set.get(number=1))
    round_ = services.round_pair(event=event, by=director)
    (a, b), (c, d) = seated(round_)
    partner = next(x for t in first for x in t if a in t and x != a)
    other = c if partner in (c, d) and partner == c else d
    swap = services.round_swap(
        round=round_, first=b, second=partner if partner not in (a, b) else other, by=director
    )
    assert "repeat_meeting" in [w["code"] for w in swap["warnings"]]


def test_a_forfeit_counts_and_voids_the_match(make_event, director, finish_round):
    event = make_event(4, rounds=1)
    round_ = services.round_pair(event=event, by=director)
    first, _other = selectors.round_tables(round_)
    with pytest.raises(Invalid) as refused:
        services.table_forfeit(table=first, places=[1, 1, 1], by=director, reason="no show")
    assert refused.value.code == "places_invalid"
    services.table_forfeit(table=first, places=[2, 1], by=director, reason="no show")
    first.match.refresh_from_db()
    assert first.match.status == "void"
    assert selectors.open_round(event) is not None  # the other table plays on
    finish_round(round_)
    assert selectors.open_round(event) is None
    winner = seated(round_)[0][1]
    assert next(r for r in selectors.standings(event) if r.player == winner).values["points"] == 1


def test_a_round_robin_at_tables_needs_its_rounds_and_seats_uneven_counts(make_event, director, finish_round):
    with pytest.raises(Invalid) as refused:
        make_event(7, format="round_robin", table_size=3, rounds=None)
    assert refused.value.code == "rounds_required"
    event = make_event(7, format="table_swiss", table_size=4, rounds=2)
    round_ = services.round_pair(event=event, by=director)
    assert sorted(len(t) for t in seated(round_)) == [3, 4]  # seven at tables of four: 4 + 3


@pytest.mark.parametrize(
    ("fields", "code"),
    [
        ({"name": ""}, "name_invalid"),
        ({"game": "chess"}, "game_unknown"),
        ({"format": "knockout"}, "format_unknown"),
        ({"rounds": 0}, "rounds_invalid"),
        ({"rounds": None}, "rounds_required"),
        ({"table_size": 3}, "format_for_two"),
        ({"format": "table_swiss", "table_size": 2}, "format_for_tables"),
        ({"table_size": 9}, "table_size_invalid"),
        ({"points": [1, 0, 0]}, "points_invalid"),
        ({"points": ["x"]}, "points_invalid"),
        ({"points": [-1]}, "points_invalid"),
        ({"tiebreaks": ["coin"]}, "tiebreak_unknown"),
        ({"seating": "sorted"}, "seating_unknown"),
    ],
)
def test_an_event_refuses_what_it_cannot_run(club, director, tally, fields, code):
    body = {"name": "Night", "game": "tally", "format": "swiss", "rounds": 3, **fields}
    with pytest.raises(Invalid) as refused:
        services.event_create(club=club, by=director, **body)
    assert refused.value.code == code


def test_too_few_entrants_for_a_table(make_event, director):
    event = make_event(3, format="table_swiss", table_size=4, rounds=2)
    with pytest.raises(Invalid) as refused:
        services.round_pair(event=event, by=director)
    assert refused.value.code == "too_few_entrants"


def test_only_a_director_runs_an_event(make_event, django_user_model, club):
    from scorekeeper.clubs.services import member_set

    event = make_event(4)
    scorer = django_user_model.objects.create_user("sam")
    member_set(club=club, user=scorer, role="scorer", by=club.created_by)
    with pytest.raises(NotAllowed):
        services.round_pair(event=event, by=scorer)
    with pytest.raises(NotFound):
        services.round_pair(event=10**6, by=scorer)


def test_an_entrant_twice_is_a_conflict(make_event, director, roster):
    event = make_event(2)
    with pytest.raises(Conflict) as refused:
        services.entrant_add(event=event, player=roster[0], by=director)
    assert refused.value.code == "already_entered"
    with pytest.raises(NotFound):
        services.entrant_add(event=event, player=10**6, by=director)


@given(
    count=st.integers(min_value=2, max_value=8),
    results=st.lists(st.integers(min_value=0, max_value=1), min_size=40, max_size=40),
    withdraw=st.booleans(),
)
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
def test_every_round_seats_each_active_entrant_once_or_gives_him_the_bye(
    make_event, director, count, results, withdraw
):
    """Whatever the results: nobody twice in a round, every active entrant at a table or on the
    bye, no second bye while a player without one could take it, and the standings' points add
    up to what the tables and byes gave."""
    from scorekeeper.matches.services import hand_record
    from tests.fakes import hand

    with transaction.atomic():
        event = make_event(count, rounds=4)
        outcomes = iter(results)
        byes: list[int] = []
        decided = 0
        for number in range(1, 5):
            if withdraw and number == 3 and len(selectors.active_players(event)) > 2:
                services.entrant_withdraw(event=event, player=selectors.active_players(event)[0], by=director)
            round_ = services.round_pair(event=event, by=director)
            tables = selectors.round_tables(round_)
            seats = selectors.seats_of(tables)
            players = [p for t in seats.values() for p in t]
            assert sorted(players) == sorted(selectors.active_players(event))
            for t in tables:
                if t.bye_id:
                    had_none = set(selectors.active_players(event)) - set(byes)
                    assert t.bye_id not in byes or not had_none
                    byes.append(t.bye_id)
                else:
                    winner = next(outcomes)
                    hand_record(
                        match=t.match_id, record=hand([10, 3] if winner == 0 else [3, 10]), by=director
                    )
                    decided += 1
        total = sum(row.values["points"] for row in selectors.standings(event))
        assert total == decided + len(byes)
        transaction.set_rollback(True)
